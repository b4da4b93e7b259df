//! The search bound of a puzzle file (`specs/search-bound.md`): how many boards every A* search removes and
//! expands on it, which the rows that judge a Solver's counts hold it to. It comes from the fixtures'
//! metadata (`puzzles.toml`, where `fixturegen` recorded it), else it is computed here (`corpus::bound`) and
//! kept in the grader's work directory under the board's content and moves (`kept.rs`).
//!
//! A kept file holds the bound, or `none` where there is none (a board too large, over the budget, or nearer
//! the goal than its name says).

use std::path::Path;

use super::kept::{Kept, KeptText};
use corpus::bound::{search_bound, BOUND_BUDGET};
use corpus::metadata::tiles_fingerprint;
use corpus::{Expected, Puzzle};

/// The cache's folder in the work directory; the suffix changes if its files ever change meaning.
const CACHE_FOLDER: &str = "search-bounds-v1";

/// Search bounds of the plan's puzzle files, each found once per run.
pub(super) struct SearchBounds {
    kept: Kept<Option<u64>>,
}

impl SearchBounds {
    /// Bounds kept under `work_dir` (none kept without one).
    pub(super) fn new(work_dir: Option<&Path>) -> SearchBounds {
        SearchBounds { kept: Kept::new(work_dir, CACHE_FOLDER) }
    }

    /// The bound of `puzzle`, whose answer is `expected`: its metadata's, else the cached or computed one.
    /// `None` for an unsolvable or unknown answer, or where none could be computed.
    pub(super) fn of(&mut self, puzzle: &Puzzle, expected: Expected) -> Option<u64> {
        if let Some(bound) = puzzle.meta.as_ref().and_then(|meta| meta.bound) {
            return Some(bound);
        }
        let Expected::Moves(moves) = expected else { return None };
        let key = format!("{}-{moves}", tiles_fingerprint(&puzzle.board));
        self.kept.get_or_compute(key, &puzzle.board, || search_bound(&puzzle.board, moves, BOUND_BUDGET).ok())
    }
}

/// A kept bound: the number, or `none` where there is none.
impl KeptText for Option<u64> {
    fn to_text(self) -> String {
        self.map_or("none".into(), |bound| bound.to_string())
    }

    fn from_text(text: &str) -> Option<Self> {
        match text {
            "none" => Some(None),
            number => number.parse().ok().map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::kept::{bare_puzzle as puzzle, board_line};
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn a_bound_is_computed_once_and_kept_by_the_boards_content() {
        let work = tempfile::tempdir().unwrap();
        // the bundled puzzle20's board
        let p = puzzle("3\n 7  2  1\n 3  4  6\n 0  5  8\n", "puzzle20");
        let mut bounds = SearchBounds::new(Some(work.path()));
        let computed = bounds.of(&p, Expected::Moves(20));
        assert_eq!(computed, Some(158), "as puzzles.toml records it");
        let files: Vec<PathBuf> =
            std::fs::read_dir(work.path().join(CACHE_FOLDER)).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1);
        // a second run reads the file: one that says otherwise is believed, as long as it holds the board
        std::fs::write(&files[0], format!("{}\n7\n", board_line(&p.board))).unwrap();
        assert_eq!(SearchBounds::new(Some(work.path())).of(&p, Expected::Moves(20)), Some(7));
        // a file holding another board is computed again and rewritten
        std::fs::write(&files[0], "3 1 2 3 4 5 6 7 8 0\n7\n").unwrap();
        assert_eq!(SearchBounds::new(Some(work.path())).of(&p, Expected::Moves(20)), computed);
        assert!(std::fs::read_to_string(&files[0]).unwrap().starts_with(&board_line(&p.board)));
    }

    #[test]
    fn no_bound_for_an_unknown_answer_or_a_name_that_promises_too_many_moves() {
        let mut bounds = SearchBounds::new(None);
        let p = puzzle("3\n 0  1  3\n 4  2  5\n 7  8  6\n", "puzzle06");
        assert_eq!(bounds.of(&p, Expected::Unknown), None);
        assert_eq!(bounds.of(&p, Expected::Unsolvable), None);
        assert_eq!(bounds.of(&p, Expected::Moves(6)), None, "the goal is 4 moves away");
        assert_eq!(bounds.of(&p, Expected::Moves(4)), Some(0));
    }
}
