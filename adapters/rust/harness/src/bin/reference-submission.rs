//! The reference implementation as a gradable submission: the harness over the reference Board and Solver.
//! `make grade` grades this program; every test must pass. (A student's submission is linked the same way,
//! by a wrapper the grader generates.)

#[global_allocator]
static ALLOCATOR: reference::instrument::memory::CountingAllocator = reference::instrument::memory::CountingAllocator;

fn main() -> std::process::ExitCode {
    npuzzle_harness::serve::<
        reference::Board,
        reference::Solver<reference::Board>,
        reference::Solver<reference::instrument::counting_board::CountingBoard>,
    >()
}
