//! Programs that misbehave fail *their* tests with a readable cause, and the report is still complete.

use crate::support::{gallery_entry, grade, quick_policy, root, with_cpu_limit};

fn program(name: &str) -> std::path::PathBuf {
    root().join("fixtures/submissions/programs").join(name)
}

fn gallery(name: &str) -> (std::path::PathBuf, Option<tempfile::TempDir>) {
    gallery_entry(&format!("rust/{name}"))
}

fn message(graded: &crate::support::Graded, id: &str) -> String {
    graded.test(id)["message"].as_str().unwrap_or("").to_string()
}

#[test]
fn garbage_on_the_protocol_channel_fails_tests_and_the_report_is_complete() {
    let policy = quick_policy();
    let graded = grade(
        &program("garbage.sh"),
        &["--policy", policy.to_str().unwrap(), "--only", "board-1a", "--only", "solver-2a"],
    );
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    for id in ["board-1a", "solver-2a"] {
        assert_eq!(graded.test(id)["status"], "failed", "{id}");
        assert!(message(&graded, id).contains("garbage on the protocol channel"), "{id}: {}", message(&graded, id));
    }
    assert!(graded.text.contains("ASSESSMENT SUMMARY"));
}

/// A request's wall-clock cap is five times its CPU limit plus 2 s, all of it spent waiting on a program that
/// sleeps: with a quarter of a second of CPU, 3.25 s a test rather than 12 s (the two tests had taken 24 s of
/// the suite's wall time, issue 36).
#[test]
fn a_program_that_hangs_times_out_and_grading_finishes() {
    let policy = with_cpu_limit(&quick_policy(), 0.25);
    let graded = grade(
        &program("hangs.sh"),
        &["--policy", policy.to_str().unwrap(), "--only", "board-1a", "--only", "board-2a"],
    );
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    assert_eq!(graded.test("board-1a")["status"], "failed");
    assert!(message(&graded, "board-1a").contains("timed out"), "{}", message(&graded, "board-1a"));
    assert_eq!(graded.test("board-2a")["status"], "failed");
}

#[test]
fn a_crash_mid_solve_fails_the_solves_it_crashed_in_and_nothing_else() {
    let policy = quick_policy();
    let (crash_mid_solve, _copy) = gallery("crash-mid-solve");
    let graded =
        grade(&crash_mid_solve, &["--policy", policy.to_str().unwrap(), "--only", "board-2a", "--only", "solver-2a"]);
    assert_eq!(graded.test("board-2a")["status"], "passed");
    assert_eq!(graded.test("solver-2a")["status"], "failed");
    assert!(message(&graded, "solver-2a").contains("crashed"), "{}", message(&graded, "solver-2a"));
}

#[test]
fn prints_to_stdout_do_not_corrupt_the_protocol_and_are_shown() {
    let policy = quick_policy();
    let (chatty, _copy) = gallery("chatty");
    let graded = grade(&chatty, &["--policy", policy.to_str().unwrap(), "--only", "solver-2a", "--only", "board-4a"]);
    assert_eq!(graded.code, 0, "{}\n{}", graded.text, graded.stderr);
    assert!(!graded.json["output"].as_str().unwrap_or("").is_empty(), "the student's prints should be in the report");
}

/// Board 9, 11 and 12 compare a board with its own earlier answers (OFFICIAL-TESTS.md section 9), yet still
/// catch what they are for: a Board that keeps the caller's array fails 11 alone; one whose tiles are a class
/// attribute, shared by every board, fails 9 (the first board's hamming() follows the second's tiles) and 12
/// (building the neighbors overwrites the tiles). Python Boards edited from the gallery's valid one (cheap to
/// start).
#[rstest::rstest]
#[case::keeps_the_callers_array(&[("self._tiles = tuple(tuple(row) for row in tiles)", "self._tiles = tiles")], &["board-11"])]
#[case::shares_its_tiles(
    &[
        ("self._tiles = tuple(tuple(row) for row in tiles)", "Board._tiles = tuple(tuple(row) for row in tiles)"),
        ("return self._hamming\n", "return sum(t not in (0, i + 1) for i, t in enumerate(sum(self._tiles, ())))\n"),
    ],
    &["board-12", "board-9"],
)]
fn the_immutability_tests_catch_a_kept_array_and_shared_tiles(
    #[case] edits: &[(&str, &str)],
    #[case] failing: &[&str],
) {
    let valid = root().join("fixtures/submissions/python/valid");
    let mut board = std::fs::read_to_string(valid.join("board.py")).unwrap();
    for (from, to) in edits {
        assert!(board.contains(from), "{from:?} is in the valid board.py");
        board = board.replacen(from, to, 1);
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("board.py"), board).unwrap();
    std::fs::copy(valid.join("solver.py"), dir.path().join("solver.py")).unwrap();
    let policy = quick_policy();
    let only = ["--only", "board-9", "--only", "board-11", "--only", "board-12"];
    let graded = grade(dir.path(), &[&["--policy", policy.to_str().unwrap()], &only[..]].concat());
    assert_eq!(graded.failed_ids(), failing, "{}", graded.text);
}
