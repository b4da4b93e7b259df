//! The class's gradebooks: ours (`gradebook.csv`, and [`document`]'s `gradebook.json`), what each LMS reads
//! back ([`canvas`]'s gradebook import, [`moodle`]'s offline grading worksheet), and the class [`overview`].
//! Every student of the class has a row in each gradebook that can hold them: graded, or with the reason they
//! are not. [`merge`] joins the gradebooks of a class's shards into the class's.
//!
//! Every text field goes through [`csv::text`], so no name or message can become a formula or split a row.

pub mod canvas;
pub mod csv;
pub mod document;
pub mod merge;
pub mod moodle;
pub mod overview;
#[cfg(test)]
mod sample;
pub mod similarity;

use crate::batch::Row;
use crate::catalog::Category;
pub use document::{Document, RunInfo};

/// Our gradebook as CSV: the student's identity, name and report file stem, whether the LMS marked them
/// late (`yes`, `no`, or empty where it does not say), one column per category, the score, its maximum, the
/// failed test ids, why the student could not be graded, and, for a run `--only` narrowed, which tests the
/// score is over (`partial`: empty in a whole run).
pub fn ours_csv(rows: &[Row]) -> String {
    let mut header: Vec<String> = ["id", "name", "report", "late"].map(String::from).to_vec();
    header.extend(Category::ALL.iter().map(|c| c.name().to_string()));
    header.extend(["score", "max", "failed", "error", "partial"].map(String::from));
    let mut out = csv::row(&header);
    for row in rows {
        let late = match row.late {
            Some(true) => "yes",
            Some(false) => "no",
            None => "",
        };
        let mut fields = vec![csv::text(row.id.as_str()), csv::text(&row.name), csv::text(&row.report), late.into()];
        for c in Category::ALL {
            let points = row.categories.iter().find(|(n, _)| n == c.name()).map(|(_, p)| csv::number(*p));
            fields.push(points.unwrap_or_default());
        }
        fields.push(row.score.map(csv::number).unwrap_or_default());
        fields.push(row.max.map(csv::number).unwrap_or_default());
        fields.push(csv::text(&row.failed.join(" ")));
        fields.push(csv::text(row.error.as_deref().unwrap_or("")));
        fields.push(csv::text(&row.partial.as_ref().map(|p| p.describe()).unwrap_or_default()));
        out.push_str(&csv::row(&fields));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sample::{partial, row};
    use super::*;
    use crate::identity::StudentId;

    #[test]
    fn our_csv_has_one_row_per_student_whatever_their_names_hold() {
        let rows = vec![
            row(StudentId::entry("ada"), "ada", Some(97.5), None),
            row(StudentId::entry("=HYPERLINK(\"x\")"), "=HYPERLINK(\"x\")", None, Some("not a \"submission\"")),
            Row { partial: Some(partial()), ..row(StudentId::moodle("7"), "two\rlines", Some(50.0), None) },
        ];
        let text = ours_csv(&rows);
        let parsed = csv::parse(&text).unwrap();
        assert_eq!(parsed.len(), 4, "{text}");
        assert_eq!(
            parsed[0].join(","),
            "id,name,report,late,compile,api,board,solver,memory,timing,beyond,score,max,failed,error,partial"
        );
        assert_eq!(parsed[1].join(","), "ada,ada,ada,,5.00,,30.00,,,,,97.50,100.00,board-5a timing-2/puzzle36,,");
        assert_eq!(parsed[2][0], "'=HYPERLINK(\"x\")");
        assert_eq!(parsed[2][14], "not a \"submission\"");
        assert_eq!((parsed[3][0].as_str(), parsed[3][1].as_str()), ("moodle-7", "two\rlines"));
        assert_eq!(parsed[3][15], "9 of the 229 tests (--only 'board-1*')");
    }
}
