//! The reference submission passes every applicable test, and its reports are deterministic.

use crate::support::{grade, reference_submission};

#[test]
fn the_reference_submission_passes_everything_and_reports_are_reproducible() {
    let submission = reference_submission();
    let first = grade(&submission, &["--seed", "7"]);
    assert_eq!(first.code, 0, "the reference should pass:\n{}\n{}", first.text, first.stderr);
    let not_passed: Vec<_> =
        first.statuses().into_iter().filter(|(_, s)| s != "passed" && s != "not_applicable").collect();
    assert!(not_passed.is_empty(), "{not_passed:?}");
    assert_eq!(first.json["score"], first.json["max_score"]);
    assert_eq!(first.json["max_score"], 100.0);
    // Same submission, same seed: byte-identical JSON and text.
    let second = grade(&submission, &["--seed", "7"]);
    assert_eq!(first.json_text, second.json_text);
    assert_eq!(first.text, second.text);
    insta::assert_snapshot!("reference_text_report", without_executable_size(&first.text));
}

/// The report with the executable's size in its list of files (`  6.8M reference-submission`) written
/// `[SIZE]`: it depends on the compiler and the profile, not on the grader.
fn without_executable_size(report: &str) -> String {
    let line = |l: &str| match l.trim_start().split_once(' ') {
        Some((_, "reference-submission")) => "  [SIZE] reference-submission".to_string(),
        _ => l.to_string(),
    };
    report.split('\n').map(line).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_executables_size_is_left_out_of_the_snapshot_and_nothing_else() {
    let report = "Submission:  reference-submission (rust)\n  6.8M reference-submission\n\n695.3K other";
    assert_eq!(
        without_executable_size(report),
        "Submission:  reference-submission (rust)\n  [SIZE] reference-submission\n\n695.3K other"
    );
}

#[test]
fn rust_cannot_express_null_or_foreign_equals_so_those_tests_do_not_apply() {
    let graded =
        grade(&reference_submission(), &["--only", "board-10*", "--only", "solver-10b", "--only", "solver-11"]);
    for id in ["solver-10b", "solver-11"] {
        assert_eq!(graded.test(id)["status"], "not_applicable", "{id}");
        assert_eq!(graded.test(id)["max_score"], 0.0, "{id}");
    }
    // 10a asks the items of equals()'s contract that Rust can express (not null, not a foreign type).
    assert_eq!(graded.test("board-10a")["status"], "passed");
}

#[test]
fn with_skip_bad_fixtures_a_directory_lacking_official_inputs_is_a_grader_error_named_in_the_report() {
    // Without --skip-bad-fixtures the grader stops before grading (tests/it/instructor_errors.rs).
    let fixtures = tempfile::tempdir().unwrap();
    let bundled = crate::support::root().join("fixtures/puzzles");
    std::fs::copy(bundled.join("puzzle00.txt"), fixtures.path().join("puzzle00.txt")).unwrap();
    let empty = fixtures;
    let only = ["--only", "board-1a", "--only", "timing-2/puzzle20", "--skip-bad-fixtures"];
    let graded = grade(&reference_submission(), &[&["--fixtures", empty.path().to_str().unwrap()][..], &only].concat());
    assert_eq!(graded.code, 2, "{}", graded.stderr);
    assert!(graded.stderr.contains("puzzle04.txt") && graded.stderr.contains("puzzle20.txt"), "{}", graded.stderr);
    assert!(graded.text.contains("GRADER PROBLEM: the fixture directory has no usable"), "{}", graded.text);
    assert_eq!(graded.test("timing-2/puzzle20")["status"], "error");
    let missing = graded.json["missing_fixtures"].as_array().unwrap();
    assert!(missing.iter().any(|m| m == "puzzle2x2-unsolvable1.txt"), "{missing:?}");
}
