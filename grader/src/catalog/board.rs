//! Board correctness items: the official grader's 26 Board tests and our two additions. They run on the
//! submission's own Board (the `own` world).

use super::Category::Board;
use super::{Check, EqualsProperty as Eq, Inputs, Item, Method};

/// The fixture files the official grader uses for Board tests (a 10-by-10 goal board included).
pub(super) const BOARD_FILES: &[&str] =
    &["puzzle04", "puzzle00", "puzzle07", "puzzle17", "puzzle27", "puzzle2x2-unsolvable1"];
/// Sizes of random boards: 2..10 and the largest allowed, 127.
const SIZES: &[usize] = &[2, 3, 4, 5, 6, 7, 8, 9, 10, 127];
const TRIALS: usize = 100;
const RANDOM: Inputs = Inputs::Random { sizes: SIZES, trials: TRIALS };
const FILES: Inputs = Inputs::Files(BOARD_FILES);

const fn item(
    id: &'static str,
    official: &'static str,
    title: &'static str,
    inputs: Inputs,
    check: Check,
    explain: &'static str,
) -> Item {
    Item {
        id,
        official: Some(official),
        category: Board,
        title,
        inputs,
        check,
        depends_on: &["compile-1"],
        needs: &[],
        explain,
    }
}

const HAMMING: &str = "hamming() is the number of tiles out of place, not counting the blank. \
    Usual causes: counting the blank, comparing against a goal with the blank first, off-by-one goal values.";
const MANHATTAN: &str = "manhattan() sums, over tiles (not the blank), row distance plus column distance to \
    the goal position. Usual causes: counting the blank, goal row computed as t / n instead of (t - 1) / n.";
const TO_STRING: &str = "toString() prints n, then the n rows; tiles are compared ignoring whitespace (strict \
    mode compares the exact `%2d ` format). Usual causes: a missing size line, rows printed as columns.";
const NEIGHBORS: &str = "neighbors() returns every board one slide away (2, 3 or 4, by the blank's position), \
    in any order. The boards are read back through toString(). Usual causes: wrong bounds at the last row or \
    column, swapping into the original array, forgetting a direction.";
const TWIN: &str = "twin() exchanges a pair of non-blank tiles. Usual causes: swapping the blank, changing the \
    original board, a twin that changes from call to call.";
const EQUALS: &str = "equals() must follow Java's contract: reflexive, symmetric, transitive, false for null \
    and for other types, and compare size as well as tiles. Usual causes: casting without checking the \
    class, comparing only the tiles that fit, comparing toString() output.";

/// The Board items in report order.
pub(super) fn items() -> Vec<Item> {
    let mut items = vec![
        item("board-1a", "Board 1a", "hamming() with file inputs", FILES, Check::BoardValue(Method::Hamming), HAMMING),
        item(
            "board-1b",
            "Board 1b",
            "hamming() with random n-by-n boards",
            RANDOM,
            Check::BoardValue(Method::Hamming),
            HAMMING,
        ),
        item(
            "board-2a",
            "Board 2a",
            "manhattan() with file inputs",
            FILES,
            Check::BoardValue(Method::Manhattan),
            MANHATTAN,
        ),
        item(
            "board-2b",
            "Board 2b",
            "manhattan() with random n-by-n boards",
            RANDOM,
            Check::BoardValue(Method::Manhattan),
            MANHATTAN,
        ),
        item(
            "board-3",
            "Board 3",
            "dimension() with random n-by-n boards",
            RANDOM,
            Check::BoardValue(Method::Dimension),
            "dimension() returns n. Usual cause: returning n * n or the length of a flattened array.",
        ),
        item("board-4a", "Board 4a", "toString() with file inputs", FILES, Check::ToString, TO_STRING),
        item("board-4b", "Board 4b", "toString() with random n-by-n boards", RANDOM, Check::ToString, TO_STRING),
        item("board-5a", "Board 5a", "neighbors() with file inputs", FILES, Check::Neighbors, NEIGHBORS),
        item("board-5b", "Board 5b", "neighbors() with random n-by-n boards", RANDOM, Check::Neighbors, NEIGHBORS),
        item(
            "board-6a",
            "Board 6a",
            "neighbors() of neighbors() with file inputs",
            FILES,
            Check::NeighborsOfNeighbors,
            NEIGHBORS,
        ),
        item(
            "board-6b",
            "Board 6b",
            "neighbors() of neighbors() with random n-by-n boards",
            RANDOM,
            Check::NeighborsOfNeighbors,
            NEIGHBORS,
        ),
        item("board-7a", "Board 7a", "twin() with file inputs", FILES, Check::Twin, TWIN),
        item("board-7b", "Board 7b", "twin() with random n-by-n boards", RANDOM, Check::Twin, TWIN),
        item(
            "board-8a",
            "Board 8a",
            "isGoal() with file inputs",
            FILES,
            Check::BoardValue(Method::IsGoal),
            "isGoal() is true exactly for the goal board. Usual cause: comparing against a goal with the blank first.",
        ),
        item(
            "board-8b",
            "Board 8b",
            "isGoal() on goal boards up to 100-by-100",
            Inputs::Goals(&[2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 50, 100]),
            Check::BoardValue(Method::IsGoal),
            "isGoal() must be true on every goal board, however large. Usual cause: a loop bound that assumes small n.",
        ),
        item(
            "board-9",
            "Board 9",
            "two Board objects can be created at the same time",
            RANDOM,
            Check::TwoBoards,
            "Two boards alive at once keep their own tiles and answers. Usual cause: tiles kept in a static field.",
        ),
        item("board-10a", "Board 10a", "equals() is reflexive", RANDOM, Check::Equals(Eq::Reflexive), EQUALS),
        item("board-10b", "Board 10b", "equals() is symmetric", RANDOM, Check::Equals(Eq::Symmetric), EQUALS),
        item("board-10c", "Board 10c", "equals() is transitive", RANDOM, Check::Equals(Eq::Transitive), EQUALS),
        item("board-10d", "Board 10d", "equals() with a null argument", RANDOM, Check::Equals(Eq::Null), EQUALS),
        item(
            "board-10e",
            "Board 10e",
            "equals() with an argument of another type",
            RANDOM,
            Check::Equals(Eq::Foreign),
            EQUALS,
        ),
        item(
            "board-10f",
            "Board 10f",
            "equals() with an argument of a type that cannot be cast",
            RANDOM,
            Check::Equals(Eq::Uncastable),
            EQUALS,
        ),
        item(
            "board-10g",
            "Board 10g",
            "equals() with a Board held in a variable of type Object",
            RANDOM,
            Check::Equals(Eq::AsObject),
            EQUALS,
        ),
        item("board-11", "Board 11", "equals() with random boards", RANDOM, Check::Equals(Eq::Random), EQUALS),
        item(
            "board-12",
            "Board 12",
            "equals() with boards of different sizes",
            RANDOM,
            Check::Equals(Eq::DifferentSizes),
            EQUALS,
        ),
        item(
            "board-13",
            "Board 13",
            "immutability: changing the caller's array after construction",
            RANDOM,
            Check::ImmutableArray,
            "A Board must copy the tiles it is given. Usual cause: storing the caller's int[][] (a shallow copy \
             with clone() copies only the outer array).",
        ),
        item(
            "board-14",
            "Board 14",
            "immutability: calling methods in different orders",
            RANDOM,
            Check::ImmutableCallOrder,
            "Every method must leave the board as it was. Usual causes: neighbors() or twin() swapping tiles in \
             place and not swapping back, caching a value that later calls overwrite.",
        ),
        item(
            "board-15",
            "Board 15",
            "dimension(), hamming(), manhattan() of the k-th neighbor and of the twin",
            RANDOM,
            Check::KthNeighborAndTwin,
            "Boards made by neighbors() and twin() must have correct cached values. Usual cause: copying a \
             cached hamming or manhattan from the parent board instead of recomputing or updating it.",
        ),
    ];
    items.push(Item {
        official: None,
        ..item(
            "board-x1",
            "",
            "neighbors() are legal: right count, no duplicates, one slide each",
            RANDOM,
            Check::NeighborsLegal,
            NEIGHBORS,
        )
    });
    items.push(Item {
        official: None,
        ..item(
            "board-x2",
            "",
            "twin() exchanges exactly two non-blank tiles and is the same on every call",
            RANDOM,
            Check::TwinLegal,
            TWIN,
        )
    });
    // Equals with null or foreign types can only be asked where the language has them.
    for item in &mut items {
        item.needs = match item.check {
            Check::Equals(Eq::Null) => &["null"],
            Check::Equals(Eq::Foreign | Eq::Uncastable) => &["foreign"],
            _ => &[],
        };
    }
    items
}
