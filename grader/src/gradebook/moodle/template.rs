//! Moodle's own offline grading worksheet, read as the template of the one we write back (`grader batch
//! --moodle-worksheet FILE`), as Canvas's gradebook export is Canvas's template: every row and column kept,
//! the rows of students who handed nothing in too.
//!
//! What Moodle writes (moodle/moodle, `mod/assign/gradingtable.php`, `assign_grading_table` downloading as CSV
//! through `dataformat/csv`, Spout's CSV writer: a UTF-8 byte-order mark, `fputcsv` quoting): a header row of
//! translated column names, `Identifier` (`Participant N`, N the participant id of the submissions' folder
//! names), `Full name`, the identity fields (`Email address`), `Status`, `Grade`, `Maximum Grade` (`Scale` for
//! an assignment graded on a scale), `Grade can be changed`, `Last modified (submission)`, a column per
//! submission plugin with text (`Online text`), `Last modified (grade)`, and a column per feedback plugin with
//! text (`Feedback comments`). Its import (`mod/assign/feedback/offline/importgradeslib.php`) finds
//! `Identifier`, `Grade` and `Last modified (grade)` by name, and a feedback plugin's column by its name, in
//! the site's language; it ignores the rest.
//!
//! The names matched here are English (`lang/en/assign.php`, and core's `Grade`, `Full name`): a site in
//! another language names its columns in that language, and the worksheet is refused with what it lacks.
//! The `Status` column is read for each student's submission: its parts are joined by ` - ` (`col_status`),
//! `No submission`, `Draft (not submitted)` or `Submitted for grading`, then `2 days 3 hours late` when the
//! submission came after its due date (`submittedlateshort`), then others this reading ignores (`Graded`,
//! `Assignment is overdue by: …`, `Extension granted until: …`).

use std::collections::BTreeMap;

use super::super::csv;

/// The column names matched, in English, as Moodle's English language pack writes them.
pub const IDENTIFIER: &str = "Identifier";
#[allow(missing_docs)]
pub const FULL_NAME: &str = "Full name";
#[allow(missing_docs)]
pub const STATUS: &str = "Status";
#[allow(missing_docs)]
pub const GRADE: &str = "Grade";
/// `assign`'s `maxgrade`, defined twice in the language pack (`Maximum grade`, then `Maximum Grade`, which
/// wins); either is matched.
pub const MAXIMUM_GRADE: &str = "Maximum Grade";
#[allow(missing_docs)]
pub const SCALE: &str = "Scale";
#[allow(missing_docs)]
pub const LAST_MODIFIED_GRADE: &str = "Last modified (grade)";
/// The feedback comments plugin's column (`assignfeedback_comments`' `pluginname`).
pub const FEEDBACK_COMMENTS: &str = "Feedback comments";

/// The `Status` parts read: no submission, a draft, and the lateness part's ending.
pub const NO_SUBMISSION: &str = "No submission";
#[allow(missing_docs)]
pub const DRAFT: &str = "Draft (not submitted)";
#[allow(missing_docs)]
pub const SUBMITTED: &str = "Submitted for grading";
/// The end of the part that says a submission was late (`2 days 3 hours late`).
pub const LATE: &str = " late";

/// A participant's submission, as the worksheet's `Status` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Submitted {
    /// Whether they handed anything in (`No submission` says not).
    pub handed_in: bool,
    /// Whether it came after its due date.
    pub late: bool,
}

/// A Moodle grading worksheet: its rows as they are, and where its columns are.
#[derive(Debug, Clone, PartialEq)]
pub struct Worksheet {
    /// Whether it started with a byte-order mark (Moodle's does); ours then does too.
    pub(super) bom: bool,
    pub(super) header: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
    pub(super) identifier: usize,
    pub(super) status: Option<usize>,
    pub(super) grade: usize,
    pub(super) maximum: Option<usize>,
    pub(super) modified: usize,
    pub(super) feedback: Option<usize>,
}

impl Worksheet {
    /// Reads a worksheet Moodle wrote.
    ///
    /// # Errors
    /// Text that is not CSV, or lacks a column the import needs (the message names it and the English names
    /// matched), or an assignment graded on a scale (the grader gives points).
    pub fn parse(text: &str) -> Result<Worksheet, String> {
        let bom = text.starts_with('\u{feff}');
        let mut rows = csv::parse(text)?;
        if rows.is_empty() {
            return Err("the file is empty".into());
        }
        let header: Vec<String> = rows.remove(0).into_iter().map(|h| h.trim().to_string()).collect();
        let find = |name: &str| header.iter().position(|h| h.eq_ignore_ascii_case(name));
        let needed = |name: &str| {
            find(name).ok_or_else(|| {
                format!(
                    "it has no `{name}` column (the columns it has: {}); the grader matches the English names Moodle \
                     gives them ({IDENTIFIER}, {GRADE}, {LAST_MODIFIED_GRADE}): download the worksheet with your \
                     Moodle profile's language set to English",
                    header.join(", ")
                )
            })
        };
        let (identifier, grade, modified) = (needed(IDENTIFIER)?, needed(GRADE)?, needed(LAST_MODIFIED_GRADE)?);
        if find(SCALE).is_some() && find(MAXIMUM_GRADE).is_none() {
            return Err(
                "the assignment is graded on a scale (its worksheet has a `Scale` column), and the grader gives \
                 points: set the assignment's grade type to Point"
                    .into(),
            );
        }
        rows.retain(|row| row.iter().any(|field| !field.trim().is_empty()));
        Ok(Worksheet {
            bom,
            identifier,
            status: find(STATUS),
            grade,
            maximum: find(MAXIMUM_GRADE),
            modified,
            feedback: find(FEEDBACK_COMMENTS),
            header,
            rows,
        })
    }

    /// The participant id of a row: the digits its `Identifier` ends with (`Participant 12345`).
    pub(super) fn participant<'a>(&self, row: &'a [String]) -> Option<&'a str> {
        let id = row.get(self.identifier)?.trim();
        let digits = id.len() - id.trim_start_matches(|c: char| !c.is_ascii_digit()).len();
        let tail = &id[digits..];
        (!tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit())).then_some(tail)
    }

    /// Each participant's submission, as the `Status` column says (none when the worksheet has no `Status`).
    pub fn submissions(&self) -> BTreeMap<String, Submitted> {
        let Some(status) = self.status else { return BTreeMap::new() };
        self.rows
            .iter()
            .filter_map(|row| Some((self.participant(row)?.to_string(), read_status(row.get(status)?))))
            .collect()
    }

    /// The assignment's maximum grade, from the `Maximum Grade` column (Moodle writes it on every row).
    pub fn maximum_grade(&self) -> Option<f64> {
        let column = self.maximum?;
        self.rows.iter().find_map(|row| number(row.get(column)?))
    }

    /// Whether it has the feedback comments column (the assignment has that feedback type on).
    pub fn has_feedback_comments(&self) -> bool {
        self.feedback.is_some()
    }
}

/// What a `Status` cell says of the submission.
fn read_status(status: &str) -> Submitted {
    let parts: Vec<&str> = status.split(" - ").map(str::trim).collect();
    let late = parts.iter().any(|part| part.ends_with(LATE) && !part.starts_with("Assignment is overdue"));
    Submitted { handed_in: !parts.contains(&NO_SUBMISSION), late }
}

/// A number as Moodle formats a grade (`100.00`, or `100,00` where the decimal separator is a comma).
fn number(field: &str) -> Option<f64> {
    let field = field.trim();
    field.parse().ok().or_else(|| field.replace(',', ".").parse().ok()).filter(|v: &f64| v.is_finite())
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case("No submission", false, false)]
    #[case("No submission - Assignment is overdue by: 1 day 2 hours", false, false)]
    #[case("Draft (not submitted)", true, false)]
    #[case("Submitted for grading", true, false)]
    #[case("Submitted for grading - 2 days 3 hours late", true, true)]
    #[case("Submitted for grading - 5 mins late - Graded", true, true)]
    #[case("Submitted for grading - Graded - Extension granted until: Friday, 8 March 2024, 5:00 PM", true, false)]
    fn the_status_says_whether_they_handed_in_and_whether_late(
        #[case] status: &str,
        #[case] handed_in: bool,
        #[case] late: bool,
    ) {
        assert_eq!(read_status(status), Submitted { handed_in, late });
    }

    #[test]
    fn a_worksheet_without_the_columns_the_import_needs_is_refused_with_what_to_do() {
        let german = "\u{feff}Kennung,\"Vollständiger Name\",Bewertung\nTeilnehmer/in 7,Ada,\n";
        let error = Worksheet::parse(german).unwrap_err();
        assert!(error.contains("no `Identifier` column") && error.contains("language set to English"), "{error}");
        let scale = "Identifier,Grade,Scale,\"Last modified (grade)\"\n\"Participant 7\",,\"Good\nBad\",-\n";
        assert!(Worksheet::parse(scale).unwrap_err().contains("graded on a scale"));
        let sheet = Worksheet::parse(
            "Identifier,Grade,\"Maximum Grade\",\"Last modified (grade)\"\n\"Participant 7\",,\"20,00\",-\n",
        )
        .unwrap();
        assert_eq!(sheet.maximum_grade(), Some(20.0));
        assert_eq!(sheet.participant(&sheet.rows[0]), Some("7"));
    }
}
