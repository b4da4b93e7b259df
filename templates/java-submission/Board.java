// Your Board: an immutable n-by-n sliding-puzzle position (2 <= n < 128, tiles 0..n*n-1, 0 = blank).
// Fill in every method; the grader tests them one by one, then runs your Solver over its own Board.

public class Board {

    // create a board from an n-by-n array of tiles,
    // where tiles[row][col] = tile at (row, col)
    public Board(int[][] tiles) {
        throw new UnsupportedOperationException("Board(int[][]): keep a copy of the tiles");
    }

    // string representation of this board: n on the first line, then each row
    public String toString() {
        throw new UnsupportedOperationException("toString(): n, then each row with every tile as %2d and a space");
    }

    // board dimension n
    public int dimension() {
        throw new UnsupportedOperationException("dimension()");
    }

    // number of tiles out of place
    public int hamming() {
        throw new UnsupportedOperationException("hamming(): tiles out of place, not counting the blank");
    }

    // sum of Manhattan distances between tiles and goal
    public int manhattan() {
        throw new UnsupportedOperationException("manhattan(): each tile's rows and columns from its goal");
    }

    // is this board the goal board?
    public boolean isGoal() {
        throw new UnsupportedOperationException("isGoal()");
    }

    // does this board equal y?
    public boolean equals(Object y) {
        throw new UnsupportedOperationException("equals(): false for null and for anything not a Board");
    }

    // all neighboring boards
    public Iterable<Board> neighbors() {
        throw new UnsupportedOperationException("neighbors(): every board one slide of the blank away");
    }

    // a board that is obtained by exchanging any pair of tiles
    public Board twin() {
        throw new UnsupportedOperationException("twin(): one pair of non-blank tiles exchanged, always the same pair");
    }

    // unit testing (not graded)
    public static void main(String[] args) {
    }
}
