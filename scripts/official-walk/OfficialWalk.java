import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Scanner;
import java.util.Set;

/**
 * What the official MinPQ deep-memory walk loses to identity hash collisions (specs/memory.md): report B's
 * search (one MinPQ for both searches, inner-class nodes, priority moves + manhattan, then moves + hamming,
 * then hamming) over a board like the official reference Board (an int[] and ints, blank moving down, right,
 * left, up; the twin swaps tiles 0 and 1 unless one is the blank, then the last two), built with real
 * objects, then walked twice in the official memory model: once counting each object by its identity (this
 * program's figure), once by its identity hash (a set of System.identityHashCode values, as Classmexer's
 * MemoryUtil counts). Each run builds the search in a fresh thread, so each walk hashes with a fresh
 * per-thread sequence.
 *
 * Usage: java scripts/official-walk/OfficialWalk.java PUZZLE-FILE RUNS   (JDK 11 or later; -Xmx3g for puzzle35)
 * Prints the exact figure and each run's loss, sorted. On ../shared/calibration/official-timing's puzzle25,
 * 30 and 35: 2,865,624, 21,463,448 and 168,582,624 bytes; the official walks lost 0, 4,376 and 250,424.
 */
public class OfficialWalk {
    /** A board as the official reference Board is laid out: 32 bytes and an int[n * n]. */
    static final class Board {
        final int[] tiles;
        final int n;
        final int blank;
        final int manhattan;
        final int hamming;

        Board(int[] tiles, int n) {
            this.tiles = tiles;
            this.n = n;
            int b = -1, h = 0, m = 0;
            for (int i = 0; i < n * n; i++) {
                int t = tiles[i];
                if (t == 0) {
                    b = i;
                    continue;
                }
                if (t != i + 1) h++;
                m += Math.abs((t - 1) / n - i / n) + Math.abs((t - 1) % n - i % n);
            }
            blank = b;
            hamming = h;
            manhattan = m;
        }

        List<Board> neighbors() {
            int row = blank / n, col = blank % n;
            int[] targets = {row + 1 < n ? blank + n : -1, col + 1 < n ? blank + 1 : -1, col > 0 ? blank - 1 : -1,
                row > 0 ? blank - n : -1};
            List<Board> out = new ArrayList<>(4);
            for (int to : targets) {
                if (to < 0) continue;
                int[] t = tiles.clone();
                t[blank] = t[to];
                t[to] = 0;
                out.add(new Board(t, n));
            }
            return out;
        }

        Board twin() {
            int a = 0, b = 1;
            if (tiles[0] == 0 || tiles[1] == 0) {
                a = n * n - 2;
                b = n * n - 1;
            }
            int[] t = tiles.clone();
            int x = t[a];
            t[a] = t[b];
            t[b] = x;
            return new Board(t, n);
        }
    }

    /** The textbook MinPQ's fields. */
    static final class Queue {
        Object[] pq = new Object[2];
        int n;
        Object comparator;
    }

    /** Report B's Solver: the goal's node and a flag; its nodes are an inner class. */
    static final class Solver {
        Node goal;
        boolean solvable;

        final class Node {
            final Board board;
            final int moves;
            final Node previous;
            final int manhattan;
            final int hamming;
            final boolean twin;

            Node(Board board, int moves, Node previous, boolean twin) {
                this.board = board;
                this.moves = moves;
                this.previous = previous;
                this.manhattan = board.manhattan;
                this.hamming = board.hamming;
                this.twin = twin;
            }

            int compareTo(Node that) {
                int c = Integer.compare(moves + manhattan, that.moves + that.manhattan);
                if (c != 0) return c;
                c = Integer.compare(moves + hamming, that.moves + that.hamming);
                return c != 0 ? c : Integer.compare(hamming, that.hamming);
            }
        }

        Queue solve(Board initial) {
            Queue q = new Queue();
            insert(q, new Node(initial, 0, null, false));
            insert(q, new Node(initial.twin(), 0, null, true));
            Node node = delMin(q);
            while (node.board.manhattan != 0) {
                for (Board next : node.board.neighbors()) {
                    if (node.previous != null && Arrays.equals(next.tiles, node.previous.board.tiles)) continue;
                    insert(q, new Node(next, node.moves + 1, node, node.twin));
                }
                node = delMin(q);
            }
            solvable = !node.twin;
            goal = solvable ? node : null;
            return q;
        }

        // the textbook MinPQ's insert and delMin, resizing included
        private void insert(Queue q, Node x) {
            if (q.n == q.pq.length - 1) q.pq = Arrays.copyOf(q.pq, 2 * q.pq.length);
            q.pq[++q.n] = x;
            for (int k = q.n; k > 1 && greater(q, k / 2, k); k /= 2) swap(q, k / 2, k);
        }

        private Node delMin(Queue q) {
            Node min = (Node) q.pq[1];
            swap(q, 1, q.n--);
            for (int k = 1; 2 * k <= q.n; ) {
                int j = 2 * k;
                if (j < q.n && greater(q, j, j + 1)) j++;
                if (!greater(q, k, j)) break;
                swap(q, k, j);
                k = j;
            }
            q.pq[q.n + 1] = null;
            if (q.n > 0 && q.n == (q.pq.length - 1) / 4) q.pq = Arrays.copyOf(q.pq, q.pq.length / 2);
            return min;
        }

        private static boolean greater(Queue q, int i, int j) {
            return ((Node) q.pq[i]).compareTo((Node) q.pq[j]) > 0;
        }

        private static void swap(Queue q, int i, int j) {
            Object t = q.pq[i];
            q.pq[i] = q.pq[j];
            q.pq[j] = t;
        }
    }

    /** An object's bytes in the official model, and what it references (in field order). */
    static long bytes(Object o) {
        if (o instanceof Queue) return 40;
        if (o instanceof Object[]) return 24 + 8L * ((Object[]) o).length;
        if (o instanceof int[]) return (24 + 4L * ((int[]) o).length + 7) / 8 * 8;
        if (o instanceof Board || o instanceof Solver) return 32;
        if (o instanceof Solver.Node) return 56;
        throw new IllegalStateException("unexpected " + o.getClass());
    }

    static Object[] references(Object o, Solver solver) {
        if (o instanceof Queue) return new Object[] {((Queue) o).pq, ((Queue) o).comparator};
        if (o instanceof Object[]) return (Object[]) o;
        if (o instanceof Board) return new Object[] {((Board) o).tiles};
        if (o instanceof Solver.Node) {
            Solver.Node node = (Solver.Node) o;
            return new Object[] {node.board, node.previous, solver};
        }
        if (o instanceof Solver) return new Object[] {((Solver) o).goal};
        return new Object[0];
    }

    /** The deep size of root, each object counted once by identity, or by identity hash. */
    static long walk(Object root, Solver solver, boolean byHash) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Integer> hashes = new HashSet<>();
        ArrayDeque<Object> pending = new ArrayDeque<>();
        pending.push(root);
        long total = 0;
        while (!pending.isEmpty()) {
            Object o = pending.pop();
            boolean first = byHash ? hashes.add(System.identityHashCode(o)) : seen.add(o);
            if (!first) continue;
            total += bytes(o);
            for (Object r : references(o, solver)) {
                if (r != null) pending.push(r);
            }
        }
        return total;
    }

    public static void main(String[] args) throws Exception {
        Board initial;
        try (Scanner in = new Scanner(Files.readString(Path.of(args[0])))) {
            int n = in.nextInt();
            int[] tiles = new int[n * n];
            for (int i = 0; i < n * n; i++) tiles[i] = in.nextInt();
            initial = new Board(tiles, n);
        }
        int runs = Integer.parseInt(args[1]);
        long exact = 0;
        List<Long> losses = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            long[] figures = new long[2];
            Thread thread = new Thread(() -> {
                Solver solver = new Solver();
                Queue q = solver.solve(initial);
                figures[0] = walk(q, solver, false);
                figures[1] = walk(q, solver, true);
            });
            thread.start();
            thread.join();
            exact = figures[0];
            losses.add(figures[0] - figures[1]);
        }
        Collections.sort(losses);
        System.out.println(args[0] + ": exact " + exact + " bytes; lost by identity hash, " + runs + " runs: " + losses);
    }
}
