//! Memory and timing items: the official grader's memory tables (Board, Solver, MinPQ) and its five timing
//! tables. Each row of an official table is one test, scored as one; counts and bytes carry the grade, and
//! CPU time is a cap only. Every aspect of one puzzle is judged from a single solve.

use super::item::{Inputs, ItemOf, SolverCall};
use crate::results::Category::{Memory, Timing};
use crate::results::Leans;

type Item = ItemOf<Measure>;
use TimingAspect as T;

/// What a timing test judges on one solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimingAspect {
    /// Test 1: CPU time within the limit, and the right answer.
    CpuAndAnswer,
    /// Test 2: MinPQ insert() and delMin() counts against the reference.
    QueueCounts,
    /// Test 3: toString() never called (hamming() is printed, not judged, as officially).
    ForbiddenCalls,
    /// Test 4a: Board() and equals() against the reference.
    BoardCounts,
    /// Test 4b: Board(), equals() and manhattan() against the reference (manhattan() against the reference's
    /// insert() + delMin()).
    StrictBoardCounts,
}

/// Memory and timing checks, judged trial by trial (one trial per row of an official table;
/// `runner::checks::perf::run`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// Memory of one Board of one size; the rows share one verdict on the Board's growth.
    BoardMemory,
    /// Memory retained by the Solver against the reference.
    SolverMemory,
    /// MinPQ deep memory, maximum and ending size against the reference.
    QueueMemory,
    /// One aspect of a timing solve.
    Timing(TimingAspect),
}

impl Measure {
    /// Whether the check measures the queues' deep memory, which the counters measure only for the boards
    /// of such checks (a walk the Java adapter does only when asked).
    pub fn measures_deep_memory(self) -> bool {
        match self {
            Measure::QueueMemory => true,
            Measure::BoardMemory | Measure::SolverMemory | Measure::Timing(_) => false,
        }
    }

    /// Whether the check measures the Solver's own deep memory (its lives weigh the Solver).
    pub fn measures_solver_memory(self) -> bool {
        self == Measure::SolverMemory
    }

    /// Whether the check judges figures a Solver could lower with what an earlier Solver of the same program
    /// left behind (counts, CPU, memory: a static cache of solved puzzles answers a repeated one with a
    /// token search). The runner lives such checks' Solvers before any other Solver of their process
    /// (`grade::run`), so each is the first of its puzzle there.
    pub fn judges_first_lives(self) -> bool {
        match self {
            Measure::SolverMemory | Measure::QueueMemory | Measure::Timing(_) => true,
            Measure::BoardMemory => false,
        }
    }

    /// Whether a row fails on counts below the puzzle's search bound (`runner::checks::search_bound`): the
    /// rows that judge a life's counts or memory, which a Solver could otherwise lower by searching where the
    /// counts do not see.
    pub fn judges_search_bound(self) -> bool {
        match self {
            Measure::SolverMemory | Measure::QueueMemory => true,
            Measure::Timing(aspect) => aspect != TimingAspect::CpuAndAnswer,
            Measure::BoardMemory => false,
        }
    }

    /// The Solver methods the test calls after the constructor, where it builds a Solver (the Board memory
    /// table builds none). The memory rows measure the Solver as constructed; Timing 1 checks moves().
    pub fn calls(self) -> Option<&'static [SolverCall]> {
        match self {
            Measure::BoardMemory => None,
            Measure::SolverMemory | Measure::QueueMemory => Some(&[]),
            Measure::Timing(TimingAspect::CpuAndAnswer) => Some(&[SolverCall::Moves]),
            Measure::Timing(_) => Some(&[]),
        }
    }
}

fn timing(id: &'static str, official: &'static str, title: &'static str, aspect: T, explain: &'static str) -> Item {
    Item {
        id,
        official: Some(official),
        category: Timing,
        title,
        inputs: Inputs::TimingPuzzles,
        check: Measure::Timing(aspect),
        depends_on: &["compile-1"],
        needs: &["ref_world", "counters"],
        explain,
        leans: Leans::NONE,
    }
}

/// The memory and timing items in report order.
pub(super) fn items() -> Vec<Item> {
    vec![
        Item {
            id: "memory-board",
            official: Some("Memory Board"),
            category: Memory,
            title: "memory usage of an n-by-n board",
            inputs: Inputs::MemorySizes,
            check: Measure::BoardMemory,
            depends_on: &["compile-1"],
            needs: &["memory"],
            explain: "Bytes retained by one n-by-n Board, n = 2 ... 120, one test per row. The rows share one \
                      verdict, on growth: the least-squares line a*n^2 + b*n + c through the rows at even n \
                      (printed under the table as the Student line; at even n no int[n] row is padded, so the \
                      reference's line is exactly 4.00 n^2 + 32.00 n + 48.00) must have a at most 4.00 and b at \
                      most 32.00 as printed (thresholds.board_memory_growth; a up to 4.05, since bytes a tile that \
                      change with n, as a Java String's one byte a character up to n = 16 and two beyond, bend the \
                      line a few hundredths above its growth); c is free, so fixed fields (cached \
                      distances, a cache reference) cost nothing, and a Board at the reference + 24 bytes passes, \
                      as in official reports. A Board at most the reference + 24 bytes at every even row passes \
                      whatever its line (a Rust Vec's spare capacity steps its bytes, and a line through the steps \
                      can fail a Board below the reference). If the line fails, every row fails. A row whose \
                      Board throws fails \
                      on its own; the rest are judged on the even rows that were measured (at least three are \
                      needed). Usual causes: in Java, int[][] plus a copy, cached strings, long or Integer \
                      tiles, an extra array of n ints; in Rust, a Vec whose capacity outgrew its length \
                      (collect() from an iterator that over-reserves, push without with_capacity) or a second \
                      copy of the tiles.",
            leans: Leans::NONE,
        },
        Item {
            id: "memory-solver-1",
            official: Some("Memory Solver 1"),
            category: Memory,
            title: "measure memory of Solver",
            inputs: Inputs::MemoryPuzzles,
            check: Measure::SolverMemory,
            depends_on: &["compile-1"],
            needs: &["memory", "ref_world"],
            explain: concat!(
                "After construction a Solver should keep only what its methods need (the solution), not the \
                      search. A row fails when its printed ratio, yours / (1.75 x the reference's), exceeds \
                      1.0; the reference keeps the goal's search node and its chain of predecessors. Usual \
                      causes: keeping the MinPQ or a list of visited boards in a field (in Java also a static \
                      field, whose growth during the construction counts, or behind a SoftReference; in Rust, a \
                      Vec or HashSet in the struct; an Rc cycle that keeps the search alive). A second reading \
                      weighs what the Solver's whole process keeps beyond what it held before your code first \
                      ran, wherever it is (a thread, a Timer, a static array filled in place, a direct buffer, \
                      capacity reserved by an earlier Solver): a row fails on it more than 64 KiB over its \
                      bound and twice the first figure, a margin no honest Solver reaches.",
                search_bound_note!()
            ),
            leans: Leans::NONE,
        },
        Item {
            id: "memory-solver-2",
            official: Some("Memory Solver 2"),
            category: Memory,
            title: "measure memory of MinPQ",
            inputs: Inputs::MemoryPuzzles,
            check: Measure::QueueMemory,
            depends_on: &["compile-1"],
            needs: &["counters", "ref_world"],
            explain: concat!(
                "The MinPQs' deep memory, maximum size and ending size (summed over every MinPQ), each held \
                      to 1.75 x the reference's two-queue search: a cell fails when its printed ratio exceeds \
                      1.0. Each queue counts everything it reaches, what two queues reach counting for each. The \
                      reference's deep memory is the canonical search's at its end: every node it inserted but \
                      the goal (40 bytes and a reference board each) and two textbook MinPQs whose arrays hold \
                      half the items each. Every object counts once, exactly (the official walk misses a few \
                      in the largest searches, up to 0.15% at puzzle35, never enough to change a verdict seen). \
                      Usual causes: no critical optimization (the parent is enqueued again), a priority that is \
                      not moves + manhattan, a tie-break that dequeues the goal after the other nodes of its \
                      priority, one queue for both searches, search nodes that copy their path, an inner \
                      (non-static) node class with the queues in Solver fields (each node holds the Solver, so \
                      each queue reaches the other).",
                search_bound_note!()
            ),
            leans: Leans::NONE,
        },
        timing(
            "timing-1",
            "Timing 1",
            "Measure CPU time and check correctness",
            T::CpuAndAnswer,
            "Solves each timing puzzle with the reference board substituted: the right number of moves within \
             the policy's CPU limit (5 s of the solving thread's CPU by default). Usual causes: no critical \
             optimization, recomputing manhattan in compareTo, a HashSet of boards without a good hashCode.",
        ),
        timing(
            "timing-2",
            "Timing 2",
            "Count MinPQ operations",
            T::QueueCounts,
            concat!(
                "Counts MinPQ insert() and delMin() calls; a cell fails when its printed ratio, yours / (1.75 x the \
             reference's), exceeds 1.0. Usual causes: no critical optimization, a priority that is not moves + \
             manhattan, ties broken first in, first out (a key of priority then insertion order: wider than the \
             textbook heap's order of equal keys), one queue holding both the board's and the twin's searches.",
                search_bound_note!()
            ),
        ),
        timing(
            "timing-3",
            "Timing 3",
            "Count Board operations (that should not get called)",
            T::ForbiddenCalls,
            concat!(
                "The Solver has no reason to call toString() (a row fails if it does); hamming() calls are printed \
             but, as officially, not judged. Usual causes: debug prints left in, a string key for a set of \
             visited boards.",
                search_bound_note!()
            ),
        ),
        timing(
            "timing-4a",
            "Timing 4a",
            "Count Board operations (that should get called)",
            T::BoardCounts,
            concat!(
                "Counts Board() (the initial board, its twin and every neighbor built) and equals() calls; a cell \
             fails when its printed ratio, yours / (1.75 x the reference's), exceeds 1.0. manhattan() is \
             printed but judged only in 4b. Usual causes: building boards to test them, comparing against \
             every visited board, one queue that searches the twin too far.",
                search_bound_note!()
            ),
        ),
        timing(
            "timing-4b",
            "Timing 4b",
            "count Board operations (that should get called), rejecting if doesn't adhere to stricter caching \
             limits",
            T::StrictBoardCounts,
            concat!(
                "As 4a, and manhattan() is held to 1.75 x the reference's insert() + delMin() (one call per search \
             node created, one per isGoal()). Usual cause: calling manhattan() in compareTo instead of caching \
             the priority in the search node.",
                search_bound_note!()
            ),
        ),
    ]
}
