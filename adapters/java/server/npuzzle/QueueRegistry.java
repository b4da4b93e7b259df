package npuzzle;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The live instrumented MinPQs. Java has no destructor, so a queue "ends" when the grader reads the counters
 * of the span it was used in: a span starts at `counters_reset` and ends at `counters`, after the grader has
 * asked the Solver everything it asks (its constructor, moves(), isSolvable(), solution()). At the end every
 * queue used during the span, whether the constructor built it or a lazy moves() did, reports its size
 * (pq_ending_size) and gets a last heap-order check, and the server measures its deep size.
 *
 * Queues are held weakly, except those created during a span, which are held strongly until it ends (a queue
 * the Solver dropped before the end is not lost to the garbage collector).
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
        long operationsSeen;

        Entry(Tracked queue) {
            this.queue = new WeakReference<>(queue);
            this.operationsSeen = -1;
        }
    }

    private static final ArrayList<Entry> entries = new ArrayList<>();
    private static final ArrayList<Tracked> createdInSpan = new ArrayList<>();
    private static boolean inSpan;
    private static int registrationsSincePrune;

    public static void register(Tracked queue) {
        entries.add(new Entry(queue));
        if (inSpan) {
            createdInSpan.add(queue);
        } else if (++registrationsSincePrune >= 4096) {
            registrationsSincePrune = 0;
            entries.removeIf(e -> e.queue.get() == null);
        }
    }

    /**
     * counters_reset: a span starts. What queues did before it is forgotten: a queue ends in this span only if
     * it is used again.
     */
    static void beginSpan() {
        for (Iterator<Entry> it = entries.iterator(); it.hasNext(); ) {
            Entry e = it.next();
            Tracked q = e.queue.get();
            if (q == null) {
                it.remove();
            } else {
                e.operationsSeen = q.npuzzleOperations();
            }
        }
        createdInSpan.clear();
        inSpan = true;
    }

    /**
     * A request ran out of heap: the queues created in the span are no longer held for its end (they are what
     * filled the heap). Those still referenced elsewhere end in it as before.
     */
    static void letGoOfSpan() {
        createdInSpan.clear();
        createdInSpan.trimToSize();
    }

    /**
     * counters: every queue used since the span began (or since the last end) ends now; returns them (for their
     * deep size) and lets go of them.
     */
    static List<Tracked> endSpan() {
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
        createdInSpan.clear();
        inSpan = false;
        for (Tracked q : ended) {
            Counters.pqEndingSize += q.npuzzleSize();
            q.npuzzleCheckHeapOrder();
        }
        return ended;
    }
}
