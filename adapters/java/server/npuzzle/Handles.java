package npuzzle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects a process has handed out by handle (`b7` a board, `s3` a Solver) and the references to them a
 * pipelined request may make (`@ID.K`, the K-th handle the reply to request ID returned). Kept apart from the
 * request loop ({@link Server}) because this is all bookkeeping: lookups run before a request's clock starts,
 * and a reply's handles are recorded after it stops, so none of it is ever charged to the student.
 */
final class Handles {
    /** How many request IDs back a reference `@ID.K` may reach (the protocol asks for at least 65,536). */
    private static final long REPLY_WINDOW = 1 << 16;

    /** An object handed out, the world it belongs to, and whether it is a board (else a Solver). */
    static final class Obj {
        final boolean board;
        final World world;
        final Object value;

        Obj(boolean board, World world, Object value) {
            this.board = board;
            this.world = world;
            this.value = value;
        }
    }

    private final Map<String, Obj> objects = new HashMap<>();
    private long nextHandle = 1;
    /**
     * The values of the `ok` replies to recent requests that return handles, by request ID: kept as the reply's
     * one string and split when a reference reads it, so a window of solutions costs a few bytes a handle, not
     * a String each (which the second reading of a Solver's memory would find kept, `KeptAnywhere`).
     */
    private final Map<Long, String> replyHandles = new HashMap<>();
    /** The keys of `replyHandles` in the order they were recorded (increasing), for eviction. */
    private final ArrayDeque<Long> recordedIds = new ArrayDeque<>();

    // ------------------------------------------------------------------ the objects

    /** Hands out `value` under a new handle. */
    String add(boolean board, World world, Object value) {
        String handle = (board ? "b" : "s") + nextHandle++;
        objects.put(handle, new Obj(board, world, value));
        return handle;
    }

    /** Hands out every board of a list: their count, then their handles, space-separated. */
    String addAll(World world, List<Object> boards) {
        StringBuilder sb = new StringBuilder().append(boards.size());
        for (Object b : boards) sb.append(' ').append(add(true, world, b));
        return sb.toString();
    }

    /** Forgets the object of a handle (`release`). */
    void release(String token) throws Server.Refusal {
        String key = canonical(token);
        if (objects.remove(key) == null) throw Server.protocol("unknown handle " + key);
    }

    /** The board a handle token names, or a protocol error. */
    Obj board(String token) throws Server.Refusal {
        return boardByKey(canonical(token));
    }

    /** The board of a handle already read ({@link #canonical(String)}), or a protocol error. */
    Obj boardByKey(String key) throws Server.Refusal {
        Obj o = lookup(key);
        if (!o.board) throw Server.protocol(key + " is not a board");
        return o;
    }

    /** The Solver a handle token names, or a protocol error. */
    Obj solver(String token) throws Server.Refusal {
        String key = canonical(token);
        Obj o = lookup(key);
        if (o.board) throw Server.protocol(key + " is not a solver");
        return o;
    }

    private Obj lookup(String key) throws Server.Refusal {
        Obj o = objects.get(key);
        if (o == null) throw Server.protocol("unknown handle " + key);
        return o;
    }

    /** The canonical form of a handle token (`b007` is `b7`), or a protocol error. */
    static String canonical(String token) throws Server.Refusal {
        if (token.length() >= 2 && (token.charAt(0) == 'b' || token.charAt(0) == 's')) {
            if (allDigits(token, 1, token.length())) {
                try {
                    return token.charAt(0) + Long.toUnsignedString(Long.parseUnsignedLong(token, 1, token.length(), 10));
                } catch (NumberFormatException e) {
                    // too large: falls through
                }
            }
        }
        throw notAHandle(token);
    }

    /** Whether a reply token is a handle (rather than a count, a byte size or `none`). */
    private static boolean isHandle(String token) {
        try {
            canonical(token);
            return true;
        } catch (Server.Refusal e) {
            return false;
        }
    }

    private static Server.Refusal notAHandle(String token) {
        return Server.protocol("`" + token + "` is not a handle (expected b<number>, s<number> or @<id>.<index>)");
    }

    // ------------------------------------------------------------------ references to earlier replies

    /**
     * Remembers the `ok` reply to request `id`, whose handle tokens a reference may name (`none` from
     * solution() has none), and forgets every request at least `REPLY_WINDOW` IDs older: IDs increase, so the
     * table keeps only the latest window.
     */
    void recordHandles(long id, String values) {
        replyHandles.put(id, values);
        recordedIds.addLast(id);
        // Not only `id - REPLY_WINDOW`: IDs without handles leave gaps, and an entry skipped over would stay.
        while (recordedIds.peekFirst() <= id - REPLY_WINDOW) replyHandles.remove(recordedIds.removeFirst());
    }

    /** The handle tokens of a reply's values, in order (plain loops: this runs on every reply with handles). */
    private static String[] handlesIn(String values) {
        List<String> handles = new ArrayList<>();
        int start = 0;
        while (start <= values.length()) {
            int end = values.indexOf(' ', start);
            if (end < 0) end = values.length();
            String token = values.substring(start, end);
            if (isHandle(token)) handles.add(token);
            start = end + 1;
        }
        return handles.toArray(new String[0]);
    }

    /** Whether `text[from..to)` is one or more ASCII digits. */
    private static boolean allDigits(String text, int from, int to) {
        if (from >= to) return false;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    /** Replaces every reference `@ID.K` among `args` with the handle it names. */
    void resolveReferences(String[] args) throws Server.Refusal {
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("@")) args[i] = resolve(args[i]);
        }
    }

    /** The K-th handle in the reply to request ID, or a protocol error naming what is missing. */
    private String resolve(String token) throws Server.Refusal {
        int dot = token.indexOf('.');
        if (dot < 0) throw notAHandle(token);
        long request = unsigned(token, token.substring(1, dot), -1L); // any u64, as the grader's IDs
        long index = unsigned(token, token.substring(dot + 1), 0xFFFF_FFFFL); // a u32, as in the Rust harness
        String reference = "@" + Long.toUnsignedString(request) + "." + index;
        String values = replyHandles.get(request);
        String[] handles = values == null ? null : handlesIn(values);
        if (handles == null) {
            throw Server.protocol(reference + " refers to request " + Long.toUnsignedString(request)
                    + ", which returned no handles (or is too old)");
        }
        if (index >= handles.length) {
            throw Server.protocol(reference + " refers to handle " + index + " of request "
                    + Long.toUnsignedString(request) + ", which returned " + handles.length);
        }
        return handles[(int) index];
    }

    /** The value of `digits` if it is a decimal number no larger than `max` (unsigned), else `token` is bad. */
    private static long unsigned(String token, String digits, long max) throws Server.Refusal {
        if (allDigits(digits, 0, digits.length())) {
            try {
                long value = Long.parseUnsignedLong(digits);
                if (Long.compareUnsigned(value, max) <= 0) return value;
            } catch (NumberFormatException e) {
                // too large: falls through
            }
        }
        throw notAHandle(token);
    }
}
