//! Fix-this-first: which failures share one root cause.
//!
//! Many Board tests read a board back through other methods (the official grader's too: its tests of
//! neighbors, twins and k-th neighbors rely upon toString()), so one wrong method fails a string of tests,
//! each of which would otherwise guess its own cause ("the board changed after neighbors()" when only
//! toString() is wrong). Each catalog item says which Board methods it leans on (`Item::leans`, written
//! beside the item), and its result carries that; a method is *broken* when one of its own tests fails for a
//! reason of its own; a failing test that leans on a broken method is put under that method's first failing
//! test. Pure over results: it runs after scoring and before rendering.
//!
//! The memory and timing tables fail differently: one cell (a column) fails row after row, for one reason
//! ([`count_causes`]): `manhattan()` is called 5.4-9.3x the allowed on 8/8 puzzles because the priority is
//! not cached. Each such column becomes one line with what to do, instead of 25 rows that say the same.

use crate::evidence::Evidence;
use crate::judge::Cell;
use crate::results::{BoardMethod, CountCause, RootCause, Status, TestResult};

/// The root causes among `tests`' failures, in fixing order (only those that explain another failure).
///
/// Only wrong answers take part: a test that failed by an exception, a crash, a time-out, running out of
/// memory or a program given up on says so itself, and the method that threw may be the constructor, which no
/// test here isolates.
pub fn root_causes(tests: &[TestResult]) -> Vec<RootCause> {
    const FAULTS: [&str; 6] = ["threw ", "crashed", "not run", "timed out", "ran out of memory", "protocol error"];
    let failed = |t: &&TestResult| {
        matches!(t.status, Status::Failed | Status::Error) && !FAULTS.iter().any(|f| t.reason().starts_with(f))
    };
    let mut causes: Vec<RootCause> = Vec::new();
    let mut explained: Vec<&str> = Vec::new();
    for (done, method) in BoardMethod::ALL.into_iter().enumerate() {
        // A failure is this method's own when the test checks it, every method it reads boards through has
        // been judged already (and found right: a broken one would have explained it), and nothing explains it.
        let judged = &BoardMethod::ALL[..done];
        let own = tests.iter().filter(failed).find(|t| {
            !explained.contains(&t.id.as_str())
                && t.leans.checks.contains(&method)
                && t.leans.reads.iter().all(|m| judged.contains(m))
        });
        let Some(own) = own else { continue };
        let explaining: Vec<&TestResult> = tests
            .iter()
            .filter(failed)
            .filter(|t| t.id != own.id && !explained.contains(&t.id.as_str()))
            .filter(|t| t.leans.checks.contains(&method) || t.leans.reads.contains(&method))
            .collect();
        explained.push(own.id.as_str());
        explained.extend(explaining.iter().map(|t| t.id.as_str()));
        let repeats = explaining.iter().filter(|t| t.leans.checks.contains(&method)).map(|t| t.id.clone()).collect();
        let explains: Vec<String> = explaining.iter().map(|t| t.id.clone()).collect();
        if !explains.is_empty() {
            causes.push(RootCause { method, test: own.id.clone(), explains, repeats });
        }
    }
    causes
}

/// Count and memory cells that fail on two or more rows, a cause per column (`manhattan()`, `Board()`,
/// `memory of the Solver`), in the order of their first failing row. A row's counts come from its evidence;
/// a column is *judged* on every row whose evidence has it, and *fails* where its cell does.
pub fn count_causes(tests: &[TestResult]) -> Vec<CountCause> {
    let mut causes: Vec<CountCause> = Vec::new();
    let mut judged: Vec<(String, Vec<&str>)> = Vec::new();
    // every failing cell: its column, its row and its ratio to the allowed
    let mut cells: Vec<(&str, &str, f64)> = Vec::new();
    for test in tests {
        let (Some(row), Some(Evidence::Counts(counts))) = (test.row.as_deref(), &test.evidence) else { continue };
        for count in counts {
            let index = match judged.iter().position(|(what, _)| *what == count.what) {
                Some(index) => index,
                None => {
                    judged.push((count.what.clone(), vec![]));
                    judged.len() - 1
                }
            };
            if !judged[index].1.contains(&row) {
                judged[index].1.push(row);
            }
            if !(count.fails && matches!(test.status, Status::Failed)) {
                continue;
            }
            let ratio = Cell::new(count.value, count.reference, count.factor).ratio;
            cells.push((count.what.as_str(), row, ratio));
            let table = test.official.clone().unwrap_or_else(|| test.id.clone());
            match causes.iter_mut().find(|c| c.what == count.what) {
                Some(cause) => {
                    if !cause.tables.contains(&table) {
                        cause.tables.push(table);
                    }
                    cause.tests.push(test.id.clone());
                    cause.lowest = cause.lowest.min(ratio);
                    cause.highest = cause.highest.max(ratio);
                }
                None => causes.push(CountCause {
                    what: count.what.clone(),
                    tables: vec![table],
                    tests: vec![test.id.clone()],
                    puzzles_failing: 0,
                    puzzles_judged: 0,
                    lowest: ratio,
                    highest: ratio,
                    hint: hint(&count.what).to_string(),
                }),
            }
        }
    }
    for cause in &mut causes {
        cause.puzzles_failing = distinct_rows(&cause.tests);
        cause.puzzles_judged = judged.iter().find(|(what, _)| *what == cause.what).map_or(0, |(_, rows)| rows.len());
    }
    let wider = follows_from_a_wider_search(&mut causes, &cells);
    causes.retain(|c| c.tests.len() >= 2 || (c.what == WIDTH && wider));
    causes
}

/// The column that measures how wide the search went: every node the Solver enqueues is one insert().
const WIDTH: &str = "insert()";

/// The columns a wider search multiplies: a Solver that enqueues twice the reference's nodes dequeues, builds,
/// compares and weighs about twice its boards too, whatever else it does right.
const FOLLOW_THE_WIDTH: [&str; 4] = ["delMin()", "Board()", "equals()", "manhattan()"];

/// How far past insert()'s ratio on a row a following column's may be and still follow from it: per node, a
/// Solver may build or weigh a little more than the reference (its own twin, a goal test of its own).
const FOLLOWS_WITHIN: f64 = 1.25;

/// Gives each cause among [`FOLLOW_THE_WIDTH`] whose every failing cell sits on a row where insert() fails,
/// and in proportion to it, the hint that it follows from the wider search (its own hint would send the
/// student after a fault the Solver does not have: "skip the predecessor's board" to one that does, "cache
/// the priority" to one that caches it). Whether any cause did.
fn follows_from_a_wider_search(causes: &mut [CountCause], cells: &[(&str, &str, f64)]) -> bool {
    let width_on = |row: &str| cells.iter().find(|(what, on, _)| *what == WIDTH && *on == row).map(|c| c.2);
    let mut any = false;
    for cause in causes.iter_mut().filter(|c| FOLLOW_THE_WIDTH.contains(&c.what.as_str())) {
        let mut failing = cells.iter().filter(|(what, ..)| *what == cause.what).peekable();
        let follows = failing.peek().is_some()
            && failing.all(|(_, row, ratio)| width_on(row).is_some_and(|width| *ratio <= width * FOLLOWS_WITHIN));
        if follows {
            cause.hint = format!(
                "it follows from {WIDTH}, on the same puzzles and in proportion (per node, the Solver's calls are \
                 the reference's): make the search no wider first"
            );
            any = true;
        }
    }
    any
}

/// How many rows (puzzles) the test ids `timing-4b/puzzle23`, … name, each once.
fn distinct_rows(ids: &[String]) -> usize {
    let mut rows: Vec<&str> = ids.iter().filter_map(|id| id.split_once('/').map(|(_, row)| row)).collect();
    rows.sort_unstable();
    rows.dedup();
    rows.len()
}

/// What to do when a column's cells fail row after row.
fn hint(what: &str) -> &'static str {
    match what {
        "manhattan()" => "cache it: compute the priority, moves + manhattan(), once, when the search node is made",
        "Board()" => {
            "build fewer boards: skip the neighbor equal to the predecessor's board (the critical optimization) \
             and stop when the goal is dequeued"
        }
        "equals()" => "compare a neighbor with its predecessor's board only, not with every board seen",
        "insert()" | "delMin()" => {
            "the search goes wider than the reference's: check the priority (moves + manhattan()), the critical \
             optimization, ties (broken first in, first out, a search goes wider than with the textbook heap's \
             order) and the twin (a queue of its own, searched in lockstep)"
        }
        "memory of the Solver" => "keep the solution, not the search: let the queue and the visited boards go",
        _ => "a search node needs its board, moves, priority and predecessor; nothing more",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Category;
    use crate::results::Leans;
    use BoardMethod::*;

    fn test(id: &str, leans: Leans, status: Status) -> TestResult {
        TestResult { leans, ..TestResult::bare(id, Category::Board, status) }
    }

    /// The catalog's tests that lean on a Board method, those in `ids` failed and the others passed.
    fn failing(ids: &[&str]) -> Vec<TestResult> {
        crate::catalog::all()
            .iter()
            .filter(|item| item.leans != Leans::NONE)
            .map(|item| test(item.id, item.leans, if ids.contains(&item.id) { Status::Failed } else { Status::Passed }))
            .collect()
    }

    /// A consistently wrong manhattan() fails what the official grader fails (2a, 2b, 15, 17; section 9.1 of
    /// OFFICIAL-TESTS.md) and this project's neighbor values: all of them under 2a.
    #[test]
    fn a_wrong_manhattan_explains_the_tests_that_read_it() {
        let ids = ["board-2a", "board-2b", "board-15", "board-17", "beyond-neighbor-values"];
        let causes = root_causes(&failing(&ids));
        assert_eq!(causes.len(), 1);
        assert_eq!((causes[0].method, causes[0].test.as_str()), (Manhattan, "board-2a"));
        assert_eq!(causes[0].explains, ["board-2b", "board-15", "board-17", "beyond-neighbor-values"]);
        assert_eq!(causes[0].repeats, ["board-2b", "board-15", "board-17", "beyond-neighbor-values"]);
    }

    /// Board 9, 11 and 12 compare a board with itself, so no wrong method explains their failures: a Board
    /// that keeps the caller's array (11) and prints no size line (4a) has two faults, not one.
    #[test]
    fn the_immutability_tests_are_never_put_under_a_method() {
        let causes = root_causes(&failing(&["board-4a", "board-4b", "board-9", "board-11", "board-12"]));
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!(causes[0].explains, ["board-4b"]);
    }

    /// A transposed toString(): the neighbor, twin and k-th tests fail through it, and neighbors() and
    /// twin() are not blamed.
    #[test]
    fn a_wrong_to_string_is_blamed_before_the_methods_read_through_it() {
        let ids = ["board-4a", "board-4b", "board-5a", "board-6a", "board-7a", "board-13", "board-14"];
        let causes = root_causes(&failing(&ids));
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!((causes[0].method, causes[0].test.as_str()), (ToString, "board-4a"));
        assert_eq!(causes[0].explains, ["board-4b", "board-5a", "board-6a", "board-7a", "board-13", "board-14"]);
    }

    #[test]
    fn a_lone_failure_is_no_root_cause_and_independent_failures_stay_apart() {
        assert!(root_causes(&failing(&["board-2a"])).is_empty());
        let causes = root_causes(&failing(&["board-1a", "board-14", "board-7a", "board-16"]));
        let named: Vec<(BoardMethod, &str, usize)> =
            causes.iter().map(|c| (c.method, c.test.as_str(), c.explains.len())).collect();
        assert_eq!(named, [(Hamming, "board-1a", 2)], "twin() explains nothing more than its own test");
        // A wrong neighbors() alone: the k-th neighbor tests fail through it, hamming() is not blamed.
        let causes = root_causes(&failing(&["board-5a", "board-6a", "board-13", "board-14", "board-15"]));
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!((causes[0].method, causes[0].test.as_str()), (Neighbors, "board-5a"));
        assert_eq!(causes[0].explains, ["board-6a", "board-13", "board-14", "board-15"]);
    }

    /// A Board that throws for n >= 12 fails 1b, 4b and 5b on its 127-by-127 trials: the exceptions speak
    /// for themselves, and toString() is not blamed.
    #[test]
    fn failures_by_exception_explain_nothing_and_are_not_explained() {
        let mut tests = failing(&["board-1b", "board-4b", "board-5b"]);
        for t in &mut tests {
            t.message =
                "failed on trial 1201 of 1202: random 127-by-127 board\nthrew java.lang.ArrayIndexOutOfBoundsException"
                    .into();
        }
        assert!(root_causes(&tests).is_empty());
    }

    /// Every Board test runs on the student's Board, so it leans on some method of it (or fix-first could
    /// never group its failures), except the immutability tests (9, 11, 12): they compare a board with itself,
    /// so a wrong answer of any method cannot fail them, and nothing but their own fault explains a failure.
    #[test]
    fn every_board_test_leans_on_a_method_but_those_comparing_a_board_with_itself() {
        use crate::catalog::{BoardCheck as B, Check};
        for item in crate::catalog::all().iter().filter(|item| item.category == Category::Board) {
            let itself = matches!(item.check, Check::Board(B::TwoBoards | B::ImmutableArray | B::ImmutableCallOrder));
            assert_eq!(item.leans == Leans::NONE, itself, "{} leans on {:?}", item.id, item.leans);
        }
    }

    /// A failed timing row (`timing-2/puzzle39`) whose cells are (column, count, reference) at the official
    /// factor, each failing past it.
    fn row(id: &str, cells: &[(&str, u64, u64)]) -> TestResult {
        let (table, puzzle) = id.split_once('/').unwrap();
        let counts = cells
            .iter()
            .map(|&(what, value, reference)| crate::evidence::Count {
                what: what.into(),
                value,
                reference,
                factor: 1.75,
                fails: value as f64 > 1.75 * reference as f64,
                ratio: String::new(),
            })
            .collect();
        TestResult {
            row: Some(puzzle.into()),
            official: Some(table.into()),
            evidence: Some(Evidence::Counts(counts)),
            ..TestResult::bare(id, Category::Timing, Status::Failed)
        }
    }

    /// The rows of a Solver whose search goes `wide` times the reference's on `puzzles` (insert() 1,000 and
    /// Board() 1,500 for the reference), calling manhattan() `per_board` times a board built.
    fn wider(puzzles: &[&str], wide: u64, per_board: u64) -> Vec<TestResult> {
        let (inserts, boards) = (1000 * wide, 1500 * wide);
        puzzles
            .iter()
            .flat_map(|p| {
                [
                    row(&format!("timing-2/{p}"), &[("insert()", inserts, 1000), ("delMin()", inserts / 2, 500)]),
                    row(&format!("timing-4a/{p}"), &[("Board()", boards, 1500), ("equals()", boards, 1500)]),
                    row(
                        &format!("timing-4b/{p}"),
                        &[("Board()", boards, 1500), ("manhattan()", boards * per_board, 1500)],
                    ),
                ]
            })
            .collect()
    }

    fn hints(causes: &[CountCause]) -> Vec<(&str, bool)> {
        causes.iter().map(|c| (c.what.as_str(), c.hint.starts_with("it follows from insert()"))).collect()
    }

    /// One queue for both searches (the calibration submission): every column fails on the same puzzles, in
    /// proportion; insert() names the cause, and the others follow from it instead of asking for the critical
    /// optimization or a cached priority the Solver already has.
    #[test]
    fn columns_in_proportion_to_a_wider_search_follow_from_it() {
        let causes = count_causes(&wider(&["puzzle29", "puzzle32", "puzzle39"], 4, 1));
        assert_eq!(
            hints(&causes),
            [("insert()", false), ("delMin()", true), ("Board()", true), ("equals()", true), ("manhattan()", true)]
        );
        assert!(causes[0].hint.starts_with("the search goes wider"), "{}", causes[0].hint);
    }

    /// On one puzzle insert() fails in one table only, and would be left out as a column failing once: it stays,
    /// since the columns failing twice follow from it.
    #[test]
    fn a_wider_search_on_one_puzzle_is_still_named() {
        let causes = count_causes(&wider(&["puzzle39"], 3, 1));
        assert_eq!(hints(&causes), [("insert()", false), ("Board()", true)], "{causes:?}");
    }

    /// A priority computed in every comparison: manhattan() far past the width's proportion keeps its own hint,
    /// whether or not the search is also wider; and without a failing insert() nothing follows.
    #[test]
    fn a_column_beyond_the_widths_proportion_keeps_its_own_hint() {
        let causes = count_causes(&wider(&["puzzle29", "puzzle32"], 2, 12));
        assert_eq!(hints(&causes)[4], ("manhattan()", false));
        assert!(causes[4].hint.starts_with("cache it"), "{}", causes[4].hint);
        let uncached = count_causes(&wider(&["puzzle29", "puzzle32"], 1, 12));
        assert_eq!(hints(&uncached), [("manhattan()", false)]);
    }
}
