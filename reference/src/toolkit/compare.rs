//! `solver compare`: the four searches on the same boards, one table row each.
//!
//! Counts and lengths are deterministic; the time column is measured and printed for the reader only (no
//! test reads it). Random boards come from a seeded SplitMix64 stream, so `--seed` reproduces a table's
//! counts exactly.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use super::grid::{Grid, Shape};
use super::heuristic::ManhattanConflict;
use super::search::{self, Limits, Outcome, Run, Stats};
use super::space::{Space, SpaceError};

/// One of the searches compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Algorithm {
    #[allow(missing_docs)]
    BreadthFirst,
    /// Breadth-first from the start and from the goal at once, until the frontiers meet.
    Bidirectional,
    /// A* with Manhattan distance plus linear conflict.
    AStar,
    /// IDA* with Manhattan distance plus linear conflict.
    IdaStar,
}

impl Algorithm {
    /// Every algorithm, in table order.
    pub const ALL: [Algorithm; 4] =
        [Algorithm::BreadthFirst, Algorithm::Bidirectional, Algorithm::AStar, Algorithm::IdaStar];

    /// The name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::BreadthFirst => "breadth-first",
            Algorithm::Bidirectional => "bidirectional BFS",
            Algorithm::AStar => "A* (manhattan+LC)",
            Algorithm::IdaStar => "IDA* (manhattan+LC)",
        }
    }

    /// Runs this search from `start` (a board of `space`'s shape) to the space's goal.
    pub fn run(self, space: &Space, start: &Grid, limits: Limits) -> Result<Run, SpaceError> {
        let s = space.state(start)?;
        let h = ManhattanConflict::new(space);
        Ok(match self {
            Algorithm::BreadthFirst => search::breadth_first(space, s, limits),
            Algorithm::Bidirectional => search::bidirectional(space, s, limits),
            Algorithm::AStar => search::a_star(space, s, &h, limits),
            Algorithm::IdaStar => search::ida_star(space, s, &h, limits),
        })
    }
}

/// One row: an algorithm's totals over the boards compared.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    #[allow(missing_docs)]
    pub algorithm: Algorithm,
    /// Expanded and generated summed over the boards; peak memory the largest of any one board.
    pub stats: Stats,
    /// Total solution length over the boards; `None` if any search gave up.
    pub length: Option<u64>,
    /// Wall time over the boards.
    pub time: Duration,
}

/// Runs every algorithm on every `(start, goal)` pair. Unsolvable pairs are skipped (the caller reports them).
pub fn compare(pairs: &[(Grid, Grid)], limits: Limits) -> Result<Vec<Row>, SpaceError> {
    let spaces: Vec<Space> = pairs.iter().map(|(_, goal)| Space::new(goal)).collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    for algorithm in Algorithm::ALL {
        let mut row = Row { algorithm, stats: Stats::default(), length: Some(0), time: Duration::ZERO };
        for ((start, goal), space) in pairs.iter().zip(&spaces) {
            if !start.can_reach(goal) {
                continue;
            }
            let started = Instant::now();
            let run = algorithm.run(space, start, limits)?;
            row.time += started.elapsed();
            row.stats.expanded += run.stats.expanded;
            row.stats.generated += run.stats.generated;
            row.stats.peak_bytes = row.stats.peak_bytes.max(run.stats.peak_bytes);
            row.length = match (&run.outcome, row.length) {
                (Outcome::Solved(moves), Some(total)) => Some(total + moves.len() as u64),
                _ => None,
            };
        }
        rows.push(row);
    }
    Ok(rows)
}

/// The table, one line per algorithm, columns separated by ` | `.
pub fn render(rows: &[Row]) -> String {
    let mut out = String::new();
    let header = ["algorithm", "expanded", "generated", "length", "time", "peak memory"];
    let _ = writeln!(
        out,
        "{:<20} | {:>12} | {:>12} | {:>8} | {:>10} | {:>11}",
        header[0], header[1], header[2], header[3], header[4], header[5]
    );
    for row in rows {
        let length = row.length.map_or_else(|| "gave up".to_string(), |l| l.to_string());
        let time = format!("{:.3} s", row.time.as_secs_f64());
        let _ = writeln!(
            out,
            "{:<20} | {:>12} | {:>12} | {:>8} | {:>10} | {:>11}",
            row.algorithm.name(),
            row.stats.expanded,
            row.stats.generated,
            length,
            time,
            human_bytes(row.stats.peak_bytes)
        );
    }
    out
}

/// Bytes as `12.3 MB` (decimal units).
pub fn human_bytes(bytes: u64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < units.len() {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// `count` random solvable boards of `shape` (uniform over the goal's parity class), each paired with the
/// standard goal, from `seed`.
pub fn random_pairs(shape: Shape, count: usize, seed: u64) -> Result<Vec<(Grid, Grid)>, super::GridError> {
    let goal = Grid::goal(shape)?;
    let mut rng = SplitMix64(seed);
    let mut pairs = Vec::with_capacity(count);
    for _ in 0..count {
        let mut tiles: Vec<u16> = (0..shape.cells() as u16).collect();
        for i in (1..tiles.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            tiles.swap(i, j);
        }
        let mut board = Grid::new(shape, &tiles)?;
        if !board.can_reach(&goal) {
            // Swapping two tiles (not the blank) flips the parity.
            let (a, b) = if tiles[0] != 0 && tiles[1] != 0 { (0, 1) } else { (tiles.len() - 2, tiles.len() - 1) };
            tiles.swap(a, b);
            board = Grid::new(shape, &tiles)?;
        }
        pairs.push((board, goal.clone()));
    }
    Ok(pairs)
}

/// SplitMix64 (Steele, Lea and Flood): small, fast, and stable forever, so a seed names the same boards.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}
