//! Command-line arguments (clap) and what each command does; `main.rs` only maps the result to an exit code.
//!
//! Exit codes: 0 all tests passed (or the score reached `--min-score`), 1 some test failed (or the score is
//! below `--min-score`, or what was handed in is not a submission: not graded, the report says why), 2 the
//! grader itself could not run (bad arguments, unreadable fixtures or policy).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use clap::{ArgMatches, CommandFactory, Parser, Subcommand};

use crate::catalog;
use crate::grade::{grade, BadFixtures, GradeOptions};
use crate::output::{to_stdout, write_atomically};
use crate::policy::Policy;
use crate::progress::ProgressDisplay;
use crate::report::{self, Format};
use crate::results::{Report, Status};
pub use targets::FormatSpec;

mod manual;
mod new_starter;
mod targets;

/// Grades 8-puzzle submissions the way Princeton's autograder does.
#[derive(Debug, Parser)]
#[command(name = "grader", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The grader's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grade one submission: an executable, a Cargo project, or a folder with Board.java and Solver.java.
    Grade(GradeArgs),
    /// Grade a class (a directory or zip: folders, per-student zips, Canvas/Moodle/Gradescope exports) and write a gradebook.
    Batch(crate::class::BatchArgs),
    /// Work on gradebooks `grader batch` wrote: join a class's shards.
    #[command(subcommand)]
    Gradebook(GradebookCommand),
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
    /// Write a starter submission into DIR that builds and runs there (the assignment's test client on the
    /// puzzle04.txt beside it), offline: a Cargo crate with the grader's `npuzzle`, a Java folder with the
    /// textbook classes as sources, or a Python folder with a local `algs4` module.
    New(new_starter::NewArgs),
    /// Print a completion script for a shell (e.g. `grader completions bash > ~/.local/share/bash-completion/completions/grader`).
    Completions(manual::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Man(manual::ManArgs),
}

/// `grader gradebook` subcommands.
#[derive(Debug, Subcommand)]
pub enum GradebookCommand {
    /// Join the gradebooks of a class graded in shards (`grader batch --shard K/N`) into the class's
    /// gradebooks, LMS imports and overview, checking that the shards were graded alike.
    Merge(crate::class::merge::MergeArgs),
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
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// Run only these tests (ids, or prefixes ending in `*`); repeatable. Each must match a test (`grader
    /// catalog` lists them); the score of a run it narrows is marked partial in every report.
    #[arg(long = "only", value_name = "ID")]
    pub only: Vec<String>,
    /// The grading policy (TOML); defaults mirror the official grader.
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// A report to write, as FMT or FMT=PATH (without PATH, to standard output); repeatable. Its `--help`
    /// text is `format_help()`, which names the formats from [`Format::ALL`].
    #[arg(long, value_name = "FMT[=PATH]", help = format_help())]
    pub format: Vec<FormatSpec>,
    /// The file of the --format written just before it (the older spelling of FMT=PATH; refused where it
    /// could be misread).
    #[arg(long, value_name = "FILE")]
    pub output: Vec<PathBuf>,
    /// Checkstyle's configuration for the style section of a Java submission (default: the grader's own,
    /// which checks what the official reports cite).
    #[arg(long, value_name = "FILE")]
    pub checkstyle_config: Option<PathBuf>,
    /// Leave the tests the policy hides (`tests.hidden`), the aggregate score and the submission's output
    /// out of every report but Gradescope's: what a student may see before the due date.
    #[arg(long)]
    pub hide_hidden_tests: bool,
    /// Exit 0 if the aggregate score is at least this (percent), 1 otherwise.
    #[arg(long, value_name = "PERCENT", value_parser = percent, allow_negative_numbers = true)]
    pub min_score: Option<f64>,
    /// No progress on standard error.
    #[arg(long, short)]
    pub quiet: bool,
    /// Print where the time went (wall, build, inside the submission's requests, around them) to standard error.
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

/// A percentage, 0 to 100 (`--min-score`): a score is never outside them, so a bound that is would pass or
/// fail every submission alike.
fn percent(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(value) if (0.0..=100.0).contains(&value) => Ok(value),
        Ok(_) => Err(format!("a percentage is 0 to 100, and {text} is not; `--min-score 60` passes 60% and above")),
        Err(_) => Err(format!("`{text}` is not a number: give a percentage, 0 to 100 (`--min-score 60`)")),
    }
}

/// The help of `--format`, naming every format [`Format::ALL`] holds.
fn format_help() -> String {
    format!(
        "A report to write, as FMT or FMT=PATH ({}; without PATH, to standard output); repeat for several: \
         `--format text --format html=report.html`",
        Format::names()
    )
}

/// Parses the process's arguments, exiting with clap's message (status 2) when they cannot be parsed.
pub fn parse() -> (Cli, ArgMatches) {
    let matches = Cli::command().get_matches();
    let cli = <Cli as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    (cli, matches)
}

/// Runs a parsed command line; `matches` are the arguments as clap saw them (where each `--format` and
/// `--output` stood).
pub fn run(cli: Cli, matches: &ArgMatches) -> Result<ExitCode> {
    match cli.command {
        Command::Grade(args) => {
            let targets =
                matches.subcommand_matches("grade").map(|m| targets::of_command(m, &args.format, &args.output));
            run_grade(args, targets.unwrap_or_else(|| Ok(vec![]))?)
        }
        Command::Batch(args) => {
            let work_dir = work_dir();
            let fixtures = fixtures_or_bundled(args.fixtures.clone(), &work_dir)?;
            crate::class::run(args, crate::class::Places { work_dir, fixtures })
        }
        Command::Gradebook(GradebookCommand::Merge(args)) => crate::class::merge::run(args),
        Command::BatchWorker { settings } => crate::batch::worker::serve(&settings),
        Command::Catalog { markdown } => {
            stdout(&if markdown { crate::catalog_doc::markdown() } else { crate::catalog_doc::plain() })?;
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
            stdout(&crate::catalog_doc::explain(&item))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Policy { print_default, check } => {
            if let Some(path) = check {
                let policy = Policy::load(&path)?;
                crate::grade::check_policy_patterns(&policy)?;
                stdout(&toml::to_string_pretty(&policy)?)?;
            } else if print_default {
                stdout(&Policy::default_toml())?;
            } else {
                bail!("say what to do: --print-default, or --check FILE");
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::New(args) => new_starter::run(&args),
        Command::Completions(args) => manual::run_completions(Cli::command(), &args),
        Command::Man(args) => manual::run_man(Cli::command(), &args),
    }
}

/// What every report of a `--self-check` run says first: its score is not the grade the same code would get.
const SELF_CHECK_NOTE: &str = "a self-check (--self-check): a third of the random trials ran, so a Board \
    that goes wrong now and then can pass here; the score is an estimate, not the assignment's grade (grade \
    without --self-check for that)";

fn run_grade(args: GradeArgs, targets: Vec<targets::Target>) -> Result<ExitCode> {
    targets::check_writable(&targets, &args.submission).map_err(anyhow::Error::msg)?;
    let mut policy = load_policy(args.policy.as_deref())?;
    crate::grade::check_only(&args.only, &policy)?;
    if args.self_check {
        policy.tests.trials_scale /= 3.0;
    }
    let work_dir = work_dir();
    let options = GradeOptions {
        submission: args.submission.clone(),
        fixtures: fixtures_or_bundled(args.fixtures.clone(), &work_dir)?,
        seed: args.seed,
        policy,
        only: args.only.clone(),
        work_dir,
        bad_fixtures: bad_fixtures(args.skip_bad_fixtures),
        style: crate::style::StyleOptions { checkstyle_config: args.checkstyle_config.clone() },
    };
    options.style.config()?;
    let mut display = ProgressDisplay::new(args.quiet);
    let mut report = grade(&options, &mut |p| display.show(p)).context("grading failed")?;
    display.finish();
    if args.self_check {
        report.notes.insert(0, SELF_CHECK_NOTE.to_string());
    }
    if args.timings {
        eprintln!("{}", timings_line(&report));
    }
    write_reports(&report, &targets, &args)?;
    if !report.skipped_fixtures.is_empty() {
        eprintln!(
            "grader: skipped {} fixture file(s) that could not be used (listed at the top of the report)",
            report.skipped_fixtures.len()
        );
    }
    if !report.machine_stalls.is_empty() {
        // The report is written (it names them at its top, and says it is no final grade): the machine's fault.
        eprintln!("grader: {}", report.stalls_line());
        return Ok(ExitCode::from(2));
    }
    if let Some(not_graded) = &report.not_graded {
        // The report is written and says why; no grade, whoever's doing it is.
        eprintln!("grader: not graded: {}", crate::report::visible::line(&not_graded.reason));
        return Ok(ExitCode::from(if not_graded.because.is_grader_problem() { 2 } else { 1 }));
    }
    if !report.missing_fixtures.is_empty() {
        // The report is written (it names them too), but its grade is incomplete: an instructor's problem.
        eprintln!(
            "grader: the fixture directory has no usable {}, which official tests need: a test left with none of \
             its inputs is an error, one left with some ran on those alone; the grade is incomplete (point \
             --fixtures at the full data set)",
            report.missing_fixtures.join(", ")
        );
        return Ok(ExitCode::from(2));
    }
    Ok(exit_code(&report, args.min_score))
}

/// Where the time of a run went. Planning (the reference's searches of puzzle files without metadata, the
/// first time on a machine) and the build come first; of the tests, the submission's share is the CPU time it
/// reported for its requests (thread CPU, measured inside the program), the grader's the rest of their wall. The
/// second line splits the CPU of the tests between the submission's processes (its requests, and the adapter
/// around them: the protocol, and for Java the JVM's compiler and collector) and the grader's own threads;
/// the third gives the peak memory of the grader's own process and of one sandbox of the submission.
fn timings_line(report: &Report) -> String {
    let t = report.timings;
    let seconds = |ms: u64| ms as f64 / 1000.0;
    let run = t.wall_ms.saturating_sub(t.build_ms + t.plan_ms);
    let grader = run.saturating_sub(t.submission_cpu_ms);
    let share = if run > 0 { 100.0 * grader as f64 / run as f64 } else { 0.0 };
    format!(
        "timings: wall {:.2} s (planning {:.2} s, build {:.2} s, tests {:.2} s: inside the submission's requests {:.2} s, around them {:.2} s = {share:.1}%: the grader, transport, and the submission's starts and runtime threads, a collector's included)\n\
         cpu of the tests: submission processes {:.2} s (requests {:.2} s, the adapter around them {:.2} s), grader {:.2} s\n\
         of the requests, the adapter's counting {:.2} s (the queues' deep-memory walk when `counters deep` is read, call-site sampling)",
        seconds(t.wall_ms),
        seconds(t.plan_ms),
        seconds(t.build_ms),
        seconds(run),
        seconds(t.submission_cpu_ms),
        seconds(grader),
        seconds(t.processes_cpu_ms),
        seconds(t.submission_cpu_ms),
        seconds(t.processes_cpu_ms.saturating_sub(t.submission_cpu_ms)),
        seconds(t.grader_cpu_ms),
        seconds(t.counting_cpu_ms),
    ) + &format!(
        "\npeak memory: grader {} MiB, submission {}",
        crate::runner::process::grader_peak_memory_kib() >> 10,
        t.submission_peak_memory_mb.map_or("unmeasured (no memory control group)".into(), |mb| format!("{mb} MiB"))
    )
}

fn load_policy(path: Option<&Path>) -> Result<Policy> {
    Ok(match path {
        Some(path) => Policy::load(path)?,
        None => Policy::default(),
    })
}

/// Where builds keep outputs and caches: `GRADER_WORK_DIR` (a cache warmed ahead, as on Gradescope), else
/// one directory per user in the temporary directory, reused across runs.
fn work_dir() -> PathBuf {
    match std::env::var_os("GRADER_WORK_DIR").filter(|dir| !dir.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join(format!("npuzzle-grader-{}", unsafe_uid())),
    }
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

/// Writes each report to its target; with `--hide-hidden-tests`, every one but Gradescope's (which marks
/// hidden tests for Gradescope to hold back) shows the visible tests alone.
fn write_reports(report: &Report, targets: &[targets::Target], args: &GradeArgs) -> Result<()> {
    let visible = args.hide_hidden_tests.then(|| report.without_hidden());
    for target in targets {
        let shown = match &visible {
            Some(visible) if target.format != Format::Gradescope => visible,
            _ => report,
        };
        match &target.path {
            Some(path) => {
                let text = render(shown, target.format, false, args);
                write_atomically(path, text)
                    .with_context(|| format!("failed to write the report to `{}`", path.display()))?;
            }
            None => {
                let color = target.format == Format::Text
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none();
                stdout(&render(shown, target.format, color, args))?;
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

/// `--fixtures` when given, else the puzzles inside the grader, unpacked into the work directory.
fn fixtures_or_bundled(given: Option<PathBuf>, work_dir: &Path) -> Result<PathBuf> {
    match given {
        Some(dir) => Ok(dir),
        None => Ok(crate::bundle::PUZZLES.unpacked(work_dir)?),
    }
}

fn unsafe_uid() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// Writes `text` to standard output (a reader that left early is no failure: `output::to_stdout`).
fn stdout(text: &str) -> Result<()> {
    to_stdout(text).context("failed to write to standard output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_score_is_a_percentage() {
        let parse = |value: &str| Cli::try_parse_from(["grader", "grade", "sub", "--min-score", value]);
        for good in ["0", "60", "99.5", "100"] {
            assert!(parse(good).is_ok(), "{good}");
        }
        for bad in ["150", "-5", "nan", "inf", "sixty"] {
            let error = parse(bad).unwrap_err().to_string();
            assert!(error.contains("0 to 100"), "{bad}: {error}");
        }
    }

    #[test]
    fn completions_know_the_commands_and_their_options() {
        let mut bash = Vec::new();
        manual::completions(Cli::command(), clap_complete::Shell::Bash, &mut bash).unwrap();
        let bash = String::from_utf8(bash).unwrap();
        for word in ["grade", "batch", "explain", "--checkstyle-config", "--hide-hidden-tests", "completions"] {
            assert!(bash.contains(word), "{word} is completed");
        }
        let mut zsh = Vec::new();
        manual::completions(Cli::command(), clap_complete::Shell::Zsh, &mut zsh).unwrap();
        assert!(String::from_utf8(zsh).unwrap().starts_with("#compdef grader"));
    }

    #[test]
    fn the_manual_has_a_page_per_command() {
        let dir = tempfile::tempdir().unwrap();
        manual::write_pages(Cli::command(), dir.path()).unwrap();
        let grade = std::fs::read_to_string(dir.path().join("grader-grade.1")).unwrap();
        assert!(grade.contains(".TH grader-grade 1") && grade.contains("\\-\\-checkstyle\\-config"), "{grade}");
        let main = std::fs::read_to_string(dir.path().join("grader.1")).unwrap();
        assert!(main.contains(".TH grader 1") && main.contains("grader\\-grade(1)"), "{main}");
    }
}
