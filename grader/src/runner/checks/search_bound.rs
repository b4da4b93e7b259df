//! The search bound (`specs/search-bound.md`): counts only a real search produces. The counts are the
//! grader's evidence and no student code can reach them (specs/protocol.md, "What an adapter guarantees"),
//! but a Solver may still do its work where they cannot see it (a queue of its own, boards it builds from
//! tiles) and then show counts of its choosing: token inserts and delMins, as few as the rows allow.
//!
//! So a Solver whose moves() claims a puzzle's m moves is held to what every A* search with the Manhattan
//! priority does on that puzzle, whatever its tie-breaking, queues, critical optimization or set of seen
//! boards: it removes from its MinPQ and expands every board whose distance from the initial board plus its
//! manhattan() is below m (the puzzle's bound B, computed at plan time: `plan/bounds.rs`), and every board of
//! its solution but the goal, so at least R = max(B, m) boards. The life's counts must show R boards expanded
//! (`board_expanded`: distinct boards descended from the grader's, each the first neighbors() call after a
//! delMin(), so tokens show none) and R - 1 delMin() calls (the initial board may be expanded unqueued).
//!
//! A Solver that inserted nothing into the MinPQ did not use it: the MinPQ's rows fail on that ("did not
//! use algs4's MinPQ"), and the other rows hold it to the boards it called neighbors() on
//! (`board_neighbors_distinct`), R of them, with no delMin() to follow: a search without a MinPQ (IDA*)
//! passes, a Solver that answers from a table fails.
//!
//! Judged on every row that reads a life's counts or memory ([`crate::catalog::Check::judges_search_bound`]),
//! against the counts of the Solver's whole life (zeroed after the grader built the initial board), and only
//! of a Solver whose moves() claims the m moves: one that answers otherwise (a wrong parity rule that calls a
//! solvable board unsolvable) did not search, fails the tests that judge its answers, and its small counts
//! pass a count row as they do officially. A count the program does not report (an executable speaking the
//! protocol reports its own) is not judged.

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

/// Whether the life's counts show the work every A* search does on the trial's puzzle (see the module doc),
/// or a mismatch saying what was expected, and why.
pub fn within_search_bound(life: &Life, trial: &Trial) -> Result<(), Mismatch> {
    let counts = Shown {
        inserts: life.counter("pq_inserts"),
        removed: life.counter("pq_del_mins"),
        expanded: life.counter("board_expanded"),
        distinct: life.counter("board_neighbors_distinct"),
    };
    judge(claimed(life, trial), trial.bound, counts)
}

/// The counts the rule reads, each `None` where the program does not report it.
#[derive(Debug, Clone, Copy, Default)]
struct Shown {
    inserts: Option<u64>,
    removed: Option<u64>,
    expanded: Option<u64>,
    distinct: Option<u64>,
}

/// The rule: a Solver that claims `m` moves (0: it claims none) on a puzzle of search bound `bound` showed
/// `counts`.
fn judge(m: u64, bound: Option<u64>, counts: Shown) -> Result<(), Mismatch> {
    if m == 0 {
        return Ok(());
    }
    let bound = bound.unwrap_or(0);
    let required = bound.max(m);
    let at_least = |n: Option<u64>, least: u64| n.is_none_or(|n| n >= least);
    let without_minpq = counts.inserts == Some(0);
    let enough = if without_minpq {
        at_least(counts.distinct, required)
    } else {
        at_least(counts.removed.map(|d| d + 1), required) && at_least(counts.expanded, required)
    };
    if enough {
        return Ok(());
    }
    let which = if bound >= m {
        format!("every board whose distance from the initial board plus its manhattan() is below {m}")
    } else {
        "every board of its solution but the goal".to_string()
    };
    let count = |n: Option<u64>, what: &str| match n {
        None => format!("an uncounted number of {what}s"),
        Some(1) => format!("1 {what}"),
        Some(n) => format!("{n} {what}s"),
    };
    let shown = if without_minpq {
        format!("used no MinPQ and called neighbors() on {}", count(counts.distinct, "board"))
    } else {
        format!("made {} and expanded {}", count(counts.removed, "delMin() call"), count(counts.expanded, "board"))
    };
    Err(Mismatch::new(format!(
        "the Solver's counts are not those of an A* search: on this puzzle ({m} moves) an A* search with the \
         manhattan() priority removes from its MinPQ and expands at least {required} boards, {which} \
         (specs/search-bound.md), and this Solver's whole life {shown}"
    ))
    .with(
        "(a board counts as expanded when neighbors() is called on it after the delMin() that removed it, once, \
         and only the boards reached from the initial board or its twin: a search on a queue of its own, or on \
         boards built from tiles, is invisible to the counts; a priority that over-estimates, such as moves + \
         hamming + manhattan, expands fewer boards but is not optimal)",
    ))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// puzzle30's figures: 30 moves, a bound of 2522; the reference removed 12911 and expanded 9125.
    const M: u64 = 30;
    const B: Option<u64> = Some(2522);

    fn shown(inserts: u64, removed: u64, expanded: u64, distinct: u64) -> Shown {
        Shown { inserts: Some(inserts), removed: Some(removed), expanded: Some(expanded), distinct: Some(distinct) }
    }

    #[test]
    fn a_search_passes_and_tokens_after_a_hidden_search_fail() {
        assert!(judge(M, B, shown(25000, 12911, 9125, 9200)).is_ok());
        let tokens = judge(M, B, shown(31, 30, 0, 0)).unwrap_err();
        assert!(tokens.summary.starts_with("the Solver's counts are not those of an A* search"), "{}", tokens.summary);
        assert!(tokens.summary.contains("expands at least 2522 boards"), "{}", tokens.summary);
        assert!(tokens.summary.contains("made 30 delMin() calls and expanded 0 boards"), "{}", tokens.summary);
        let one = judge(M, B, shown(2522, 2522, 1, 9000)).unwrap_err();
        assert!(one.summary.ends_with("expanded 1 board"), "bound-many tokens after a hidden search: {}", one.summary);
        assert!(judge(M, B, shown(9000, 2521, 2522, 2522)).is_ok(), "the initial board expanded unqueued");
        assert!(judge(M, B, shown(9000, 2520, 2522, 2522)).is_err());
    }

    #[test]
    fn a_solver_without_a_minpq_is_held_to_the_boards_it_expanded() {
        assert!(judge(M, B, shown(0, 0, 1, 40000)).is_ok(), "IDA*: its boards, and no delMin()");
        let table = judge(M, B, shown(0, 0, 0, 0)).unwrap_err();
        assert!(table.summary.ends_with("used no MinPQ and called neighbors() on 0 boards"), "{}", table.summary);
    }

    #[test]
    fn the_solution_floors_a_small_bound_and_a_solver_claiming_nothing_is_not_held() {
        let small = judge(6, Some(0), shown(7, 6, 5, 5)).unwrap_err();
        assert!(small.summary.contains("every board of its solution but the goal"), "{}", small.summary);
        assert!(judge(6, None, shown(7, 5, 6, 6)).is_ok());
        assert!(judge(0, B, shown(0, 0, 0, 0)).is_ok(), "a Solver whose moves() is wrong did not claim the search");
    }

    #[test]
    fn a_count_the_program_does_not_report_is_not_judged() {
        let no_expansions = Shown { expanded: None, distinct: None, ..shown(3000, 2521, 0, 0) };
        assert!(judge(M, B, no_expansions).is_ok());
        let short = judge(M, B, Shown { expanded: None, ..shown(31, 30, 0, 0) }).unwrap_err();
        assert!(short.summary.contains("expanded an uncounted number of boards"), "{}", short.summary);
    }
}
