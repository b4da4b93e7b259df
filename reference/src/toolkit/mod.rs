//! Beyond the assignment: m-by-n boards, any goal, move strings, four searches side by side, and an optimal
//! 4x4 solver with additive pattern databases — what the `solver` client's extra modes run.
//!
//! The assignment's [`Board`](crate::Board) and [`Solver`](crate::Solver) stay exactly as the assignment
//! specifies (square boards, the standard goal, the official counts the grader compares against); nothing
//! here touches them. The toolkit has its own plain board [`Grid`] (any shape, printing, the `m n` header,
//! the parity rule for any pair of boards) and one compact search state ([`State`], in a [`Space`] that
//! fixes the shape and the goal) shared by every search in [`search`].
//!
//! Why here and not in `corpus`: the `solver` binary belongs to this crate, and `corpus` depends on
//! `reference`, so the optimal solver `solver --optimal` runs must live on this side of that one-way edge.
//! It is also the one `corpus::optimal` proves fixture answers with (with the 5-5-5 databases, built in
//! memory): the fixtures check the assignment's `Board` and `Solver`, and the toolkit shares no code with
//! them. The Korf benchmark (a `corpus` binary) runs both splits and the bare heuristic side by side.
//!
//! - [`grid`]: [`Grid`], [`Shape`], [`Dir`], the puzzle header, the parity rule.
//! - [`space`]: [`State`], [`Space`], ranks and closed sets.
//! - [`heuristic`]: Manhattan distance plus linear conflict towards any goal; [`pdb`]: 4x4 databases.
//! - [`search`]: breadth-first, bidirectional, A*, IDA*; [`compare`]: the table of all four.

pub mod compare;
pub mod grid;
pub mod heuristic;
pub mod pdb;
pub mod search;
pub mod space;

pub use grid::{move_string, parse_grid, read_grid_file, Dir, Grid, GridError, Shape};
pub use heuristic::{Heuristic, ManhattanConflict};
pub use pdb::{PatternDatabase, PatternHeuristic, PdbError};
pub use search::{Limits, Outcome, Run, Stats};
pub use space::{Space, SpaceError, State, MAX_CELLS};

/// Why an optimal answer could not be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The boards cannot be searched (shape mismatch, too many cells).
    #[error(transparent)]
    Space(#[from] SpaceError),
    /// The pattern database could not be built or cached.
    #[error("{0}")]
    Pdb(String),
    /// The search hit its budget.
    #[error("gave up after expanding {expanded} positions (the budget)")]
    GaveUp {
        /// Positions expanded before giving up.
        expanded: u64,
    },
}

/// An optimal list of blank moves from `start` to `goal`, or `None` when the parity rule says it cannot be
/// reached (decided without a search). See [`OptimalSolver::solve`]; a hard 4x4 board builds the pattern
/// databases in memory first (keep an [`OptimalSolver`] with a cache directory to reuse them).
pub fn optimal_moves(start: &Grid, goal: &Grid, limits: Limits) -> Result<Option<Vec<Dir>>, SolveError> {
    OptimalSolver::new(None).solve(start, goal, limits).map(|(moves, _)| moves)
}

/// The largest Manhattan + linear-conflict bound of a 4x4 board solved without the pattern databases: such
/// boards take microseconds, and callers asking only about them never pay for building the databases.
const SHALLOW_4X4_BOUND: u32 = 24;

/// IDA* with the strongest heuristic available: additive pattern databases (mirrored; 6-6-3 by default,
/// [`OptimalSolver::with_groups`] for another split) on 4x4 boards
/// whose goal has the blank last, Manhattan distance plus linear conflict otherwise. The databases are
/// built on first need and kept for every later board, and cached on disk when a directory is given.
pub struct OptimalSolver {
    cache_dir: Option<std::path::PathBuf>,
    groups: &'static [&'static [u8]],
    database: std::sync::OnceLock<Result<PatternDatabase, String>>,
    notice: Option<fn(&str)>,
}

impl OptimalSolver {
    /// A solver with the 6-6-3 split, caching its databases in `cache_dir` (none: memory only).
    pub fn new(cache_dir: Option<std::path::PathBuf>) -> OptimalSolver {
        OptimalSolver::with_groups(pdb::GROUPS_663, cache_dir)
    }

    /// A solver with another split of the 15 tiles (see [`pdb::GROUPS_555`]).
    pub fn with_groups(groups: &'static [&'static [u8]], cache_dir: Option<std::path::PathBuf>) -> OptimalSolver {
        OptimalSolver { cache_dir, groups, database: std::sync::OnceLock::new(), notice: None }
    }

    /// The solver, saying through `notice` when it is about to build its databases (they were not cached),
    /// since that takes seconds the first time: a line for a person waiting.
    pub fn with_notice(self, notice: fn(&str)) -> OptimalSolver {
        OptimalSolver { notice: Some(notice), ..self }
    }

    /// The databases, loaded or built now if they were not yet.
    pub fn database(&self) -> Result<&PatternDatabase, SolveError> {
        let built = self.database.get_or_init(|| {
            if let (Some(notice), false) = (self.notice, pdb::is_cached(self.groups, self.cache_dir.as_deref())) {
                let kept = match &self.cache_dir {
                    Some(dir) => format!("cached in {} for later runs", dir.display()),
                    None => "kept in memory only".to_string(),
                };
                notice(&format!("building the 4x4 pattern databases (once; a few seconds; {kept})"));
            }
            PatternDatabase::load_or_build(self.groups, self.cache_dir.as_deref()).map_err(|e| e.to_string())
        });
        built.as_ref().map_err(|e| SolveError::Pdb(e.clone()))
    }

    /// An optimal list of blank moves (`None`: unsolvable, by parity) and the search's counts. Of several
    /// optimal answers, the first in the order U < D < L < R (see [`search::ida_star`]).
    pub fn solve(&self, start: &Grid, goal: &Grid, limits: Limits) -> Result<(Option<Vec<Dir>>, Stats), SolveError> {
        if start.shape() != goal.shape() {
            return Err(SpaceError::Grid(GridError::ShapeMismatch(start.shape(), goal.shape())).into());
        }
        let space = Space::new(goal)?;
        if !start.can_reach(goal) {
            return Ok((None, Stats::default()));
        }
        let s = space.state(start)?;
        let conflict = ManhattanConflict::new(&space);
        let run = match relabelled_for_database(start, goal) {
            Some(relabelled) if conflict.value(&conflict.start(&s)) > SHALLOW_4X4_BOUND => {
                let standard = Space::new(&Grid::goal(goal.shape()).map_err(SpaceError::from)?)?;
                let h = PatternHeuristic::new(self.database()?);
                search::ida_star(&standard, standard.state(&relabelled)?, &h, limits)
            }
            _ => search::ida_star(&space, s, &conflict, limits),
        };
        match run.outcome {
            Outcome::Solved(moves) => Ok((Some(moves), run.stats)),
            Outcome::GaveUp | Outcome::Unreachable => Err(SolveError::GaveUp { expanded: run.stats.expanded }),
        }
    }
}

/// A 4x4 start relabelled so that `goal` becomes the standard goal (tile `t` renamed after its goal cell),
/// when the goal's blank is last; the blank's moves are the same in both, so the answer carries over.
fn relabelled_for_database(start: &Grid, goal: &Grid) -> Option<Grid> {
    let shape = goal.shape();
    if (shape.rows, shape.cols) != (4, 4) || goal.blank() != 15 {
        return None;
    }
    let mut label = [0u16; 16];
    for (cell, &t) in goal.tiles().iter().enumerate() {
        label[t as usize] = if t == 0 { 0 } else { cell as u16 + 1 };
    }
    let tiles: Vec<u16> = start.tiles().iter().map(|&t| label[t as usize]).collect();
    Grid::new(shape, &tiles).ok()
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
