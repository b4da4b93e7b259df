//! **Student side.** What a Rust submission to the 8 Puzzle assignment compiles against, and nothing else:
//!
//! - [`PuzzleBoard`] and [`PuzzleSolver`], the assignment's `Board` and `Solver` APIs as traits. A Solver is
//!   generic over the board, because the grader also runs it over its own instrumented board.
//! - [`MinPQ`], the textbook priority queue the assignment requires.
//! - [`submission_main!`], the one line of `main.rs`: it names the submission's types. Run by the student
//!   (`cargo run --release -- puzzle04.txt`) it is the assignment's test client ([`client`]); the grader
//!   builds the same code as a library and links it with its own harness.
//!
//! This crate contains no answer (no reference Board or Solver) and no way to read, reset or replace the
//! grader's operation counts: [`MinPQ`] reports each operation to an observer the grader's harness installs
//! before any student code runs, and that observer can be neither read nor replaced from here. The grader
//! builds a submission against its own copy of this crate, whatever path or version the student's
//! `Cargo.toml` names.

pub mod api;
pub mod client;
pub mod minpq;
#[doc(hidden)]
pub mod observe;

pub use api::{PuzzleBoard, PuzzleSolver, Submission};
pub use minpq::MinPQ;

/// The whole `main.rs` of a submission beyond its modules: `npuzzle::submission_main!(board::Board,
/// solver::Solver);`
///
/// `Solver` is the name of a generic type `Solver<B: PuzzleBoard>`: the grader runs it over the student's
/// board and over its instrumented board. The macro defines the submission's [`Submission`] type (which the
/// grader's harness finds by name) and a `main` that runs the local [`client`].
#[macro_export]
macro_rules! submission_main {
    ($board:ty, $($solver:ident)::+) => {
        /// This submission's types, as the grader's harness finds them.
        #[doc(hidden)]
        pub struct __NpuzzleSubmission;

        impl $crate::Submission for __NpuzzleSubmission {
            type Board = $board;
            type OwnSolver = $($solver)::+<$board>;
            type Solver<B: $crate::api::GradedBoard> = $($solver)::+<B>;
        }

        #[allow(dead_code)]
        fn main() -> ::std::process::ExitCode {
            $crate::client::run::<__NpuzzleSubmission>()
        }
    };
}
