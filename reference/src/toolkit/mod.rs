//! Beyond the assignment: m-by-n boards, any goal, move strings, four searches side by side, and an optimal
//! 4x4 solver with additive pattern databases — what the `solver` client's extra modes run.
//!
//! The assignment's [`Board`](crate::Board) and [`Solver`](crate::Solver) stay exactly as the assignment
//! specifies (square boards, the standard goal, the official counts the grader compares against); nothing
//! here touches them. The toolkit has its own plain board [`Grid`] (any shape, printing, the `m n` header,
//! the parity rule for any pair of boards) and one compact search state ([`State`], in a [`Space`] that
//! fixes the shape and the goal) shared by every search in [`search`].
//!
//! Why here and not in `fixtures`: the `solver` binary belongs to this crate, and `fixtures` depends on
//! `reference`, so the optimal solver `solver --optimal` runs must live on this side of that one-way edge.
//! `fixtures::optimal` keeps its own, independent IDA* and 5-5-5 database on purpose: it verifies fixture
//! metadata and must not share code with what it checks. The Korf benchmark (a `fixtures` binary) runs
//! both side by side.
//!
//! - [`grid`]: [`Grid`], [`Shape`], [`Dir`], the puzzle header, the parity rule.
//! - [`space`]: [`State`], [`Space`], ranks and closed sets.
//! - [`heuristic`]: Manhattan distance plus linear conflict towards any goal; [`pdb`]: 4x4 databases.
//! - [`search`]: breadth-first, bidirectional, A*, IDA*; [`compare`]: the table of all four.

pub mod compare;
pub mod grid;
pub mod heuristic;
pub mod search;
pub mod space;

pub use grid::{move_string, parse_grid, read_grid_file, Dir, Grid, GridError, Shape};
pub use heuristic::{Heuristic, ManhattanConflict};
pub use search::{Limits, Outcome, Run, Stats};
pub use space::{Space, SpaceError, State, MAX_CELLS};

/// Why an optimal answer could not be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The boards cannot be searched (shape mismatch, too many cells).
    #[error(transparent)]
    Space(#[from] SpaceError),
    /// The search hit its budget.
    #[error("gave up after expanding {expanded} positions (the budget)")]
    GaveUp {
        /// Positions expanded before giving up.
        expanded: u64,
    },
}

/// An optimal list of blank moves from `start` to `goal`, or `None` when the parity rule says it cannot be
/// reached (decided without a search).
///
/// IDA* with Manhattan distance plus linear conflict; of several optimal answers, the first in the order
/// U < D < L < R (see [`search::ida_star`]).
pub fn optimal_moves(start: &Grid, goal: &Grid, limits: Limits) -> Result<Option<Vec<Dir>>, SolveError> {
    if start.shape() != goal.shape() {
        return Err(SpaceError::Grid(GridError::ShapeMismatch(start.shape(), goal.shape())).into());
    }
    let space = Space::new(goal)?;
    if !start.can_reach(goal) {
        return Ok(None);
    }
    let s = space.state(start)?;
    let run = search::ida_star(&space, s, &ManhattanConflict::new(&space), limits);
    match run.outcome {
        Outcome::Solved(moves) => Ok(Some(moves)),
        Outcome::GaveUp | Outcome::Unreachable => Err(SolveError::GaveUp { expanded: run.stats.expanded }),
    }
}

/// The same answer as one line of letters (`ULDR`), `None` when unsolvable: what `solver --moves` prints.
///
/// ```
/// use reference::toolkit::{moves_string, parse_grid};
/// let start = parse_grid("3\n1 2 3\n4 6 8\n7 5 0\n").unwrap();
/// let goal = reference::toolkit::Grid::goal(start.shape()).unwrap();
/// assert_eq!(moves_string(&start, &goal).unwrap().as_deref(), Some("ULDR"));
/// ```
pub fn moves_string(start: &Grid, goal: &Grid) -> Result<Option<String>, SolveError> {
    Ok(optimal_moves(start, goal, Limits::NONE)?.map(|m| move_string(&m)))
}

#[cfg(test)]
mod tests;
