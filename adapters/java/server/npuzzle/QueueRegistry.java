package npuzzle;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The instrumented MinPQs used in a span. Java has no destructor, so a queue "ends" when the grader reads the
 * counters of the span it was used in: a span starts at `counters_reset` and ends at `counters`, after the
 * grader has asked the Solver everything it asks (its constructor, moves(), isSolvable(), solution()). At the
 * end every queue used during the span, whether the constructor built it or a lazy moves() did, reports its
 * size (pq_ending_size) and gets a last heap-order check (which a MinPQ makes only in a span that asked for
 * the checks: {@link Counters#heapOrderChecked}), and the server measures its deep size.
 *
 * A queue notes itself here at its first operation of a span ({@link #operated}: one comparison on every
 * other operation) and when it is made, so that a span's end looks at the queues it used and at no other:
 * the registry keeps nothing of a queue from one span to the next (a Solver's life makes one or two, a grade
 * thousands, and a registry that kept every queue until the collector cleared it walked them all at every
 * span's start and end). Within a span the queues noted are held strongly until it ends (a queue the Solver
 * dropped before the end is not lost to the garbage collector), and weakly as well, so that a span whose
 * request ran out of heap can let go of them ({@link #letGoOfSpan}). Outside a span (the `own` world's process
 * never starts one) they are held weakly only, as the collector allows: a queue made or used then ends at the
 * next `counters` if it is still alive, and the cleared references are pruned as they pile up.
 *
 * Every method but {@link #operated}'s first comparison runs under the lock of this class: a student's
 * helper threads may create and use queues while the server reads the registry.
 */
public final class QueueRegistry {
    private QueueRegistry() {}

    /**
     * What the registry needs from a queue; edu.princeton.cs.algs4.MinPQ extends it. A class, not an
     * interface, so the hooks need not be public: MinPQ implements them protected and final, out of reach
     * of a student's subclass; the registry's own marks on a queue are private to this file.
     */
    public abstract static class Tracked {
        /** The queue's place among all queues made, for the order in which queues end (their making's). */
        private long made;
        /** The span in which the queue last noted itself. */
        private int noted = -1;

        /** Items in the queue now. */
        protected abstract int npuzzleSize();

        /** Re-checks heap order, counting a violation once per queue, without charging board counts. */
        protected abstract void npuzzleCheckHeapOrder();
    }

    /** The span now: a new number at each start and end, so a queue's first operation after either notes it. */
    private static volatile int span;
    /** Whether a span has started and not ended (between `counters_reset` and `counters`). */
    private static boolean inSpan;
    private static long made;
    /** The queues noted since the last start or end, in the order they noted themselves, held weakly... */
    private static final ArrayList<WeakReference<Tracked>> used = new ArrayList<>();
    /** ...and, those noted in a span, strongly, until it ends or runs out of heap. */
    private static final ArrayList<Tracked> held = new ArrayList<>();
    /** How many references outside a span before the cleared ones are pruned (doubles when few are). */
    private static int pruneAt = 4096;

    /** A queue is made: it counts as used in the span now (it ends there, even if it never operates). */
    public static void register(Tracked queue) {
        queue.made = ++made;
        note(queue);
    }

    /**
     * A queue inserted or removed an item: the first time in a span, it notes itself there (under the lock).
     * Public for MinPQ, in another package of this module; the package is not exported.
     */
    public static void operated(Tracked queue) {
        if (queue.noted != span) {
            synchronized (QueueRegistry.class) {
                if (queue.noted != span) note(queue);
            }
        }
    }

    /**
     * Notes a queue in the span now (under the lock). What may run out of heap is allocated first, so a queue
     * is either noted whole or not at all.
     */
    private static void note(Tracked queue) {
        if (!inSpan && used.size() >= pruneAt) {
            used.removeIf(reference -> reference.get() == null);
            if (used.size() >= pruneAt / 2) pruneAt *= 2;
        }
        WeakReference<Tracked> reference = new WeakReference<>(queue);
        used.ensureCapacity(used.size() + 1);
        if (inSpan) held.ensureCapacity(held.size() + 1);
        used.add(reference);
        if (inSpan) held.add(queue);
        queue.noted = span;
    }

    /**
     * counters_reset: a span starts. What queues did before it is forgotten: a queue ends in this span only if
     * it is used again.
     */
    static void beginSpan() {
        forget();
        inSpan = true;
    }

    /**
     * A request ran out of heap: the queues used in the span are no longer held for its end (they may be what
     * filled the heap). Those still referenced elsewhere end in it as before.
     */
    static void letGoOfSpan() {
        held.clear();
        held.trimToSize();
    }

    /**
     * counters: every queue used since the span began (or since the last end) ends now, in the order the queues
     * were made; returns them (for their deep size) and lets go of them.
     */
    static List<Tracked> endSpan() {
        ArrayList<Tracked> ended = new ArrayList<>(used.size());
        for (WeakReference<Tracked> reference : used) {
            Tracked q = reference.get();
            if (q != null) ended.add(q);
        }
        ended.sort(Comparator.comparingLong(q -> q.made));
        forget();
        inSpan = false;
        for (Tracked q : ended) {
            Counters.pqEndingSize += q.npuzzleSize();
            q.npuzzleCheckHeapOrder();
        }
        return ended;
    }

    /** Lets go of the queues noted; the next operation of any queue notes it anew. */
    private static void forget() {
        used.clear();
        held.clear();
        pruneAt = 4096;
        span++;
    }
}
