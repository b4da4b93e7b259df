package npuzzle;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

import npuzzle.Server.StudentFailure;

/**
 * The memory requests (`memory_board`, `memory_solver`, `memory_retained`, and the queues' deep size at
 * `counters`): what each measures and over which span, on top of {@link DeepSize}. See the README's Memory
 * section.
 */
final class Memory {
    /** The Board class and its nested classes, whose statics a Board's measurement watches. */
    private static final Predicate<String> BOARD_CLASSES = name -> name.equals("Board") || name.startsWith("Board$");

    /** The world this process serves. */
    private final World world;
    /** The Solver `memory_solver` built last (weakly held) and what the statics reached before it was built. */
    private WeakReference<Object> lastSolver = new WeakReference<>(null);
    private DeepSize.Baseline lastSolverStatics;
    /** The Solver whose solution() a `solution` request called last, and what it returned (both weakly held). */
    private WeakReference<Object> solutionOf = new WeakReference<>(null);
    private WeakReference<Object> solutionReturned = new WeakReference<>(null);

    /** The request thread's CPU clock, in nanoseconds (the server's, which times every request). */
    private final LongSupplier cpu;

    Memory(World world, LongSupplier cpu) {
        this.world = world;
        this.cpu = cpu;
    }

    /** A Solver `memory_solver` built, its bytes, and the CPU the two walks took (microseconds). */
    static final class Measured {
        final Object value;
        final long bytes;
        final long walksMicros;

        Measured(Object value, long bytes, long walksMicros) {
            this.value = value;
            this.bytes = bytes;
            this.walksMicros = walksMicros;
        }
    }

    /**
     * `memory_board`: one new Board's bytes, and the net growth of what the Board classes' statics reach
     * while it is built (a static the constructor rewrites with a value of the same size adds nothing, as in
     * the official table, which sees no statics).
     */
    long ofNewBoard(World world, int[][] rows) throws StudentFailure {
        // Two Boards built first from the same tiles set what a constructor writes into statics, so the
        // measured one is judged on what it adds, even in a program that has built no Board yet. Two, because a
        // cache can grow a call late: HashMap.computeIfAbsent puts the first board's new key and leaves the
        // table's doubling, when that key filled it, to its next call (a Board caching a table per n, whose
        // doubling the measured Board was charged with at one size in a dozen).
        for (int warm = 0; warm < 2; warm++) {
            int[][] copy = new int[rows.length][];
            for (int r = 0; r < rows.length; r++) copy[r] = rows[r].clone();
            world.newBoard(copy);
        }
        DeepSize.Baseline statics = staticsBefore(world, BOARD_CLASSES);
        Object board = world.newBoard(rows);
        return DeepSize.retainedByNetGrowth(board, statics);
    }

    /**
     * `memory_solver`: a new Solver's bytes after construction, and what the statics grew by meanwhile. The
     * walks' CPU is reported so the grader can leave it off the Solver's charge; the classes' initialization
     * is not part of it (a static initializer is the submission's work).
     */
    Measured ofNewSolver(World world, Object board) throws StudentFailure {
        List<Class<?>> classes = StaticRoots.of(world.loader(), name -> true, referenceBoard());
        long start = cpu.getAsLong();
        DeepSize.Baseline statics = DeepSize.baseline(classes);
        long walks = cpu.getAsLong() - start;
        Object solver = Server.solve(world, board);
        start = cpu.getAsLong();
        long bytes = DeepSize.retained(solver, null, statics);
        walks += cpu.getAsLong() - start;
        lastSolver = new WeakReference<>(solver);
        lastSolverStatics = statics;
        return new Measured(solver, bytes, Math.max(0, walks) / 1000);
    }

    /** A `solution` request's Solver and what its solution() returned, for {@link #retainedBy}'s first walk. */
    void solutionReturned(Object solver, Object solution) {
        solutionOf = new WeakReference<>(solver);
        solutionReturned = new WeakReference<>(solution);
    }

    /**
     * `memory_retained`: measures the Solver as {@link #ofNewSolver} measures a new one, as the calls before
     * left it (not entering what its last solution() returned), then calls moves(), isSolvable() and
     * solution() (an exception from any is ignored) and measures it again (not entering what solution()
     * returned now): the larger. The first walk is the Solver its life's own calls left, so a Solver that
     * counts its calls cannot let its search go at the first call of the weighing; the calls are for a life
     * whose own calls failed before a lazy Solver did its work. The statics' growth counts from before the
     * Solver was built when `memory_solver` built it (that record then goes: a later `memory_retained` counts
     * from its own request), else from now.
     */
    long retainedBy(World world, Object solver) throws StudentFailure {
        DeepSize.Baseline statics = lastSolver.get() == solver ? lastSolverStatics : null;
        lastSolver = new WeakReference<>(null);
        lastSolverStatics = null;
        if (statics == null) statics = staticsBefore(world, name -> true);
        Object returned = solutionOf.get() == solver ? solutionReturned.get() : null;
        long left = DeepSize.retained(solver, returned, statics);
        callIgnoringFailure(world, solver, "moves");
        callIgnoringFailure(world, solver, "isSolvable");
        Object solution = callIgnoringFailure(world, solver, "solution");
        return Math.max(left, DeepSize.retained(solver, solution, statics));
    }

    /**
     * The deep sizes of the queues that ended at `counters`, summed (each its own walk); `inserted` items went
     * into queues since the span began (each walk is sized for about that many objects).
     */
    DeepSize.Queues ofQueues(List<QueueRegistry.Tracked> ended, long inserted) {
        if (ended.isEmpty()) return new DeepSize.Queues(0, false);
        referenceBoard();
        return DeepSize.queues(ended, inserted);
    }

    /** A test that calls this method judges its exception; here the call only charges a lazy Solver's work. */
    private static Object callIgnoringFailure(World world, Object solver, String method) {
        try {
            return world.call(solver, method);
        } catch (StudentFailure ignored) {
            return null;
        }
    }

    /**
     * What the statics of a world's classes (those `which` names) reach before a measured span, the classes
     * initialized first so their initializers' work is never counted.
     */
    private DeepSize.Baseline staticsBefore(World world, Predicate<String> which) throws StudentFailure {
        Class<?> standIn = referenceBoard();
        return DeepSize.baseline(StaticRoots.of(world.loader(), which, standIn));
    }

    /**
     * Our reference Board class, told to DeepSize (loading it); null in the own world's process, which never
     * holds it, or if it cannot be loaded.
     */
    private Class<?> referenceBoard() {
        if (!world.name.equals("ref")) return null;
        try {
            Class<?> board = world.boardClass();
            DeepSize.referenceBoardIs(board, "n");
            return board;
        } catch (StudentFailure e) {
            return null;
        }
    }
}
