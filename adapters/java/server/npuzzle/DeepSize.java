package npuzzle;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep memory in the official model ({@link ObjectLayout#OFFICIAL}): the bytes of every object reachable from
 * the roots through instance fields (a Reference's referent included) and array elements, each object once.
 * Class objects, class loaders, running threads and modules are not followed: they are not part of a data
 * structure (a thread the submission started is a root of its own, below). A thread that is not running (never
 * started, or ended) is an object like any other: what it holds counts (its Runnable, a subclass's fields),
 * though not the thread group and security context every thread refers to. A red-team Board kept 32 bytes a
 * tile in the lambda of a Thread it never started, and a Solver 536 bytes a node so, both weighed as if the
 * arrays were not there.
 *
 * Three things go beyond a plain walk:
 * - Our reference Board weighs what the official reference Board does (a 32-byte object and an int[n²]: 96
 *   bytes at n = 3), not what its counting machinery makes it weigh, and is not entered.
 * - Memory that the submission's static fields reach counts by how much it grew during the measured span:
 *   a {@link Baseline} records what they reach before it, and what they reach afterwards that is neither in the
 *   baseline nor already counted is added (a constant table built by a static initializer never counts).
 * - What the submission keeps aside ({@link KeptAside}) counts: a ThreadLocal or a ClassValue leads to its
 *   values (in every live thread, for every loaded class), and the threads it started are roots beside its
 *   static fields, each entered whole and counted by growth as they are.
 * - An object may be excluded: it and whatever only it reaches are not counted (the Iterable solution()
 *   returned, for `memory_retained`).
 *
 * An object of a class with fields reflection cannot see (injected by the JVM, or filtered) counts at least what
 * the running JVM says it takes.
 */
final class DeepSize {
    /**
     * The most objects one measurement of a Board or Solver visits; past it (or when its bookkeeping exhausts
     * the heap) the walk stops and its figure is a lower bound. About a second of CPU.
     */
    static final long WALK_BUDGET = 4_000_000;
    /**
     * The most objects the queues' walks at one `counters deep` visit together, within the request's CPU limit
     * (2 s) at about a third of a microsecond per object. Enough for any search an honest Solver keeps under
     * the official 200,000,000 bytes a puzzle: a node of at least 32 bytes and a reference Board of at least
     * 96 (two objects) make at most about 3,100,000 objects there. The official puzzle35's canonical search
     * reaches about 1,060,000; a one-queue Solver with inner-class nodes whose tie-break puts the goal late
     * reaches 1,870,000 (its official figure is 168 MB, fixtures/submissions.toml `java-one-queue-inner`).
     */
    static final long QUEUES_BUDGET = 3_500_000;
    /**
     * The bytes past which the queues' walks stop: the official memory runs allow 200,000,000 bytes a
     * puzzle, and a figure past them fails every MinPQ row under the official ratio (the largest reference,
     * puzzle35's, is 88.7 MB: 163 MB is the cut). The figure is then a lower bound ({@link Queues#cut}).
     */
    static final long QUEUES_BYTES_CAP = 200_000_000;
    /** How many queues' walks later walks may stop at (a Solver has one or two; some make one per node). */
    private static final int SHORTCUT_QUEUES = 16;
    /** The official reference Board's object: header, its int[] tiles and two ints (OFFICIAL-TESTS.md section 4). */
    private static final long REFERENCE_BOARD_OBJECT_BYTES = 32;

    private static final Map<Class<?>, Long> INSTANCE_BYTES = new HashMap<>();
    private static Class<?> referenceBoard;
    private static Field referenceBoardDimension;

    private DeepSize() {}

    static boolean available() {
        return MemoryAgent.instrumentation() != null;
    }

    /**
     * Our reference Board class: its objects weigh the official reference Board's. `dimension` is the field
     * holding n (read without calling the board, which would count).
     */
    static void referenceBoardIs(Class<?> board, String dimension) {
        if (board == referenceBoard) return;
        try {
            Field f = board.getDeclaredField(dimension);
            f.setAccessible(true);
            referenceBoardDimension = f;
            referenceBoard = board;
        } catch (NoSuchFieldException | RuntimeException e) {
            System.err.println("npuzzle server: the reference Board has no field " + dimension + ": " + e);
        }
    }

    /** The official reference Board's bytes for an n-by-n board: 32 + an int[n²] (24 + 4n², padded). */
    static long officialReferenceBoardBytes(int n) {
        return REFERENCE_BOARD_OBJECT_BYTES + ((24 + 4L * n * n + 7) / 8 * 8);
    }

    /** What the static fields of some classes reach at the start of a measured span, and its bytes. */
    static final class Baseline {
        final List<Class<?>> classes;
        final IdentitySet reached;
        final long bytes;

        private Baseline(List<Class<?>> classes, IdentitySet reached, long bytes) {
            this.classes = classes;
            this.reached = reached;
            this.bytes = bytes;
        }
    }

    /** Walks what `root` reaches and forgets the figure: the layouts of the classes met are then known. */
    static void walkOnce(Object root) {
        new Walk(WALK_BUDGET).visit(root, null);
    }

    /** Records what the static fields of `classes` reach now (nothing, past the walk budget). */
    static Baseline baseline(List<Class<?>> classes) {
        Walk walk = new Walk(WALK_BUDGET);
        for (Object root : StaticRoots.values(classes)) walk.visit(root, null);
        // Past the budget their growth is not measured. Nothing is written to stderr, which the report shows
        // as the submission's own output.
        if (walk.overBudget) return new Baseline(List.of(), new IdentitySet(), 0);
        return new Baseline(classes, walk.seen, walk.bytes);
    }

    /**
     * The deep size of `root`, not entering `excluded` (null for none), plus what the static fields of the
     * baseline's classes reach now beyond the baseline and beyond what `root` reaches.
     */
    static long retained(Object root, Object excluded, Baseline statics) {
        Walk walk = new Walk(WALK_BUDGET);
        if (excluded != null) walk.seen.add(excluded);
        walk.visit(root, null);
        for (Object value : StaticRoots.values(statics.classes)) walk.visit(value, statics.reached);
        // Past the budget the figure is a lower bound (said nowhere: stderr is the submission's own output).
        return walk.bytes;
    }

    /**
     * The deep size of `root`, plus the net growth of what the static fields of the baseline's classes reach:
     * their bytes now beyond what `root` reaches, less their bytes before (those `root` reaches aside), never
     * below 0. A Board whose constructor replaces a static (a print format, the dimension) by one of the same
     * size adds nothing, as in the official Board memory table, which sees no statics; one that appends to a
     * static list adds what it appended.
     */
    static long retainedByNetGrowth(Object root, Baseline statics) {
        Walk walk = new Walk(WALK_BUDGET);
        walk.tallied = statics.reached;
        walk.visit(root, null);
        walk.tallied = null;
        long own = walk.bytes;
        for (Object value : StaticRoots.values(statics.classes)) walk.visit(value, null);
        // Past the budget the figure is a lower bound (said nowhere: stderr is the submission's own output).
        long now = walk.bytes - own;
        long before = statics.bytes - walk.talliedBytesOfRoot;
        return own + Math.max(0, now - before);
    }

    /** The queues' deep sizes, summed, and whether the walks stopped before the end (a lower bound, then). */
    static final class Queues {
        final long bytes;
        final boolean cut;

        Queues(long bytes, boolean cut) {
            this.bytes = bytes;
            this.cut = cut;
        }
    }

    /**
     * The queues' deep sizes, summed: each queue's own walk over everything it reaches, so what two queues
     * reach counts once for each (OFFICIAL-TESTS.md section 4: a search node's outer Solver makes each queue
     * reach the other). The walks stop together past {@link #QUEUES_BUDGET} objects or
     * {@link #QUEUES_BYTES_CAP} bytes, and say so.
     *
     * Two queues that reach each other reach the same objects, so a walk that meets an earlier queue whose
     * walk met this one stops there and takes that queue's figure: the inner-class lockstep Solver costs one
     * walk, not two.
     *
     * `expectedObjects` is a guess at how many objects one walk meets: the items inserted since the span began
     * (measured on a twin-queue Solver of the official puzzles: each of its two walks met 527,604 and 529,234
     * objects for 528,418 inserts). Each walk's set of seen objects starts that large, within what is left of
     * the budget, not growing through twenty doublings over a million objects; a walk that stops at an earlier
     * queue at once wastes its table. Only the cost depends on it (and, with the heap nearly full, how far a
     * walk gets before it meets the heap's end).
     */
    static Queues queues(List<?> queues, long expectedObjects) {
        IdentitySet ended = new IdentitySet();
        for (Object q : queues) ended.add(q);
        List<Object> walked = new ArrayList<>();
        List<Long> figures = new ArrayList<>();
        List<IdentitySet> met = new ArrayList<>();
        long budget = QUEUES_BUDGET;
        long bytes = 0;
        boolean cut = false;
        for (Object q : queues) {
            if (budget <= 0 || bytes > QUEUES_BYTES_CAP) {
                cut = true;
                break;
            }
            Walk walk = new Walk(budget, Math.min(budget, expectedObjects));
            walk.bytesCap = QUEUES_BYTES_CAP - bytes;
            walk.queues = ended;
            walk.stopAt = new IdentitySet();
            for (int j = 0; j < walked.size(); j++) {
                if (met.get(j).contains(q)) walk.stopAt.add(walked.get(j));
            }
            walk.visit(q, null);
            long figure = walk.bytes;
            for (int j = 0; j < walked.size() && walk.stoppedAt != null; j++) {
                if (walked.get(j) == walk.stoppedAt) figure = figures.get(j);
            }
            budget -= walk.seen.size();
            if (walk.overBudget) {
                budget = 0;
                cut = true;
            }
            if (walked.size() < SHORTCUT_QUEUES) {
                walked.add(q);
                figures.add(figure);
                met.add(walk.metQueues);
            }
            bytes += figure;
        }
        return new Queues(bytes, cut);
    }

    /** One walk: the objects seen so far, the bytes counted. */
    private static final class Walk {
        final IdentitySet seen;
        private final ArrayDeque<Object> pending = new ArrayDeque<>();
        /** Where the values of the ThreadLocals and ClassValues it meets are. */
        private final KeptAside.Holders holders = new KeptAside.Holders();
        private final long budget;
        long bytes;
        /** The bytes past which the walk stops, as past its budget (no cap: Long.MAX_VALUE). */
        long bytesCap = Long.MAX_VALUE;
        boolean overBudget;
        /** Queues to note when met (null: none). */
        IdentitySet queues;
        /** The noted queues this walk met (its root among them). */
        final IdentitySet metQueues = new IdentitySet();
        /** Objects where the walk stops (null: none), and the one it stopped at. */
        IdentitySet stopAt;
        Object stoppedAt;
        /** Objects whose bytes the walk also tallies while it walks its root (null: none), and that tally. */
        IdentitySet tallied;
        long talliedBytesOfRoot;

        Walk(long budget) {
            this(budget, 0);
        }

        /** A walk whose set of seen objects starts with room for about `expected` of them. */
        Walk(long budget, long expected) {
            this.budget = budget;
            this.seen = new IdentitySet(expected);
        }

        /** Visits what `root` reaches that this walk has not seen; counts what `uncounted` (may be null) lacks. */
        void visit(Object root, IdentitySet uncounted) {
            if (root == null || overBudget) return;
            try {
                walk(root, uncounted);
            } catch (OutOfMemoryError e) {
                // the bookkeeping does not fit beside the submission's objects: stop, as past the budget
                pending.clear();
                seen.clear();
                overBudget = true;
            }
        }

        private void walk(Object root, IdentitySet uncounted) {
            if (root instanceof Thread) {
                // a thread the submission started (KeptAside#roots) is entered, whole; a thread met on the
                // way (another's, in a thread group's array) is not
                if (!seen.add(root)) return;
                walkOne(root, uncounted == null || !uncounted.contains(root));
            } else {
                pending.push(root);
            }
            while (!pending.isEmpty()) {
                Object o = pending.pop();
                if (skipped(o) || !seen.add(o)) continue;
                if (seen.size() > budget || bytes > bytesCap) {
                    overBudget = true;
                    pending.clear();
                    return;
                }
                if (queues != null && queues.contains(o)) {
                    metQueues.add(o);
                    if (stopAt.contains(o)) {
                        stoppedAt = o;
                        pending.clear();
                        return;
                    }
                }
                boolean counted = uncounted == null || !uncounted.contains(o);
                long before = bytes;
                walkOne(o, counted);
                if (tallied != null && tallied.contains(o)) talliedBytesOfRoot += bytes - before;
            }
        }

        /** Counts `o` (if `counted`) and queues what it references. */
        private void walkOne(Object o, boolean counted) {
            if (o instanceof Thread && !((Thread) o).isAlive()) {
                walkDormant(o, counted);
                return;
            }
            Class<?> c = o.getClass();
            if (c == referenceBoard) {
                if (counted) bytes += referenceBoardBytes(o);
                return;
            }
            if (c.isArray()) {
                if (counted) bytes += ObjectLayout.OFFICIAL.sizeOf(o);
                if (!c.getComponentType().isPrimitive()) {
                    for (Object e : (Object[]) o) {
                        if (e != null) pending.push(e);
                    }
                }
                return;
            }
            if (counted) bytes += instanceBytes(o);
            if (o instanceof ThreadLocal) holders.valuesOf((ThreadLocal<?>) o, pending::push);
            // a ClassValue is abstract: a submission's is of a class of its own (a JDK cache is not entered)
            if (o instanceof ClassValue && WorldLoader.isWorld(c.getClassLoader())) {
                holders.valuesOf((ClassValue<?>) o, pending::push);
            }
            for (Field f : ObjectLayout.OFFICIAL.references(c)) {
                Object v;
                try {
                    v = f.get(o);
                } catch (IllegalAccessException | RuntimeException e) {
                    continue;
                }
                if (v != null) pending.push(v);
            }
        }

        /**
         * Counts a thread that is not running, or a JDK holder of its fields (a class nested in Thread), and
         * queues what it references but the thread group and the inherited security context (every thread's,
         * not the submission's data).
         */
        @SuppressWarnings("removal") // AccessControlContext: deprecated for removal, still every thread's in 17
        private void walkDormant(Object o, boolean counted) {
            if (counted) bytes += instanceBytes(o);
            for (Field f : ObjectLayout.OFFICIAL.references(o.getClass())) {
                Object v;
                try {
                    v = f.get(o);
                } catch (IllegalAccessException | RuntimeException e) {
                    continue;
                }
                if (v == null || v instanceof ThreadGroup || v instanceof java.security.AccessControlContext) continue;
                if (v.getClass().getEnclosingClass() == Thread.class) {
                    if (seen.add(v)) walkDormant(v, counted);
                } else {
                    pending.push(v);
                }
            }
        }
    }

    /**
     * A set of objects by identity: open addressing over identity hash codes, at most half full (half the memory
     * of an IdentityHashMap, whose values a walk does not need).
     */
    static final class IdentitySet {
        private static final int SMALLEST = 64;
        /** The largest table made up front: room for a walk's whole budget at most half full. */
        private static final int LARGEST_UP_FRONT = Integer.highestOneBit((int) (2 * QUEUES_BUDGET - 1)) << 1;

        private Object[] table;
        private int size;

        IdentitySet() {
            this(0);
        }

        /**
         * A set with room for about `expected` objects before it first grows; the smallest set where the heap
         * has no room for that (a walk's own growth then meets the full heap, which it handles).
         */
        IdentitySet(long expected) {
            long wanted = Math.min(2 * Math.max(expected, 0), LARGEST_UP_FRONT);
            int length = wanted <= SMALLEST ? SMALLEST : Integer.highestOneBit((int) (wanted - 1)) << 1;
            Object[] made;
            try {
                made = new Object[length];
            } catch (OutOfMemoryError e) {
                made = new Object[SMALLEST];
            }
            table = made;
        }

        /** Adds o; false if it was there. */
        boolean add(Object o) {
            if (2 * (size + 1) > table.length) grow();
            int mask = table.length - 1;
            for (int i = slot(o, mask); ; i = (i + 1) & mask) {
                Object e = table[i];
                if (e == null) {
                    table[i] = o;
                    size++;
                    return true;
                }
                if (e == o) return false;
            }
        }

        boolean contains(Object o) {
            int mask = table.length - 1;
            for (int i = slot(o, mask); ; i = (i + 1) & mask) {
                Object e = table[i];
                if (e == null) return false;
                if (e == o) return true;
            }
        }

        int size() {
            return size;
        }

        void clear() {
            table = new Object[SMALLEST];
            size = 0;
        }

        private static int slot(Object o, int mask) {
            int h = System.identityHashCode(o) * 0x9E3779B9;
            return (h ^ (h >>> 16)) & mask;
        }

        private void grow() {
            Object[] old = table;
            table = new Object[old.length * 2];
            int mask = table.length - 1;
            for (Object o : old) {
                if (o == null) continue;
                int i = slot(o, mask);
                while (table[i] != null) i = (i + 1) & mask;
                table[i] = o;
            }
        }
    }

    private static boolean skipped(Object o) {
        return o instanceof Class || o instanceof ClassLoader || o instanceof Module
                || (o instanceof Thread && ((Thread) o).isAlive());
    }

    private static long referenceBoardBytes(Object board) {
        try {
            return officialReferenceBoardBytes(((Number) referenceBoardDimension.get(board)).intValue());
        } catch (IllegalAccessException | RuntimeException e) {
            return ObjectLayout.OFFICIAL.sizeOf(board);
        }
    }

    /**
     * An object's bytes in the model; where the running JVM's own figure shows fields reflection cannot see (it
     * differs from what the fields seen make in its layout), at least the JVM's figure.
     */
    private static long instanceBytes(Object o) {
        Class<?> c = o.getClass();
        Long bytes = INSTANCE_BYTES.get(c);
        if (bytes == null) {
            bytes = ObjectLayout.OFFICIAL.instanceSize(c);
            Instrumentation inst = MemoryAgent.instrumentation();
            long jvm = inst == null ? 0 : inst.getObjectSize(o);
            if (inst != null && jvm != ObjectLayout.COMPRESSED.instanceSize(c)) bytes = Math.max(bytes, jvm);
            INSTANCE_BYTES.put(c, bytes);
        }
        return bytes;
    }
}
