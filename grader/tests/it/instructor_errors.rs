//! Instructor mistakes are the grader's errors (exit 2, naming what is wrong and what to do), and hostile
//! submissions that exhaust a resource fail with a reason that says which, while grading finishes.
//!
//! Fixture mistakes stop the grader before any submission runs, so no report is written (a grade computed
//! from a broken data set must not reach a gradebook); `--skip-bad-fixtures` grades anyway and says so in
//! the report.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::{grade, grade_measuring_memory, quick_policy, reference_submission, root};

/// A copy of the bundled fixtures holding only these puzzles (and no metadata).
fn fixtures_with(names: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let bundled = root().join("fixtures/puzzles");
    for name in names {
        std::fs::copy(bundled.join(format!("{name}.txt")), dir.path().join(format!("{name}.txt"))).unwrap();
    }
    dir
}

/// Runs `grader ARGS…` and returns its output.
fn grader(args: &[&str]) -> Output {
    crate::support::grader().args(args).output().expect("the grader runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

const BOARD_1A: [&str; 6] = ["puzzle04", "puzzle00", "puzzle07", "puzzle17", "puzzle27", "puzzle2x2-unsolvable1"];

#[test]
fn an_empty_fixture_directory_stops_grade_and_batch_before_any_report() {
    let empty = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let report = out.path().join("report.json");
    let submission = reference_submission();
    let graded =
        grader(&["grade", path(&submission), "--quiet", "--fixtures", path(empty.path()), "--output", path(&report)]);
    assert_eq!(graded.status.code(), Some(2), "{}", stderr(&graded));
    let said = stderr(&graded);
    assert!(said.contains("holds no puzzle files") && said.contains("point --fixtures at"), "{said}");
    assert!(graded.stdout.is_empty() && !report.exists(), "no report for a grade that could not be computed");

    let class = tempfile::tempdir().unwrap();
    std::fs::copy(&submission, class.path().join("alice")).unwrap();
    let grades = out.path().join("grades");
    let batch = grader(&["batch", path(class.path()), "--output-dir", path(&grades), "--fixtures", path(empty.path())]);
    assert_eq!(batch.status.code(), Some(2), "{}", stderr(&batch));
    assert!(stderr(&batch).contains("holds no puzzle files"), "{}", stderr(&batch));
    assert!(!grades.join("gradebook.csv").exists() && !grades.join("alice.json").exists());
}

#[test]
fn a_class_that_is_not_there_is_said_once_and_leaves_no_output_folder() {
    let out = tempfile::tempdir().unwrap();
    let grades = out.path().join("grades");
    let missing = out.path().join("no-such-class");
    let batch = grader(&["batch", path(&missing), "--output-dir", path(&grades)]);
    assert_eq!(batch.status.code(), Some(2), "{}", stderr(&batch));
    let said = stderr(&batch);
    assert!(said.contains("failed to read the class") && said.matches("(os error 2)").count() == 1, "{said}");
    assert!(!grades.exists(), "no output folder (and no lock file) for a class that is not there");
}

#[test]
fn canvas_options_on_a_class_not_from_canvas_say_why_no_import_is_written() {
    let class = tempfile::tempdir().unwrap();
    std::fs::copy(reference_submission(), class.path().join("alice")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let grades = out.path().join("grades");
    let batch = grader(&[
        "batch",
        path(class.path()),
        "--output-dir",
        path(&grades),
        "--only",
        "board-1a",
        "--allow-partial",
        "--canvas-assignment-id",
        "5",
    ]);
    assert_eq!(batch.status.code(), Some(0), "{}", stderr(&batch));
    assert!(stderr(&batch).contains("no canvas-import.csv: no student of this class came from a Canvas export"));
    assert!(grades.join("gradebook.csv").is_file() && !grades.join("canvas-import.csv").exists());
}

/// A second class graded into the first one's output folder: the first class's reports stay, and the run
/// names them, so the folder is not taken for the second class's reports; a class graded into a folder of
/// its own says nothing of the kind.
#[test]
fn reports_of_another_class_in_the_output_folder_are_named() {
    let (first, second) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::copy(reference_submission(), first.path().join("alice")).unwrap();
    std::fs::copy(reference_submission(), second.path().join("bob")).unwrap();
    let out = tempfile::tempdir().unwrap();
    let grades = out.path().join("grades");
    let batch = |class: &std::path::Path| {
        let args = ["batch", path(class), "--output-dir", path(&grades), "--only", "board-1a", "--allow-partial"];
        let batch = grader(&args);
        assert_eq!(batch.status.code(), Some(0), "{}", stderr(&batch));
        stderr(&batch)
    };
    let said = batch(first.path());
    assert!(!said.contains("not in this class"), "{said}");
    let said = batch(second.path());
    assert!(
        said.contains(
            "also holds 2 reports of students who are not in this class (alice.json, alice.txt: an earlier \
                       run's, left as they were); the gradebook lists this class's students alone"
        ),
        "{said}"
    );
    assert!(grades.join("alice.txt").is_file() && grades.join("bob.txt").is_file());
    let gradebook = std::fs::read_to_string(grades.join("gradebook.csv")).unwrap();
    assert!(gradebook.contains("bob") && !gradebook.contains("alice"), "{gradebook}");
    let said = batch(second.path());
    assert!(said.contains("not in this class (alice.json, alice.txt"), "still there: {said}");
}

/// A Java folder with a Python solver.py beside it is graded as Java, and every report says so.
#[test]
fn a_folder_with_two_languages_files_says_which_was_graded() {
    let mixed = tempfile::tempdir().unwrap();
    crate::support::copy_resolved(&root().join("fixtures/submissions/java/valid"), mixed.path());
    std::fs::copy(root().join("fixtures/submissions/python/valid/solver.py"), mixed.path().join("solver.py")).unwrap();
    let graded = grade(mixed.path(), &["--only", "board-1a"]);
    assert_eq!(graded.json["submission"]["language"], "java", "{}", graded.stderr);
    assert_eq!(
        graded.json["notes"][0],
        "the submission also holds solver.py (Python files): it was graded as Java (Board.java, Solver.java), \
         which the grader tries first; hand in one language's files"
    );
}

#[test]
fn a_fixture_path_that_is_not_a_directory_is_a_grader_error() {
    let file = tempfile::NamedTempFile::new().unwrap();
    let graded = grade(&reference_submission(), &["--fixtures", path(file.path())]);
    assert_eq!(graded.code, 2, "{}", graded.stderr);
    assert!(graded.stderr.contains("does not exist or is not a directory"), "{}", graded.stderr);
    assert!(graded.stderr.contains("point --fixtures at another folder of puzzle files"), "{}", graded.stderr);
}

#[test]
fn a_directory_lacking_files_the_selected_tests_need_stops_before_grading_and_names_them() {
    let fixtures = fixtures_with(&["puzzle00", "puzzle04"]);
    let graded = grade(&reference_submission(), &["--fixtures", path(fixtures.path()), "--only", "board-1a"]);
    assert_eq!(graded.code, 2, "{}", graded.stderr);
    assert!(graded.stderr.contains("lacks 4 files the selected tests need"), "{}", graded.stderr);
    for name in ["puzzle07.txt", "puzzle17.txt", "puzzle27.txt", "puzzle2x2-unsolvable1.txt"] {
        assert!(graded.stderr.contains(name), "{name}: {}", graded.stderr);
    }
    assert!(graded.stderr.contains("--skip-bad-fixtures"), "{}", graded.stderr);
    assert!(graded.json.is_null() && graded.text.is_empty(), "no report");
    // The files of the tests selected are all there: it grades.
    let graded = grade(&reference_submission(), &["--fixtures", path(fixtures.path()), "--only", "board-1b"]);
    assert_eq!(graded.code, 0, "{}", graded.stderr);
}

/// The corrupt files of `corrupt_fixtures`, each with the problem the grader must name.
const CORRUPT: [(&str, &[u8], &str); 4] = [
    ("puzzle07", b"3\n1 2 3\n4 x 6\n7 8 0\n", "puzzle07.txt`: line 3: expected a tile, found `x`"),
    ("puzzle17", b"3\n1 2 3\n4 5 6\n7 8\n", "puzzle17.txt`: line 4: expected 9 tiles after the size, found 8"),
    ("notes", b"3\n1 2 3\n4 5 6\n7 8 0\nsolved by hand\n", "notes.txt`: line 5: unexpected `solved`"),
    ("puzzle27", b"3\n1 2 3\n4 5 \xff\n", "puzzle27.txt`: line 3: the file is not UTF-8 text (byte 0xff)"),
];

/// Board 1a's files, three of them corrupt, and a corrupt extra file.
fn corrupt_fixtures() -> tempfile::TempDir {
    let fixtures = fixtures_with(&BOARD_1A);
    for (name, bytes, _) in CORRUPT {
        std::fs::write(fixtures.path().join(format!("{name}.txt")), bytes).unwrap();
    }
    fixtures
}

#[test]
fn a_corrupt_puzzle_file_stops_the_grader_naming_file_line_and_problem() {
    let fixtures = corrupt_fixtures();
    let graded = grade(&reference_submission(), &["--fixtures", path(fixtures.path()), "--only", "board-1a"]);
    assert_eq!(graded.code, 2, "{}", graded.stderr);
    for (_, _, problem) in CORRUPT {
        assert!(graded.stderr.contains(problem), "{problem}:\n{}", graded.stderr);
    }
    assert!(graded.stderr.contains("4 problems with the puzzle files in"), "{}", graded.stderr);
    assert!(graded.stderr.contains("fix or remove those files, or pass --skip-bad-fixtures"), "{}", graded.stderr);
    assert!(graded.json.is_null() && graded.text.is_empty(), "no report");
}

#[test]
fn with_skip_bad_fixtures_corrupt_files_are_listed_in_the_report_and_grading_goes_on() {
    let fixtures = corrupt_fixtures();
    // Board 1a runs on the three files that load and lists the three corrupt ones as missing; Board 1b
    // needs no file.
    let args = ["--fixtures", path(fixtures.path()), "--skip-bad-fixtures", "--only", "board-1a", "--only", "board-1b"];
    let graded = grade(&reference_submission(), &args);
    assert_eq!(graded.code, 2, "tests lacking inputs make the grade incomplete: {}", graded.stderr);
    let skipped = graded.json["skipped_fixtures"].as_array().expect("skipped_fixtures");
    let files: Vec<&str> = skipped.iter().map(|s| s["file"].as_str().unwrap()).collect();
    assert_eq!(files, ["notes.txt", "puzzle07.txt", "puzzle17.txt", "puzzle27.txt"]);
    assert_eq!(skipped[0]["problem"], "line 5: unexpected `solved` after the 9 tiles of a 3-by-3 board");
    assert_eq!(graded.json["schema_version"], 4);
    assert!(graded.text.contains("GRADER PROBLEM: 4 fixture files could not be used and were skipped"));
    assert!(
        graded.text.contains("  puzzle17.txt: line 4: expected 9 tiles after the size, found 8"),
        "{}",
        graded.text
    );
    assert_eq!(graded.test("board-1b")["status"], "passed");
    // Board 1a still ran on the files that loaded, and names the ones it lacked.
    assert_eq!(graded.test("board-1a")["status"], "passed");
    let missing = graded.json["missing_fixtures"].as_array().unwrap();
    assert_eq!(missing.len(), 3, "{missing:?}");
    // Graded without fixture files: partial, in the report's first line, its score line and its JSON.
    let partial = &graded.json["partial"];
    assert_eq!(partial["without_fixtures"], serde_json::json!(files), "{partial}");
    assert!(
        graded.text.contains("\nPARTIAL RUN: only 3 of the ")
            && graded.text.contains(
                "(--only 'board-1a' 'board-1b'), without notes.txt, puzzle07.txt, puzzle17.txt and 1 more file \
                 (--skip-bad-fixtures) were run; the score is not the assignment's grade (grade without --only, \
                 with every fixture file usable and without --skip-bad-fixtures for that)"
            ),
        "{}",
        graded.text
    );
    assert!(graded.text.contains("Partial score: "), "{}", graded.text);

    // A corrupt file no selected test needs leaves the exit code to the grade.
    let graded = grade(&reference_submission(), &[&args[..3], &["--only", "board-1b"]].concat());
    assert_eq!(graded.code, 0, "{}", graded.stderr);
    assert_eq!(graded.json["skipped_fixtures"].as_array().unwrap().len(), 4);
    // It graded without the corrupt files all the same: the run is partial.
    assert_eq!(graded.json["partial"]["without_fixtures"].as_array().map(Vec::len), Some(4));
}

/// A hostile submission under `fixtures/submissions/hostile/`.
fn hostile(name: &str) -> PathBuf {
    root().join("fixtures/submissions/hostile").join(name)
}

fn message(graded: &crate::support::Graded, id: &str) -> String {
    graded.test(id)["message"].as_str().unwrap_or("").to_string()
}

#[test]
fn a_4_gb_allocation_and_a_capacity_overflow_are_reported_as_running_out_of_memory() {
    let policy = quick_policy();
    let graded = grade(
        &hostile("out-of-memory"),
        &["--policy", policy.to_str().unwrap(), "--only", "board-1a", "--only", "solver-9a", "--only", "solver-12a"],
    );
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    assert_eq!(graded.test("board-1a")["status"], "passed", "the Board is fine");
    // Solver over a 3-by-3 board: `vec![1u8; 4 << 30]` under the 1224 MB address-space limit (200 MB + 1024 MB
    // of slack, the default policy): Rust says so and aborts.
    assert_eq!(graded.test("solver-9a")["status"], "failed");
    assert!(
        message(&graded, "solver-9a")
            .contains("ran out of memory: the limit is 1224 MB (memory allocation of 4294967296 bytes failed)"),
        "{}",
        message(&graded, "solver-9a")
    );
    // Over a 2-by-2 board: `Vec::with_capacity(usize::MAX / 4)` panics with a capacity overflow.
    assert_eq!(graded.test("solver-12a")["status"], "failed");
    assert!(
        message(&graded, "solver-12a").contains("ran out of memory: the limit is 1224 MB (a collection asked for more"),
        "{}",
        message(&graded, "solver-12a")
    );
    assert!(!graded.text.contains("killed by signal 6"), "{}", graded.text);
}

#[test]
fn a_reply_longer_than_the_protocol_allows_fails_with_reply_too_long_and_grading_finishes() {
    let policy = quick_policy();
    let graded = grade(
        &hostile("reply-too-long/run.sh"),
        &["--policy", policy.to_str().unwrap(), "--only", "board-1a", "--only", "board-2a"],
    );
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    assert_eq!(graded.test("board-1a")["status"], "failed");
    assert!(
        message(&graded, "board-1a").contains(
            "reply too long: the program printed a line longer than 16 MiB, the protocol's limit for one reply"
        ),
        "{}",
        message(&graded, "board-1a")
    );
    // After three lost processes in a row the grader stops restarting it, so the next test fails at once.
    assert_eq!(graded.test("board-2a")["status"], "failed");
    assert!(graded.text.contains("ASSESSMENT SUMMARY"));
}

#[test]
fn a_gigabyte_of_stderr_is_drained_and_kept_bounded_with_its_start_and_end() {
    let _built = reference_submission();
    let policy = quick_policy();
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("report.json");
    let text = out.path().join("report.txt");
    let flood = hostile("stderr-flood/run.sh");
    let args = [
        "grade",
        path(&flood),
        "--quiet",
        "--policy",
        policy.to_str().unwrap(),
        "--only",
        "board-1a",
        "--format",
        "json",
        "--output",
        path(&json),
        "--format",
        "text",
        "--output",
        path(&text),
    ];
    let measured = grade_measuring_memory(&args, &[]);
    let (code, peak_kib) = (measured.code, measured.tree_peak_kib);
    assert_eq!(code, 1, "its answers are nonsense, and grading finishes");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let output = report["output"].as_str().unwrap();
    assert_eq!(report["output_truncated"], true);
    // 64 KiB kept of one 1 GiB flood per start and a line: the first 32 KiB, a line saying how much was left
    // out, the last 32 KiB.
    let flood = (1u64 << 30) + "flood: done after 1 GiB\n".len() as u64;
    let left_out: u64 = output
        .split("… (")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a line saying how much was left out");
    assert_eq!((left_out + (64 << 10)) % flood, 0, "whole floods, one per start: {left_out}");
    let gap = format!("\n… ({left_out} bytes of standard error left out) …\n");
    assert_eq!(output.len(), (64 << 10) + gap.len(), "bytes kept");
    assert!(output.contains(&gap), "{}", &output[(32 << 10) - 40..(32 << 10) + 120]);
    assert!(output.starts_with("flood: the same line again and again\n"));
    assert!(output.ends_with("flood: the flood: done after 1 GiB\n"), "the end is kept (`head -c` cut a line)");
    let text = std::fs::read_to_string(&text).unwrap();
    assert!(text.contains("flood: done after 1 GiB") && text.contains("(output truncated)"), "{text}");
    // Nothing near a gigabyte was held: the grader and its processes peaked far below (about 100 MB here).
    assert!(peak_kib < 512 << 10, "peak resident memory {peak_kib} KiB");
}

/// A mistyped `--only` used to grade the build alone and print "Aggregate score: 100.00%" (exit 0): each
/// pattern that matches no test is now a usage error, in `grade` and `batch` alike, naming the closest ids,
/// and nothing is graded or written.
#[rstest::rstest]
#[case::a_prefix_with_a_typo(&["bord-*"], "--only 'bord-*' matches no test. Did you mean 'board-*'? (`grader catalog`")]
#[case::an_id_past_the_last(&["board-99"], "--only 'board-99' matches no test. Did you mean 'board-9'?")]
#[case::the_second_of_two(&["board-1a", "solvr-1"], "--only 'solvr-1' matches no test. Did you mean 'solver-1'?")]
fn a_mistyped_only_is_a_usage_error_naming_the_closest_ids(#[case] patterns: &[&str], #[case] says: &str) {
    let only: Vec<&str> = patterns.iter().flat_map(|p| ["--only", p]).collect();
    let graded = grade(&reference_submission(), &only);
    assert_eq!(graded.code, 2, "{}", graded.stderr);
    assert!(graded.stderr.contains(says), "{}", graded.stderr);
    assert!(graded.json.is_null() && graded.text.is_empty(), "no report");

    let class = tempfile::tempdir().unwrap();
    let out = class.path().join("grades");
    let batch = crate::batch::batch_in(class.path(), &out, &only, &[]);
    assert_eq!(batch.code, 2, "{}", batch.stderr);
    assert!(batch.stderr.contains(says), "{}", batch.stderr);
    assert!(!out.exists(), "nothing is written");
}
