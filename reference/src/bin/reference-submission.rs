//! The reference implementation as a gradable submission: the harness over the reference Board and Solver.
//! `make grade` grades this program; every test must pass.

reference::submission_main!(reference::Board, reference::Solver);
