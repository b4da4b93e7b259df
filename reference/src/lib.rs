//! The reference implementation of Princeton's "8 Puzzle" assignment, and the pieces that grade against it.
//!
//! - [`Board`], [`MinPQ`] and [`Solver`] mirror the assignment's API and the official reference's exact
//!   behaviour (neighbor order, twin choice, heap tie rules), so their operation counts are the baselines
//!   instructors already know.
//! - [`PuzzleBoard`] and [`PuzzleSolver`] are the traits a Rust submission implements; the Solver is generic
//!   over the board so the grader can substitute the counting reference board.
//! - [`instrument`] counts operations, memory and CPU time; [`oracle`] gives independent answers (parity
//!   rule, exact distance tables) for tests and fixtures; [`harness`] turns a submission into a program that
//!   speaks the grader's protocol.

pub mod api;
pub mod board;
mod decimal;
pub mod harness;
pub mod instrument;
pub mod minpq;
pub mod oracle;
pub mod protocol;
pub mod puzzle_file;
pub mod solver;
pub mod toolkit;

pub use api::{PuzzleBoard, PuzzleSolver};
pub use board::{Board, BoardError};
pub use minpq::MinPQ;
pub use puzzle_file::{parse_puzzle, read_puzzle_file, ParseError, PuzzleFileError};
pub use solver::Solver;
