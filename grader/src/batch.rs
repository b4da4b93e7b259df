//! Grading a whole class: every student [`crate::intake`] found, a few at a time, one report per student and
//! a gradebook (CSV and JSON).
//!
//! The tests depend on the fixtures, the seed, the policy and `--only`, never on the student, so the caller
//! prepares one [`TestPlan`] and every grading thread borrows it: the boards, exact distances and reference
//! baselines are worked out once per batch, and every student is asked exactly the same questions.
//!
//! One student's build failure, crash or grader error becomes that student's row; it never stops the batch.
//! Verdicts rest on counts, not times, so grading in parallel gives the same grades as grading serially.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Serialize, Serializer};

use crate::catalog::Category;
use crate::grade::{grade_prepared, TestPlan};
use crate::intake::Student;
use crate::output::write_atomically;
use crate::report::{self, Format};
use crate::results::{Report, Status};

/// One gradebook row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The submission's folder or file name.
    pub student: String,
    /// Aggregate score, or `None` when the grader could not grade it.
    pub score: Option<f64>,
    /// Points per category, in catalog order (`compile`, `api`, `board`, …); an object keyed by name in JSON.
    #[serde(serialize_with = "as_object")]
    pub categories: Vec<(String, f64)>,
    /// Ids of tests that failed or errored.
    pub failed: Vec<String>,
    /// Why the grader could not grade it, if so.
    pub error: Option<String>,
}

/// The categories as a JSON object in catalog order (`{"compile": 5.0, "api": 5.0, …}`).
fn as_object<S: Serializer>(categories: &[(String, f64)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(categories.iter().map(|(name, points)| (name, points)))
}

/// Where reports go and in which formats: `<student>.<extension>` in `dir` for each format (the name made safe
/// as a file name).
pub struct Reports<'a> {
    /// Where each student's reports and the class gradebook are written.
    pub dir: &'a Path,
    /// The formats; two that share an extension (JSON and Gradescope) overwrite each other, the later wins.
    pub formats: &'a [Format],
}

/// Grades every student against `plan` with `jobs` at a time, writes their reports, and returns the
/// gradebook rows in the students' order. `work_dir` is where builds may keep outputs and caches.
pub fn grade_all(students: &[Student], plan: &TestPlan, work_dir: &Path, jobs: usize, out: &Reports<'_>) -> Vec<Row> {
    let next = AtomicUsize::new(0);
    let rows = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(student) = students.get(i) else { break };
                let row = grade_one(student, plan, work_dir, out);
                rows.lock().unwrap_or_else(|e| e.into_inner()).push((i, row));
            });
        }
    });
    let mut rows = rows.into_inner().unwrap_or_else(|e| e.into_inner());
    rows.sort_by_key(|(i, _)| *i);
    rows.into_iter().map(|(_, row)| row).collect()
}

fn grade_one(student: &Student, plan: &TestPlan, work_dir: &Path, out: &Reports<'_>) -> Row {
    let file = crate::intake::path_component(&student.name);
    let (student, path) = (student.name.clone(), &student.path);
    match grade_prepared(plan, path, work_dir, &mut |_| {}) {
        Ok(report) => {
            // the student's processes are all gone: grade_prepared returns after the last sandbox is reaped
            let written = out.formats.iter().try_for_each(|&format| {
                let path = out.dir.join(format!("{file}.{}", format.extension()));
                write_atomically(&path, report::render(&report, format, false))
            });
            let mut row = row_of(&student, &report);
            if let Err(e) = written {
                row.error = Some(format!("failed to write the report: {e}"));
            }
            row
        }
        Err(e) => Row { student, score: None, categories: vec![], failed: vec![], error: Some(e.to_string()) },
    }
}

/// The gradebook row of a report.
pub fn row_of(student: &str, report: &Report) -> Row {
    let failed = report
        .tests
        .iter()
        .filter(|t| matches!(t.status, Status::Failed | Status::Error))
        .map(|t| t.id.clone())
        .collect();
    Row {
        student: student.to_string(),
        score: Some(report.score.total),
        categories: report.score.categories.iter().map(|c| (c.category.name().to_string(), c.points)).collect(),
        failed,
        error: None,
    }
}

/// The gradebook as CSV: student, one column per category, score, failed test ids, error.
pub fn csv(rows: &[Row]) -> String {
    let mut out = String::from("student");
    for c in Category::ALL {
        out.push(',');
        out.push_str(c.name());
    }
    out.push_str(",score,failed,error\n");
    for row in rows {
        out.push_str(&quote(&row.student));
        for c in Category::ALL {
            let points = row.categories.iter().find(|(n, _)| n == c.name()).map(|(_, p)| format!("{p:.2}"));
            out.push(',');
            out.push_str(&points.unwrap_or_default());
        }
        let score = row.score.map(|s| format!("{s:.2}")).unwrap_or_default();
        out.push_str(&format!(
            ",{score},{},{}\n",
            quote(&row.failed.join(" ")),
            quote(row.error.as_deref().unwrap_or(""))
        ));
    }
    out
}

/// A CSV field, quoted when it needs to be.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Policy;

    /// The plan is made before any student is graded and only borrowed after: the fixture directory is gone
    /// by the time the class is graded, yet every student is graded on the boards planned from it (a student
    /// graded from a fresh plan would get a "failed to load fixtures" row instead).
    #[test]
    fn the_class_is_graded_from_the_one_plan_prepared_before_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let fixtures = tempfile::tempdir().unwrap();
        for t in 0..=13 {
            let name = format!("puzzle{t:02}.txt");
            std::fs::copy(root.join("fixtures/puzzles").join(&name), fixtures.path().join(&name)).unwrap();
        }
        let plan = TestPlan::prepare(fixtures.path(), 1, Policy::default(), &["solver-2a".into()], Default::default())
            .unwrap();
        drop(fixtures);
        let class = tempfile::tempdir().unwrap();
        for student in ["ada", "bob"] {
            std::fs::copy(root.join("fixtures/submissions/programs/garbage.sh"), class.path().join(student)).unwrap();
        }
        std::fs::create_dir(class.path().join("cy")).unwrap();
        let (work, out) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());

        let scratch = tempfile::tempdir().unwrap();
        let students = crate::intake::gather(class.path(), scratch.path(), Default::default()).unwrap().students;
        let formats = [Format::Text, Format::Json, Format::Html];
        let rows = grade_all(&students, &plan, work.path(), 2, &Reports { dir: out.path(), formats: &formats });

        for (row, student) in rows.iter().zip(["ada", "bob"]) {
            assert_eq!((row.student.as_str(), &row.error), (student, &None));
            assert_eq!(row.failed, ["solver-2a"]);
            let json = std::fs::read_to_string(out.path().join(format!("{student}.json"))).unwrap();
            assert!(json.contains("puzzle13.txt") && !json.contains("(missing)"), "{json}");
            let html = std::fs::read_to_string(out.path().join(format!("{student}.html"))).unwrap();
            assert!(html.starts_with("<!DOCTYPE html>") && html.contains("solver-2a"));
        }
        assert!(rows[2].error.as_deref().is_some_and(|e| e.contains("is not a submission")), "{:?}", rows[2]);
    }

    #[test]
    fn csv_quotes_fields_and_leaves_ungraded_rows_empty() {
        let rows = vec![
            Row {
                student: "ada".into(),
                score: Some(97.5),
                categories: vec![("compile".into(), 5.0), ("board".into(), 30.0)],
                failed: vec!["board-5a".into(), "timing-2/puzzle36".into()],
                error: None,
            },
            Row {
                student: "bob, jr".into(),
                score: None,
                categories: vec![],
                failed: vec![],
                error: Some("not a \"submission\"".into()),
            },
        ];
        let text = csv(&rows);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "student,compile,api,board,solver,memory,timing,beyond,score,failed,error");
        assert_eq!(lines[1], "ada,5.00,,30.00,,,,,97.50,board-5a timing-2/puzzle36,");
        assert_eq!(lines[2], "\"bob, jr\",,,,,,,,,,\"not a \"\"submission\"\"\"");
    }
}
