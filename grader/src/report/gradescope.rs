//! Gradescope's `results.json` (the autograder specification): top-level `score`, `execution_time`,
//! `output`, and `tests[]` with `score`, `max_score`, `status`, `name`, `number`, `output`, `visibility`.
//!
//! One Gradescope test per official test ([`super::entries`]): a table such as Timing 2 is one test with its
//! rows in the output, tests that do not apply are left out, and points are whole cents that add up exactly,
//! so the tests' `max_score`s sum to the report's maximum and the top-level `score` is the sum of the tests'.
//! Tests the policy hides are shown `after_due_date`, and nothing else tells of them before then ([`render`]).
//! The compiler's output, when the build failed, is in the top-level output. `execution_time` is the run's
//! wall time, the only non-deterministic field. Student text in any output shows its control characters as
//! codes ([`visible`]): Gradescope shows outputs as text. A run that is not graded scores 0, with `Not graded:
//! REASON` as the first line of the output and no test.

use serde::Serialize;

use super::entries::{entries, Entry};
use super::visible;
use super::withheld::mask_hidden;
use crate::results::{Report, TestResult};

#[derive(Serialize)]
struct Results<'a> {
    score: f64,
    execution_time: u64,
    output: String,
    stdout_visibility: &'static str,
    tests: Vec<GsTest<'a>>,
}

#[derive(Serialize)]
struct GsTest<'a> {
    score: f64,
    max_score: f64,
    status: &'static str,
    name: String,
    number: &'a str,
    output: String,
    visibility: &'static str,
}

/// Renders `results.json`.
///
/// Nothing a student sees before the due date tells of a hidden test: the top-level output gives the score
/// of the visible tests (the aggregate would tell how the hidden ones went), a visible test's output names
/// no hidden test, and `stdout_visibility` holds back the autograder's standard output too while tests are
/// hidden (`run_autograder` prints the visible tests alone there anyway).
pub fn render(report: &Report) -> String {
    let entries = entries(report);
    let hidden = report.hidden_ids();
    let tests: Vec<GsTest> = entries
        .iter()
        .map(|e| GsTest {
            score: dollars(e.score_cents),
            max_score: dollars(e.max_cents),
            status: if e.passed() { "passed" } else { "failed" },
            name: e.name.clone(),
            number: &e.id,
            output: visible::block(&if e.hidden { entry_output(e) } else { mask_hidden(&entry_output(e), &hidden) })
                .into_owned(),
            visibility: if e.hidden { "after_due_date" } else { "visible" },
        })
        .collect();
    let score: u64 = entries.iter().map(|e| e.score_cents).sum();
    let max: u64 = entries.iter().map(|e| e.max_cents).sum();
    let mut output = if let Some(line) = report.not_graded_line() {
        // Gradescope needs a score: 0, with the reason as the output's first line (not "contact the staff").
        let mut said = vec![line];
        if !report.details.files.is_empty() {
            let files: Vec<&str> = report.details.files.iter().map(|f| f.name.as_str()).collect();
            said.push(format!("The files handed in: {}.", files.join(", ")));
        }
        visible::block(&said.join("\n")).into_owned()
    } else if hidden.is_empty() {
        format!(
            "Aggregate score: {:.2} / {:.2}. The full report is below each test; run `grader explain ID` locally \
             for hints.",
            dollars(score),
            dollars(max)
        )
    } else {
        let visible = entries.iter().filter(|e| !e.hidden);
        let (score, max) = visible.fold((0, 0), |(s, m), e| (s + e.score_cents, m + e.max_cents));
        // counted as every report counts tests (a table's rows each), so every place says the same number
        let held = match hidden.len() {
            1 => "1 test is".to_string(),
            n => format!("{n} tests are"),
        };
        format!(
            "Score of the visible tests: {:.2} / {:.2}. {held} hidden until the due date, and the aggregate score \
             with them. The report is below each test; run `grader explain ID` locally for hints.",
            dollars(score),
            dollars(max)
        )
    };
    if let Some(partial) = &report.partial {
        let score =
            output.strip_prefix("Aggregate score").map_or(output.clone(), |rest| format!("Partial score{rest}"));
        output = format!("{}\n{score}", partial.headline());
    }
    for note in &report.notes {
        output.push_str(&format!("\nNote: {}", visible::block(note)));
    }
    if let Some(style) = &report.details.style {
        output.push_str(&format!("\nStyle (0 points): {}", style.verdicts()));
    }
    if !report.missing_fixtures.is_empty() {
        output.push_str(&format!(
            "\nGRADER PROBLEM (not the submission's): the fixture directory lacks {}.",
            report.missing_fixtures.join(", ")
        ));
    }
    if !report.machine_stalls.is_empty() {
        output.push_str(&format!("\nGRADER PROBLEM (not the submission's): {}", report.stalls_line()));
    }
    if let Some(log) = &report.compile_log {
        output.push_str("\n\nThe compiler's output:\n");
        output.push_str(&visible::block(log));
    }
    let results = Results {
        score: dollars(score),
        execution_time: report.timings.wall_ms.div_ceil(1000),
        output,
        stdout_visibility: if hidden.is_empty() { "visible" } else { "after_due_date" },
        tests,
    };
    let mut text = serde_json::to_string_pretty(&results).unwrap_or_default();
    text.push('\n');
    text
}

fn dollars(cents: u64) -> f64 {
    cents as f64 / 100.0
}

fn entry_output(entry: &Entry) -> String {
    match entry.tests.as_slice() {
        [] => format!("{:.2} of {:.2} points", dollars(entry.score_cents), dollars(entry.max_cents)),
        [one] if one.row.is_none() => test_output(one),
        rows => {
            let mut lines: Vec<String> = rows[0].inputs.iter().map(|i| format!("* {i}")).collect();
            lines.extend(rows[0].columns.clone());
            for t in rows {
                let shown = t.rows.first().cloned().unwrap_or_else(|| t.row.clone().unwrap_or_default());
                lines.push(format!(
                    "=> {:<6} {shown}",
                    if t.status == crate::results::Status::Passed { "passed" } else { t.status.word() }
                ));
            }
            for t in rows.iter().filter(|t| !t.message.is_empty()) {
                lines.push(format!("{}:", t.row.as_deref().unwrap_or(&t.id)));
                lines.extend(t.message.lines().map(|l| format!("  {l}")));
            }
            let (passed, of) = entry.tally();
            lines.push(format!("==> {passed}/{of} rows passed"));
            lines.join("\n")
        }
    }
}

fn test_output(t: &TestResult) -> String {
    let mut lines: Vec<String> = t.inputs.iter().map(|i| format!("* {i}")).collect();
    lines.extend(t.rows.iter().cloned());
    if !t.message.is_empty() {
        lines.push(t.message.clone());
    }
    lines.push(format!("==> {}", t.status.word()));
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Weights;
    use crate::results::Category;
    use crate::results::{Score, Status, Submission};

    fn test(id: String, category: Category, status: Status) -> TestResult {
        TestResult {
            row: id.split_once('/').map(|(_, row)| row.to_string()),
            official: Some(id.clone()),
            title: "a test".into(),
            ..TestResult::bare(&id, category, status)
        }
    }

    /// A Rust submission as the official catalog grades it: the API is the compiler's (its test does not
    /// apply), two Board tests do not apply (null, foreign types), 52 - 2 correctness tests with a few
    /// failures, 22 memory rows, 125 timing rows, beyond tests worth nothing.
    fn rust_report(failing_every: usize) -> Report {
        let mut tests = vec![
            test("compile-1".into(), Category::Compile, Status::Passed),
            test("api-1".into(), Category::Api, Status::NotApplicable),
        ];
        for i in 0..26 {
            let status = if i == 3 || i == 4 {
                Status::NotApplicable
            } else if i % failing_every == 1 {
                Status::Failed
            } else {
                Status::Passed
            };
            tests.push(test(format!("board-{i}"), Category::Board, status));
        }
        for i in 0..26 {
            let status = if i % failing_every == 2 { Status::Skipped } else { Status::Passed };
            tests.push(test(format!("solver-{i}"), Category::Solver, status));
        }
        for (table, rows) in [("memory-board", 10), ("memory-solver-1", 6), ("memory-solver-2", 6)] {
            for r in 0..rows {
                let status = if r % failing_every == 0 { Status::Failed } else { Status::Passed };
                tests.push(test(format!("{table}/n={r}"), Category::Memory, status));
            }
        }
        for table in ["timing-1", "timing-2", "timing-3", "timing-4a", "timing-4b"] {
            for r in 20..45 {
                let status = if r % failing_every == 0 { Status::Failed } else { Status::Passed };
                tests.push(test(format!("{table}/puzzle{r}"), Category::Timing, status));
            }
        }
        tests.push(test("beyond-pair".into(), Category::Beyond, Status::Failed));
        let score: Score = crate::score::score(&mut tests, &Weights::default());
        Report {
            submission: Submission { name: "s".into(), language: "rust".into() },
            seed: 1,
            score,
            tests,
            ..Report::default()
        }
    }

    #[test]
    fn scores_add_up_exactly_and_match_the_report() {
        for failing_every in [3, 4, 5, 7, 11, 1000] {
            let report = rust_report(failing_every);
            let json: serde_json::Value = serde_json::from_str(&render(&report)).unwrap();
            let tests = json["tests"].as_array().unwrap();
            let cents = |v: &serde_json::Value| (v.as_f64().unwrap() * 100.0).round() as i64;
            let max: i64 = tests.iter().map(|t| cents(&t["max_score"])).sum();
            let score: i64 = tests.iter().map(|t| cents(&t["score"])).sum();
            assert_eq!(max, 10_000, "every point of the 100 is carried by a test (failing every {failing_every})");
            assert_eq!(score, cents(&json["score"]), "the top-level score is the tests' sum");
            assert_eq!(score, (report.score.total * 100.0).round() as i64, "and the report's own total");
            for t in tests {
                assert!(cents(&t["score"]) <= cents(&t["max_score"]), "{t}");
            }
            let numbers: Vec<&str> = tests.iter().map(|t| t["number"].as_str().unwrap()).collect();
            assert!(
                !numbers.contains(&"api-1") && !numbers.contains(&"board-3"),
                "tests that do not apply are left out"
            );
            assert!(numbers.contains(&"api"), "the compiler's API points are an entry of their own");
            assert_eq!(numbers.iter().filter(|n| n.starts_with("timing-")).count(), 5, "one entry per timing table");
            assert_eq!(numbers.iter().filter(|n| n.starts_with("memory-")).count(), 3, "one entry per memory table");
        }
    }

    #[test]
    fn nothing_visible_tells_of_a_hidden_test() {
        let mut report = rust_report(3);
        for test in report.tests.iter_mut().filter(|t| t.id.starts_with("solver-1")) {
            test.hidden = true;
        }
        let skipped = report.tests.iter_mut().find(|t| t.id == "solver-20").unwrap();
        skipped.status = Status::Skipped;
        skipped.message = "skipped: it depends on solver-1, which did not pass".into();
        let json: serde_json::Value = serde_json::from_str(&render(&report)).unwrap();
        let output = json["output"].as_str().unwrap();
        assert!(output.starts_with("Score of the visible tests: ") && !output.contains("Aggregate"), "{output}");
        assert!(output.contains(" 11 tests are hidden until the due date"), "{output}");
        assert_eq!(json["stdout_visibility"], "after_due_date");
        for test in json["tests"].as_array().unwrap().iter().filter(|t| t["visibility"] == "visible") {
            let shown = test["output"].as_str().unwrap();
            assert!(!shown.contains("solver-1,") && !shown.contains("solver-1 "), "{shown}");
        }
        let solver_20 = json["tests"].as_array().unwrap().iter().find(|t| t["number"] == "solver-20").unwrap();
        assert!(solver_20["output"].as_str().unwrap().contains("it depends on a test hidden until the due date"));
    }

    /// However many Gradescope entries they make, hidden tests are counted as every report counts them: a
    /// hidden table of 25 rows is 25 tests in Gradescope's output and in the text, HTML and Markdown reports.
    #[test]
    fn the_hidden_tests_are_counted_alike_everywhere() {
        let mut report = rust_report(3);
        for test in report.tests.iter_mut().filter(|t| t.id.starts_with("timing-2/") || t.id == "solver-11") {
            test.hidden = true;
        }
        let json: serde_json::Value = serde_json::from_str(&render(&report)).unwrap();
        assert!(json["output"].as_str().unwrap().contains(" 26 tests are hidden until the due date"), "{json}");
        let visible = report.without_hidden();
        assert_eq!(visible.withheld, 26);
        let shown = [
            crate::report::text::render(&visible, false, false),
            crate::report::html::render(&visible),
            crate::report::markdown::render(&visible),
        ];
        for shown in shown {
            assert!(shown.contains("26 tests hidden until the due date"), "{shown}");
        }
    }

    #[test]
    fn the_compilers_output_is_in_the_top_level_output() {
        let mut report = rust_report(1000);
        report.compile_log = Some("error[E0425]: cannot find value `x`".into());
        let json: serde_json::Value = serde_json::from_str(&render(&report)).unwrap();
        assert!(json["output"].as_str().unwrap().contains("cannot find value `x`"));
    }
}
