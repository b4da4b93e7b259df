//! Moodle's offline grading worksheet, which an assignment reads back with "Upload grading worksheet" (the
//! assignment's "Offline grading worksheet" feedback type, docs.moodle.org/en/Assignment_settings). The
//! import (Moodle's mod/assign/feedback/offline/importgradeslib.php) needs three columns by their headings,
//! `Identifier` (`Participant N`, N being the participant id of the export's folder names), `Grade` and
//! `Last modified (grade)`, takes a feedback plugin's text from the column of its name (`Feedback comments`,
//! HTML), and ignores the others.
//!
//! Given Moodle's own worksheet (`--moodle-worksheet`, [`template`]), we fill that one: every row and column
//! kept as Moodle wrote it (the students who handed nothing in too), and for each student we graded their
//! `Grade`, `Last modified (grade)` and `Feedback comments` (a short summary and the fix-first line; for a
//! student not graded, why, with their grade left as Moodle has it), after what a person wrote there, which
//! stays (what the autograder wrote before is replaced). Without one we write a worksheet of our own with the
//! import's columns and a few for a person reading it: `Full name`, `Status` (ours: graded, or why not),
//! `Maximum Grade`; no feedback column, since the import would replace the feedback Moodle has, which that
//! file does not know.
//!
//! The import skips a grade that is empty (a student who could not be graded), above the assignment's
//! maximum (so the maximum must be the assignment's: Moodle's worksheet says it), or older than the grade
//! Moodle has, by `Last modified (grade)`: we write when the gradebook was written, so grades given in Moodle
//! before that are replaced and later ones are kept (unless the upload's "Allow updating records that have
//! been modified more recently in Moodle than in the spreadsheet" is ticked).

pub mod template;

use std::collections::BTreeMap;

use super::csv;
use crate::batch::Row;
use crate::intake::Lms;
use crate::report::html::escape;
pub use template::Worksheet;

/// The most failed tests a feedback comment names before counting the rest.
const NAMED_TESTS: usize = 8;

/// Our worksheet for the Moodle students among `rows`, graded on `max_grade` points, modified at `now`
/// (seconds since the Unix epoch); with the students who are not Moodle's listed apart.
pub fn worksheet(rows: &[Row], max_grade: f64, now: u64) -> (String, Vec<String>) {
    let header = ["Identifier", "Full name", "Status", "Grade", "Maximum Grade", "Last modified (grade)"];
    let mut out = csv::row(&header);
    let modified = iso8601(now);
    let mut left_out = Vec::new();
    for row in rows {
        let Some(participant_id) = participant(row) else {
            left_out.push(format!("{} ({})", row.name, row.id));
            continue;
        };
        let graded = match &row.partial {
            Some(partial) => format!("Partially graded by the autograder, on {}", partial.describe()),
            None => "Graded by the autograder".to_string(),
        };
        let status = match (&row.error, row.percent) {
            (Some(error), _) => format!("Not graded: {error}"),
            (None, percent) => format!("{graded} ({:.2}%)", percent.unwrap_or(0.0)),
        };
        let fields = [
            csv::text(&format!("Participant {participant_id}")),
            csv::text(&row.name),
            csv::text(&status),
            row.scaled(max_grade).map(csv::number).unwrap_or_default(),
            csv::number(max_grade),
            modified.clone(),
        ];
        out.push_str(&csv::row(&fields));
    }
    (out, left_out)
}

/// Moodle's own worksheet `template` filled for the Moodle students among `rows` (module doc), graded on
/// `max_grade` points, modified at `now`; with the students it cannot hold (not Moodle's, or not among its
/// participants) listed apart.
pub fn filled(template: &Worksheet, rows: &[Row], max_grade: f64, now: u64) -> (String, Vec<String>) {
    let ours: BTreeMap<&str, &Row> = rows.iter().filter_map(|row| Some((participant(row)?, row))).collect();
    let mut out = String::from(if template.bom { "\u{feff}" } else { "" });
    out.push_str(&csv::row(&template.header.iter().map(|h| csv::text(h)).collect::<Vec<_>>()));
    let modified = iso8601(now);
    let mut placed = Vec::new();
    for cells in &template.rows {
        let mut fields = cells.clone();
        fields.resize(template.header.len(), String::new());
        if let Some(row) = template.participant(cells).and_then(|id| ours.get(id)) {
            placed.push(row.id.clone());
            if let Some(grade) = row.scaled(max_grade) {
                fields[template.grade] = csv::number(grade);
                fields[template.modified] = modified.clone();
            }
            if let Some(column) = template.feedback {
                fields[column] = kept_with_ours(&fields[column], &feedback(row, max_grade));
            }
        }
        out.push_str(&csv::row(&fields.iter().map(|f| csv::text(f)).collect::<Vec<_>>()));
    }
    let left_out = rows
        .iter()
        .filter(|row| !placed.contains(&row.id))
        .map(|row| {
            let why = if participant(row).is_some() { "not in the worksheet" } else { "not Moodle's" };
            format!("{} ({}, {why})", row.name, row.id)
        })
        .collect();
    (out, left_out)
}

/// A feedback comment that keeps what a person wrote in Moodle (`theirs`) and replaces what the autograder
/// wrote there before: paragraphs whose text starts as ours do (`Autograder:`, `Fix first:`, `Not graded by
/// the autograder:`), whatever attributes Moodle's editor gave them; `ours` comes last.
fn kept_with_ours(theirs: &str, ours: &str) -> String {
    let autograders = ["Autograder:", "Fix first:", "Not graded by the autograder:"];
    let mut kept = String::new();
    for (at, paragraph) in theirs.split("<p").enumerate() {
        let paragraph = if at == 0 { paragraph.to_string() } else { format!("<p{paragraph}") };
        let text = paragraph.split_once('>').map_or("", |(_, rest)| rest).trim_start();
        if !(paragraph.starts_with("<p") && autograders.iter().any(|a| text.starts_with(a))) {
            kept.push_str(&paragraph);
        }
    }
    format!("{kept}{ours}")
}

/// The Moodle participant id of a row, if it is a Moodle student's.
fn participant(row: &Row) -> Option<&str> {
    match &row.lms {
        Some(Lms::Moodle { participant_id }) => Some(participant_id),
        _ => None,
    }
}

/// A student's feedback comment (HTML, which Moodle shows as such): their grade and the tests they failed,
/// then the fix-first line, or why they were not graded. Every name in it is escaped.
pub fn feedback(row: &Row, max_grade: f64) -> String {
    let Some(grade) = row.scaled(max_grade) else {
        let why = row.error.as_deref().unwrap_or("no grade");
        return format!("<p>Not graded by the autograder: {}</p>", escape(why));
    };
    let mut failed: Vec<&str> = row.failed.iter().map(|id| id.split('/').next().unwrap_or(id)).collect();
    failed.dedup();
    let named: Vec<String> = failed.iter().take(NAMED_TESTS).map(|id| escape(id)).collect();
    let tests = match failed.len() {
        0 => "Every test passed.".to_string(),
        n if n > NAMED_TESTS => format!("Failed: {} and {} more.", named.join(", "), n - NAMED_TESTS),
        _ => format!("Failed: {}.", named.join(", ")),
    };
    let built = if row.compiled == Some(false) { " The submission did not compile." } else { "" };
    let mut html = format!(
        "<p>Autograder: <strong>{grade:.2} / {max_grade:.2}</strong> ({:.2}%).{built} {tests}</p>",
        row.percent.unwrap_or(0.0)
    );
    if let Some(line) = &row.fix_first {
        html.push_str(&format!("<p>Fix first: {}</p>", escape(line)));
    }
    html
}

/// `seconds` since the Unix epoch as ISO 8601 in UTC (`2024-03-05T10:15:00+00:00`), which PHP's `strtotime`
/// reads.
pub fn iso8601(seconds: u64) -> String {
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    // Days to a civil date (Howard Hinnant's algorithm, for dates from 1970 on).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}+00:00", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradebook::sample::row;
    use crate::identity::StudentId;

    fn moodle(id: &str, name: &str, percent: Option<f64>, error: Option<&str>) -> Row {
        let lms = Some(Lms::Moodle { participant_id: id.into() });
        Row { lms, ..row(StudentId::moodle(id), name, percent, error) }
    }

    #[test]
    fn the_worksheet_has_every_moodle_student_graded_or_with_the_reason() {
        let rows = [
            moodle("101", "Ada", Some(87.5), None),
            moodle("102", "Ada", None, Some("broken.zip not unpacked")),
            row(StudentId::entry("guest"), "guest", Some(1.0), None),
        ];
        let (text, left_out) = worksheet(&rows, 20.0, 1_709_633_700);
        let parsed = csv::parse(&text).unwrap();
        assert_eq!(parsed[0], ["Identifier", "Full name", "Status", "Grade", "Maximum Grade", "Last modified (grade)"]);
        assert_eq!(
            parsed[1],
            [
                "Participant 101",
                "Ada",
                "Graded by the autograder (87.50%)",
                "17.50",
                "20.00",
                "2024-03-05T10:15:00+00:00"
            ]
        );
        assert_eq!(parsed[2][0..4], ["Participant 102", "Ada", "Not graded: broken.zip not unpacked", ""]);
        assert_eq!(left_out, ["guest (guest)"]);
    }

    #[test]
    fn a_partial_grade_says_so_in_its_status() {
        let rows =
            [Row { partial: Some(crate::gradebook::sample::partial()), ..moodle("101", "Ada", Some(50.0), None) }];
        let parsed = csv::parse(&worksheet(&rows, 20.0, 0).0).unwrap();
        assert_eq!(
            parsed[1][2..4],
            ["Partially graded by the autograder, on 9 of the 229 tests (--only 'board-1*') (50.00%)", "10.00"]
        );
        assert_eq!(parsed[0][3], "Grade", "Moodle's import finds the column by this heading");
    }

    /// A worksheet as Moodle writes it (module doc of `template`): a byte-order mark, every field `fputcsv`
    /// quotes quoted, `-` for no date, a student who handed nothing in, one graded in Moodle already.
    const MOODLE: &str = "\u{feff}Identifier,\"Full name\",\"Email address\",Status,Grade,\"Maximum Grade\",\
        \"Grade can be changed\",\"Last modified (submission)\",\"Last modified (grade)\",\"Feedback comments\"\n\
        \"Participant 101\",\"Ada Lovelace\",ada@uni.edu,\"Submitted for grading - 2 days 3 hours late\",,20.00,Yes,\
        \"Tuesday, 5 March 2024, 10:15 AM\",-,\n\
        \"Participant 102\",\"=Bob\",bob@uni.edu,\"No submission\",,20.00,Yes,-,-,\n\
        \"Participant 103\",\"Cy Diaz\",cy@uni.edu,\"Submitted for grading - Graded\",12.00,20.00,Yes,\
        \"Monday, 4 March 2024, 9:00 AM\",\"Monday, 4 March 2024, 11:00 AM\",\"<p>Seen</p>\"\n";

    #[test]
    fn moodles_own_worksheet_keeps_every_row_and_column_and_is_filled_for_whom_we_graded() {
        let sheet = Worksheet::parse(MOODLE).unwrap();
        let mut ada = moodle("101", "Ada Lovelace", Some(87.5), None);
        ada.fix_first = Some("manhattan() is wrong (board-2a); board-15 fails because of it".into());
        let cy = moodle("103", "Cy Diaz", None, Some("found solver.java: rename it to <Solver.java>"));
        let (text, left_out) = filled(&sheet, &[ada, cy, moodle("999", "Di", Some(1.0), None)], 20.0, 1_709_633_700);
        assert!(text.starts_with('\u{feff}'), "the byte-order mark is kept");
        let (ours, theirs) = (csv::parse(&text).unwrap(), csv::parse(MOODLE).unwrap());
        assert_eq!(ours[0], theirs[0], "the header, as Moodle wrote it");
        assert_eq!(ours.len(), theirs.len(), "every row, the one who handed nothing in too");
        assert_eq!(ours[2][2..], theirs[2][2..], "bob's row is Moodle's");
        assert_eq!(ours[2][1], "'=Bob", "but no field a spreadsheet would run (the import reads no name)");
        let ada = &ours[1];
        assert_eq!((ada[4].as_str(), ada[8].as_str()), ("17.50", "2024-03-05T10:15:00+00:00"));
        assert_eq!(ada[..4], theirs[1][..4]);
        assert!(
            ada[9]
                .starts_with("<p>Autograder: <strong>17.50 / 20.00</strong> (87.50%). Failed: board-5a, timing-2.</p>")
                && ada[9].ends_with("<p>Fix first: manhattan() is wrong (board-2a); board-15 fails because of it</p>"),
            "{}",
            ada[9]
        );
        let cy = &ours[3];
        assert_eq!(
            (cy[4].as_str(), cy[8].as_str()),
            ("12.00", "Monday, 4 March 2024, 11:00 AM"),
            "not graded: Moodle's grade stays"
        );
        assert_eq!(
            cy[9],
            "<p>Seen</p><p>Not graded by the autograder: found solver.java: rename it to &lt;Solver.java&gt;</p>",
            "what a person wrote stays"
        );
        let again = kept_with_ours(&format!("<p dir=\"ltr\">Autograder: 1 / 2</p>{}", cy[9]), "<p>Autograder: 2</p>");
        assert_eq!(again, "<p>Seen</p><p>Autograder: 2</p>", "what the autograder wrote before is replaced");
        assert_eq!(left_out, ["Di (moodle-999, not in the worksheet)"]);
        let submissions = sheet.submissions();
        assert!(submissions["101"].late && !submissions["103"].late && !submissions["102"].handed_in);
    }

    #[test]
    fn dates_are_utc_iso_8601() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00+00:00");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00+00:00");
        assert_eq!(iso8601(4_102_444_799), "2099-12-31T23:59:59+00:00");
    }
}
