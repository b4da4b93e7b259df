//! The m-by-n board of the toolkit: its shape, tiles, printing, the `m n` puzzle header, the solvability
//! rule for any pair of boards, and blank moves as letters.
//!
//! This is not the assignment's [`Board`](crate::Board): that one mirrors the assignment's API exactly (square
//! only, instrumented, used by the grader), while this one is a plain value the toolkit's searches start from
//! and print. Tiles are `u16` so any board the puzzle format allows fits; the searches take at most
//! [`MAX_CELLS`](super::MAX_CELLS) cells.

use std::fmt;

use crate::puzzle_file::ParseError;

/// Rows by columns. Both are at least 2 (a 1-by-n strip has no puzzle: nothing can pass anything).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Number of rows (m).
    pub rows: usize,
    /// Number of columns (n, the width).
    pub cols: usize,
}

impl Shape {
    /// Cells on the board.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

/// What is wrong with a grid of tiles.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[allow(missing_docs)] // a field that each variant's message names says no more with a doc of its own
pub enum GridError {
    /// A side is below 2 or the board is larger than the format allows.
    #[error("board shape {rows}x{cols} is not supported: both sides must be at least 2 and m·n at most 16129")]
    BadShape { rows: usize, cols: usize },
    /// The number of tiles does not match the shape.
    #[error("expected {expected} tiles, found {found}")]
    WrongCount {
        /// m·n.
        expected: usize,
        found: usize,
    },
    /// A tile is outside 0..m·n.
    #[error("tile {value} at row {row}, column {col} is out of range: tiles must be 0..={max}")]
    OutOfRange {
        value: i64,
        /// Zero-based row.
        row: usize,
        /// Zero-based column.
        col: usize,
        /// m·n − 1.
        max: usize,
    },
    /// A tile appears twice.
    #[error("tile {value} appears more than once (at row {row}, column {col} again)")]
    Duplicate {
        value: i64,
        /// Zero-based row of the second occurrence.
        row: usize,
        /// Zero-based column of the second occurrence.
        col: usize,
    },
    /// Two boards of different shapes were paired (a start and a goal).
    #[error("the boards have different shapes ({0} and {1})")]
    ShapeMismatch(Shape, Shape),
    /// A move string holds something other than U, D, L, R, or walks the blank off the board.
    #[error("move {index} (`{letter}`) is not possible: {why}")]
    BadMove {
        /// Zero-based position in the string.
        index: usize,
        letter: char,
        /// Why it cannot be made.
        why: &'static str,
    },
}

/// Where the blank goes in one move; the tile it swaps with slides the opposite way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// The blank moves up a row.
    Up,
    /// The blank moves down a row.
    Down,
    /// The blank moves left a column.
    Left,
    /// The blank moves right a column.
    Right,
}

impl Dir {
    /// Every direction in the order searches try them: U, D, L, R. That order is the tie-break: of several
    /// optimal move strings, the toolkit's IDA* returns the first in this order (lexicographic by U < D < L < R).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The letter of the move string.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The move that undoes this one.
    pub fn reverse(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// The direction a letter names.
    pub fn from_letter(letter: char) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.letter() == letter)
    }

    /// The cell the blank reaches from `cell`, if it stays on the board.
    pub fn step(self, shape: Shape, cell: usize) -> Option<usize> {
        let (row, col) = (cell / shape.cols, cell % shape.cols);
        match self {
            Dir::Up => (row > 0).then(|| cell - shape.cols),
            Dir::Down => (row + 1 < shape.rows).then(|| cell + shape.cols),
            Dir::Left => (col > 0).then(|| cell - 1),
            Dir::Right => (col + 1 < shape.cols).then(|| cell + 1),
        }
    }
}

/// Writes a list of moves as letters (`ULDR`).
pub fn move_string(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// An m-by-n board: tiles row by row, 0 for the blank.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    tiles: Vec<u16>,
}

impl Grid {
    /// A board from row-major tiles; checks the shape and that the tiles are a permutation of 0..m·n.
    ///
    /// ```
    /// use reference::toolkit::{Grid, Shape};
    /// let g = Grid::new(Shape { rows: 2, cols: 3 }, &[1, 2, 3, 4, 0, 5]).unwrap();
    /// assert_eq!(g.apply_moves("R").unwrap(), Grid::goal(Shape { rows: 2, cols: 3 }).unwrap());
    /// ```
    pub fn new<T: Copy + Into<i64>>(shape: Shape, tiles: &[T]) -> Result<Grid, GridError> {
        check_shape(shape)?;
        let cells = shape.cells();
        if tiles.len() != cells {
            return Err(GridError::WrongCount { expected: cells, found: tiles.len() });
        }
        let mut seen = vec![false; cells];
        for (i, &tile) in tiles.iter().enumerate() {
            let value: i64 = tile.into();
            let (row, col) = (i / shape.cols, i % shape.cols);
            if !(0..cells as i64).contains(&value) {
                return Err(GridError::OutOfRange { value, row, col, max: cells - 1 });
            }
            if std::mem::replace(&mut seen[value as usize], true) {
                return Err(GridError::Duplicate { value, row, col });
            }
        }
        Ok(Grid { shape, tiles: tiles.iter().map(|&t| t.into() as u16).collect() })
    }

    /// The standard goal: 1 … m·n−1 row by row, blank last.
    pub fn goal(shape: Shape) -> Result<Grid, GridError> {
        check_shape(shape)?;
        let cells = shape.cells() as u16;
        Ok(Grid { shape, tiles: (1..cells).chain([0]).collect() })
    }

    #[allow(missing_docs)]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Tiles row by row (0 = blank).
    pub fn tiles(&self) -> &[u16] {
        &self.tiles
    }

    /// The blank's cell (row-major index).
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).expect("a grid always holds the blank")
    }

    /// The board after the blank moves one step, if it stays on the board.
    pub fn apply(&self, dir: Dir) -> Option<Grid> {
        let blank = self.blank();
        let to = dir.step(self.shape, blank)?;
        let mut next = self.clone();
        next.tiles.swap(blank, to);
        Some(next)
    }

    /// The board after a move string (`U`, `D`, `L`, `R`, the blank's moves); an error names the first move
    /// that is not a letter or leaves the board.
    pub fn apply_moves(&self, moves: &str) -> Result<Grid, GridError> {
        let mut board = self.clone();
        for (index, letter) in moves.chars().enumerate() {
            let dir = Dir::from_letter(letter).ok_or(GridError::BadMove { index, letter, why: "not U, D, L or R" })?;
            board = board.apply(dir).ok_or(GridError::BadMove { index, letter, why: "the blank is at the edge" })?;
        }
        Ok(board)
    }

    /// The parity invariant no move changes: inversions among the non-blank tiles (row-major), plus the blank's
    /// row when the width is even, modulo 2.
    ///
    /// A horizontal move changes neither term; a vertical one moves a tile past `cols − 1` others (changing
    /// the inversions' parity exactly when the width is even) and moves the blank one row.
    pub fn parity(&self) -> bool {
        let blank_row = self.blank() / self.shape.cols;
        odd_inversions(&self.tiles) ^ (self.shape.cols.is_multiple_of(2) && !blank_row.is_multiple_of(2))
    }

    /// Whether `goal` can be reached from this board: same shape and the same [`parity`](Grid::parity).
    /// Both parity classes are single orbits for m, n ≥ 2, so equal parity is also sufficient (the tests
    /// check it against exhaustive search on every 2x3 and 3x2 board, and on sampled 3x4 boards).
    ///
    /// ```
    /// use reference::toolkit::{Grid, Shape};
    /// let shape = Shape { rows: 3, cols: 3 };
    /// let start = Grid::new(shape, &[1, 2, 3, 4, 6, 8, 5, 7, 0]).unwrap();
    /// assert!(!start.can_reach(&Grid::goal(shape).unwrap()));
    /// ```
    pub fn can_reach(&self, goal: &Grid) -> bool {
        self.shape == goal.shape && self.parity() == goal.parity()
    }
}

fn check_shape(shape: Shape) -> Result<(), GridError> {
    if shape.rows < 2 || shape.cols < 2 || shape.rows.saturating_mul(shape.cols) > 127 * 127 {
        return Err(GridError::BadShape { rows: shape.rows, cols: shape.cols });
    }
    Ok(())
}

/// Whether the non-blank tiles hold an odd number of inversions (the oracle's cycle count, shared).
fn odd_inversions(tiles: &[u16]) -> bool {
    crate::oracle::odd_inversions_of_tiles(tiles.iter().map(|&t| usize::from(t)))
}

impl fmt::Display for Grid {
    /// The puzzle format: `n` for a square board, `m n` otherwise, then the rows (tiles right-aligned in
    /// two columns, as the assignment's `toString()`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Shape { rows, cols } = self.shape;
        if rows == cols {
            writeln!(f, "{rows}")?;
        } else {
            writeln!(f, "{rows} {cols}")?;
        }
        for row in self.tiles.chunks(cols) {
            for tile in row {
                write!(f, "{tile:2} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self
            .tiles
            .chunks(self.shape.cols)
            .map(|r| r.iter().map(u16::to_string).collect::<Vec<_>>().join(" "))
            .collect();
        write!(f, "Grid[{}]", rows.join(" / "))
    }
}

/// Parses a puzzle text whose header is `n` (an n-by-n board) or `m n` (m rows of n tiles).
///
/// The two are told apart by the count of numbers: `m n` then m·n tiles, or `n` then n² tiles (both at once
/// is impossible for m ≥ 2). When neither fits, a first line holding exactly two numbers is read as `m n`
/// for the error message.
///
/// ```
/// use reference::toolkit::parse_grid;
/// let g = parse_grid("4 3\n1 3 0\n4 2 6\n7 5 8\n10 11 9\n").unwrap();
/// assert_eq!((g.shape().rows, g.shape().cols), (4, 3));
/// assert_eq!(parse_grid("2\n1 2\n3 0\n").unwrap().shape().cols, 2);
/// assert_eq!(parse_grid("2 3\n1 2 3\n4 0\n").unwrap_err().to_string(), "line 3: expected 6 tiles after `2 3`, found 5");
/// ```
pub fn parse_grid(text: &str) -> Result<Grid, ParseError> {
    let tokens: Vec<(usize, &str)> =
        text.lines().enumerate().flat_map(|(i, line)| line.split_whitespace().map(move |t| (i + 1, t))).collect();
    let last_line = text.lines().count().max(1);
    let number = |k: usize, what: &str| -> Result<i64, ParseError> {
        let (line, token) = tokens[k];
        crate::puzzle_file::parse_int(line, token, what)
    };
    if tokens.is_empty() {
        return Err(ParseError { line: 1, problem: "the file is empty: expected the size n (or m n)".into() });
    }
    let first = number(0, "the size n (or m n)")?;
    let second = if tokens.len() > 1 { number(1, "a tile or the width n").ok() } else { None };
    let side = |v: i64| (2..=127 * 127).contains(&v);
    let rect_fits = second.is_some_and(|n| side(first) && side(n) && tokens.len() as i64 == 2 + first * n);
    let square_fits = side(first) && first <= 127 && tokens.len() as i64 == 1 + first * first;
    let first_line_pair =
        tokens.len() > 1 && tokens[1].0 == tokens[0].0 && tokens.get(2).is_none_or(|t| t.0 != tokens[0].0);
    let (shape, header, skip) = if rect_fits || (!square_fits && first_line_pair && second.is_some()) {
        let cols = second.unwrap_or(0);
        (check_side(tokens[0].0, first, cols)?, format!("`{first} {cols}`"), 2)
    } else {
        if !(2..=127).contains(&first) {
            let problem = format!("size {first} is out of range: n must be 2..=127");
            return Err(ParseError { line: tokens[0].0, problem });
        }
        (Shape { rows: first as usize, cols: first as usize }, "the size".to_string(), 1)
    };
    let cells = shape.cells();
    let body = &tokens[skip..];
    if body.len() > cells {
        let (line, token) = body[cells];
        let problem =
            format!("unexpected `{token}` after the {cells} tiles of a {}-by-{} board", shape.rows, shape.cols);
        return Err(ParseError { line, problem });
    }
    let mut tiles = Vec::with_capacity(cells);
    for k in skip..tokens.len() {
        tiles.push(number(k, "a tile")?);
    }
    if tiles.len() < cells {
        let problem = format!("expected {cells} tiles after {header}, found {}", tiles.len());
        return Err(ParseError { line: last_line, problem });
    }
    Grid::new(shape, &tiles).map_err(|e| {
        let at = match &e {
            GridError::OutOfRange { row, col, .. } | GridError::Duplicate { row, col, .. } => row * shape.cols + col,
            _ => 0,
        };
        ParseError { line: body[at].0, problem: e.to_string() }
    })
}

fn check_side(line: usize, rows: i64, cols: i64) -> Result<Shape, ParseError> {
    if rows < 2 || cols < 2 || rows.saturating_mul(cols) > 127 * 127 {
        let problem = format!("shape {rows}x{cols} is out of range: m and n must be at least 2, m·n at most 16129");
        return Err(ParseError { line, problem });
    }
    Ok(Shape { rows: rows as usize, cols: cols as usize })
}

/// Reads and parses a puzzle file in either header form ([`parse_grid`]); errors name the file.
pub fn read_grid_file(path: &std::path::Path) -> Result<Grid, crate::PuzzleFileError> {
    use crate::PuzzleFileError;
    let bytes = std::fs::read(path).map_err(|source| PuzzleFileError::Io { path: path.into(), source })?;
    parse_grid(&String::from_utf8_lossy(&bytes)).map_err(|error| PuzzleFileError::Parse { path: path.into(), error })
}
