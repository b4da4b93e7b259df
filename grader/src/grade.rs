//! One grading run, start to finish: load the fixtures, plan the tests, build the submission, run the tests in
//! a session, score. This is the only module that knows the order of the stages; each stage lives elsewhere.
//!
//! The run splits where the submission comes in. [`TestPlan::prepare`] does the half that depends only on
//! the fixtures, the seed, the policy and `--only`; [`grade_prepared`] does the rest for one submission. A
//! batch prepares once and grades every student against the same plan; [`grade`] does both halves for one.
//!
//! Only the grader's own problems are errors here (a path that is not a submission, an unreadable fixture
//! directory). Everything the submission does wrong ends up in the report.
//!
//! Two things a test's verdict must not depend on are handled here, between tests: the grade's CPU budget
//! (past it, the remaining tests fail at once with one line), and the machine's load (a test during which
//! the machine stalled the submission is replayed once, from its first request, in a fresh process; a
//! second stall is the grader's problem, named at the top of the report).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use corpus::Corpus;

use crate::build::{self, Prepared, SubmissionKind};
use crate::catalog::{self, Category, Check, Item, Measure, TrialCheck};
use crate::plan::{self, PlannedTest};
use crate::policy::Policy;
use crate::results::{Report, SkippedFixture, Status, Submission, TestResult, Timings};
use crate::runner::checks::{self, Ctx, Lives, Verdict};
use crate::runner::meter::Meter;
use crate::runner::process::{CpuUsed, ProcessLimits, ProcessSpec};
use crate::runner::session::{Fault, SessionLimits};
use crate::runner::worlds::{Programs, WorldSessions};
use crate::score;
use crate::style::{self, StyleError, StyleOptions};

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
    /// Only tests whose id matches one of these (exact ids or prefixes ending in `*`); empty = all.
    pub only: Vec<String>,
    /// Where builds may keep outputs and caches.
    pub work_dir: PathBuf,
    /// What to do with fixture files that cannot be used (`--skip-bad-fixtures`).
    pub bad_fixtures: BadFixtures,
    /// How the style section is made (Java).
    pub style: StyleOptions,
}

/// What to do when the fixture directory has files that cannot be used (corrupt, unreadable, contradicting
/// `puzzles.toml`) or lacks files the planned tests need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BadFixtures {
    /// Stop before any submission runs: the instructor fixes the directory (the default).
    #[default]
    Refuse,
    /// Grade without them (`--skip-bad-fixtures`): the report's header lists the files skipped, and a test
    /// left without an input it needs is an error (the grader then exits 2 after writing the report).
    Skip,
}

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

/// The grader's own failures.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// The submission path could not be built or understood.
    #[error(transparent)]
    Build(#[from] build::BuildError),
    /// The fixtures could not be loaded.
    #[error("failed to load fixtures from `{dir}`: {message} (pass --fixtures DIR with puzzle files)")]
    Fixtures {
        #[allow(missing_docs)]
        dir: PathBuf,
        #[allow(missing_docs)]
        message: String,
    },
    /// The fixture directory holds no puzzle file at all.
    #[error(
        "the fixture directory `{}` holds no puzzle files (`*.txt`): point --fixtures at the puzzle data set \
         (the bundled one is fixtures/puzzles)",
        .0.display()
    )]
    NoPuzzles(PathBuf),
    /// Files of the fixture directory cannot be used.
    #[error(
        "{} with the puzzle files in `{}`:\n{}\nfix or remove those files, or pass --skip-bad-fixtures to grade \
         without them (the report then lists them)",
        count(.problems.len(), "problem"),
        dir.display(),
        listed(problems)
    )]
    BadFixtures {
        #[allow(missing_docs)]
        dir: PathBuf,
        /// Each file and its problem (`invalid puzzle file `x`: line 3: …`).
        problems: Vec<String>,
    },
    /// The fixture directory lacks files the planned tests need.
    #[error(
        "the fixture directory `{}` lacks {} the selected tests need: {}\npoint --fixtures at the full data set, \
         or pass --skip-bad-fixtures to grade anyway (the tests that need them are then errors, and the grader \
         exits 2 after writing the report)",
        dir.display(),
        count(missing.len(), "file"),
        abridged(missing)
    )]
    MissingFixtures {
        #[allow(missing_docs)]
        dir: PathBuf,
        /// The file names.
        missing: Vec<String>,
    },
    /// The style section's options cannot be used (an unreadable Checkstyle configuration).
    #[error(transparent)]
    Style(#[from] StyleError),
}

/// The most problems or missing files an error lists before summing up the rest.
const LISTED: usize = 12;

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn listed(problems: &[String]) -> String {
    let mut lines: Vec<String> = problems.iter().take(LISTED).map(|p| format!("  {p}")).collect();
    if problems.len() > LISTED {
        lines.push(format!("  … and {} more", problems.len() - LISTED));
    }
    lines.join("\n")
}

fn abridged(names: &[String]) -> String {
    let mut shown = names.iter().take(LISTED).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > LISTED {
        shown.push_str(&format!(" and {} more", names.len() - LISTED));
    }
    shown
}

/// The half of a grading run that does not depend on the submission: the policy, the seed, and the tests
/// planned from the fixtures (random boards, exact distances, reference baselines).
///
/// Planning is the costly part of that half and gives the same tests for every student, so a batch prepares
/// one plan and grades the whole class against it, shared by reference across its threads.
#[derive(Debug, Clone)]
pub struct TestPlan {
    policy: Policy,
    seed: u64,
    tests: Vec<PlannedTest>,
    skipped_fixtures: Vec<SkippedFixture>,
    style: StyleOptions,
}

impl TestPlan {
    /// Loads the fixtures in `fixtures` and plans the tests that `policy` and `only` select (`only` as in
    /// [`GradeOptions::only`]), every random board drawn from `seed`. Fixture files that cannot be used, and
    /// files the planned tests need that the directory lacks, stop here unless `bad` is [`BadFixtures::Skip`].
    ///
    /// # Errors
    /// [`GradeError::Fixtures`] when the fixture directory cannot be loaded, [`GradeError::NoPuzzles`] when it
    /// holds no puzzle file; with [`BadFixtures::Refuse`], [`GradeError::BadFixtures`] and
    /// [`GradeError::MissingFixtures`].
    pub fn prepare(
        fixtures: &Path,
        seed: u64,
        policy: Policy,
        only: &[String],
        bad: BadFixtures,
    ) -> Result<TestPlan, GradeError> {
        let dir = fixtures.to_path_buf();
        let corpus =
            Corpus::load(fixtures).map_err(|e| GradeError::Fixtures { dir: dir.clone(), message: e.to_string() })?;
        if corpus.puzzles.is_empty() && corpus.problems.is_empty() {
            return Err(GradeError::NoPuzzles(dir));
        }
        if bad == BadFixtures::Refuse && !corpus.problems.is_empty() {
            return Err(GradeError::BadFixtures {
                dir,
                problems: corpus.problems.iter().map(|p| p.to_string()).collect(),
            });
        }
        let mut tests = plan::plan(&selected_items(&policy, only), &corpus, seed, policy.tests.trials_scale);
        // Skips may name expanded tests (`timing-*/puzzle4x4-39`), which only exist after planning.
        tests.retain(|test| !Policy::matches(&policy.tests.skip, &test.id));
        if !only.is_empty() {
            tests.retain(|test| test.item.check.is_build() || Policy::matches(only, &test.id));
        }
        let missing = missing_fixtures(&tests);
        if bad == BadFixtures::Refuse && !missing.is_empty() {
            return Err(GradeError::MissingFixtures { dir, missing });
        }
        let skipped_fixtures = corpus.problems.iter().map(|p| SkippedFixture::of(p, &corpus.root)).collect();
        Ok(TestPlan { policy, seed, tests, skipped_fixtures, style: StyleOptions::default() })
    }

    /// The plan with `style` for the style section of Java submissions.
    pub fn with_style(self, style: StyleOptions) -> TestPlan {
        TestPlan { style, ..self }
    }

    /// Fixture files the planned tests need and the directory lacks (only with [`BadFixtures::Skip`]).
    pub fn missing_fixtures(&self) -> Vec<String> {
        missing_fixtures(&self.tests)
    }

    /// The planned tests, in catalog order.
    pub fn tests(&self) -> &[PlannedTest] {
        &self.tests
    }
}

/// Grades one submission: prepares its plan, then runs it as [`grade_prepared`] does.
///
/// The submission is looked at before the fixtures, so a wrong path is reported ahead of a fixture problem.
/// The report's wall time includes the planning.
pub fn grade(options: &GradeOptions, progress: &mut dyn FnMut(Progress<'_>)) -> Result<Report, GradeError> {
    let started = Instant::now();
    let path = build::locate(&options.submission);
    let kind = build::detect(&path)?;
    let plan = TestPlan::prepare(
        &options.fixtures,
        options.seed,
        options.policy.clone(),
        &options.only,
        options.bad_fixtures,
    )?
    .with_style(options.style.clone());
    let student = Student { path: &path, name: display_name(&options.submission), kind, work_dir: &options.work_dir };
    run_plan(&plan, &student, started, progress)
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
    let path = build::locate(submission);
    let student = Student { path: &path, name: display_name(submission), kind: build::detect(&path)?, work_dir };
    run_plan(plan, &student, started, progress)
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
            heap_mb,
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
    let run = match built {
        Prepared::Ready(launch) => {
            let own = process_spec(&launch, policy, heap_mb);
            let programs = Programs { own, reference: None, trusted_runtime_threads: false };
            Run { notes: launch.notes.clone(), ..run_tests(programs, policy, &plan.tests, progress) }
        }
        Prepared::PerWorld(launches) => {
            let programs = Programs {
                own: process_spec(&launches.own, policy, heap_mb),
                reference: Some(process_spec(&launches.reference, policy, heap_mb)),
                trusted_runtime_threads: true,
            };
            Run { notes: launches.own.notes.clone(), ..run_tests(programs, policy, &plan.tests, progress) }
        }
        Prepared::CompileFailed { log } => not_built(&plan.tests, log),
    };
    details.transcript = style::transcript(student.kind, run.compile_log.as_deref());
    let cpu = CpuUsed::now().since(cpu_before);
    let timings = Timings {
        wall_ms: elapsed_ms(started),
        build_ms,
        submission_cpu_ms: 0,
        counting_cpu_ms: run.counting_cpu_ms,
        processes_cpu_ms: cpu.children.as_millis() as u64,
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
        machine_stalls: run.machine_stalls,
        timings: Timings { submission_cpu_ms, ..timings },
        count_causes,
        details,
        withheld: 0,
    }
}

/// Every fixture file some planned test needed and the fixture directory lacks, once each, sorted.
fn missing_fixtures(tests: &[PlannedTest]) -> Vec<String> {
    let missing: BTreeSet<&String> = tests.iter().flat_map(|t| &t.missing).collect();
    missing.into_iter().cloned().collect()
}

fn elapsed_ms(since: Instant) -> u64 {
    since.elapsed().as_millis() as u64
}

fn display_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| path.display().to_string())
}

fn selected_items(policy: &Policy, only: &[String]) -> Vec<Item> {
    catalog::all()
        .into_iter()
        .filter(|item| !Policy::matches(&policy.tests.skip, item.id))
        .filter(|item| only.is_empty() || item.check.is_build() || only_matches(only, item.id))
        .collect()
}

/// Whether an item is needed for `--only` patterns, which may name whole items or expanded tests.
fn only_matches(only: &[String], id: &str) -> bool {
    Policy::matches(only, id)
        || only.iter().any(|p| p.split('/').next().is_some_and(|base| Policy::matches(&[base.to_string()], id)))
}

/// How a prepared submission runs: the policy's limits, and a memory group of the native program's address
/// space, or of the runtime's heap (`heap_mb`, which a Python server caps its address space at too) and a
/// margin for the runtime's own memory. Where the machine has no memory groups, a runtime that fits an
/// address-space limit (the JVM, its reservations bounded) gets one of its heap, the margin and those
/// reservations instead.
fn process_spec(launch: &build::Launch, policy: &Policy, heap_mb: u64) -> ProcessSpec {
    let mut limits = ProcessLimits::default();
    let native = policy.limits.memory_mb + policy.limits.address_space_slack_mb;
    limits.address_space = launch.address_space_limit.then_some(native << 20);
    let memory = if launch.address_space_limit { native } else { heap_mb + policy.limits.runtime_margin_mb };
    limits.memory = Some(memory << 20);
    let fit = launch.address_space_fit.as_ref().filter(|_| !crate::runner::sandbox::memory_groups());
    if let Some(fit) = fit {
        limits.address_space = Some((memory + fit.reserved_mb) << 20);
    }
    limits.scratch = Some(policy.limits.scratch_mb << 20);
    limits.file_size = Some(policy.limits.scratch_mb << 20);
    // Every session is created and dropped on one thread, so the kernel's parent-death signal (tied to the
    // spawning thread) is safe here: no submission survives a grader that is killed.
    limits.die_with_grader = true;
    limits.processes = Some(policy.limits.processes);
    let fitting = fit.map(|fit| (fit.args.as_slice(), fit.env.as_slice())).unwrap_or_default();
    let mut spec = ProcessSpec::new(&launch.program).args(fitting.0).args(&launch.args).limits(limits);
    spec.view.read_only = launch.read_only.clone();
    for (key, value) in launch.env.iter().chain(fitting.1) {
        spec = spec.env(key, value);
    }
    spec
}

/// What running the tests produced, or why they could not run.
struct Run {
    tests: Vec<TestResult>,
    language: Option<String>,
    output: String,
    output_truncated: bool,
    /// The compiler's output, when the submission did not compile.
    compile_log: Option<String>,
    /// What the machine stalled twice in a row (a test, or the submission's start).
    machine_stalls: Vec<String>,
    /// The most memory one sandbox of the submission held at once.
    peak_memory: Option<u64>,
    /// What the build changed that the student should know.
    notes: Vec<String>,
    /// CPU the program reported for reading its counters (see [`Timings::counting_cpu_ms`]).
    counting_cpu_ms: u64,
}

/// Runs the planned tests, each in the session of the world it uses (see `runner::worlds`).
fn run_tests(
    programs: Programs,
    policy: &Policy,
    planned: &[PlannedTest],
    progress: &mut dyn FnMut(Progress<'_>),
) -> Run {
    let limits = SessionLimits::from_policy(&policy.limits);
    let meter = Arc::new(Meter::new(Some(Duration::from_secs_f64(policy.limits.grade_cpu_seconds))));
    let mut machine_stalls = Vec::new();
    let mut sessions = WorldSessions::start(programs, limits, meter, &mut machine_stalls);
    let mut lives = Lives::default();
    let deep_memory_boards = deep_memory_boards(planned);
    let mut statuses: HashMap<&str, Status> = HashMap::new();
    let mut tests = Vec::new();
    for (index, test) in planned.iter().enumerate() {
        progress(Progress::Started { index, id: &test.id, category: test.item.category });
        let cpu_before = sessions.cpu_reported();
        let runs = !test.item.check.is_build();
        let verdict = match blocked_by(test, &statuses) {
            Some(reason) => Verdict::said(Status::Skipped, reason),
            None if runs && sessions.grade_cpu_left().is_some_and(|left| left.is_zero()) => {
                failed(sessions.meter().used_up())
            }
            None => {
                let world = sessions.for_test(test.item.needs.contains(&"ref_world"), &mut machine_stalls);
                match world.startup {
                    Err(fault @ Fault::Stalled(_)) if runs => Verdict::said(Status::Error, fault.describe()),
                    Err(fault) if runs => failed(fault.describe()),
                    startup => {
                        let capabilities: BTreeSet<String> =
                            startup.as_ref().map(|h| h.capabilities.clone()).unwrap_or_default();
                        let mut ctx = Ctx {
                            session: world.session,
                            policy,
                            capabilities: &capabilities,
                            lives: &mut lives,
                            fresh_session: world.fresh,
                            deep_memory_boards: &deep_memory_boards,
                        };
                        run_replayed(&mut ctx, test, &mut machine_stalls)
                    }
                }
            }
        };
        progress(Progress::Finished { id: &test.id, status: verdict.status });
        let entry = statuses.entry(test.item.id).or_insert(Status::Passed);
        if verdict.status != Status::Passed && *entry == Status::Passed {
            *entry = verdict.status;
        }
        let cpu_ms = (sessions.cpu_reported().saturating_sub(cpu_before)).as_millis() as u64;
        tests.push(result(test, verdict, Some(cpu_ms)));
    }
    let language = sessions.own_startup().and_then(|startup| startup.as_ref().ok()).map(|h| h.language.clone());
    let (output, output_truncated) = sessions.finish();
    Run {
        tests,
        language,
        output,
        output_truncated,
        compile_log: None,
        machine_stalls,
        peak_memory: sessions.peak_memory(),
        notes: vec![],
        counting_cpu_ms: sessions.cpu_counting().as_millis() as u64,
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
    if !stalled {
        return verdict;
    }
    eprintln!("grader: the machine stalled the submission during {}; replaying the test in a fresh process", test.id);
    ctx.lives.forget_since(mark);
    ctx.session.rewind(checkpoint);
    let (verdict, stalled) = meter.watching(|| run_one(ctx, test));
    if !stalled {
        return verdict;
    }
    eprintln!("grader: the machine stalled the submission during {} again: the test is the grader's problem", test.id);
    machine_stalls.push(test.id.clone());
    Verdict::said(
        Status::Error,
        "the machine stalled the submission twice during this test (it was kept from running, not slow on its \
         own): a grader problem, not yours; grade again on a less busy machine"
            .into(),
    )
}

/// The boards of the queue-memory test's trials: the only lives whose counters must measure the queues' deep
/// memory (a walk the Java adapter does only when asked).
fn deep_memory_boards(planned: &[PlannedTest]) -> HashSet<reference::Board> {
    planned
        .iter()
        .filter(|test| matches!(test.item.check, Check::PerTrial(TrialCheck::Measure(Measure::QueueMemory))))
        .flat_map(|test| test.trials.iter().map(|trial| trial.board.clone()))
        .collect()
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

fn not_built(planned: &[PlannedTest], compile_log: String) -> Run {
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

    #[test]
    fn only_patterns_select_items_by_the_base_of_expanded_ids() {
        let only = |p: &str| only_matches(&[p.to_string()], "timing-2");
        assert!(only("timing-2/puzzle4x4-40"));
        assert!(only("timing-*/puzzle4x4-4*"));
        assert!(only("timing-2"));
        assert!(!only("timing-3/puzzle4x4-40"));
    }
}
