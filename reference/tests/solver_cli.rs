//! The `solver` test client end to end: the assignment's output, one-line errors naming file and line, and
//! never a panic on any input.

use std::io::Write;
use std::process::{Command, Stdio};

use proptest::prelude::*;

fn run(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_solver"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).ok();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

#[test]
fn prints_the_solution_like_the_assignment_test_client() {
    let (code, out, _) = run(&["-"], b"3\n0 1 3\n4 2 5\n7 8 6\n");
    assert_eq!(code, 0);
    assert!(
        out.starts_with("Minimum number of moves = 4\n3\n 0  1  3 \n 4  2  5 \n 7  8  6 \n3\n 1  0  3 \n"),
        "{out}"
    );
    assert!(out.ends_with("3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n"));
    let (code, out, _) = run(&["-"], b"2\n2 1\n3 0\n");
    assert_eq!((code, out.as_str()), (0, "No solution possible\n"));
}

#[test]
fn stats_go_to_stderr_one_name_value_per_line() {
    let (_, _, err) = run(&["--stats", "-"], b"3\n0 1 3\n4 2 5\n7 8 6\n");
    assert_eq!(
        err,
        "inserts: 20\ndel_mins: 9\nmax_queue_size: 6\nboards_constructed: 25\nequals_calls: 20\nmanhattan_calls: 29\n"
    );
}

#[test]
fn a_malformed_file_gets_one_line_naming_the_file_and_line_and_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzle04.txt");
    std::fs::write(&file, "3\n0 1 3\n4 2 5\n7 8\n").unwrap();
    let (code, out, err) = run(&[file.to_str().unwrap()], b"");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("puzzle04.txt") && err.contains("line 4: expected 9 tiles after the size, found 8"), "{err}");
    let (code, _, err) = run(&["--bogus"], b"");
    assert_eq!(code, 2);
    assert!(err.contains("usage"), "{err}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn never_panics_on_garbage(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let (code, _, err) = run(&["-"], &bytes);
        prop_assert!(code == 0 || code == 2, "exit {code}: {err}");
        prop_assert!(!err.contains("panicked"), "{err}");
    }

    #[test]
    fn never_panics_on_numeric_garbage(nums in proptest::collection::vec(-2i64..12, 0..20)) {
        let text = nums.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
        let (code, _, err) = run(&["-"], text.as_bytes());
        prop_assert!(code == 0 || code == 2, "exit {code}: {err}");
        prop_assert!(!err.contains("panicked"), "{err}");
    }
}
