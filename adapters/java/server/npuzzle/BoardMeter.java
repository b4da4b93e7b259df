package npuzzle;

import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * What the reference Board (default package, a module of its own) counts through. The Board cannot name
 * this module's packages, which are not exported to it, so it holds the meter as four JDK interfaces:
 * {@code accept(EVENT)} counts one event, {@code getAsLong()} hands out a lineage id, {@code getAsBoolean()}
 * says whether the board being built from tiles is the grader's (a root: the Board marks roots and their
 * descendants with negative ids), and {@code accept(HASH)} reports that a root's neighbors() was just called
 * (for board_expanded, {@link Expanded}). None can lower a count or reset one: a student who reached the
 * Board's private fields (with no security manager to stop reflection) could only add operations, as any
 * caller does.
 *
 * The Board takes its meter once, in its static initializer, from the system properties under
 * {@link #HANDOFF}, where {@link #handTo(Class)} leaves it just before initializing the class and checks that
 * it was taken; no student class has been loaded at that point.
 */
final class BoardMeter implements IntConsumer, LongSupplier, BooleanSupplier, LongConsumer {
    /** The system property that carries the meter to the Board's static initializer. */
    static final String HANDOFF = "npuzzle.boardMeter";

    // The events, as the reference Board numbers them (adapters/java/reference/Board.java).
    static final int CONSTRUCTED = 0;
    static final int TO_STRING = 1;
    static final int DIMENSION = 2;
    static final int HAMMING = 3;
    static final int MANHATTAN = 4;
    static final int IS_GOAL = 5;
    static final int EQUALS = 6;
    static final int EQUALS_NON_BOARD = 7;
    static final int EQUALS_NOT_GRAND_NEIGHBOR = 8;
    static final int NEIGHBORS = 9;
    static final int TWIN = 10;

    private BoardMeter() {}

    @Override
    public void accept(int event) {
        Counters.board(event);
    }

    @Override
    public long getAsLong() {
        return Counters.nextBoardId();
    }

    @Override
    public boolean getAsBoolean() {
        return Counters.buildsRoot();
    }

    @Override
    public void accept(long tilesHash) {
        Counters.rootNeighbors(tilesHash);
    }

    /** Initializes the reference Board class with a meter; fails if its initializer did not take it. */
    static void handTo(Class<?> board) throws ClassNotFoundException {
        System.getProperties().put(HANDOFF, new BoardMeter());
        try {
            Class.forName(board.getName(), true, board.getClassLoader());
        } finally {
            if (System.getProperties().remove(HANDOFF) != null) {
                throw new IllegalStateException("the reference Board did not take its meter");
            }
        }
    }
}
