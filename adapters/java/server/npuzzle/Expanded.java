package npuzzle;

/**
 * The boards a search expanded, for the counter board_expanded (specs/protocol.md; the rule it serves:
 * specs/search-bound.md): the distinct boards, by their tiles, that neighbors() was called on as the first
 * neighbors() call since the last delMin() (or since the counters were reset), of the boards descended from
 * one the grader built (the reference Board marks those: {@link BoardMeter}).
 *
 * Each board is kept as the 64-bit hash of its tiles the reference Board computes, in an open-addressing
 * table of primitive longs (no boxing; at most half full). Two boards whose hashes collide count once, which
 * can only lower the count (by about B^2 / 2^64 boards for B expansions: never in practice). Guarded by
 * {@link Counters}' rules: called on the request thread alone, or under its lock.
 */
final class Expanded {
    /** Tables up to this many slots are kept (and zeroed) at a reset; larger ones are let go. */
    private static final int KEPT_SLOTS = 1 << 12;

    /** neighbors() calls since the last delMin(): only the first of an interval can count. */
    private long callsInInterval;
    private long[] slots = new long[64];
    private int size;

    /** A delMin(): a new interval starts. */
    void intervalEnds() {
        callsInInterval = 0;
    }

    /** One neighbors() call, on any reference board. */
    void neighborsCalled() {
        callsInInterval++;
    }

    /**
     * The board of the neighbors() call just counted descends from the grader's, with tiles hashed to
     * `hash`: whether it adds an expansion (the interval's first call, a board not counted before).
     */
    boolean rootExpanded(long hash) {
        return callsInInterval == 1 && add(hash == 0 ? 1 : hash);
    }

    private boolean add(long key) {
        if (2 * (size + 1) > slots.length) grow();
        int mask = slots.length - 1;
        int at = (int) ((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
        while (true) {
            long slot = slots[at];
            if (slot == key) return false;
            if (slot == 0) {
                slots[at] = key;
                size++;
                return true;
            }
            at = (at + 1) & mask;
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[2 * old.length];
        size = 0;
        for (long key : old) {
            if (key != 0) add(key);
        }
    }

    /** Forgets every board (the counters were reset). */
    void clear() {
        callsInInterval = 0;
        if (slots.length > KEPT_SLOTS) {
            slots = new long[64];
        } else if (size > 0) {
            java.util.Arrays.fill(slots, 0);
        }
        size = 0;
    }
}
