//! What the planner computes from a puzzle's board alone, kept in the grader's work directory so that a bare
//! data set (the official files, no `puzzles.toml`) pays for each search once per machine, not once per grade:
//! the search bounds (`bounds.rs`) and the reference's counts (`reference_runs.rs`).
//!
//! One file per board: its first line the board's size and tiles, the rest what was computed. A file that does
//! not hold the board it is named for, or cannot be read, is computed again; a folder that cannot be written
//! costs only the time. Files are written whole (renamed into place), so a reader never sees half of one.

use std::path::{Path, PathBuf};

use reference::Board;

/// One kind of result, kept in a folder of its own under the work directory.
pub(super) struct Kept {
    folder: Option<PathBuf>,
}

impl Kept {
    /// Results kept in `work_dir/folder` (none kept without a work directory).
    pub(super) fn new(work_dir: Option<&Path>, folder: &str) -> Kept {
        Kept { folder: work_dir.map(|dir| dir.join(folder)) }
    }

    /// What the file `key` holds for `board`, if it holds this board.
    pub(super) fn read(&self, key: &str, board: &Board) -> Option<String> {
        let text = std::fs::read_to_string(self.folder.as_ref()?.join(key)).ok()?;
        let (first, rest) = text.split_once('\n')?;
        (first == board_line(board)).then(|| rest.trim_end().to_string())
    }

    /// Keeps `body` for `board` in the file `key`.
    pub(super) fn write(&self, key: &str, board: &Board, body: &str) {
        let Some(folder) = &self.folder else { return };
        let _ = std::fs::create_dir_all(folder);
        let _ = crate::output::write_atomically(&folder.join(key), format!("{}\n{body}\n", board_line(board)));
    }
}

/// The first line of a file: the board's size and tiles.
pub(super) fn board_line(board: &Board) -> String {
    let tiles: Vec<String> = board.tiles().map(|t| t.to_string()).collect();
    format!("{} {}", board.dimension(), tiles.join(" "))
}

/// A puzzle file without metadata (as the official files come), for the tests of what is kept.
#[cfg(test)]
pub(super) fn bare_puzzle(text: &str, name: &str) -> corpus::Puzzle {
    let board = reference::parse_puzzle(text).unwrap();
    corpus::Puzzle { name: name.into(), file: format!("{name}.txt").into(), board, meta: None }
}
