//! The Rust harness: turns a student's `Board` and `Solver` into a program that speaks the grader's protocol
//! (`specs/protocol.md`).
//!
//! A Rust submission's `main.rs` is one line:
//!
//! ```ignore
//! reference::submission_main!(board::Board, solver::Solver);
//! ```
//!
//! The macro installs the counting allocator (for the memory checks) and runs [`serve`] with three
//! instantiations: the student's Board, their Solver over their Board (the `own` world), and their Solver over
//! the [`CountingBoard`](crate::instrument::counting_board::CountingBoard) (the `ref` world, as the official
//! grader substitutes its reference Board). Their Solver must therefore be generic over
//! [`PuzzleBoard`](crate::PuzzleBoard).
//!
//! The harness owns the protocol channel: before any student code runs it keeps the real standard output for
//! itself and points file descriptor 1 at standard error, so `println!` debugging cannot corrupt a reply.

mod objects;
mod outbox;
mod server;

pub use server::{serve, serve_with, Serving};

/// Expands to the `main` of a Rust submission: `submission_main!(path::to::Board, path::to::Solver)`.
///
/// `Solver` is the name of a generic type `Solver<B: PuzzleBoard>`; the macro instantiates it with the
/// student's board and with the counting reference board.
#[macro_export]
macro_rules! submission_main {
    ($board:ty, $($solver:ident)::+) => {
        #[global_allocator]
        static SUBMISSION_ALLOCATOR: $crate::instrument::memory::CountingAllocator =
            $crate::instrument::memory::CountingAllocator;

        fn main() -> ::std::process::ExitCode {
            $crate::harness::serve::<
                $board,
                $($solver)::+<$board>,
                $($solver)::+<$crate::instrument::counting_board::CountingBoard>,
            >()
        }
    };
}
