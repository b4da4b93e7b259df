//! Check executors: one per [`Check`] kind, each asking the submission through [`ask`](super::ask) and
//! leaving every comparison to [`judge`](crate::judge).
//!
//! A check runs its trials in order and stops at the first failure ("failed on trial k of N"), as the
//! official grader does. Solves are cached per world and board, so the timing, memory and equals-usage
//! tests of one puzzle are judged from a single solve.

mod board;
mod perf;
mod script;
mod solver;

pub use perf::columns;

use std::collections::HashMap;
use std::time::Duration;

use npuzzle_harness::protocol::World;
use reference::Board;

use super::ask::{Asked, Problem, SolveObservation};
use super::session::{Answer, Fault, Session};
use crate::catalog::Check;
use crate::evidence::Evidence;
use crate::judge::Mismatch;
use crate::plan::{PlannedTest, Trial};
use crate::policy::Policy;
use crate::results::Status;

/// What a check executor needs.
pub struct Ctx<'a> {
    /// The conversation with the submission.
    pub session: &'a mut Session,
    /// Thresholds and limits.
    pub policy: &'a Policy,
    /// Capabilities the submission announced.
    pub capabilities: &'a std::collections::BTreeSet<String>,
    /// Solves already made, by world and board.
    pub solves: &'a mut HashMap<(World, Board), Asked<SolveObservation>>,
    /// Starts a fresh session on the same program (for the re-run check).
    pub fresh_session: &'a dyn Fn() -> Session,
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

    /// Solves a board in a world once per run (with counters where available), then answers from the cache.
    pub fn solve(&mut self, world: World, trial: &Trial) -> Asked<SolveObservation> {
        let key = (world, trial.board.clone());
        if let Some(done) = self.solves.get(&key) {
            return done.clone();
        }
        let counters = self.has("counters") && world == World::Ref;
        let cpu = self.solve_cpu();
        let result = super::ask::solve(self.session, world, &trial.board, cpu, counters);
        self.solves.insert(key, result.clone());
        result
    }
}

/// A test's verdict before scoring.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    #[allow(missing_docs)]
    pub status: Status,
    /// Rows shown whatever the verdict (measurements).
    pub rows: Vec<String>,
    /// Why it did not pass.
    pub message: String,
    /// What the test saw, as data ([`crate::evidence`]).
    pub evidence: Option<Evidence>,
}

/// What one trial showed: rows to report, or a problem.
pub type TrialResult = Asked<Vec<String>>;

/// Runs a planned test's trials, stopping at the first that does not pass.
pub fn run(ctx: &mut Ctx<'_>, test: &PlannedTest) -> Outcome {
    let check = test.item.check;
    if let Some(outcome) = whole_test(ctx, check, test) {
        return outcome;
    }
    if let Some(outcome) = scripted_test(ctx, check, test) {
        return outcome;
    }
    let mut outcome = trial_by_trial(&test.trials, (0..test.trials.len()).map(|k| trial_of(ctx, check, test, k)));
    if let (Check::Timing(aspect), [trial]) = (check, test.trials.as_slice()) {
        outcome.evidence = outcome.evidence.or_else(|| perf::counts(ctx, aspect, trial));
    }
    outcome
}

/// The verdict of trials judged in order: passed with every trial's rows, or failed at the first trial that
/// does not pass (the results after it are never computed).
fn trial_by_trial(trials: &[Trial], results: impl IntoIterator<Item = TrialResult>) -> Outcome {
    let total = trials.len();
    let mut rows = Vec::new();
    for ((k, trial), result) in trials.iter().enumerate().zip(results) {
        match result {
            Ok(more) => rows.extend(more),
            Err(problem) => {
                return verdict(problem, &rows, &format!("failed on trial {} of {total}: {}", k + 1, trial.label))
            }
        }
    }
    Outcome { status: Status::Passed, rows, message: String::new(), evidence: None }
}

/// Checks written as scripts (the Board checks): the trials' requests go out in groups of a few thousand,
/// and the trials of one group are judged while the program answers the next (the two processes work at
/// once on two cores). Judging goes in order and stops at the first trial that does not pass; groups after
/// the one in flight are then never sent.
fn scripted_test(ctx: &mut Ctx<'_>, check: Check, test: &PlannedTest) -> Option<Outcome> {
    let trials = &test.trials;
    let total = trials.len();
    if total == 0 {
        return None;
    }
    let mut groups = Vec::new();
    let mut group = ScriptGroup::default();
    for (k, trial) in trials.iter().enumerate() {
        group.judges.push_back(board::script(check, trial, &trials[(k + 1) % total], &mut group.script)?);
        if group.script.weight() >= GROUP_WEIGHT || k + 1 == total {
            groups.push(std::mem::take(&mut group));
        }
    }
    let mut unsent = groups.into_iter();
    let mut in_flight = std::collections::VecDeque::new();
    let mut judging: Option<(ScriptGroup, Vec<Result<Answer, Fault>>)> = None;
    let results = std::iter::from_fn(|| loop {
        if let Some((group, answers)) = &mut judging {
            if let Some(judge) = group.judges.pop_front() {
                let result = judge(ctx, &script::Replies::new(&group.script, answers));
                // The next group is in flight: keep its requests going in and its replies coming out.
                ctx.session.pump();
                return Some(result);
            }
        }
        // Keep one group ahead: it runs in the program while this one is judged.
        while in_flight.len() < 2 {
            let Some(next) = unsent.next() else { break };
            in_flight.push_back((ctx.session.send_each(next.script.requests()), next));
        }
        let (sent, group) = in_flight.pop_front()?;
        let answers = ctx.session.receive_each(sent);
        judging = Some((group, answers));
    });
    let outcome = trial_by_trial(trials, results);
    // A group sent but never judged (the test stopped at a failure) is still read here: whatever it met, a
    // crash or a hang, belongs to this test and must not fall on the next one.
    for (sent, _) in in_flight {
        ctx.session.receive_each(sent);
    }
    Some(outcome)
}

/// How much script a group holds before it is sent (see [`script::Script::weight`]).
const GROUP_WEIGHT: usize = 4096;

/// Consecutive trials sent as one batch, with their judges.
#[derive(Default)]
struct ScriptGroup<'a> {
    script: script::Script,
    judges: std::collections::VecDeque<script::Judge<'a>>,
}

/// Checks judged over all trials at once (rather than trial by trial).
fn whole_test(ctx: &mut Ctx<'_>, check: Check, test: &PlannedTest) -> Option<Outcome> {
    let result = match check {
        Check::NullBoard => solver::null_board(ctx),
        Check::SameAnswersWhenRerun => solver::same_answers_when_rerun(ctx, &test.trials),
        Check::ApiSurface => api_surface(ctx),
        _ => return None,
    };
    Some(match result {
        Ok(rows) => Outcome { status: Status::Passed, rows, message: String::new(), evidence: None },
        Err(problem) => verdict(problem, &[], ""),
    })
}

fn trial_of(ctx: &mut Ctx<'_>, check: Check, test: &PlannedTest, k: usize) -> TrialResult {
    let trial = &test.trials[k];
    let next = &test.trials[(k + 1) % test.trials.len()];
    match check {
        Check::Solve(aspect) => solver::solve(ctx, aspect, trial),
        Check::TwoSolvers => solver::two_solvers(ctx, trial, trial.partner.as_deref().unwrap_or(next)),
        Check::IsSolvable => solver::is_solvable(ctx, trial),
        Check::UnsolvableMoves => solver::unsolvable_moves(ctx, trial),
        Check::UnsolvableSolution => solver::unsolvable_solution(ctx, trial),
        Check::SolverCallOrder => solver::call_order(ctx, trial),
        Check::EqualsUsage(usage) => solver::equals_usage(ctx, usage, trial),
        Check::NoMutationAfterInsert => solver::no_mutation_after_insert(ctx, trial),
        Check::UsesMinPq => solver::uses_min_pq(ctx, trial),
        Check::EqualsContract => board::equals_contract(ctx, trial, next),
        Check::KthNeighbor(_) | Check::KthTwin(_) => board::kth(ctx, check, trial),
        Check::BoardMemory => perf::board_memory(ctx, trial),
        Check::SolverMemory => perf::solver_memory(ctx, trial),
        Check::QueueMemory => perf::queue_memory(ctx, trial),
        Check::Timing(aspect) => perf::timing(ctx, aspect, trial),
        // Judged as scripts (`scripted_test`), as whole tests (`whole_test`) or by the build: reaching here is
        // a grader bug, reported as an error rather than passed silently.
        Check::BoardValue(_)
        | Check::ToString
        | Check::Neighbors
        | Check::NeighborsOfNeighbors
        | Check::Twin
        | Check::TwoBoards
        | Check::Equals(_)
        | Check::ImmutableArray
        | Check::ImmutableCallOrder
        | Check::NeighborsLegal
        | Check::TwinLegal
        | Check::NullBoard
        | Check::SameAnswersWhenRerun
        | Check::Compiles
        | Check::ApiSurface => {
            Err(Fault::Protocol(format!("{check:?} is not judged trial by trial (a grader bug)")).into())
        }
    }
}

/// No public constructors or methods beyond the assignment's API.
fn api_surface(ctx: &mut Ctx<'_>) -> TrialResult {
    let answer = ctx.session.call(&npuzzle_harness::protocol::Request::Api)?;
    let mut tokens = answer.values.split(' ').filter(|t| !t.is_empty());
    let count: usize = tokens.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    let extra: Vec<&str> = tokens.take(count).collect();
    if extra.is_empty() {
        return Ok(vec![]);
    }
    let mut m = Mismatch::new(format!("{} public members beyond the assignment's API", extra.len()));
    m.details.extend(extra.iter().map(|e| format!("public {e}")));
    m.details.push("(make helpers private; the official grader rejects extra public methods)".into());
    mismatch(m)
}

/// Turns a problem into a verdict with a student-facing message.
fn verdict(problem: Problem, rows: &[String], context: &str) -> Outcome {
    let mut evidence = None;
    let (status, mut lines) = match problem {
        Problem::Fault(Fault::Unsupported(reason)) => {
            (Status::NotApplicable, vec![format!("not applicable: {reason}")])
        }
        Problem::Fault(fault @ Fault::Protocol(_)) => (Status::Error, vec![fault.describe()]),
        Problem::Fault(fault) => (Status::Failed, vec![fault.describe()]),
        Problem::Wrong(Mismatch { summary, details, row, evidence: seen }) => {
            evidence = seen;
            let mut lines = vec![summary];
            lines.extend(details);
            // A table row names its own input; the trial's context would repeat it.
            if let Some(row) = row {
                let mut rows = rows.to_vec();
                rows.push(row);
                return Outcome { status: Status::Failed, rows, message: lines.join("\n"), evidence };
            }
            (Status::Failed, lines)
        }
    };
    if !context.is_empty() && status != Status::NotApplicable {
        lines.insert(0, context.to_string());
    }
    Outcome { status, rows: rows.to_vec(), message: lines.join("\n"), evidence }
}

/// A wrong answer as a problem.
pub(crate) fn mismatch<T>(m: Mismatch) -> Asked<T> {
    Err(Problem::Wrong(m))
}
