//! Canvas's gradebook import: a CSV that Canvas's Grades page reads with "Import" (Instructure's guide "How do
//! I import grades in the Gradebook?"; the columns as an institution's guide lists them:
//! teaching.resources.osu.edu/toolsets/carmencanvas/guides/calculating-final-grades/import-csv-file-carmen-grades).
//!
//! Columns: `Student`, `ID` (the Canvas user id, which Canvas matches students by), `SIS User ID`,
//! `SIS Login ID`, `Section`, then the assignment's own column headed `Name (assignment id)`. Canvas matches
//! an assignment column by the id in parentheses; a column without one is created as a new assignment. The
//! assignment id is not in `submissions.zip`: it comes from `--canvas-assignment-id` (the number in the
//! assignment's address, `/courses/C/assignments/ID`), or from the course's exported gradebook given as a
//! template (`--canvas-gradebook`), whose student columns are copied and whose assignment column is filled;
//! its `Points Possible` row gives the assignment's maximum unless `--max-grade` does.
//!
//! A grade is the score's percentage of the maximum; a student who could not be graded has an empty cell
//! (not a zero), and their reason is in `gradebook.csv`.

use std::collections::BTreeMap;

use super::csv;
use crate::batch::Row;
use crate::intake::Lms;
use crate::results::Partial;

/// The student columns Canvas's import reads, in its export's order.
const STUDENT_COLUMNS: [&str; 6] = ["Student", "ID", "SIS User ID", "SIS Login ID", "Integration ID", "Section"];

/// The assignment a Canvas import fills, and the course's gradebook export when one is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Assignment {
    /// The column's heading (`8 Puzzle (123456)`).
    pub heading: String,
    /// The assignment's points, from the template's `Points Possible` row.
    pub points_possible: Option<f64>,
    /// The template's student columns and rows (by Canvas user id), if one was given.
    template: Option<Template>,
}

#[derive(Debug, Clone, PartialEq)]
struct Template {
    columns: Vec<String>,
    rows: BTreeMap<String, Vec<String>>,
}

impl Assignment {
    /// An assignment named by flags: `name (id)`, or `name` alone (Canvas then creates a new assignment).
    pub fn from_flags(name: &str, id: Option<&str>) -> Assignment {
        let heading = match id {
            Some(id) => format!("{name} ({id})"),
            None => name.to_string(),
        };
        Assignment { heading, points_possible: None, template: None }
    }

    /// The assignment column of a course's gradebook export: the one whose heading ends `(id)`, or the only
    /// assignment column when `id` is `None`.
    ///
    /// # Errors
    /// A file that is not such an export, or no single column that matches (the message lists them).
    pub fn from_export(text: &str, id: Option<&str>) -> Result<Assignment, String> {
        let rows = csv::parse(text)?;
        let header = rows.first().ok_or("the file is empty")?;
        let user = header.iter().position(|h| h == "ID").ok_or("it has no `ID` column: is it Canvas's export?")?;
        let assignments: Vec<usize> = (0..header.len()).filter(|&i| assignment_id(&header[i]).is_some()).collect();
        let chosen: Vec<usize> = match id {
            Some(id) => assignments.iter().copied().filter(|&i| assignment_id(&header[i]) == Some(id)).collect(),
            None => assignments.clone(),
        };
        let [column] = chosen[..] else {
            let listed: Vec<&str> = assignments.iter().map(|&i| header[i].as_str()).collect();
            return Err(format!(
                "{} assignment column(s) match{}: choose one with --canvas-assignment-id (the export has: {})",
                chosen.len(),
                id.map(|id| format!(" the id {id}")).unwrap_or_default(),
                listed.join(", ")
            ));
        };
        let kept: Vec<usize> = (0..header.len()).filter(|&i| STUDENT_COLUMNS.contains(&header[i].as_str())).collect();
        let points_possible = rows
            .iter()
            .find(|r| r.first().is_some_and(|c| c.trim() == "Points Possible"))
            .and_then(|r| r.get(column)?.trim().parse().ok());
        let students = rows
            .iter()
            .skip(1)
            .filter_map(|r| {
                Some((r.get(user)?.clone(), kept.iter().map(|&i| r.get(i).cloned().unwrap_or_default()).collect()))
            })
            .collect();
        let columns = kept.iter().map(|&i| header[i].clone()).collect();
        Ok(Assignment {
            heading: header[column].clone(),
            points_possible,
            template: Some(Template { columns, rows: students }),
        })
    }
}

/// The assignment id at the end of a column heading (`8 Puzzle (123)` → `123`).
fn assignment_id(heading: &str) -> Option<&str> {
    let inner = heading.strip_suffix(')')?;
    let (_, id) = inner.rsplit_once(" (")?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())).then_some(id)
}

/// The assignment column's heading for grades over only some of the tests (`--allow-partial`): `8 Puzzle
/// [partial: 9 of 229 tests] (555)`. The id stays last, so Canvas still fills the assignment it names.
pub fn partial_heading(heading: &str, partial: &Partial) -> String {
    let mark = partial.mark();
    match assignment_id(heading) {
        Some(id) => format!("{} {mark} ({id})", &heading[..heading.len() - id.len() - 3]),
        None => format!("{heading} {mark}"),
    }
}

/// The import CSV for the Canvas students among `rows`, each graded on `max_grade` points; with the
/// students who are not Canvas's listed apart (they cannot be imported).
pub fn import_csv(rows: &[Row], assignment: &Assignment, max_grade: f64) -> (String, Vec<String>) {
    let default_columns = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"].map(String::from).to_vec();
    let columns = assignment.template.as_ref().map_or(default_columns, |t| t.columns.clone());
    let mut header: Vec<String> = columns.iter().map(|c| csv::text(c)).collect();
    header.push(csv::text(&assignment.heading));
    let mut out = csv::row(&header);
    if assignment.template.is_some() {
        let mut points = vec![String::new(); columns.len()];
        points[0] = "    Points Possible".into();
        points.push(csv::number(max_grade));
        out.push_str(&csv::row(&points));
    }
    let mut left_out = Vec::new();
    for row in rows {
        let Some(Lms::Canvas { user_id, .. }) = &row.lms else {
            left_out.push(format!("{} ({})", row.name, row.id));
            continue;
        };
        let known = assignment.template.as_ref().and_then(|t| t.rows.get(user_id));
        let mut fields: Vec<String> = match known {
            Some(values) => values.iter().map(|v| csv::text(v)).collect(),
            None => columns
                .iter()
                .map(|c| match c.as_str() {
                    "Student" => csv::text(&row.name),
                    "ID" => csv::text(user_id),
                    _ => String::new(),
                })
                .collect(),
        };
        fields.push(row.scaled(max_grade).map(csv::number).unwrap_or_default());
        out.push_str(&csv::row(&fields));
    }
    (out, left_out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradebook::sample::row;
    use crate::identity::StudentId;

    fn canvas(user: &str, name: &str, percent: Option<f64>) -> Row {
        let lms = Some(Lms::Canvas { user_id: user.into(), submission_ids: vec!["1".into()] });
        Row { lms, ..row(StudentId::canvas(user), name, percent, percent.is_none().then_some("no files")) }
    }

    #[test]
    fn a_partial_heading_says_so_and_keeps_the_assignment_id_last() {
        let partial = crate::gradebook::sample::partial();
        let heading = partial_heading("8 Puzzle (555)", &partial);
        assert_eq!(heading, "8 Puzzle [partial: 9 of 229 tests] (555)");
        assert_eq!(assignment_id(&heading), Some("555"));
        assert_eq!(partial_heading("8 Puzzle", &partial), "8 Puzzle [partial: 9 of 229 tests]");
    }

    #[test]
    fn flags_give_the_assignment_column_and_points_scale_the_percentage() {
        let rows = [canvas("101", "lovelaceada", Some(87.5)), canvas("102", "=babbage", None)];
        let (text, left_out) = import_csv(&rows, &Assignment::from_flags("8 Puzzle", Some("555")), 10.0);
        let parsed = csv::parse(&text).unwrap();
        assert_eq!(parsed[0], ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "8 Puzzle (555)"]);
        assert_eq!(parsed[1], ["lovelaceada", "101", "", "", "", "8.75"]);
        assert_eq!(parsed[2], ["'=babbage", "102", "", "", "", ""], "ungraded: an empty cell, not a zero");
        assert!(left_out.is_empty());
    }

    /// A course's export, as Canvas writes it: student columns, assignment columns headed `Name (id)`, read-only
    /// score columns, and a `Points Possible` row.
    const EXPORT: &str =
        "Student,ID,SIS User ID,SIS Login ID,Section,Percolation (111),8 Puzzle (222),Current Score\r\n\
        \x20   Points Possible,,,,,100.00,20.00,(read only)\r\n\
        \"Lovelace, Ada\",101,S101,ada@uni.edu,CS 226,95.00,,95.00\r\n\
        \"Babbage, Charles\",102,S102,cb@uni.edu,CS 226,80.00,,80.00\r\n";

    #[test]
    fn a_course_export_is_filled_in_its_assignment_column() {
        let assignment = Assignment::from_export(EXPORT, Some("222")).unwrap();
        assert_eq!((assignment.heading.as_str(), assignment.points_possible), ("8 Puzzle (222)", Some(20.0)));
        let rows = [canvas("101", "lovelaceada", Some(50.0)), row(StudentId::entry("guest"), "guest", Some(1.0), None)];
        let (text, left_out) = import_csv(&rows, &assignment, 20.0);
        let parsed = csv::parse(&text).unwrap();
        assert_eq!(parsed[0], ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "8 Puzzle (222)"]);
        assert_eq!(parsed[1], ["    Points Possible", "", "", "", "", "20.00"]);
        assert_eq!(parsed[2], ["Lovelace, Ada", "101", "S101", "ada@uni.edu", "CS 226", "10.00"]);
        assert_eq!(parsed.len(), 3, "only students of the export");
        assert_eq!(left_out, ["guest (guest)"]);
    }

    #[test]
    fn an_export_with_several_assignments_needs_the_id() {
        let error = Assignment::from_export(EXPORT, None).unwrap_err();
        assert!(error.contains("Percolation (111), 8 Puzzle (222)"), "{error}");
        assert!(Assignment::from_export(EXPORT, Some("9")).unwrap_err().contains("0 assignment column(s)"));
        assert!(Assignment::from_export("a,b\r\n", None).unwrap_err().contains("no `ID` column"));
    }
}
