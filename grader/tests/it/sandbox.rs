//! Hostile submissions (`fixtures/submissions/hostile/`): each attack fails, the report says why where the
//! submission's own output can show it, the grader finishes, and nothing the submission started is left
//! running. A process left behind is found by the marker in its arguments (`sleep 4244.NNNN`).

use std::io::ErrorKind;
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use crate::support::{grade, quick_policy, root, Graded};

fn hostile(name: &str) -> PathBuf {
    root().join("fixtures/submissions/hostile").join(name)
}

/// Live processes anywhere on the machine with `marker` among their arguments.
fn processes_with(marker: &str) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let cmdline = std::fs::read(entry.path().join("cmdline")).ok()?;
            let state = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            let zombie = state.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
            (cmdline.split(|&b| b == 0).any(|arg| arg == marker.as_bytes()) && !zombie).then_some(pid)
        })
        .collect()
}

/// The submission's captured standard error, as the report shows it.
fn output(graded: &Graded) -> String {
    graded.json["output"].as_str().unwrap_or_default().to_owned()
}

fn grade_quickly(submission: &Path) -> Graded {
    let policy = quick_policy();
    let graded = grade(submission, &["--policy", policy.to_str().unwrap(), "--only", "board-1a"]);
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    assert!(graded.text.contains("ASSESSMENT SUMMARY"));
    graded
}

#[test]
fn a_submission_cannot_read_answers_or_policy_write_fixtures_or_find_the_graders_command_line() {
    let graded = grade_quickly(&hostile("snoops/submission.sh"));
    let output = output(&graded);
    assert!(!output.contains("LEAK"), "{output}");
    for attempt in [
        "reading puzzles.toml",
        "reading the policy",
        "writing into the fixtures",
        "finding the grader's command line",
        "listing other submissions",
    ] {
        assert!(output.contains(&format!("blocked: {attempt}")), "{attempt}: {output}");
    }
    assert!(!root().join("fixtures/puzzles/puzzle99-hostile.txt").exists());
}

#[test]
fn a_setsid_child_waiting_to_rewrite_the_report_dies_with_the_submission() {
    let graded = grade_quickly(&hostile("rewrites-report/submission.sh"));
    assert_eq!(processes_with("4244.0201"), Vec::<u32>::new(), "the setsid child outlived the grading");
    assert_eq!(graded.test("board-1a")["status"], "failed");
    assert_ne!(graded.json["score"]["points"], 100.0);
}

#[test]
fn two_hundred_children_stop_at_the_process_limit_and_none_survives() {
    let graded = grade_quickly(&hostile("fork-bomb/submission.sh"));
    let output = output(&graded);
    assert!(output.contains("Cannot fork"), "{output}");
    assert!(!output.contains("started 200 of 200"), "{output}");
    assert_eq!(graded.test("compile-1")["status"], "passed", "the handshake needs no fork");
    assert_eq!(processes_with("4244.0301"), Vec::<u32>::new());
}

#[test]
fn a_submission_has_no_network() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let copy = tempfile::tempdir().unwrap();
    let submission = copy.path().join("submission.sh");
    let script = std::fs::read_to_string(hostile("network/submission.sh")).unwrap();
    std::fs::write(&submission, script.replace("\nport=9\n", &format!("\nport={port}\n"))).unwrap();
    std::fs::set_permissions(&submission, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let graded = grade_quickly(&submission);
    let output = output(&graded);
    assert!(!output.contains("LEAK"), "{output}");
    assert!(output.contains(&format!("blocked: connecting to 127.0.0.1/{port}")), "{output}");
    assert!(output.contains("blocked: connecting to 1.1.1.1/80"), "{output}");
    let accepted = listener.accept().map(|_| ()).map_err(|e| e.kind());
    assert_eq!(accepted, Err(ErrorKind::WouldBlock), "the submission reached the grader's machine");
}

/// A build script that leaves a `setsid sleep` holding cargo's pipe would keep a build waiting for ever;
/// the grader builds a Rust submission's `src/` only, in a workspace of its own, so the script never runs
/// (and were a build step to hang, `limits.build_seconds` would stop it with everything it started).
#[test]
fn a_build_script_leaving_a_setsid_child_never_runs() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.toml");
    std::fs::write(&policy, "[limits]\nbuild_seconds = 20\n").unwrap();
    let graded = grade(&hostile("setsid-build"), &["--policy", policy.to_str().unwrap(), "--only", "board-1a"]);
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    assert_eq!(graded.test("compile-1")["status"], "failed");
    let log = graded.json["compile_log"].as_str().unwrap_or_default();
    assert!(log.contains("submission_main!") && !log.contains("did not finish"), "{log}");
    assert_eq!(processes_with("4244.0101"), Vec::<u32>::new(), "the build script ran");
}
