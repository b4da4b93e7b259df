//! `CountingBoard`: the reference board with every method counted, for the substituted-board world.
//!
//! The official grader runs a student's Solver over its own instrumented Board; this is ours. Each board
//! carries its lineage (its id, its parent's and its grandparent's, for boards made by `neighbors()`), so
//! `equals` can tell cheaply whether its argument is a neighbor of a neighbor of the receiver — the only
//! comparison the critical optimization needs. Boards of unknown lineage fall back to a content check.
//! `is_goal` also counts one `manhattan` call, because the official reference's `isGoal()` goes through
//! `manhattan()` and instructors know its counts that way.
//!
//! A board the grader builds ([`CountingBoard::from_board`]: the puzzle handed to a Solver) is a *root*, and
//! so is every board made from a root by `neighbors()` or `twin()`; a board a Solver builds from tiles is
//! not. Only a root's `neighbors()` can count as an expansion (`board_expanded`, `instrument/expanded.rs`):
//! the search's boards, not boards made up to show expansions. The mark is the id's top bit, so the board
//! weighs what it weighed.
//!
//! A board also remembers that it was hashed (the id's next bit), so that a hash table's probes are not the
//! Solver's comparisons: Rust's `HashSet` (hashbrown) calls `==` on every entry whose 7-bit tag matches the
//! key's, where Java's `HashMap` and Python's `set` compare whole hashes first and call `equals` only on a
//! match. A Solver keeping its visited boards in a `HashSet` would have failed Solver 10c (about one
//! comparison in twelve with a board that is not a neighbor of a neighbor) on calls the same design in Java
//! never makes; an unequal comparison of two hashed boards that are not neighbors of neighbors is not
//! counted at all.

use std::cell::Cell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::instrument::counters::{record_neighbors, update};
use crate::instrument::expanded::tiles_hash;
use crate::{Board, PuzzleBoard};

/// The id bit that marks a root: a board the grader built, or one descended from it.
const ROOT: u64 = 1 << 63;

/// The id bit set once the board has been hashed: a hash table holds it or has looked it up.
const HASHED: u64 = 1 << 62;

thread_local! {
    static NEXT_ID: Cell<u64> = const { Cell::new(1) };
}

fn next_id() -> u64 {
    NEXT_ID.with(|n| {
        let id = n.get();
        n.set(id + 1);
        id
    })
}

/// The reference [`Board`] with counted methods and lineage; `Clone` is a copy of the same board (not
/// counted as a construction).
pub struct CountingBoard {
    board: Board,
    /// The board's id, with [`ROOT`] and [`HASHED`] (an atomic so that hashing can mark a shared board and
    /// the board stays `Sync`, at a plain integer's size: relaxed loads and stores are plain moves).
    id: AtomicU64,
    parent: u64,
    grandparent: u64,
}

impl Clone for CountingBoard {
    fn clone(&self) -> CountingBoard {
        let id = AtomicU64::new(self.id.load(Relaxed));
        CountingBoard { board: self.board.clone(), id, parent: self.parent, grandparent: self.grandparent }
    }
}

impl CountingBoard {
    /// Wraps a reference board the grader hands a Solver (a root), counting it as one construction.
    pub fn from_board(board: Board) -> CountingBoard {
        CountingBoard::made(board, ROOT)
    }

    /// A board of no lineage, a root or not (`root` is [`ROOT`] or 0), counted as one construction.
    fn made(board: Board, root: u64) -> CountingBoard {
        update(|c| c.board_constructed += 1);
        CountingBoard { board, id: AtomicU64::new(next_id() | root), parent: 0, grandparent: 0 }
    }

    /// The board's id with its [`ROOT`] mark, without [`HASHED`].
    fn id(&self) -> u64 {
        self.id.load(Relaxed) & !HASHED
    }

    /// Whether the board has been hashed.
    fn hashed(&self) -> bool {
        self.id.load(Relaxed) & HASHED != 0
    }

    /// Whether this board is the grader's or descends from one (see the module doc).
    pub fn is_root(&self) -> bool {
        self.id() & ROOT != 0
    }

    /// The underlying reference board (not counted).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether `other` is a neighbor of a neighbor of this board (this board itself included); `equal` is
    /// whether their tiles are equal, which the caller has computed already.
    fn is_neighbor_of_neighbor(&self, other: &CountingBoard, equal: bool) -> bool {
        let (id, other_id) = (self.id(), other.id());
        if equal || other_id == self.grandparent || id == other.grandparent || id == other_id {
            return true;
        }
        // Boards of different lineages: look two slides away, without collecting (this runs inside the
        // student's search, whose allocations are measured).
        let mut found = false;
        self.board.for_each_neighbor(|neighbor| {
            if !found {
                neighbor.for_each_neighbor(|second| found |= second == other.board);
            }
        });
        found
    }
}

impl PartialEq for CountingBoard {
    fn eq(&self, other: &CountingBoard) -> bool {
        let equal = self.board == other.board;
        let grand = self.is_neighbor_of_neighbor(other, equal);
        // a hash table's probe past an entry whose tag matched (the module doc): not the Solver's comparison
        if !grand && self.hashed() && other.hashed() {
            return false;
        }
        update(|c| {
            c.board_equals += 1;
            c.board_equals_not_grand_neighbor += u64::from(!grand);
        });
        equal
    }
}

impl Eq for CountingBoard {}

/// Hashing is not part of the assignment's API and is not counted (solvers keeping a hash set of visited
/// boards are legitimate); it marks the board as hashed (the module doc).
/// A hasher is given one digest of the board (`tiles_hash`: equal boards, equal digests), never its tiles: a
/// red-team Solver hashed each board into a `Hasher` of its own that kept the bytes it was fed, and so read
/// every tile without a counted call (its manhattan() computed from them passed Timing 4b, which its honest
/// twin fails). Java's reference `hashCode()` gives an `int` of the tiles, no more.
impl Hash for CountingBoard {
    fn hash<H: Hasher>(&self, state: &mut H) {
        if !self.hashed() {
            self.id.fetch_or(HASHED, Relaxed);
        }
        state.write_u64(tiles_hash(self.board.dimension(), self.board.tiles()));
    }
}

impl fmt::Display for CountingBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        update(|c| c.board_to_string += 1);
        self.board.fmt(f)
    }
}

/// A text of the board's tiles, counted as `Display`'s is (`toString()`): else `{:?}` read every tile
/// uncounted.
impl fmt::Debug for CountingBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        update(|c| c.board_to_string += 1);
        fmt::Debug::fmt(&self.board, f)
    }
}

impl PuzzleBoard for CountingBoard {
    fn from_tiles(tiles: &[Vec<u32>]) -> Self {
        CountingBoard::made(PuzzleBoard::from_tiles(tiles), 0)
    }
    fn dimension(&self) -> usize {
        update(|c| c.board_dimension += 1);
        self.board.dimension()
    }
    fn hamming(&self) -> u32 {
        update(|c| c.board_hamming += 1);
        self.board.hamming()
    }
    fn manhattan(&self) -> u32 {
        update(|c| c.board_manhattan += 1);
        self.board.manhattan()
    }
    fn is_goal(&self) -> bool {
        update(|c| {
            c.board_is_goal += 1;
            c.board_manhattan += 1;
        });
        self.board.manhattan() == 0
    }
    fn neighbors(&self) -> Vec<Self> {
        let mut out = Vec::with_capacity(4);
        self.neighbors_into(&mut out);
        out
    }
    fn neighbors_into(&self, out: &mut Vec<Self>) {
        let before = out.len();
        let id = self.id();
        let root = id & ROOT;
        self.board.for_each_neighbor(|board| {
            let made = AtomicU64::new(next_id() | root);
            out.push(CountingBoard { board, id: made, parent: id, grandparent: self.parent })
        });
        let made = (out.len() - before) as u64;
        record_neighbors(made, self.is_root(), || tiles_hash(self.board.dimension(), self.board.tiles()));
    }
    fn twin(&self) -> Self {
        update(|c| c.board_twin += 1);
        CountingBoard::made(self.board.twin(), self.id() & ROOT)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instrument::counters;

    #[test]
    fn equals_knows_neighbors_of_neighbors() {
        counters::reset();
        let start = CountingBoard::from_tiles(&[vec![1, 2, 3], vec![4, 0, 5], vec![7, 8, 6]]);
        let child = start.neighbors().remove(0);
        let grandchildren = child.neighbors();
        assert!(grandchildren.contains(&start));
        let stranger = CountingBoard::from_tiles(&[vec![8, 1, 3], vec![4, 0, 2], vec![7, 6, 5]]);
        assert!(stranger != start);
        let rebuilt = CountingBoard::from_board(grandchildren[1].board().clone());
        let _ = rebuilt == start; // unknown lineage, but two slides away by content
        let c = counters::snapshot();
        assert_eq!(c.board_equals, grandchildren.len() as u64 + 2);
        assert_eq!(c.board_equals_not_grand_neighbor, 1);
        assert_eq!(c.board_constructed, 1 + 4 + grandchildren.len() as u64 + 2);
    }

    /// A hash set's probe past an entry whose tag matched is not the Solver's comparison: an unequal
    /// comparison of two hashed boards that are not neighbors of neighbors is not counted; one of an unhashed
    /// board is, and so is every comparison of hashed boards that are equal or neighbors of neighbors.
    #[test]
    fn a_hash_tables_probe_is_not_the_solvers_comparison() {
        use std::collections::hash_map::DefaultHasher;
        let hash = |board: &CountingBoard| board.hash(&mut DefaultHasher::new());
        counters::reset();
        let start = CountingBoard::from_tiles(&[vec![1, 2, 3], vec![4, 0, 5], vec![7, 8, 6]]);
        let stranger = CountingBoard::from_tiles(&[vec![8, 1, 3], vec![4, 0, 2], vec![7, 6, 5]]);
        let grandchild = start.neighbors().remove(0).neighbors().remove(0);
        assert!(stranger != start, "neither hashed");
        hash(&start);
        assert!(stranger != start, "one hashed");
        assert!(start != stranger, "one hashed");
        hash(&stranger);
        assert!(stranger != start, "both hashed: a probe");
        assert!(start != stranger, "both hashed: a probe");
        hash(&grandchild);
        let _ = grandchild == start;
        assert!(start.clone() == start && start.clone().hashed(), "a clone is the same hashed board");
        let c = counters::snapshot();
        assert_eq!((c.board_equals, c.board_equals_not_grand_neighbor), (5, 3));
        assert!(start.is_root() == stranger.is_root() && !start.is_root(), "the mark is not the root's");
        // the hashed mark is in neither the hash nor the equality: a key that changes it is the same key
        #[allow(clippy::mutable_key_type)]
        let mut set = std::collections::HashSet::new();
        assert!(set.insert(start.clone()) && !set.insert(start.clone()) && set.contains(&start));
    }

    #[test]
    fn only_the_graders_boards_and_their_descendants_count_as_expansions() {
        counters::reset();
        let rows = [vec![1, 2, 3], vec![4, 0, 5], vec![7, 8, 6]];
        let made_up = CountingBoard::from_tiles(&rows);
        let _ = made_up.neighbors();
        assert_eq!(counters::snapshot().board_expanded, 0, "a board a Solver built is not the search's");
        let root = CountingBoard::from_board(made_up.board().clone());
        assert!(root.is_root() && !made_up.is_root());
        let child = root.neighbors().remove(0);
        assert!(child.is_root() && child.twin().is_root() && !made_up.twin().is_root());
        assert_eq!(counters::snapshot().board_expanded, 0, "not the first call since the last delMin");
        counters::reset();
        let _ = child.neighbors();
        let _ = root.neighbors();
        let c = counters::snapshot();
        assert_eq!((c.board_neighbors, c.board_expanded, c.board_neighbors_distinct), (2, 1, 2));
    }

    /// What a Solver's own `Hasher` is fed: one digest, the same for equal boards, and never a tile; and a
    /// `{:?}` text of the tiles is a counted text, as `{}`'s.
    #[test]
    fn a_hasher_is_fed_a_digest_and_debug_is_a_counted_text() {
        #[derive(Default)]
        struct Keeps(Vec<u8>);
        impl Hasher for Keeps {
            fn finish(&self) -> u64 {
                0
            }
            fn write(&mut self, bytes: &[u8]) {
                self.0.extend_from_slice(bytes);
            }
        }
        let fed = |board: &CountingBoard| {
            let mut keeps = Keeps::default();
            board.hash(&mut keeps);
            keeps.0
        };
        let rows = [vec![1, 2, 3], vec![4, 0, 5], vec![7, 8, 6]];
        let (a, b) = (CountingBoard::from_tiles(&rows), CountingBoard::from_tiles(&rows));
        let other = a.neighbors().remove(0);
        assert_eq!(fed(&a), fed(&b), "equal boards, equal digests");
        assert_ne!(fed(&a), fed(&other));
        assert_eq!(fed(&a).len(), 8, "one u64, not n and nine tiles");
        counters::reset();
        assert_eq!(format!("{a:?}"), format!("{:?}", a.board()));
        assert_eq!(counters::snapshot().board_to_string, 1);
    }

    #[test]
    fn is_goal_counts_a_manhattan_call() {
        counters::reset();
        let goal = CountingBoard::from_board(Board::goal(3).unwrap());
        assert!(goal.is_goal());
        let c = counters::snapshot();
        assert_eq!((c.board_is_goal, c.board_manhattan, c.board_hamming), (1, 1, 0));
    }
}
