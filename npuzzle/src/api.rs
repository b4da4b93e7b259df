//! **Student side.** The submission API: the traits a student's Rust `Board` and `Solver` implement.
//!
//! They mirror the assignment's Java API. `PuzzleSolver` is generic over the board type on purpose: the
//! grader runs a student's Solver over the instrumented reference board (as the official grader substitutes
//! its reference Board), which is only possible when the Solver uses nothing but this trait.

use std::fmt;
use std::hash::Hash;

/// An immutable n-by-n sliding-puzzle board, as the assignment's `Board`.
///
/// `==` is the assignment's `equals`, and `Display` is its `toString()` (the size on the first line, then
/// each row with every tile printed as `%2d `).
pub trait PuzzleBoard: Clone + PartialEq + fmt::Display + Sized {
    /// Builds a board from an n-by-n grid of tiles (`tiles[row][col]`). The caller guarantees a valid grid:
    /// 2 ≤ n < 128 and a permutation of 0..n²−1 (the harness validates before calling).
    fn from_tiles(tiles: &[Vec<u32>]) -> Self;
    /// The board dimension n.
    fn dimension(&self) -> usize;
    /// The number of tiles out of place (the blank is not counted).
    fn hamming(&self) -> u32;
    /// The sum of the tiles' Manhattan distances to their goal positions (the blank is not counted).
    fn manhattan(&self) -> u32;
    /// Whether this is the goal board.
    fn is_goal(&self) -> bool;
    /// All boards one slide away.
    fn neighbors(&self) -> Vec<Self>;
    /// Appends [`neighbors`](PuzzleBoard::neighbors) to `out`: the same boards in the same order, and one
    /// `neighbors()` call as far as counting goes. A fast path for a solver that reuses one buffer (the
    /// reference solver); the default calls `neighbors()`, so a submission never needs to write it.
    #[doc(hidden)]
    fn neighbors_into(&self, out: &mut Vec<Self>) {
        out.extend(self.neighbors());
    }
    /// A board obtained by exchanging any pair of non-blank tiles.
    fn twin(&self) -> Self;
}

/// An A* solver, as the assignment's `Solver`. Construction does the search.
pub trait PuzzleSolver<B: PuzzleBoard>: Sized {
    /// Finds a solution to `initial` (the assignment's constructor).
    fn new(initial: B) -> Self;
    /// Whether the initial board is solvable.
    fn is_solvable(&self) -> bool;
    /// The minimum number of moves to solve the initial board; −1 if unsolvable.
    fn moves(&self) -> i32;
    /// The boards of a shortest solution from the initial board to the goal; `None` if unsolvable.
    fn solution(&self) -> Option<Vec<B>>;
}

/// What the grader's instrumented board offers beyond [`PuzzleBoard`]: a Solver may require `Hash`, `Eq` and
/// `Debug` of its board type (a hash set of visited boards) and still be graded over the instrumented board.
pub trait GradedBoard: PuzzleBoard + Eq + Hash + fmt::Debug {}

impl<B: PuzzleBoard + Eq + Hash + fmt::Debug> GradedBoard for B {}

/// A submission's types, as [`submission_main!`](crate::submission_main) declares them: the student's Board,
/// their Solver over it, and their Solver over any [`GradedBoard`] (the grader's instrumented board).
pub trait Submission {
    #[allow(missing_docs)]
    type Board: PuzzleBoard;
    /// Their Solver over their Board.
    type OwnSolver: PuzzleSolver<Self::Board>;
    /// Their Solver over another board.
    type Solver<B: GradedBoard>: PuzzleSolver<B>;
}
