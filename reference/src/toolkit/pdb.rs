//! Additive pattern databases for the 4x4 puzzle (standard goal), built once and cached on disk, for
//! `solver --optimal`.
//!
//! The 15 tiles are split into disjoint groups; for each group a 0-1 breadth-first search from the goal over
//! (cells of the group's tiles, cell of the blank) finds the fewest moves *of the group's tiles* that bring
//! them home, other tiles indistinguishable and their moves free. Each move slides one tile, so the groups'
//! counts add up to a lower bound (Korf and Felner's disjoint additive databases). Each position is also
//! looked up mirrored across the main diagonal (the goal is symmetric under that transpose), and the larger
//! sum taken.
//!
//! Tables are indexed by the group's cells packed four bits each (16^k entries: no ranking in the search's
//! inner loop), with the blank minimised away. The default split is 6-6-3 ([`GROUPS_663`]): two 16 MiB
//! tables and a 4 KiB one, built in seconds with a 256 MiB scratch array per six-tile group, and saved as
//! one file so later runs only read it. (A 7-8 split needs 4 GiB of scratch in this layout and is not
//! offered.) The 5-5-5 split ([`GROUPS_555`]) builds in about a second, without a cache: `corpus::optimal`
//! proves fixtures with it.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::heuristic::Heuristic;
use super::space::State;

/// Cells of the 4x4 board.
const CELLS: usize = 16;
/// Most groups a split may have.
const MAX_GROUPS: usize = 4;
/// Marks a state not reached yet during the build.
const UNSEEN: u8 = u8::MAX;

/// The 6-6-3 split: the left columns, the right block, and the top of the right columns.
pub const GROUPS_663: &[&[u8]] = &[&[1, 5, 6, 9, 10, 13], &[7, 8, 11, 12, 14, 15], &[2, 3, 4]];
/// The 5-5-5 split: three compact blocks of the goal, three 1 MiB tables, what `corpus::optimal` uses.
pub const GROUPS_555: &[&[u8]] = &[&[1, 2, 5, 6, 9], &[3, 4, 7, 8, 12], &[10, 11, 13, 14, 15]];

/// Why a database could not be loaded or saved.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// The groups are not a partition of 1..=15 into at most four groups of at most six.
    #[error("pattern groups {0:?} must split tiles 1..=15 into at most 4 groups of at most 6")]
    BadGroups(Vec<Vec<u8>>),
    /// The cache file could not be written.
    #[error("failed to write the pattern database cache `{path}`: {source}")]
    #[allow(missing_docs)] // the message names the fields
    Write { path: PathBuf, source: std::io::Error },
}

/// Built tables for one split, and what maps a board onto them.
#[derive(Debug)]
pub struct PatternDatabase {
    groups: Vec<Vec<u8>>,
    /// `tables[g][packed cells of group g's tiles]`.
    tables: Vec<Vec<u8>>,
    /// `slot[t]`: tile `t`'s group and the bit shift of its cell in that group's index.
    slot: [(u8, u8); CELLS],
    /// `mirror_slot[t]`: the group and shift where tile `t`'s transposed cell goes in the mirrored lookup.
    mirror_slot: [(u8, u8); CELLS],
}

fn transpose(cell: usize) -> usize {
    (cell % 4) * 4 + cell / 4
}

fn mirror_tile(tile: u8) -> u8 {
    transpose(tile as usize - 1) as u8 + 1
}

impl PatternDatabase {
    /// The database for `groups`, read from `cache_dir` if a matching file is there, otherwise built (and
    /// then saved there, when a directory is given).
    pub fn load_or_build(groups: &[&[u8]], cache_dir: Option<&Path>) -> Result<PatternDatabase, PdbError> {
        let groups: Vec<Vec<u8>> = groups.iter().map(|g| g.to_vec()).collect();
        let mut all: Vec<u8> = groups.iter().flatten().copied().collect();
        all.sort_unstable();
        if groups.len() > MAX_GROUPS || groups.iter().any(|g| g.len() > 6) || all != (1..16).collect::<Vec<u8>>() {
            return Err(PdbError::BadGroups(groups));
        }
        let path = cache_dir.map(|dir| dir.join(file_name(&groups)));
        if let Some(tables) = path.as_deref().and_then(|p| read_tables(p, &groups)) {
            return Ok(Self::with_tables(groups, tables));
        }
        let mut scratch = Vec::new();
        let tables: Vec<Vec<u8>> = groups.iter().map(|g| build_table(g, &mut scratch)).collect();
        if let Some(path) = path {
            write_tables(&path, &tables).map_err(|source| PdbError::Write { path, source })?;
        }
        Ok(Self::with_tables(groups, tables))
    }

    fn with_tables(groups: Vec<Vec<u8>>, tables: Vec<Vec<u8>>) -> PatternDatabase {
        let mut slot = [(0u8, 0u8); CELLS];
        let mut mirror_slot = [(0u8, 0u8); CELLS];
        for (g, group) in groups.iter().enumerate() {
            for (i, &tile) in group.iter().enumerate() {
                slot[tile as usize] = (g as u8, 4 * i as u8);
                // The mirror image has, in tile `tile`'s place, the tile whose goal cell transposes onto it.
                mirror_slot[mirror_tile(tile) as usize] = (g as u8, 4 * i as u8);
            }
        }
        PatternDatabase { groups, tables, slot, mirror_slot }
    }
}

/// Where `solver --optimal` and `korf-bench` keep the databases by default: the user's cache directory,
/// `$XDG_CACHE_HOME/npuzzle-solver` (when that is an absolute path, the XDG rule) or
/// `$HOME/.cache/npuzzle-solver`; `None` when neither variable says where.
pub fn default_cache_dir() -> Option<PathBuf> {
    user_cache_dir(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

fn user_cache_dir(xdg_cache_home: Option<std::ffi::OsString>, home: Option<std::ffi::OsString>) -> Option<PathBuf> {
    let xdg = xdg_cache_home.map(PathBuf::from).filter(|dir| dir.is_absolute());
    let base = xdg.or_else(|| home.map(|home| PathBuf::from(home).join(".cache")))?;
    Some(base.join("npuzzle-solver"))
}

/// Whether `cache_dir` holds the databases of `groups` (so loading them builds nothing).
pub fn is_cached(groups: &[&[u8]], cache_dir: Option<&Path>) -> bool {
    let groups: Vec<Vec<u8>> = groups.iter().map(|g| g.to_vec()).collect();
    let expected: u64 = groups.iter().map(|g| 1u64 << (4 * g.len())).sum();
    cache_dir.is_some_and(|dir| std::fs::metadata(dir.join(file_name(&groups))).is_ok_and(|m| m.len() == expected))
}

/// The cache file's name: the split, so different splits never mix.
fn file_name(groups: &[Vec<u8>]) -> String {
    let split: Vec<String> = groups.iter().map(|g| g.iter().map(u8::to_string).collect::<Vec<_>>().join(".")).collect();
    format!("pdb4x4-v1-{}.bin", split.join("_"))
}

fn read_tables(path: &Path, groups: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    let mut file = std::fs::File::open(path).ok()?;
    let mut tables = Vec::new();
    for group in groups {
        let mut table = vec![0u8; 1 << (4 * group.len())];
        file.read_exact(&mut table).ok()?;
        tables.push(table);
    }
    let mut rest = [0u8; 1];
    (file.read(&mut rest).ok()? == 0).then_some(tables)
}

/// Writes the tables to a temporary file and renames it, so a reader never sees half a file.
fn write_tables(path: &Path, tables: &[Vec<u8>]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let temporary = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file = std::io::BufWriter::new(std::fs::File::create(&temporary)?);
    for table in tables {
        file.write_all(table)?;
    }
    file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&temporary, path)
}

/// 0-1 BFS for one group: a state packs the blank's cell in bits 0..4 and tile `i`'s cell in bits
/// `4(i+1)..4(i+2)`; blank-only moves cost 0, group-tile moves 1. Returns the table with the blank minimised.
fn build_table(group: &[u8], dist: &mut Vec<u8>) -> Vec<u8> {
    let placements = 1usize << (4 * group.len());
    dist.clear();
    dist.resize(placements * CELLS, UNSEEN);
    let start = group.iter().enumerate().fold(CELLS - 1, |acc, (i, &t)| acc | (t as usize - 1) << (4 * (i + 1)));
    dist[start] = 0;
    let neighbours: Vec<Vec<usize>> = (0..CELLS)
        .map(|c| {
            let (r, col) = (c / 4, c % 4);
            let mut v = Vec::new();
            if r > 0 {
                v.push(c - 4);
            }
            if r < 3 {
                v.push(c + 4);
            }
            if col > 0 {
                v.push(c - 1);
            }
            if col < 3 {
                v.push(c + 1);
            }
            v
        })
        .collect();
    let mut current = vec![start as u32];
    let mut level = 0u8;
    while !current.is_empty() {
        let mut next = Vec::new();
        while let Some(state) = current.pop() {
            let state = state as usize;
            if dist[state] != level {
                continue;
            }
            let blank = state & 0xF;
            let mut occupant = [u8::MAX; CELLS];
            for i in 0..group.len() {
                occupant[(state >> (4 * (i + 1))) & 0xF] = i as u8;
            }
            let placement = state & !0xF;
            for &cell in &neighbours[blank] {
                let (moved, cost) = match occupant[cell] {
                    u8::MAX => (placement | cell, level),
                    i => {
                        let shift = 4 * (i as usize + 1);
                        ((placement & !(0xF << shift)) | blank << shift | cell, level + 1)
                    }
                };
                if dist[moved] > cost {
                    dist[moved] = cost;
                    if cost == level {
                        current.push(moved as u32)
                    } else {
                        next.push(moved as u32)
                    }
                }
            }
        }
        current = next;
        level += 1;
    }
    (0..placements).map(|p| dist[p * CELLS..(p + 1) * CELLS].iter().copied().min().unwrap_or(UNSEEN)).collect()
}

/// The 4x4 heuristic over a database: the larger of the direct and mirrored sums.
#[derive(Debug, Clone, Copy)]
pub struct PatternHeuristic<'a> {
    db: &'a PatternDatabase,
}

/// The memo: each group's table index, direct and mirrored, so a slide rewrites one nibble of two indices
/// and reads two table entries.
#[derive(Debug, Clone, Copy)]
pub struct PatternMemo {
    index: [u32; MAX_GROUPS],
    mirror_index: [u32; MAX_GROUPS],
    direct: [u8; MAX_GROUPS],
    mirrored: [u8; MAX_GROUPS],
}

impl<'a> PatternHeuristic<'a> {
    /// The heuristic over `db` (4x4 boards, standard goal only).
    pub fn new(db: &'a PatternDatabase) -> Self {
        PatternHeuristic { db }
    }

    #[inline]
    fn lookup(&self, g: usize, index: u32) -> u8 {
        // An index packs the group's cells four bits each, so it is always below the table's length.
        self.db.tables[g][index as usize]
    }
}

impl Heuristic for PatternHeuristic<'_> {
    type Memo = PatternMemo;

    fn start(&self, s: &State) -> PatternMemo {
        let mut memo =
            PatternMemo { index: [0; MAX_GROUPS], mirror_index: [0; MAX_GROUPS], direct: [0; 4], mirrored: [0; 4] };
        for cell in 0..CELLS {
            let tile = s.tile(cell) as usize;
            if tile != 0 {
                let (g, shift) = self.db.slot[tile];
                memo.index[g as usize] |= (cell as u32) << shift;
                let (k, shift) = self.db.mirror_slot[tile];
                memo.mirror_index[k as usize] |= (transpose(cell) as u32) << shift;
            }
        }
        for g in 0..self.db.groups.len() {
            memo.direct[g] = self.lookup(g, memo.index[g]);
            memo.mirrored[g] = self.lookup(g, memo.mirror_index[g]);
        }
        memo
    }

    #[inline]
    fn value(&self, m: &PatternMemo) -> u32 {
        let sum = |parts: &[u8; MAX_GROUPS]| parts.iter().map(|&p| u32::from(p)).sum::<u32>();
        sum(&m.direct).max(sum(&m.mirrored))
    }

    #[inline]
    fn after(&self, memo: &PatternMemo, next: &State, from: usize, _to: usize) -> PatternMemo {
        let tile = next.tile(from) as usize;
        let mut m = *memo;
        let (g, shift) = self.db.slot[tile];
        let g = g as usize;
        m.index[g] = (m.index[g] & !(0xF << shift)) | (from as u32) << shift;
        m.direct[g] = self.lookup(g, m.index[g]);
        let (k, shift) = self.db.mirror_slot[tile];
        let k = k as usize;
        m.mirror_index[k] = (m.mirror_index[k] & !(0xF << shift)) | (transpose(from) as u32) << shift;
        m.mirrored[k] = self.lookup(k, m.mirror_index[k]);
        m
    }

    /// Starts loading the two table entries the child will read: the tables are larger than the cache, and
    /// the search otherwise waits for each entry in turn.
    #[inline]
    fn prefetch(&self, memo: &PatternMemo, s: &State, from: usize, to: usize) {
        let tile = s.tile(to) as usize;
        let (g, shift) = self.db.slot[tile];
        let index = (memo.index[g as usize] & !(0xF << shift)) | (from as u32) << shift;
        prefetch(&self.db.tables[g as usize][index as usize]);
        let (k, shift) = self.db.mirror_slot[tile];
        let index = (memo.mirror_index[k as usize] & !(0xF << shift)) | (transpose(from) as u32) << shift;
        prefetch(&self.db.tables[k as usize][index as usize]);
    }
}

/// Asks the processor to bring `byte` into cache without waiting for it.
#[inline]
fn prefetch(byte: &u8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: SSE is part of every x86_64 target, and a prefetch of a valid reference neither reads
        // memory nor faults; it is only a hint.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = byte;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolkit::{Dir, Grid, Heuristic, ManhattanConflict, Shape, Space};

    /// A 4-4-4-3 split: its tables are 64 KiB each, built in milliseconds, so tests can afford it.
    const SMALL: &[&[u8]] = &[&[1, 2, 5, 6], &[3, 4, 7, 8], &[9, 10, 13, 14], &[11, 12, 15]];

    fn space() -> Space {
        Space::new(&Grid::goal(Shape { rows: 4, cols: 4 }).unwrap()).unwrap()
    }

    #[test]
    fn the_databases_go_to_the_users_cache_directory() {
        let dir = |xdg: Option<&str>, home: Option<&str>| user_cache_dir(xdg.map(Into::into), home.map(Into::into));
        assert_eq!(dir(Some("/x/cache"), Some("/home/a")), Some(PathBuf::from("/x/cache/npuzzle-solver")));
        assert_eq!(dir(Some("relative"), Some("/home/a")), Some(PathBuf::from("/home/a/.cache/npuzzle-solver")));
        assert_eq!(dir(None, Some("/home/a")), Some(PathBuf::from("/home/a/.cache/npuzzle-solver")));
        assert_eq!(dir(None, None), None);
    }

    #[test]
    fn bad_splits_are_refused() {
        assert!(PatternDatabase::load_or_build(&[&[1, 2, 3]], None).is_err());
        assert!(
            PatternDatabase::load_or_build(&[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]], None).is_err()
        );
    }

    #[test]
    fn cached_tables_read_back_equal_and_the_name_records_the_split() {
        let dir = tempfile::tempdir().unwrap();
        let built = PatternDatabase::load_or_build(SMALL, Some(dir.path())).unwrap();
        let file = dir.path().join("pdb4x4-v1-1.2.5.6_3.4.7.8_9.10.13.14_11.12.15.bin");
        assert!(file.exists());
        let read = PatternDatabase::load_or_build(SMALL, Some(dir.path())).unwrap();
        assert_eq!(built.tables, read.tables);
        // A truncated file is rebuilt, not trusted.
        std::fs::write(&file, b"short").unwrap();
        let rebuilt = PatternDatabase::load_or_build(SMALL, Some(dir.path())).unwrap();
        assert_eq!(built.tables, rebuilt.tables);
    }

    /// Along a random walk: zero exactly at the goal, never below Manhattan distance, and the incremental
    /// memo equal to a fresh one.
    #[test]
    fn incremental_lookups_match_fresh_ones_along_a_walk() {
        let db = PatternDatabase::load_or_build(SMALL, None).unwrap();
        let space = space();
        let h = PatternHeuristic::new(&db);
        let manhattan = ManhattanConflict::new(&space);
        let mut s = space.goal();
        let mut memo = h.start(&s);
        assert_eq!(h.value(&memo), 0);
        let mut seed = 7u64;
        for _ in 0..2000 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let from = s.blank();
            let Some(to) = space.step(from, Dir::ALL[(seed >> 62) as usize]) else { continue };
            s = s.slide(to);
            memo = h.after(&memo, &s, from, to);
            assert_eq!(h.value(&memo), h.value(&h.start(&s)));
            assert!(h.value(&memo) >= manhattan.manhattan(&s));
            assert_eq!(h.value(&memo) == 0, space.is_goal(&s));
        }
    }

    /// Admissible against exact distances: every board within 14 moves of the goal (plain BFS).
    #[test]
    fn never_overestimates_near_the_goal() {
        let db = PatternDatabase::load_or_build(SMALL, None).unwrap();
        let space = space();
        let h = PatternHeuristic::new(&db);
        let mut seen = std::collections::HashSet::from([space.goal()]);
        let mut frontier = vec![space.goal()];
        for depth in 1..=14 {
            let mut next = Vec::new();
            for s in &frontier {
                for dir in Dir::ALL {
                    if let Some(n) = space.successor(s, dir) {
                        if seen.insert(n) {
                            assert!(h.value(&h.start(&n)) <= depth);
                            next.push(n);
                        }
                    }
                }
            }
            frontier = next;
        }
        assert!(seen.len() > 10_000);
        // IDA* over the databases finds exactly 14 moves from boards BFS first reached at 14.
        for s in frontier.iter().step_by(frontier.len() / 40) {
            let run = crate::toolkit::search::ida_star(&space, *s, &h, crate::toolkit::Limits::NONE);
            let crate::toolkit::Outcome::Solved(moves) = run.outcome else { panic!("unsolved") };
            assert_eq!(moves.len(), 14);
            assert!(space.is_goal(&space.walk(s, &moves).unwrap()));
        }
    }
}
