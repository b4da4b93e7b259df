//! What the planner computes from a puzzle's board alone, kept in the grader's work directory so that a bare
//! data set (the official files, no `puzzles.toml`) pays for each search once per machine, not once per grade:
//! the search bounds (`bounds.rs`) and the reference's counts (`reference_runs.rs`).
//!
//! One file per board: its first line the board's size and tiles, the next what was computed ([`KeptText`]). A file that does
//! not hold the board it is named for, or cannot be read, is computed again; a folder that cannot be written
//! costs only the time. Files are written whole (renamed into place), so a reader never sees half of one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use reference::Board;

/// A result kept as one line of text after its board's.
pub(super) trait KeptText: Copy {
    /// The line written.
    fn to_text(self) -> String;
    /// The result a line says, or `None` when it says nothing readable (then it is computed again).
    fn from_text(text: &str) -> Option<Self>;
}

/// One kind of result, kept in a folder of its own under the work directory, and found at most once per run.
pub(super) struct Kept<T> {
    folder: Option<PathBuf>,
    found: HashMap<String, T>,
}

impl<T: KeptText> Kept<T> {
    /// Results kept in `work_dir/folder` (none kept without a work directory).
    pub(super) fn new(work_dir: Option<&Path>, folder: &str) -> Kept<T> {
        Kept { folder: work_dir.map(|dir| dir.join(folder)), found: HashMap::new() }
    }

    /// The result for `board`, kept under `key`: found earlier in this run, else read from its file if that
    /// holds this board, else `compute`d and kept.
    pub(super) fn get_or_compute(&mut self, key: String, board: &Board, compute: impl FnOnce() -> T) -> T {
        if let Some(&found) = self.found.get(&key) {
            return found;
        }
        let result = self.read(&key, board).unwrap_or_else(|| {
            let result = compute();
            self.write(&key, board, result);
            result
        });
        *self.found.entry(key).or_insert(result)
    }

    fn read(&self, key: &str, board: &Board) -> Option<T> {
        let text = std::fs::read_to_string(self.folder.as_ref()?.join(key)).ok()?;
        let (first, rest) = text.split_once('\n')?;
        (first == board_line(board)).then(|| T::from_text(rest.trim_end())).flatten()
    }

    fn write(&self, key: &str, board: &Board, result: T) {
        let Some(folder) = &self.folder else { return };
        let _ = std::fs::create_dir_all(folder);
        let text = format!("{}\n{}\n", board_line(board), result.to_text());
        let _ = crate::output::write_atomically(&folder.join(key), text);
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
