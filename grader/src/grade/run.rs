//! Running a plan's tests on a submission that built ([`run_tests`]), each in the session of the world it uses
//! (`runner::worlds`), in [`execution_order`] (the tests judged on their Solvers' counts, CPU and memory
//! before any other test builds a Solver; results in catalog order): a test whose dependency did not pass is
//! skipped, one past its section's CPU budget (`grade::budgets`) fails at once with one line, one the
//! machine stalled is replayed
//! once in a fresh process (a second stall is the grader's problem). A submission that did not compile gets
//! its results here too ([`not_built`]). [`Progress`] reports each test as it starts and ends.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use super::budgets::{Budgets, Section};
use crate::catalog::Category;
use crate::plan::PlannedTest;
use crate::policy::Policy;
use crate::results::{Status, TestResult};
use crate::runner::checks::{self, Ctx, Lives, Measured, Verdict};
use crate::runner::meter::Meter;
use crate::runner::session::{Fault, SessionLimits};
use crate::runner::worlds::{Programs, WorldSessions};

/// Live progress, for a progress bar; never feeds back into results.
#[derive(Debug, Clone)]
pub enum Progress<'a> {
    /// The submission is being built.
    Building,
    /// Tests are about to run.
    Planned {
        /// How many tests.
        total: usize,
    },
    #[allow(missing_docs)]
    Started {
        /// Its index, from 0.
        index: usize,
        #[allow(missing_docs)]
        id: &'a str,
        #[allow(missing_docs)]
        category: Category,
    },
    #[allow(missing_docs)]
    Finished {
        #[allow(missing_docs)]
        id: &'a str,
        #[allow(missing_docs)]
        status: Status,
    },
}

/// What running the tests produced, or why they could not run.
pub(super) struct Run {
    pub(super) tests: Vec<TestResult>,
    pub(super) language: Option<String>,
    pub(super) output: String,
    pub(super) output_truncated: bool,
    /// The compiler's output, when the submission did not compile.
    pub(super) compile_log: Option<String>,
    /// What the machine stalled twice in a row (a test, or the submission's start).
    pub(super) machine_stalls: Vec<String>,
    /// The most memory one sandbox of the submission held at once.
    pub(super) peak_memory: Option<u64>,
    /// What the build changed that the student should know.
    pub(super) notes: Vec<String>,
    /// CPU the program reported for reading its counters (see
    /// [`Timings::counting_cpu_ms`](crate::results::Timings::counting_cpu_ms)).
    pub(super) counting_cpu_ms: u64,
    /// CPU time of every process the run started, read as each ended (see
    /// [`Timings::processes_cpu_ms`](crate::results::Timings::processes_cpu_ms)).
    pub(super) processes_cpu_ms: u64,
}

/// Runs the planned tests, each in the session of the world it uses (see `runner::worlds`): first the tests
/// a student sees before the due date, then, in processes of their own started after every visible test has
/// ended, those the policy hides (`hidden`), so nothing a hidden test gave the submission (a board kept in a
/// static field, a file, its output) can reach a visible test's report. Each set runs in
/// [`execution_order`], its judged lives first.
pub(super) fn run_tests(
    programs: Programs,
    policy: &Policy,
    planned: &[PlannedTest],
    hidden: &[String],
    progress: &mut dyn FnMut(Progress<'_>),
) -> Run {
    let limits = SessionLimits::from_policy(&policy.limits);
    let mut running = Running::new(policy, planned);
    let meter = Arc::new(Meter::new(Some(running.budgets.whole())));
    let (visible, held): (Vec<usize>, Vec<usize>) =
        execution_order(planned).into_iter().partition(|&k| !Policy::matches(hidden, &planned[k].id));
    let mut sessions = WorldSessions::start(programs.clone(), limits, Arc::clone(&meter), &mut running.machine_stalls);
    running.run_set(&mut sessions, &visible, progress);
    let language = sessions.own_startup().and_then(|startup| startup.as_ref().ok()).map(|h| h.language.clone());
    let (mut output, mut output_truncated) = sessions.finish();
    let (mut peak_memory, mut counting) = (sessions.peak_memory(), sessions.cpu_counting());
    if !held.is_empty() {
        let mut sessions = WorldSessions::start(programs, limits, Arc::clone(&meter), &mut running.machine_stalls);
        running.run_set(&mut sessions, &held, progress);
        let (text, cut) = sessions.finish();
        if !text.is_empty() {
            output.push_str("\n--- the processes of the tests hidden until the due date ---\n");
            output.push_str(&text);
        }
        output_truncated |= cut;
        peak_memory = peak_memory.max(sessions.peak_memory());
        counting += sessions.cpu_counting();
    }
    Run {
        tests: running.tests.into_iter().map(|t| t.expect("every planned test ran once")).collect(),
        language,
        output,
        output_truncated,
        compile_log: None,
        machine_stalls: running.machine_stalls,
        peak_memory,
        notes: vec![],
        counting_cpu_ms: counting.as_millis() as u64,
        processes_cpu_ms: meter.spent().as_millis() as u64,
    }
}

/// What the tests of a run share, whichever processes run them: the sections' budgets, the statuses later
/// tests depend on, the stalls, and the results so far.
struct Running<'a> {
    policy: &'a Policy,
    planned: &'a [PlannedTest],
    measured: Measured,
    budgets: Budgets,
    statuses: HashMap<&'a str, Status>,
    machine_stalls: Vec<String>,
    tests: Vec<Option<TestResult>>,
    /// How many tests have started (for progress).
    started: usize,
}

impl<'a> Running<'a> {
    fn new(policy: &'a Policy, planned: &'a [PlannedTest]) -> Running<'a> {
        Running {
            policy,
            planned,
            measured: Measured::of(planned),
            budgets: Budgets::new(policy.limits.section_cpu_seconds),
            statuses: HashMap::new(),
            machine_stalls: Vec::new(),
            tests: vec![None; planned.len()],
            started: 0,
        }
    }

    /// Runs the tests `order` (indices into the plan) on `sessions`, with lives of their own.
    fn run_set(&mut self, sessions: &mut WorldSessions, order: &[usize], progress: &mut dyn FnMut(Progress<'_>)) {
        let mut lives = Lives::default();
        let mut weighed_yet = false;
        for &k in order {
            let test = &self.planned[k];
            if !weighed_yet && test.item.check.solver_calls().is_some() && test.item.check.judges_first_lives() {
                // the judged lives come first; where a Solver's memory is weighed, in a process no Board ran in
                weighed_yet = true;
                if !self.measured.solver_memory.is_empty() {
                    sessions.fresh_before_weighed_lives();
                }
            }
            progress(Progress::Started { index: self.started, id: &test.id, category: test.item.category });
            self.started += 1;
            let cpu_before = sessions.cpu_reported();
            let used_before = sessions.cpu_used();
            let section = Section::of(test.item.category).filter(|_| !test.item.check.is_build());
            let verdict = match blocked_by(test, &self.statuses) {
                Some(reason) => Verdict::said(Status::Skipped, reason),
                None => match section.filter(|&s| self.budgets.left(s).is_zero()) {
                    Some(s) => failed(self.budgets.used_up(s)),
                    None => self.run_one_allowed(sessions, test, section, &mut lives),
                },
            };
            if let Some(s) = section {
                self.budgets.spend(s, sessions.cpu_used().saturating_sub(used_before));
                if sessions.meter().allowance().is_some_and(|a| a.left.is_zero()) {
                    self.budgets.exhaust(s);
                }
            }
            progress(Progress::Finished { id: &test.id, status: verdict.status });
            let entry = self.statuses.entry(test.item.id).or_insert(Status::Passed);
            if verdict.status != Status::Passed && *entry == Status::Passed {
                *entry = verdict.status;
            }
            let cpu_ms = (sessions.cpu_reported().saturating_sub(cpu_before)).as_millis() as u64;
            self.tests[k] = Some(result(test, verdict, Some(cpu_ms)));
        }
    }

    /// Runs `test` under what is left of its section's budget, in the session of the world it uses.
    fn run_one_allowed(
        &mut self,
        sessions: &mut WorldSessions,
        test: &PlannedTest,
        section: Option<Section>,
        lives: &mut Lives,
    ) -> Verdict {
        match section {
            Some(s) => sessions.meter().allow(self.budgets.left(s), self.budgets.used_up(s)),
            None => sessions.meter().unlimited(),
        }
        let runs = !test.item.check.is_build();
        let world = sessions.for_test(test.item.needs.contains(&"ref_world"), &mut self.machine_stalls);
        match world.startup {
            Err(fault @ Fault::Stalled(_)) if runs => Verdict::said(Status::Error, fault.describe()),
            Err(fault) if runs => failed(fault.describe()),
            startup => {
                let capabilities: BTreeSet<String> =
                    startup.as_ref().map(|h| h.capabilities.clone()).unwrap_or_default();
                let mut ctx = Ctx {
                    session: world.session,
                    policy: self.policy,
                    capabilities: &capabilities,
                    lives,
                    fresh_session: world.fresh,
                    measured: &self.measured,
                };
                run_replayed(&mut ctx, test, &mut self.machine_stalls)
            }
        }
    }
}

/// Runs a test; if the machine stalled the submission meanwhile, forgets what the attempt left (the Solvers'
/// lives it lived, its standard error, the processes it lost) and runs it once more from its first request,
/// in a fresh process. A second stall is the grader's problem: the test is an error and its id goes to
/// `machine_stalls`.
fn run_replayed(ctx: &mut Ctx<'_>, test: &PlannedTest, machine_stalls: &mut Vec<String>) -> Verdict {
    let meter = Arc::clone(ctx.session.meter());
    let (mark, checkpoint) = (ctx.lives.mark(), ctx.session.checkpoint());
    let (verdict, stalled) = meter.watching(|| run_one(ctx, test));
    let Some(how) = stalled else { return verdict };
    eprintln!(
        "grader: the machine stalled the submission during {} ({how}); replaying the test in a fresh process",
        test.id
    );
    ctx.lives.forget_since(mark);
    ctx.session.rewind(checkpoint);
    let (verdict, stalled) = meter.watching(|| run_one(ctx, test));
    let Some(how) = stalled else { return verdict };
    eprintln!(
        "grader: the machine stalled the submission during {} again ({how}): the test is the grader's problem",
        test.id
    );
    machine_stalls.push(test.id.clone());
    Verdict::said(
        Status::Error,
        "the machine stalled the submission twice during this test (it was kept from running, not slow on its \
         own): a grader problem, not yours; grade again on a less busy machine"
            .into(),
    )
}

/// The order tests run in (indices into `planned`): the sections whose tests build no Solver (the build, the
/// API, the Board's checks), then those with tests judged on their Solvers' counts, CPU and memory
/// ([`Check::judges_first_lives`](crate::catalog::Check::judges_first_lives)), then the rest, each in
/// catalog order, a section whole (so progress shows each once). A Solver can keep what it found in a static
/// field and answer a puzzle it has seen with a token search: living the judged Solvers before any other
/// makes each the first of its puzzle in its process (the judged tests of one puzzle share one life,
/// `runner::checks::Ctx::life`). In catalog order Solver 9a, which asks solution() first, solved
/// puzzle3x3-10 (puzzle10's board, a Memory Solver row) before it. The tests a test depends on still run
/// before it ([`tests::no_test_runs_before_a_test_it_depends_on`]).
fn execution_order(planned: &[PlannedTest]) -> Vec<usize> {
    let group = |test: &PlannedTest| match test.item.check {
        check if check.solver_calls().is_none() => 0,
        check if check.judges_first_lives() => 1,
        _ => 2,
    };
    let mut section_group: HashMap<Category, u8> = HashMap::new();
    for test in planned {
        let at = section_group.entry(test.item.category).or_default();
        *at = (*at).max(group(test));
    }
    let mut order: Vec<usize> = (0..planned.len()).collect();
    order.sort_by_key(|&k| (section_group[&planned[k].item.category], planned[k].item.category));
    order
}

fn run_one(ctx: &mut Ctx<'_>, test: &PlannedTest) -> Verdict {
    if let Some(missing) = test.item.needs.iter().find(|n| !ctx.has(n)) {
        let reason = format!("not applicable: the submission does not support `{missing}` (see specs/protocol.md)");
        return Verdict::said(Status::NotApplicable, reason);
    }
    // Only a test with inputs can miss any (a check without inputs plans no trials and misses nothing).
    if test.trials.is_empty() && !test.missing.is_empty() {
        let message = format!(
            "the fixture directory lacks {} (a grader problem, not yours: the instructor's --fixtures must hold it)",
            test.missing.join(", ")
        );
        return Verdict::said(Status::Error, message);
    }
    checks::run(ctx, test)
}

/// The most of a test's message a report keeps (every part of it is bounded already; this bounds the whole).
const MESSAGE_KEEP: usize = 64 << 10;

fn failed(message: String) -> Verdict {
    Verdict::said(Status::Failed, message)
}

/// The reason a test is skipped, if a test it depends on did not pass.
fn blocked_by(test: &PlannedTest, statuses: &HashMap<&str, Status>) -> Option<String> {
    test.item.depends_on.iter().find_map(|dep| match statuses.get(dep) {
        Some(Status::Passed) | None => None,
        Some(_) => Some(skipped_for(dep)),
    })
}

/// Why a test was skipped: a test it depends on did not pass.
fn skipped_for(dependency: &str) -> String {
    format!("skipped: it depends on {dependency}, which did not pass")
}

pub(super) fn not_built(planned: &[PlannedTest], compile_log: String) -> Run {
    let compile = planned.iter().find(|t| t.item.check.is_build()).map_or("compile-1", |t| t.item.id);
    let tests = planned
        .iter()
        .map(|test| {
            let verdict = if test.item.check.is_build() {
                failed("the submission did not compile (see the compiler's output)".into())
            } else {
                Verdict::said(Status::Skipped, skipped_for(compile))
            };
            result(test, verdict, None)
        })
        .collect();
    Run {
        tests,
        language: None,
        output: String::new(),
        output_truncated: false,
        compile_log: Some(compile_log),
        machine_stalls: Vec::new(),
        peak_memory: None,
        notes: vec![],
        counting_cpu_ms: 0,
        processes_cpu_ms: 0,
    }
}

fn result(test: &PlannedTest, verdict: Verdict, cpu_ms: Option<u64>) -> TestResult {
    let mut inputs = test.inputs.clone();
    inputs.extend(test.missing.iter().map(|m| format!("{m} (missing)")));
    TestResult {
        id: test.id.clone(),
        official: test.item.official.map(str::to_string),
        row: test.row.clone(),
        columns: test.row.as_ref().and_then(|_| checks::columns(test.item.check)).map(str::to_string),
        category: test.item.category,
        title: test.title.clone(),
        status: verdict.status,
        score: 0.0,
        max_score: 0.0,
        inputs,
        rows: verdict.rows,
        message: crate::clip::clipped(verdict.message, MESSAGE_KEEP),
        evidence: verdict.evidence,
        leans: test.item.leans,
        hidden: false,
        cpu_ms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::planned_catalog;

    #[test]
    fn no_test_runs_before_a_test_it_depends_on() {
        let planned = planned_catalog();
        let order = execution_order(&planned);
        let position = |id: &str| order.iter().position(|&k| planned[k].item.id == id);
        for (at, &k) in order.iter().enumerate() {
            for dependency in planned[k].item.depends_on {
                let ran = position(dependency).expect("a dependency is in the plan");
                assert!(ran < at, "{} runs before {dependency}, which it depends on", planned[k].id);
            }
        }
    }

    #[test]
    fn every_test_runs_once_and_the_judged_solvers_are_the_first_solvers() {
        let planned = planned_catalog();
        let order = execution_order(&planned);
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..planned.len()).collect::<Vec<_>>(), "every test runs once");
        let builds_solvers = |k: usize| planned[k].item.check.solver_calls().is_some();
        let first_solver = order.iter().position(|&k| builds_solvers(k)).expect("Solver tests");
        let judged = order.iter().filter(|&&k| planned[k].item.check.judges_first_lives()).count();
        assert!(judged > 100, "the timing and memory rows: {judged}");
        assert!(
            order[first_solver..first_solver + judged].iter().all(|&k| planned[k].item.check.judges_first_lives()),
            "no Solver test runs before the judged ones"
        );
        let after = &order[first_solver + judged..];
        assert!(after.iter().any(|&k| planned[k].item.id == "solver-9a"), "the correctness tests come after them");
    }
}
