package edu.princeton.cs.algs4;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The textbook's array bag: an array that doubles when full (capacity 8 at first); iteration is in the
 * order the items were added. Its fields are the textbook's, so that what a Solver keeps in one weighs what
 * it weighs officially.
 */
public class ResizingArrayBag<Item> implements Iterable<Item> {
    private static final int INIT_CAPACITY = 8;

    private Item[] a;
    private int n;

    @SuppressWarnings("unchecked")
    public ResizingArrayBag() {
        a = (Item[]) new Object[INIT_CAPACITY];
    }

    public boolean isEmpty() {
        return n == 0;
    }

    public int size() {
        return n;
    }

    @SuppressWarnings("unchecked")
    private void resize(int capacity) {
        Item[] copy = (Item[]) new Object[capacity];
        System.arraycopy(a, 0, copy, 0, n);
        a = copy;
    }

    public void add(Item item) {
        if (n == a.length) resize(2 * a.length);
        a[n++] = item;
    }

    public Iterator<Item> iterator() {
        return new Iterator<Item>() {
            private int i = 0;

            public boolean hasNext() {
                return i < n;
            }

            public Item next() {
                if (!hasNext()) throw new NoSuchElementException();
                return a[i++];
            }

            public void remove() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
