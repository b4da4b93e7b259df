package npuzzle;

/**
 * The boards a search expanded, for the counters board_expanded and board_neighbors_distinct
 * (specs/protocol.md; the rule they serve: specs/search-bound.md). Both count distinct boards, by their
 * tiles, of the boards descended from one the grader built (the reference Board marks those:
 * {@link BoardMeter}), on which neighbors() was called: board_neighbors_distinct any call, board_expanded only
 * the first neighbors() call since the last delMin() (or since the counters were reset), the expansions of a
 * search on the MinPQ, each after the delMin() that removed its board.
 *
 * Each board is kept as the 64-bit hash of its tiles the reference Board computes, its low bit replaced by
 * whether the board counted as expanded, in an open-addressing table of primitive longs (no boxing; at most
 * half full; a hash of 0 or 1 is kept as 2, so 0 marks a free slot). Two boards whose hashes collide count
 * once, which can only lower the counts (by about B^2 / 2^63 boards for B boards: never in practice). Guarded
 * by {@link Counters}' rules: called on the request thread alone, or under its lock.
 */
final class Expanded {
    /** Tables up to this many slots are kept (and zeroed) at a reset; larger ones are let go. */
    private static final int KEPT_SLOTS = 1 << 12;

    /** neighbors() calls since the last delMin(): only the first of an interval is an expansion. */
    private long callsInInterval;
    private long[] slots = new long[64];
    private int size;

    /** Distinct boards neighbors() was called on, and of those, boards expanded. */
    long distinct;
    long expanded;

    /** A delMin(): a new interval starts. */
    void intervalEnds() {
        callsInInterval = 0;
    }

    /** One neighbors() call, on any reference board. */
    void neighborsCalled() {
        callsInInterval++;
    }

    /** The board of the neighbors() call just counted descends from the grader's, with tiles hashed to `hash`. */
    void rootNeighbors(long hash) {
        long tagged = hash & ~1L;
        if (tagged == 0) tagged = 2;
        long bit = callsInInterval == 1 ? 1 : 0;
        if (2 * (size + 1) > slots.length) grow();
        int mask = slots.length - 1;
        int at = (int) ((tagged * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        while (true) {
            long slot = slots[at];
            if (slot == 0) {
                slots[at] = tagged | bit;
                size++;
                distinct++;
                expanded += bit;
                return;
            }
            if ((slot & ~1L) == tagged) {
                if (bit == 1 && (slot & 1) == 0) {
                    slots[at] = slot | 1;
                    expanded++;
                }
                return;
            }
            at = (at + 1) & mask;
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[2 * old.length];
        int mask = slots.length - 1;
        for (long value : old) {
            if (value == 0) continue;
            int at = (int) (((value & ~1L) * 0x9E3779B97F4A7C15L) >>> 32) & mask;
            while (slots[at] != 0) at = (at + 1) & mask;
            slots[at] = value;
        }
    }

    /** The bytes the table holds on the heap (a long[]: its header and slots), which the second reading of a
     *  Solver's memory leaves out ({@link KeptAnywhere}): the grader's, growing with the search it counts. */
    long footprintBytes() {
        return 16 + 8L * slots.length;
    }

    /** Forgets every board (the counters were reset). */
    void clear() {
        callsInInterval = 0;
        distinct = 0;
        expanded = 0;
        if (slots.length > KEPT_SLOTS) {
            slots = new long[64];
        } else if (size > 0) {
            java.util.Arrays.fill(slots, 0);
        }
        size = 0;
    }
}
