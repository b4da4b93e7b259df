//! Every format is structurally valid on a real run: Gradescope's required fields and types, well-formed
//! JUnit XML, Markdown with the score.

use std::process::Command;

use crate::support::reference_submission;

fn render(format: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let status = Command::new(env!("CARGO_BIN_EXE_grader"))
        .arg("grade")
        .arg(reference_submission())
        .args(["--quiet", "--only", "board-1a", "--only", "solver-2a", "--format", format, "--output"])
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(out).unwrap()
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
