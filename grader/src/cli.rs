//! Command-line arguments (clap) and what each command does; `main.rs` only maps the result to an exit code.
//!
//! Exit codes: 0 all tests passed (or the score reached `--min-score`), 1 some test failed (or the score is
//! below `--min-score`), 2 the grader itself could not run (bad arguments, unreadable fixtures or policy).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};

use crate::catalog;
use crate::grade::{grade, BadFixtures, GradeOptions};
use crate::output::write_atomically;
use crate::policy::Policy;
use crate::progress::ProgressDisplay;
use crate::report::{self, Format};
use crate::results::{Report, Status};

/// Grades 8-puzzle submissions the way Princeton's autograder does.
#[derive(Debug, Parser)]
#[command(name = "grader", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// `--format`'s values; [`report::Format`] stays free of the argument parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// The official-style text report.
    Text,
    /// The versioned JSON schema of specs/reports.md.
    Json,
    /// Gradescope's results.json.
    Gradescope,
    /// JUnit XML for CI dashboards.
    Junit,
    /// A Markdown summary for CI job pages.
    Markdown,
    /// One self-contained HTML page for a browser (boards drawn, failures first).
    Html,
}

impl From<FormatArg> for Format {
    fn from(arg: FormatArg) -> Format {
        match arg {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Gradescope => Format::Gradescope,
            FormatArg::Junit => Format::Junit,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Html => Format::Html,
        }
    }
}

/// The grader's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grade one submission: an executable, a Cargo project, or a folder with Board.java and Solver.java.
    Grade(GradeArgs),
    /// Grade a class (a directory or zip: folders, per-student zips, Canvas/Moodle/Gradescope exports) and write a gradebook.
    Batch(crate::class::BatchArgs),
    /// A worker of `grader batch` (started by it, not by people): grades the students it is sent.
    #[command(hide = true)]
    BatchWorker {
        /// The settings file `grader batch` wrote.
        settings: PathBuf,
    },
    /// Print the test catalog (as Markdown with --markdown: the source of specs/catalog.md).
    Catalog {
        /// Print Markdown.
        #[arg(long)]
        markdown: bool,
    },
    /// Explain what a test checks, why, and the usual causes of failure.
    Explain {
        /// A test id, e.g. board-5a or timing-2.
        id: String,
    },
    /// Show the grading policy.
    Policy {
        /// Print the default policy as TOML.
        #[arg(long)]
        print_default: bool,
        /// Check a policy file and print it with defaults filled in.
        #[arg(long, value_name = "FILE")]
        check: Option<PathBuf>,
    },
}

/// Arguments of `grader grade`.
#[derive(Debug, clap::Args)]
pub struct GradeArgs {
    /// The submission to grade.
    pub submission: PathBuf,
    /// The fixture directory (puzzle files, with or without puzzles.toml).
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// Grade even if some fixture files cannot be used (listed in the report) or are missing (their tests are
    /// errors, and the exit code is 2); without it the grader stops before grading and names them.
    #[arg(long)]
    pub skip_bad_fixtures: bool,
    /// Seed of every random board; the same seed gives the same report.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run only these tests (ids, or prefixes ending in `*`); repeatable.
    #[arg(long = "only", value_name = "ID")]
    pub only: Vec<String>,
    /// The grading policy (TOML); defaults mirror the official grader.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Report format; repeat to write several, each paired with the --output at the same position.
    #[arg(long, value_enum)]
    pub format: Vec<FormatArg>,
    /// Where to write the report of the --format at the same position (default: standard output).
    #[arg(long, value_name = "FILE")]
    pub output: Vec<PathBuf>,
    /// Exit 0 if the aggregate score is at least this (percent), 1 otherwise.
    #[arg(long, value_name = "PERCENT")]
    pub min_score: Option<f64>,
    /// No progress on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print where the time went (wall, build, inside the submission, the grader's own) to standard error.
    #[arg(long)]
    pub timings: bool,
    /// A student's quick check: fewer random trials (a third), section results printed as they finish, and
    /// a text report of the summary, the fix-first list and the failures only.
    #[arg(long)]
    pub self_check: bool,
    /// The text report shows the summary, the fix-first list and the tests that failed, nothing else.
    #[arg(long)]
    pub failures_only: bool,
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Grade(args) => run_grade(args),
        Command::Batch(args) => {
            crate::class::run(args, crate::class::Places { work_dir: work_dir(), default_fixtures: default_fixtures() })
        }
        Command::BatchWorker { settings } => crate::batch::worker::serve(&settings),
        Command::Catalog { markdown } => {
            print!("{}", if markdown { crate::catalog_doc::markdown() } else { crate::catalog_doc::plain() });
            Ok(ExitCode::SUCCESS)
        }
        Command::Explain { id } => {
            let base = id.split('/').next().unwrap_or(&id);
            let Some(item) = catalog::find(base) else {
                let close = crate::catalog_doc::suggestions(base);
                if close.is_empty() {
                    bail!("no test `{id}` in the catalog (run `grader catalog` to list them)");
                }
                bail!(
                    "no test `{id}` in the catalog; did you mean {}? (`grader catalog` lists them all)",
                    close.join(", ")
                );
            };
            print!("{}", crate::catalog_doc::explain(&item));
            Ok(ExitCode::SUCCESS)
        }
        Command::Policy { print_default, check } => {
            if let Some(path) = check {
                let policy = Policy::load(&path)?;
                print!("{}", toml::to_string_pretty(&policy)?);
            } else if print_default {
                print!("{}", Policy::default_toml());
            } else {
                bail!("say what to do: --print-default, or --check FILE");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn run_grade(args: GradeArgs) -> Result<ExitCode> {
    if args.output.len() > args.format.len().max(1) {
        bail!(
            "each --output needs a --format before it ({} outputs, {} formats)",
            args.output.len(),
            args.format.len()
        );
    }
    let mut policy = load_policy(args.policy.as_deref())?;
    if args.self_check {
        policy.tests.trials_scale /= 3.0;
    }
    let options = GradeOptions {
        submission: args.submission.clone(),
        fixtures: args.fixtures.clone().unwrap_or_else(default_fixtures),
        seed: args.seed,
        policy,
        only: args.only.clone(),
        work_dir: work_dir(),
        bad_fixtures: bad_fixtures(args.skip_bad_fixtures),
    };
    let mut display = ProgressDisplay::new(args.quiet);
    let report = grade(&options, &mut |p| display.show(p)).context("grading failed")?;
    display.finish();
    if args.timings {
        eprintln!("{}", timings_line(&report));
    }
    write_reports(&report, &args)?;
    if !report.skipped_fixtures.is_empty() {
        eprintln!(
            "grader: skipped {} fixture file(s) that could not be used (listed at the top of the report)",
            report.skipped_fixtures.len()
        );
    }
    if !report.missing_fixtures.is_empty() {
        // The report is written (it names them too), but its grade is incomplete: an instructor's problem.
        eprintln!(
            "grader: the fixture directory lacks {}, which official tests need; those tests are errors and the \
             grade is incomplete (point --fixtures at the full data set)",
            report.missing_fixtures.join(", ")
        );
        return Ok(ExitCode::from(2));
    }
    Ok(exit_code(&report, args.min_score))
}

/// Where the time of a run went. The submission's share is the CPU time it reported for its requests (thread
/// CPU, measured inside the program); the grader's share is the rest of the wall time after the build. The
/// second line splits the CPU of the tests between the submission's processes (its requests, and the adapter
/// around them: the protocol, and for Java the JVM's compiler and collector) and the grader's own threads.
fn timings_line(report: &Report) -> String {
    let t = report.timings;
    let seconds = |ms: u64| ms as f64 / 1000.0;
    let run = t.wall_ms.saturating_sub(t.build_ms);
    let grader = run.saturating_sub(t.submission_cpu_ms);
    let share = if run > 0 { 100.0 * grader as f64 / run as f64 } else { 0.0 };
    format!(
        "timings: wall {:.2} s (build {:.2} s, tests {:.2} s: inside the submission {:.2} s, grader and transport {:.2} s = {share:.1}%)\n\
         cpu of the tests: submission processes {:.2} s (requests {:.2} s, the adapter around them {:.2} s), grader {:.2} s\n\
         of the requests, the adapter's counting {:.2} s (the queues' deep-memory walk when `counters` is read)",
        seconds(t.wall_ms),
        seconds(t.build_ms),
        seconds(run),
        seconds(t.submission_cpu_ms),
        seconds(grader),
        seconds(t.processes_cpu_ms),
        seconds(t.submission_cpu_ms),
        seconds(t.processes_cpu_ms.saturating_sub(t.submission_cpu_ms)),
        seconds(t.grader_cpu_ms),
        seconds(t.counting_cpu_ms),
    )
}

fn load_policy(path: Option<&Path>) -> Result<Policy> {
    Ok(match path {
        Some(path) => Policy::load(path)?,
        None => Policy::default(),
    })
}

/// Where builds keep outputs and caches: one directory per user, reused across runs.
fn work_dir() -> PathBuf {
    std::env::temp_dir().join(format!("npuzzle-grader-{}", unsafe_uid()))
}

fn render(report: &Report, format: Format, color: bool, args: &GradeArgs) -> String {
    match format {
        Format::Text => report::text::render(report, color, args.failures_only || args.self_check),
        other => report::render(report, other, color),
    }
}

fn bad_fixtures(skip: bool) -> BadFixtures {
    if skip {
        BadFixtures::Skip
    } else {
        BadFixtures::Refuse
    }
}

fn write_reports(report: &Report, args: &GradeArgs) -> Result<()> {
    let formats: Vec<Format> =
        if args.format.is_empty() { vec![Format::Text] } else { args.format.iter().map(|&f| f.into()).collect() };
    for (i, format) in formats.iter().enumerate() {
        match args.output.get(i) {
            Some(path) => {
                let text = render(report, *format, false, args);
                write_atomically(path, text)
                    .with_context(|| format!("failed to write the report to `{}`", path.display()))?;
            }
            None => {
                let color = *format == Format::Text
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none();
                print!("{}", render(report, *format, color, args));
            }
        }
    }
    Ok(())
}

fn exit_code(report: &Report, min_score: Option<f64>) -> ExitCode {
    let passed = match min_score {
        Some(min) => report.score.max > 0.0 && report.score.percent() >= min - 1e-9,
        None => report.tests.iter().all(|t| matches!(t.status, Status::Passed | Status::NotApplicable)),
    };
    if passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The bundled fixtures: `fixtures/puzzles` beside the grader's source tree, or in the working directory.
fn default_fixtures() -> PathBuf {
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles");
    if bundled.is_dir() {
        bundled
    } else {
        PathBuf::from("fixtures/puzzles")
    }
}

fn unsafe_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}
