//! Memory and timing items. Counts and bytes carry the grade; CPU time is only a generous cap.
//!
//! Timing items expand to one test per timing puzzle (the official grader's 125 timing tests are 25 puzzles
//! times five aspects); every aspect of one puzzle is judged from a single solve.

use super::Category::{Memory, Timing};
use super::{Check, Inputs, Item, TimingAspect as T};

const fn timing(
    id: &'static str,
    official: &'static str,
    title: &'static str,
    aspect: T,
    explain: &'static str,
) -> Item {
    Item {
        id,
        official: Some(official),
        category: Timing,
        title,
        inputs: Inputs::TimingPuzzles,
        check: Check::Timing(aspect),
        depends_on: &["compile-1"],
        needs: &["ref_world", "counters"],
        explain,
    }
}

/// The memory and timing items in report order.
pub(super) fn items() -> Vec<Item> {
    vec![
        Item {
            id: "memory-1",
            official: Some("Memory 1"),
            category: Memory,
            title: "memory of one Board for n = 2, 3, 4, 8, 12, 16, 20, 37, 72, 120",
            inputs: Inputs::None,
            check: Check::BoardMemory,
            depends_on: &["compile-1"],
            needs: &["memory"],
            explain: "Bytes retained by one Board must stay within the policy's bound (4n^2 + 32n + 64 by \
                      default); a least-squares fit a*n^2 + b*n + c is printed for yours and the reference. \
                      Usual causes: int[][] plus a copy, cached strings, long or Integer tiles.",
        },
        Item {
            id: "memory-2",
            official: Some("Memory 2"),
            category: Memory,
            title: "memory retained by a Solver after construction, against the reference",
            inputs: Inputs::MemoryPuzzles,
            check: Check::SolverMemory,
            depends_on: &["compile-1"],
            needs: &["memory", "ref_world"],
            explain: "After construction a Solver should keep only what its methods need (the solution), not the \
                      search: its queues and every board it made. Usual causes: keeping the MinPQ or a list \
                      of visited boards in a field.",
        },
        Item {
            id: "memory-3",
            official: Some("Memory 3"),
            category: Memory,
            title: "MinPQ maximum size, ending size and deep memory, against the reference",
            inputs: Inputs::MemoryPuzzles,
            check: Check::QueueMemory,
            depends_on: &["compile-1"],
            needs: &["counters", "ref_world"],
            explain: "The priority queues should grow no more than the reference's on the same puzzle, and hold \
                      no more per search node than a board, moves, priority and predecessor: their deep memory \
                      is held against the reference's search nodes at one reference board plus 48 bytes each. \
                      Usual causes: no critical optimization (the parent is enqueued again), a non-admissible or \
                      inconsistent priority that explores more nodes, search nodes that copy their path.",
        },
        timing(
            "timing-1",
            "Timing 1",
            "CPU time within the limit, and the right answer",
            T::CpuAndAnswer,
            "Solves each timing puzzle with the reference board substituted, within the policy's CPU limit (5 s by \
             default, generous: counts carry the grade). Usual causes: no critical optimization, recomputing \
             manhattan in compareTo, a HashSet of boards without a good hashCode.",
        ),
        timing(
            "timing-2",
            "Timing 2",
            "MinPQ insert() and delMin() calls against the reference",
            T::QueueCounts,
            "Counts MinPQ operations; more than the policy's ratio (1.8x by default) of the reference's counts \
             fails. Usual causes: no critical optimization, a priority that is not moves + manhattan.",
        ),
        timing(
            "timing-3",
            "Timing 3",
            "hamming() and toString() are never called by the Solver",
            T::ForbiddenCalls,
            "The Solver has no reason to call hamming() or toString(). Usual causes: a hamming tie-break, debug \
             prints left in.",
        ),
        timing(
            "timing-4",
            "Timing 4",
            "constructor, equals() and manhattan() calls against the reference",
            T::BoardCounts,
            "Counts Board constructions and equals() calls against the reference (ratio limit), and manhattan() \
             calls per board created against a loose limit. Usual causes: no caching of manhattan, building \
             boards to test them, comparing against all visited boards.",
        ),
        timing(
            "timing-5",
            "Timing 5",
            "manhattan() called about once per board created (strict caching)",
            T::StrictManhattan,
            "With manhattan cached in the search node, manhattan() runs about once per board created plus once per \
             isGoal(). Usual cause: calling manhattan() in compareTo instead of caching the priority.",
        ),
    ]
}
