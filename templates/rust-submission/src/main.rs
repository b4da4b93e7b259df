// The only line you write beyond Board and Solver: it names your types for the grader's harness.
mod board;
mod solver;

npuzzle::submission_main!(board::Board, solver::Solver);
