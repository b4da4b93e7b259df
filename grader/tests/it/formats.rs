//! Every format is structurally valid on a real run: Gradescope's required fields and types, well-formed
//! JUnit XML, Markdown with the score; on gallery submissions, Gradescope's points add up exactly and every
//! format carries the compiler's output.

use std::path::Path;
use std::process::Command;

use crate::support::{gallery_entry, quick_policy, reference_submission};

fn render(format: &str) -> String {
    render_of(&reference_submission(), format, &["--only", "board-1a", "--only", "solver-2a"]).0
}

/// Grades `submission` into `format`; returns the rendering and the exit code.
fn render_of(submission: &Path, format: &str, extra: &[&str]) -> (String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let status = Command::new(env!("CARGO_BIN_EXE_grader"))
        .arg("grade")
        .arg(submission)
        .args(["--quiet", "--format", format, "--output"])
        .arg(&out)
        .args(extra)
        .status()
        .unwrap();
    assert!(matches!(status.code(), Some(0 | 1)), "grading {} as {format} ended with {status}", submission.display());
    (std::fs::read_to_string(out).unwrap(), status.code().unwrap())
}

fn cents(value: &serde_json::Value) -> i64 {
    (value.as_f64().unwrap() * 100.0).round() as i64
}

/// A failing Rust submission (its API test does not apply; Board 10a's null tests neither): one Gradescope
/// test per official test, their maxima adding up to exactly 100 and their scores to the top-level score.
#[test]
fn gradescope_points_add_up_exactly_on_a_failing_rust_submission() {
    let (submission, _copy) = gallery_entry("rust/hamming-counts-blank");
    let policy = quick_policy();
    let (text, code) = render_of(&submission, "gradescope", &["--policy", policy.to_str().unwrap()]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = json["tests"].as_array().unwrap();
    let max: i64 = tests.iter().map(|t| cents(&t["max_score"])).sum();
    let score: i64 = tests.iter().map(|t| cents(&t["score"])).sum();
    assert_eq!(max, 10_000, "{text}");
    assert_eq!(score, cents(&json["score"]));
    assert!(score < 10_000 && score > 0);
    let numbers: Vec<&str> = tests.iter().map(|t| t["number"].as_str().unwrap()).collect();
    assert!(numbers.contains(&"api") && !numbers.contains(&"api-1"), "{numbers:?}");
    assert!(numbers.iter().all(|n| !n.contains('/')), "rows are grouped into their tables: {numbers:?}");
    assert!(numbers.contains(&"timing-2") && numbers.contains(&"memory-board"), "{numbers:?}");
}

/// A compile error's output reaches the student in every format.
#[rstest::rstest]
#[case::gradescope("gradescope")]
#[case::junit("junit")]
#[case::markdown("markdown")]
#[case::html("html")]
#[case::text("text")]
fn the_compilers_output_is_in_every_format(#[case] format: &str) {
    let (submission, _copy) = gallery_entry("java/compile-error");
    let (text, code) = render_of(&submission, format, &[]);
    assert_eq!(code, 1);
    assert!(text.contains("Solver.java") && text.contains("error:"), "{format}:\n{text}");
}

#[test]
fn gradescope_results_have_the_required_fields() {
    let json: serde_json::Value = serde_json::from_str(&render("gradescope")).unwrap();
    assert!(json["score"].is_number() && json["execution_time"].is_number() && json["output"].is_string());
    let tests = json["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    for t in tests {
        for field in ["score", "max_score"] {
            assert!(t[field].is_number(), "{field} in {t}");
        }
        for field in ["status", "name", "number", "output", "visibility"] {
            assert!(t[field].is_string(), "{field} in {t}");
        }
        assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
    }
}

#[test]
fn junit_is_well_formed_xml_with_one_suite_per_category() {
    let xml = render("junit");
    assert!(xml.starts_with("<?xml"));
    let suites = xml.matches("<testsuite ").count();
    assert_eq!(suites, 3, "compile, board, solver:\n{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), xml.matches("</testsuite>").count());
    assert_eq!(xml.matches("<testcase ").count(), 3);
}

#[test]
fn markdown_shows_the_score() {
    let md = render("markdown");
    assert!(md.contains("**Score: 65.00 / 65.00 (100.0%)**"), "{md}");
    assert!(md.contains("| Correctness: Board | 1 | 0 | 0 | 0 | 30.00 / 30.00 |"), "{md}");
}
