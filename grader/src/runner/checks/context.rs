//! What every check executor shares, below them all: the context a check runs in ([`Ctx`]), what one trial
//! shows ([`TrialResult`]), and the check's [`Verdict`], made from a [`Failure`] by [`Verdict::of_failure`],
//! from trials judged in order ([`each_trial`], stopping at the first that does not pass) or from one
//! judgement over the whole test ([`whole`]).
//! Executors import from here and from `ask`, `judge` and `plan`, never from `checks/mod.rs`, which imports
//! them.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use npuzzle_harness::protocol::World;
use reference::Board;

use crate::catalog::SolverCall;
use crate::evidence::Evidence;
use crate::judge::{show_board, Mismatch};
use crate::plan::{PlannedTest, Trial};
use crate::policy::Policy;
use crate::results::Status;
use crate::runner::ask::{Asked, Failure};
use crate::runner::life::{Asks, Counted, Life};
use crate::runner::session::{Fault, Session};

/// How many times the judged life's CPU budget a sampled life has ([`Ctx::sampled_life`]).
const SAMPLED_BUDGET_FACTOR: u32 = 3;

/// What identifies a life in the cache: the world, the board, the order of the Solver's calls, and whether
/// the adapter sampled where its counts came from ([`Ctx::sampled_life`]).
pub type LifeKey = (World, Board, [SolverCall; 3], bool);

/// Solvers' lives already lived in a run, in the order they were lived, so a test replayed after a stall
/// can forget the lives it lived ([`Lives::forget_since`]) and live them again.
#[derive(Debug, Default)]
pub struct Lives {
    lived: HashMap<LifeKey, Life>,
    order: Vec<LifeKey>,
    /// The board sizes a process has solved a warm-up board of, by the session's process count.
    warmed: HashSet<(u32, usize)>,
}

impl Lives {
    /// A mark of how many lives were lived so far.
    pub fn mark(&self) -> usize {
        self.order.len()
    }

    /// Forgets every life lived since `mark`.
    pub fn forget_since(&mut self, mark: usize) {
        for key in self.order.drain(mark.min(self.order.len())..) {
            self.lived.remove(&key);
        }
    }

    fn get(&self, key: &LifeKey) -> Option<&Life> {
        self.lived.get(key)
    }

    fn insert(&mut self, key: LifeKey, life: Life) {
        if self.lived.insert(key.clone(), life).is_none() {
            self.order.push(key);
        }
    }
}

/// The boards whose lives measure more than counts, since the lives of one board are shared between tests:
/// the queue-memory test's (the queues' deep memory, a walk the Java adapter makes only when asked), the
/// Solver-memory test's (the Solver's own deep memory, after its constructor and after its calls) and the
/// heap-order test's (the queues' heap order, re-checked as they grow and when they end: work the Java and
/// Python adapters do only when asked, inside the Solver's own requests, so that no other life's CPU carries
/// it).
#[derive(Debug, Default)]
pub struct Measured {
    #[allow(missing_docs)]
    pub deep_memory: HashSet<Board>,
    #[allow(missing_docs)]
    pub solver_memory: HashSet<Board>,
    #[allow(missing_docs)]
    pub heap_order: HashSet<Board>,
}

impl Measured {
    /// What the lives of a plan's boards must measure.
    pub fn of(planned: &[PlannedTest]) -> Measured {
        let boards = |wanted: fn(&PlannedTest) -> bool| -> HashSet<Board> {
            planned.iter().filter(|t| wanted(t)).flat_map(|t| t.trials.iter().map(|t| t.board.clone())).collect()
        };
        Measured {
            deep_memory: boards(|t| t.item.check.measures_deep_memory()),
            solver_memory: boards(|t| t.item.check.measures_solver_memory()),
            heap_order: boards(|t| t.item.check.reads_heap_order()),
        }
    }
}

/// What a check executor needs: the session, the policy, and the state shared across a run's tests.
pub struct Ctx<'a> {
    #[allow(missing_docs)]
    pub session: &'a mut Session,
    #[allow(missing_docs)]
    pub policy: &'a Policy,
    /// Capabilities the submission announced in its handshake.
    pub capabilities: &'a BTreeSet<String>,
    /// Solvers' lives already lived this run, by world, board and the order their methods were called in, so
    /// the tests of one puzzle whose calls come in the same order (the timing, memory and equals-usage tests;
    /// a moves() test and the solution() test on its inputs) are judged from a single life.
    pub lives: &'a mut Lives,
    /// Starts a fresh session on the same program (for the re-run check).
    pub fresh_session: &'a dyn Fn() -> Session,
    /// The boards whose lives in the `ref` world measure memory as well as counts.
    pub measured: &'a Measured,
}

impl Ctx<'_> {
    /// The CPU allowed for one solve.
    pub fn solve_cpu(&self) -> Duration {
        Duration::from_secs_f64(self.policy.limits.solve_cpu_seconds)
    }

    /// Whether the submission announced a capability.
    pub fn has(&self, capability: &str) -> bool {
        self.capabilities.contains(capability)
    }

    /// The life of a Solver for the trial's board in `world` whose first calls are `calls` (counted where the
    /// adapter counts), lived once per run and then answered from the cache. Never sampled: a judged life's
    /// CPU is the Solver's alone, and its limit is watched while it runs.
    pub fn life(&mut self, world: World, trial: &Trial, calls: &[SolverCall]) -> Life {
        self.lived(world, trial, calls, false)
    }

    /// The same life lived again while the adapter samples where its counts come from (`call_sites`), to
    /// explain a count that failed: asked only then, and never judged, so sampling (up to one and a half
    /// times a fast Solver's own CPU, adapters/java/README.md "Call sites") neither brings a Solver nearer
    /// its limit nor slows the grading of counts that pass. `None` where the adapter does not sample.
    pub fn sampled_life(&mut self, world: World, trial: &Trial, calls: &[SolverCall]) -> Option<Life> {
        self.has("call_sites").then(|| self.lived(world, trial, calls, true))
    }

    fn lived(&mut self, world: World, trial: &Trial, calls: &[SolverCall], sampled: bool) -> Life {
        let key = (world, trial.board.clone(), SolverCall::life(calls), sampled);
        if let Some(lived) = self.lives.get(&key) {
            return lived.clone();
        }
        // a sampled life is read for its sites alone: memory is the judged life's
        let judged_ref = world == World::Ref && !sampled;
        let deep = judged_ref && self.has("counters_deep") && self.measured.deep_memory.contains(&trial.board);
        let counting = match self.has("counters") && world == World::Ref {
            false => Counted::No,
            true if deep => Counted::WithDeepMemory,
            true => Counted::Counts,
        };
        let solver_memory = judged_ref && self.has("memory") && self.measured.solver_memory.contains(&trial.board);
        if solver_memory {
            self.warm_up(world, trial.board.dimension());
        }
        // an adapter that does not announce `counters_heap` checks every counted life's queues unasked
        let heap_order = judged_ref && self.has("counters_heap") && self.measured.heap_order.contains(&trial.board);
        let asks = Asks { counting, sampled, solver_memory, heap_order };
        // A sampled life is never judged, and sampling costs up to half again a Solver's own CPU: with the
        // judged life's budget, a Solver that took most of it lost its explanation when its CPU ran a little
        // slower (a busy machine's caches), and the line came and went from run to run (a load sweep: the
        // same "calls come from" line in one run of three Solvers' reports, not the other).
        let budget = if sampled { self.solve_cpu() * SAMPLED_BUDGET_FACTOR } else { self.solve_cpu() };
        let life = Life::live(self.session, world, &trial.board, calls, budget, asks);
        self.lives.insert(key, life.clone());
        life
    }

    /// Before the first Solver of a size whose memory a process measures, a Solver of that size for a board
    /// one move from the goal, its answers unread: what a Solver's first construction leaves in its class's
    /// static fields (a table built on first use) then never counts as the measured Solver's, as a program
    /// that had already solved a puzzle of that size would show. It is too small a search to be worth
    /// keeping for a later puzzle.
    fn warm_up(&mut self, world: World, n: usize) {
        if !self.lives.warmed.insert((self.session.starts(), n)) {
            return;
        }
        let Some(board) = Board::goal(n).ok().and_then(|goal| goal.neighbors().into_iter().next()) else {
            return;
        };
        Life::live(self.session, world, &board, &[], self.solve_cpu(), Asks::default());
    }
}

/// A check's verdict on one test, before scoring: what `results` records as the test's status, rows and
/// message.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    #[allow(missing_docs)]
    pub status: Status,
    /// Rows shown whatever the status (measurements, one per trial of a table test).
    pub rows: Vec<String>,
    /// Why it did not pass, in the student's terms; empty when it passed.
    pub message: String,
    /// What the test saw, as data ([`crate::evidence`]), for renderers that draw it.
    pub evidence: Option<Evidence>,
}

impl Verdict {
    /// A verdict with a message and nothing else to show (skipped, not applicable, a grader problem).
    pub fn said(status: Status, message: String) -> Verdict {
        Verdict { status, rows: vec![], message, evidence: None }
    }

    /// Passed, showing `rows`.
    pub fn passed(rows: Vec<String>) -> Verdict {
        Verdict { status: Status::Passed, rows, message: String::new(), evidence: None }
    }

    /// The verdict a failure gives, after `rows` were shown; `context` (which trial) heads the message
    /// unless the failure names its own row or the check does not apply.
    pub fn of_failure(failure: Failure, rows: &[String], context: &str) -> Verdict {
        let mut evidence = None;
        let (status, mut lines) = match failure {
            Failure::Fault(Fault::Unsupported(reason)) => {
                (Status::NotApplicable, vec![format!("not applicable: {reason}")])
            }
            Failure::Fault(fault @ (Fault::Protocol(_) | Fault::Stalled(_))) => (Status::Error, vec![fault.describe()]),
            Failure::Fault(fault) => (Status::Failed, vec![fault.describe()]),
            Failure::Wrong(Mismatch { summary, details, row, evidence: seen }) => {
                evidence = seen;
                let mut lines = vec![summary];
                lines.extend(details);
                // A table row names its own input; the trial's context would repeat it.
                if let Some(row) = row {
                    let mut rows = rows.to_vec();
                    rows.push(row);
                    return Verdict { status: Status::Failed, rows, message: lines.join("\n"), evidence };
                }
                (Status::Failed, lines)
            }
        };
        if !context.is_empty() && status != Status::NotApplicable {
            lines.insert(0, context.to_string());
        }
        Verdict { status, rows: rows.to_vec(), message: lines.join("\n"), evidence }
    }
}

/// What one trial showed: rows to report, or a failure.
pub type TrialResult = Asked<Vec<String>>;

/// The verdict of trials judged in order: passed with every trial's rows, or failed at the first trial that
/// does not pass (the results after it are never computed).
pub fn trial_by_trial(trials: &[Trial], results: impl IntoIterator<Item = TrialResult>) -> Verdict {
    let total = trials.len();
    let mut rows = Vec::new();
    for ((k, trial), result) in trials.iter().enumerate().zip(results) {
        match result {
            Ok(more) => rows.extend(more),
            Err(failure) => {
                // a trial about two boards is about both: a fault in either's calls names no board
                let partner = trial.partner.as_ref().map_or(String::new(), |p| format!(" and {}", p.label));
                let context = format!("failed on trial {} of {total}: {}{partner}", k + 1, trial.label);
                let fault = matches!(failure, Failure::Fault(_));
                let mut verdict = Verdict::of_failure(failure, &rows, &context);
                if fault && verdict.status == Status::Failed {
                    verdict.message.push_str(&drawn_boards(trial));
                }
                return verdict;
            }
        }
    }
    Verdict::passed(rows)
}

/// The boards of a trial drawn at random (and its partner's, where drawn), as lines to add to a failure
/// that shows none: its label says only "random 2-by-2 board". Empty for boards a label names.
fn drawn_boards(trial: &Trial) -> String {
    let mut lines = String::new();
    for (title, t) in [("board", Some(trial)), ("the other board", trial.partner.as_deref())] {
        if let Some(t) = t.filter(|t| t.drawn) {
            lines.push_str(&format!("\n{title}:"));
            for line in show_board(&t.board) {
                lines.push('\n');
                lines.push_str(&line);
            }
        }
    }
    lines
}

/// The trial that checks about two boards or solvers pair with `trials[k]`: its planned partner, else the
/// next trial (the first, after the last).
pub fn partner_of(trials: &[Trial], k: usize) -> &Trial {
    trials[k].partner.as_deref().unwrap_or(&trials[(k + 1) % trials.len()])
}

/// Asks `test`'s trials one at a time, in order, stopping at the first that does not pass. `check` gets the
/// trial and its partner ([`partner_of`]).
pub fn each_trial(
    ctx: &mut Ctx<'_>,
    test: &PlannedTest,
    mut check: impl FnMut(&mut Ctx<'_>, &Trial, &Trial) -> TrialResult,
) -> Verdict {
    let trials = &test.trials;
    let results = (0..trials.len()).map(|k| check(ctx, &trials[k], partner_of(trials, k)));
    trial_by_trial(trials, results)
}

/// The verdict of a check judged once over the whole test (all its trials, or none).
pub fn whole(result: TrialResult) -> Verdict {
    match result {
        Ok(rows) => Verdict::passed(rows),
        Err(failure) => Verdict::of_failure(failure, &[], ""),
    }
}

/// A wrong answer as a failure.
pub(crate) fn mismatch<T>(m: Mismatch) -> Asked<T> {
    Err(Failure::Wrong(m))
}

#[cfg(test)]
mod tests {
    use corpus::Expected;

    use super::*;

    fn trial(label: &str, tiles: &[u32; 9], drawn: bool) -> Trial {
        let board = Board::new(&[&tiles[0..3], &tiles[3..6], &tiles[6..9]]).unwrap();
        let (reference, bound, partner) = (None, None, None);
        Trial { label: label.into(), board, expected: Expected::Unknown, reference, bound, partner, steps: 0, drawn }
    }

    fn timed_out() -> TrialResult {
        Err(Failure::Fault(Fault::Timeout("timed out on its CPU limit".into())))
    }

    const ONE_MOVE: [u32; 9] = [1, 2, 3, 4, 5, 6, 7, 0, 8];

    #[test]
    fn a_fault_on_a_drawn_board_shows_the_board_and_one_on_a_file_does_not() {
        let drawn = [trial("puzzle04.txt", &ONE_MOVE, false), trial("random 3-by-3 board", &ONE_MOVE, true)];
        let verdict = trial_by_trial(&drawn, [Ok(vec![]), timed_out()]);
        assert_eq!(
            verdict.message,
            "failed on trial 2 of 2: random 3-by-3 board\ntimed out on its CPU limit\nboard:\n    3\n     1  2  3\n     \
             4  5  6\n     7  0  8"
        );
        let verdict = trial_by_trial(&drawn, [timed_out()]);
        assert_eq!(verdict.message, "failed on trial 1 of 2: puzzle04.txt\ntimed out on its CPU limit");
        // a wrong answer shows what it needs itself
        let wrong = Err(Failure::Wrong(Mismatch::new("moves() returned 2, expected 1")));
        let verdict = trial_by_trial(&drawn[1..], [wrong]);
        assert_eq!(verdict.message, "failed on trial 1 of 1: random 3-by-3 board\nmoves() returned 2, expected 1");
    }

    #[test]
    fn a_trial_about_two_boards_names_both() {
        let mut first = trial("puzzle04.txt", &ONE_MOVE, false);
        first.partner = Some(Box::new(trial("puzzle3x3-unsolvable1.txt", &[1, 2, 3, 4, 5, 6, 8, 7, 0], false)));
        let verdict = trial_by_trial(&[first], [timed_out()]);
        assert_eq!(
            verdict.message,
            "failed on trial 1 of 1: puzzle04.txt and puzzle3x3-unsolvable1.txt\ntimed out on its CPU limit"
        );
        let mut pair = trial("random 3-by-3 board", &ONE_MOVE, true);
        pair.partner = Some(Box::new(trial("random 3-by-3 board", &[0, 1, 3, 4, 2, 5, 7, 8, 6], true)));
        let verdict = trial_by_trial(&[pair], [timed_out()]);
        assert!(verdict
            .message
            .ends_with("7  0  8\nthe other board:\n    3\n     0  1  3\n     4  2  5\n     7  8  6"));
    }
}
