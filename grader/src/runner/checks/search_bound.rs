//! Plausibility floors: counts no honest search goes below. The counts are the grader's evidence and no
//! student code can reach them (specs/protocol.md, "What an adapter guarantees"), but a Solver may still do
//! its work where they cannot see it (a queue of its own, boards made without the Board API, an adapter hole
//! not yet sealed). These floors are the second line: whatever the search, a puzzle of m moves dequeues at
//! least m nodes from the MinPQ it was given and builds at least m + 1 boards through the Board API. They
//! are judged only on rows that judge counts, against the counts after the Solver's whole life (zeroed after
//! the grader built the initial board), and only of a Solver whose moves() claims the m moves: one that
//! answers otherwise (a wrong parity rule that calls a solvable board unsolvable) did not search, fails the
//! tests that judge its answers, and its small counts pass a count row as they do officially.

use corpus::Expected;

use crate::judge::Mismatch;
use crate::plan::Trial;
use crate::runner::life::Life;

/// The moves the trial's board needs, where known (0 otherwise).
fn solved_in(trial: &Trial) -> u64 {
    match trial.expected {
        Expected::Moves(m) => u64::from(m),
        _ => 0,
    }
}

/// The second line against counts that do not show a Solver's work (a queue of its own, counts evaded or
/// forged): whatever the search, a puzzle of m moves dequeues at least m nodes, one per board on its path but
/// the goal, from the MinPQ it was given.
pub fn plausible_queue(life: &Life, trial: &Trial) -> Result<(), Mismatch> {
    let m = claimed(life, trial);
    let del_mins = life.counter("pq_del_mins").unwrap_or(m);
    if del_mins >= m {
        return Ok(());
    }
    Err(Mismatch::new(format!(
        "the Solver's counts cannot be its search: a puzzle of {m} moves needs at least {m} delMin() calls on the \
         MinPQ it was given (one per board on the solution's path but the goal), and this Solver's whole life \
         shows {del_mins}"
    ))
    .with("(every search node must go through algs4's MinPQ: a queue of its own is invisible to the counts)"))
}

/// As [`plausible_queue`], for Board counts: a puzzle of m moves builds at least m + 1 boards through the
/// Board API after the grader's initial board (a board per move on the solution's path, and the twin or
/// the path's other neighbors).
pub fn plausible_boards(life: &Life, trial: &Trial) -> Result<(), Mismatch> {
    let m = claimed(life, trial);
    if m == 0 {
        return Ok(());
    }
    let built = life.counter("board_constructed").unwrap_or(m + 1);
    if built > m {
        return Ok(());
    }
    Err(Mismatch::new(format!(
        "the Solver's counts cannot be its search: a puzzle of {m} moves needs at least {} boards built through \
         the Board API (neighbors() and twin()), and this Solver's whole life shows {built}",
        m + 1
    ))
    .with("(boards made some other way than the Board API are invisible to the counts)"))
}

/// The moves the trial's board needs, if the Solver's moves() answered them (0 otherwise): only a Solver
/// that claims the solution is held to the work it takes.
pub fn claimed(life: &Life, trial: &Trial) -> u64 {
    let m = solved_in(trial);
    if life.moves().is_ok_and(|moves| u64::try_from(moves) == Ok(m)) {
        m
    } else {
        0
    }
}
