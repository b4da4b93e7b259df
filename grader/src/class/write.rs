//! Writing a class's gradebooks, the same way whether `grader batch` graded the class in one process or
//! `grader gradebook merge` joined its shards: `gradebook.json` (with the overview's figures),
//! `gradebook.csv`, the LMS imports for a class with LMS students, and the overview page `index.html`. A
//! shard writes only its own `gradebook.json` and `gradebook.csv` ([`shard_gradebooks`]).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::batch::Row;
use crate::gradebook::{self, canvas, moodle, overview, Document};
use crate::output::write_atomically;
use crate::report::visible;
use crate::similarity::findings::Findings;

/// The options of the LMS imports (`grader batch` and `grader gradebook merge` take them alike).
#[derive(Debug, Clone, clap::Args)]
pub struct LmsArgs {
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
    /// Canvas export's Points Possible, or the Moodle worksheet's Maximum Grade, else 100).
    #[arg(long, value_name = "POINTS")]
    pub max_grade: Option<f64>,
    /// Write the LMS imports even when --only left tests out (the grades are then over those tests alone,
    /// and the imports say partial); without it they are not written, so no partial grade looks final.
    #[arg(long)]
    pub allow_partial: bool,
    /// Moodle's offline grading worksheet for the assignment (Grading action: Download grading worksheet):
    /// moodle-grading-worksheet.csv is that file, every row and column kept, with Grade, Last modified
    /// (grade) and Feedback comments filled for each student graded; its Status says who was late.
    #[arg(long, value_name = "FILE")]
    pub moodle_worksheet: Option<PathBuf>,
}

/// The largest `--max-grade` taken: more points than any gradebook uses, and far from where a grade scaled to
/// it would print as `inf`.
const MAX_POINTS: f64 = 1_000_000.0;

impl LmsArgs {
    /// The Canvas assignment the import fills, with the flags checked.
    ///
    /// # Errors
    /// A malformed assignment id or maximum grade, or a Canvas gradebook that cannot be read or used.
    pub fn assignment(&self) -> Result<canvas::Assignment> {
        if let Some(max) = self.max_grade.filter(|m| !(m.is_finite() && *m > 0.0 && *m <= MAX_POINTS)) {
            bail!("--max-grade must be a number of points above 0 and at most {MAX_POINTS}, not {max}");
        }
        let id = self.canvas_assignment_id.as_deref();
        if let Some(id) = id.filter(|id| id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit())) {
            bail!("--canvas-assignment-id is the number in the assignment's address, not `{id}`");
        }
        match &self.canvas_gradebook {
            Some(path) => {
                let text =
                    std::fs::read_to_string(path).with_context(|| format!("failed to read `{}`", path.display()))?;
                canvas::Assignment::from_export(&text, id)
                    .map_err(|e| anyhow::anyhow!("`{}` is not a usable Canvas gradebook export: {e}", path.display()))
            }
            None => Ok(canvas::Assignment::from_flags(&self.canvas_assignment_name, id)),
        }
    }

    /// Moodle's worksheet, when one is given, with the maximum grade checked against it.
    ///
    /// # Errors
    /// A file that cannot be read or is not Moodle's worksheet (in English), or a `--max-grade` that is not its
    /// Maximum Grade.
    pub fn moodle_worksheet(&self) -> Result<Option<moodle::Worksheet>> {
        let Some(path) = &self.moodle_worksheet else { return Ok(None) };
        let text = std::fs::read_to_string(path).with_context(|| format!("failed to read `{}`", path.display()))?;
        let sheet = moodle::Worksheet::parse(&text)
            .map_err(|e| anyhow::anyhow!("`{}` is not a usable Moodle grading worksheet: {e}", path.display()))?;
        if let (Some(flag), Some(theirs)) = (self.max_grade, sheet.maximum_grade()) {
            if (flag - theirs).abs() > 1e-9 {
                bail!(
                    "--max-grade {flag} is not the assignment's Maximum Grade in `{}` ({theirs}): Moodle skips a grade \
                     above it; leave --max-grade out to grade on the worksheet's",
                    path.display()
                );
            }
        }
        Ok(Some(sheet))
    }
}

/// Writes a whole class's gradebooks and overview into `out`; `document` has the overview's figures, and
/// `similarity` the class's code similarity (its section, `similarity.csv` and pair pages) when compared. The
/// LMS lines go to standard error unless `quiet`. A partial run (`--only` left tests out) writes no LMS import
/// unless `lms.allow_partial`: each one left unwritten is named on standard error and in the overview.
pub fn class_gradebooks(
    out: &Path,
    document: &Document,
    lms: &LmsArgs,
    quiet: bool,
    similarity: Option<&Findings>,
) -> Result<()> {
    let mut assignment = lms.assignment()?;
    let worksheet = lms.moodle_worksheet()?;
    let mut document = document.clone();
    if let Some(sheet) = &worksheet {
        late_from(sheet, &mut document.students);
    }
    let rows = &document.students;
    let lms_of = |row: &Row, canvas: bool| match &row.lms {
        Some(crate::intake::Lms::Canvas { .. }) => canvas,
        Some(crate::intake::Lms::Moodle { .. }) => !canvas,
        None => false,
    };
    let canvas = rows.iter().any(|r| lms_of(r, true)).then_some("canvas-import.csv");
    if canvas.is_none() && (lms.canvas_assignment_id.is_some() || lms.canvas_gradebook.is_some()) {
        // the flags name a Canvas import, and no student came from a Canvas export: say why none is written
        eprintln!(
            "grader: no canvas-import.csv: no student of this class came from a Canvas export (its files are \
             named name_USERID_SUBMISSIONID_File.java), so the Canvas options were not used"
        );
    }
    let moodle =
        (rows.iter().any(|r| lms_of(r, false)) || worksheet.is_some()).then_some("moodle-grading-worksheet.csv");
    let partial = rows.iter().find_map(|r| r.partial.as_ref());
    let withheld: Vec<String> = match partial {
        Some(_) if !lms.allow_partial => [canvas, moodle].into_iter().flatten().map(String::from).collect(),
        _ => vec![],
    };
    write(&out.join("gradebook.csv"), gradebook::ours_csv(rows))?;
    write(&out.join("gradebook.json"), document.to_json())?;
    let figures = document.overview.clone().unwrap_or_else(|| overview::figures(rows));
    let line = overview::html::RunLine { partial, withheld_imports: &withheld, ..document.run.line() };
    super::similarity::write(out, similarity)?;
    write(&out.join("index.html"), overview::html::render(&figures, rows, &line, similarity))?;
    if let Some(findings) = similarity.filter(|_| !quiet) {
        eprintln!("{}", super::similarity::summary(findings));
    }
    if let (Some(partial), false) = (partial, withheld.is_empty()) {
        eprintln!(
            "grader: {} not written: this run graded only {}, so its grades are not the assignment's (grade \
             the class {}, or pass --allow-partial to write {} with the partial grades)",
            withheld.join(" and "),
            partial.describe(),
            partial.remedy(),
            if withheld.len() == 1 { "it" } else { "them" }
        );
        for earlier in withheld.iter().filter(|file| out.join(file).exists()) {
            eprintln!("grader: the {earlier} in {} is an earlier run's, not this one's", out.display());
        }
        return Ok(());
    }
    if let Some(file) = canvas {
        let max = lms.max_grade.or(assignment.points_possible).unwrap_or(100.0);
        if let Some(partial) = partial {
            assignment.heading = canvas::partial_heading(&assignment.heading, partial);
        }
        let (text, left_out) = canvas::import_csv(rows, &assignment, max);
        write(&out.join(file), text)?;
        report_import(file, &assignment.heading, max, &left_out, quiet);
    }
    if let Some(file) = moodle {
        let max = lms.max_grade.or(worksheet.as_ref().and_then(moodle::Worksheet::maximum_grade)).unwrap_or(100.0);
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        let (text, left_out) = match &worksheet {
            Some(sheet) => moodle::filled(sheet, rows, max, now),
            None => moodle::worksheet(rows, max, now),
        };
        write(&out.join(file), text)?;
        report_import(file, "Grade", max, &left_out, quiet);
        if worksheet.as_ref().is_some_and(|sheet| !sheet.has_feedback_comments()) {
            eprintln!(
                "grader: the Moodle worksheet has no `Feedback comments` column, so no feedback goes back: turn on \
                 the assignment's \"Feedback comments\" feedback type and download the worksheet again"
            );
        }
    }
    Ok(())
}

/// Each Moodle student's lateness, as the worksheet's Status says (a student it does not name keeps theirs).
fn late_from(sheet: &moodle::Worksheet, rows: &mut [Row]) {
    let submissions = sheet.submissions();
    for row in rows {
        if let Some(crate::intake::Lms::Moodle { participant_id }) = &row.lms {
            if let Some(submitted) = submissions.get(participant_id) {
                row.late = Some(submitted.late);
            }
        }
    }
}

/// Writes a shard's `gradebook.json` and `gradebook.csv` (its own students' rows) into `out`.
pub fn shard_gradebooks(out: &Path, document: &Document) -> Result<()> {
    write(&out.join("gradebook.csv"), gradebook::ours_csv(&document.students))?;
    write(&out.join("gradebook.json"), document.to_json())
}

fn write(path: &Path, text: String) -> Result<()> {
    write_atomically(path, text).with_context(|| format!("failed to write `{}`", path.display()))
}

fn report_import(file: &str, column: &str, max: f64, left_out: &[String], quiet: bool) {
    if !quiet {
        eprintln!("grader: {file}: grades out of {max} in the column `{}`", visible::line(column));
    }
    if !left_out.is_empty() {
        let names: Vec<String> = left_out.iter().map(|n| visible::line(n).into_owned()).collect();
        eprintln!("grader: {file} leaves out students that are not in that LMS's export: {}", names.join(", "));
    }
}
