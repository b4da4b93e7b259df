//! Evidence: what a test saw, as data rather than text, for renderers that draw it (the HTML report draws
//! boards as grids, a solution step by step, a timing row as a chart).
//!
//! The judge fills it where it writes a [`Mismatch`](crate::judge::Mismatch)'s text, and a count row's
//! checker fills it whatever the verdict. It repeats what the message says; it never replaces it, and the
//! text and JSON reports leave it out (the JSON schema is unchanged).

use reference::Board;

/// Boards larger than this are neither kept as grids nor printed: the judge summarizes them in the message.
pub const MAX_GRID_DIMENSION: usize = 10;

/// Solution boards kept: the first ones, and those around the first illegal step.
pub const MAX_SOLUTION_STEPS: usize = 120;

/// The tiles of an n-by-n board, row by row, 0 for the blank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Rows and columns.
    pub n: usize,
    /// `n * n` tiles.
    pub tiles: Vec<usize>,
}

impl Grid {
    /// The grid of `board`, or `None` when it is too large to draw.
    pub fn of(board: &Board) -> Option<Grid> {
        let n = board.dimension();
        (n <= MAX_GRID_DIMENSION).then(|| Grid { n, tiles: board.tiles().collect() })
    }

    /// The positions (row-major) where `other`, of the same size, holds a different tile; empty when the
    /// sizes differ.
    pub fn differences(&self, other: &Grid) -> Vec<usize> {
        if self.n != other.n {
            return vec![];
        }
        self.tiles.iter().zip(&other.tiles).enumerate().filter(|(_, (a, b))| a != b).map(|(i, _)| i).collect()
    }
}

/// A titled board (`expected`, `actual`, `board 3`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Panel {
    /// What the board is, as the message names it.
    pub title: String,
    /// Its tiles.
    pub grid: Grid,
}

/// One count of a table row against the reference's: fails when `value` over `factor` × `reference`,
/// printed with one decimal, exceeds 1.0 ([`crate::judge::Cell`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Count {
    /// The column (`insert()`, `Board()`).
    pub what: String,
    /// The submission's count.
    pub value: u64,
    /// The reference's count.
    pub reference: u64,
    /// The factor of the official rule (1.75).
    pub factor: f64,
    /// Whether the cell fails by that rule.
    pub fails: bool,
    /// The count's ratio to the allowed (factor × reference), as the official table prints it (`0.8x`).
    pub ratio: String,
}

/// What a test saw, for drawing.
#[derive(Debug, Clone, PartialEq)]
pub enum Evidence {
    /// Boards to show side by side; a later board's cells that differ from the first board's (same size) are
    /// the ones to mark (expected then actual, before then after, a board then its neighbor).
    Boards(Vec<Panel>),
    /// A solution as returned, from its first board. A long one keeps its first boards and those around the
    /// first illegal one (or its last boards when every step is legal).
    Solution {
        /// The boards kept, each with its index in the solution, in order.
        steps: Vec<(usize, Grid)>,
        /// Index (in the whole solution) of the first illegal board.
        first_illegal: Option<usize>,
        /// How many boards the solution had.
        length: usize,
    },
    /// A count row of a table: the submission's counts against the reference's.
    Counts(Vec<Count>),
}

impl Evidence {
    /// The solution `boards`, its first illegal board marked; long solutions keep their start and the boards
    /// around the illegal one. `None` when the boards are too large to draw.
    pub fn solution(boards: &[Board], first_illegal: Option<usize>) -> Option<Evidence> {
        let keep = |i: usize| {
            i < MAX_SOLUTION_STEPS / 2
                || first_illegal.is_some_and(|k| i + 3 >= k && i <= k + 1)
                || (first_illegal.is_none() && i + MAX_SOLUTION_STEPS / 2 >= boards.len())
        };
        let steps = boards
            .iter()
            .enumerate()
            .filter(|(i, _)| keep(*i))
            .map(|(i, b)| Grid::of(b).map(|g| (i, g)))
            .collect::<Option<Vec<_>>>()?;
        Some(Evidence::Solution { steps, first_illegal, length: boards.len() })
    }
}
