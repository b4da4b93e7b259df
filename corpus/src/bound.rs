//! The search bound of a puzzle: how many boards every A* search with the Manhattan priority must take out of
//! its queue and expand before it can know the puzzle's optimal number of moves (`specs/search-bound.md`).
//!
//! B(p) is the number of distinct boards b with g*(b) + h(b) < C*, where g*(b) is b's shortest distance
//! from the puzzle's initial board, h the Manhattan distance and C* the optimal number of moves. It is
//! computed here by a breadth-first search from the initial board that expands only boards with g + h < C*:
//! Manhattan is consistent, so every board on a shortest path to such a board is such a board too, and the
//! pruned search reaches each one at its true distance (the proof is in the spec). A board of the pruned
//! search reached with g + h >= C* is not one of them and is not kept.
//!
//! This code shares nothing with the reference `Board` and `Solver` whose A* the bound is checked against
//! (`fixturegen check` and the grader's rule): it reads the board's tiles once and searches on packed
//! states of its own.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use reference::Board;

/// The most cells a board may have for its bound to be computed (five bits a cell in a `u128`: 5-by-5).
pub const MAX_BOUND_CELLS: usize = 25;

/// The most boards a bound is computed for (the grader's, at plan time, and the generator's): seven times
/// the largest official timing puzzle's (puzzle36: 141,646), and twice what a puzzle the generator records
/// reference counts for can have (the reference removes every board of the bound, within 260,000 lockstep
/// steps). Past it the search stops, after about a second and 70 MB.
pub const BOUND_BUDGET: u64 = 1_000_000;

/// Why a bound was not computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundError {
    /// The board has more cells than the packed state holds.
    #[error("a {0}-by-{0} board is too large for the bound's search (at most 5-by-5)")]
    TooLarge(usize),
    /// The search met more boards of the bound than the budget allows.
    #[error("the bound has more than {0} boards (the budget)")]
    OverBudget(u64),
    /// The goal was reached in fewer moves than claimed: the claimed optimum is wrong.
    #[error("the goal is {found} moves away, fewer than the {claimed} claimed")]
    ShorterPath {
        /// The moves claimed optimal.
        claimed: u32,
        /// The moves the pruned search found.
        found: u32,
    },
}

/// B(p) for the board `board` whose optimal number of moves is `moves`, counting at most `budget` boards.
///
/// A board whose manhattan() is its moves has a bound of 0 on any size (the big memory puzzles): manhattan is
/// consistent, so every board b has g\*(b) + h(b) ≥ h(board) = `moves`, and none is below.
///
/// # Errors
/// [`BoundError::TooLarge`] beyond 5-by-5 (unless the bound is 0 as above, or `moves` is 0),
/// [`BoundError::OverBudget`] when more than `budget` boards qualify, and [`BoundError::ShorterPath`] when
/// the goal is nearer than `moves` (a wrong claimed optimum: the bound would not be the puzzle's).
pub fn search_bound(board: &Board, moves: u32, budget: u64) -> Result<u64, BoundError> {
    if moves == 0 || board.manhattan() == moves {
        return Ok(0);
    }
    let n = board.dimension();
    if n * n > MAX_BOUND_CELLS {
        return Err(BoundError::TooLarge(n));
    }
    let tiles: Vec<usize> = board.tiles().collect();
    Pruned { n, limit: moves, budget }.count(&tiles)
}

/// A packed board: tile of cell c in bits 5c..5c+5 (0 = blank).
type Packed = u128;

/// One board of the search's frontier: its packed tiles, its blank's cell and its Manhattan distance.
#[derive(Clone, Copy)]
struct Node {
    tiles: Packed,
    blank: usize,
    h: u32,
}

/// The pruned breadth-first search: boards of f = g + h below `limit`, at most `budget` of them.
struct Pruned {
    n: usize,
    limit: u32,
    budget: u64,
}

impl Pruned {
    fn count(&self, tiles: &[usize]) -> Result<u64, BoundError> {
        let start = self.node(tiles);
        if start.h >= self.limit {
            return Ok(0);
        }
        let mut seen: HashSet<Packed, BuildHasherDefault<Mix>> = HashSet::default();
        seen.insert(start.tiles);
        let mut layer = vec![start];
        let mut next = Vec::new();
        for g in 0u32.. {
            for node in &layer {
                if node.h == 0 {
                    return Err(BoundError::ShorterPath { claimed: self.limit, found: g });
                }
                self.expand(node, g, &mut seen, &mut next);
            }
            if seen.len() as u64 > self.budget {
                return Err(BoundError::OverBudget(self.budget));
            }
            if next.is_empty() {
                break;
            }
            std::mem::swap(&mut layer, &mut next);
            next.clear();
        }
        Ok(seen.len() as u64)
    }

    /// Puts `node`'s neighbors with g + h below the limit, not seen before, on the next layer.
    fn expand(&self, node: &Node, g: u32, seen: &mut HashSet<Packed, BuildHasherDefault<Mix>>, next: &mut Vec<Node>) {
        let n = self.n;
        let (row, col) = (node.blank / n, node.blank % n);
        let targets = [
            (row + 1 < n).then(|| node.blank + n),
            (col + 1 < n).then(|| node.blank + 1),
            (col > 0).then(|| node.blank - 1),
            (row > 0).then(|| node.blank - n),
        ];
        for to in targets.into_iter().flatten() {
            let tile = ((node.tiles >> (5 * to)) & 31) as usize;
            // the tile slides from `to` into the blank's cell: its distance changes by one
            let h = node.h + self.distance(tile, node.blank) - self.distance(tile, to);
            if g + 1 + h >= self.limit {
                continue;
            }
            let tiles = (node.tiles & !(31 << (5 * to))) | (tile as Packed) << (5 * node.blank);
            if seen.insert(tiles) {
                next.push(Node { tiles, blank: to, h });
            }
        }
    }

    fn node(&self, tiles: &[usize]) -> Node {
        let mut packed: Packed = 0;
        let (mut blank, mut h) = (0, 0);
        for (cell, &tile) in tiles.iter().enumerate() {
            packed |= (tile as Packed) << (5 * cell);
            if tile == 0 {
                blank = cell;
            } else {
                h += self.distance(tile, cell);
            }
        }
        Node { tiles: packed, blank, h }
    }

    /// The Manhattan distance of `tile` in `cell` from its goal cell (tile t's goal is cell t - 1).
    fn distance(&self, tile: usize, cell: usize) -> u32 {
        let goal = tile - 1;
        ((goal / self.n).abs_diff(cell / self.n) + (goal % self.n).abs_diff(cell % self.n)) as u32
    }
}

/// A multiplicative hash of a packed board (the default SipHash costs more than the search's other work).
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u128(&mut self, value: u128) {
        let folded = (value as u64) ^ ((value >> 64) as u64).rotate_left(29);
        self.0 = (folded ^ (folded >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 29;
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use super::*;

    /// Every board's distance from `start` by a plain breadth-first search over the whole space (3-by-3 at
    /// most), with tiles as vectors: nothing shared with the pruned search.
    fn distances(n: usize, start: &[usize]) -> HashMap<Vec<usize>, u32> {
        let mut dist = HashMap::from([(start.to_vec(), 0)]);
        let mut queue = VecDeque::from([start.to_vec()]);
        while let Some(board) = queue.pop_front() {
            let d = dist[&board];
            let blank = board.iter().position(|&t| t == 0).unwrap();
            let (row, col) = (blank / n, blank % n);
            let mut targets = vec![];
            if row > 0 {
                targets.push(blank - n);
            }
            if row + 1 < n {
                targets.push(blank + n);
            }
            if col > 0 {
                targets.push(blank - 1);
            }
            if col + 1 < n {
                targets.push(blank + 1);
            }
            for to in targets {
                let mut next = board.clone();
                next.swap(blank, to);
                if !dist.contains_key(&next) {
                    dist.insert(next.clone(), d + 1);
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    fn manhattan(n: usize, board: &[usize]) -> u32 {
        let mut sum = 0;
        for (cell, &t) in board.iter().enumerate() {
            if t != 0 {
                sum += ((t - 1) / n).abs_diff(cell / n) + ((t - 1) % n).abs_diff(cell % n);
            }
        }
        sum as u32
    }

    /// B by definition: the optimum from the full search, then every board with g* + h below it.
    fn by_definition(n: usize, start: &[usize]) -> (u32, u64) {
        let dist = distances(n, start);
        let goal: Vec<usize> = (1..n * n).chain([0]).collect();
        let optimum = dist[&goal];
        let bound = dist.iter().filter(|(board, &g)| g + manhattan(n, board) < optimum).count();
        (optimum, bound as u64)
    }

    #[test]
    fn the_pruned_search_counts_what_the_definition_counts() {
        let mut rng = crate::rng::Rng::new(0xB0);
        for n in [2, 3] {
            let table = reference::oracle::DistanceTable::for_dimension(n).unwrap();
            for moves in [1, 4, 14, 26] {
                if n == 2 && moves > 6 {
                    continue;
                }
                let board = crate::sampler::exactly_k_moves(table, moves, &mut rng);
                let tiles: Vec<usize> = board.tiles().collect();
                let (optimum, expected) = by_definition(n, &tiles);
                assert_eq!(optimum, moves);
                assert_eq!(search_bound(&board, moves, u64::MAX), Ok(expected), "{tiles:?}");
            }
        }
    }

    #[test]
    fn a_claimed_optimum_above_the_true_one_is_refused() {
        let board = reference::parse_puzzle("3\n0 1 3\n4 2 5\n7 8 6\n").unwrap();
        assert_eq!(search_bound(&board, 4, u64::MAX), Ok(0), "manhattan 4 = moves: no board is below");
        assert_eq!(search_bound(&board, 6, u64::MAX), Err(BoundError::ShorterPath { claimed: 6, found: 4 }));
        assert_eq!(
            search_bound(&Board::goal(3).unwrap(), 2, u64::MAX),
            Err(BoundError::ShorterPath { claimed: 2, found: 0 })
        );
    }

    #[test]
    fn large_boards_and_budgets_are_named() {
        let big = Board::goal(6).unwrap().twin();
        assert_eq!(search_bound(&big, 0, 10), Ok(0));
        assert_eq!(search_bound(&big, 21, 10), Err(BoundError::TooLarge(6)));
        assert_eq!(search_bound(&big, 2, 10), Ok(0), "manhattan = moves: no board is below, on any size");
        let table = reference::oracle::DistanceTable::for_dimension(3).unwrap();
        let puzzle = crate::sampler::exactly_k_moves(table, 24, &mut crate::rng::Rng::new(7));
        assert_eq!(search_bound(&puzzle, 24, 2), Err(BoundError::OverBudget(2)));
    }
}
