//! The test catalog: every check the grader makes, as plain data.
//!
//! The official grader's tests come first, numbered and titled as in its newest report format (see
//! `specs/catalog.md`): Board 1a … 17, Solver 1 … 15b, the Board, Solver and MinPQ memory rows, and the five
//! timing tables. A test that the official report prints as a table is one test per row (`rows` below),
//! scored as one test, as the official report counts them. What this project checks beyond the official
//! grader is a section of its own, worth no points under the default policy, so the default score is the
//! official score.
//!
//! An [`Item`] says what is checked (its [`Check`] kind and [`Inputs`]), how it is presented (id, the official
//! label, title, explanation) and how it counts (category, dependencies, capabilities it needs). Items never
//! run anything: `plan` resolves their inputs, `runner::checks` asks the submission, and `judge` compares.
//! `specs/catalog.md` is generated from this list (`grader catalog --markdown`), and a test keeps it current.

/// The sentence that ends the explanation of every item judged against the search bound
/// ([`Check::judges_search_bound`]; a test keeps the two in step).
macro_rules! search_bound_note {
    () => {
        " Whatever its counts, a Solver whose moves() is right must show the work every A* search does on the \
         puzzle: at least as many boards expanded, each by neighbors() after the delMin() that removed it, as \
         the puzzle's search bound (its boards whose distance from the initial board plus manhattan() is below \
         its moves; specs/search-bound.md). A search on a queue of its own followed by token MinPQ calls fails \
         here."
    };
}

mod board;
mod board_kinds;
mod item;
mod perf;
mod solver;

pub use board_kinds::{BoardCheck, EqualsProperty, ValueMethod, Walk};
pub use perf::{Measure, TimingAspect};
pub use solver::{EqualsUsage, SolveAspect, SolverCheck};

pub use crate::results::Category;
use crate::results::Leans;
pub use item::{row_id, Draw, Inputs, ItemOf, SolverCall, MEMORY_PUZZLES, MEMORY_SIZES, TIMING_PUZZLES};

/// A catalog item with the catalog's [`Check`].
pub type Item = ItemOf<Check>;

/// What an item checks, one variant per section: each section's kinds are named in the catalog file that
/// holds its items, and its executor in `runner::checks` has one exhaustive match over them (and decides how
/// each runs), so a new kind is a variant and an item in one catalog file plus an arm and a function in one
/// executor file (ARCHITECTURE.md, "Adding a check").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The submission builds: judged by the build step before any session starts.
    Build,
    /// No public methods beyond the assignment's API.
    ApiSurface,
    /// A check of the submission's own Board (`catalog/board.rs`).
    Board(BoardCheck),
    /// A check of the Solver (`catalog/solver.rs`).
    Solver(SolverCheck),
    /// A memory or timing row (`catalog/perf.rs`).
    Measure(Measure),
}

impl Check {
    /// Whether this is the build's own verdict (no session, no trials: the build step judges it).
    pub fn is_build(self) -> bool {
        self == Check::Build
    }

    /// The Solver methods the check calls on each Solver it builds, in order (`None`: it builds no Solver).
    pub fn solver_calls(self) -> Option<&'static [SolverCall]> {
        match self {
            Check::Solver(check) => Some(check.calls()),
            Check::Measure(check) => check.calls(),
            Check::Build | Check::ApiSurface | Check::Board(_) => None,
        }
    }

    /// Whether the check measures the MinPQ's deep memory (its lives' counters must walk it).
    pub fn measures_deep_memory(self) -> bool {
        match self {
            Check::Measure(check) => check.measures_deep_memory(),
            Check::Build | Check::ApiSurface | Check::Board(_) | Check::Solver(_) => false,
        }
    }

    /// Whether the check reads whether the MinPQ was found out of heap order (its lives' queues must be
    /// checked, which an adapter announcing `counters_heap` does only when asked).
    pub fn reads_heap_order(self) -> bool {
        self == Check::Solver(SolverCheck::NoMutationAfterInsert)
    }

    /// Whether the check measures the Solver's own deep memory.
    pub fn measures_solver_memory(self) -> bool {
        match self {
            Check::Measure(check) => check.measures_solver_memory(),
            Check::Build | Check::ApiSurface | Check::Board(_) | Check::Solver(_) => false,
        }
    }

    /// Whether the check's Solvers must be the first of their puzzle in their process
    /// ([`Measure::judges_first_lives`]).
    pub fn judges_first_lives(self) -> bool {
        match self {
            Check::Measure(check) => check.judges_first_lives(),
            Check::Build | Check::ApiSurface | Check::Board(_) | Check::Solver(_) => false,
        }
    }

    /// Whether the check holds a Solver's counts to the search bound of its puzzle (`specs/search-bound.md`):
    /// its file trials need the bound, computed at plan time where the fixtures' metadata lacks it.
    pub fn judges_search_bound(self) -> bool {
        match self {
            Check::Solver(check) => check.judges_search_bound(),
            Check::Measure(check) => check.judges_search_bound(),
            Check::Build | Check::ApiSurface | Check::Board(_) => false,
        }
    }

    /// The walk a k-th test takes from each trial's board (`None`: the check walks nowhere).
    pub fn walk(self) -> Option<Walk> {
        match self {
            Check::Board(check) => check.walk(),
            Check::Build | Check::ApiSurface | Check::Solver(_) | Check::Measure(_) => None,
        }
    }

    /// What the report lists as the test's inputs when they are not its boards (official Board 10a lists the
    /// equals contract's items).
    pub fn inputs_shown(self) -> Option<Vec<String>> {
        match self {
            Check::Board(check) => check.inputs_shown(),
            Check::Build | Check::ApiSurface | Check::Solver(_) | Check::Measure(_) => None,
        }
    }
}

/// The whole catalog, in report order.
pub fn all() -> Vec<Item> {
    let mut items = vec![
        Item {
            id: "compile-1",
            official: Some("Compilation"),
            category: Category::Compile,
            title: "the submission compiles",
            inputs: Inputs::None,
            check: Check::Build,
            depends_on: &[],
            needs: &[],
            explain: "Builds the submission (cargo build --release for Rust, javac for Java). \
                      Usual causes: a syntax error, a missing import, a package declaration in Java.",
            leans: Leans::NONE,
        },
        Item {
            id: "api-1",
            official: Some("API"),
            category: Category::Api,
            title: "no public methods beyond the assignment's API",
            inputs: Inputs::None,
            check: Check::ApiSurface,
            depends_on: &["compile-1"],
            needs: &["api_check"],
            explain: "The assignment fixes Board's and Solver's public API; extra public methods are \
                      flagged (a public static main is allowed). In Rust the traits fix the API, and Python \
                      has no private methods to tell an extra public one by, so there this check does not \
                      apply. Usual cause: a helper left public instead of private.",
            leans: Leans::NONE,
        },
    ];
    let board = |items: Vec<ItemOf<BoardCheck>>| items.into_iter().map(|item| item.map_check(Check::Board));
    let solver = |items: Vec<ItemOf<SolverCheck>>| items.into_iter().map(|item| item.map_check(Check::Solver));
    items.extend(board(board::items()));
    items.extend(solver(solver::items()));
    items.extend(perf::items().into_iter().map(|item| item.map_check(Check::Measure)));
    items.extend(board(board::beyond_items()));
    items.extend(solver(solver::beyond_items()));
    items
}

/// The id of every test `items` make, in catalog order: an item's own id, or one per row of its official
/// table (`timing-2/puzzle20`), whatever the fixtures hold (a row whose file is missing is still a test).
pub fn test_ids(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .flat_map(|item| match item.inputs.rows() {
            Some(rows) => rows.iter().map(|row| row_id(item.id, row)).collect(),
            None => vec![item.id.to_string()],
        })
        .collect()
}

/// The item with this id.
pub fn find(id: &str) -> Option<Item> {
    all().into_iter().find(|item| item.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_item_judged_against_the_search_bound_says_so() {
        for item in all() {
            let says = item.explain.ends_with(search_bound_note!());
            assert_eq!(says, item.check.judges_search_bound(), "{}: {}", item.id, item.explain);
        }
    }

    #[test]
    fn ids_are_unique_and_dependencies_exist_earlier() {
        let items = all();
        let mut seen = HashSet::new();
        for item in &items {
            for dep in item.depends_on {
                assert!(seen.contains(dep), "{} depends on {dep}, which is not listed before it", item.id);
            }
            assert!(seen.insert(item.id), "duplicate id {}", item.id);
            assert!(item.id.starts_with(item.category.name()), "{} is not in {:?}", item.id, item.category);
            assert!(!item.explain.is_empty() && !item.title.is_empty(), "{} lacks text", item.id);
            assert_eq!(item.official.is_none(), item.category == Category::Beyond, "{}", item.id);
        }
    }

    /// Tests per category as the official report (newest format) counts them: 26 + 26 correctness tests,
    /// 10 + 6 + 6 memory rows, 5 × 25 timing rows.
    #[test]
    fn the_official_report_is_mirrored_test_for_test() {
        let items = all();
        let count = |c: Category| {
            let of: Vec<Item> = items.iter().filter(|i| i.category == c).copied().collect();
            test_ids(&of).len()
        };
        assert_eq!(count(Category::Board), 26);
        assert_eq!(count(Category::Solver), 26);
        assert_eq!(count(Category::Memory), 22);
        assert_eq!(count(Category::Timing), 125);
        let labels: Vec<&str> = items.iter().filter_map(|i| i.official).collect();
        for label in ["Board 1a", "Board 10c", "Board 17", "Solver 1", "Solver 10b", "Solver 15b", "Timing 4b"] {
            assert!(labels.contains(&label), "{label} is missing");
        }
        for label in ["Memory Board", "Memory Solver 1", "Memory Solver 2"] {
            assert!(labels.contains(&label), "{label} is missing");
        }
    }

    /// A k-th test's trials are labelled by the walk its check takes (`13th twin of puzzle27.txt`): exactly
    /// the checks that walk have k-th inputs.
    #[test]
    fn kth_inputs_are_exactly_the_walking_checks() {
        for item in all() {
            assert_eq!(matches!(item.inputs, Inputs::Kth(_)), item.check.walk().is_some(), "{}", item.id);
        }
    }

    #[test]
    fn ids_follow_the_official_labels() {
        for item in all().iter().filter(|i| i.category == Category::Board || i.category == Category::Solver) {
            let label = item.official.expect("official");
            let number = label.split(' ').nth(1).expect("a number");
            assert_eq!(item.id, format!("{}-{number}", item.category.name()));
        }
    }

    #[test]
    fn the_timing_puzzles_are_the_official_25_in_order() {
        assert_eq!(TIMING_PUZZLES.len(), 25);
        assert_eq!(TIMING_PUZZLES.iter().collect::<HashSet<_>>().len(), 25);
        assert!(!TIMING_PUZZLES.contains(&"puzzle38") && !TIMING_PUZZLES.contains(&"puzzle42"));
        assert_eq!((TIMING_PUZZLES[0], TIMING_PUZZLES[24]), ("puzzle20", "puzzle45"));
    }
}
