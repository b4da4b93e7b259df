//! Hostile Java submissions (`fixtures/submissions/hostile/java/`): each reaches for the grader's side of
//! the JVM (its counters, its Instrumentation, the MinPQ's hooks, the reference Board), hides CPU on other
//! threads, or tries to make its own failure look like the grader's. Every attack passed on the adapter
//! before it was sealed; here each must be refused at compile time or fail its tests with a readable
//! reason, and the grader must finish with a report. Each grades a subset of tests under the quick policy.

use crate::support::{gallery_entry, grade, quick_policy, Graded};

fn grade_only(entry: &str, only: &[&str]) -> Graded {
    let (submission, _copy) = gallery_entry(&format!("hostile/java/{entry}"));
    let policy = quick_policy();
    let mut args = vec!["--policy", policy.to_str().unwrap()];
    for id in only {
        args.extend(["--only", id]);
    }
    let graded = grade(&submission, &args);
    assert!(graded.text.contains("ASSESSMENT SUMMARY"), "the grader finished with a report: {}", graded.stderr);
    graded
}

/// The compiler's output in the report, which must exist: the submission did not compile.
fn compile_log(graded: &Graded) -> String {
    assert_eq!(graded.test("compile-1")["status"], "failed", "{}", graded.text);
    graded.json["compile_log"].as_str().expect("a compile log").to_string()
}

/// A test's status and message.
fn verdict(graded: &Graded, id: &str) -> (String, String) {
    let test = graded.test(id);
    let text = |key: &str| test[key].as_str().unwrap_or("").to_string();
    (text("status"), text("message"))
}

fn output(graded: &Graded) -> String {
    graded.json["output"].as_str().unwrap_or("").to_string()
}

#[test]
fn the_counters_cannot_be_named() {
    let log = compile_log(&grade_only("counters-written", &["board-1a"]));
    assert!(log.contains("Solver.java:43: error: package npuzzle is not visible"), "{log}");
    assert!(log.contains("which does not export it"), "{log}");
}

#[test]
fn unsafe_is_not_there_to_write_the_counters() {
    let graded = grade_only("unsafe", &["timing-2/puzzle32"]);
    let (status, message) = verdict(&graded, "timing-2/puzzle32");
    // one queue for both searches: the honest counts fail (see java/one-queue)
    assert_eq!(status, "failed", "{}", graded.text);
    assert!(message.contains("insert(): 73664 is 2.0x"), "{message}");
    assert!(output(&graded).contains("the Unsafe forgery failed: java.lang.ClassNotFoundException: sun.misc.Unsafe"));
}

#[test]
fn a_minpq_subclass_cannot_silence_the_heap_check() {
    let log = compile_log(&grade_only("minpq-hook", &["solver-1"]));
    assert!(log.contains("npuzzleCheckHeapOrder() in QuietPQ cannot override"), "{log}");
    assert!(log.contains("overridden method is final"), "{log}");
}

#[test]
fn the_instrumentation_is_out_of_reach() {
    let graded = grade_only("instrumentation", &["solver-1"]);
    let (status, message) = verdict(&graded, "solver-1");
    assert_eq!(status, "failed", "{}", graded.text);
    assert!(message.contains("the MinPQ was found out of heap order"), "{message}");
    assert!(output(&graded).contains("the Instrumentation attack failed: java.lang.ClassNotFoundException"));
}

#[test]
fn a_board_cannot_delegate_to_the_reference_board() {
    let graded = grade_only("reference-delegate", &["board-1a"]);
    let (status, message) = verdict(&graded, "board-1a");
    assert_eq!(status, "failed", "{}", graded.text);
    assert!(message.contains("no reference Board to delegate to"), "{message}");
    assert!(message.contains("access denied"), "the security manager stops it first: {message}");
}

/// The reference Board's module is unnamed, so open to every module: only the security manager keeps a
/// student's Solver from reading its private fields, or calling its private methods, uncounted.
#[test]
fn the_reference_boards_private_members_are_out_of_reach() {
    let graded = grade_only("reference-privates", &["timing-4b/puzzle30"]);
    let (status, message) = verdict(&graded, "timing-4b/puzzle30");
    // manhattan() recomputed at every comparison: the honest counts fail
    assert_eq!(status, "failed", "{}", graded.text);
    assert!(message.contains("manhattan(): 1919397 is 8.1x"), "{message}");
    assert!(output(&graded).contains("no private access to the Board: java.security.AccessControlException"));
}

/// A search that times out on the request thread times out on helper threads the request thread waits for
/// (7 s of CPU on one helper; 2.3 s on each of three at once, each under the limit of 2 s).
#[test]
fn cpu_on_helper_threads_is_charged() {
    for entry in ["helper-thread", "helper-threads"] {
        let graded = grade_only(entry, &["timing-1/puzzle30", "solver-2a"]);
        let (status, message) = verdict(&graded, "timing-1/puzzle30");
        assert_eq!(status, "failed", "{entry}: {}", graded.text);
        assert!(message.contains("timed out"), "{entry}: {message}");
        // the short searches (under 20 moves) are not slowed, and pass
        assert_eq!(verdict(&graded, "solver-2a").0, "passed", "{entry}: {}", graded.text);
    }
}

#[test]
fn an_exception_that_cannot_be_described_is_the_students() {
    let graded = grade_only("throwing-message", &["board-1a"]);
    let (status, message) = verdict(&graded, "board-1a");
    assert_eq!(status, "failed", "not an error of the grader's: {}", graded.text);
    assert!(
        message
            .contains("threw Board$1: its getMessage() threw java.lang.UnsupportedOperationException (at Board.java:"),
        "{message}"
    );
}

#[test]
fn a_public_method_inherited_from_a_base_class_fails_api_1() {
    let graded = grade_only("inherited-public-method", &["api-1"]);
    let (status, message) = verdict(&graded, "api-1");
    assert_eq!(status, "failed", "{}", graded.text);
    assert!(message.contains("Board.tileAt(int,int)"), "{message}");
}
