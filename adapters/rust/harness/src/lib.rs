//! **Grader side: the Rust adapter.** Turns a student's `Board` and `Solver` into a program that speaks the
//! grader's protocol (`specs/protocol.md`); [`protocol`] holds the wire types the grader shares.
//!
//! A submission never names this crate. The grader builds the student's code as a library that depends on
//! `npuzzle` alone, and links it into a wrapper binary of its own whose `main` is
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: reference::instrument::memory::CountingAllocator = reference::instrument::memory::CountingAllocator;
//! fn main() -> std::process::ExitCode { npuzzle_harness::serve_submission::<student::__NpuzzleSubmission>() }
//! ```
//!
//! [`serve`] installs the counters as the observer of every `npuzzle::MinPQ` (and refuses to serve if some
//! other observer got there first), then serves three instantiations: the student's Board, their Solver over
//! their Board (the `own` world), and their Solver over the
//! [`CountingBoard`](reference::instrument::counting_board::CountingBoard) (the `ref` world, as the official
//! grader substitutes its reference Board).
//!
//! The harness owns the protocol channel: before any student code runs it keeps the real standard output for
//! itself and points file descriptor 1 at standard error, so `println!` debugging cannot corrupt a reply.

mod objects;
mod outbox;
pub mod protocol;
pub mod replay;
mod server;
mod static_memory;

pub use server::{serve, serve_with, Serving};

use reference::instrument::counting_board::CountingBoard;

/// Serves a submission declared by `npuzzle::submission_main!`.
pub fn serve_submission<S>() -> std::process::ExitCode
where
    S: npuzzle::Submission,
    S::Board: 'static,
    S::OwnSolver: 'static,
    S::Solver<CountingBoard>: 'static,
{
    serve::<S::Board, S::OwnSolver, S::Solver<CountingBoard>>()
}
