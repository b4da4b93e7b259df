//! Moodle's offline grading worksheet, which an assignment reads back with "Upload grading worksheet" (the
//! assignment's "Offline grading worksheet" feedback type, docs.moodle.org/en/Assignment_settings). The
//! import (Moodle's mod/assign/feedback/offline/importgradeslib.php) needs three columns by their headings,
//! `Identifier` (`Participant N`, N being the participant id of the export's folder names), `Grade` and
//! `Last modified (grade)`, and ignores the others; we also write the ones its own worksheet has that help a
//! person reading it: `Full name`, `Status` (ours: graded, or why not) and `Maximum Grade`.
//!
//! The import skips a grade that is empty (a student who could not be graded, whose reason is in `Status`),
//! above the assignment's maximum (so `--max-grade` must be the assignment's), or older than the grade
//! Moodle has, by `Last modified (grade)`: we write when the gradebook was written, so grades given in Moodle
//! before that are replaced and later ones are kept (unless the upload's "Allow updating records that have
//! been modified more recently in Moodle than in the spreadsheet" is ticked).

use super::csv;
use crate::batch::Row;
use crate::intake::Lms;

/// The worksheet for the Moodle students among `rows`, graded on `max_grade` points, modified at `now`
/// (seconds since the Unix epoch); with the students who are not Moodle's listed apart.
pub fn worksheet(rows: &[Row], max_grade: f64, now: u64) -> (String, Vec<String>) {
    let header = ["Identifier", "Full name", "Status", "Grade", "Maximum Grade", "Last modified (grade)"];
    let mut out = csv::row(&header);
    let modified = iso8601(now);
    let mut left_out = Vec::new();
    for row in rows {
        let Some(Lms::Moodle { participant_id }) = &row.lms else {
            left_out.push(format!("{} ({})", row.name, row.id));
            continue;
        };
        let grade = row.scaled(max_grade);
        let graded = match &row.partial {
            Some(partial) => format!("Partially graded by the autograder, on {}", partial.describe()),
            None => "Graded by the autograder".to_string(),
        };
        let status = match (&row.error, row.percent) {
            (Some(error), None) => format!("Not graded: {error}"),
            (Some(error), Some(percent)) => format!("{graded} ({percent:.2}%), but {error}"),
            (None, percent) => format!("{graded} ({:.2}%)", percent.unwrap_or(0.0)),
        };
        let fields = [
            csv::text(&format!("Participant {participant_id}")),
            csv::text(&row.name),
            csv::text(&status),
            grade.map(csv::number).unwrap_or_default(),
            csv::number(max_grade),
            modified.clone(),
        ];
        out.push_str(&csv::row(&fields));
    }
    (out, left_out)
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

    #[test]
    fn dates_are_utc_iso_8601() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00+00:00");
        assert_eq!(iso8601(951_782_400), "2000-02-29T00:00:00+00:00");
        assert_eq!(iso8601(4_102_444_799), "2099-12-31T23:59:59+00:00");
    }
}
