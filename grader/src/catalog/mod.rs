//! The test catalog: every check the grader makes, as plain data.
//!
//! An [`Item`] says what is checked (its [`Check`] kind and [`Inputs`]), how it is presented (id, the official
//! test it mirrors, title, explanation) and how it counts (category, points, dependencies, capabilities it
//! needs). Items never run anything: `plan` resolves their inputs, `runner::checks` asks the submission, and
//! `judge` compares. `specs/catalog.md` is generated from this list (`grader catalog --markdown`), and a test
//! keeps it current.

mod board;
mod perf;
mod solver;

use serde::Serialize;

/// A section of the report, scored as one share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// The submission builds.
    Compile,
    /// The submission's API matches the assignment's.
    Api,
    /// Board correctness, on the submission's own Board.
    Board,
    /// Solver correctness, with the reference board substituted.
    Solver,
    /// The submission's Solver over its own Board (reported, not scored by default).
    Pair,
    /// Memory of Board, Solver and MinPQ.
    Memory,
    /// Timing and operation counts.
    Timing,
}

impl Category {
    /// Every category in report order.
    pub const ALL: [Category; 7] = [
        Category::Compile,
        Category::Api,
        Category::Board,
        Category::Solver,
        Category::Pair,
        Category::Memory,
        Category::Timing,
    ];

    /// The name used in ids, policies and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Category::Compile => "compile",
            Category::Api => "api",
            Category::Board => "board",
            Category::Solver => "solver",
            Category::Pair => "pair",
            Category::Memory => "memory",
            Category::Timing => "timing",
        }
    }

    /// The heading used in reports.
    pub fn heading(self) -> &'static str {
        match self {
            Category::Compile => "Compilation",
            Category::Api => "API",
            Category::Board => "Correctness: Board",
            Category::Solver => "Correctness: Solver (reference Board substituted)",
            Category::Pair => "Your Solver with your Board",
            Category::Memory => "Memory",
            Category::Timing => "Timing",
        }
    }
}

/// A Board method that returns a number or a boolean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// `hamming()`.
    Hamming,
    /// `manhattan()`.
    Manhattan,
    /// `dimension()`.
    Dimension,
    /// `isGoal()`.
    IsGoal,
}

/// Which property of `equals` is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EqualsProperty {
    /// `a.equals(a)`.
    Reflexive,
    /// `a.equals(b) == b.equals(a)`.
    Symmetric,
    /// `a = b` and `b = c` imply `a = c`.
    Transitive,
    /// `a.equals(null)` is false.
    Null,
    /// `a.equals("a string")` is false.
    Foreign,
    /// `a.equals(x)` for a type that cannot be cast is false.
    Uncastable,
    /// The argument held in a variable of type `Object`.
    AsObject,
    /// Random pairs of boards, equal and unequal.
    Random,
    /// Boards of different sizes are unequal.
    DifferentSizes,
}

/// How the Solver uses `equals`, from the reference board's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EqualsUsage {
    /// It is called at all (the critical optimization).
    Called,
    /// Only with a Board argument.
    OnlyBoards,
    /// Only with a neighbor of a neighbor of the receiver.
    OnlyGrandNeighbors,
}

/// What a timing test judges on one solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimingAspect {
    /// CPU time within the limit, and the right answer.
    CpuAndAnswer,
    /// MinPQ insert and delMin counts against the reference.
    QueueCounts,
    /// hamming() and toString() never called.
    ForbiddenCalls,
    /// Constructions, equals and manhattan against the reference (loose).
    BoardCounts,
    /// manhattan() about once per board created (strict caching).
    StrictManhattan,
}

/// The kind of check an item makes; `runner::checks` has one executor per kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The submission builds (judged by the build step).
    Compiles,
    /// No public methods beyond the assignment's API.
    ApiSurface,
    /// A numeric or boolean Board method against the reference.
    BoardValue(Method),
    /// `toString()` against the reference text.
    ToString,
    /// `neighbors()` as a set of boards.
    Neighbors,
    /// `neighbors()` of every neighbor.
    NeighborsOfNeighbors,
    /// `twin()` is a legal twin.
    Twin,
    /// Two boards alive at once keep their own answers.
    TwoBoards,
    /// A property of `equals`.
    Equals(EqualsProperty),
    /// Changing the caller's array after construction does not change the board.
    ImmutableArray,
    /// Calling methods in different orders gives the same answers.
    ImmutableCallOrder,
    /// dimension, hamming, manhattan of the k-th neighbor and of the twin.
    KthNeighborAndTwin,
    /// Neighbors: right count, no duplicates, each one legal slide.
    NeighborsLegal,
    /// Twin: exactly two non-blank tiles exchanged, the same on every call.
    TwinLegal,
    /// moves() and solution() are right (solution checked step by step).
    Solve,
    /// Two solvers alive at once keep their own answers.
    TwoSolvers,
    /// isSolvable() is right.
    IsSolvable,
    /// moves() is −1 on unsolvable input.
    UnsolvableMoves,
    /// solution() is null on unsolvable input.
    UnsolvableSolution,
    /// Calling Solver methods in different orders gives the same answers.
    SolverCallOrder,
    /// How the Solver calls equals.
    EqualsUsage(EqualsUsage),
    /// The constructor rejects a null board.
    NullBoard,
    /// No item's ordering changes after it is inserted into the MinPQ.
    NoMutationAfterInsert,
    /// A fresh process gives the same answers.
    SameAnswersWhenRerun,
    /// Memory of one Board against the bound.
    BoardMemory,
    /// Memory retained by the Solver against the reference.
    SolverMemory,
    /// MinPQ maximum and ending size against the reference.
    QueueMemory,
    /// One aspect of a timing solve.
    Timing(TimingAspect),
}

/// Where an item's boards come from; `plan` resolves them against the fixtures and the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inputs {
    /// Nothing (checks that need no board).
    None,
    /// Named fixture files.
    Files(&'static [&'static str]),
    /// The `puzzle00`..`puzzleNN` files in a range of T.
    PuzzleRange(u32, u32),
    /// A named series (e.g. `puzzle3x3-`), up to a number of moves.
    Series {
        /// The file-name prefix.
        prefix: &'static str,
        /// Puzzles needing more moves are left out.
        max_moves: u32,
    },
    /// Every unsolvable fixture.
    Unsolvable,
    /// Seeded random solvable boards: `trials` of each size.
    Random {
        /// Board sizes.
        sizes: &'static [usize],
        /// Trials per size.
        trials: usize,
    },
    /// Seeded random boards of any solvability, `trials` of each size (isSolvable on 2-by-2).
    RandomAnySolvability {
        /// Board sizes.
        sizes: &'static [usize],
        /// Trials per size.
        trials: usize,
    },
    /// Goal boards of each size.
    Goals(&'static [usize]),
    /// Seeded 3-by-3 boards exactly k moves from the goal, for k in the range.
    ExactlyK {
        /// Smallest k.
        from: u32,
        /// Largest k.
        to: u32,
        /// Trials per k.
        trials: usize,
    },
    /// Seeded boards of each size at most `k` moves from the goal.
    WithinK {
        /// Board sizes.
        sizes: &'static [usize],
        /// The most moves.
        k: u32,
        /// Trials per size.
        trials: usize,
    },
    /// The timing puzzles (one test per puzzle).
    TimingPuzzles,
    /// Puzzles of 10 to 35 moves for the memory section.
    MemoryPuzzles,
}

/// One catalog item.
#[derive(Debug, Clone, Copy)]
pub struct Item {
    /// Stable id, e.g. `board-5a`.
    pub id: &'static str,
    /// The official test it mirrors, e.g. `Board 5a`; `None` for our additions.
    pub official: Option<&'static str>,
    /// Its section.
    pub category: Category,
    /// The student-facing title.
    pub title: &'static str,
    /// Where its boards come from.
    pub inputs: Inputs,
    /// What is checked.
    pub check: Check,
    /// Items that must pass first; if one fails, this item is skipped with the reason.
    pub depends_on: &'static [&'static str],
    /// Capabilities the submission must announce; without them the item is not applicable.
    pub needs: &'static [&'static str],
    /// What it checks, why, and the usual causes of failure (for `grader explain` and hints).
    pub explain: &'static str,
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
            check: Check::Compiles,
            depends_on: &[],
            needs: &[],
            explain: "Builds the submission (cargo build --release for Rust, javac for Java). \
                      Usual causes: a syntax error, a missing import, a package declaration in Java.",
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
                      flagged (a public static main is allowed). In Rust the traits fix the API, so this \
                      check does not apply. Usual cause: a helper left public instead of private.",
        },
    ];
    items.extend(board::items());
    items.extend(solver::items());
    items.extend(perf::items());
    items
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
        }
    }

    #[test]
    fn memory_3_explains_the_node_allowance_the_check_uses() {
        let item = all().into_iter().find(|i| i.id == "memory-3").expect("memory-3 is listed");
        let allowance = format!("plus {} bytes each", crate::runner::checks::SEARCH_NODE_BYTES);
        assert!(item.explain.contains(&allowance), "{}", item.explain);
    }

    #[test]
    fn the_official_counts_are_covered() {
        let items = all();
        // Items expanded per k count once per k, as the official grader numbers them.
        let tests_of = |i: &Item| match i.inputs {
            Inputs::ExactlyK { from, to, .. } => (to - from + 1) as usize,
            _ => 1,
        };
        let official =
            |c: Category| items.iter().filter(|i| i.category == c && i.official.is_some()).map(tests_of).sum::<usize>();
        assert!(official(Category::Board) >= 26, "board: {}", official(Category::Board));
        assert!(official(Category::Solver) >= 25, "solver: {}", official(Category::Solver));
    }
}
