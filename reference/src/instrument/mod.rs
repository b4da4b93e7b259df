//! Instrumentation for grading: operation counters, the counting reference board, memory and CPU time.
//!
//! The official grader measures a submission's Solver by substituting its own instrumented Board and by
//! intercepting the textbook MinPQ. This module is our equivalent. Everything here is deterministic except
//! [`cpu`], which is only ever used as a generous cap, never as evidence for a grade.

pub mod baseline;
pub mod counters;
pub mod counting_board;
pub mod cpu;
mod expanded;
pub mod memory;
