//! Java memory in the official model, end to end. Memory a Solver keeps aside is weighed: the values of its
//! ThreadLocals and ClassValues, and what a thread it started holds. Memory kept anywhere else is weighed by
//! the second reading: what the Solver's whole process keeps beyond what it held before the submission's code
//! ran (Java and Rust alike).
//!
//! OFFICIAL-TESTS.md 9.5: a lockstep two-queue Solver whose
//! search nodes are inner classes and whose queues are Solver fields (`java/inner-class-nodes` of the gallery)
//! measures MinPQ deep memory at exactly twice its Solver memory on every row, and fails all six MinPQ rows at
//! (1.2x), as the official report of that pattern does. (The gallery grades the entry too; this test holds
//! the figures to the 2x the official report prints.)
//!
//! Report B (specs/memory.md): a one-queue Solver with inner-class nodes (`java/one-queue-inner-nodes`)
//! measures, on the official puzzles, the official figures where the official walk skipped nothing
//! (puzzle25, to the byte), the model's exact figures where it skipped a little (puzzle30, 35), and the
//! official sizes and printed ratios on every row.

use crate::support::{gallery_entry, grade, official_fixtures, quick_policy, Graded};

/// The bytes in a memory row (`puzzle10.txt  10  3  BYTES ...`).
fn bytes(test: &serde_json::Value) -> u64 {
    let row = test["rows"][0].as_str().unwrap_or_else(|| panic!("a row: {test}"));
    row.split_whitespace().nth(3).and_then(|b| b.parse().ok()).unwrap_or_else(|| panic!("bytes in {row:?}"))
}

#[test]
fn inner_class_nodes_make_each_queue_weigh_the_whole_solver() {
    let (path, _copy) = gallery_entry("java/inner-class-nodes");
    let policy = quick_policy();
    let graded = grade(&path, &["--policy", policy.to_str().unwrap(), "--only", "memory-solver-*"]);
    for puzzle in ["puzzle10", "puzzle15", "puzzle20", "puzzle25", "puzzle30", "puzzle35"] {
        let solver = graded.test(&format!("memory-solver-1/{puzzle}"));
        let queues = graded.test(&format!("memory-solver-2/{puzzle}"));
        assert_eq!(bytes(queues), 2 * bytes(solver), "{puzzle}:\n{}", graded.text);
        assert_eq!((solver["status"].as_str(), queues["status"].as_str()), (Some("failed"), Some("failed")));
        let row = queues["rows"][0].as_str().unwrap();
        assert_eq!(row.split_whitespace().nth(4), Some("(1.2x)"), "{row}");
    }
}

#[test]
fn a_one_queue_solver_with_inner_class_nodes_weighs_the_official_figures() {
    let Some((_, fixtures)) = official_fixtures() else { return };
    let (path, _copy) = gallery_entry("java/one-queue-inner-nodes");
    let only = ["memory-solver-2/puzzle25", "memory-solver-2/puzzle30", "memory-solver-2/puzzle35"];
    let mut args = vec!["--fixtures", fixtures.path().to_str().unwrap()];
    args.extend(only.iter().flat_map(|id| ["--only", id]));
    let graded = grade(&path, &args);
    // Officially 2865624, 21459072 and 168332200: the official walk skips an object whose identity hash an
    // earlier one has, none at puzzle25, 4,376 and 250,424 bytes' worth at puzzle30 and puzzle35.
    let official = [
        "puzzle25.txt       25    3 2865624 (1.1x)         7407         7406",
        "puzzle30.txt       30    3 21463448 (2.0x) 54293 (1.8x) 54292 (1.8x)",
        "puzzle35.txt       35    4 168582624 (1.1x)       470112       470111",
    ];
    for (id, row) in only.iter().zip(official) {
        let test = graded.test(id);
        assert_eq!((test["status"].as_str(), test["rows"][0].as_str()), (Some("failed"), Some(row)), "{}", graded.text);
    }
}

/// Each of `hostile/java/thread-local-search`, `thread-held-search`, `thread-subclass-search` and
/// `class-value-search` keeps the wasteful Solver's every dequeued search node (`java/wasteful`: 2,002,600
/// bytes on puzzle30) outside the Solver and its static fields, where the JVM holds it for a thread or a
/// class. On puzzle10, a 9-by-9 board 10 moves from the goal as officially, the search goes nearly straight
/// to the goal and keeps little more than its path (6,512 bytes against the reference's 4,688: it passes, as
/// it would officially); the five other rows fail.
#[rstest::rstest]
#[case::thread_local("hostile/java/thread-local-search")]
#[case::thread_task("hostile/java/thread-held-search")]
#[case::thread_subclass("hostile/java/thread-subclass-search")]
#[case::class_value("hostile/java/class-value-search")]
fn a_search_kept_aside_for_a_thread_or_a_class_is_weighed(#[case] entry: &str) {
    let graded = failing_every_solver_memory_row(entry);
    let straight = bytes(graded.test("memory-solver-1/puzzle10"));
    assert!(straight > 6_000, "the dequeued nodes of puzzle10 are weighed: {straight} bytes\n{}", graded.text);
    let kept = bytes(graded.test("memory-solver-1/puzzle30"));
    assert!(kept > 1_900_000, "the search nodes are weighed: {kept} bytes\n{}", graded.text);
}

/// Each keeps a wasteful search (`java/wasteful`; `rust/keeps-every-board` for the Rust one), or a record of
/// every node of it, where neither the walk from the Solver, its static fields and its threads' tasks nor the
/// heap a weighed span left allocated looked: on a dropped daemon Timer's task, in a parked thread's
/// uncaught-exception handler, in a class initializer's int[8_000_000], off the heap in a direct buffer the
/// warm-up Solver allocated, in a Rust `static` Vec whose capacity the warm-up Solver reserved, and in a Rust
/// `static` array (`.bss`, never allocated, its pages touched as the search writes them). Each passed
/// the Memory Solver 1 rows its twin fails (all but puzzle10, where the search goes nearly straight to the goal);
/// each now fails them, and puzzle15's message says which reading failed it: the walk (the threads a
/// submission starts are walked whole), or the second reading.
#[rstest::rstest]
#[case::timer_task("hostile/java/timer-task-search", "memory of the Solver: ")]
#[case::uncaught_handler("hostile/java/uncaught-handler-search", "memory of the Solver: ")]
#[case::static_array("hostile/java/static-array-search", "outside the objects reachable from it")]
#[case::direct_buffer("hostile/java/direct-buffer-search", "of native memory in direct or mapped buffers")]
#[case::reserved_capacity("hostile/reserved-capacity-search", "outside the objects reachable from it")]
#[case::static_arena("hostile/static-arena-search", "outside the objects reachable from it")]
fn a_search_kept_anywhere_fails_every_row_its_twin_fails(#[case] entry: &str, #[case] why: &str) {
    let graded = failing_every_solver_memory_row(entry);
    let message = graded.test("memory-solver-1/puzzle15")["message"].as_str().unwrap_or("").to_string();
    assert!(message.contains(why), "{message}");
}

/// The gallery entry's Memory Solver 1 rows graded under the quick policy: every one but puzzle10 must fail.
fn failing_every_solver_memory_row(entry: &str) -> Graded {
    let (path, _copy) = gallery_entry(entry);
    let policy = quick_policy();
    let graded = grade(&path, &["--policy", policy.to_str().unwrap(), "--only", "memory-solver-1"]);
    for puzzle in ["puzzle15", "puzzle20", "puzzle25", "puzzle30", "puzzle35"] {
        let solver = graded.test(&format!("memory-solver-1/{puzzle}"));
        assert_eq!(solver["status"], "failed", "{puzzle}:\n{}", graded.text);
    }
    graded
}
