//! Gradescope's `results.json` (the autograder specification): top-level `score`, `execution_time`,
//! `output`, and `tests[]` with `score`, `max_score`, `status`, `name`, `number`, `output`, `visibility`.
//!
//! Points come from the policy's weights through the results; tests the policy hides are shown
//! `after_due_date`. `execution_time` is the run's wall time, the only non-deterministic field.

use serde::Serialize;

use crate::results::{Report, Status};

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
pub fn render(report: &Report) -> String {
    let tests = report
        .tests
        .iter()
        .map(|t| GsTest {
            score: t.score,
            max_score: t.max_score,
            status: if t.status == Status::Passed { "passed" } else { "failed" },
            name: match &t.official {
                Some(official) => format!("{official}: {}", t.title),
                None => t.title.clone(),
            },
            number: &t.id,
            output: test_output(t),
            visibility: if t.hidden { "after_due_date" } else { "visible" },
        })
        .collect();
    let results = Results {
        score: report.score.total,
        execution_time: report.timings.wall_ms.div_ceil(1000),
        output: format!(
            "Aggregate score: {:.2} / {:.2}. The full report is below each test; run `grader explain ID` locally for hints.",
            report.score.total, report.score.max
        ),
        stdout_visibility: "visible",
        tests,
    };
    let mut text = serde_json::to_string_pretty(&results).unwrap_or_default();
    text.push('\n');
    text
}

fn test_output(t: &crate::results::TestResult) -> String {
    let mut lines: Vec<String> = t.inputs.iter().map(|i| format!("* {i}")).collect();
    lines.extend(t.rows.iter().cloned());
    if !t.message.is_empty() {
        lines.push(t.message.clone());
    }
    lines.push(format!("==> {}", t.status.word()));
    lines.join("\n")
}
