//! The reference solver's operation counts on a board: the baseline a student's counts are compared against.
//!
//! One function so the test client's `--stats`, the fixture generator and the grader (on a fixture directory
//! without metadata) all produce the same numbers the same way.

use crate::instrument::counters::{self, Counts};
use crate::instrument::counting_board::CountingBoard;
use crate::{Board, PuzzleSolver, Solver};

/// The outcome and counts of one reference solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baseline {
    /// Minimum moves, or −1 when unsolvable.
    pub moves: i32,
    /// The solution, initial board first; `None` when unsolvable.
    pub solution: Option<Vec<Board>>,
    /// Operation counts of the solve (construction of the initial board excluded).
    pub counts: Counts,
}

/// Solves `board` with the reference solver over the counting board and returns its counts. Resets this
/// thread's counters.
pub fn reference_baseline(board: &Board) -> Baseline {
    reference_baseline_within(board, u64::MAX).expect("an unbounded reference solve always ends")
}

/// Like [`reference_baseline`], but gives up (`None`) after `max_steps` lockstep steps.
///
/// Full instrumentation is on for the solve (as in the submission harness), so every count — the queues'
/// ending size included — is recorded exactly as a submission's would be.
pub fn reference_baseline_within(board: &Board, max_steps: u64) -> Option<Baseline> {
    let initial = CountingBoard::from_board(board.clone());
    let was_enabled = counters::enabled();
    counters::set_enabled(true);
    counters::reset();
    let solver = Solver::within(initial, max_steps);
    let counts = counters::snapshot();
    counters::set_enabled(was_enabled);
    let solver = solver?;
    let solution = solver.solution().map(|path| path.iter().map(|b| b.board().clone()).collect());
    Some(Baseline { moves: solver.moves(), solution, counts })
}

/// The `name: value` lines of the test client's `--stats` output.
pub fn stats_lines(counts: &Counts) -> Vec<(&'static str, u64)> {
    vec![
        ("inserts", counts.pq_inserts),
        ("del_mins", counts.pq_del_mins),
        ("max_queue_size", counts.pq_max_size),
        ("boards_constructed", counts.board_constructed),
        ("equals_calls", counts.board_equals),
        ("manhattan_calls", counts.board_manhattan),
    ]
}
