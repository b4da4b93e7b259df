package npuzzle;

/**
 * Operation counts shared by the instrumented MinPQ (package edu.princeton.cs.algs4) and the reference
 * Board (default package, loaded by the REF class loader). This class is loaded once, by the parent
 * (application) class loader, so every world reports into the same fields.
 *
 * The server runs every request on one thread, so plain static fields suffice; they are public only because
 * classes in other packages and other class loaders update them.
 */
public final class Counters {
    private Counters() {}

    // MinPQ
    public static long pqInserts;
    public static long pqDelMins;
    /** The most items held by all MinPQs together (summed over queues, as the official grader reports it). */
    public static long pqMaxSize;
    /** Items held by all MinPQs together now: inserts minus delMins since the last reset. */
    public static long pqLiveSize;
    public static long pqEndingSize;
    public static long pqDeepBytes;
    public static long pqHeapViolations;

    // reference Board
    public static long boardConstructed;
    public static long boardEquals;
    public static long boardEqualsNonBoard;
    public static long boardEqualsNotGrandNeighbor;
    public static long boardManhattan;
    public static long boardHamming;
    public static long boardToString;
    public static long boardNeighbors;
    public static long boardTwin;
    public static long boardIsGoal;
    public static long boardDimension;

    private static long nextBoardId = 1;

    /** A fresh lineage id for a reference board (never 0, which means "no parent"). */
    public static long nextBoardId() {
        return nextBoardId++;
    }

    public static void pqInserted(int sizeAfter) {
        pqInserts++;
        pqLiveSize++;
        if (pqLiveSize > pqMaxSize) pqMaxSize = pqLiveSize;
    }

    /** A MinPQ built from an array starts with its items. */
    public static void pqBuiltWith(int items) {
        pqLiveSize += items;
        if (pqLiveSize > pqMaxSize) pqMaxSize = pqLiveSize;
    }

    public static void pqDeletedMin() {
        pqDelMins++;
        if (pqLiveSize > 0) pqLiveSize--;
    }

    /** Zeroes every counter. */
    public static void reset() {
        pqInserts = pqDelMins = pqMaxSize = pqLiveSize = pqEndingSize = pqDeepBytes = pqHeapViolations = 0;
        boardConstructed = boardEquals = boardEqualsNonBoard = boardEqualsNotGrandNeighbor = 0;
        boardManhattan = boardHamming = boardToString = boardNeighbors = boardTwin = boardIsGoal = 0;
        boardDimension = 0;
    }

    /**
     * Saves the board counters, so work done on the adapter's behalf (a heap-order check calls the
     * student's compareTo, which may call manhattan()) is not charged to the student. Pair with
     * {@link #restoreBoardCounts(long[])}.
     */
    public static long[] saveBoardCounts() {
        return new long[] {
            boardConstructed, boardEquals, boardEqualsNonBoard, boardEqualsNotGrandNeighbor, boardManhattan,
            boardHamming, boardToString, boardNeighbors, boardTwin, boardIsGoal, boardDimension
        };
    }

    public static void restoreBoardCounts(long[] s) {
        boardConstructed = s[0];
        boardEquals = s[1];
        boardEqualsNonBoard = s[2];
        boardEqualsNotGrandNeighbor = s[3];
        boardManhattan = s[4];
        boardHamming = s[5];
        boardToString = s[6];
        boardNeighbors = s[7];
        boardTwin = s[8];
        boardIsGoal = s[9];
        boardDimension = s[10];
    }

    /** The `counters` reply values, in the protocol's order. */
    static String encode(long peakBytes) {
        StringBuilder sb = new StringBuilder(400);
        pair(sb, "pq_inserts", pqInserts);
        pair(sb, "pq_del_mins", pqDelMins);
        pair(sb, "pq_max_size", pqMaxSize);
        pair(sb, "pq_ending_size", pqEndingSize);
        pair(sb, "pq_deep_bytes", pqDeepBytes);
        pair(sb, "pq_heap_violations", pqHeapViolations);
        pair(sb, "board_constructed", boardConstructed);
        pair(sb, "board_equals", boardEquals);
        pair(sb, "board_equals_non_board", boardEqualsNonBoard);
        pair(sb, "board_equals_not_grand_neighbor", boardEqualsNotGrandNeighbor);
        pair(sb, "board_manhattan", boardManhattan);
        pair(sb, "board_hamming", boardHamming);
        pair(sb, "board_to_string", boardToString);
        pair(sb, "board_neighbors", boardNeighbors);
        pair(sb, "board_twin", boardTwin);
        pair(sb, "board_is_goal", boardIsGoal);
        pair(sb, "board_dimension", boardDimension);
        pair(sb, "peak_bytes", peakBytes);
        return sb.toString();
    }

    private static void pair(StringBuilder sb, String name, long value) {
        if (sb.length() > 0) sb.append(' ');
        sb.append(name).append('=').append(value);
    }
}
