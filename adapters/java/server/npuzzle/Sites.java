package npuzzle;

import java.lang.management.ThreadMXBean;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Where in the student's code the counted operations come from (`call_sites`, specs/protocol.md).
 *
 * {@link Counters} calls {@link #sample} at every {@link #PERIOD}-th operation of each sampled counter (the
 * 1st, the 129th, ... since `counters_reset sites`: {@link #due}; a plain `counters_reset` stops sampling),
 * which records the innermost frame of a student's class on the calling thread's stack as `Solver.java:42`.
 * A student's class is one of the unnamed module of the world's class loader ({@link #watch}): the reference
 * Board (in the `refboard` loader's module), the textbook stand-ins, the adapter and the JDK are not the
 * student's, so `manhattan()` called by the reference `isGoal()` is sampled at the Solver's `isGoal()` line. Deterministic (it depends on the counts and the
 * stack alone); its CPU is measured on the thread that samples, a student's helper thread too, and the grader
 * takes it off the Solver's charge.
 *
 * The walker keeps class references, which a security manager allows only to code holding
 * `getStackWalkerWithClassReference`: it is made in a privileged block (a walk itself is not checked). At
 * most {@link #MOST_SITES} (counter, line) pairs are told apart; samples past them count as `elsewhere`.
 * Samples are recorded under this class's own lock, since a helper thread may sample while the request thread
 * does. Nothing is sampled until the server, after {@link #watch}, answers `counters_reset sites`: a student
 * who compiles the textbook classes to run a Solver at home gets them without sampling.
 */
@SuppressWarnings("removal")
final class Sites {
    private Sites() {}

    /** One operation in this many is sampled (the grader's SAMPLING_PERIOD); a power of two. */
    static final int PERIOD = 128;
    static final int MOST_SITES = 1000;
    /**
     * Whether operations are sampled: from `counters_reset sites` to the next `counters_reset` (the grader
     * samples only a life it lives again to explain a failing count, never one it judges). Off at start.
     */
    private static volatile boolean sampling;
    /** Every one of the JVM's first this-many samples is timed (the walk's code is still being compiled). */
    private static final long TIMED_FIRST = 1024;
    /** Past those, one sample in this many, picked at random (a hash of its number), is timed for them all. */
    private static final long TIMED_ONE_IN = 8;

    private static final StackWalker WALKER = AccessController.doPrivileged(
            (PrivilegedAction<StackWalker>) () -> StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE));
    /** The innermost frame of a student's class with a source file, or null (a plain loop: it runs often). */
    private static final Function<Stream<StackWalker.StackFrame>, StackWalker.StackFrame> INNERMOST = frames -> {
        Module module = Sites.student;
        for (Iterator<StackWalker.StackFrame> i = frames.iterator(); i.hasNext(); ) {
            StackWalker.StackFrame frame = i.next();
            if (frame.getDeclaringClass().getModule() == module && frame.getFileName() != null) return frame;
        }
        return null;
    };

    /** The module of the student's classes (the world loader's unnamed module), set by {@link #watch}. */
    private static volatile Module student;
    /** The threads' CPU clocks, or null where the JVM has none. */
    private static ThreadMXBean clocks;
    /** Samples taken in this JVM, on every thread (a helper thread's race only shifts which one is timed). */
    private static long taken;
    /** Samples by `counter@site`. */
    private static final Map<String, long[]> SAMPLES = new HashMap<>();
    private static long cpuNs;

    /**
     * Samples the frames of classes in `studentCode` from now on, timed with `threads` (whose CPU time is
     * enabled). Called before any student class is loaded; its first walk loads what every walk needs.
     */
    static void watch(Module studentCode, ThreadMXBean threads) {
        WALKER.walk(INNERMOST);
        clocks = threads.isCurrentThreadCpuTimeSupported() ? threads : null;
        student = studentCode;
    }

    /** Whether the count an operation just reached is a sampling point (1, 129, 257, ...). */
    static boolean due(long count) {
        return sampling && (count & (PERIOD - 1)) == 1;
    }

    /**
     * Records the student's innermost line on the calling thread's stack as one sample of `counter`, and the
     * CPU that took. A sample costs about 3 µs, nearly all of it the walk. A reading of the thread's CPU clock
     * costs about 0.5 µs, and half of each of the two readings around a sample falls outside the span they
     * time: timing every sample charged a fast Solver a third more CPU. So past the first {@link #TIMED_FIRST}
     * samples one in {@link #TIMED_ONE_IN} is timed and counts for that many, chosen by a hash of its number:
     * a Solver's samples come in a repeating order of counters, and timing every 8th timed some of them only
     * (10 to 20% too little on the `valid` Solver). A third reading right after the second measures what one
     * costs, so the estimate is the walk's CPU times the weight, plus the three readings.
     */
    static void sample(String counter) {
        long n = taken++;
        long weight = n < TIMED_FIRST ? 1 : timed(n) ? TIMED_ONE_IN : 0;
        long start = weight == 0 ? 0 : cpuNow();
        String site;
        try {
            StackWalker.StackFrame frame = WALKER.walk(INNERMOST);
            site = frame == null ? null : token(frame.getFileName()) + ":" + Math.max(0, frame.getLineNumber());
        } catch (StackOverflowError | OutOfMemoryError e) {
            // the student's recursion or heap is at its limit: this sample is lost, and the student's own code
            // meets the limit next, as it would have without sampling
            site = null;
        }
        synchronized (SAMPLES) {
            if (site != null) record(counter, site);
            if (weight != 0) {
                long end = cpuNow();
                long reading = cpuNow() - end;
                // the span [start, end] holds the walk and about one reading; the three readings cost three
                cpuNs += Math.max(0, weight * (end - start - reading) + 3 * reading);
            }
        }
    }

    /** Whether sample `n` is timed: one in {@link #TIMED_ONE_IN}, by the low bits of a 64-bit mix of `n`. */
    private static boolean timed(long n) {
        long z = n * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return ((z ^ (z >>> 31)) & (TIMED_ONE_IN - 1)) == 0;
    }

    private static void record(String counter, String site) {
        String key = counter + "@" + site;
        long[] n = SAMPLES.get(key);
        if (n == null) {
            if (SAMPLES.size() >= MOST_SITES) {
                key = counter + "@elsewhere";
                n = SAMPLES.get(key);
            }
            if (n == null) SAMPLES.put(key, n = new long[1]);
        }
        n[0]++;
    }

    /** A source file's name as one protocol token: spaces, `=`, `@` and unprintable characters written `_`. */
    private static String token(String fileName) {
        StringBuilder sb = new StringBuilder(fileName.length());
        for (int i = 0; i < fileName.length(); i++) {
            char c = fileName.charAt(i);
            boolean printable = c > ' ' && !Character.isISOControl(c) && !Character.isWhitespace(c);
            sb.append(printable && c != '=' && c != '@' ? c : '_');
        }
        return sb.toString();
    }

    private static long cpuNow() {
        ThreadMXBean threads = clocks;
        return threads == null ? 0 : threads.getCurrentThreadCpuTime();
    }

    /** Forgets every sample and the sampling's CPU (`counters_reset`). */
    static void reset(boolean sample) {
        synchronized (SAMPLES) {
            SAMPLES.clear();
            cpuNs = 0;
        }
        sampling = sample;
    }

    /** The `call_sites` reply: the sampling's CPU, then `counter@site=samples` sorted by counter and site. */
    static String encode() {
        StringBuilder sb = new StringBuilder(64);
        synchronized (SAMPLES) {
            sb.append("sampling_cpu_ns=").append(cpuNs);
            List<String> keys = new ArrayList<>(SAMPLES.keySet());
            keys.sort(null);
            for (String key : keys) sb.append(' ').append(key).append('=').append(SAMPLES.get(key)[0]);
        }
        return sb.toString();
    }
}
