//! The `grader batch` command: read the class ([`crate::intake`]), grade it ([`crate::batch`]), write the
//! gradebooks and the class overview ([`write`](mod@write)), and say what happened, with the exit code; and
//! `grader gradebook merge` ([`merge`]), which joins the gradebooks of a class graded in shards.
//!
//! Exit codes: 0 every student was graded (a submission that does not compile is graded: its grade is a
//! row like any other); 1 some student could not be graded (each is listed with the reason, in the
//! gradebooks too); 2 some student could not be graded by the grader's fault (the machine stalled their
//! submission twice in a row: a re-run grades them again), or the grader could not run (bad arguments, fixtures or policy; no student in the class;
//! fixture files missing with `--skip-bad-fixtures`, after the gradebooks are written).

pub mod estimate;
pub mod interrupt;
pub mod merge;
mod output_lock;
pub mod progress;
mod scratch;
pub mod similarity;
pub mod write;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::batch::{self, resume, worker::Settings, Graded, Row};
use crate::gradebook::document::{Document, RunInfo, ShardPart};
use crate::gradebook::overview;
use crate::intake::Class;
use crate::policy::Policy;
use crate::report::{visible, Format};
use crate::results::plural;
use crate::shard::Shard;
use estimate::Estimate;
use progress::ClassProgress;
use similarity::SimilarityArgs;
use write::LmsArgs;

/// Arguments of `grader batch`.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// The class: a directory or a zip holding one submission per student (folders, per-student zips,
    /// executables, or a Canvas / Moodle / Gradescope export; see README "A whole class").
    pub dir: PathBuf,
    /// Where the reports and the gradebooks (gradebook.csv, gradebook.json, index.html, and the LMS imports)
    /// go.
    #[arg(long, value_name = "DIR", default_value = "grades")]
    pub output_dir: PathBuf,
    /// Submissions graded at once (each in a grader process of its own).
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// The fixture directory.
    #[arg(long, value_name = "DIR")]
    pub fixtures: Option<PathBuf>,
    /// As for `grade`: grade even if some fixture files cannot be used or are missing (then exit 2 at the end).
    #[arg(long)]
    pub skip_bad_fixtures: bool,
    /// Seed of every random board.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// The grading policy (TOML).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Run only these tests (ids, or prefixes ending in `*`); repeatable. Each must match a test; the grades
    /// of a run it narrows are marked partial, and the LMS imports are not written without --allow-partial.
    #[arg(long = "only", value_name = "ID")]
    pub only: Vec<String>,
    /// Formats of each student's report (`<report>.txt`, `.json`, `.html`…); repeatable; default text and
    /// json.
    #[arg(long, value_parser = format_parser())]
    pub format: Vec<Format>,
    /// Grade every student again, even those whose reports are current (same submission, policy, seed,
    /// fixtures and grader).
    #[arg(long)]
    pub regrade: bool,
    /// Grade shard K of N (0 <= K < N): the students whose identity hashes to K modulo N, writing their
    /// reports and a shard's gradebook; `grader gradebook merge` joins the N shards' gradebooks.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Grade nothing: say how many students there are, in which languages, and what grading them would cost.
    #[arg(long)]
    pub dry_run: bool,
    /// No progress and no per-student lines: only problems (and the exit code) are reported.
    #[arg(long, short)]
    pub quiet: bool,
    /// Checkstyle's configuration for the style section of Java submissions (default: the grader's own).
    #[arg(long, value_name = "FILE")]
    pub checkstyle_config: Option<PathBuf>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub lms: LmsArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub similarity: SimilarityArgs,
}

/// The report formats by name, as `--format` takes them.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Format::ALL.map(Format::name))
        .map(|name| name.parse::<Format>().unwrap_or(Format::Text))
}

/// Where the CLI keeps things that are not the class's: builds' caches, the fixtures.
pub struct Places {
    /// Where builds keep outputs and caches, and the class is unpacked.
    pub work_dir: PathBuf,
    /// The fixtures: `--fixtures`, or the bundled puzzles unpacked into the work directory.
    pub fixtures: PathBuf,
}

/// Runs `grader batch`.
pub fn run(args: BatchArgs, places: Places) -> Result<ExitCode> {
    let policy = match &args.policy {
        Some(path) => Policy::load(path)?,
        None => Policy::default(),
    };
    crate::grade::check_only(&args.only, &policy)?;
    args.lms.assignment()?;
    let compare = args.similarity.settings()?;
    args.lms.moodle_worksheet()?;
    // a class that is not there leaves no output folder behind
    std::fs::metadata(&args.dir)
        .map_err(|source| crate::intake::IntakeError::Read { path: args.dir.clone(), source })?;
    // held until the gradebooks are written (a dry run writes nothing)
    let _lock = if args.dry_run { None } else { Some(output_lock::lock(&args.output_dir)?) };
    let scratch = scratch::Scratch::claim(&places.work_dir);
    let graded = read_and_grade(&args, &places, &policy, scratch.path(), compare);
    drop(scratch);
    let Some(Read { graded, class, run, similarity }) = graded? else { return Ok(ExitCode::SUCCESS) };
    let students = graded.rows.clone();
    let skipped = class.skipped;
    let stems = class.roster.iter().map(|student| student.id.file_stem()).collect();
    match args.shard {
        Some(shard) => {
            let part = ShardPart { shard, roster: class.roster, similarity: similarity.shard };
            write::shard_gradebooks(
                &args.output_dir,
                &Document { run, shard: Some(part), students, skipped, overview: None },
            )?;
        }
        None => {
            let overview = Some(overview::figures(&students));
            let document = Document { run, shard: None, students, skipped, overview };
            let findings = similarity.prepared.map(|p| similarity::compare(p, similarity.students, &class.roster));
            write::class_gradebooks(&args.output_dir, &document, &args.lms, args.quiet, findings.as_ref())?;
        }
    }
    say_strangers(&args.output_dir, &stems);
    Ok(summarize(&args, &graded))
}

/// Says which reports in the output folder are of students not in this class (an earlier run's class graded
/// into the same folder): they stay, but the gradebook and the overview leave them out, so a folder of
/// reports is not taken for the class's.
fn say_strangers(output_dir: &Path, stems: &std::collections::BTreeSet<String>) {
    let reports = resume::strangers_reports(output_dir, stems);
    if reports.is_empty() {
        return;
    }
    let shown: Vec<String> = reports
        .iter()
        .take(3)
        .map(|p| visible::line(&p.file_name().unwrap_or_default().to_string_lossy()).into_owned())
        .collect();
    let more = match reports.len() - shown.len() {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    eprintln!(
        "grader: `{}` also holds {} of students who are not in this class ({}{more}: an earlier run's, left as \
         they were); the gradebook lists this class's students alone. Grade each class into a folder of its own \
         (--output-dir), or remove those files",
        output_dir.display(),
        plural(reports.len(), "report"),
        shown.join(", "),
    );
}

/// A class read and graded.
struct Read {
    graded: Graded,
    class: Class,
    run: RunInfo,
    similarity: Compared,
}

/// What code similarity took of the class: its students' fingerprints, and the base and corpus to compare
/// them with (a shard keeps the fingerprints for the merge instead).
struct Compared {
    students: Vec<crate::gradebook::document::StudentPrints>,
    prepared: Option<similarity::Prepared>,
    shard: Option<crate::gradebook::document::ShardSimilarity>,
}

/// Reads the class (the shard's students of it with `--shard`) and grades it; `None` after `--dry-run`.
fn read_and_grade(
    args: &BatchArgs,
    places: &Places,
    policy: &Policy,
    scratch: &Path,
    compare: Option<crate::similarity::findings::Settings>,
) -> Result<Option<Read>> {
    let keep = |id: &crate::identity::StudentId| args.shard.is_none_or(|shard| shard.holds(id));
    let own = [args.output_dir.clone(), places.work_dir.clone()];
    let class =
        crate::intake::gather_where(&args.dir, &scratch.join("class"), crate::intake::Caps::default(), &keep, &own)?;
    for skipped in &class.skipped {
        eprintln!("grader: skipped {}: {}", visible::line(&skipped.entry), visible::line(&skipped.reason));
    }
    if class.roster.is_empty() {
        bail!(
            "no submissions in `{}` (expected one folder, zip or executable per student, or an LMS export)",
            args.dir.display()
        );
    }
    let estimate = Estimate::of(class.students.iter().filter_map(|s| s.submission.as_deref().ok()));
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs = args.jobs.max(1);
    if args.dry_run {
        eprintln!("grader: {}", who(args, &class));
        let narrowed = !args.only.is_empty() || !policy.tests.skip.is_empty();
        eprint!("{}", estimate.describe(jobs, cores, narrowed));
        return Ok(None);
    }
    // every student's fingerprints, those whose reports are current included: the whole class is compared
    let mut students = compare.as_ref().map_or_else(Vec::new, |_| similarity::fingerprint(&class.students));
    let (prepared, shard) = match (compare, args.shard) {
        (Some(settings), None) => (Some(similarity::prepare(settings, scratch)?), None),
        (settings, Some(_)) => (None, similarity::shard_part(settings, std::mem::take(&mut students))),
        (None, None) => (None, None),
    };
    std::fs::create_dir_all(&args.output_dir)
        .with_context(|| format!("failed to create `{}`", args.output_dir.display()))?;
    let settings = Settings {
        fixtures: places.fixtures.clone(),
        skip_bad_fixtures: args.skip_bad_fixtures,
        seed: args.seed,
        policy: toml::to_string(policy)?,
        only: args.only.clone(),
        formats: formats(args).iter().map(|f| f.name().to_string()).collect(),
        output_dir: args.output_dir.clone(),
        work_dir: places.work_dir.clone(),
        checkstyle_config: args.checkstyle_config.clone(),
    };
    settings.style().config()?;
    interrupt::say_how_to_resume();
    if !args.quiet {
        let cpu = progress::duration(std::time::Duration::from_secs_f64(estimate.cpu_seconds));
        eprintln!(
            "grader: grading {}, {jobs} at a time; estimated CPU {cpu} (--dry-run tells more)",
            who(args, &class)
        );
    }
    let display = ClassProgress::new(class.students.len(), Some(estimate.wall(jobs, cores)), jobs, args.quiet);
    let show = |event: batch::Progress<'_>| display.show(event);
    let run = batch::Run { settings: &settings, scratch, jobs, regrade: args.regrade, progress: &show };
    let graded = batch::grade_class(&class.students, &run);
    display.finish();
    let graded = graded.context("failed to grade the class")?;
    let info = run_info(&settings, &graded);
    Ok(Some(Read { graded, class, run: info, similarity: Compared { students, prepared, shard } }))
}

/// Who is graded: the class, or the shard's part of it.
fn who(args: &BatchArgs, class: &Class) -> String {
    let graded = class.students.len();
    match args.shard {
        Some(shard) => format!("shard {shard}: {graded} of the class's {}", plural(class.roster.len(), "student")),
        None => plural(graded, "student"),
    }
}

/// What the class was graded under, for `gradebook.json`.
fn run_info(settings: &Settings, graded: &Graded) -> RunInfo {
    RunInfo {
        grader_version: env!("CARGO_PKG_VERSION").into(),
        grader_build: resume::grader_build(),
        seed: settings.seed,
        only: settings.only.clone(),
        skip_bad_fixtures: settings.skip_bad_fixtures,
        formats: settings.formats.clone(),
        policy: settings.policy.clone(),
        fixtures: resume::fixture_hashes(&settings.fixtures),
        missing_fixtures: graded.missing_fixtures.clone(),
        run_key: graded.run_key.clone(),
    }
}

fn formats(args: &BatchArgs) -> Vec<Format> {
    if args.format.is_empty() {
        vec![Format::Text, Format::Json]
    } else {
        args.format.clone()
    }
}

/// Prints each student's line and the exit code's reason; returns the exit code.
fn summarize(args: &BatchArgs, graded: &Graded) -> ExitCode {
    if !args.quiet {
        for row in &graded.rows {
            let score = row.score.map(|s| format!("{s:6.2}")).unwrap_or_else(|| "     -".into());
            let name = visible::line(&row.name);
            let error = row.error.as_deref().map(|e| format!("  ({})", visible::line(e))).unwrap_or_default();
            eprintln!("{score}  {name} [{}]{error}", visible::line(row.id.as_str()));
        }
        if let Some(partial) = graded.rows.iter().find_map(|r| r.partial.as_ref()) {
            eprintln!(
                "grader: a partial run: only {} were graded, so the scores above are not the assignment's grades",
                partial.describe()
            );
        }
        if graded.resumed > 0 {
            let whose = match graded.resumed {
                1 => "1 student's".to_string(),
                n => format!("{n} students'"),
            };
            eprintln!("grader: {whose} reports were current and kept (--regrade grades them again)");
        }
        match args.shard {
            Some(shard) => eprintln!(
                "grader: shard {shard}'s gradebook written to {} (`grader gradebook merge` joins the shards)",
                args.output_dir.join("gradebook.json").display()
            ),
            None => eprintln!(
                "grader: gradebook written to {}, the class overview to {}",
                args.output_dir.join("gradebook.csv").display(),
                args.output_dir.join("index.html").display()
            ),
        }
    }
    if !graded.missing_fixtures.is_empty() {
        eprintln!(
            "grader: the fixture directory has no usable {}, which the tests need: in every report a test left \
             with none of its inputs is an error, one left with some ran on those alone; the grades are \
             incomplete (point --fixtures at the full data set)",
            graded.missing_fixtures.join(", ")
        );
        return ExitCode::from(2);
    }
    ungraded_exit(&graded.rows)
}

/// The exit code of a class whose rows are `rows` (`grader batch`, `grader gradebook merge`): 0 when every
/// student has a final grade; 1 when some have none (each named on standard error with why); 2 when any of
/// those is the grader's problem (the machine stalled their submission twice in a row), which wins over 1.
pub(crate) fn ungraded_exit(rows: &[Row]) -> ExitCode {
    let ungraded: Vec<&Row> = rows.iter().filter(|r| r.error.is_some()).collect();
    if ungraded.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!("grader: {} of {} could not be graded:", ungraded.len(), plural(rows.len(), "student"));
    for row in &ungraded {
        let error = row.error.as_deref().unwrap_or_default();
        eprintln!("  {} [{}]: {}", visible::line(&row.name), visible::line(row.id.as_str()), visible::line(error));
    }
    let stalled = ungraded.iter().filter(|r| r.grader_problem).count();
    if stalled == 0 {
        return ExitCode::from(1);
    }
    eprintln!(
        "grader: {stalled} of them because the machine stalled their submission (the grader's problem, not \
         theirs): run the same command again on a less busy machine; it grades them again"
    );
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::worker::Grade;
    use crate::gradebook::sample::row;
    use crate::identity::StudentId;
    use crate::results::{NotGraded, Report};

    /// A student the machine stalled has no final grade by the grader's fault: their row says why, their LMS
    /// cell is empty (`final_percent`), and the class exits 2, which wins over another student's 1.
    #[test]
    fn a_stalled_student_is_not_graded_and_the_class_exits_2() {
        let stalled = Report {
            not_graded: NotGraded::machine_stalled(&["board-1a".to_string()]),
            machine_stalls: vec!["board-1a".into()],
            ..Report::default()
        };
        let grade = Grade::of(&stalled);
        assert!(grade.grader_problem);
        let reason = stalled.not_graded.as_ref().map(|n| n.reason.clone());
        let enrolled =
            crate::intake::Enrolled { id: StudentId::entry("ann"), name: "ann".into(), lms: None, late: None };
        let ann = Row::graded(&enrolled, Some(grade), reason);
        assert!(ann.grader_problem && ann.final_percent().is_none(), "{ann:?}");
        assert!(ann.error.as_deref().unwrap().contains("grade again on a less busy machine"));
        let broken = row(StudentId::entry("bo"), "bo", None, Some("the zip bo.zip is empty"));
        let fine = row(StudentId::entry("cy"), "cy", Some(90.0), None);
        assert_eq!(ungraded_exit(std::slice::from_ref(&fine)), ExitCode::SUCCESS);
        assert_eq!(ungraded_exit(&[fine.clone(), broken.clone()]), ExitCode::from(1));
        assert_eq!(ungraded_exit(&[fine, broken, ann]), ExitCode::from(2));
    }
}
