//! Hostile Python submissions (`fixtures/submissions/hostile/python/`): each reaches for the grader's side of
//! the process (its counters, its server, its answer key, the uncounted C heap), spends CPU where it was not
//! charged, or makes the adapter speak for the grader. Each attack must be refused or fail with a readable
//! reason, and the grader must finish with a report. The holes in-process Python cannot close (the adapter's
//! README, "What the seal does not cover") have entries too, whose tests show where each stands.

use std::path::Path;

use crate::support::{gallery_entry, grade, quick_python_policy, Graded};

fn grade_only(submission: &Path, policy: &Path, only: &[&str]) -> Graded {
    let mut args = vec!["--policy", policy.to_str().unwrap()];
    for id in only {
        args.extend(["--only", id]);
    }
    let graded = grade(submission, &args);
    assert!(graded.text.contains("ASSESSMENT SUMMARY"), "the grader finished with a report: {}", graded.stderr);
    graded
}

/// Grades a hostile entry (its links resolved) under the quick Python policy.
fn hostile(name: &str, only: &[&str]) -> Graded {
    let (entry, _copy) = gallery_entry(&format!("hostile/python/{name}"));
    grade_only(&entry, &quick_python_policy(), only)
}

fn status(graded: &Graded, id: &str) -> String {
    graded.test(id)["status"].as_str().unwrap_or("").to_string()
}

fn message(graded: &Graded, id: &str) -> String {
    graded.test(id)["message"].as_str().unwrap_or("").to_string()
}

/// `id` failed (the student's failure, not the grader's error) with a message containing `reason`.
fn fails_with(graded: &Graded, id: &str, reason: &str) {
    assert_eq!(status(graded, id), "failed", "{id}: {}", graded.text);
    let said = message(graded, id);
    assert!(said.contains(reason), "{id} says why: {said}");
    assert!(!said.contains("protocol error"), "{id} blames the grader: {said}");
}

#[test]
fn the_counters_cannot_be_imported() {
    let graded = hostile("imports-counters", &["timing-4b/puzzle30"]);
    fails_with(&graded, "timing-4b/puzzle30", "RuntimeError: the grader does not allow importing npuzzle_counters");
}

#[test]
fn the_main_module_is_not_the_server() {
    let graded = hostile("main-module", &["timing-4b/puzzle30"]);
    fails_with(&graded, "timing-4b/puzzle30", "module '__main__' has no attribute 'Server'");
}

#[test]
fn the_garbage_collector_does_not_list_the_graders_objects() {
    let graded = hostile("gc-walk", &["timing-4b/puzzle30"]);
    fails_with(&graded, "timing-4b/puzzle30", "RuntimeError: the grader does not allow gc.get_objects()");
}

#[test]
fn the_uncounted_c_heap_cannot_be_imported() {
    let graded = hostile("c-heapq", &["timing-2/puzzle30"]);
    fails_with(&graded, "timing-2/puzzle30", "RuntimeError: the grader does not allow importing _heapq");
}

#[test]
fn the_reference_board_cannot_be_imported_as_the_students() {
    let graded = hostile("answer-key-import", &["board-1a", "board-5a"]);
    for id in ["board-1a", "board-5a"] {
        fails_with(&graded, id, "RuntimeError: the grader does not allow importing reference_board");
    }
}

/// A remaining hole and its limit: `object.__subclasses__()` finds the reference Board, which refuses to be
/// built outside the ref world.
#[test]
fn the_reference_board_found_among_all_classes_refuses_the_own_world() {
    let graded = hostile("answer-key-subclasses", &["board-1a", "board-5a"]);
    for id in ["board-1a", "board-5a"] {
        fails_with(&graded, id, "the grader does not allow its reference Board in your own world");
    }
}

/// Every thread is charged: CPU spent on helper threads times the solve out as it does on the request thread
/// (0.8 s of work against a limit of 0.5 s, in the burning threads' own CPU time: no machine is fast enough
/// to pass).
#[test]
fn a_search_on_helper_threads_times_out_like_one_on_the_request_thread() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.toml");
    let limits = "[limits]\nsolve_cpu_seconds = 0.5\nrequest_cpu_seconds = 2.0\npython_cpu_scale = 1.0\n";
    std::fs::write(&policy, format!("{limits}\n[tests]\ntrials_scale = 0.2\n")).unwrap();
    let (entry, _copy) = gallery_entry("hostile/python/helper-thread-search");
    let control = dir.path().join("request-thread-search");
    crate::support::copy_resolved(&entry, &control);
    let solver = std::fs::read_to_string(control.join("solver.py")).unwrap();
    let on_request_thread = solver.replace("ON_HELPER_THREADS = True", "ON_HELPER_THREADS = False");
    assert_ne!(solver, on_request_thread);
    std::fs::write(control.join("solver.py"), on_request_thread).unwrap();
    let id = "timing-1/puzzle30";
    let helpers = grade_only(&entry, &policy, &[id]);
    let request = grade_only(&control, &policy, &[id]);
    fails_with(&request, id, "timed out");
    fails_with(&helpers, id, "timed out");
    assert_eq!(message(&helpers, id), message(&request, id));
}

/// Raising the adapter's own `Refusal`, or making the adapter raise it while it reads a value or describes an
/// exception, is the student's failure: never "protocol error (a grader or adapter fault, not yours)".
#[test]
fn student_code_cannot_make_the_adapter_blame_the_grader() {
    let graded = hostile("blames-the-grader", &["board-1a", "board-3", "board-7a", "board-10a"]);
    fails_with(&graded, "board-1a", "npuzzle_protocol.Refusal: the grader broke (said a student's hamming())");
    fails_with(&graded, "board-3", "TypeError: dimension() returned board._Liar, not an int");
    fails_with(&graded, "board-7a", "board._Unprintable: (its __str__ raised npuzzle_protocol.Refusal)");
    fails_with(&graded, "board-10a", "npuzzle_protocol.Refusal: the grader broke (said a student's __bool__)");
}

/// A remaining hole: the globals of any function of the adapter's (here MinPQ's) lead to its counters, which
/// a Solver rewrites. The no-manhattan-cache Solver fails Timing 4b honestly; forged, it passes.
#[test]
fn the_counters_can_still_be_forged_through_a_functions_globals() {
    let graded = hostile("globals-forge", &["timing-4b/puzzle30", "solver-2a"]);
    assert_eq!(status(&graded, "solver-2a"), "passed", "{}", graded.text);
    assert_eq!(status(&graded, "timing-4b/puzzle30"), "passed", "the hole is open: {}", graded.text);
}

/// A remaining hole: heap work done outside the queue's API is not counted (here three of four operations,
/// with heapq's own pure-Python helpers); the same Solver through `_heapq` is refused above.
#[test]
fn heap_work_outside_the_queues_api_is_not_counted() {
    let graded = hostile("own-heap", &["timing-2/puzzle30", "solver-2a"]);
    assert_eq!(status(&graded, "solver-2a"), "passed", "{}", graded.text);
    assert_eq!(status(&graded, "timing-2/puzzle30"), "passed", "the hole is open: {}", graded.text);
}

/// A remaining hole and its limit: the protocol's pipe is a descriptor of the process, and a write to it is
/// not auditable; a reply to no request in flight is garbage, the program's failure.
#[test]
fn a_reply_written_past_the_adapter_is_garbage_and_the_students_failure() {
    let graded = hostile("writes-protocol", &["board-1a"]);
    fails_with(&graded, "board-1a", "garbage on the protocol channel: `0 ok 0 0`");
}
