package edu.princeton.cs.algs4;

import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

import npuzzle.Counters;
import npuzzle.QueueRegistry;

/**
 * The grader's stand-in for the textbook's binary-heap min priority queue, with the same behaviour (a
 * 1-based array that starts at length capacity + 1, doubles when full and halves when a quarter full; swim
 * stops on equal keys, sink prefers the left child on equal keys) and the same public API, instrumented:
 * inserts, delMins and sizes are reported to {@link Counters}, and, while the grader asks for it (the lives
 * its heap-order test reads), the heap order is re-checked at exponentially spaced operation counts to detect
 * items whose ordering changed after insertion. The spacing is kept whether or not the checks run, so a
 * queue is checked at the same operations either way.
 *
 * Not final, as the textbook's is not (a student's subclass compiles as it does officially), but what counts
 * cannot be changed by one: insert() and delMin() are final, and the hooks the adapter's registry calls are
 * final and not public (their superclass is in a package the student's code cannot see).
 */
public class MinPQ<Key> extends QueueRegistry.Tracked implements Iterable<Key> {
    private Key[] pq;
    private int n;
    private Comparator<Key> comparator;

    // instrumentation
    private final boolean instrumented;
    private long operations;
    private long nextCheck = 1;
    private boolean violated;

    public MinPQ(int initCapacity) {
        this(initCapacity, null, true);
    }

    public MinPQ() {
        this(1, null, true);
    }

    public MinPQ(int initCapacity, Comparator<Key> comparator) {
        this(initCapacity, comparator, true);
    }

    public MinPQ(Comparator<Key> comparator) {
        this(1, comparator, true);
    }

    /** Builds a heap from the keys (bottom-up heapify); not counted as inserts. */
    public MinPQ(Key[] keys) {
        this(keys.length, null, true);
        n = keys.length;
        for (int i = 0; i < n; i++) pq[i + 1] = keys[i];
        for (int k = n / 2; k >= 1; k--) sink(k);
        if (instrumented) Counters.pqBuiltWith(n);
    }

    @SuppressWarnings("unchecked")
    private MinPQ(int initCapacity, Comparator<Key> comparator, boolean instrumented) {
        if (initCapacity < 0) throw new IllegalArgumentException("capacity must be non-negative");
        this.pq = (Key[]) new Object[initCapacity + 1];
        this.comparator = comparator;
        this.instrumented = instrumented;
        if (instrumented) {
            // helper threads of the student's may create queues while the server reads the registry
            synchronized (QueueRegistry.class) {
                QueueRegistry.register(this);
            }
        }
    }

    public boolean isEmpty() {
        return n == 0;
    }

    public int size() {
        return n;
    }

    public Key min() {
        if (isEmpty()) throw new NoSuchElementException("Priority queue underflow");
        return pq[1];
    }

    public final void insert(Key x) {
        if (n == pq.length - 1) resize(2 * pq.length);
        pq[++n] = x;
        swim(n);
        if (instrumented) {
            Counters.pqInserted();
            afterOperation();
        }
    }

    public final Key delMin() {
        if (isEmpty()) throw new NoSuchElementException("Priority queue underflow");
        Key min = pq[1];
        exch(1, n--);
        sink(1);
        pq[n + 1] = null;
        if (n > 0 && n == (pq.length - 1) / 4) resize(pq.length / 2);
        if (instrumented) {
            Counters.pqDeletedMin();
            afterOperation();
        }
        return min;
    }

    @SuppressWarnings("unchecked")
    private void resize(int capacity) {
        Key[] copy = (Key[]) new Object[capacity];
        System.arraycopy(pq, 1, copy, 1, n);
        pq = copy;
    }

    private void swim(int k) {
        while (k > 1 && greater(k / 2, k)) {
            exch(k / 2, k);
            k = k / 2;
        }
    }

    private void sink(int k) {
        while (2 * k <= n) {
            int j = 2 * k;
            if (j < n && greater(j, j + 1)) j++;
            if (!greater(k, j)) break;
            exch(k, j);
            k = j;
        }
    }

    @SuppressWarnings("unchecked")
    private boolean greater(int i, int j) {
        if (comparator == null) return ((Comparable<Key>) pq[i]).compareTo(pq[j]) > 0;
        return comparator.compare(pq[i], pq[j]) > 0;
    }

    private void exch(int i, int j) {
        Key t = pq[i];
        pq[i] = pq[j];
        pq[j] = t;
    }

    /** Iterates over the keys in ascending order (on a private copy; the queue is unchanged, nothing counted). */
    public Iterator<Key> iterator() {
        MinPQ<Key> copy = new MinPQ<>(n, comparator, false);
        for (int i = 1; i <= n; i++) copy.insert(pq[i]);
        return new Iterator<Key>() {
            public boolean hasNext() {
                return !copy.isEmpty();
            }

            public Key next() {
                if (!hasNext()) throw new NoSuchElementException();
                return copy.delMin();
            }

            public void remove() {
                throw new UnsupportedOperationException();
            }
        };
    }

    // ---- instrumentation (QueueRegistry.Tracked) ----

    private void afterOperation() {
        QueueRegistry.operated(this);
        if (++operations == nextCheck) {
            nextCheck <<= 1;
            try {
                checkHeapOrder();
            } catch (RuntimeException | StackOverflowError e) {
                // the student's compareTo failed; the failure shows up in their own operations, not here
            }
        }
    }

    @Override
    protected final int npuzzleSize() {
        return n;
    }

    /**
     * The last check, when the solve that used the queue ends. Whatever the student's compareTo throws here
     * goes to the caller (the server reports it as the student's failure): a check that cannot run must not
     * pass as one that found the heap in order.
     */
    @Override
    protected final void npuzzleCheckHeapOrder() {
        checkHeapOrder();
    }

    /**
     * Re-checks heap order, counting a violation once per queue, without charging board counts; only while the
     * grader asks for the checks ({@link Counters#heapOrderChecked}), for the periodic checks and the last one.
     * A parent is out of order when it compares greater than its child and the child does not compare greater
     * than it.
     */
    private void checkHeapOrder() {
        if (violated || !instrumented || !Counters.heapOrderChecked()) return;
        boolean stopped = Counters.stopCharging();
        try {
            for (int k = 2; k <= n; k++) {
                // an inversion both ways round: a compareTo that never answers 0 (`a < b ? -1 : 1`) calls
                // each of two equal items greater than the other, which is not a mutation
                if (greater(k / 2, k) && !greater(k, k / 2)) {
                    violated = true;
                    Counters.pqHeapViolated();
                    return;
                }
            }
        } finally {
            Counters.chargeAgain(stopped);
        }
    }
}
