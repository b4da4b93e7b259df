//! Admissible lower bounds towards any goal, kept incrementally along a search path.
//!
//! A heuristic hands out a small `Copy` memo per position; IDA* keeps one per recursion level and asks for
//! the child's memo after each slide instead of recomputing. A* and the breadth-first searches use only
//! [`Heuristic::start`] (or none).
//!
//! [`ManhattanConflict`] works for any shape and goal: Manhattan distance plus linear conflict counted as
//! `2 × (tiles in the line − longest increasing run of goal positions)`, which never overestimates (the
//! "2 per conflicting pair" shortcut does when three tiles are reversed). The 4x4 pattern databases are in
//! [`pdb`](super::pdb).

use super::space::{Space, State, MAX_CELLS};

/// A lower bound on the moves left, updated one slide at a time.
pub trait Heuristic {
    /// What the heuristic remembers about one position.
    type Memo: Copy;
    /// The memo of a position, from scratch.
    fn start(&self, s: &State) -> Self::Memo;
    /// The bound the memo stands for.
    fn value(&self, memo: &Self::Memo) -> u32;
    /// The memo after the blank moved from `from` to `to` (the tile that was in `to` is now in `from`);
    /// `next` is the new position.
    fn after(&self, memo: &Self::Memo, next: &State, from: usize, to: usize) -> Self::Memo;

    /// A hint that [`after`](Heuristic::after) will soon be asked about the blank moving `from` → `to`
    /// out of the position `s`: a heuristic that reads large tables can start loading them (IDA* hints at
    /// every child before descending into the first, so the loads overlap). Does nothing by default.
    #[inline]
    fn prefetch(&self, memo: &Self::Memo, s: &State, from: usize, to: usize) {
        let _ = (memo, s, from, to);
    }
}

/// The zero heuristic: A* with it is uniform-cost search.
#[derive(Debug, Clone, Copy)]
pub struct Zero;

impl Heuristic for Zero {
    type Memo = ();
    fn start(&self, _: &State) {}
    fn value(&self, _: &()) -> u32 {
        0
    }
    fn after(&self, _: &(), _: &State, _: usize, _: usize) {}
}

/// The longest side a [`State`] allows (2x12).
const MAX_SIDE: usize = 12;

/// Manhattan distance plus linear conflict towards the space's goal.
#[derive(Debug, Clone)]
pub struct ManhattanConflict {
    rows: usize,
    cols: usize,
    /// Goal row and column of each tile.
    goal_row: [u8; MAX_CELLS],
    goal_col: [u8; MAX_CELLS],
}

/// A row or a column of the board, for the conflict term of each.
#[derive(Debug, Clone, Copy)]
enum Line {
    Row,
    Column,
}

/// The memo: Manhattan distance and each line's conflict term.
#[derive(Debug, Clone, Copy)]
pub struct ConflictMemo {
    manhattan: u16,
    conflict: u16,
    row_conflict: [u8; MAX_SIDE],
    col_conflict: [u8; MAX_SIDE],
}

impl ManhattanConflict {
    /// The heuristic towards `space`'s goal.
    pub fn new(space: &Space) -> ManhattanConflict {
        let shape = space.shape();
        let mut goal_row = [0u8; MAX_CELLS];
        let mut goal_col = [0u8; MAX_CELLS];
        for t in 1..shape.cells() {
            let cell = space.goal_cell(t as u8);
            goal_row[t] = (cell / shape.cols) as u8;
            goal_col[t] = (cell % shape.cols) as u8;
        }
        ManhattanConflict { rows: shape.rows, cols: shape.cols, goal_row, goal_col }
    }

    #[inline]
    fn distance(&self, tile: u8, cell: usize) -> u32 {
        let t = tile as usize;
        ((cell / self.cols).abs_diff(self.goal_row[t] as usize)
            + (cell % self.cols).abs_diff(self.goal_col[t] as usize)) as u32
    }

    /// The conflict term of row or column `index`: among the tiles standing in it whose goal is in it too,
    /// their goal positions along it, in the order they stand.
    #[inline(always)]
    fn conflict(&self, s: &State, line: Line, index: usize) -> u8 {
        // The line's cells are `first`, `first + step`, …; `home` says which line a tile's goal is in,
        // `along` where in it.
        let (length, first, step, home, along) = match line {
            Line::Row => (self.cols, index * self.cols, 1, &self.goal_row, &self.goal_col),
            Line::Column => (self.rows, index, self.cols, &self.goal_col, &self.goal_row),
        };
        let mut goals = [0u8; MAX_SIDE];
        let mut k = 0;
        for i in 0..length {
            let t = usize::from(s.tile(first + i * step));
            if t != 0 && usize::from(home[t]) == index {
                goals[k] = along[t];
                k += 1;
            }
        }
        conflict_term(&goals[..k])
    }

    /// Counts the conflict terms of two lines of `next` again, in the memo `m` (inlined at each call with its
    /// `line`, so the search's inner loop never asks which kind of line it is in).
    #[inline(always)]
    fn recount(&self, m: &mut ConflictMemo, next: &State, line: Line, [a, b]: [usize; 2]) {
        let terms = match line {
            Line::Row => &mut m.row_conflict,
            Line::Column => &mut m.col_conflict,
        };
        let old = terms[a] + terms[b];
        terms[a] = self.conflict(next, line, a);
        terms[b] = self.conflict(next, line, b);
        m.conflict = m.conflict + u16::from(terms[a] + terms[b]) - u16::from(old);
    }

    /// The Manhattan part alone, for tests.
    #[cfg(test)]
    pub(crate) fn manhattan(&self, s: &State) -> u32 {
        self.start(s).manhattan.into()
    }
}

impl Heuristic for ManhattanConflict {
    type Memo = ConflictMemo;

    fn start(&self, s: &State) -> ConflictMemo {
        let cells = self.rows * self.cols;
        let manhattan = (0..cells).filter(|&c| s.tile(c) != 0).map(|c| self.distance(s.tile(c), c)).sum::<u32>() as u16;
        let mut memo =
            ConflictMemo { manhattan, conflict: 0, row_conflict: [0; MAX_SIDE], col_conflict: [0; MAX_SIDE] };
        for row in 0..self.rows {
            memo.row_conflict[row] = self.conflict(s, Line::Row, row);
        }
        for col in 0..self.cols {
            memo.col_conflict[col] = self.conflict(s, Line::Column, col);
        }
        memo.conflict = memo.row_conflict.iter().chain(&memo.col_conflict).map(|&c| u16::from(c)).sum();
        memo
    }

    #[inline]
    fn value(&self, memo: &ConflictMemo) -> u32 {
        u32::from(memo.manhattan + memo.conflict)
    }

    fn after(&self, memo: &ConflictMemo, next: &State, from: usize, to: usize) -> ConflictMemo {
        // The tile moved from `to` to `from`.
        let tile = next.tile(from);
        let mut m = *memo;
        m.manhattan = (u32::from(m.manhattan) + self.distance(tile, from) - self.distance(tile, to)) as u16;
        // A horizontal slide keeps every row's order, so only the two columns change, and vice versa.
        if from / self.cols == to / self.cols {
            self.recount(&mut m, next, Line::Column, [from % self.cols, to % self.cols]);
        } else {
            self.recount(&mut m, next, Line::Row, [from / self.cols, to / self.cols]);
        }
        m
    }
}

/// `2 × (len − longest increasing subsequence)` of distinct goal coordinates in line order.
fn conflict_term(goals: &[u8]) -> u8 {
    let mut best = [0u8; MAX_SIDE];
    let mut longest = 0;
    for i in 0..goals.len() {
        best[i] = 1 + (0..i).filter(|&j| goals[j] < goals[i]).map(|j| best[j]).max().unwrap_or(0);
        longest = longest.max(best[i]);
    }
    2 * (goals.len() as u8 - longest)
}
