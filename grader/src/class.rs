//! The `grader batch` command: read the class ([`crate::intake`]), grade it ([`crate::batch`]), write the
//! gradebooks ([`crate::gradebook`]), and say what happened, with the exit code.
//!
//! Exit codes: 0 every student was graded (a submission that does not compile is graded: its grade is a
//! row like any other); 1 some student could not be graded (each is listed with the reason, in the
//! gradebooks too); 2 the grader could not run (bad arguments, fixtures or policy; no student in the class;
//! fixture files missing with `--skip-bad-fixtures`, after the gradebooks are written).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use crate::batch::{self, worker::Settings, Graded, Row};
use crate::gradebook::{self, canvas, moodle};
use crate::output::write_atomically;
use crate::policy::Policy;
use crate::report::{visible, Format};

/// Arguments of `grader batch`.
#[derive(Debug, clap::Args)]
pub struct BatchArgs {
    /// The class: a directory or a zip holding one submission per student (folders, per-student zips,
    /// executables, or a Canvas / Moodle / Gradescope export; see README "Grading a class").
    pub dir: PathBuf,
    /// Where the reports and the gradebooks (gradebook.csv, gradebook.json, and the LMS imports) go.
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
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The grading policy (TOML).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Run only these tests; repeatable.
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
    /// The Canvas assignment's id (the number in its address, /courses/C/assignments/ID): the grade column
    /// of canvas-import.csv is headed `NAME (ID)`.
    #[arg(long, value_name = "ID")]
    pub canvas_assignment_id: Option<String>,
    /// The Canvas assignment's name, for that heading.
    #[arg(long, value_name = "NAME", default_value = "8 Puzzle")]
    pub canvas_assignment_name: String,
    /// The course's gradebook exported from Canvas: canvas-import.csv copies its student columns and fills
    /// its assignment column (the one of --canvas-assignment-id, or its only one).
    #[arg(long, value_name = "FILE")]
    pub canvas_gradebook: Option<PathBuf>,
    /// The assignment's maximum grade in the LMS: each grade is the score's percentage of it (default: the
    /// Canvas export's Points Possible, else 100).
    #[arg(long, value_name = "POINTS")]
    pub max_grade: Option<f64>,
    /// Checkstyle's configuration for the style section of Java submissions (default: the grader's own).
    #[arg(long, value_name = "FILE")]
    pub checkstyle_config: Option<PathBuf>,
}

/// The report formats by name, as `--format` takes them.
fn format_parser() -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(Format::ALL.map(Format::name))
        .map(|name| name.parse::<Format>().unwrap_or(Format::Text))
}

/// Where the CLI keeps things that are not the class's: builds' caches, the bundled fixtures.
pub struct Places {
    /// Where builds keep outputs and caches, and the class is unpacked.
    pub work_dir: PathBuf,
    /// The fixtures used without `--fixtures`.
    pub default_fixtures: PathBuf,
}

/// Runs `grader batch`.
pub fn run(args: BatchArgs, places: Places) -> Result<ExitCode> {
    let policy = match &args.policy {
        Some(path) => Policy::load(path)?,
        None => Policy::default(),
    };
    let canvas = canvas_assignment(&args)?;
    if let Some(max) = args.max_grade.filter(|m| !(m.is_finite() && *m > 0.0)) {
        bail!("--max-grade must be a number of points above 0, not {max}");
    }
    let scratch = places.work_dir.join(format!("class-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    let graded = read_and_grade(&args, &places, policy, &scratch);
    let _ = std::fs::remove_dir_all(&scratch);
    let (graded, skipped) = graded?;
    write_gradebooks(&args, &graded, &skipped, &canvas)?;
    Ok(summarize(&args, &graded))
}

fn canvas_assignment(args: &BatchArgs) -> Result<canvas::Assignment> {
    let id = args.canvas_assignment_id.as_deref();
    if let Some(id) = id.filter(|id| id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit())) {
        bail!("--canvas-assignment-id is the number in the assignment's address, not `{id}`");
    }
    match &args.canvas_gradebook {
        Some(path) => {
            let text = std::fs::read_to_string(path).with_context(|| format!("failed to read `{}`", path.display()))?;
            canvas::Assignment::from_export(&text, id)
                .map_err(|e| anyhow::anyhow!("`{}` is not a usable Canvas gradebook export: {e}", path.display()))
        }
        None => Ok(canvas::Assignment::from_flags(&args.canvas_assignment_name, id)),
    }
}

fn read_and_grade(
    args: &BatchArgs,
    places: &Places,
    policy: Policy,
    scratch: &Path,
) -> Result<(Graded, Vec<crate::intake::Skipped>)> {
    let class = crate::intake::gather(&args.dir, &scratch.join("class"), crate::intake::Caps::default())?;
    for skipped in &class.skipped {
        eprintln!("grader: skipped {}: {}", visible::line(&skipped.entry), visible::line(&skipped.reason));
    }
    if class.students.is_empty() {
        bail!(
            "no submissions in `{}` (expected one folder, zip or executable per student, or an LMS export)",
            args.dir.display()
        );
    }
    std::fs::create_dir_all(&args.output_dir)
        .with_context(|| format!("failed to create `{}`", args.output_dir.display()))?;
    let settings = Settings {
        fixtures: args.fixtures.clone().unwrap_or_else(|| places.default_fixtures.clone()),
        skip_bad_fixtures: args.skip_bad_fixtures,
        seed: args.seed,
        policy: toml::to_string(&policy)?,
        only: args.only.clone(),
        formats: formats(args).iter().map(|f| f.name().to_string()).collect(),
        output_dir: args.output_dir.clone(),
        work_dir: places.work_dir.clone(),
        checkstyle_config: args.checkstyle_config.clone(),
    };
    settings.style().config()?;
    eprintln!("grader: grading {} students, {} at a time", class.students.len(), args.jobs.max(1));
    let run = batch::Run { settings: &settings, scratch, jobs: args.jobs, regrade: args.regrade };
    let graded = batch::grade_class(&class.students, &run).context("failed to grade the class")?;
    Ok((graded, class.skipped))
}

fn formats(args: &BatchArgs) -> Vec<Format> {
    if args.format.is_empty() {
        vec![Format::Text, Format::Json]
    } else {
        args.format.clone()
    }
}

/// Writes gradebook.csv and gradebook.json, and the LMS imports for a class that has LMS students.
fn write_gradebooks(
    args: &BatchArgs,
    graded: &Graded,
    skipped: &[crate::intake::Skipped],
    assignment: &canvas::Assignment,
) -> Result<()> {
    let out = &args.output_dir;
    let rows = &graded.rows;
    write_atomically(&out.join("gradebook.csv"), gradebook::ours_csv(rows))?;
    let run = gradebook::RunInfo {
        grader_version: env!("CARGO_PKG_VERSION").into(),
        seed: args.seed,
        only: args.only.clone(),
        run_key: graded.run_key.clone(),
    };
    write_atomically(&out.join("gradebook.json"), gradebook::ours_json(rows, skipped, &run))?;
    let lms = |row: &Row, canvas: bool| match &row.lms {
        Some(crate::intake::Lms::Canvas { .. }) => canvas,
        Some(crate::intake::Lms::Moodle { .. }) => !canvas,
        None => false,
    };
    if rows.iter().any(|r| lms(r, true)) {
        let max = args.max_grade.or(assignment.points_possible).unwrap_or(100.0);
        let (text, left_out) = canvas::import_csv(rows, assignment, max);
        write_atomically(&out.join("canvas-import.csv"), text)?;
        report_import("canvas-import.csv", &assignment.heading, max, &left_out);
    }
    if rows.iter().any(|r| lms(r, false)) {
        let max = args.max_grade.unwrap_or(100.0);
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let (text, left_out) = moodle::worksheet(rows, max, now);
        write_atomically(&out.join("moodle-grading-worksheet.csv"), text)?;
        report_import("moodle-grading-worksheet.csv", "Grade", max, &left_out);
    }
    Ok(())
}

fn report_import(file: &str, column: &str, max: f64, left_out: &[String]) {
    eprintln!("grader: {file}: grades out of {max} in the column `{}`", visible::line(column));
    if !left_out.is_empty() {
        let names: Vec<String> = left_out.iter().map(|n| visible::line(n).into_owned()).collect();
        eprintln!("grader: {file} leaves out students that are not in that LMS's export: {}", names.join(", "));
    }
}

/// Prints each student's line and the exit code's reason; returns the exit code.
fn summarize(args: &BatchArgs, graded: &Graded) -> ExitCode {
    for row in &graded.rows {
        let score = row.score.map(|s| format!("{s:6.2}")).unwrap_or_else(|| "     -".into());
        let name = visible::line(&row.name);
        let error = row.error.as_deref().map(|e| format!("  ({})", visible::line(e))).unwrap_or_default();
        eprintln!("{score}  {name} [{}]{error}", visible::line(row.id.as_str()));
    }
    if graded.resumed > 0 {
        eprintln!("grader: {} students' reports were current and kept (--regrade grades them again)", graded.resumed);
    }
    eprintln!("grader: gradebook written to {}", args.output_dir.join("gradebook.csv").display());
    if !graded.missing_fixtures.is_empty() {
        eprintln!(
            "grader: the fixture directory lacks {}, which the tests need; those tests are errors in every report \
             and the grades are incomplete (point --fixtures at the full data set)",
            graded.missing_fixtures.join(", ")
        );
        return ExitCode::from(2);
    }
    let ungraded: Vec<&Row> = graded.rows.iter().filter(|r| r.error.is_some()).collect();
    if ungraded.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!("grader: {} of {} students could not be graded:", ungraded.len(), graded.rows.len());
    for row in ungraded {
        let error = row.error.as_deref().unwrap_or_default();
        eprintln!("  {} [{}]: {}", visible::line(&row.name), visible::line(row.id.as_str()), visible::line(error));
    }
    ExitCode::from(1)
}
