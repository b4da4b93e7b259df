package edu.princeton.cs.algs4;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The textbook's binary-heap priority queue without the grader's instrumentation (no counters, no registry),
 * so that the floor measures a plain program. Renamed to MinPQ.java in the scratch directory.
 */
public class MinPQ<Key> implements Iterable<Key> {
    private Key[] pq;
    private int n;
    private final Comparator<Key> comparator;

    public MinPQ() { this(1, null); }
    public MinPQ(int capacity) { this(capacity, null); }
    public MinPQ(Comparator<Key> comparator) { this(1, comparator); }
    @SuppressWarnings("unchecked")
    public MinPQ(int capacity, Comparator<Key> comparator) {
        this.pq = (Key[]) new Object[capacity + 1];
        this.comparator = comparator;
    }

    public boolean isEmpty() { return n == 0; }
    public int size() { return n; }
    public Key min() {
        if (n == 0) throw new NoSuchElementException("Priority queue underflow");
        return pq[1];
    }

    public void insert(Key x) {
        if (n == pq.length - 1) resize(2 * pq.length);
        pq[++n] = x;
        swim(n);
    }

    public Key delMin() {
        if (n == 0) throw new NoSuchElementException("Priority queue underflow");
        Key min = pq[1];
        exch(1, n--);
        sink(1);
        pq[n + 1] = null;
        if (n > 0 && n == (pq.length - 1) / 4) resize(pq.length / 2);
        return min;
    }

    @SuppressWarnings("unchecked")
    private void resize(int capacity) {
        Key[] temp = (Key[]) new Object[capacity];
        System.arraycopy(pq, 1, temp, 1, n);
        pq = temp;
    }

    private void swim(int k) {
        while (k > 1 && greater(k / 2, k)) {
            exch(k, k / 2);
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
        Key swap = pq[i];
        pq[i] = pq[j];
        pq[j] = swap;
    }

    public Iterator<Key> iterator() {
        ArrayList<Key> keys = new ArrayList<>();
        for (int i = 1; i <= n; i++) keys.add(pq[i]);
        return keys.iterator();
    }
}
