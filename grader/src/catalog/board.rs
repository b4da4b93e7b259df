//! Board correctness items: the official grader's 26 Board tests, with its inputs. They run on the
//! submission's own Board (the `own` world).
//!
//! Random boards are uniformly random permutations (unsolvable ones included), 1000 per size up to
//! 10-by-10 and 10 at 127-by-127, which appears only where the official tests use it (1b, 2b, 4b, 5b).

use super::board_kinds::{BoardCheck, EqualsProperty, ValueMethod, Walk};
use super::item::{Draw, Inputs, ItemOf};
use crate::results::Category;
use crate::results::{BoardMethod, Leans};

type Item = ItemOf<BoardCheck>;

/// Files of official tests 1a and 2a.
const VALUE_FILES: &[&str] = &["puzzle04", "puzzle00", "puzzle07", "puzzle17", "puzzle27", "puzzle2x2-unsolvable1"];
/// Files of official tests 4a to 7a.
const FILES: &[&str] = &["puzzle04", "puzzle00", "puzzle06", "puzzle09", "puzzle23", "puzzle2x2-unsolvable1"];
/// Files of official test 8a.
const GOAL_FILES: &[&str] = &[
    "puzzle00",
    "puzzle04",
    "puzzle16",
    "puzzle06",
    "puzzle09",
    "puzzle23",
    "puzzle2x2-unsolvable1",
    "puzzle3x3-unsolvable1",
    "puzzle3x3-00",
    "puzzle4x4-00",
];
/// Random sizes with the 127-by-127 boards (1b, 2b, 4b, 5b).
const WITH_BIG: &[(usize, usize)] = &[(2, 1000), (3, 1000), (4, 1000), (5, 1000), (9, 1000), (10, 1000), (127, 10)];
/// Random sizes without them (6b).
const SMALL: &[(usize, usize)] = &[(2, 1000), (3, 1000), (4, 1000), (5, 1000), (9, 1000), (10, 1000)];
/// twin() uses fewer trials at 9 and 10 (7b).
const TWIN_SIZES: &[(usize, usize)] = &[(2, 1000), (3, 1000), (4, 1000), (5, 1000), (9, 100), (10, 10)];

const fn files(names: &'static [&'static str]) -> Inputs {
    Inputs::Boards { files: names, random: &[], draw: Draw::Any }
}

const fn random(sizes: &'static [(usize, usize)]) -> Inputs {
    Inputs::Boards { files: &[], random: sizes, draw: Draw::Any }
}

/// The k-th neighbors and twins of official tests 13 to 17.
const KTH: Inputs = Inputs::Kth(&[
    ("puzzle27", 0),
    ("puzzle27", 1),
    ("puzzle27", 2),
    ("puzzle27", 13),
    ("puzzle00", 13),
    ("puzzle2x2-unsolvable1", 13),
]);

fn item(
    id: &'static str,
    official: &'static str,
    title: &'static str,
    inputs: Inputs,
    check: BoardCheck,
    explain: &'static str,
) -> Item {
    Item {
        id,
        official: Some(official),
        category: Category::Board,
        title,
        inputs,
        check,
        depends_on: &["compile-1"],
        needs: &[],
        explain,
        leans: Leans::NONE,
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
const KTH_NEIGHBOR: &str = "The board reached by k random neighbor steps from a file's board (read back \
    through toString()) must answer like the reference on the same tiles. Usual cause: copying a cached \
    hamming or manhattan from the parent board instead of recomputing or updating it.";
const KTH_TWIN: &str = "The board reached by calling twin() k times must answer like the reference on the same \
    tiles. Usual cause: a twin that copies the parent's cached hamming or manhattan.";

/// The Board items in report order.
pub(super) fn items() -> Vec<Item> {
    vec![
        item(
            "board-1a",
            "Board 1a",
            "check hamming() with file inputs",
            files(VALUE_FILES),
            BoardCheck::Value(ValueMethod::Hamming),
            HAMMING,
        )
        .leaning(&[BoardMethod::Hamming], &[]),
        item(
            "board-1b",
            "Board 1b",
            "check hamming() with random n-by-n boards",
            random(WITH_BIG),
            BoardCheck::Value(ValueMethod::Hamming),
            HAMMING,
        )
        .leaning(&[BoardMethod::Hamming], &[]),
        item(
            "board-2a",
            "Board 2a",
            "check manhattan() with file inputs",
            files(VALUE_FILES),
            BoardCheck::Value(ValueMethod::Manhattan),
            MANHATTAN,
        )
        .leaning(&[BoardMethod::Manhattan], &[]),
        item(
            "board-2b",
            "Board 2b",
            "check manhattan() with random n-by-n boards",
            random(WITH_BIG),
            BoardCheck::Value(ValueMethod::Manhattan),
            MANHATTAN,
        )
        .leaning(&[BoardMethod::Manhattan], &[]),
        item(
            "board-3",
            "Board 3",
            "check dimension() with random n-by-n boards",
            random(&[(2, 1000), (3, 1000), (4, 1000), (5, 1000), (6, 1000)]),
            BoardCheck::Value(ValueMethod::Dimension),
            "dimension() returns n. Usual cause: returning n * n or the length of a flattened array.",
        )
        .leaning(&[BoardMethod::Dimension], &[]),
        item(
            "board-4a",
            "Board 4a",
            "check toString() with file inputs",
            files(FILES),
            BoardCheck::ToString,
            TO_STRING,
        )
        .leaning(&[BoardMethod::ToString], &[]),
        item(
            "board-4b",
            "Board 4b",
            "check toString() with random n-by-n boards",
            random(WITH_BIG),
            BoardCheck::ToString,
            TO_STRING,
        )
        .leaning(&[BoardMethod::ToString], &[]),
        item(
            "board-5a",
            "Board 5a",
            "check neighbors() with file inputs",
            files(FILES),
            BoardCheck::Neighbors,
            NEIGHBORS,
        )
        .leaning(&[BoardMethod::Neighbors], &[BoardMethod::ToString]),
        item(
            "board-5b",
            "Board 5b",
            "check neighbors() with random n-by-n boards",
            random(WITH_BIG),
            BoardCheck::Neighbors,
            NEIGHBORS,
        )
        .leaning(&[BoardMethod::Neighbors], &[BoardMethod::ToString]),
        item(
            "board-6a",
            "Board 6a",
            "check neighbors() of neighbors() with file inputs",
            files(FILES),
            BoardCheck::NeighborsOfNeighbors,
            NEIGHBORS,
        )
        .leaning(&[BoardMethod::Neighbors], &[BoardMethod::ToString]),
        item(
            "board-6b",
            "Board 6b",
            "check neighbors() of neighbors() with random n-by-n boards",
            random(SMALL),
            BoardCheck::NeighborsOfNeighbors,
            NEIGHBORS,
        )
        .leaning(&[BoardMethod::Neighbors], &[BoardMethod::ToString]),
        item("board-7a", "Board 7a", "check twin() with file inputs", files(FILES), BoardCheck::Twin, TWIN)
            .leaning(&[BoardMethod::Twin], &[BoardMethod::ToString]),
        item(
            "board-7b",
            "Board 7b",
            "check twin() with random n-by-n boards",
            random(TWIN_SIZES),
            BoardCheck::Twin,
            TWIN,
        )
        .leaning(&[BoardMethod::Twin], &[BoardMethod::ToString]),
        item(
            "board-8a",
            "Board 8a",
            "check isGoal() with file inputs",
            files(GOAL_FILES),
            BoardCheck::Value(ValueMethod::IsGoal),
            "isGoal() is true exactly for the goal board. Usual cause: comparing against a goal with the blank first.",
        )
        .leaning(&[BoardMethod::IsGoal], &[]),
        item(
            "board-8b",
            "Board 8b",
            "check isGoal() on n-by-n goal boards",
            Inputs::Goals(&[2, 3, 4, 5, 6, 100]),
            BoardCheck::Value(ValueMethod::IsGoal),
            "isGoal() must be true on every goal board, however large. Usual cause: a loop bound that assumes small n.",
        )
        .leaning(&[BoardMethod::IsGoal], &[]),
        item(
            "board-9",
            "Board 9",
            "check that two Board objects can be created at the same time",
            Inputs::Pairs { sizes: &[(3, 3), (4, 4), (2, 2), (3, 4), (4, 3)], trials: 100 },
            BoardCheck::TwoBoards,
            "Once a second board exists, the first must answer hamming(), manhattan(), isGoal() and equals() \
             (with a board of its own tiles) as it did before: each answer is compared with the board's own \
             earlier one, not with the reference (a wrong value is its method's test's business). As \
             officially, the first board's dimension(), toString(), neighbors() and twin() are not asked once \
             the second exists. Usual cause: tiles kept in a static field, so every new board overwrites the \
             others'.",
        ),
        item(
            "board-10a",
            "Board 10a",
            "check equals()",
            random(&[(3, 10), (4, 10)]),
            BoardCheck::EqualsContract,
            EQUALS,
        )
        .leaning(&[BoardMethod::Equals], &[]),
        item(
            "board-10b",
            "Board 10b",
            "check correctness of equals() on random n-by-n boards",
            random(&[(2, 1000), (3, 1000), (4, 1000), (5, 200), (6, 200), (7, 200), (8, 200), (9, 200)]),
            BoardCheck::Equals(EqualsProperty::Random),
            EQUALS,
        )
        .leaning(&[BoardMethod::Equals], &[]),
        item(
            "board-10c",
            "Board 10c",
            "check equals() when board sizes m and n are different",
            Inputs::Pairs { sizes: &[(4, 5), (2, 5), (5, 3), (2, 3), (3, 2)], trials: 100 },
            BoardCheck::Equals(EqualsProperty::DifferentSizes),
            EQUALS,
        )
        .leaning(&[BoardMethod::Equals], &[]),
        item(
            "board-11",
            "Board 11",
            "check that Board is immutable by changing argument array after construction and making sure Board \
             does not mutate",
            random(&[(2, 100), (3, 100), (4, 100), (5, 100), (9, 100), (10, 100)]),
            BoardCheck::ImmutableArray,
            "A Board must copy the tiles it is given: one built from an array the caller then changes must \
             answer toString(), hamming(), manhattan() and isGoal() exactly as a board built earlier from the \
             same tiles, whose array nobody changed (the board compared with itself, not with the reference). \
             Usual cause: storing the caller's int[][] (a shallow copy with clone() copies only the outer \
             array).",
        ),
        item(
            "board-12",
            "Board 12",
            "check that Board is immutable by testing whether methods return the same value, regardless of order \
             in which called",
            Inputs::Boards {
                files: &["puzzle10", "puzzle20", "puzzle30"],
                random: &[(2, 100), (3, 100), (4, 100)],
                draw: Draw::Any,
            },
            BoardCheck::ImmutableCallOrder,
            "Every method must leave the board as it was: toString() after neighbors() and after twin(), \
             dimension(), hamming(), manhattan() and isGoal() asked again in another order, and neighbors() \
             asked again must give what the board first gave (the board compared with itself, not with the \
             reference). Usual causes: neighbors() or twin() swapping tiles in place and not swapping back, \
             caching a value that later calls overwrite.",
        ),
        item(
            "board-13",
            "Board 13",
            "check dimension() on a board that is kth neighbor of a board",
            KTH,
            BoardCheck::Kth(Walk::Neighbor, ValueMethod::Dimension),
            KTH_NEIGHBOR,
        )
        .leaning(&[BoardMethod::Dimension], &[BoardMethod::ToString, BoardMethod::Neighbors]),
        item(
            "board-14",
            "Board 14",
            "check hamming() on a board that is kth neighbor of a board",
            KTH,
            BoardCheck::Kth(Walk::Neighbor, ValueMethod::Hamming),
            KTH_NEIGHBOR,
        )
        .leaning(&[BoardMethod::Hamming], &[BoardMethod::ToString, BoardMethod::Neighbors]),
        item(
            "board-15",
            "Board 15",
            "check manhattan() on a board that is a kth neighbor of a board",
            KTH,
            BoardCheck::Kth(Walk::Neighbor, ValueMethod::Manhattan),
            KTH_NEIGHBOR,
        )
        .leaning(&[BoardMethod::Manhattan], &[BoardMethod::ToString, BoardMethod::Neighbors]),
        item(
            "board-16",
            "Board 16",
            "check hamming() on a board that is a kth twin of a board",
            KTH,
            BoardCheck::Kth(Walk::Twin, ValueMethod::Hamming),
            KTH_TWIN,
        )
        .leaning(&[BoardMethod::Hamming], &[BoardMethod::ToString, BoardMethod::Twin]),
        item(
            "board-17",
            "Board 17",
            "check manhattan() on a board that is a kth twin of a board",
            KTH,
            BoardCheck::Kth(Walk::Twin, ValueMethod::Manhattan),
            KTH_TWIN,
        )
        .leaning(&[BoardMethod::Manhattan], &[BoardMethod::ToString, BoardMethod::Twin]),
    ]
}

/// This project's own Board checks (section "Beyond the official grader").
pub(super) fn beyond_items() -> Vec<Item> {
    let beyond = |id, title, check, explain| Item {
        category: Category::Beyond,
        official: None,
        ..item(id, "", title, random(&[(2, 100), (3, 100), (4, 100), (5, 100), (9, 100), (10, 100)]), check, explain)
    };
    vec![
        beyond(
            "beyond-neighbors",
            "neighbors() are legal: right count, no duplicates, one slide each",
            BoardCheck::NeighborsLegal,
            NEIGHBORS,
        )
        .leaning(&[BoardMethod::Neighbors], &[BoardMethod::ToString]),
        Item {
            inputs: Inputs::Boards {
                files: &["puzzle2x2-00", "puzzle3x3-00", "puzzle4x4-00", "puzzle00"],
                random: &[(2, 50), (3, 50), (4, 50), (5, 50)],
                draw: Draw::Any,
            },
            ..beyond(
                "beyond-neighbor-values",
                "neighbors() and the boards reached back from them answer hamming(), manhattan() and isGoal() for \
                 their own tiles",
                BoardCheck::NeighborValues,
                "Every neighbor, and the board reached back from it through its own neighbors(), must answer \
                 hamming(), manhattan() and isGoal() like the reference on its tiles; the goal boards are among \
                 the inputs, so a neighbor of the goal must not claim to be the goal, and the way back must. \
                 Usual cause: a neighbor built by a private constructor that copies the parent's cached \
                 values (isGoal() above all, which Board 13-17 do not ask) or updates them incrementally wrong.",
            )
            .leaning(
                &[BoardMethod::Hamming, BoardMethod::Manhattan, BoardMethod::IsGoal],
                &[BoardMethod::ToString, BoardMethod::Neighbors],
            )
        },
        Item {
            category: Category::Beyond,
            official: None,
            needs: &["iterables"],
            ..item(
                "beyond-neighbors-iterable",
                "",
                "neighbors() results stay valid after another neighbors() call and under nested iteration",
                Inputs::Pairs { sizes: &[(2, 2), (3, 3), (4, 4), (5, 5)], trials: 100 },
                BoardCheck::NeighborsIterable,
                "What neighbors() returns must yield the board's neighbors whenever it is iterated: after \
                 neighbors() was called on another board (and on the same board), and in two nested loops over \
                 the one result. Each is compared with the boards neighbors() gave when iterated at once (read \
                 back through toString(), as text); boards a and b have one size, so nothing but the Iterable is \
                 judged. The official tests copy each result at once, so they never see this. Usual causes: \
                 one static list that every neighbors() call clears and refills, an Iterable that is its own \
                 Iterator (iterator() returns this, so a second loop shares the first one's position). In \
                 Python a generator or other iterator is single-use by the language's protocol and is iterated \
                 once; a re-iterable is iterated nested.",
            )
            .leaning(&[BoardMethod::Neighbors], &[])
        },
        beyond(
            "beyond-twin",
            "twin() exchanges exactly two non-blank tiles and is the same on every call",
            BoardCheck::TwinLegal,
            TWIN,
        )
        .leaning(&[BoardMethod::Twin], &[BoardMethod::ToString]),
    ]
}
