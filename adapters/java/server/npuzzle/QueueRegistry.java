package npuzzle;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The live instrumented MinPQs. Java has no destructor, so a queue "ends" when the solve that used it
 * ends: the server brackets every Solver constructor with {@link #beginSolve()} / {@link #endSolve()}, and
 * at the end each queue created or used during the solve reports its size (pq_ending_size) and gets a last
 * heap-order check. Queues are held weakly, except those created during a solve, which are held strongly
 * until it ends (so a queue the solver dropped before returning is not lost to the garbage collector).
 */
public final class QueueRegistry {
    private QueueRegistry() {}

    /**
     * What the registry needs from a queue; edu.princeton.cs.algs4.MinPQ extends it. A class, not an
     * interface, so the hooks need not be public: MinPQ implements them protected and final, out of reach
     * of a student's subclass.
     */
    public abstract static class Tracked {
        /** Inserts and delMins so far. */
        protected abstract long npuzzleOperations();

        /** Items in the queue now. */
        protected abstract int npuzzleSize();

        /** Re-checks heap order, counting a violation once per queue, without charging board counts. */
        protected abstract void npuzzleCheckHeapOrder();
    }

    private static final class Entry {
        final WeakReference<Tracked> queue;
        long operationsSeen = -1;

        Entry(Tracked queue) {
            this.queue = new WeakReference<>(queue);
        }
    }

    private static final ArrayList<Entry> entries = new ArrayList<>();
    private static final ArrayList<Tracked> createdDuringSolve = new ArrayList<>();
    private static ArrayList<Tracked> endedInLastSolve = new ArrayList<>();
    /**
     * The Solver the most recent solve built (weakly held; null if its constructor threw). The queues' deep
     * size stops at it: a non-static inner search node (its outer instance) or a comparator that captures the
     * Solver reaches it, but a queue does not own the Solver's other fields.
     */
    private static WeakReference<Object> solverOfLastSolve = new WeakReference<>(null);
    private static boolean solving;
    private static int registrationsSincePrune;

    public static void register(Tracked queue) {
        entries.add(new Entry(queue));
        if (solving) {
            createdDuringSolve.add(queue);
        } else if (++registrationsSincePrune >= 4096) {
            registrationsSincePrune = 0;
            entries.removeIf(e -> e.queue.get() == null);
        }
    }

    /** A Solver constructor is about to run. Forgets the queues of the previous solve. */
    static void beginSolve() {
        reset();
        solving = true;
    }

    /**
     * The Solver constructor returned {@code solver} or threw (null): every queue used since the last end
     * ends now.
     */
    static void endSolve(Object solver) {
        solving = false;
        solverOfLastSolve = new WeakReference<>(solver);
        ArrayList<Tracked> ended = new ArrayList<>();
        for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
            Entry e = it.next();
            Tracked q = e.queue.get();
            if (q == null) {
                it.remove();
                continue;
            }
            long ops = q.npuzzleOperations();
            if (ops != e.operationsSeen) {
                e.operationsSeen = ops;
                ended.add(q);
            }
        }
        createdDuringSolve.clear();
        for (Tracked q : ended) {
            Counters.pqEndingSize += q.npuzzleSize();
            q.npuzzleCheckHeapOrder();
        }
        endedInLastSolve = ended;
    }

    /** The queues that ended in the most recent solve (for their deep size); the registry lets go of them. */
    static List<Tracked> takeEnded() {
        List<Tracked> ended = endedInLastSolve;
        endedInLastSolve = new ArrayList<>();
        return ended;
    }

    /** The Solver of the most recent solve, where the walk over its queues stops (null if none). */
    static Object solverOfLastSolve() {
        return solverOfLastSolve.get();
    }

    /** counters_reset: forget the queues and the Solver of the last solve. */
    static void reset() {
        endedInLastSolve = new ArrayList<>();
        solverOfLastSolve = new WeakReference<>(null);
    }
}
