//! One submission cannot take down the grader, the machine or a classmate (`fixtures/submissions/hostile/`):
//! replies of 12 MiB leave the grader under its documented memory bound, and a submission's disk, native
//! memory and CPU end at its budgets with one clear line, leaving nothing behind (no process, control group
//! or file). A program that stops itself or waits for ever stays the student's failure, never a stall of the
//! machine.

use std::path::Path;

use serde_json::Value;

use crate::support::{gallery_entry, grade_measuring_memory, policy_with, quick_policy, Measured};

/// The most memory the grader's own process holds while grading any submission, in MiB (ARCHITECTURE.md,
/// "What a submission can cost the grader"; these floods measure about 45 MiB).
const GRADER_PEAK_BOUND_MIB: u64 = 256;

/// Grades `submission` with `policy` and the `--only` tests, measuring memory, in `tmpdir` if given (where
/// every scratch directory and the grader's work directory then go); returns the run and its JSON report.
fn grade(submission: &Path, policy: &Path, only: &[&str], tmpdir: Option<&Path>) -> (Measured, Value) {
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("report.json");
    let mut args = vec!["grade", submission.to_str().unwrap(), "--quiet", "--timings"];
    args.extend(["--policy", policy.to_str().unwrap(), "--format", "json", "--output", json.to_str().unwrap()]);
    for id in only {
        args.extend(["--only", id]);
    }
    let env: Vec<(&str, &str)> = tmpdir.map(|dir| ("TMPDIR", dir.to_str().unwrap())).into_iter().collect();
    let measured = grade_measuring_memory(&args, &env);
    let report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap_or_default()).unwrap_or(Value::Null);
    assert!(report.is_object(), "the report is written: {}", measured.stderr);
    (measured, report)
}

fn message<'a>(report: &'a Value, id: &str) -> &'a str {
    let tests = report["tests"].as_array().unwrap();
    tests.iter().find(|t| t["id"] == id).and_then(|t| t["message"].as_str()).unwrap_or_default()
}

fn status<'a>(report: &'a Value, id: &str) -> &'a str {
    let tests = report["tests"].as_array().unwrap();
    tests.iter().find(|t| t["id"] == id).and_then(|t| t["status"].as_str()).unwrap_or_default()
}

/// Nothing the run left behind: no control group of the grader's (`npuzzle-sandbox-PID-…`) and no process
/// whose command line names `submission`.
fn assert_left_nothing(measured: &Measured, submission: &Path) {
    let prefix = format!("npuzzle-sandbox-{}-", measured.pid);
    let cgroup = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    for line in cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else { continue };
        for controller in controllers.split(',').filter(|c| ["memory", "pids"].contains(c)) {
            let dir = Path::new("/sys/fs/cgroup").join(controller).join(path.trim_start_matches('/'));
            let left: Vec<_> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .filter_map(Result::ok)
                .filter(|entry| entry.file_name().to_string_lossy().starts_with(&prefix))
                .collect();
            assert!(left.is_empty(), "control groups left behind: {left:?}");
        }
    }
    let named = submission.to_string_lossy().into_owned();
    let alive: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
        .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
        .filter(|cmdline| cmdline.contains(&named))
        .collect();
    assert!(alive.is_empty(), "processes left behind: {alive:?}");
}

/// The Python Board whose hamming() and twin() raise 12 MiB messages (it took the grader to 21.6 GB) and
/// whose __str__ is 12 MiB, and the Java Board whose hamming() throws a 12 MiB message and whose toString()
/// is 12 MiB too: every message is kept by its start and its end (the sealed Python adapter cuts an
/// exception's message to 4096 characters itself; the grader cuts the rest), and the grader's own peak stays
/// under its bound.
#[rstest::rstest]
#[case::python("hostile/python/flood", "x… (at board.py:14)", None)]
// "flood: ", 12 MiB, " :end of the flood", " (at Board.java:63)": all but the 4 KiB kept are left out
#[case::java("hostile/java/flood", "x :end of the flood (at Board.java:63)", Some("(12578860 bytes left out)"))]
fn a_flood_of_twelve_mib_replies_keeps_the_grader_under_its_memory_bound(
    #[case] entry: &str,
    #[case] thrown_end: &str,
    #[case] left_out: Option<&str>,
) {
    let (submission, _copy) = gallery_entry(entry);
    let (measured, report) = grade(&submission, &quick_policy(), &["board-1a", "board-4a"], None);
    assert_eq!(measured.code, 1, "{}", measured.stderr);
    let thrown = message(&report, "board-1a");
    assert!(thrown.len() < 8 << 10, "{} bytes kept of a 12 MiB message", thrown.len());
    assert!(thrown.contains("flood: xxxx") && thrown.ends_with(thrown_end), "the start and the end: {thrown:.300}");
    if let Some(left_out) = left_out {
        assert!(thrown.contains(left_out), "{thrown:.300}");
    }
    let text = message(&report, "board-4a");
    assert!(text.starts_with("failed on trial 1") && text.contains("toString() is wrong"), "{text:.300}");
    assert!(text.len() < 4 << 10, "{text}");
    let peak = measured.grader_peak_mib.expect("--timings prints the grader's peak memory");
    assert!(peak < GRADER_PEAK_BOUND_MIB, "the grader peaked at {peak} MiB");
    assert_left_nothing(&measured, &submission);
}

/// A Python Board that writes 1 GiB into its working directory as it is imported stops at the scratch
/// directory's size (a tmpfs, and a file-size limit), and nothing of it is left on the host's disk.
#[test]
fn a_gigabyte_written_at_import_stops_at_the_scratch_space_and_leaves_no_file() {
    let (submission, _copy) = gallery_entry("hostile/python/disk-filler");
    let tmp = tempfile::tempdir().unwrap();
    let (measured, report) = grade(&submission, &quick_policy(), &["board-1a", "board-2a"], Some(tmp.path()));
    assert_eq!(measured.code, 1, "{}", measured.stderr);
    for id in ["board-1a", "board-2a"] {
        let why = message(&report, id);
        let full = why.contains("No space left on device") || why.contains("File too large");
        assert!(full && why.contains("may write at most 64 MB") && why.contains("`limits.scratch_mb`"), "{why}");
    }
    let written: u64 = walkdir::WalkDir::new(tmp.path())
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|file| file.metadata().ok())
        .filter(|meta| meta.is_file())
        .map(|meta| meta.len())
        .sum();
    assert!(written < 4 << 20, "{written} bytes left in TMPDIR (the grader's adapter copy is about 100 KB)");
    assert_left_nothing(&measured, &submission);
}

/// A Java Board that fills 4 GiB of native memory (four threads with 1 GiB stacks) under a 256 MB heap ends
/// at its memory group: the heap plus `limits.runtime_margin_mb`. Where the machine has no memory groups
/// (played here by `GRADER_SANDBOX_WITHOUT_CGROUPS`), the JVM runs under an address-space limit instead, its
/// reservations bounded, and the second thread's stack cannot even be mapped. (`Unsafe.allocateMemory`, this
/// entry's first attack, is out of the sealed adapter's reach: `forging.rs`.)
#[rstest::rstest]
#[case::memory_group(
    false,
    "ran out of memory: the limit is 768 MB for all its processes together, native memory included"
)]
#[case::address_space(true, "ran out of memory: unable to create native thread")]
fn native_memory_beyond_the_heap_ends_at_the_memory_limit(#[case] without_cgroups: bool, #[case] said: &str) {
    let (submission, _copy) = gallery_entry("hostile/java/native-memory");
    let (_dir, policy) = policy_with("java_heap_mb = 256");
    let out = tempfile::tempdir().unwrap();
    let json = out.path().join("report.json");
    let mut args = vec!["grade", submission.to_str().unwrap(), "--quiet", "--only", "board-1a", "--policy"];
    args.extend([policy.to_str().unwrap(), "--format", "json", "--output", json.to_str().unwrap()]);
    let env: &[(&str, &str)] = if without_cgroups { &[("GRADER_SANDBOX_WITHOUT_CGROUPS", "1")] } else { &[] };
    let measured = grade_measuring_memory(&args, env);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(measured.code, 1, "{}", measured.stderr);
    assert_eq!(status(&report, "board-1a"), "failed");
    let why = message(&report, "board-1a");
    assert!(why.contains(said), "{why}");
    assert!(measured.tree_peak_kib < 1 << 20, "no process got past 1 GiB: {} KiB", measured.tree_peak_kib);
    assert_left_nothing(&measured, &submission);
}

/// A Java Solver that fills its heap (no critical optimization, puzzle30, a 64 MB heap) runs out of memory as
/// its own failure, said so: the collector gives up ("GC overhead limit exceeded") while the Solver's queues
/// are still held for the span's end, and used to throw again as the adapter built the reply, ending the
/// process with nothing said but "crashed: exited with status 0".
#[test]
fn a_solver_that_fills_its_heap_runs_out_of_memory_and_says_so() {
    let (submission, _copy) = gallery_entry("java/no-critical-optimization");
    let cpu = "solve_cpu_seconds = 5.0\nrequest_cpu_seconds = 5.0";
    let (_dir, policy) = policy_with(&format!("java_heap_mb = 64\n{cpu}"));
    let (measured, report) = grade(&submission, &policy, &["memory-solver-2/puzzle30"], None);
    assert_eq!(measured.code, 1, "{}", measured.stderr);
    assert_eq!(status(&report, "memory-solver-2/puzzle30"), "failed");
    let why = message(&report, "memory-solver-2/puzzle30");
    assert!(why.contains("ran out of memory: ") && why.contains(" (heap 64 MB)"), "{why}");
    let output = report["output"].as_str().unwrap_or_default();
    assert!(!output.contains("Exception in thread"), "the worker answered, and lived: {output}");
    assert_left_nothing(&measured, &submission);
}

/// A Python Solver that fills its address space with small objects (no critical optimization; 128 MB, of which
/// the interpreter and its request thread's 64 MB stack take about 95: below 100 it cannot start) fails
/// each row that runs out as its own `MemoryError`, and the server answers the rows after it: its queue
/// tracking held the search, and the server, unable to read its next request, used to end with status 3, that
/// row reading "crashed" and its traceback the adapter's.
#[test]
fn a_python_solver_that_fills_its_memory_fails_alone_and_the_server_goes_on() {
    let (submission, _copy) = gallery_entry("hostile/python/fills-memory");
    let (_dir, policy) = policy_with("java_heap_mb = 128\nsolve_cpu_seconds = 3.0\nrequest_cpu_seconds = 3.0");
    let (measured, report) = grade(&submission, &policy, &["memory-solver-2"], None);
    assert_eq!(measured.code, 1, "{}", measured.stderr);
    let tests = report["tests"].as_array().unwrap();
    let said = |t: &Value| t["message"].as_str().unwrap_or_default().to_string();
    let out_of_memory =
        tests.iter().filter(|t| said(t).contains("threw MemoryError: out of memory (address space 128 MB)"));
    assert!(out_of_memory.count() >= 2, "{report}");
    assert!(tests.iter().all(|t| !said(t).contains("crashed")), "{report}");
    let output = report["output"].as_str().unwrap_or_default();
    assert!(!output.contains("Traceback"), "the server answered, and lived: {output}");
    assert_left_nothing(&measured, &submission);
}

/// A Java Board whose class starts 100 spinning daemon threads answers right, only slowly: the budget of the
/// correctness tests counts every thread, so the test running ends there and the section's other tests fail
/// with one line (the other sections keep budgets of their own: `grade::budgets`).
#[test]
fn spinning_threads_end_at_their_sections_cpu_budget_and_the_rest_of_it_fails_with_one_line() {
    let (submission, _copy) = gallery_entry("hostile/java/spinners");
    // 1 s: the spinners' CPU grows with the request thread's progress (it gets a hundredth of the sandbox's
    // share, whatever the load). The four file-input tests took about 3 s of it, but once 1.37 s in all, the
    // JVM's start included, and none ran out (its request thread had raced ahead of the spinners); Board 1b's
    // random boards, up to 100-by-100, are many times their work, so the budget ends a test in every run
    let (_dir, policy) = policy_with("section_cpu_seconds = { correctness = 1.0 }");
    let only = ["board-1a", "board-1b", "board-2a", "board-3", "board-4a"];
    let (measured, report) = grade(&submission, &policy, &only, None);
    assert_eq!(measured.code, 1, "{}", measured.stderr);
    let line = "timed out on the CPU budget of the API and correctness tests: the submission's processes used more \
                than 1 s of CPU time in them (`limits.section_cpu_seconds.correctness`), so the rest of them are \
                not run; the other sections have budgets of their own";
    let first = only.iter().position(|id| message(&report, id).contains(line));
    let first = first.unwrap_or_else(|| panic!("the budget ended a test: {report}"));
    for id in &only[first + 1..] {
        assert_eq!((status(&report, id), message(&report, id)), ("failed", line), "{id}");
    }
    assert_left_nothing(&measured, &submission);
}

/// A Java Board whose 90 threads wake together every 25 ms and spin a few microseconds, and whose hamming()
/// then hangs, fails board-1a as its own time-out (exit 1): a crowd of its own threads is no evidence that the
/// machine kept it from running (`runner::stall`), and nothing of it reads as the grader's problem.
#[test]
fn a_crowd_of_its_own_threads_is_no_stall_of_the_machine() {
    let (submission, _copy) = gallery_entry("hostile/java/crowd");
    let (_dir, policy) = policy_with("request_cpu_seconds = 0.2");
    let (measured, report) = grade(&submission, &policy, &["board-1a"], None);
    assert_eq!(measured.code, 1, "not the grader's problem: {}", measured.stderr);
    assert!(report.get("machine_stalls").is_none(), "{report}");
    assert_eq!(status(&report, "board-1a"), "failed");
    let waited = message(&report, "board-1a");
    assert!(waited.contains("timed out on its wall-clock limit: the program did not answer within 3 s"), "{waited}");
    assert!(!measured.stderr.contains("stalled"), "{}", measured.stderr);
    assert_left_nothing(&measured, &submission);
}

/// A Board that sends itself SIGSTOP (refused by the sandbox) and one that waits for ever fail as the
/// student's own: an exception, and a time-out that says it was the wall-clock limit. Neither is a stall.
#[test]
fn a_program_that_stops_itself_or_waits_for_ever_fails_on_its_own_account() {
    let (submission, _copy) = gallery_entry("hostile/python/stops-itself");
    let (_dir, policy) = policy_with("request_cpu_seconds = 0.2\npython_cpu_scale = 1.0");
    let (measured, report) = grade(&submission, &policy, &["board-1a", "board-7a"], None);
    assert_eq!(measured.code, 1, "not the grader's problem: {}", measured.stderr);
    assert!(report.get("machine_stalls").is_none(), "{report}");
    let stopped = message(&report, "board-1a");
    assert!(stopped.contains("threw PermissionError: [Errno 1] Operation not permitted"), "{stopped}");
    let waited = message(&report, "board-7a");
    assert!(waited.contains("timed out on its wall-clock limit: the program did not answer within 3 s"), "{waited}");
    assert!(!measured.stderr.contains("stalled"), "{}", measured.stderr);
    assert_left_nothing(&measured, &submission);
}
