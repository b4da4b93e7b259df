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
 *
 * Why the calls wait in a batch: a large search's table (16 MB for 500,000 boards) is far larger than the
 * caches, so a board put in it at its neighbors() call costs a cache miss (about a tenth of a microsecond,
 * millions of times a grade), in the middle of the student's search. Noted in a small array instead and put
 * in the table {@link #BATCH} at a time, in the order of their slots (a slot is chosen by the hash's top bits,
 * so that order is the same whatever the table's size), the misses overlap and walk the table forwards. The
 * counts depend only on which boards were noted and how, never on when they reach the table: they are read
 * after the batch is put in ({@link #distinct()}, {@link #expanded()}).
 */
final class Expanded {
    /** Tables up to this many slots are kept (and zeroed) at a reset; larger ones are let go. */
    private static final int KEPT_SLOTS = 1 << 12;
    /** The calls noted before they are put in the table (128 KiB, and as much again to order them: both stay in
     *  the second-level cache). */
    static final int BATCH = 1 << 14;
    /** A batch is put in the table by the top bits of its slots: 256 runs, each into its part of the table. */
    private static final int RUN_BITS = 8;
    private static final long MIX = 0x9E3779B97F4A7C15L;

    /** neighbors() calls since the last delMin(): only the first of an interval is an expansion. */
    private long callsInInterval;
    private long[] slots = new long[64];
    private int size;
    private final long[] noted = new long[BATCH];
    private final long[] ordered = new long[BATCH];
    private final byte[] runOf = new byte[BATCH];
    private final int[] runs = new int[(1 << RUN_BITS) + 1];
    private int notedCount;

    /** Distinct boards neighbors() was called on, and of those, boards expanded (of the batches put in). */
    private long distinct;
    private long expanded;

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
        // Never an index out of range, even if two threads count at once (Counters lets the request thread
        // count without its lock until another thread first counts: for that moment both may be here).
        int at = notedCount;
        if (at < 0 || at >= BATCH) at = 0;
        noted[at] = tagged | (callsInInterval == 1 ? 1 : 0);
        notedCount = at + 1;
        if (at + 1 == BATCH) putNoted();
    }

    /** Distinct boards neighbors() was called on. */
    long distinct() {
        putNoted();
        return distinct;
    }

    /** Distinct boards expanded. */
    long expanded() {
        putNoted();
        return expanded;
    }

    /** Puts the noted calls in the table, ordered by the top bits of their slots (a counting sort). */
    private void putNoted() {
        int count = Math.min(Math.max(notedCount, 0), BATCH);
        if (count == 0) return;
        notedCount = 0;
        java.util.Arrays.fill(runs, 0);
        for (int i = 0; i < count; i++) {
            int r = run(noted[i]);
            runOf[i] = (byte) r;
            runs[r + 1]++;
        }
        for (int r = 0; r < (1 << RUN_BITS); r++) runs[r + 1] += runs[r];
        for (int i = 0; i < count; i++) {
            int to = runs[runOf[i] & 0xff]++;
            // in bounds unless another thread is putting a batch in at once (see rootNeighbors)
            if (to >= 0 && to < count) ordered[to] = noted[i];
        }
        for (int i = 0; i < count; i++) put(ordered[i]);
    }

    private static int run(long value) {
        return (int) (((value & ~1L) * MIX) >>> (64 - RUN_BITS));
    }

    private void put(long value) {
        long tagged = value & ~1L;
        long bit = value & 1;
        if (2 * (size + 1) > slots.length) grow();
        long[] table = slots;
        int mask = table.length - 1;
        int at = home(tagged, table.length);
        while (true) {
            long slot = table[at];
            if (slot == 0) {
                table[at] = value;
                size++;
                distinct++;
                expanded += bit;
                return;
            }
            if ((slot & ~1L) == tagged) {
                if (bit == 1 && (slot & 1) == 0) {
                    table[at] = slot | 1;
                    expanded++;
                }
                return;
            }
            at = (at + 1) & mask;
        }
    }

    /** A board's first slot in a table of `length` slots (a power of two): the top bits of its mixed hash. */
    private static int home(long tagged, int length) {
        return (int) ((tagged * MIX) >>> (64 - Integer.numberOfTrailingZeros(length)));
    }

    private void grow() {
        long[] old = slots;
        long[] table = new long[2 * old.length];
        int mask = table.length - 1;
        for (long value : old) {
            if (value == 0) continue;
            int at = home(value & ~1L, table.length);
            while (table[at] != 0) at = (at + 1) & mask;
            table[at] = value;
        }
        slots = table;
    }

    /** The bytes the table and its batch's arrays hold on the heap (headers and elements), which the second
     *  reading of a Solver's memory leaves out ({@link KeptAnywhere}): the grader's, the table growing with the
     *  search it counts. */
    long footprintBytes() {
        return 16 + 8L * slots.length + 2 * (16 + 8L * BATCH) + (16 + BATCH) + (16 + 4L * runs.length);
    }

    /** Forgets every board (the counters were reset). */
    void clear() {
        callsInInterval = 0;
        distinct = 0;
        expanded = 0;
        notedCount = 0;
        if (slots.length > KEPT_SLOTS) {
            slots = new long[64];
        } else if (size > 0) {
            java.util.Arrays.fill(slots, 0);
        }
        size = 0;
    }
}
