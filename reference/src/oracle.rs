//! An independent oracle: the parity rule for solvability and exact distances for every 2-by-2 and 3-by-3
//! board.
//!
//! The tables come from one breadth-first search over the whole state space from the goal, on raw tile
//! arrays and permutation ranks — no code shared with [`Solver`](crate::Solver) or `Board::neighbors` — so
//! the solver can be checked against something that cannot share its bugs.

use std::sync::OnceLock;

use crate::Board;

/// Whether a board is solvable, by the parity rule: count inversions among the non-blank tiles in row-major
/// order; for odd n the board is solvable iff the count is even, for even n iff count + blank row is odd.
///
/// ```
/// use reference::{oracle, Board};
/// let unsolvable = Board::new(&[vec![1, 2, 3], vec![4, 5, 6], vec![8, 7, 0]]).unwrap();
/// assert!(!oracle::is_solvable(&unsolvable));
/// assert!(oracle::is_solvable(&Board::goal(4).unwrap()));
/// ```
pub fn is_solvable(board: &Board) -> bool {
    let n = board.dimension();
    let odd = odd_inversions(board);
    let blank_row = board.blank().0;
    if n % 2 == 1 {
        !odd
    } else {
        odd == blank_row.is_multiple_of(2)
    }
}

/// Whether the non-blank tiles, read row-major, hold an odd number of inversions, found in O(n²) from the
/// permutation's cycles (the grader asks this of hundreds of 127-by-127 boards per run).
///
/// Read the blank as the largest value: the whole sequence then has the non-blank inversions plus one per
/// cell after the blank, and a permutation of m cells has the parity of m minus its number of cycles.
fn odd_inversions(board: &Board) -> bool {
    odd_inversions_of_tiles(board.tiles())
}

/// [`odd_inversions`] for tiles of any board shape, given row-major (0 for the blank): shared with the
/// toolkit's rectangular boards, whose tiles are not a [`Board`].
pub(crate) fn odd_inversions_of_tiles(tiles: impl ExactSizeIterator<Item = usize>) -> bool {
    let cells = tiles.len();
    let last = cells - 1;
    let mut blank = last;
    let target: Vec<usize> = tiles
        .enumerate()
        .map(|(cell, t)| {
            if t == 0 {
                blank = cell;
                last
            } else {
                t - 1
            }
        })
        .collect();
    let mut visited = vec![false; cells];
    let mut cycles = 0;
    for start in 0..cells {
        if visited[start] {
            continue;
        }
        cycles += 1;
        let mut at = start;
        while !std::mem::replace(&mut visited[at], true) {
            at = target[at];
        }
    }
    let after_blank = last - blank;
    ((cells - cycles) % 2 == 1) != (after_blank % 2 == 1)
}

/// Exact distances to the goal for every board of one small dimension (2 or 3).
pub struct DistanceTable {
    n: usize,
    /// Distance by permutation rank; `UNREACHABLE` for the unsolvable half.
    distance: Vec<u8>,
    /// The ranks at each distance, in rank order: built on first use, so sampling a board k moves away is
    /// one lookup instead of a walk over the whole table.
    layers: OnceLock<Vec<Vec<u32>>>,
}

const UNREACHABLE: u8 = u8::MAX;

impl DistanceTable {
    /// The table for 2-by-2 boards (built once, on first use).
    pub fn two_by_two() -> &'static DistanceTable {
        static TABLE: OnceLock<DistanceTable> = OnceLock::new();
        TABLE.get_or_init(|| DistanceTable::build(2))
    }

    /// The table for 3-by-3 boards (built once, on first use; 181,440 reachable states).
    pub fn three_by_three() -> &'static DistanceTable {
        static TABLE: OnceLock<DistanceTable> = OnceLock::new();
        TABLE.get_or_init(|| DistanceTable::build(3))
    }

    /// The table for `n`, if the oracle has one (n = 2 or 3).
    pub fn for_dimension(n: usize) -> Option<&'static DistanceTable> {
        match n {
            2 => Some(DistanceTable::two_by_two()),
            3 => Some(DistanceTable::three_by_three()),
            _ => None,
        }
    }

    fn build(n: usize) -> DistanceTable {
        // States are fixed arrays with their blank's position: the 3-by-3 breadth-first search visits
        // 181,440 of them, and allocating each one cost more than the search.
        let cells = n * n;
        let mut distance = vec![UNREACHABLE; factorial(cells)];
        let mut goal = [0u8; 9];
        for (i, tile) in goal.iter_mut().take(cells - 1).enumerate() {
            *tile = i as u8 + 1;
        }
        distance[rank(&goal[..cells])] = 0;
        let mut frontier = vec![(goal, cells - 1)];
        let mut depth = 0u8;
        while !frontier.is_empty() {
            depth += 1;
            let mut next = Vec::with_capacity(frontier.len() * 2);
            for &(state, blank) in &frontier {
                for to in adjacent(n, blank) {
                    let mut s = state;
                    s.swap(blank, to);
                    let r = rank(&s[..cells]);
                    if distance[r] == UNREACHABLE {
                        distance[r] = depth;
                        next.push((s, to));
                    }
                }
            }
            frontier = next;
        }
        DistanceTable { n, distance, layers: OnceLock::new() }
    }

    /// The dimension this table covers.
    pub fn dimension(&self) -> usize {
        self.n
    }

    /// The exact number of moves from `board` to the goal, or `None` if unsolvable or of another size.
    pub fn distance(&self, board: &Board) -> Option<u32> {
        if board.dimension() != self.n {
            return None;
        }
        let tiles: Vec<u8> = board.tiles().map(|t| t as u8).collect();
        match self.distance[rank(&tiles)] {
            UNREACHABLE => None,
            d => Some(u32::from(d)),
        }
    }

    /// The largest distance in the table (the puzzle's diameter: 6 for 2-by-2, 31 for 3-by-3).
    pub fn diameter(&self) -> u32 {
        self.distance.iter().filter(|&&d| d != UNREACHABLE).map(|&d| u32::from(d)).max().unwrap_or(0)
    }

    /// Every board exactly `k` moves from the goal, in rank order (deterministic).
    pub fn layer(&self, k: u32) -> impl Iterator<Item = Board> + '_ {
        self.ranks_at(k).iter().map(move |&r| self.board_of_rank(r as usize))
    }

    /// How many boards are exactly `k` moves from the goal.
    pub fn layer_size(&self, k: u32) -> usize {
        self.ranks_at(k).len()
    }

    /// The `index`-th board (in rank order) exactly `k` moves from the goal.
    pub fn layer_board(&self, k: u32, index: usize) -> Option<Board> {
        self.ranks_at(k).get(index).map(|&r| self.board_of_rank(r as usize))
    }

    fn ranks_at(&self, k: u32) -> &[u32] {
        let layers = self.layers.get_or_init(|| {
            let mut layers = vec![Vec::new(); self.diameter() as usize + 1];
            for (r, &d) in self.distance.iter().enumerate() {
                if d != UNREACHABLE {
                    layers[usize::from(d)].push(r as u32);
                }
            }
            layers
        });
        layers.get(k as usize).map_or(&[], Vec::as_slice)
    }

    fn board_of_rank(&self, r: usize) -> Board {
        Board::from_row_major(self.n, &unrank(r, self.n * self.n))
            .expect("a permutation rank always gives a valid board")
    }
}

fn adjacent(n: usize, at: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (at / n, at % n);
    [(r + 1 < n).then(|| at + n), (c + 1 < n).then(|| at + 1), (c > 0).then(|| at - 1), (r > 0).then(|| at - n)]
        .into_iter()
        .flatten()
}

fn factorial(k: usize) -> usize {
    (1..=k).product()
}

/// Lehmer-code rank of a permutation of 0..len.
fn rank(perm: &[u8]) -> usize {
    let mut r = 0;
    for (i, &p) in perm.iter().enumerate() {
        let smaller_after = perm[i + 1..].iter().filter(|&&q| q < p).count();
        r = r * (perm.len() - i) + smaller_after;
    }
    r
}

fn unrank(mut r: usize, len: usize) -> Vec<u8> {
    let mut digits = vec![0usize; len];
    for i in (0..len).rev() {
        let base = len - i;
        digits[i] = r % base;
        r /= base;
    }
    let mut pool: Vec<u8> = (0..len as u8).collect();
    digits.into_iter().map(|d| pool.remove(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_known_sizes_and_diameters() {
        let t3 = DistanceTable::three_by_three();
        assert_eq!(t3.distance.iter().filter(|&&d| d != UNREACHABLE).count(), 181_440);
        assert_eq!(t3.diameter(), 31);
        assert_eq!(t3.layer_size(31), 2);
        let t2 = DistanceTable::two_by_two();
        assert_eq!(t2.distance.iter().filter(|&&d| d != UNREACHABLE).count(), 12);
        assert_eq!(t2.diameter(), 6);
    }

    #[test]
    fn rank_and_unrank_are_inverse() {
        for r in [0, 1, 4321, 362_879] {
            assert_eq!(rank(&unrank(r, 9)), r);
        }
    }

    #[test]
    fn parity_agrees_with_the_table_on_every_3x3_board() {
        let t3 = DistanceTable::three_by_three();
        for r in 0..factorial(9) {
            let board = Board::from_row_major(3, &unrank(r, 9)).unwrap();
            assert_eq!(is_solvable(&board), t3.distance(&board).is_some(), "{board:?}");
        }
    }

    #[test]
    fn parity_agrees_with_the_table_on_every_2x2_board() {
        let t2 = DistanceTable::two_by_two();
        for r in 0..24 {
            let board = Board::from_row_major(2, &unrank(r, 4)).unwrap();
            assert_eq!(is_solvable(&board), t2.distance(&board).is_some(), "{board:?}");
        }
    }

    /// Inversions among non-blank tiles, counted one pair at a time: the definition, to check the cycle count.
    fn count_inversions(board: &Board) -> usize {
        let tiles: Vec<usize> = board.tiles().filter(|&t| t != 0).collect();
        (0..tiles.len()).map(|i| tiles[i + 1..].iter().filter(|&&later| later < tiles[i]).count()).sum()
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn cycle_parity_is_inversion_parity(
            (n, tiles) in (2usize..=24).prop_flat_map(|n| (Just(n), Just((0..(n * n) as i64).collect::<Vec<_>>()).prop_shuffle()))
        ) {
            let board = Board::from_row_major(n, &tiles).unwrap();
            prop_assert_eq!(odd_inversions(&board), count_inversions(&board) % 2 == 1);
        }
    }

    #[test]
    fn worked_example_is_solvable_in_known_moves() {
        let b = Board::new(&[vec![0, 1, 3], vec![4, 2, 5], vec![7, 8, 6]]).unwrap();
        assert_eq!(DistanceTable::three_by_three().distance(&b), Some(4));
    }
}
