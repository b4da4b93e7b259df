package npuzzle;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * The second reading of a Solver's memory, beside {@link DeepSize}'s walk: what the whole process holds, after
 * a full collection, beyond what it held before any of the submission's classes was defined. It names no place
 * a Solver could keep memory in (a field, a static, a thread, a timer's queue, an exception handler, a class
 * initializer's array): whatever is still reachable from anywhere after the collection is in the heap's
 * figure, and native memory in direct and mapped buffers is in the buffer pools'.
 *
 * The baseline is taken once, just before the first class of the submission is defined (the warm-up Solver's,
 * in the `ref` world's JVM), so what the submission's code reserves before a measured span (a static
 * initializer's table, an arena the warm-up Solver filled) is still counted by every later reading. The heap's
 * figure is each heap pool's usage right after the collection ({@link MemoryPoolMXBean#getCollectionUsage}),
 * not its usage now: a thread that allocates after the collection would otherwise show a whole new allocation
 * buffer. So it is the live data alone, in the running JVM's layout (compressed pointers: smaller than the
 * official model's), plus what the adapter and the JDK themselves came to hold since the baseline (the grader's
 * handles, a first-use cache): the grader judges it only beyond a margin no honest Solver reaches
 * (specs/protocol.md, "Memory"). The one adapter structure that grows with the Solver's search, the table of
 * boards it expanded ({@link Expanded}: about 16 bytes a board), is left out: it is the grader's evidence.
 */
final class KeptAnywhere {
    /** The heap's pools (eden, survivor and old generation under the parallel collector). */
    private static final List<MemoryPoolMXBean> HEAP = heapPools();
    /** The direct and mapped buffer pools. */
    private static final List<BufferPoolMXBean> BUFFERS = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class);

    /** The heap and the buffers held at the baseline; -1 until it is taken. */
    private static long heapAtBaseline = -1;
    private static long buffersAtBaseline;
    private static long expandedAtBaseline;

    private KeptAnywhere() {}

    /** Finds the JVM's pools now, before the security manager is installed (the server's `main`). */
    static void prepare() {
        HEAP.size();
    }

    /** What the process holds beyond its baseline, on the heap and in native buffers. */
    static final class Reading {
        final long heap;
        final long offHeap;

        Reading(long heap, long offHeap) {
            this.heap = heap;
            this.offHeap = offHeap;
        }
    }

    /**
     * Takes the baseline, the first time it is called (the submission's first class is about to be defined):
     * a full collection, then the heap's and the buffers' figures. Called by the adapter alone, before any of
     * the submission's code can be on the stack.
     */
    static synchronized void baselineOnce() {
        if (heapAtBaseline >= 0) return;
        collect();
        heapAtBaseline = heapAfterCollection();
        buffersAtBaseline = buffers();
        expandedAtBaseline = Counters.expandedTableBytes();
    }

    /**
     * A full collection, then what the process holds beyond the baseline (never below 0); nothing before the
     * baseline was taken (no class of the submission defined: it holds nothing).
     */
    static synchronized Reading sinceBaseline() {
        if (heapAtBaseline < 0) return new Reading(0, 0);
        collect();
        long heap = heapAfterCollection() - heapAtBaseline - (Counters.expandedTableBytes() - expandedAtBaseline);
        long offHeap = buffers() - buffersAtBaseline;
        return new Reading(Math.max(0, heap), Math.max(0, offHeap));
    }

    /** A full collection (the parallel collector's System.gc() is one), with the JVM's own threads. */
    private static void collect() {
        Runtime.getRuntime().gc();
    }

    private static long heapAfterCollection() {
        long used = 0;
        for (MemoryPoolMXBean pool : HEAP) {
            MemoryUsage after = pool.getCollectionUsage();
            if (after != null) used += after.getUsed();
        }
        return used;
    }

    private static long buffers() {
        long used = 0;
        for (BufferPoolMXBean pool : BUFFERS) used += Math.max(0, pool.getMemoryUsed());
        return used;
    }

    private static List<MemoryPoolMXBean> heapPools() {
        List<MemoryPoolMXBean> heap = new ArrayList<>();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) heap.add(pool);
        }
        return heap;
    }
}
