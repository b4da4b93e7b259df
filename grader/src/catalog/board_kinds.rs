//! The kinds of Board check (what the executor `runner/checks/board.rs` matches on), apart from the items
//! that use them (`catalog/board.rs`): which property of `equals()`, which value method, which walk.

use crate::results::BoardMethod;

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

impl EqualsProperty {
    /// The items of official Board test 10a, in its order, with the capability each needs (if any).
    pub const CONTRACT: [(EqualsProperty, &'static str, Option<&'static str>); 8] = [
        (EqualsProperty::Reflexive, "reflexive", None),
        (EqualsProperty::Symmetric, "symmetric", None),
        (EqualsProperty::Transitive, "transitive", None),
        (EqualsProperty::Null, "argument is null", Some("null")),
        (EqualsProperty::Foreign, "argument is of type String", Some("foreign")),
        (EqualsProperty::Uncastable, "argument is of type UncastableString", Some("foreign")),
        (EqualsProperty::AsObject, "argument is of type Object and contains a reference to a Board", None),
        (EqualsProperty::Foreign, "argument is of type Object containing a reference to a String", Some("foreign")),
    ];
}

/// The Board checks, on the submission's own Board (`runner::checks::board`). Each is written as its requests
/// and a judge of their replies; how the requests travel (ahead, in groups, or asked one by one where they
/// depend on earlier answers) is the executor's business.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardCheck {
    /// A numeric or boolean Board method (`hamming()`, `manhattan()`, `dimension()`, `isGoal()`) against the
    /// reference.
    Value(ValueMethod),
    /// `toString()` against the reference text.
    ToString,
    /// `neighbors()` as a set of boards.
    Neighbors,
    /// `neighbors()` of every neighbor.
    NeighborsOfNeighbors,
    /// `twin()` is a legal twin.
    Twin,
    /// The first of two boards answers as before once the second is built.
    TwoBoards,
    /// A property of `equals`.
    Equals(EqualsProperty),
    /// Every item of Java's equals contract the submission's language can express (official 10a), each
    /// asked as its own batch.
    EqualsContract,
    /// A board whose caller then changes the array answers as one whose array nobody changed.
    ImmutableArray,
    /// Calling methods in different orders gives the same answers, and neighbors() and twin() leave the
    /// board as it was.
    ImmutableCallOrder,
    /// A value method of the board reached by k steps of a walk: random neighbor steps, or successive twin()
    /// calls.
    Kth(Walk, ValueMethod),
    /// Neighbors: right count, no duplicates, each one legal slide.
    NeighborsLegal,
    /// Twin: exactly two non-blank tiles exchanged, the same on every call.
    TwinLegal,
    /// Each neighbor, and the board reached back from it through its own `neighbors()`, answers `hamming()`,
    /// `manhattan()` and `isGoal()` for its own tiles.
    NeighborValues,
    /// neighbors() results stay valid after another neighbors() call and under nested iteration (the boards
    /// read back depend on how many each iteration yielded).
    NeighborsIterable,
}

/// A Board method that answers a number or a boolean, asked and compared as a value (by the value checks, the
/// k-th tests, and the executor's checks that compare a board's answers with its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueMethod {
    /// `hamming()`
    Hamming,
    /// `manhattan()`
    Manhattan,
    /// `dimension()`
    Dimension,
    /// `isGoal()`
    IsGoal,
}

impl ValueMethod {
    /// The Board method it is (which names it).
    pub fn method(self) -> BoardMethod {
        match self {
            ValueMethod::Hamming => BoardMethod::Hamming,
            ValueMethod::Manhattan => BoardMethod::Manhattan,
            ValueMethod::Dimension => BoardMethod::Dimension,
            ValueMethod::IsGoal => BoardMethod::IsGoal,
        }
    }
}

/// How a k-th test (official Board 13 to 17) walks from the trial's board to the board it asks about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    /// Random neighbor steps.
    Neighbor,
    /// Successive twin() calls.
    Twin,
}

impl Walk {
    /// The step's word in a trial's label (`13th neighbor of puzzle27.txt`, `13th twin of …`).
    pub fn word(self) -> &'static str {
        match self {
            Walk::Neighbor => "neighbor",
            Walk::Twin => "twin",
        }
    }
}

impl BoardCheck {
    /// The walk a k-th test takes (`None`: the check walks nowhere).
    pub fn walk(self) -> Option<Walk> {
        match self {
            BoardCheck::Kth(walk, _) => Some(walk),
            BoardCheck::Value(_)
            | BoardCheck::ToString
            | BoardCheck::Neighbors
            | BoardCheck::NeighborsOfNeighbors
            | BoardCheck::Twin
            | BoardCheck::TwoBoards
            | BoardCheck::Equals(_)
            | BoardCheck::EqualsContract
            | BoardCheck::ImmutableArray
            | BoardCheck::ImmutableCallOrder
            | BoardCheck::NeighborsLegal
            | BoardCheck::TwinLegal
            | BoardCheck::NeighborValues
            | BoardCheck::NeighborsIterable => None,
        }
    }

    /// What the report lists as the test's inputs when they are not its boards: the official test 10a lists
    /// the contract's items.
    pub fn inputs_shown(self) -> Option<Vec<String>> {
        (self == BoardCheck::EqualsContract)
            .then(|| EqualsProperty::CONTRACT.iter().map(|(_, what, _)| what.to_string()).collect())
    }
}
