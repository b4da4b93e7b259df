//! The one compact state every toolkit search shares, the space it lives in (shape, goal, moves), and the
//! closed sets keyed by it.
//!
//! A [`State`] packs up to 25 cells at five bits each into a `u128`, with the blank's cell beside it: a
//! `Copy` value of 32 bytes, hashed as one integer. Where the state space is small enough
//! ([`DENSE_CELLS`] cells or fewer, 3.6 million permutations for 10 cells) closed sets are a plain array
//! indexed by the permutation's factorial-base (Lehmer) rank, a perfect hash; beyond that they are hash maps.

use std::collections::HashMap;

use super::grid::{Dir, Grid, GridError, Shape};

/// The most cells a toolkit search takes (5 bits a tile in a `u128`): 5x5, 4x6, 3x8, 2x12 and smaller.
pub const MAX_CELLS: usize = 25;
/// Boards of at most this many cells get closed sets indexed by permutation rank (10! entries at most).
pub const DENSE_CELLS: usize = 10;

/// A board as the searches see it: five bits per cell, cell 0 lowest, plus the blank's cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct State {
    bits: u128,
    blank: u8,
}

impl State {
    /// The tile in `cell` (0 = blank).
    #[inline]
    pub fn tile(&self, cell: usize) -> u8 {
        ((self.bits >> (5 * cell)) & 31) as u8
    }

    /// The blank's cell, row-major from 0.
    #[inline]
    pub fn blank(&self) -> usize {
        self.blank as usize
    }

    /// The state with the blank moved to the adjacent cell `to` (the tile there slides into the blank's cell).
    #[inline]
    pub fn slide(&self, to: usize) -> State {
        let tile = (self.bits >> (5 * to)) & 31;
        let bits = (self.bits & !(31u128 << (5 * to))) | tile << (5 * self.blank as usize);
        State { bits, blank: to as u8 }
    }

    fn from_tiles(tiles: &[u16]) -> State {
        let mut bits = 0u128;
        let mut blank = 0;
        for (cell, &t) in tiles.iter().enumerate() {
            bits |= u128::from(t) << (5 * cell);
            if t == 0 {
                blank = cell as u8;
            }
        }
        State { bits, blank }
    }
}

/// Why a pair of boards cannot be searched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpaceError {
    /// More cells than a [`State`] holds.
    #[error("a {0} board has {cells} cells; the searches take at most {MAX_CELLS}", cells = .0.cells())]
    TooLarge(Shape),
    /// The boards do not pair up.
    #[error(transparent)]
    Grid(#[from] GridError),
}

/// The puzzle a search runs in: a shape, a goal, and each cell's neighbours in the order U, D, L, R.
#[derive(Debug, Clone)]
pub struct Space {
    shape: Shape,
    cells: usize,
    goal: State,
    /// `goal_cell[t]`: the cell tile `t` occupies in the goal.
    goal_cell: [u8; MAX_CELLS],
    /// `step[c][d]`: the cell the blank reaches from `c` moving `Dir::ALL[d]`, or `NONE`.
    step: [[u8; 4]; MAX_CELLS],
}

const NONE: u8 = u8::MAX;

impl Space {
    /// The space of `goal`'s shape, searching towards `goal`.
    pub fn new(goal: &Grid) -> Result<Space, SpaceError> {
        let shape = goal.shape();
        if shape.cells() > MAX_CELLS {
            return Err(SpaceError::TooLarge(shape));
        }
        let mut goal_cell = [0u8; MAX_CELLS];
        for (cell, &t) in goal.tiles().iter().enumerate() {
            goal_cell[t as usize] = cell as u8;
        }
        let mut step = [[NONE; 4]; MAX_CELLS];
        for (cell, around) in step.iter_mut().enumerate().take(shape.cells()) {
            for (d, dir) in Dir::ALL.into_iter().enumerate() {
                around[d] = dir.step(shape, cell).map_or(NONE, |c| c as u8);
            }
        }
        Ok(Space { shape, cells: shape.cells(), goal: State::from_tiles(goal.tiles()), goal_cell, step })
    }

    /// The state of a board of this space's shape.
    pub fn state(&self, board: &Grid) -> Result<State, SpaceError> {
        if board.shape() != self.shape {
            return Err(GridError::ShapeMismatch(board.shape(), self.shape).into());
        }
        Ok(State::from_tiles(board.tiles()))
    }

    /// The board a state stands for.
    pub fn grid(&self, s: &State) -> Grid {
        let tiles: Vec<u16> = (0..self.cells).map(|c| u16::from(s.tile(c))).collect();
        Grid::new(self.shape, &tiles).expect("a state always holds a permutation")
    }

    #[allow(missing_docs)]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Cells on the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    #[allow(missing_docs)]
    pub fn goal(&self) -> State {
        self.goal
    }

    /// Whether `s` is the goal.
    #[inline]
    pub fn is_goal(&self, s: &State) -> bool {
        s.bits == self.goal.bits
    }

    /// The goal cell of tile `t`.
    #[inline]
    pub fn goal_cell(&self, t: u8) -> usize {
        self.goal_cell[t as usize] as usize
    }

    /// Where the blank goes from `cell` moving `dir`, if it stays on the board.
    #[inline]
    pub fn step(&self, cell: usize, dir: Dir) -> Option<usize> {
        match self.step[cell][dir as usize] {
            NONE => None,
            c => Some(c as usize),
        }
    }

    /// The state after the blank moves `dir`, if it stays on the board.
    #[inline]
    pub fn successor(&self, s: &State, dir: Dir) -> Option<State> {
        self.step(s.blank(), dir).map(|to| s.slide(to))
    }

    /// The state after a list of moves; `None` if one leaves the board.
    pub fn walk(&self, s: &State, moves: &[Dir]) -> Option<State> {
        moves.iter().try_fold(*s, |at, &d| self.successor(&at, d))
    }

    /// The factorial-base rank of the permutation: a perfect hash onto 0..cells!.
    pub fn rank(&self, s: &State) -> u64 {
        let mut used = 0u32;
        let mut rank = 0u64;
        for cell in 0..self.cells {
            let t = s.tile(cell) as u32;
            let smaller_used = (used & ((1 << t) - 1)).count_ones();
            rank = rank * (self.cells - cell) as u64 + u64::from(t - smaller_used);
            used |= 1 << t;
        }
        rank
    }
}

/// A closed set: for each state seen, a small value (the searches keep depth and the move that reached it).
pub(crate) enum Marks {
    /// Indexed by permutation rank; 0 means not seen, so values are stored plus one.
    Dense(Vec<u16>),
    /// Keyed by the packed tiles.
    Sparse(HashMap<u128, u16>),
}

impl Marks {
    pub fn new(space: &Space) -> Marks {
        if space.cells <= DENSE_CELLS {
            Marks::Dense(vec![0; (1..=space.cells as u64).product::<u64>() as usize])
        } else {
            Marks::Sparse(HashMap::new())
        }
    }

    #[inline]
    pub fn get(&self, space: &Space, s: &State) -> Option<u16> {
        match self {
            Marks::Dense(v) => v[space.rank(s) as usize].checked_sub(1),
            Marks::Sparse(m) => m.get(&s.bits).copied(),
        }
    }

    #[inline]
    pub fn set(&mut self, space: &Space, s: &State, value: u16) {
        match self {
            Marks::Dense(v) => v[space.rank(s) as usize] = value + 1,
            Marks::Sparse(m) => {
                m.insert(s.bits, value);
            }
        }
    }

    /// Bytes held (the dense array, or the map's buckets: key, value and one control byte each).
    pub fn bytes(&self) -> usize {
        match self {
            Marks::Dense(v) => v.len() * 2,
            Marks::Sparse(m) => m.capacity() * (std::mem::size_of::<(u128, u16)>() + 1),
        }
    }
}

/// A mark: the depth reached at and the move that reached it.
#[inline]
/// A closed-set mark: the depth at which a state was first reached and the move that reached it, packed as
/// `depth << 2 | move` (so depths up to 2^14 − 1 fit).
pub(crate) fn mark(depth: u32, dir: Dir) -> u16 {
    (depth as u16) << 2 | dir as u16
}

#[inline]
pub(crate) fn mark_depth(m: u16) -> u32 {
    u32::from(m >> 2)
}

#[inline]
pub(crate) fn mark_dir(m: u16) -> Dir {
    Dir::ALL[usize::from(m & 3)]
}

/// The moves from the search's root to `s`, read back through the marks.
pub(crate) fn path_to(space: &Space, marks: &Marks, s: &State) -> Vec<Dir> {
    let mut moves = Vec::new();
    let mut at = *s;
    while let Some(m) = marks.get(space, &at) {
        if mark_depth(m) == 0 {
            break;
        }
        let dir = mark_dir(m);
        moves.push(dir);
        at = space.successor(&at, dir.reverse()).expect("a mark's move can be undone");
    }
    moves.reverse();
    moves
}
