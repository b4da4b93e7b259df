//! Grades do not depend on the machine's load. A busy machine is played deterministically: the test stops
//! the submission's process group from outside (`SIGSTOP`, as a machine busy elsewhere or an operator might)
//! past its wall-clock net, then resumes it. The probe (`fixtures/submissions/programs/stall-probe`, the
//! valid Python Board) holds a file named `stall-probe-0.4244` open for 0.4244 s in the first hamming() of
//! each process, which the test finds by that open file: stopped once, board-1a is replayed in a fresh
//! process and the report is the one an unstopped run writes; stopped twice, the test is the grader's
//! problem, named at the top of the report, which is no final grade (its score is none), and the grader
//! exits 2 with the report written.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::policy_with;
use crate::support::{gallery_entry, grader};

/// The probe's marker: the name of the file it holds open.
const MARKER: &str = "stall-probe-0.4244";

/// The process ids of live processes below `grader` holding [`MARKER`] open (tests run at once: another
/// test's probe is not this one's).
fn markers(grader: u32) -> Vec<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pid = entry.file_name().to_str()?.parse::<u32>().ok()?;
            let open = std::fs::read_dir(entry.path().join("fd")).ok()?;
            let mut links = open.filter_map(Result::ok).filter_map(|fd| std::fs::read_link(fd.path()).ok());
            links.any(|target| target.file_name().is_some_and(|name| name == MARKER)).then_some(pid)
        })
        .filter(|&pid| descends_from(pid, grader))
        .collect()
}

/// Whether `grader` is an ancestor of `pid`.
fn descends_from(mut pid: u32, grader: u32) -> bool {
    while pid > 1 {
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { return false };
        let parent = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok());
        match parent {
            Some(parent) if parent == grader => return true,
            Some(parent) => pid = parent,
            None => return false,
        }
    }
    false
}

/// What a run did: its exit code, standard error and JSON report.
struct Stalled {
    code: i32,
    stderr: String,
    json: String,
}

/// Grades the probe's board-1a (requests get 0.2 s of CPU, so a 3 s wall-clock net), stopping the process
/// group of each of the first `stops` markers that appear until the grader has gone on without it, then
/// resuming them all.
fn grade_stopping(probe: &Path, stops: usize) -> Stalled {
    let (_dir, policy) = policy_with("request_cpu_seconds = 0.2\npython_cpu_scale = 1.0");
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("report.json");
    let mut grader = grader()
        .args(["grade", probe.to_str().unwrap(), "--quiet", "--only", "board-1a", "--policy"])
        .arg(&policy)
        .args(["--format", "json", "--output"])
        .arg(&json)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let since = Instant::now();
    let mut stopped: Vec<(u32, libc::pid_t)> = Vec::new();
    while grader.try_wait().unwrap().is_none() {
        assert!(since.elapsed() < Duration::from_secs(300), "the grader did not finish");
        for pid in markers(grader.id()) {
            if stopped.len() < stops && !stopped.iter().any(|(seen, _)| *seen == pid) {
                // SAFETY: plain system calls on a process of this test's own grader.
                let group = unsafe { libc::getpgid(pid as libc::pid_t) };
                if group > 0 && unsafe { libc::killpg(group, libc::SIGSTOP) } == 0 {
                    stopped.push((pid, group));
                }
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    for (_, group) in &stopped {
        // SAFETY: as above; the group is gone already if the grader ended it (ESRCH), which is fine.
        unsafe { libc::killpg(*group, libc::SIGCONT) };
    }
    assert_eq!(stopped.len(), stops, "the probe was stopped as often as planned");
    let output = grader.wait_with_output().unwrap();
    Stalled {
        code: output.status.code().unwrap_or(-1),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        json: std::fs::read_to_string(&json).unwrap_or_default(),
    }
}

#[test]
fn a_test_stalled_once_is_replayed_in_a_fresh_process_and_the_report_does_not_change() {
    let (probe, _copy) = gallery_entry("programs/stall-probe");
    let quiet = grade_stopping(&probe, 0);
    assert_eq!(quiet.code, 0, "{}", quiet.stderr);
    let stalled = grade_stopping(&probe, 1);
    assert_eq!(stalled.code, 0, "{}", stalled.stderr);
    // the grader's log names the test and what the watch saw: the probe's threads stopped from outside
    assert!(
        stalled.stderr.contains(
            "stalled the submission during board-1a (it was stopped from outside its sandbox (SIGSTOP)); replaying \
             the test"
        ),
        "{}",
        stalled.stderr
    );
    assert_eq!(stalled.json, quiet.json, "the replay gives the report an unstalled run gives");
    let report: serde_json::Value = serde_json::from_str(&stalled.json).unwrap();
    let shown = report["output"].as_str().unwrap();
    assert_eq!(shown.matches("probe: the first hamming()").count(), 1, "the stalled attempt's output is forgotten");
}

#[test]
fn a_test_stalled_twice_is_the_graders_problem_named_at_the_top_of_the_report() {
    let (probe, _copy) = gallery_entry("programs/stall-probe");
    let stalled = grade_stopping(&probe, 2);
    assert_eq!(stalled.code, 2, "{}", stalled.stderr);
    let report: serde_json::Value = serde_json::from_str(&stalled.json).expect("the report is written");
    assert_eq!(report["machine_stalls"], serde_json::json!(["board-1a"]));
    let test = report["tests"].as_array().unwrap().iter().find(|t| t["id"] == "board-1a").unwrap();
    assert_eq!(test["status"], "error");
    assert!(test["message"].as_str().unwrap().contains("a grader problem, not yours"), "{test}");
    assert!(stalled.stderr.contains("grader: the machine stalled the submission twice in a row during board-1a"));
    // No final grade: the score is none, and a batch's row says why and leaves the LMS cell empty (lib tests of
    // `batch::worker::Grade` and `class::ungraded_exit`).
    assert_eq!((report["score"].is_null(), report["not_graded"]["because"].as_str()), (true, Some("machine_stalled")));
}
