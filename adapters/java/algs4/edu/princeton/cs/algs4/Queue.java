package edu.princeton.cs.algs4;

import java.util.Iterator;
import java.util.NoSuchElementException;

/** A linked-list FIFO queue; iteration is first-in first-out. */
public class Queue<Item> implements Iterable<Item> {
    private static final class Node<Item> {
        final Item item;
        Node<Item> next;

        Node(Item item) {
            this.item = item;
        }
    }

    private Node<Item> first;
    private Node<Item> last;
    private int n;

    public Queue() {}

    public boolean isEmpty() {
        return first == null;
    }

    public int size() {
        return n;
    }

    public Item peek() {
        if (isEmpty()) throw new NoSuchElementException("Queue underflow");
        return first.item;
    }

    public void enqueue(Item item) {
        Node<Item> node = new Node<>(item);
        if (last == null) first = node;
        else last.next = node;
        last = node;
        n++;
    }

    public Item dequeue() {
        if (isEmpty()) throw new NoSuchElementException("Queue underflow");
        Item item = first.item;
        first = first.next;
        n--;
        if (first == null) last = null;
        return item;
    }

    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Item item : this) s.append(item).append(' ');
        return s.toString();
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
