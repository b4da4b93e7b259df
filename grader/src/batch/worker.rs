//! The child side of `grader batch`: a `grader batch-worker SETTINGS` process plans the tests once, then grades
//! the students its parent sends, one at a time, writing each student's reports itself and answering with
//! the grade. Whatever happens while it grades one student (a panic of the grader's own, the kernel's
//! out-of-memory killer, a crash) ends this process only: the parent names that student's reason and goes on
//! with a fresh worker.
//!
//! The conversation is JSON lines: standard input carries [`Job`]s, standard output [`Reply`]s (one `Ready`
//! or `Failed` after planning, then one `Graded` per job). Nothing else is written to standard output.
//!
//! A test hook: `GRADER_BATCH_TEST_CRASH=MODE:ID[,MODE:ID…]` makes the worker end itself just before grading the
//! student whose identity is `ID` (`panic`, `abort`, `segfault`, or `kill`: SIGKILL, as the out-of-memory
//! killer sends), so the end-to-end tests can check that a class survives a grader that dies. Only whoever
//! starts `grader batch` sets its environment; a submission runs later, in a sandbox whose environment the
//! grader makes, and cannot reach its parent's, so no submission can trigger it.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::{Deserialize, Serialize};

use crate::grade::{grade_prepared, BadFixtures, TestPlan};
use crate::output::write_atomically;
use crate::policy::Policy;
use crate::report::{self, Format};
use crate::results::{Partial, Report, Status};

/// The environment variable of the test hook (module documentation).
pub const CRASH_HOOK: &str = "GRADER_BATCH_TEST_CRASH";

/// Everything a worker needs to grade as its parent would: written by the parent to a file of its own, so
/// every worker grades against exactly the same settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    #[allow(missing_docs)]
    pub fixtures: PathBuf,
    /// As `--skip-bad-fixtures`.
    pub skip_bad_fixtures: bool,
    #[allow(missing_docs)]
    pub seed: u64,
    /// The effective policy, as TOML (defaults filled in).
    pub policy: String,
    /// As `--only`.
    pub only: Vec<String>,
    /// The report formats, by name.
    pub formats: Vec<String>,
    /// Where the reports go.
    pub output_dir: PathBuf,
    /// Where builds keep outputs and caches.
    pub work_dir: PathBuf,
    /// As `--checkstyle-config`.
    #[serde(default)]
    pub checkstyle_config: Option<PathBuf>,
}

impl Settings {
    /// The report formats.
    pub fn formats(&self) -> Vec<Format> {
        self.formats.iter().filter_map(|name| name.parse().ok()).collect()
    }

    /// How the style section of Java submissions is made.
    pub fn style(&self) -> crate::style::StyleOptions {
        crate::style::StyleOptions { checkstyle_config: self.checkstyle_config.clone() }
    }
}

/// One student to grade.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Job {
    /// Their identity, as text.
    pub id: String,
    /// Their name, which their reports show.
    pub name: String,
    /// Their file stem: reports are `<output_dir>/<stem>.<extension>`.
    pub stem: String,
    /// The folder or executable to grade.
    pub path: PathBuf,
}

/// What a student's grading gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Grade {
    /// The aggregate score.
    pub score: f64,
    /// The most it could have been under the policy and `--only`.
    pub max: f64,
    /// Points per category, in catalog order.
    pub categories: Vec<(String, f64)>,
    /// The most each category could give, in the same order.
    pub category_max: Vec<(String, f64)>,
    /// Ids of tests that failed or errored.
    pub failed: Vec<String>,
    /// The submission's language (`rust`, `java`, `python`, `program`).
    pub language: String,
    /// Whether it built.
    pub compiled: bool,
    /// The Board methods fix-first found broken, in fixing order (`toString()`, `manhattan()`).
    pub root_causes: Vec<String>,
    /// Set when `--only` left tests out: the score is over the tests run, not the assignment's grade.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
    /// The first line of the report's fix-first list, if it has one (what an LMS's feedback leads with).
    #[serde(default)]
    pub fix_first: Option<String>,
    /// The run gives no final grade by the grader's fault (the machine stalled a test twice): the batch exits 2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub grader_problem: bool,
}

impl Grade {
    /// The grade of a report.
    pub fn of(report: &Report) -> Grade {
        let grader_problem = report.not_graded.as_ref().is_some_and(|n| n.because.is_grader_problem());
        let failed = report
            .tests
            .iter()
            .filter(|t| matches!(t.status, Status::Failed | Status::Error))
            .map(|t| t.id.clone())
            .collect();
        let name = |c: &crate::results::CategoryScore| c.category.name().to_string();
        Grade {
            score: report.score.total,
            max: report.score.max,
            categories: report.score.categories.iter().map(|c| (name(c), c.points)).collect(),
            category_max: report.score.categories.iter().map(|c| (name(c), c.weight)).collect(),
            failed,
            language: report.submission.language.clone(),
            compiled: report.compile_log.is_none(),
            root_causes: report.fix_first.iter().map(|cause| cause.method.call().to_string()).collect(),
            partial: report.partial.clone(),
            fix_first: crate::report::summary::fix_first_lines(report).into_iter().next(),
            grader_problem,
        }
    }

    /// The score as a percentage of the maximum (0 when nothing could score).
    pub fn percent(&self) -> f64 {
        if self.max > 0.0 {
            100.0 * self.score / self.max
        } else {
            0.0
        }
    }
}

/// A worker's line on standard output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The tests are planned; the fixture files they need and the directory lacks (with `--skip-bad-fixtures`).
    Ready {
        #[allow(missing_docs)]
        missing_fixtures: Vec<String>,
    },
    /// The tests could not be planned (the fixtures or the policy): the grader cannot run.
    Failed {
        #[allow(missing_docs)]
        message: String,
    },
    /// A student's outcome: their grade, and why the grader could not grade them or write their reports.
    Graded {
        /// Boxed: a grade is far larger than the other replies.
        grade: Option<Box<Grade>>,
        #[allow(missing_docs)]
        error: Option<String>,
    },
}

/// Runs a worker with the settings in `settings_file` until its standard input ends.
pub fn serve(settings_file: &Path) -> anyhow::Result<ExitCode> {
    end_when_orphaned();
    let text = std::fs::read_to_string(settings_file)?;
    let settings: Settings = serde_json::from_str(&text)?;
    let policy = Policy::parse(&settings.policy).map_err(anyhow::Error::msg)?;
    let bad = if settings.skip_bad_fixtures { BadFixtures::Skip } else { BadFixtures::Refuse };
    let mut out = std::io::stdout().lock();
    let prepared =
        TestPlan::prepare(&settings.fixtures, settings.seed, policy, &settings.only, bad, Some(&settings.work_dir));
    let plan = match prepared {
        Ok(plan) => plan.with_style(settings.style()),
        Err(e) => {
            send(&mut out, &Reply::Failed { message: crate::error_text::error_text(&anyhow::Error::from(e)) })?;
            return Ok(ExitCode::from(2));
        }
    };
    send(&mut out, &Reply::Ready { missing_fixtures: plan.missing_fixtures() })?;
    for line in std::io::stdin().lock().lines() {
        let job: Job = serde_json::from_str(&line?)?;
        crash_if_asked(&job.id);
        send(&mut out, &grade_one(&job, &plan, &settings))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// How often a worker looks whether its parent is still there.
const PARENT_WATCH: std::time::Duration = std::time::Duration::from_millis(500);

/// Ends this worker once its parent is gone. A `grader batch` ended by a signal of its own (a scheduler's
/// SIGTERM, a SIGKILL), not its process group's, left its workers grading a student whose grade no one would
/// read, their submissions' processes running, until that student was done (a CLI red-team pass stopped
/// them by hand). The worker ends itself as SIGTERM would end it; its sandboxes go with it (each sandbox's
/// init has a parent-death signal).
fn end_when_orphaned() {
    // SAFETY: getppid(2) cannot fail.
    let parent = unsafe { libc::getppid() };
    let watch = move || loop {
        std::thread::sleep(PARENT_WATCH);
        // SAFETY: getppid(2), getpid(2) and kill(2) have no preconditions.
        unsafe {
            if libc::getppid() != parent {
                libc::kill(libc::getpid(), libc::SIGTERM);
            }
        }
    };
    let _ = std::thread::Builder::new().name("parent-watch".into()).spawn(watch);
}

fn send(out: &mut impl Write, reply: &Reply) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, reply)?;
    out.write_all(b"\n")?;
    out.flush()
}

fn grade_one(job: &Job, plan: &TestPlan, settings: &Settings) -> Reply {
    match grade_prepared(plan, &job.path, &settings.work_dir, &mut |_| {}) {
        Ok(mut report) => {
            report.submission.name = job.name.clone();
            // the student's processes are all gone: grade_prepared returns after the last sandbox is reaped
            let written = settings.formats().into_iter().try_for_each(|format| {
                let path = settings.output_dir.join(format!("{}.{}", job.stem, format.extension()));
                write_atomically(&path, report::render(&report, format, false))
            });
            let written = written.err().map(|e| format!("failed to write the report: {e}"));
            // Not graded: no final grade, whatever tests ran (their points stay in the report); the reason is
            // the row's error, and a report without tests has no grade at all.
            let not_graded = report.not_graded.as_ref().map(|n| n.reason.clone());
            let grade = (!report.tests.is_empty()).then(|| Box::new(Grade::of(&report)));
            Reply::Graded { grade, error: not_graded.or(written) }
        }
        Err(e) => Reply::Graded { grade: None, error: Some(e.to_string()) },
    }
}

/// The test hook (module documentation).
fn crash_if_asked(id: &str) {
    let Some(hook) = std::env::var_os(CRASH_HOOK) else { return };
    let hook = hook.to_string_lossy();
    let Some((mode, _)) = hook.split(',').filter_map(|h| h.split_once(':')).find(|(_, target)| *target == id) else {
        return;
    };
    match mode {
        "panic" => panic!("the test hook {CRASH_HOOK} asked for a panic while grading `{id}`"),
        "abort" => std::process::abort(),
        // SAFETY: raising a signal at ourselves has no precondition; its default action ends the process.
        "segfault" => unsafe {
            libc::signal(libc::SIGSEGV, libc::SIG_DFL);
            libc::raise(libc::SIGSEGV);
        },
        // SAFETY: as above.
        "kill" => unsafe {
            libc::raise(libc::SIGKILL);
        },
        _ => {}
    }
}
