//! The reference `Board`: an immutable n-by-n sliding-puzzle position.
//!
//! This module owns the board's representation and its methods, which mirror the assignment's `Board` API
//! method for method. Two choices matter to the rest of the project:
//!
//! - **Compactness.** One byte per tile for n ≤ 15 and two (little-endian) beyond. Up to 4-by-4 the tiles
//!   live inside the 32-byte handle itself (16 bytes, where a larger board keeps its heap pointer), so the
//!   boards the timing tests make by the million cost no allocation at all; larger boards own one boxed
//!   slice. The blank's position, hamming and manhattan are cached at construction and updated in O(1) when
//!   a neighbor is built, so every method is O(n²) or better and the solver's hot path is one copy and one
//!   swap.
//! - **Fixed orders.** `neighbors()` moves the blank down, right, left, up, and `twin()` swaps row-major
//!   positions 0 and 1 unless one is the blank (then the last two). The official grader's reference counts
//!   arise from exactly these orders, so changing them changes every baseline instructors know.
//!
//! Invalid grids are rejected by [`Board::new`] with a [`BoardError`]; nothing here panics on user input.

use std::fmt;

/// The smallest board dimension the assignment allows.
pub const MIN_DIMENSION: usize = 2;
/// The largest board dimension the assignment allows (n < 128).
pub const MAX_DIMENSION: usize = 127;
/// Boards up to this dimension store one byte per tile; larger ones store two.
const MAX_BYTE_DIMENSION: usize = 15;
/// Boards up to this dimension keep their tiles inline (n² ≤ 16 bytes).
const MAX_INLINE_DIMENSION: usize = 4;
const INLINE_BYTES: usize = 16;

/// The tile bytes: inline for n ≤ 4, on the heap beyond. Which field is live is decided by the board's `n`,
/// so the handle needs no separate tag and stays 32 bytes.
union Storage {
    inline: [u8; INLINE_BYTES],
    heap: std::mem::ManuallyDrop<Box<[u8]>>,
}

/// Why a grid of tiles is not a valid board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// The dimension is outside 2..=127.
    #[error("board dimension {0} is out of range: n must be between 2 and 127")]
    DimensionOutOfRange(usize),
    /// A row has a different length from the number of rows.
    #[error("row {row} has {len} tiles, expected {expected} (the grid must be n-by-n)")]
    NotSquare {
        /// Zero-based row index.
        row: usize,
        /// Tiles found in that row.
        len: usize,
        /// Tiles expected (the number of rows).
        expected: usize,
    },
    /// A tile value is not in 0..n²−1.
    #[error("tile {value} at row {row}, column {col} is out of range: tiles must be 0..={max}")]
    TileOutOfRange {
        #[allow(missing_docs)]
        value: i64,
        /// Zero-based row.
        row: usize,
        /// Zero-based column.
        col: usize,
        /// The largest allowed value (n² − 1).
        max: usize,
    },
    /// A tile value appears twice, so the grid is not a permutation of 0..n²−1.
    #[error("tile {value} appears more than once (at row {row}, column {col} again)")]
    DuplicateTile {
        #[allow(missing_docs)]
        value: usize,
        /// Zero-based row of the second occurrence.
        row: usize,
        /// Zero-based column of the second occurrence.
        col: usize,
    },
}

/// An immutable n-by-n sliding-puzzle board (2 ≤ n ≤ 127, tiles 0..n²−1, 0 = blank).
///
/// ```
/// use reference::Board;
/// let board = Board::new(&[vec![8, 1, 3], vec![4, 0, 2], vec![7, 6, 5]]).unwrap();
/// assert_eq!(board.hamming(), 5);
/// assert_eq!(board.manhattan(), 10);
/// assert_eq!(board.to_string(), "3\n 8  1  3 \n 4  0  2 \n 7  6  5 \n");
/// ```
pub struct Board {
    /// Row-major tiles: one byte each for n ≤ 15, two little-endian bytes each beyond; see [`Storage`].
    tiles: Storage,
    manhattan: u32,
    hamming: u32,
    blank: u16,
    n: u8,
}

impl Board {
    /// Builds a board from rows of tiles (`tiles[row][col]`), checking that the grid is n-by-n with
    /// 2 ≤ n ≤ 127 and holds each of 0..n²−1 exactly once.
    pub fn new<R: AsRef<[u32]>>(rows: &[R]) -> Result<Board, BoardError> {
        let n = rows.len();
        let mut flat = Vec::with_capacity(n * n);
        for (row, tiles) in rows.iter().enumerate() {
            let tiles = tiles.as_ref();
            if tiles.len() != n {
                check_dimension(n)?;
                return Err(BoardError::NotSquare { row, len: tiles.len(), expected: n });
            }
            flat.extend_from_slice(tiles);
        }
        Board::from_row_major(n, &flat)
    }

    /// Builds a board from `n` and its n² tiles in row-major order, of any integer type that fits in `i64`
    /// (values as read from a file, so negative or huge values are reported rather than wrapped).
    pub fn from_row_major<T: Copy + Into<i64>>(n: usize, tiles: &[T]) -> Result<Board, BoardError> {
        Board::check_row_major(n, tiles)?;
        Ok(Board::from_valid(n, tiles.iter().map(|&t| t.into() as usize)))
    }

    /// Checks, without building anything, that `tiles` are a board of dimension `n` in row-major order: the
    /// first problem found is the error [`Board::from_row_major`] would report.
    pub fn check_row_major<T: Copy + Into<i64>>(n: usize, tiles: &[T]) -> Result<(), BoardError> {
        check_dimension(n)?;
        if tiles.len() != n * n {
            let row = tiles.len() / n;
            return Err(BoardError::NotSquare { row, len: tiles.len() % n, expected: n });
        }
        let max = n * n - 1;
        let mut seen = vec![false; n * n];
        for (i, value) in tiles.iter().map(|&t| t.into()).enumerate() {
            if value < 0 || value as u64 > max as u64 {
                return Err(BoardError::TileOutOfRange { value, row: i / n, col: i % n, max });
            }
            if std::mem::replace(&mut seen[value as usize], true) {
                return Err(BoardError::DuplicateTile { value: value as usize, row: i / n, col: i % n });
            }
        }
        Ok(())
    }

    /// The goal board of dimension `n`: tiles 1..n²−1 in order, blank last.
    pub fn goal(n: usize) -> Result<Board, BoardError> {
        check_dimension(n)?;
        Ok(Board::from_valid(n, (1..n * n).chain(std::iter::once(0))))
    }

    /// Builds a board from a known-valid permutation; computes the cached fields.
    ///
    /// Row and column of each position are counted along, so a tile costs one division (its goal square)
    /// rather than four: a 127-by-127 board is 16,129 tiles, read this way for every board the grader parses.
    fn from_valid(n: usize, tiles: impl Iterator<Item = usize>) -> Board {
        let width = if n <= MAX_BYTE_DIMENSION { 1 } else { 2 };
        let storage = if n <= MAX_INLINE_DIMENSION {
            Storage { inline: [0; INLINE_BYTES] }
        } else {
            Storage { heap: std::mem::ManuallyDrop::new(vec![0u8; n * n * width].into_boxed_slice()) }
        };
        let mut board = Board { tiles: storage, manhattan: 0, hamming: 0, blank: 0, n: n as u8 };
        let (mut manhattan, mut hamming, mut blank) = (0, 0, 0);
        let bytes = board.bytes_mut();
        let (mut row, mut col) = (0u32, 0u32);
        for (i, tile) in tiles.enumerate() {
            if width == 1 {
                bytes[i] = tile as u8;
            } else {
                bytes[2 * i..2 * i + 2].copy_from_slice(&(tile as u16).to_le_bytes());
            }
            if tile == 0 {
                blank = i;
            } else {
                hamming += u32::from(tile != i + 1);
                let goal = (tile - 1) as u32;
                let (goal_row, goal_col) = (goal / n as u32, goal % n as u32);
                manhattan += row.abs_diff(goal_row) + col.abs_diff(goal_col);
            }
            col += 1;
            if col == n as u32 {
                (row, col) = (row + 1, 0);
            }
        }
        (board.manhattan, board.hamming, board.blank) = (manhattan, hamming, blank as u16);
        board
    }

    /// The board dimension n.
    pub fn dimension(&self) -> usize {
        usize::from(self.n)
    }

    /// The tile at (`row`, `col`), 0 for the blank. Panics if out of bounds, like indexing.
    pub fn tile_at(&self, row: usize, col: usize) -> usize {
        let n = self.dimension();
        assert!(row < n && col < n, "tile_at({row}, {col}) outside a {n}-by-{n} board");
        self.get(row * n + col)
    }

    /// All tiles in row-major order.
    pub fn tiles(&self) -> impl ExactSizeIterator<Item = usize> + '_ {
        (0..self.len()).map(move |i| self.get(i))
    }

    /// The tiles as rows, the shape the constructor takes.
    pub fn to_rows(&self) -> Vec<Vec<u32>> {
        let n = self.dimension();
        (0..n).map(|r| (0..n).map(|c| self.get(r * n + c) as u32).collect()).collect()
    }

    /// The blank's (row, column).
    pub fn blank(&self) -> (usize, usize) {
        let n = self.dimension();
        (usize::from(self.blank) / n, usize::from(self.blank) % n)
    }

    /// The number of tiles out of place (the blank is not counted).
    pub fn hamming(&self) -> u32 {
        self.hamming
    }

    /// The sum over tiles of row distance plus column distance to the goal position (blank not counted).
    pub fn manhattan(&self) -> u32 {
        self.manhattan
    }

    /// Whether this is the goal board.
    pub fn is_goal(&self) -> bool {
        self.hamming == 0
    }

    /// Every board one slide away, the blank moving down, right, left, up (2, 3 or 4 boards).
    pub fn neighbors(&self) -> Vec<Board> {
        let mut out = Vec::with_capacity(4);
        self.for_each_neighbor(|board| out.push(board));
        out
    }

    /// Hands each of [`Board::neighbors`] to `f`, in the same order, without collecting them.
    pub fn for_each_neighbor(&self, mut f: impl FnMut(Board)) {
        let n = self.dimension();
        let (row, col) = row_col(usize::from(self.blank), n);
        let blank = usize::from(self.blank);
        if row + 1 < n {
            f(self.slide(blank + n));
        }
        if col + 1 < n {
            f(self.slide(blank + 1));
        }
        if col > 0 {
            f(self.slide(blank - 1));
        }
        if row > 0 {
            f(self.slide(blank - n));
        }
    }

    /// The board with the tiles at row-major positions 0 and 1 exchanged, or the last two if either of those
    /// is the blank.
    pub fn twin(&self) -> Board {
        let len = self.len();
        let (a, b) = if self.get(0) != 0 && self.get(1) != 0 { (0, 1) } else { (len - 2, len - 1) };
        let (ta, tb) = (self.get(a), self.get(b));
        let mut twin = self.clone();
        twin.set(a, tb);
        twin.set(b, ta);
        twin.manhattan =
            self.manhattan - self.distance(ta, a) - self.distance(tb, b) + self.distance(tb, a) + self.distance(ta, b);
        twin.hamming = self.hamming - u32::from(ta != a + 1) - u32::from(tb != b + 1)
            + u32::from(tb != a + 1)
            + u32::from(ta != b + 1);
        twin
    }

    /// The board with the blank moved into position `to` (which holds a tile adjacent to the blank).
    ///
    /// This is the search's innermost operation (one call per board created), so boards kept inline get a
    /// path that copies the 16 tile bytes and swaps two of them, with no per-tile dimension checks.
    fn slide(&self, to: usize) -> Board {
        let from = usize::from(self.blank);
        if self.dimension() <= MAX_INLINE_DIMENSION {
            // SAFETY: as in `bytes`.
            let mut inline = unsafe { self.tiles.inline };
            let tile = usize::from(inline[to]);
            inline.swap(from, to);
            let (manhattan, hamming) = self.after_slide(tile, from, to);
            return Board { tiles: Storage { inline }, manhattan, hamming, blank: to as u16, n: self.n };
        }
        let tile = self.get(to);
        let (manhattan, hamming) = self.after_slide(tile, from, to);
        let mut next = self.clone();
        next.set(from, tile);
        next.set(to, 0);
        next.blank = to as u16;
        next.manhattan = manhattan;
        next.hamming = hamming;
        next
    }

    /// Manhattan and Hamming distances after `tile` slides from `to` into the blank at `from`.
    fn after_slide(&self, tile: usize, from: usize, to: usize) -> (u32, u32) {
        let manhattan = self.manhattan - self.distance(tile, to) + self.distance(tile, from);
        let hamming = self.hamming - u32::from(tile != to + 1) + u32::from(tile != from + 1);
        (manhattan, hamming)
    }

    /// Manhattan distance of tile `tile` (non-zero) at index `at` from its goal index.
    fn distance(&self, tile: usize, at: usize) -> u32 {
        let n = self.dimension();
        let (at_row, at_col) = row_col(at, n);
        let (goal_row, goal_col) = row_col(tile - 1, n);
        (at_row.abs_diff(goal_row) + at_col.abs_diff(goal_col)) as u32
    }

    fn len(&self) -> usize {
        self.dimension() * self.dimension()
    }

    /// The tile bytes (inline or on the heap).
    fn bytes(&self) -> &[u8] {
        if self.dimension() <= MAX_INLINE_DIMENSION {
            // SAFETY: boards of dimension ≤ 4 are always built with the `inline` field live.
            unsafe { &self.tiles.inline }
        } else {
            // SAFETY: larger boards are always built with the `heap` field live.
            unsafe { &self.tiles.heap }
        }
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        if self.dimension() <= MAX_INLINE_DIMENSION {
            // SAFETY: as in `bytes`.
            unsafe { &mut self.tiles.inline }
        } else {
            // SAFETY: as in `bytes`.
            unsafe { &mut self.tiles.heap }
        }
    }

    fn get(&self, i: usize) -> usize {
        let bytes = self.bytes();
        if self.dimension() <= MAX_BYTE_DIMENSION {
            usize::from(bytes[i])
        } else {
            usize::from(u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]))
        }
    }

    fn set(&mut self, i: usize, tile: usize) {
        let byte_wide = self.dimension() <= MAX_BYTE_DIMENSION;
        let bytes = self.bytes_mut();
        if byte_wide {
            bytes[i] = tile as u8;
        } else {
            bytes[2 * i..2 * i + 2].copy_from_slice(&(tile as u16).to_le_bytes());
        }
    }

    /// The bytes that hold tiles (n², or 2n² beyond 15-by-15).
    fn tile_bytes(&self) -> &[u8] {
        let width = if self.dimension() <= MAX_BYTE_DIMENSION { 1 } else { 2 };
        &self.bytes()[..self.len() * width]
    }

    /// Bytes this board occupies: its 32-byte handle plus the heap bytes it owns (none up to 4-by-4).
    pub fn memory_bytes(&self) -> usize {
        let heap = if self.dimension() <= MAX_INLINE_DIMENSION { 0 } else { self.bytes().len() };
        std::mem::size_of::<Board>() + heap
    }
}

/// `(index / n, index % n)`, from a table for the small boards the search spends its time on (a division
/// costs more than the rest of a slide).
fn row_col(index: usize, n: usize) -> (usize, usize) {
    const fn table() -> [[(u8, u8); 16]; 5] {
        let mut table = [[(0, 0); 16]; 5];
        let mut n = 2;
        while n <= 4 {
            let mut i = 0;
            while i < 16 {
                table[n][i] = ((i / n) as u8, (i % n) as u8);
                i += 1;
            }
            n += 1;
        }
        table
    }
    static SMALL: [[(u8, u8); 16]; 5] = table();
    if n <= MAX_INLINE_DIMENSION && index < 16 {
        let (row, col) = SMALL[n][index];
        return (usize::from(row), usize::from(col));
    }
    (index / n, index % n)
}

fn check_dimension(n: usize) -> Result<(), BoardError> {
    if (MIN_DIMENSION..=MAX_DIMENSION).contains(&n) {
        Ok(())
    } else {
        Err(BoardError::DimensionOutOfRange(n))
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        let tiles = if self.dimension() <= MAX_INLINE_DIMENSION {
            // SAFETY: as in `bytes`.
            Storage { inline: unsafe { self.tiles.inline } }
        } else {
            Storage { heap: std::mem::ManuallyDrop::new(self.bytes().into()) }
        };
        Board { tiles, manhattan: self.manhattan, hamming: self.hamming, blank: self.blank, n: self.n }
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        if self.dimension() > MAX_INLINE_DIMENSION {
            // SAFETY: larger boards always have the `heap` field live, and it is dropped only here, once.
            unsafe { std::mem::ManuallyDrop::drop(&mut self.tiles.heap) }
        }
    }
}

// SAFETY: `Storage` is plain bytes or an owned `Box<[u8]>`, both of which are Send and Sync.
unsafe impl Send for Board {}
// SAFETY: as above; shared access only reads.
unsafe impl Sync for Board {}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        if self.n != other.n {
            return false;
        }
        if self.dimension() <= MAX_INLINE_DIMENSION {
            // SAFETY: as in `bytes`. The bytes past n² are zero in every inline board (built zeroed, and only
            // tiles are ever written), so the whole arrays compare like the tiles: one 16-byte comparison,
            // which is most of the A* search's equality checks.
            return unsafe { self.tiles.inline == other.tiles.inline };
        }
        self.tile_bytes() == other.tile_bytes()
    }
}

impl Eq for Board {}

/// Hashes what equality compares: the dimension and the tiles.
impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.n.hash(state);
        self.tile_bytes().hash(state);
    }
}

/// The assignment's `toString()`: the size on the first line, then each row with every tile as `%2d `.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.dimension();
        // Built by hand and written once: the grader reads back every board it is given, and a 127-by-127
        // board is 16,129 tiles (`{:2} ` per tile through the formatter cost more than the rest of a request).
        let mut text = String::with_capacity(4 + n * (n * 6 + 1));
        crate::decimal::push(&mut text, n as u64);
        text.push('\n');
        for row in 0..n {
            for col in 0..n {
                let tile = self.get(row * n + col);
                if tile < 10 {
                    text.push(' '); // `%2d`: right-aligned in two columns
                }
                crate::decimal::push(&mut text, tile as u64);
                text.push(' ');
            }
            text.push('\n');
        }
        f.write_str(&text)
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> =
            self.to_rows().iter().map(|r| r.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")).collect();
        write!(f, "Board[{}]", rows.join(" / "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    fn board(rows: &[&[u32]]) -> Board {
        Board::new(rows).unwrap()
    }

    #[test]
    fn assignment_worked_example() {
        let b = board(&[&[8, 1, 3], &[4, 0, 2], &[7, 6, 5]]);
        assert_eq!((b.hamming(), b.manhattan(), b.dimension()), (5, 10, 3));
        assert!(!b.is_goal());
        assert_eq!(b.blank(), (1, 1));
    }

    #[test]
    fn board_handle_is_32_bytes_and_small_boards_need_no_heap() {
        assert_eq!(std::mem::size_of::<Board>(), 32);
        assert_eq!(board(&[&[1, 2, 3], &[4, 5, 6], &[7, 8, 0]]).memory_bytes(), 32);
        assert_eq!(Board::goal(5).unwrap().memory_bytes(), 25 + 32);
        assert_eq!(Board::goal(16).unwrap().memory_bytes(), 2 * 256 + 32);
    }

    #[test]
    fn clones_and_neighbors_are_independent_at_every_storage_kind() {
        for n in [2, 4, 5, 15, 16, 40] {
            let goal = Board::goal(n).unwrap();
            let copy = goal.clone();
            let moved = goal.neighbors().remove(0);
            assert_eq!(copy, goal);
            assert_ne!(moved, goal);
            assert_eq!(moved.neighbors().into_iter().filter(|b| *b == goal).count(), 1, "n = {n}");
            drop(goal);
            assert!(copy.is_goal());
        }
    }

    #[test]
    fn display_is_the_format_string_of_the_assignment_at_every_width() {
        for n in [2, 3, 4, 9, 10, 31, 32, 99, 100, 127] {
            let board = Board::goal(n).unwrap().twin();
            let mut expected = format!("{n}\n");
            for row in board.to_rows() {
                row.iter().for_each(|tile| expected.push_str(&format!("{tile:2} ")));
                expected.push('\n');
            }
            assert_eq!(board.to_string(), expected, "n = {n}");
        }
    }

    #[test]
    fn display_matches_the_assignment_to_string() {
        let b = board(&[&[1, 0], &[3, 2]]);
        assert_eq!(b.to_string(), "2\n 1  0 \n 3  2 \n");
        let big = Board::goal(11).unwrap().to_string();
        assert!(big.starts_with("11\n 1  2  3 "), "{big}");
        assert!(big.ends_with("118 119 120  0 \n"), "{big}");
    }

    #[test]
    fn neighbors_move_the_blank_down_right_left_up() {
        let b = board(&[&[1, 2, 3], &[4, 0, 5], &[6, 7, 8]]);
        let blanks: Vec<_> = b.neighbors().iter().map(Board::blank).collect();
        assert_eq!(blanks, vec![(2, 1), (1, 2), (1, 0), (0, 1)]);
        let corner = board(&[&[0, 1], &[2, 3]]);
        let blanks: Vec<_> = corner.neighbors().iter().map(Board::blank).collect();
        assert_eq!(blanks, vec![(1, 0), (0, 1)]);
    }

    #[rstest]
    #[case("1 2 3 4 0 5 6 7 8", "2 1 3 4 0 5 6 7 8")]
    #[case("0 2 3 4 1 5 6 7 8", "0 2 3 4 1 5 6 8 7")]
    #[case("1 2 3 4 5 6 7 8 0", "2 1 3 4 5 6 7 8 0")]
    #[case("3 0 1 2", "3 0 2 1")]
    fn twin_swaps_first_two_or_last_two(#[case] tiles: &str, #[case] expected: &str) {
        let parse = |s: &str| {
            let t: Vec<i64> = s.split(' ').map(|x| x.parse().unwrap()).collect();
            let n = (t.len() as f64).sqrt() as usize;
            Board::from_row_major(n, &t).unwrap()
        };
        let (twin, expected) = (parse(tiles).twin(), parse(expected));
        assert_eq!(twin, expected);
        assert_eq!((twin.hamming(), twin.manhattan()), (expected.hamming(), expected.manhattan()));
    }

    #[test]
    fn incremental_distances_match_recomputation_on_large_boards() {
        let goal = Board::goal(20).unwrap();
        let mut b = goal.clone();
        for step in 0..50 {
            let ns = b.neighbors();
            b = ns[step % ns.len()].clone();
            let fresh = Board::from_row_major(20, &b.tiles().map(|t| t as i64).collect::<Vec<_>>()).unwrap();
            assert_eq!((b.hamming(), b.manhattan()), (fresh.hamming(), fresh.manhattan()));
        }
        assert_eq!(goal.tile_at(19, 19), 0);
        assert_eq!(goal.tile_at(19, 18), 399);
    }

    #[rstest]
    #[case(vec![vec![0]], BoardError::DimensionOutOfRange(1))]
    #[case(vec![vec![1, 0], vec![2]], BoardError::NotSquare { row: 1, len: 1, expected: 2 })]
    #[case(vec![vec![1, 0], vec![2, 4]], BoardError::TileOutOfRange { value: 4, row: 1, col: 1, max: 3 })]
    #[case(vec![vec![1, 0], vec![1, 2]], BoardError::DuplicateTile { value: 1, row: 1, col: 0 })]
    fn invalid_grids_are_rejected_with_a_reason(#[case] rows: Vec<Vec<u32>>, #[case] error: BoardError) {
        assert_eq!(Board::new(&rows).unwrap_err(), error);
    }

    #[test]
    fn errors_read_as_sentences() {
        let e = Board::from_row_major(3, &[1, 2, 3, 4, 5, 6, 7, 8, -1]).unwrap_err();
        assert_eq!(e.to_string(), "tile -1 at row 2, column 2 is out of range: tiles must be 0..=8");
        assert!(Board::new::<Vec<u32>>(&[]).is_err());
        assert!(Board::goal(128).is_err());
    }
}
