//! Solver correctness items: the official grader's Solver tests, run with the instrumented reference board
//! substituted (the `ref` world), our additions, and the "pair" section (the Solver over the submission's own
//! Board, reported separately).

use super::Category::{Pair, Solver};
use super::{Check, EqualsUsage, Inputs, Item};

const SOLVE: &str = "moves() is the minimum number of moves and solution() a shortest sequence of boards from \
    the initial board to the goal; the solution is checked step by step. Usual causes: a heuristic that is not \
    admissible (e.g. hamming + manhattan), greedy search (priority = manhattan only), returning the solution \
    goal-first, counting moves as solution().size() instead of size() - 1.";
const UNSOLVABLE: &str = "On an unsolvable board, isSolvable() is false, moves() is -1 and solution() is null. \
    The assignment detects this by running A* on the board and its twin in lockstep. Usual causes: a search \
    that never ends because the twin is not searched, returning 0 or an empty list, a parity rule that ignores \
    the blank's row for even n.";
const EQUALS_USAGE: &str = "The critical optimization: do not enqueue a neighbor equal to the previous search \
    node's board, checked with equals() on boards. The reference board counts every equals() call and knows \
    whether its argument is a neighbor of a neighbor. Usual causes: no check at all, comparing against every \
    visited board, comparing search nodes instead of boards.";

const fn item(
    id: &'static str,
    official: Option<&'static str>,
    title: &'static str,
    inputs: Inputs,
    check: Check,
) -> Item {
    Item {
        id,
        official,
        category: Solver,
        title,
        inputs,
        check,
        depends_on: &["compile-1"],
        needs: &["ref_world"],
        explain: SOLVE,
    }
}

/// The Solver and pair items in report order.
pub(super) fn items() -> Vec<Item> {
    let with = |mut item: Item, explain: &'static str, needs: &'static [&'static str]| {
        item.explain = explain;
        item.needs = needs;
        item
    };
    vec![
        item(
            "solver-1a",
            Some("Solver 1a"),
            "moves() and solution() with file inputs puzzle00-13",
            Inputs::PuzzleRange(0, 13),
            Check::Solve,
        ),
        item(
            "solver-1b",
            Some("Solver 1b"),
            "moves() and solution() with file inputs puzzle14-31",
            Inputs::PuzzleRange(14, 31),
            Check::Solve,
        ),
        item(
            "solver-2",
            Some("Solver 2"),
            "moves() and solution() with random 3-by-3 boards exactly k moves from the goal (k = 1..12)",
            Inputs::ExactlyK { from: 1, to: 12, trials: 20 },
            Check::Solve,
        ),
        item(
            "solver-3",
            Some("Solver 3"),
            "two Solver objects can be created at the same time",
            Inputs::PuzzleRange(4, 14),
            Check::TwoSolvers,
        ),
        with(
            item(
                "solver-4a",
                Some("Solver 4a"),
                "isSolvable() with file inputs",
                Inputs::Files(&[
                    "puzzle01",
                    "puzzle03",
                    "puzzle04",
                    "puzzle17",
                    "puzzle3x3-unsolvable1",
                    "puzzle3x3-unsolvable2",
                    "puzzle4x4-unsolvable",
                    "puzzle2x2-unsolvable1",
                    "puzzle2x2-unsolvable2",
                    "puzzle2x2-unsolvable3",
                ]),
                Check::IsSolvable,
            ),
            UNSOLVABLE,
            &["ref_world"],
        ),
        with(
            item(
                "solver-4b",
                Some("Solver 4b"),
                "isSolvable() with random 2-by-2 boards",
                Inputs::RandomAnySolvability { sizes: &[2], trials: 100 },
                Check::IsSolvable,
            ),
            UNSOLVABLE,
            &["ref_world"],
        ),
        with(
            item(
                "solver-5a",
                Some("Solver 5a"),
                "moves() with unsolvable puzzles",
                Inputs::Unsolvable,
                Check::UnsolvableMoves,
            ),
            UNSOLVABLE,
            &["ref_world"],
        ),
        with(
            item(
                "solver-5b",
                Some("Solver 5b"),
                "solution() with unsolvable puzzles",
                Inputs::Unsolvable,
                Check::UnsolvableSolution,
            ),
            UNSOLVABLE,
            &["ref_world"],
        ),
        with(
            item(
                "solver-6a",
                Some("Solver 6a"),
                "immutability: calling Solver methods in different orders (solvable)",
                Inputs::PuzzleRange(4, 12),
                Check::SolverCallOrder,
            ),
            "A Solver must give the same answers however often and in whatever order its methods are called. \
             Usual causes: solution() returning a stack that the next call finds empty, moves() recomputing.",
            &["ref_world"],
        ),
        with(
            item(
                "solver-6b",
                Some("Solver 6b"),
                "immutability: calling Solver methods in different orders (unsolvable)",
                Inputs::Files(&["puzzle3x3-unsolvable1", "puzzle2x2-unsolvable1"]),
                Check::SolverCallOrder,
            ),
            "A Solver must give the same answers however often and in whatever order its methods are called.",
            &["ref_world"],
        ),
        with(
            item(
                "solver-7a",
                Some("Solver 7a"),
                "equals() is called (the critical optimization)",
                Inputs::PuzzleRange(4, 20),
                Check::EqualsUsage(EqualsUsage::Called),
            ),
            EQUALS_USAGE,
            &["ref_world", "counters"],
        ),
        with(
            item(
                "solver-7b",
                Some("Solver 7b"),
                "equals() is called only with an argument of type Board",
                Inputs::PuzzleRange(4, 20),
                Check::EqualsUsage(EqualsUsage::OnlyBoards),
            ),
            EQUALS_USAGE,
            &["ref_world", "counters", "foreign"],
        ),
        with(
            item(
                "solver-7c",
                Some("Solver 7c"),
                "equals() is called only with a neighbor of a neighbor as argument",
                Inputs::PuzzleRange(4, 20),
                Check::EqualsUsage(EqualsUsage::OnlyGrandNeighbors),
            ),
            EQUALS_USAGE,
            &["ref_world", "counters"],
        ),
        with(
            item(
                "solver-8",
                Some("Solver 8"),
                "the constructor throws IllegalArgumentException for a null board",
                Inputs::None,
                Check::NullBoard,
            ),
            "new Solver(null) must throw IllegalArgumentException. Usual cause: no check, so a NullPointerException \
             escapes later. In Rust there is no null board, so this does not apply.",
            &["null"],
        ),
        item(
            "solver-9a",
            Some("Solver 9a"),
            "moves() and solution() with the puzzle2x2 series",
            Inputs::Series { prefix: "puzzle2x2-", max_moves: 6 },
            Check::Solve,
        ),
        item(
            "solver-9b",
            Some("Solver 9b"),
            "moves() and solution() with the puzzle3x3 series",
            Inputs::Series { prefix: "puzzle3x3-", max_moves: 31 },
            Check::Solve,
        ),
        item(
            "solver-9c",
            Some("Solver 9c"),
            "moves() and solution() with the puzzle4x4 series (up to 30 moves)",
            Inputs::Series { prefix: "puzzle4x4-", max_moves: 30 },
            Check::Solve,
        ),
        item(
            "solver-10",
            Some("Solver 10"),
            "moves() and solution() with random n-by-n boards (n = 2..5) at most 20 moves from the goal",
            Inputs::WithinK { sizes: &[2, 3, 4, 5], k: 20, trials: 10 },
            Check::Solve,
        ),
        with(
            item(
                "solver-11",
                Some("Solver 11"),
                "no object's ordering changes after it is inserted into the MinPQ",
                Inputs::PuzzleRange(4, 20),
                Check::NoMutationAfterInsert,
            ),
            "Once a search node is in the priority queue its priority must not change, or the heap breaks. The \
             MinPQ re-checks its heap order. Usual causes: updating a node's moves or priority after insert, \
             a compareTo that depends on mutable state.",
            &["ref_world", "counters"],
        ),
        with(
            item(
                "solver-x1",
                None,
                "a fresh run gives the same answers",
                Inputs::PuzzleRange(10, 20),
                Check::SameAnswersWhenRerun,
            ),
            "The same puzzle solved in a fresh process must give the same moves and the same solution. Usual \
             causes: iteration over a hash set or map of boards, randomness without a fixed seed.",
            &["ref_world"],
        ),
        Item {
            id: "pair-1",
            official: None,
            category: Pair,
            title: "your Solver with your own Board, on puzzle00-31",
            inputs: Inputs::PuzzleRange(0, 31),
            check: Check::Solve,
            depends_on: &["compile-1"],
            needs: &[],
            explain: "Runs your Solver over your own Board, end to end, as your test client would. Reported \
                      separately: the official grader scores the Solver over its reference Board. A failure \
                      here with the Solver tests passing points at your Board.",
        },
    ]
}
