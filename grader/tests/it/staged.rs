//! Counts that no search made (`specs/search-bound.md`): each hostile entry below, graded beside its honest
//! twin (`java/wasteful`, `python/wasteful`: one MinPQ for both searches, manhattan() at every comparison,
//! every node kept), must fail every count and memory row its twin fails.
//!
//! - `java/staged-tokens`: recognises the judged puzzles (the first life of each, from dimension(),
//!   manhattan(), hamming() and its twin's values) and shows m + 1 insert()s and m delMin()s of Integers;
//! - `java/staged-bound`: the same with the public bound's B tokens, each delMin() followed by a neighbors()
//!   call on the initial board;
//! - `java/tokens-after-search`, `python/tokens-after-heapq`: a search on a queue of their own
//!   (`java.util.PriorityQueue`, a list kept by heapq's uncounted helpers), then m + 1 and m tokens.
//!
//! The staged entries' tables are written here from the fixtures the grader reads (the puzzles' moves and
//! bounds, `puzzles.toml`), so they recognise whatever puzzles the corpus holds.

use std::path::{Path, PathBuf};

use grader::catalog::{MEMORY_PUZZLES, TIMING_PUZZLES};

use crate::support::{copy_resolved, grade, quick_policy, quick_python_policy, root, Graded};

/// The count and memory rows: each table on two of the quick policy's puzzles, and puzzle10's memory rows,
/// whose life comes before Solver 10a's there (a staged Solver stages a puzzle's first life only).
const JUDGED_ROWS: &[&str] = &[
    "timing-2/puzzle32",
    "timing-2/puzzle30",
    "timing-3/puzzle30",
    "timing-4a/puzzle32",
    "timing-4b/puzzle30",
    "memory-solver-1/puzzle10",
    "memory-solver-1/puzzle20",
    "memory-solver-1/puzzle30",
    "memory-solver-2/puzzle10",
    "memory-solver-2/puzzle20",
    "memory-solver-2/puzzle30",
];

/// A test whose lives are not judged ones: a staged Solver searches there, and passes. (Solver 10a shares
/// puzzle10's life with the memory rows, a judged life, which a staged Solver stages: it fails there too.)
const HONEST_LIVES: &[&str] = &["solver-2a"];

/// The rows of `table` for every judged puzzle of the bundled corpus whose key (size, manhattan, hamming,
/// twin's manhattan and hamming) is its own: `{n, m, h, twin m, twin h, moves, bound},` lines.
fn staged_table() -> String {
    let corpus = corpus::Corpus::load(&root().join("fixtures/puzzles")).expect("the bundled corpus loads");
    let mut rows: Vec<([usize; 5], [u64; 2])> = Vec::new();
    for name in TIMING_PUZZLES.iter().chain(&MEMORY_PUZZLES) {
        let puzzle = corpus.get(name).expect("a judged puzzle of the corpus");
        let corpus::Expected::Moves(moves) = puzzle.expected() else { panic!("{name} is solvable") };
        // the metadata's bound, or (puzzles newer than their metadata) the bound computed as the grader would
        let bound = puzzle.meta.as_ref().and_then(|meta| meta.bound).unwrap_or_else(|| {
            corpus::bound::search_bound(&puzzle.board, moves, corpus::bound::BOUND_BUDGET).expect("a bound")
        });
        let (board, twin) = (&puzzle.board, puzzle.board.twin());
        let key = [
            board.dimension(),
            board.manhattan() as usize,
            board.hamming() as usize,
            twin.manhattan() as usize,
            twin.hamming() as usize,
        ];
        let answer = [u64::from(moves), bound];
        if !rows.iter().any(|(k, _)| *k == key) {
            rows.push((key, answer));
        }
    }
    let ambiguous = |key: &[usize; 5], answer: &[u64; 2]| rows.iter().any(|(k, a)| k == key && a != answer);
    rows.iter()
        .filter(|(key, answer)| !ambiguous(key, answer))
        .map(|(k, [moves, bound])| {
            format!("        {{{}, {}, {}, {}, {}, {moves}, {bound}}},\n", k[0], k[1], k[2], k[3], k[4])
        })
        .collect()
}

/// A copy of the hostile entry `name` (links resolved) in `dir`, its staged table, if it has one, written
/// from the fixtures.
fn entry(name: &str, dir: &Path) -> PathBuf {
    let copy = dir.join(name.replace('/', "-"));
    copy_resolved(&root().join("fixtures/submissions/hostile").join(name), &copy);
    let solver = copy.join("Solver.java");
    if let Ok(text) = std::fs::read_to_string(&solver) {
        if let Some((head, rest)) = text.split_once("    private static final int[][] STAGED = {\n") {
            let (_, tail) = rest.split_once("    };\n    // staged table: end").expect("the table's end");
            let table = staged_table();
            let written = format!(
                "{head}    private static final int[][] STAGED = {{\n{table}    }};\n    // staged table: end{tail}"
            );
            std::fs::write(&solver, written).unwrap();
        }
    }
    copy
}

fn graded(submission: &Path, rows: &[&str]) -> Graded {
    let python = submission.join("solver.py").is_file();
    let policy = if python { quick_python_policy() } else { quick_policy() };
    let mut args = vec!["--policy".to_string(), policy.to_string_lossy().into_owned()];
    for row in rows {
        args.extend(["--only".to_string(), row.to_string()]);
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let graded = grade(submission, &args);
    assert!(graded.text.contains("ASSESSMENT SUMMARY"), "{}: no report: {}", submission.display(), graded.stderr);
    graded
}

/// The rows of `rows` that `graded` failed.
fn failed(graded: &Graded, rows: &[&str]) -> Vec<String> {
    graded
        .statuses()
        .into_iter()
        .filter(|(id, s)| rows.contains(&id.as_str()) && s == "failed")
        .map(|(id, _)| id)
        .collect()
}

/// Grades `twin`, then each of the `staged` and `tokens` entries on the judged rows: each fails every row the
/// twin fails, saying its counts are not those of an A* search (with its `expanded` boards); a staged entry also passes
/// `honest`, whose lives it does not stage.
fn gains_nothing(twin: &str, staged: &[(&str, &str)], tokens: &[(&str, &str)], honest: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let twin_failed = failed(&graded(&entry(twin, dir.path()), JUDGED_ROWS), JUDGED_ROWS);
    assert!(twin_failed.len() >= 4, "the twin is wasteful enough to fail rows: {twin_failed:?}");
    let entries = staged.iter().map(|e| (e, honest)).chain(tokens.iter().map(|e| (e, &[] as &[&str])));
    for ((name, expanded), honest) in entries {
        let rows: Vec<&str> = JUDGED_ROWS.iter().chain(honest.iter()).copied().collect();
        let graded = graded(&entry(name, dir.path()), &rows);
        let staged = failed(&graded, JUDGED_ROWS);
        for row in &twin_failed {
            assert!(staged.contains(row), "{name} passes {row}, which its twin fails: {}", graded.text);
            let message = graded.test(row)["message"].as_str().unwrap_or("").to_string();
            assert!(
                message.contains("counts are not those of an A* search")
                    && message.contains(&format!("expanded {expanded}")),
                "{name}: {row} fails on the search bound: {message}"
            );
        }
        for id in honest {
            assert_eq!(graded.test(id)["status"], "passed", "{name}: its other lives search: {}", graded.text);
        }
    }
}

#[test]
fn staged_and_token_java_lives_gain_nothing_over_their_twin() {
    let staged = [("java/staged-tokens", "0 boards"), ("java/staged-bound", "1 board")];
    // a search hidden before the first delMin() shows its first neighbors() call: one board
    let tokens = [("java/tokens-after-search", "1 board")];
    gains_nothing("java/wasteful", &staged, &tokens, HONEST_LIVES);
}

#[test]
fn tokens_after_a_private_heapq_search_gain_nothing_over_their_twin() {
    gains_nothing("python/wasteful", &[], &[("python/tokens-after-heapq", "1 board")], &[]);
}
