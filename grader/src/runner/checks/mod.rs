//! Check executors, and the one place that runs a planned test: [`run`] matches the [`Check`] group (how
//! it runs) and hands each kind to its executor module, whose own exhaustive match names every kind of its
//! group. Executors ask the submission through [`ask`](super::ask), leave every comparison to
//! [`judge`](crate::judge), and share only [`context`] (below them all).
//!
//! A check runs its trials in order and stops at the first failure ("failed on trial k of N"), as the
//! official grader does. Solves are cached per world and board, so the timing, memory and equals-usage
//! tests of one puzzle are judged from a single solve.

mod api;
mod board;
mod consistency;
mod context;
mod equals;
mod floors;
mod memory_model;
mod perf;
mod script;
mod solver;
#[cfg(test)]
mod tests;

pub use context::{Ctx, Lives, Verdict};

use super::session::{Answer, Fault};
use crate::catalog::{BoardScript, Check, Measure, TrialCheck, WholeCheck};
use crate::plan::{PlannedTest, Trial};
use context::TrialResult;

/// Runs a planned test: the build's verdict is the build step's (passed, if a session runs at all), the
/// other groups run their trials as their executors say.
pub fn run(ctx: &mut Ctx<'_>, test: &PlannedTest) -> Verdict {
    match test.item.check {
        Check::Build => Verdict::passed(vec![]),
        Check::Scripted(check) => scripted_test(ctx, check, test),
        Check::PerTrial(check) => {
            let mut verdict =
                trial_by_trial(&test.trials, (0..test.trials.len()).map(|k| trial_of(ctx, check, test, k)));
            // A timing row's counts are drawn whatever its verdict (from the cached solve: no request is sent).
            if let (TrialCheck::Measure(Measure::Timing(aspect)), [trial]) = (check, test.trials.as_slice()) {
                verdict.evidence = verdict.evidence.or_else(|| perf::counts(ctx, aspect, trial));
            }
            verdict
        }
        Check::Whole(check) => whole_test(ctx, check, test),
    }
}

/// The column headings of a table test's rows (memory and timing tables), if the check has any.
pub fn columns(check: Check) -> Option<&'static str> {
    match check {
        Check::PerTrial(TrialCheck::Measure(measure)) => Some(perf::columns(measure)),
        Check::Build | Check::Scripted(_) | Check::Whole(_) => None,
        Check::PerTrial(TrialCheck::Board(_) | TrialCheck::Solver(_)) => None,
    }
}

/// The verdict of trials judged in order: passed with every trial's rows, or failed at the first trial that
/// does not pass (the results after it are never computed).
fn trial_by_trial(trials: &[Trial], results: impl IntoIterator<Item = TrialResult>) -> Verdict {
    let total = trials.len();
    let mut rows = Vec::new();
    for ((k, trial), result) in trials.iter().enumerate().zip(results) {
        match result {
            Ok(more) => rows.extend(more),
            Err(failure) => {
                let context = format!("failed on trial {} of {total}: {}", k + 1, trial.label);
                return Verdict::of_failure(failure, &rows, &context);
            }
        }
    }
    Verdict::passed(rows)
}

/// Checks written as scripts (the Board checks): the trials' requests go out in groups of a few thousand,
/// and the trials of one group are judged while the program answers the next (the two processes work at
/// once on two cores). Judging goes in order and stops at the first trial that does not pass; groups after
/// the one in flight are then never sent.
fn scripted_test(ctx: &mut Ctx<'_>, check: BoardScript, test: &PlannedTest) -> Verdict {
    let trials = &test.trials;
    let total = trials.len();
    if total == 0 {
        return Verdict::passed(vec![]);
    }
    let mut groups = Vec::new();
    let mut group = ScriptGroup::default();
    for (k, trial) in trials.iter().enumerate() {
        group.judges.push_back(board::script(check, trial, &trials[(k + 1) % total], &mut group.script));
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
    let verdict = trial_by_trial(trials, results);
    // A group sent but never judged (the test stopped at a failure) is still read here: whatever it met, a
    // crash or a hang, belongs to this test and must not fall on the next one.
    for (sent, _) in in_flight {
        ctx.session.receive_each(sent);
    }
    verdict
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
fn whole_test(ctx: &mut Ctx<'_>, check: WholeCheck, test: &PlannedTest) -> Verdict {
    let result = match check {
        WholeCheck::ApiSurface => api::surface(ctx),
        WholeCheck::Solver(check) => solver::whole(ctx, check, &test.trials),
    };
    match result {
        Ok(rows) => Verdict::passed(rows),
        Err(failure) => Verdict::of_failure(failure, &[], ""),
    }
}

/// Runs trial `k` of a test judged trial by trial. A check about two boards or solvers pairs the trial with
/// its planned partner, else with the next trial.
fn trial_of(ctx: &mut Ctx<'_>, check: TrialCheck, test: &PlannedTest, k: usize) -> TrialResult {
    let trial = &test.trials[k];
    let next = &test.trials[(k + 1) % test.trials.len()];
    let partner = trial.partner.as_deref().unwrap_or(next);
    match check {
        TrialCheck::Board(check) => board::trial(ctx, check, trial, partner),
        TrialCheck::Solver(check) => solver::trial(ctx, check, trial, partner),
        TrialCheck::Measure(check) => perf::trial(ctx, check, trial),
    }
}
