//! Solvers that hide their work from the counts (`fixtures/submissions/hostile/`). Lazy ones put it off until
//! one of their methods is first called (`java/lazy-wasteful`, `python/lazy-wasteful`, `lazy-binary-heap`):
//! their constructors do token work, all a grader reading the counts right after the constructor would
//! charge. Graded over the Solver's whole life, each fails the rows its eager twin fails, and a lazy search
//! the counts cannot see at all is caught by the search bound (`specs/search-bound.md`). A caching one (`java/static-cache`)
//! keeps every solved puzzle in a static field and answers a puzzle seen before with a token search: the
//! judged lives come first in their process (`grade::run`), so none is answered from the cache.

use crate::support::{gallery_entry, grade, quick_policy, quick_python_policy, Graded};

/// Rows that judge counts, CPU or memory, one of each table, on puzzles the quick policy keeps (puzzle32 is
/// where the wasteful Solver's single queue fails the counts, as one-queue's does).
const JUDGED_ROWS: &[&str] = &[
    "timing-1/puzzle30",
    "timing-2/puzzle32",
    "timing-3/puzzle30",
    "timing-4a/puzzle32",
    "timing-4b/puzzle30",
    "memory-solver-1/puzzle20",
    "memory-solver-2/puzzle20",
];

fn grade_rows(submission: &str, rows: &[&str]) -> Graded {
    let policy = if submission.starts_with("python/") { quick_python_policy() } else { quick_policy() };
    let mut args = vec!["--policy".to_string(), policy.to_string_lossy().into_owned()];
    for row in rows {
        args.extend(["--only".to_string(), row.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // an entry's files may link its control's (static-cache's Board.java is wasteful's)
    let (path, _copy) = gallery_entry(&format!("hostile/{submission}"));
    let graded = grade(&path, &args);
    assert!(graded.text.contains("ASSESSMENT SUMMARY"), "{submission}: no report: {}", graded.stderr);
    graded
}

/// The statuses of `rows`, in report order.
fn row_statuses(graded: &Graded, rows: &[&str]) -> Vec<(String, String)> {
    graded.statuses().into_iter().filter(|(id, _)| rows.contains(&id.as_str())).collect()
}

#[rstest::rstest]
#[case::java("java/wasteful", "java/lazy-wasteful")]
#[case::python("python/wasteful", "python/lazy-wasteful")]
fn a_lazy_solver_fails_the_rows_its_eager_twin_fails(#[case] eager: &str, #[case] lazy: &str) {
    let eager = row_statuses(&grade_rows(eager, JUDGED_ROWS), JUDGED_ROWS);
    let lazy_graded = grade_rows(lazy, JUDGED_ROWS);
    let failing = eager.iter().filter(|(_, status)| status == "failed").count();
    assert!(failing >= 4, "the eager twin is wasteful enough to fail rows: {eager:?}");
    assert_eq!(row_statuses(&lazy_graded, JUDGED_ROWS), eager, "{}", lazy_graded.text);
    assert_eq!(lazy_graded.test("timing-1/puzzle30")["status"], "passed", "its answers are right");
}

/// A correctness test, before the memory section in the report, that solves puzzle25 (among puzzle14 to 31)
/// asking solution(), so not in the life the memory rows share; and the rows of puzzle25 it primed.
const SOLVES_A_JUDGED_PUZZLE: &str = "solver-3b";
const PUZZLE25_ROWS: [&str; 2] = ["memory-solver-1/puzzle25", "memory-solver-2/puzzle25"];

#[test]
fn a_solver_that_keeps_earlier_solutions_fails_the_rows_its_plain_twin_fails() {
    let judged: Vec<&str> = JUDGED_ROWS.iter().chain(&PUZZLE25_ROWS).copied().collect();
    let rows: Vec<&str> = judged.iter().copied().chain([SOLVES_A_JUDGED_PUZZLE]).collect();
    let plain = row_statuses(&grade_rows("java/wasteful", &rows), &judged);
    let caching_graded = grade_rows("java/static-cache", &rows);
    let failing = plain.iter().filter(|(_, status)| status == "failed").count();
    assert!(failing >= 4, "the plain twin is wasteful enough to fail rows: {plain:?}");
    assert!(plain.contains(&("memory-solver-1/puzzle25".into(), "failed".into())), "{plain:?}");
    assert_eq!(row_statuses(&caching_graded, &judged), plain, "{}", caching_graded.text);
    assert_eq!(caching_graded.test(SOLVES_A_JUDGED_PUZZLE)["status"], "passed", "{}", caching_graded.text);
    // solved again to name the lines its counts come from, the puzzle comes from the cache: no lines are named
    let message = caching_graded.test("timing-2/puzzle32")["message"].as_str().unwrap_or("").to_string();
    assert!(message.contains("solved again to find where its insert() calls come from"), "{message}");
}

#[test]
fn a_lazy_search_the_counts_cannot_see_fails_the_search_bound() {
    let rows = ["solver-2a", "timing-2/puzzle30", "memory-solver-2/puzzle20", "beyond-minpq", "timing-4a/puzzle30"];
    let graded = grade_rows("lazy-binary-heap", &rows);
    assert_eq!(graded.test("solver-2a")["status"], "passed", "its answers are right: {}", graded.text);
    for id in &rows[1..] {
        let test = graded.test(id);
        assert_eq!(test["status"], "failed", "{id}: {}", graded.text);
        let message = test["message"].as_str().unwrap_or("");
        assert!(
            message.contains("counts are not those of an A* search") && message.contains("made 1 delMin() call"),
            "{id}: {message}"
        );
    }
}
