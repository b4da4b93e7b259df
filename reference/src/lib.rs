//! **Grader side: the answer key.** The reference implementation of Princeton's "8 Puzzle" assignment, and
//! what grading measures against it. A submission cannot depend on this crate: the grader refuses a
//! submission whose `Cargo.toml` names it and builds every submission against `npuzzle` alone.
//!
//! - [`Board`] and [`Solver`] mirror the assignment's API and the official reference's exact behaviour
//!   (neighbor order, twin choice, heap tie rules), so their operation counts are the baselines instructors
//!   already know. They implement the student-facing traits of `npuzzle` ([`PuzzleBoard`],
//!   [`PuzzleSolver`]) and search with its [`MinPQ`], re-exported here.
//! - [`instrument`] counts operations (the counters, the counting reference board the grader substitutes,
//!   the counting allocator, thread CPU time) for the harness in `adapters/rust/harness`; [`oracle`] gives
//!   independent answers (parity rule, exact distance tables) for tests and fixtures; [`toolkit`] goes beyond
//!   the assignment.

pub mod board;
#[doc(hidden)]
pub mod decimal;
pub mod instrument;
pub mod oracle;
pub mod puzzle_file;
pub mod solver;
pub mod toolkit;

pub use board::{Board, BoardError};
pub use npuzzle::{MinPQ, PuzzleBoard, PuzzleSolver};
pub use puzzle_file::{parse_puzzle, read_puzzle_file, ParseError, PuzzleFileError};
pub use solver::Solver;

impl PuzzleBoard for Board {
    /// Panics on an invalid grid, which the trait's contract rules out; use [`Board::new`] for unchecked
    /// input.
    fn from_tiles(tiles: &[Vec<u32>]) -> Self {
        Board::new(tiles).expect("PuzzleBoard::from_tiles requires a valid grid")
    }
    fn dimension(&self) -> usize {
        Board::dimension(self)
    }
    fn hamming(&self) -> u32 {
        Board::hamming(self)
    }
    fn manhattan(&self) -> u32 {
        Board::manhattan(self)
    }
    fn is_goal(&self) -> bool {
        Board::is_goal(self)
    }
    fn neighbors(&self) -> Vec<Self> {
        Board::neighbors(self)
    }
    fn neighbors_into(&self, out: &mut Vec<Self>) {
        self.for_each_neighbor(|board| out.push(board));
    }
    fn twin(&self) -> Self {
        Board::twin(self)
    }
}
