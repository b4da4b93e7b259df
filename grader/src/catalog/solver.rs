//! Solver correctness items: the official grader's 26 Solver tests with its inputs, run with the instrumented
//! reference board substituted (the `ref` world), and this project's own Solver checks (the "beyond" section,
//! one of which runs the Solver over the submission's own Board).

use super::item::{Draw, Inputs, ItemOf, SolverCall};
use crate::results::Category::{Beyond, Solver};
use crate::results::{BoardMethod, Leans};

type Item = ItemOf<SolverCheck>;

/// How the Solver uses `equals`, from the reference board's counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EqualsUsage {
    /// It is called at all (the critical optimization).
    Called,
    /// Only with a Board argument (a null argument is allowed, as officially).
    OnlyBoards,
    /// Only with a neighbor of a neighbor of the receiver.
    OnlyGrandNeighbors,
}

/// What a Solver correctness test judges of one solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolveAspect {
    /// moves() (official "a" tests).
    Moves,
    /// solution(), checked step by step (official "b" tests).
    Solution,
    /// Both (this project's own end-to-end run).
    Both,
}

/// The Solver checks (`runner::checks::solver`): most judged trial by trial, two once over the whole test
/// (the executor's match says which).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SolverCheck {
    /// moves() and/or solution() are right.
    Solve(SolveAspect),
    /// Two solvers alive at once keep their own moves() (official Solver 5).
    TwoSolvers,
    /// Two solvers alive at once keep their own moves(), isSolvable() and solution().
    TwoSolversEveryAnswer,
    /// isSolvable() is right.
    IsSolvable,
    /// moves() is −1 on unsolvable input.
    UnsolvableMoves,
    /// solution() is null on unsolvable input.
    UnsolvableSolution,
    /// Calling Solver methods in different orders gives the same answers.
    CallOrder,
    /// How the Solver calls equals.
    EqualsUsage(EqualsUsage),
    /// No item's ordering changes after it is inserted into the MinPQ.
    NoMutationAfterInsert,
    /// The Solver puts its search nodes in the MinPQ it was given (counts are evidence only then).
    UsesMinPq,
    /// The constructor rejects a null board (no trials).
    NullBoard,
    /// A fresh process gives the same answers on every trial.
    SameAnswersWhenRerun,
}

impl SolverCheck {
    /// Whether a trial fails on counts below its puzzle's search bound (`runner::checks::search_bound`): the
    /// checks that read the counts as evidence of the search.
    pub fn judges_search_bound(self) -> bool {
        match self {
            SolverCheck::EqualsUsage(_) | SolverCheck::UsesMinPq => true,
            SolverCheck::Solve(_)
            | SolverCheck::TwoSolvers
            | SolverCheck::TwoSolversEveryAnswer
            | SolverCheck::IsSolvable
            | SolverCheck::UnsolvableMoves
            | SolverCheck::UnsolvableSolution
            | SolverCheck::CallOrder
            | SolverCheck::NoMutationAfterInsert
            | SolverCheck::NullBoard
            | SolverCheck::SameAnswersWhenRerun => false,
        }
    }

    /// The Solver methods the test calls on each Solver it builds, in order, and the only calls it is judged
    /// on: an official test makes its official counterpart's calls; a test that judges what the constructor
    /// did (or builds no Solver) calls none.
    pub fn calls(self) -> &'static [SolverCall] {
        use SolverCall::{IsSolvable, Moves, Solution};
        match self {
            SolverCheck::Solve(SolveAspect::Moves) | SolverCheck::TwoSolvers | SolverCheck::UnsolvableMoves => &[Moves],
            SolverCheck::Solve(SolveAspect::Solution) | SolverCheck::SameAnswersWhenRerun => &[Moves, Solution],
            SolverCheck::Solve(SolveAspect::Both) => &[Moves, Solution, IsSolvable],
            SolverCheck::TwoSolversEveryAnswer => &[Moves, IsSolvable, Solution],
            SolverCheck::IsSolvable => &[IsSolvable],
            SolverCheck::UnsolvableSolution => &[Solution],
            SolverCheck::CallOrder => &[Solution, Moves, IsSolvable, Solution, Moves, IsSolvable, Solution],
            SolverCheck::EqualsUsage(_)
            | SolverCheck::NoMutationAfterInsert
            | SolverCheck::UsesMinPq
            | SolverCheck::NullBoard => &[],
        }
    }
}

const SOLVE: &str = "moves() is the minimum number of moves and solution() a shortest sequence of boards from \
    the initial board to the goal; the solution is checked step by step. Usual causes: a heuristic that is not \
    admissible (e.g. hamming + manhattan), greedy search (priority = manhattan only), returning the solution \
    goal-first, counting moves as solution().size() instead of size() - 1.";
const UNSOLVABLE: &str = "On an unsolvable board, isSolvable() is false, moves() is -1 and solution() is null. \
    The assignment detects this by running A* on the board and its twin in lockstep. Usual causes: a search \
    that never ends because the twin is not searched, returning 0 or an empty list, a parity rule that ignores \
    the blank's row for even n.";
const EQUALS_USAGE: &str = concat!(
    "The critical optimization: do not enqueue a neighbor equal to the previous search node's board, checked \
     with equals() on boards. The reference board counts every equals() call and knows whether its argument is \
     a neighbor of a neighbor; a null argument (the root's missing predecessor) is allowed, and so is a hash \
     set's probe (Rust's HashSet compares boards whose hashes only partly agree, where Java's compares whole \
     hashes first: the Rust reference board does not count an unequal comparison of two boards it has hashed). \
     Usual causes: no check at all, comparing against every visited board, comparing search nodes instead of \
     boards.",
    search_bound_note!()
);
const CALL_ORDER: &str = "A Solver must give the same answers however often and in whatever order its methods \
    are called. Usual causes: solution() returning a stack that the next call finds empty, moves() recomputing.";

const UNSOLVABLE_FILES: &[&str] = &[
    "puzzle2x2-unsolvable1",
    "puzzle2x2-unsolvable2",
    "puzzle3x3-unsolvable1",
    "puzzle3x3-unsolvable2",
    "puzzle4x4-unsolvable",
];

const fn files(names: &'static [&'static str]) -> Inputs {
    Inputs::Boards { files: names, random: &[], draw: Draw::Any }
}

fn item(
    id: &'static str,
    official: &'static str,
    title: &'static str,
    inputs: Inputs,
    check: SolverCheck,
    explain: &'static str,
    needs: &'static [&'static str],
) -> Item {
    Item {
        id,
        official: Some(official),
        category: Solver,
        title,
        inputs,
        check,
        depends_on: &["compile-1"],
        needs,
        explain,
        leans: Leans::NONE,
    }
}

const REF: &[&str] = &["ref_world"];
const COUNTED: &[&str] = &["ref_world", "counters"];

/// A pair of official tests: "a" judges moves(), "b" solution(), on the same inputs.
fn moves_and_solution(
    ids: [&'static str; 2],
    official: [&'static str; 2],
    titles: [&'static str; 2],
    inputs: Inputs,
) -> [Item; 2] {
    [
        item(ids[0], official[0], titles[0], inputs, SolverCheck::Solve(SolveAspect::Moves), SOLVE, REF),
        item(ids[1], official[1], titles[1], inputs, SolverCheck::Solve(SolveAspect::Solution), SOLVE, REF),
    ]
}

/// The Solver items in report order.
pub(super) fn items() -> Vec<Item> {
    let mut items = vec![item(
        "solver-1",
        "Solver 1",
        "check that Solver doesn't mutate objects added to MinPQ after they've been added",
        Inputs::PuzzleRange(0, 8),
        SolverCheck::NoMutationAfterInsert,
        "Once a search node is in the priority queue its priority must not change, or the heap breaks. The \
         MinPQ re-checks its heap order. Usual causes: updating a node's moves or priority after insert, a \
         compareTo that depends on mutable state.",
        COUNTED,
    )];
    items.extend(moves_and_solution(
        ["solver-2a", "solver-2b"],
        ["Solver 2a", "Solver 2b"],
        ["check moves() with file inputs", "check solution() with file inputs"],
        Inputs::PuzzleRange(0, 13),
    ));
    items.extend(moves_and_solution(
        ["solver-3a", "solver-3b"],
        ["Solver 3a", "Solver 3b"],
        ["check moves() with more file inputs", "check solution() with more file inputs"],
        Inputs::PuzzleRange(14, 31),
    ));
    items.extend(moves_and_solution(
        ["solver-4a", "solver-4b"],
        ["Solver 4a", "Solver 4b"],
        ["check moves() with random solvable n-by-n boards", "check solution() with random solvable n-by-n boards"],
        Inputs::ExactlyK { from: 1, to: 12, trials: 1000 },
    ));
    items.push(item(
        "solver-5",
        "Solver 5",
        "create two Solver objects at the same time",
        Inputs::FilePairs(&[("puzzle04", "puzzle04"), ("puzzle00", "puzzle04"), ("puzzle04", "puzzle00")]),
        SolverCheck::TwoSolvers,
        SOLVE,
        REF,
    ));
    items.extend([
        item(
            "solver-6a",
            "Solver 6a",
            "call isSolvable() with file inputs",
            files(&[
                "puzzle01",
                "puzzle03",
                "puzzle04",
                "puzzle17",
                "puzzle3x3-unsolvable1",
                "puzzle3x3-unsolvable2",
                "puzzle4x4-unsolvable",
            ]),
            SolverCheck::IsSolvable,
            UNSOLVABLE,
            REF,
        ),
        item(
            "solver-6b",
            "Solver 6b",
            "call isSolvable() on random n-by-n boards",
            // Solvable boards: a Solver the official grader ran, printing a line per unsolvable board it met,
            // printed one for every unsolvable file of 6a, 7, 8 and 9b and none for 6b's 100 (OFFICIAL-TESTS.md,
            // section 3), which about half of uniformly drawn 2-by-2 boards would be. A Solver wrong only on an
            // unsolvable board whose twin is the goal fails 9b's random unsolvable boards instead.
            Inputs::Boards { files: &[], random: &[(2, 100)], draw: Draw::Solvable },
            SolverCheck::IsSolvable,
            UNSOLVABLE,
            REF,
        ),
        item(
            "solver-7",
            "Solver 7",
            "check moves() on unsolvable puzzles",
            files(UNSOLVABLE_FILES),
            SolverCheck::UnsolvableMoves,
            UNSOLVABLE,
            REF,
        ),
        item(
            "solver-8",
            "Solver 8",
            "check solution() on unsolvable puzzles",
            files(UNSOLVABLE_FILES),
            SolverCheck::UnsolvableSolution,
            UNSOLVABLE,
            REF,
        ),
        item(
            "solver-9a",
            "Solver 9a",
            "check that Solver is immutable by testing whether methods return the same value, regardless of \
             order in which called",
            Inputs::Boards {
                files: &["puzzle3x3-00", "puzzle3x3-01", "puzzle3x3-05", "puzzle3x3-10"],
                random: &[(2, 10)],
                draw: Draw::Solvable,
            },
            SolverCheck::CallOrder,
            CALL_ORDER,
            REF,
        ),
        item(
            "solver-9b",
            "Solver 9b",
            "check that Solver is immutable by testing whether methods return the same value, regardless of \
             order in which called",
            Inputs::Boards {
                files: &["puzzle3x3-unsolvable1", "puzzle3x3-unsolvable2", "puzzle4x4-unsolvable"],
                random: &[(2, 10)],
                draw: Draw::Unsolvable,
            },
            SolverCheck::CallOrder,
            CALL_ORDER,
            REF,
        ),
        item(
            "solver-10a",
            "Solver 10a",
            "check that equals() method in Board is called",
            files(&["puzzle04", "puzzle05", "puzzle10"]),
            SolverCheck::EqualsUsage(EqualsUsage::Called),
            EQUALS_USAGE,
            COUNTED,
        ),
        item(
            "solver-10b",
            "Solver 10b",
            "check that equals() method in Board is called only with an argument of type Board",
            files(&["puzzle00", "puzzle04", "puzzle05", "puzzle10"]),
            SolverCheck::EqualsUsage(EqualsUsage::OnlyBoards),
            EQUALS_USAGE,
            &["ref_world", "counters", "foreign"],
        ),
        item(
            "solver-10c",
            "Solver 10c",
            "check that equals() method in Board is called only with a neighbor of a neighbor as an argument",
            files(&["puzzle00", "puzzle04", "puzzle05", "puzzle10", "puzzle27"]),
            SolverCheck::EqualsUsage(EqualsUsage::OnlyGrandNeighbors),
            EQUALS_USAGE,
            COUNTED,
        ),
        item(
            "solver-11",
            "Solver 11",
            "check that constructor throws exception if board is null",
            Inputs::None,
            SolverCheck::NullBoard,
            "new Solver(null) must throw IllegalArgumentException. Usual cause: no check, so a \
             NullPointerException escapes later. In Rust there is no null board, so this does not apply.",
            &["null", "ref_world"],
        ),
    ]);
    items.extend(moves_and_solution(
        ["solver-12a", "solver-12b"],
        ["Solver 12a", "Solver 12b"],
        ["check moves() with 2-by-2 file inputs", "check solution() with 2-by-2 file inputs"],
        Inputs::Series { prefix: "puzzle2x2-", last: 6 },
    ));
    items.extend(moves_and_solution(
        ["solver-13a", "solver-13b"],
        ["Solver 13a", "Solver 13b"],
        ["check moves() with 3-by-3 file inputs", "check solution() with 3-by-3 file inputs"],
        Inputs::Series { prefix: "puzzle3x3-", last: 30 },
    ));
    items.extend(moves_and_solution(
        ["solver-14a", "solver-14b"],
        ["Solver 14a", "Solver 14b"],
        ["check moves() with 4-by-4 file inputs", "check solution() with 4-by-4 file inputs"],
        Inputs::Series { prefix: "puzzle4x4-", last: 30 },
    ));
    items.extend(moves_and_solution(
        ["solver-15a", "solver-15b"],
        ["Solver 15a", "Solver 15b"],
        ["check moves() with random solvable n-by-n boards", "check solution() with random solvable n-by-n boards"],
        Inputs::WithinK { sizes: &[(2, 100), (3, 200), (4, 200), (5, 200)], k: 20 },
    ));
    items
}

/// This project's own Solver checks (section "Beyond the official grader").
pub(super) fn beyond_items() -> Vec<Item> {
    let beyond = |id, title, inputs, check: SolverCheck, explain, needs| Item {
        id,
        official: None,
        category: Beyond,
        title,
        inputs,
        check,
        depends_on: &["compile-1"],
        needs,
        explain,
        leans: Leans::NONE,
    };
    vec![
        beyond(
            "beyond-minpq",
            "the Solver puts its search nodes in the MinPQ it was given",
            Inputs::PuzzleRange(4, 12),
            SolverCheck::UsesMinPq,
            concat!(
                "The assignment requires the textbook MinPQ: the official grader counts its operations, and so do \
                 we. A solved puzzle with no MinPQ insert() shows a Solver that built its own queue (a \
                 java.util.PriorityQueue, a BinaryHeap), so none of its counts mean anything. What the MinPQ \
                 holds is the Solver's choice: Integer indices into a list of its own search nodes are as good \
                 as the nodes.",
                search_bound_note!()
            ),
            COUNTED,
        ),
        beyond(
            "beyond-two-solvers",
            "two Solver objects at the same time each keep their own answers",
            Inputs::FilePairs(&[
                ("puzzle04", "puzzle00"),
                ("puzzle00", "puzzle04"),
                ("puzzle04", "puzzle3x3-unsolvable1"),
                ("puzzle3x3-unsolvable1", "puzzle04"),
            ]),
            SolverCheck::TwoSolversEveryAnswer,
            "Two Solvers built one after the other must each keep their own moves(), isSolvable() and \
             solution(). The official Solver 5 compares moves() only, so a Solver whose solution list or \
             solvability is a static field (the second Solver replaces the first one's) passes it. Usual causes: \
             a static field for the goal node, the path or a flag.",
            REF,
        ),
        beyond(
            "beyond-rerun",
            "a fresh run gives the same answers",
            Inputs::PuzzleRange(10, 20),
            SolverCheck::SameAnswersWhenRerun,
            "The same puzzle solved in a fresh process must give the same moves and the same solution. Usual \
             causes: iteration over a hash set or map of boards, randomness without a fixed seed.",
            REF,
        ),
        beyond(
            "beyond-pair",
            "your Solver with your own Board, on puzzle00-31",
            Inputs::PuzzleRange(0, 31),
            SolverCheck::Solve(SolveAspect::Both),
            "Runs your Solver over your own Board, end to end, as your test client would. The official grader \
             scores the Solver over its reference Board only. A failure here with the Solver tests passing \
             points at your Board.",
            &[],
        )
        .leaning(
            &[],
            &[
                BoardMethod::Hamming,
                BoardMethod::Manhattan,
                BoardMethod::ToString,
                BoardMethod::IsGoal,
                BoardMethod::Equals,
                BoardMethod::Neighbors,
                BoardMethod::Twin,
            ],
        ),
    ]
}
