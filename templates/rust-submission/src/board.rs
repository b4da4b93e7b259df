//! Your Board: an immutable n-by-n sliding-puzzle position (2 <= n < 128, tiles 0..n*n-1, 0 = blank).

use std::fmt;

use npuzzle::PuzzleBoard;

/// Replace these fields with your own representation.
#[derive(Clone, PartialEq)]
pub struct Board {
    tiles: Vec<Vec<u32>>,
}

impl PuzzleBoard for Board {
    fn from_tiles(tiles: &[Vec<u32>]) -> Self {
        Board { tiles: tiles.to_vec() }
    }

    fn dimension(&self) -> usize {
        self.tiles.len()
    }

    fn hamming(&self) -> u32 {
        todo!("the number of tiles out of place (not counting the blank)")
    }

    fn manhattan(&self) -> u32 {
        todo!("the sum of the tiles' Manhattan distances to their goal positions")
    }

    fn is_goal(&self) -> bool {
        todo!("whether this is the goal board")
    }

    fn neighbors(&self) -> Vec<Self> {
        todo!("every board one slide away")
    }

    fn twin(&self) -> Self {
        todo!("a board with one pair of non-blank tiles exchanged")
    }
}

/// The assignment's toString(): n on the first line, then each row with every tile as `{:2} `.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.tiles.len())?;
        todo!("print the rows")
    }
}
