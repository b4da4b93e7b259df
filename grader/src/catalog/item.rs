//! What every catalog item is made of, below the files that write items: the item's fields, generic over
//! its check kind so each catalog file can write items of its own kinds without naming the catalog's
//! [`Check`](super::Check) (which wraps those kinds), and the inputs an item draws its boards from.

use crate::results::{BoardMethod, Category, Leans};

/// Which random boards: any permutation (as the official Board tests draw them), or only solvable or only
/// unsolvable ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Draw {
    /// Uniformly random permutations, solvable or not.
    Any,
    /// Random solvable boards.
    Solvable,
    /// Random unsolvable boards.
    Unsolvable,
}

/// Where an item's boards come from; `plan` resolves them against the fixtures and the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inputs {
    /// Nothing (checks that need no board).
    None,
    /// Named fixture files, then seeded random boards: `(n, trials)` for each size.
    Boards {
        /// Fixture files, by name without `.txt`.
        files: &'static [&'static str],
        /// Random boards: `(n, trials)` for each size.
        random: &'static [(usize, usize)],
        #[allow(missing_docs)]
        draw: Draw,
    },
    /// The `puzzle00`..`puzzleNN` files in a range of T.
    PuzzleRange(u32, u32),
    /// A named series (e.g. `puzzle3x3-`), from 00 up to a number of moves.
    Series {
        /// The file-name prefix.
        prefix: &'static str,
        /// The last number of the series.
        last: u32,
    },
    /// Seeded random pairs of boards `(m, n)`, `trials` of each (the trial's partner is the second board).
    Pairs {
        /// Sizes of the two boards.
        sizes: &'static [(usize, usize)],
        /// Trials per pair of sizes.
        trials: usize,
    },
    /// Pairs of fixture files (the trial's partner is the second).
    FilePairs(&'static [(&'static str, &'static str)]),
    /// Goal boards of each size.
    Goals(&'static [usize]),
    /// The board reached from a fixture by k steps (`(file, k)`): random neighbor steps or twin() calls.
    Kth(&'static [(&'static str, u32)]),
    /// Seeded 3-by-3 boards exactly k moves from the goal, for k in the range.
    ExactlyK {
        /// Smallest k.
        from: u32,
        /// Largest k.
        to: u32,
        /// Trials per k.
        trials: usize,
    },
    /// Seeded boards at most `k` moves from the goal: `(n, trials)` for each size.
    WithinK {
        /// `(n, trials)` for each size.
        sizes: &'static [(usize, usize)],
        /// The most moves.
        k: u32,
    },
    /// One test per board size of the official Board memory table.
    MemorySizes,
    /// One test per puzzle of the official Solver memory tables (puzzle10, 15, 20, 25, 30, 35).
    MemoryPuzzles,
    /// One test per official timing puzzle, in the official order.
    TimingPuzzles,
}

impl Inputs {
    /// Whether each input is a test of its own (a row of an official table).
    pub fn is_per_row(self) -> bool {
        matches!(self, Inputs::MemorySizes | Inputs::MemoryPuzzles | Inputs::TimingPuzzles)
    }

    /// The rows of an official table these inputs make, each a test of its own (`puzzle20`, `n=12`), in
    /// table order; `None` for inputs that make one test.
    pub fn rows(self) -> Option<Vec<String>> {
        match self {
            Inputs::MemorySizes => Some(MEMORY_SIZES.iter().map(|n| format!("n={n}")).collect()),
            Inputs::MemoryPuzzles => Some(MEMORY_PUZZLES.map(String::from).to_vec()),
            Inputs::TimingPuzzles => Some(TIMING_PUZZLES.map(String::from).to_vec()),
            _ => None,
        }
    }
}

/// The id of a row of an official table: the item's id and the row (`timing-2/puzzle20`).
pub fn row_id(item_id: &str, row: &str) -> String {
    format!("{item_id}/{row}")
}

/// The official timing puzzles, in the order the official grader times them.
pub const TIMING_PUZZLES: [&str; 25] = [
    "puzzle20", "puzzle22", "puzzle21", "puzzle23", "puzzle24", "puzzle25", "puzzle27", "puzzle29", "puzzle26",
    "puzzle28", "puzzle30", "puzzle31", "puzzle39", "puzzle41", "puzzle34", "puzzle37", "puzzle44", "puzzle32",
    "puzzle35", "puzzle33", "puzzle43", "puzzle46", "puzzle40", "puzzle36", "puzzle45",
];

/// The puzzles of the official Solver and MinPQ memory tables.
pub const MEMORY_PUZZLES: [&str; 6] = ["puzzle10", "puzzle15", "puzzle20", "puzzle25", "puzzle30", "puzzle35"];

/// Board sizes of the official Board memory table.
pub const MEMORY_SIZES: [usize; 10] = [2, 3, 4, 8, 12, 16, 20, 37, 72, 120];

/// One check as data: what it asks (its check kind `C`, [`Inputs`]), how it is shown (id, official label, title,
/// explanation) and how it counts (category, dependencies, capabilities). It never runs anything.
#[derive(Debug, Clone, Copy)]
pub struct ItemOf<C> {
    /// Stable id, e.g. `board-5a`; a per-row item's tests add the row (`timing-2/puzzle20`).
    pub id: &'static str,
    /// The official test's label exactly (`Board 5a`, `Memory Solver 1`, `Timing 4a`); `None` for ours.
    pub official: Option<&'static str>,
    #[allow(missing_docs)]
    pub category: Category,
    /// The student-facing title (the official one, for official tests).
    pub title: &'static str,
    /// Where its boards come from.
    pub inputs: Inputs,
    /// What it checks: the catalog's [`Check`](super::Check), or, in the file that writes the item, that
    /// file's own kinds (mapped to a `Check` when the catalog is assembled).
    pub check: C,
    /// Items that must pass first; if one fails, this item is skipped with the reason.
    pub depends_on: &'static [&'static str],
    /// Capabilities the submission must announce; without them the item is not applicable.
    pub needs: &'static [&'static str],
    /// What it checks, why, and the usual causes of failure (for `grader explain` and hints).
    pub explain: &'static str,
    /// The Board methods it checks and reads boards through (fix-first groups failures by them).
    pub leans: Leans,
}

impl<C> ItemOf<C> {
    /// The same item with its check kind mapped (a catalog file's own kinds into the catalog's `Check`).
    pub fn map_check<D>(self, f: impl FnOnce(C) -> D) -> ItemOf<D> {
        let ItemOf { id, official, category, title, inputs, check, depends_on, needs, explain, leans } = self;
        ItemOf { id, official, category, title, inputs, check: f(check), depends_on, needs, explain, leans }
    }

    /// The same item, leaning on these Board methods: those it `checks`, those it `reads` boards through.
    pub fn leaning(self, checks: &'static [BoardMethod], reads: &'static [BoardMethod]) -> Self {
        ItemOf { leans: Leans { checks, reads }, ..self }
    }
}

/// A Solver method a test calls after the constructor. Each Solver, memory and timing check writes the calls
/// its official counterpart makes, in order ([`SolverCall::life`] adds the rest), and is judged on those
/// calls alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SolverCall {
    #[allow(missing_docs)]
    Moves,
    #[allow(missing_docs)]
    IsSolvable,
    #[allow(missing_docs)]
    Solution,
}

impl SolverCall {
    /// The order a Solver's remaining methods are called in after a test's own calls.
    pub const REST: [SolverCall; 3] = [SolverCall::Moves, SolverCall::Solution, SolverCall::IsSolvable];

    /// The whole life a test asks of a Solver: its own `calls`, then every other method once, so that work a
    /// Solver puts off until one of them is called is still charged to it (those later calls are never
    /// judged).
    pub fn life(calls: &[SolverCall]) -> [SolverCall; 3] {
        let mut order = SolverCall::REST;
        let mut next = 0;
        for call in calls.iter().chain(&SolverCall::REST) {
            if !order[..next].contains(call) {
                order[next] = *call;
                next += 1;
            }
        }
        order
    }

    /// The method as the report names it.
    pub fn name(self) -> &'static str {
        match self {
            SolverCall::Moves => "moves()",
            SolverCall::IsSolvable => "isSolvable()",
            SolverCall::Solution => "solution()",
        }
    }

    /// A call list as the catalog prints it: `new Solver(board), moves(), solution()`.
    pub fn describe(calls: &[SolverCall]) -> String {
        std::iter::once("new Solver(board)").chain(calls.iter().map(|c| c.name())).collect::<Vec<_>>().join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::SolverCall::{self, IsSolvable, Moves, Solution};

    #[test]
    fn a_life_asks_the_tests_own_calls_first_then_every_other_method_once() {
        assert_eq!(SolverCall::life(&[]), [Moves, Solution, IsSolvable]);
        assert_eq!(SolverCall::life(&[Moves]), [Moves, Solution, IsSolvable]);
        assert_eq!(SolverCall::life(&[Moves, Solution]), [Moves, Solution, IsSolvable]);
        assert_eq!(SolverCall::life(&[IsSolvable]), [IsSolvable, Moves, Solution]);
        assert_eq!(SolverCall::life(&[Solution]), [Solution, Moves, IsSolvable]);
        assert_eq!(SolverCall::life(&[Solution, Solution]), [Solution, Moves, IsSolvable]);
    }

    #[test]
    fn calls_are_printed_after_the_constructor() {
        assert_eq!(SolverCall::describe(&[Moves, Solution]), "new Solver(board), moves(), solution()");
        assert_eq!(SolverCall::describe(&[]), "new Solver(board)");
    }
}
