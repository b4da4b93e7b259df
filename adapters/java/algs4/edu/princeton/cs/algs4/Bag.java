package edu.princeton.cs.algs4;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** A linked-list bag (iteration order: most recently added first). */
public class Bag<Item> implements Iterable<Item> {
    private static final class Node<Item> {
        final Item item;
        final Node<Item> next;

        Node(Item item, Node<Item> next) {
            this.item = item;
            this.next = next;
        }
    }

    private Node<Item> first;
    private int n;

    public Bag() {}

    public boolean isEmpty() {
        return first == null;
    }

    public int size() {
        return n;
    }

    public void add(Item item) {
        first = new Node<>(item, first);
        n++;
    }

    public Iterator<Item> iterator() {
        return new Iterator<Item>() {
            private Node<Item> current = first;

            public boolean hasNext() {
                return current != null;
            }

            public Item next() {
                if (current == null) throw new NoSuchElementException();
                Item item = current.item;
                current = current.next;
                return item;
            }

            public void remove() {
                throw new UnsupportedOperationException();
            }
        };
    }
}
