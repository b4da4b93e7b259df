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
        "inserts: 20\ndel_mins: 9\nmax_queue_size: 12\nboards_constructed: 25\nequals_calls: 20\nmanhattan_calls: 29\n"
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
    assert!(err.to_lowercase().contains("usage"), "{err}");
}

#[test]
fn help_and_version_are_flags_not_files() {
    for flag in ["-h", "--help"] {
        let (code, out, err) = run(&[flag], b"");
        assert_eq!(code, 0, "{err}");
        for mode in ["--moves", "--optimal", "--goal", "--stats", "--max-boards", "--pdb-cache", "compare"] {
            assert!(out.contains(mode), "{flag} does not mention {mode}:\n{out}");
        }
    }
    let (code, out, _) = run(&["--version"], b"");
    assert_eq!((code, out.as_str()), (0, concat!("solver ", env!("CARGO_PKG_VERSION"), "\n")));
    let (code, out, _) = run(&["compare", "--help"], b"");
    assert_eq!(code, 0);
    assert!(out.contains("--random") && out.contains("--seed") && out.contains("--size"), "{out}");
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn moves_prints_the_issue_strings_one_line_per_file() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        write(&dir, "a.txt", "3\n1 2 3\n4 6 8\n7 5 0\n"),
        write(&dir, "b.txt", "4 3\n1 3 0\n4 2 6\n7 5 8\n10 11 9\n"),
        write(&dir, "c.txt", "4\n1 2 3 4\n5 6 7 8\n9 10 11 0\n13 14 15 12\n"),
        write(&dir, "d.txt", "3\n1 2 3\n4 6 8\n5 7 0\n"),
    ];
    let mut args = vec!["--moves"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = run(&args, b"");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "ULDR\nLDDRD\nD\nNo solution possible\n");
}

#[test]
fn rectangular_boards_and_other_goals_print_the_assignment_output() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(&["--stats", "-"], b"2 3\n1 2 3\n4 0 5\n");
    assert_eq!(code, 0);
    assert_eq!(err, "expanded: 1\ngenerated: 3\n");
    assert_eq!(out, "Minimum number of moves = 1\n2 3\n 1  2  3 \n 4  0  5 \n2 3\n 1  2  3 \n 4  5  0 \n");
    let goal = write(&dir, "goal.txt", "2 3\n1 2 3\n4 0 5\n");
    let (_, out, _) = run(&["--goal", &goal, "--moves", "-"], b"2 3\n1 2 3\n4 5 0\n");
    assert_eq!(out, "L\n");
    // Unsolvable towards that goal: said at once, by parity.
    let (code, out, _) = run(&["--goal", &goal, "-"], b"2 3\n2 1 3\n4 5 0\n");
    assert_eq!((code, out.as_str()), (0, "No solution possible\n"));
    let (code, _, err) = run(&["--goal", &goal, "-"], b"3\n1 2 3\n4 5 6\n7 8 0\n");
    assert_eq!(code, 2);
    assert!(err.contains("the goal is 2x3 but the puzzle is 3x3"), "{err}");
}

#[test]
fn a_search_past_its_budget_gives_up_with_a_hint_and_status_1() {
    let hard = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/puzzles/puzzle4x4-46-hard.txt");
    let (code, out, err) = run(&["--max-boards", "20000", hard], b"");
    assert_eq!(code, 1);
    assert!(out.is_empty());
    assert!(err.starts_with("solver: gave up after ") && err.trim_end().ends_with("; try --optimal"), "{err}");
    let (code, _, err) = run(&["--max-boards", "10", "-"], b"3 4\n0 1 2 3\n4 5 6 7\n8 9 10 11\n");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("gave up after 10 boards"), "{err}");
}

#[test]
fn compare_prints_the_table_with_equal_lengths() {
    let (code, out, err) = run(&["compare", "--random", "5", "--seed", "3", "--size", "2x3"], b"");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<Vec<String>> = out.lines().map(|l| l.split('|').map(|c| c.trim().to_string()).collect()).collect();
    assert_eq!(lines[0], ["algorithm", "expanded", "generated", "length", "time", "peak memory"]);
    assert_eq!(lines.len(), 5);
    let lengths: Vec<&str> = lines[1..].iter().map(|row| row[3].as_str()).collect();
    assert!(lengths.iter().all(|l| *l == lengths[0] && l.parse::<u32>().is_ok()), "{out}");
    let (code, out, _) = run(&["compare", "-"], b"3\n1 2 3\n4 6 8\n7 5 0\n");
    assert_eq!(code, 0);
    assert!(out.lines().skip(1).all(|l| l.split('|').nth(3).unwrap().trim() == "4"), "{out}");
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

#[test]
fn optimal_solves_many_files_one_line_each() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(&dir, "a.txt", "3\n8 6 7\n2 5 4\n3 0 1\n");
    let b = write(&dir, "b.txt", "2 3\n2 1 3\n4 5 0\n");
    let cache = dir.path().join("cache");
    let (code, out, err) = run(&["--optimal", "--pdb-cache", cache.to_str().unwrap(), &a, &b], b"");
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(&format!("{a}: 31 moves ")), "{out}");
    assert_eq!(lines[1], format!("{b}: No solution possible"));
    assert!(err.starts_with("solved 2 puzzles in "), "{err}");
    let (code, _, err) = run(&["--optimal", "--max-boards", "100", &a], b"");
    assert_eq!(code, 1);
    assert!(err.contains("gave up after expanding 100 positions"), "{err}");
}

/// Under an address-space limit (a container's, a course server's `ulimit -v`), the default budget is half
/// of what the process may use, so a search too big for it gives up with its message instead of failing an
/// allocation and aborting.
#[test]
fn the_default_budget_keeps_within_the_address_space_limit() {
    use std::os::unix::process::CommandExt;
    let hard = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/puzzles/puzzle4x4-hard1.txt");
    let limit: u64 = 120 << 20;
    let mut command = Command::new(env!("CARGO_BIN_EXE_solver"));
    command.arg(hard);
    // SAFETY: setrlimit is async-signal-safe, and the closure touches no memory but its own copy of `limit`.
    unsafe {
        command.pre_exec(move || {
            let rlimit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            match libc::setrlimit(libc::RLIMIT_AS, &rlimit) {
                0 => Ok(()),
                _ => Err(std::io::Error::last_os_error()),
            }
        });
    }
    let out = command.output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let about =
        err.split("(about ").nth(1).and_then(|rest| rest.split(" MB)").next()).and_then(|mb| mb.parse::<f64>().ok());
    assert!(about.is_some_and(|mb| mb < 120.0 / 2.0 * 1.1), "the budget is about half the limit: {err}");
}
