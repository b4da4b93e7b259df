import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The floor under a Java grade's cost: the grade's own Board and Solver calls (scripts/replay/calls.py, read
 * from its transcripts) made again by a plain program, in the order the grade made them, with no grader,
 * protocol, agent, module or sandbox. One JVM replays one world: compiled with the student's Board (the `own`
 * world) or with the reference Board under the student's Solver (the `ref` world), as the grader compiles
 * them. Every result is kept in its slot until the grade released it, so the collector sees the same live
 * objects. It prints the number of calls made, the CPU its thread spent reading them (which
 * scripts/bench-overhead.sh leaves out of the floor) and the CPU its thread spent making them.
 */
public class Replay {
    /** What the reference Board counts through (adapters/java/reference/Board.java): a plain counter. */
    static final class Meter implements IntConsumer, LongSupplier, BooleanSupplier, LongConsumer {
        final long[] events = new long[16];
        long ids;
        long expanded;
        boolean buildingRoot;

        @Override
        public void accept(int event) {
            events[event]++;
        }

        @Override
        public long getAsLong() {
            return ++ids;
        }

        @Override
        public boolean getAsBoolean() {
            return buildingRoot;
        }

        @Override
        public void accept(long tilesHash) {
            expanded ^= tilesHash;
        }
    }

    static final Meter METER = new Meter();
    static Object[] slots = new Object[1 << 16];
    static long sink;

    public static void main(String[] args) throws IOException {
        System.getProperties().put("npuzzle.boardMeter", METER);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadCpuTime();
        int[] calls = read(args[0]);
        long reading = threads.getCurrentThreadCpuTime() - before;
        int made = 0;
        int at = 0;
        long start = threads.getCurrentThreadCpuTime();
        while (at < calls.length) {
            int op = calls[at++];
            if (op == 0) {
                Arrays.fill(slots, null);
                continue;
            }
            at = call(op, calls, at);
            made++;
        }
        long inside = threads.getCurrentThreadCpuTime() - start;
        System.out.println("calls=" + made + " reading_ns=" + reading + " inside_ns=" + inside + " sink=" + sink);
    }

    static int[] read(String path) throws IOException {
        int[] calls = new int[1 << 20];
        int n = 0;
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(path), 1 << 16))) {
            while (true) {
                int value;
                try {
                    value = in.readInt();
                } catch (EOFException end) {
                    break;
                }
                if (n == calls.length) calls = Arrays.copyOf(calls, 2 * n);
                calls[n++] = value;
            }
        }
        return Arrays.copyOf(calls, n);
    }

    static Board board(int slot) {
        return (Board) slots[slot];
    }

    static Solver solver(int slot) {
        return (Solver) slots[slot];
    }

    static void keep(int slot, Object value) {
        if (slot >= slots.length) slots = Arrays.copyOf(slots, Math.max(2 * slots.length, slot + 1));
        slots[slot] = value;
    }

    /** Makes the call at calls[at..] (its operation code already read); returns where the next one starts. */
    static int call(int op, int[] calls, int at) {
        switch (op) {
            case 1: case 2: case 25: { // board, board_probe, memory_board (this JVM serves one world)
                at++;
                int n = calls[at++];
                int[][] tiles = new int[n][n];
                for (int i = 0; i < n * n; i++) tiles[i / n][i % n] = calls[at++];
                Object board = null;
                METER.buildingRoot = true;
                try {
                    board = new Board(tiles);
                } catch (Throwable t) {
                    sink++;
                } finally {
                    METER.buildingRoot = false;
                }
                if (op == 2) {
                    for (int r = 0; r < n; r++) for (int c = 0; c < n; c++) tiles[r][c] = r * n + c;
                }
                if (op == 25) return at;
                return fill(calls, at, board == null ? List.of() : List.of(board));
            }
            case 26: // counters_reset: the meter keeps nothing between tests
                return at;
            case 17: { // release
                int count = calls[at++];
                for (int i = 0; i < count; i++) slots[calls[at++]] = null;
                return at;
            }
            case 19: { // solver_null
                at++;
                Object solver = null;
                try {
                    solver = new Solver(null);
                } catch (Throwable t) {
                    sink++;
                }
                return fill(calls, at, solver == null ? List.of() : List.of(solver));
            }
            default:
                break;
        }
        int a = calls[at++];
        int b = (op == 8 || op == 9 || op == 14) ? calls[at++] : -1;
        List<Object> made = List.of();
        try {
            made = run(op, a, b);
        } catch (Throwable t) {
            sink++;
        }
        switch (op) {
            case 13: case 14: case 15: case 16: case 18: case 22: case 23:
                return fill(calls, at, made);
            default:
                return at;
        }
    }

    static List<Object> run(int op, int a, int b) {
        switch (op) {
            case 3: sink += board(a).dimension(); break;
            case 4: sink += board(a).hamming(); break;
            case 5: sink += board(a).manhattan(); break;
            case 6: sink += board(a).isGoal() ? 1 : 0; break;
            case 7: sink += board(a).toString().length(); break;
            case 8: sink += board(a).equals(board(b)) ? 1 : 0; break;
            case 9: sink += board(a).equals((Object) board(b)) ? 1 : 0; break;
            case 10: sink += board(a).equals(null) ? 1 : 0; break;
            case 11: sink += board(a).equals("a string") ? 1 : 0; break;
            case 12: sink += board(a).equals(new Object()) ? 1 : 0; break;
            case 13: return copy(board(a).neighbors());
            case 14: {
                Iterable<Board> first = board(a).neighbors();
                Iterable<Board> second = board(b).neighbors();
                List<Object> both = copy(first);
                both.addAll(copy(second));
                return both;
            }
            case 15: {
                Iterable<Board> neighbors = board(a).neighbors();
                List<Object> outer = new ArrayList<>();
                List<Object> inner = new ArrayList<>();
                for (Board x : neighbors) {
                    outer.add(x);
                    inner.addAll(copy(neighbors));
                }
                outer.addAll(inner);
                return outer;
            }
            case 16: return List.of(board(a).twin());
            case 18: return List.of(new Solver(board(a)));
            case 20: sink += solver(a).isSolvable() ? 1 : 0; break;
            case 21: sink += solver(a).moves(); break;
            case 22: {
                Iterable<Board> path = solver(a).solution();
                return path == null ? List.of() : copy(path);
            }
            case 23: return List.of(new Solver(board(a)));
            case 24: {
                Solver s = solver(a);
                try { sink += s.moves(); } catch (Throwable t) { sink++; }
                try { sink += s.isSolvable() ? 1 : 0; } catch (Throwable t) { sink++; }
                try { sink += s.solution() == null ? 0 : 1; } catch (Throwable t) { sink++; }
                break;
            }
            default: throw new IllegalStateException("unknown operation " + op);
        }
        return List.of();
    }

    static List<Object> copy(Iterable<?> boards) {
        List<Object> list = new ArrayList<>();
        for (Object board : boards) list.add(board);
        return list;
    }

    /** Keeps what a call made in the slots its record lists (a count, -1 when the grade's call failed). */
    static int fill(int[] calls, int at, List<Object> made) {
        int count = calls[at++];
        for (int i = 0; i < count; i++) {
            int slot = calls[at++];
            keep(slot, i < made.size() ? made.get(i) : null);
        }
        return at;
    }
}
