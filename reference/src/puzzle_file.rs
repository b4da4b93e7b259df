//! Reading the assignment's puzzle format: the integer n, then n² integers, separated by any whitespace.
//!
//! Errors name the line and the problem (and, from [`read_puzzle_file`], the file), because the people who
//! meet them are instructors pointing the grader at a directory and students feeding the test client.

use std::path::{Path, PathBuf};

use crate::{Board, BoardError};

/// What is wrong with a puzzle text, and on which line (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct ParseError {
    /// The 1-based line where the problem was found.
    pub line: usize,
    /// What is wrong there.
    pub problem: String,
}

/// A puzzle file that could not be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleFileError {
    /// The file could not be read.
    #[error("failed to read puzzle file `{path}`: {source}")]
    #[allow(missing_docs)] // the message names the fields
    Io { path: PathBuf, source: std::io::Error },
    /// The file's contents are not a valid puzzle.
    #[error("invalid puzzle file `{path}`: {error}")]
    Parse {
        #[allow(missing_docs)]
        path: PathBuf,
        /// The line, and what is wrong on it.
        error: ParseError,
    },
}

/// Parses a puzzle from text in the assignment's format.
///
/// ```
/// let board = reference::parse_puzzle("3\n 0 1 3\n 4 2 5\n 7 8 6\n").unwrap();
/// assert_eq!(board.manhattan(), 4);
/// let error = reference::parse_puzzle("3\n 0 1 3\n 4 2 5\n 7 8\n").unwrap_err();
/// assert_eq!(error.to_string(), "line 4: expected 9 tiles after the size, found 8");
/// ```
pub fn parse_puzzle(text: &str) -> Result<Board, ParseError> {
    match parse_well_formed(text) {
        Some(board) => Ok(board),
        None => parse_carefully(text),
    }
}

/// The common case in one pass (the grader parses every `toString()` a submission returns, 100 KB for a
/// 127-by-127 board): ASCII whitespace and digits only, a valid size and exactly its n² tiles forming a
/// board. Anything else is left to [`parse_carefully`], which finds the line and the problem.
fn parse_well_formed(text: &str) -> Option<Board> {
    let mut numbers = Vec::with_capacity(text.len() / 2);
    crate::decimal::read_numbers(text, crate::decimal::Separators::AsciiWhitespace, &mut numbers)?;
    let (&n, tiles) = numbers.split_first()?;
    let n = n as usize;
    if tiles.len() != n * n {
        return None;
    }
    Board::from_row_major(n, tiles).ok()
}

fn parse_carefully(text: &str) -> Result<Board, ParseError> {
    if text.starts_with('\u{feff}') {
        return Err(ParseError {
            line: 1,
            problem: "the file starts with a byte-order mark (U+FEFF), which is not part of the format: save it \
                      as plain text without one"
                .into(),
        });
    }
    let mut tokens =
        text.lines().enumerate().flat_map(|(i, line)| line.split_whitespace().map(move |token| (i + 1, token)));
    let last_line = text.lines().count().max(1);
    let (size_line, size_token) = tokens
        .next()
        .ok_or_else(|| ParseError { line: 1, problem: "the file is empty: expected the size n".into() })?;
    let n = parse_int(size_line, size_token, "the size n")?;
    if !(2..=127).contains(&n) {
        return Err(ParseError { line: size_line, problem: format!("size {n} is out of range: n must be 2..=127") });
    }
    let n = n as usize;
    let mut tiles = Vec::with_capacity(n * n);
    let mut tile_lines = Vec::with_capacity(n * n);
    for (line, token) in tokens {
        if tiles.len() == n * n {
            return Err(ParseError {
                line,
                problem: format!(
                    "unexpected `{}` after the {} tiles of a {n}-by-{n} board{}",
                    shown(token),
                    n * n,
                    header_hint(text, size_line)
                ),
            });
        }
        tiles.push(parse_int(line, token, "a tile")?);
        tile_lines.push(line);
    }
    if tiles.len() < n * n {
        return Err(ParseError {
            line: last_line,
            problem: format!(
                "expected {} tiles after the size, found {}{}",
                n * n,
                tiles.len(),
                header_hint(text, size_line)
            ),
        });
    }
    Board::from_row_major(n, &tiles).map_err(|e| {
        let index = match &e {
            BoardError::TileOutOfRange { row, col, .. } | BoardError::DuplicateTile { row, col, .. } => row * n + col,
            _ => 0,
        };
        ParseError { line: tile_lines[index], problem: e.to_string() }
    })
}

/// What a count of tiles that does not fit adds when the size's line holds two numbers (`3 3`, `2 3`): the
/// rectangular header of the `solver` client's format, which this one lacks. Empty otherwise.
fn header_hint(text: &str, size_line: usize) -> String {
    let size_text: Vec<&str> = text.lines().nth(size_line - 1).unwrap_or("").split_whitespace().collect();
    match size_text.as_slice() {
        [m, n] if m.parse::<u16>().is_ok() && n.parse::<u16>().is_ok() => format!(
            " (line {size_line} reads `{m} {n}` as the size {m} followed by a first tile: the size is n alone; \
             `m n` is the rectangular form only the `solver` client reads)"
        ),
        _ => String::new(),
    }
}

/// A number of the file, or an error naming what was expected there (also the toolkit's grid format's).
pub(crate) fn parse_int(line: usize, token: &str, what: &str) -> Result<i64, ParseError> {
    token.parse::<i64>().map_err(|_| {
        let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
        let problem = match !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            true => format!("expected {what}, found `{token}`, a number far out of range"),
            false => format!("expected {what}, found `{}`", shown(token)),
        };
        ParseError { line, problem }
    })
}

/// A token as an error shows it: characters that print as nothing or move the text (a NUL, a control
/// character, a zero-width space, a byte-order mark inside the text) written as `\u{..}`, so that the reader
/// sees what the file holds.
fn shown(token: &str) -> String {
    token
        .chars()
        .map(|c| match c.is_control() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}') {
            true => c.escape_unicode().to_string(),
            false => c.to_string(),
        })
        .collect()
}

/// Parses a puzzle from the bytes of a file: as [`parse_puzzle`], and bytes that are not UTF-8 text are an
/// error on their line (a puzzle file saved as UTF-16, or a binary file, is not guessed at).
///
/// ```
/// let error = reference::puzzle_file::parse_puzzle_bytes(b"2\n1 2\n3 \xff\n").unwrap_err();
/// assert_eq!(error.to_string(), "line 3: the file is not UTF-8 text (byte 0xff); save it as plain text");
/// ```
pub fn parse_puzzle_bytes(bytes: &[u8]) -> Result<Board, ParseError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_puzzle(text),
        Err(e) => {
            let valid = &bytes[..e.valid_up_to()];
            let line = 1 + valid.iter().filter(|&&b| b == b'\n').count();
            let byte = bytes[e.valid_up_to()];
            Err(ParseError {
                line,
                problem: format!("the file is not UTF-8 text (byte {byte:#04x}); save it as plain text"),
            })
        }
    }
}

/// Reads and parses a puzzle file (see [`parse_puzzle_bytes`]).
pub fn read_puzzle_file(path: &Path) -> Result<Board, PuzzleFileError> {
    let bytes = std::fs::read(path).map_err(|source| PuzzleFileError::Io { path: path.into(), source })?;
    parse_puzzle_bytes(&bytes).map_err(|error| PuzzleFileError::Parse { path: path.into(), error })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    #[rstest]
    #[case("", 1, "the file is empty: expected the size n")]
    #[case("three\n", 1, "expected the size n, found `three`")]
    #[case("\n\n1\n0\n", 3, "size 1 is out of range: n must be 2..=127")]
    #[case("2\n1 2\n3 x\n", 3, "expected a tile, found `x`")]
    #[case("2\n1 2\n3 0\n7\n", 4, "unexpected `7` after the 4 tiles of a 2-by-2 board")]
    #[case("2\n1 2\n3 3\n", 3, "tile 3 appears more than once (at row 1, column 1 again)")]
    #[case("2\n1 2\n3 -4\n", 3, "tile -4 at row 1, column 1 is out of range: tiles must be 0..=3")]
    #[case(
        "2\n1 2\n99999999999999999999 0\n",
        3,
        "expected a tile, found `99999999999999999999`, a number far out of range"
    )]
    #[case("\u{feff}3\n1 2 3\n4 5 6\n7 8 0\n", 1, "the file starts with a byte-order mark (U+FEFF), which is not part of the format: save it as plain text without one")]
    #[case("3\0\n1 2 3\n4 5 6\n7 8 0\n", 1, "expected the size n, found `3\\u{0}`")]
    #[case("2\n1 2\n3 0\u{200b}\n", 3, "expected a tile, found `0\\u{200b}`")]
    #[case(
        "3 3\n1 2 3\n4 5 6\n7 8 0\n",
        4,
        "unexpected `0` after the 9 tiles of a 3-by-3 board (line 1 reads `3 3` as the size 3 followed by a first tile: the size is n alone; `m n` is the rectangular form only the `solver` client reads)"
    )]
    #[case(
        "2 3\n1 2 3\n4 5 0\n",
        3,
        "unexpected `4` after the 4 tiles of a 2-by-2 board (line 1 reads `2 3` as the size 2 followed by a first tile: the size is n alone; `m n` is the rectangular form only the `solver` client reads)"
    )]
    #[case("2\n1 2\n3 0.5\n", 3, "expected a tile, found `0.5`")]
    #[case("3\n1 2 3\n4 5 6\n7 8\n", 4, "expected 9 tiles after the size, found 8")]
    #[case("2\n1 2 3 0 4\n", 2, "unexpected `4` after the 4 tiles of a 2-by-2 board")]
    #[case("2\n1 2\n3 0\n% generated by hand\n", 4, "unexpected `%` after the 4 tiles of a 2-by-2 board")]
    #[case("2\n0 2\n2 1\n", 3, "tile 2 appears more than once (at row 1, column 0 again)")]
    #[case("128\n0 1\n", 1, "size 128 is out of range: n must be 2..=127")]
    #[case("-3\n0 1\n", 1, "size -3 is out of range: n must be 2..=127")]
    #[case("2\n1 2\n3 \u{fffd}\n", 3, "expected a tile, found `\u{fffd}`")]
    fn malformed_text_names_line_and_problem(#[case] text: &str, #[case] line: usize, #[case] problem: &str) {
        assert_eq!(parse_puzzle(text).unwrap_err(), ParseError { line, problem: problem.into() });
        assert_eq!(parse_puzzle_bytes(text.as_bytes()).unwrap_err(), ParseError { line, problem: problem.into() });
    }

    #[rstest]
    #[case(b"2\n1 2\n3 \xff\n", 3, "the file is not UTF-8 text (byte 0xff); save it as plain text")]
    #[case(b"\xff\xfe2\x00\n", 1, "the file is not UTF-8 text (byte 0xff); save it as plain text")]
    #[case(b"2\n1 2\n\n3 0 \xc3\n", 4, "the file is not UTF-8 text (byte 0xc3); save it as plain text")]
    fn bytes_that_are_not_utf8_are_named_by_line(#[case] bytes: &[u8], #[case] line: usize, #[case] problem: &str) {
        assert_eq!(parse_puzzle_bytes(bytes).unwrap_err(), ParseError { line, problem: problem.into() });
    }

    #[test]
    fn any_whitespace_separates_tokens() {
        let b = parse_puzzle("  2\t1\r\n2 3\n\n   0").unwrap();
        assert_eq!(b.to_rows(), vec![vec![1, 2], vec![3, 0]]);
    }

    #[test]
    fn file_errors_name_the_file() {
        let e = read_puzzle_file(Path::new("/nonexistent/puzzle04.txt")).unwrap_err();
        assert!(e.to_string().starts_with("failed to read puzzle file `/nonexistent/puzzle04.txt`"), "{e}");
    }

    proptest! {
        #[test]
        fn never_panics_on_garbage(text in ".{0,200}") {
            let _ = parse_puzzle(&text);
        }

        #[test]
        fn never_panics_on_numeric_garbage(nums in proptest::collection::vec(-3i64..20, 0..30)) {
            let text = nums.iter().map(i64::to_string).collect::<Vec<_>>().join(" ");
            let _ = parse_puzzle(&text);
        }
    }
}
