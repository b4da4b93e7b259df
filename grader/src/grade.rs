//! One grading run, start to finish: load the fixtures, plan the tests, build the submission, run the tests in
//! a session, score. This is the only module that knows the order of the stages; each stage lives elsewhere.
//!
//! The run splits where the submission comes in. [`TestPlan::prepare`] does the half that depends only on
//! the fixtures, the seed, the policy and `--only`; [`grade_prepared`] does the rest for one submission. A
//! batch prepares once and grades every student against the same plan; [`grade`] does both halves for one.
//!
//! Only the grader's own problems are errors here (a path that does not exist, an unreadable fixture
//! directory). Everything the submission does wrong ends up in the report; what was handed in that is not a
//! submission at all (a missing or misnamed file, nothing gradable) is a report that says it is not graded,
//! and why, with no test run.
//!
//! Two things a test's verdict must not depend on are handled here, between tests: the grade's CPU budget
//! (past it, the remaining tests fail at once with one line), and the machine's load (a test during which
//! the machine stalled the submission is replayed once, from its first request, in a fresh process; a
//! second stall is the grader's problem, named at the top of the report).
//!
//! This file is the order of the stages and the report; the plan's half is `grade/test_plan.rs`, the run of
//! the tests in their sessions `grade/run.rs`, the grader's own failures `grade/error.rs`.

mod budgets;
mod error;
mod run;
mod selection;
mod test_plan;

use std::path::{Path, PathBuf};
use std::time::Instant;

pub use self::error::GradeError;
pub use self::run::Progress;
use self::run::{not_built, run_tests, Run};
pub use self::selection::{check_only, check_policy_patterns};
use self::test_plan::missing_fixtures;
pub use self::test_plan::{BadFixtures, TestPlan};
use crate::build::handed_in::{HandedIn, NotASubmission};
use crate::build::{self, MemoryBound, Prepared, SubmissionKind};
use crate::policy::Policy;
use crate::results::{Report, Submission, Timings};
use crate::runner::process::{CpuUsed, ProcessLimits, ProcessSpec};
use crate::runner::worlds::{Programs, ReferencePrograms};
use crate::score;
use crate::style::{self, StyleOptions};

/// What to grade and how.
#[derive(Debug, Clone)]
pub struct GradeOptions {
    /// The submission: an executable, a Cargo project or a Java folder.
    pub submission: PathBuf,
    #[allow(missing_docs)]
    pub fixtures: PathBuf,
    /// The seed of every random board.
    pub seed: u64,
    #[allow(missing_docs)]
    pub policy: Policy,
    /// Only tests whose id matches one of these (exact ids or prefixes ending in `*`); empty = all. Each must
    /// match a test ([`check_only`]); a run they narrow is partial ([`crate::results::Partial`]).
    pub only: Vec<String>,
    /// Where builds may keep outputs and caches.
    pub work_dir: PathBuf,
    /// What to do with fixture files that cannot be used (`--skip-bad-fixtures`).
    pub bad_fixtures: BadFixtures,
    /// How the style section is made (Java).
    pub style: StyleOptions,
}

/// Grades one submission: prepares its plan, then runs it as [`grade_prepared`] does.
///
/// The submission is looked at before the fixtures, so a wrong path is reported ahead of a fixture problem.
/// The report's wall time includes the planning.
pub fn grade(options: &GradeOptions, progress: &mut dyn FnMut(Progress<'_>)) -> Result<Report, GradeError> {
    let started = Instant::now();
    let name = display_name(&options.submission);
    let handed_in = match examine(&options.submission)? {
        Ok(handed_in) => handed_in,
        Err(not) => return Ok(Report::not_a_submission(&name, options.seed, &not.reason, not.files)),
    };
    let plan = TestPlan::prepare(
        &options.fixtures,
        options.seed,
        options.policy.clone(),
        &options.only,
        options.bad_fixtures,
        Some(&options.work_dir),
    )?
    .with_style(options.style.clone());
    let plan_ms = elapsed_ms(started);
    let student = Student { path: &handed_in.path, name, kind: handed_in.kind, work_dir: &options.work_dir };
    let mut report = run_plan(&plan, &student, started, progress)?;
    report.timings.plan_ms = plan_ms;
    Ok(report)
}

/// Grades one submission against a plan prepared earlier (possibly shared with other threads). `work_dir`
/// is where the build may keep outputs and caches.
///
/// The report's wall time counts from this call, so it leaves out the planning the caller did once.
pub fn grade_prepared(
    plan: &TestPlan,
    submission: &Path,
    work_dir: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Report, GradeError> {
    let started = Instant::now();
    let name = display_name(submission);
    let handed_in = match examine(submission)? {
        Ok(handed_in) => handed_in,
        Err(not) => return Ok(Report::not_a_submission(&name, plan.seed, &not.reason, not.files)),
    };
    let student = Student { path: &handed_in.path, name, kind: handed_in.kind, work_dir };
    run_plan(plan, &student, started, progress)
}

/// What was handed in at `path` ([`build::handed_in`]): a submission, or why it is none (`Ok(Err(..))`); a
/// path that does not exist is the grader's user's mistake, not a student's.
fn examine(path: &Path) -> Result<Result<HandedIn, NotASubmission>, GradeError> {
    if std::fs::symlink_metadata(path).is_err() {
        return Err(GradeError::NoSuchSubmission(path.to_path_buf()));
    }
    Ok(build::handed_in::examine(path))
}

/// A submission whose kind is known, and where its build may keep files.
struct Student<'a> {
    /// Where its files are (inside the one folder a student's upload may wrap them in).
    path: &'a Path,
    /// The name the report shows: the submission as given.
    name: String,
    kind: SubmissionKind,
    work_dir: &'a Path,
}

/// Builds the submission and runs the plan's tests on it; `started` is when the caller's run began.
fn run_plan(
    plan: &TestPlan,
    student: &Student<'_>,
    started: Instant,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Report, GradeError> {
    progress(Progress::Building);
    let build_started = Instant::now();
    let heap_mb = plan.policy.limits.java_heap_mb_on(build::machine::machine_memory_mb());
    let heap = build::Heap { mb: heap_mb, largest_solve: plan.largest_reference_solve() };
    let build_limits = build::BuildLimits::from_policy(&plan.policy.limits);
    let config = plan.style.config()?;
    // The style section (Checkstyle is a JVM of its own) is made while the submission builds.
    let (built, mut details) = std::thread::scope(|scope| {
        let details =
            scope.spawn(|| style::examine(student.path, student.kind, &config, student.work_dir, &build_limits));
        let built = build::prepare(
            student.path,
            student.kind,
            student.work_dir,
            heap,
            &build_limits,
            &plan.policy.rust,
            &plan.policy.java,
        );
        (built, details.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    let built = built?;
    let build_ms = elapsed_ms(build_started);
    progress(Progress::Planned { total: plan.tests.len() });
    let cpu_before = CpuUsed::now();
    let python_policy;
    let policy = if student.kind == SubmissionKind::Python {
        python_policy = Policy { limits: plan.policy.limits.scaled_for_python(), ..plan.policy.clone() };
        &python_policy
    } else {
        &plan.policy
    };
    let mut run = match built {
        Prepared::Ready(launch) => {
            let own = process_spec(&launch, policy, heap_mb);
            let programs = Programs { own, reference: None, trusted_runtime_threads: false };
            Run {
                notes: launch.notes.clone(),
                ..run_tests(programs, policy, &plan.tests, &plan.policy.tests.hidden, progress)
            }
        }
        Prepared::PerWorld(launches) => {
            let programs = Programs {
                own: process_spec(&launches.own, policy, heap_mb),
                reference: Some(ReferencePrograms {
                    tests: process_spec(&launches.reference, policy, heap_mb),
                    rerun: process_spec(&launches.reference_rerun, policy, heap_mb),
                }),
                trusted_runtime_threads: true,
            };
            Run {
                notes: launches.own.notes.clone(),
                ..run_tests(programs, policy, &plan.tests, &plan.policy.tests.hidden, progress)
            }
        }
        Prepared::CompileFailed { log } => not_built(&plan.tests, log),
    };
    run.notes.extend(build::passed_over(student.path, student.kind));
    details.transcript = style::transcript(student.kind, run.compile_log.as_deref());
    let cpu = CpuUsed::now().since(cpu_before);
    let timings = Timings {
        wall_ms: elapsed_ms(started),
        plan_ms: 0,
        build_ms,
        submission_cpu_ms: 0,
        counting_cpu_ms: run.counting_cpu_ms,
        processes_cpu_ms: run.processes_cpu_ms,
        grader_cpu_ms: cpu.grader.as_millis() as u64,
        submission_peak_memory_mb: run.peak_memory.map(|bytes| bytes >> 20),
    };
    Ok(report(plan, student, run, timings, details))
}

/// The report of a run: hidden tests marked, scores given, the submission's CPU time added to `timings`.
fn report(
    plan: &TestPlan,
    student: &Student<'_>,
    run: Run,
    timings: Timings,
    details: crate::results::Details,
) -> Report {
    let mut tests = run.tests;
    for test in &mut tests {
        test.hidden = Policy::matches(&plan.policy.tests.hidden, &test.id);
    }
    let score = score::score(&mut tests, &plan.policy.weights);
    let submission_cpu_ms = tests.iter().filter_map(|t| t.cpu_ms).sum();
    let fix_first = crate::triage::root_causes(&tests);
    let count_causes = crate::triage::count_causes(&tests);
    Report {
        submission: Submission {
            name: student.name.clone(),
            language: run.language.unwrap_or_else(|| student.kind.language().into()),
        },
        seed: plan.seed,
        score,
        tests,
        output: run.output,
        output_truncated: run.output_truncated,
        compile_log: run.compile_log,
        notes: run.notes,
        fix_first,
        missing_fixtures: missing_fixtures(&plan.tests),
        skipped_fixtures: plan.skipped_fixtures.clone(),
        partial: plan.partial.clone(),
        not_graded: crate::results::NotGraded::machine_stalled(&run.machine_stalls),
        machine_stalls: run.machine_stalls,
        timings: Timings { submission_cpu_ms, ..timings },
        count_causes,
        details,
        withheld: 0,
    }
}

fn elapsed_ms(since: Instant) -> u64 {
    since.elapsed().as_millis() as u64
}

fn display_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string())
}

/// How a prepared submission runs: the policy's limits, and a memory group of the native program's address
/// space, or of the runtime's heap (`heap_mb`, which a Python server caps its address space at too) and a
/// margin for the runtime's own memory. Where the machine has no memory groups, a runtime that fits an
/// address-space limit (the JVM, its reservations bounded) gets one of its heap, the margin and those
/// reservations instead.
fn process_spec(launch: &build::Launch, policy: &Policy, heap_mb: u64) -> ProcessSpec {
    let mut limits = ProcessLimits::default();
    let (memory_mb, address_space_mb, fit) = match &launch.memory {
        MemoryBound::AddressSpace => {
            let native = policy.limits.memory_mb + policy.limits.address_space_slack_mb;
            (native, Some(native), None)
        }
        MemoryBound::Heap { fit } => {
            let memory = heap_mb + policy.limits.runtime_margin_mb;
            let fit = fit.as_ref().filter(|_| !crate::runner::sandbox::memory_groups());
            (memory, fit.map(|fit| memory + fit.reserved_mb), fit)
        }
    };
    limits.memory = Some(memory_mb << 20);
    limits.address_space = address_space_mb.map(|mb| mb << 20);
    limits.scratch = Some(policy.limits.scratch_mb << 20);
    limits.file_size = Some(policy.limits.scratch_mb << 20);
    // Every session is created and dropped on one thread, so the kernel's parent-death signal (tied to the
    // spawning thread) is safe here: no submission survives a grader that is killed.
    limits.die_with_grader = true;
    limits.processes = Some(policy.limits.processes);
    let mut spec = launch.process.clone().limits(limits);
    if let Some(fit) = fit {
        // the fit's options go before the runtime's own, its environment after
        spec.args.splice(0..0, fit.args.iter().cloned());
        spec.env.extend(fit.env.iter().cloned());
    }
    spec
}
