package edu.princeton.cs.algs4;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The textbook's array stack: an array that doubles when full and halves when a quarter full (capacity 8 at
 * first); iteration is last-in first-out. Its fields are the textbook's, so that a Solver keeping its
 * solution in one weighs what it weighs officially.
 */
public class ResizingArrayStack<Item> implements Iterable<Item> {
    private static final int INIT_CAPACITY = 8;

    private Item[] a;
    private int n;

    @SuppressWarnings("unchecked")
    public ResizingArrayStack() {
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

    public void push(Item item) {
        if (n == a.length) resize(2 * a.length);
        a[n++] = item;
    }

    public Item pop() {
        if (isEmpty()) throw new NoSuchElementException("Stack underflow");
        Item item = a[--n];
        a[n] = null;
        if (n > 0 && n == a.length / 4) resize(a.length / 2);
        return item;
    }

    public Item peek() {
        if (isEmpty()) throw new NoSuchElementException("Stack underflow");
        return a[n - 1];
    }

    public Iterator<Item> iterator() {
        return new Iterator<Item>() {
            private int i = n - 1;

            public boolean hasNext() {
                return i >= 0;
            }

            public Item next() {
                if (!hasNext()) throw new NoSuchElementException();
                return a[i--];
            }

            public void remove() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
