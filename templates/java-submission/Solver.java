// Your Solver: A* search with the textbook's MinPQ (edu.princeton.cs.algs4.MinPQ).
// `java Solver puzzle04.txt` runs the assignment's test client below.

import edu.princeton.cs.algs4.In;
import edu.princeton.cs.algs4.StdOut;

public class Solver {

    // find a solution to the initial board (using the A* algorithm)
    public Solver(Board initial) {
        if (initial == null) throw new IllegalArgumentException("initial board is null");
        // a MinPQ of search nodes (board, moves, cached priority, predecessor), local to this constructor
        throw new UnsupportedOperationException("Solver(Board): A* on the board and its twin, in lockstep");
    }

    // is the initial board solvable? (see below)
    public boolean isSolvable() {
        throw new UnsupportedOperationException("isSolvable()");
    }

    // min number of moves to solve initial board; -1 if unsolvable
    public int moves() {
        throw new UnsupportedOperationException("moves()");
    }

    // sequence of boards in a shortest solution; null if unsolvable
    public Iterable<Board> solution() {
        throw new UnsupportedOperationException("solution()");
    }

    // test client (see below)
    public static void main(String[] args) {
        // create initial board from file
        In in = new In(args[0]);
        int n = in.readInt();
        int[][] tiles = new int[n][n];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                tiles[i][j] = in.readInt();
        Board initial = new Board(tiles);

        // solve the puzzle
        Solver solver = new Solver(initial);

        // print solution to standard output
        if (!solver.isSolvable())
            StdOut.println("No solution possible");
        else {
            StdOut.println("Minimum number of moves = " + solver.moves());
            for (Board board : solver.solution())
                StdOut.println(board);
        }
    }
}
