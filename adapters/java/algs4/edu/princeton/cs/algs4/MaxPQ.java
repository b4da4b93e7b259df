package edu.princeton.cs.algs4;

import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

/** The grader's stand-in for the textbook's binary-heap max priority queue (not instrumented). */
public class MaxPQ<Key> implements Iterable<Key> {
    private Key[] pq;
    private int n;
    private Comparator<Key> comparator;

    @SuppressWarnings("unchecked")
    public MaxPQ(int initCapacity) {
        pq = (Key[]) new Object[initCapacity + 1];
    }

    public MaxPQ() {
        this(1);
    }

    @SuppressWarnings("unchecked")
    public MaxPQ(int initCapacity, Comparator<Key> comparator) {
        this.comparator = comparator;
        pq = (Key[]) new Object[initCapacity + 1];
    }

    public MaxPQ(Comparator<Key> comparator) {
        this(1, comparator);
    }

    public MaxPQ(Key[] keys) {
        this(keys.length);
        n = keys.length;
        for (int i = 0; i < n; i++) pq[i + 1] = keys[i];
        for (int k = n / 2; k >= 1; k--) sink(k);
    }

    public boolean isEmpty() {
        return n == 0;
    }

    public int size() {
        return n;
    }

    public Key max() {
        if (isEmpty()) throw new NoSuchElementException("Priority queue underflow");
        return pq[1];
    }

    public void insert(Key x) {
        if (n == pq.length - 1) resize(2 * pq.length);
        pq[++n] = x;
        swim(n);
    }

    public Key delMax() {
        if (isEmpty()) throw new NoSuchElementException("Priority queue underflow");
        Key max = pq[1];
        exch(1, n--);
        sink(1);
        pq[n + 1] = null;
        if (n > 0 && n == (pq.length - 1) / 4) resize(pq.length / 2);
        return max;
    }

    @SuppressWarnings("unchecked")
    private void resize(int capacity) {
        Key[] copy = (Key[]) new Object[capacity];
        System.arraycopy(pq, 1, copy, 1, n);
        pq = copy;
    }

    private void swim(int k) {
        while (k > 1 && less(k / 2, k)) {
            exch(k, k / 2);
            k = k / 2;
        }
    }

    private void sink(int k) {
        while (2 * k <= n) {
            int j = 2 * k;
            if (j < n && less(j, j + 1)) j++;
            if (!less(k, j)) break;
            exch(k, j);
            k = j;
        }
    }

    @SuppressWarnings("unchecked")
    private boolean less(int i, int j) {
        if (comparator == null) return ((Comparable<Key>) pq[i]).compareTo(pq[j]) < 0;
        return comparator.compare(pq[i], pq[j]) < 0;
    }

    private void exch(int i, int j) {
        Key t = pq[i];
        pq[i] = pq[j];
        pq[j] = t;
    }

    /** Iterates over the keys in descending order, on a copy. */
    public Iterator<Key> iterator() {
        MaxPQ<Key> copy = comparator == null ? new MaxPQ<>(n) : new MaxPQ<>(n, comparator);
        for (int i = 1; i <= n; i++) copy.insert(pq[i]);
        return new Iterator<Key>() {
            public boolean hasNext() {
                return !copy.isEmpty();
            }

            public Key next() {
                if (!hasNext()) throw new NoSuchElementException();
                return copy.delMax();
            }

            public void remove() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
