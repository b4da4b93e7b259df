package npuzzle;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;

/**
 * The young generation's first touch, paid before any student code runs. The kernel hands a process its
 * memory a page at a time, on first touch, and the thread that touches a fresh page pays for it (a fault,
 * and zeroing the page). The collector's eden is touched first by the threads that allocate in it: left to
 * them, the student's request thread pays for up to a gigabyte of fresh pages in its first large search (the
 * `ref` world starts with a 1 GB young generation when the plan's searches are large: build/jvm.rs), time
 * that is not the student's work and that a smaller young generation would not have shown. So such a server
 * (the grader sets {@code npuzzle.firstTouch}) fills eden once with garbage on the main thread at start,
 * before the request thread exists; after that eden's pages stay with the process, and the request thread
 * pays only for what its code allocates. Not done for small searches: touching a gigabyte costs about 0.25 s
 * of CPU, which a JVM that never fills its eden would spend for nothing.
 */
final class FirstTouch {
    private FirstTouch() {}

    /** Allocated in these pieces: each one is zeroed, so every page of it is touched. */
    private static final int PIECE = 1 << 20;

    /** Keeps the allocations from being optimized away. */
    private static volatile byte[] sink;

    /** Touches every committed page of eden that is not in use, if the grader asked for it. */
    static void eden() {
        if (!Boolean.getBoolean("npuzzle.firstTouch")) return;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP || !pool.getName().endsWith("Eden Space")) continue;
            MemoryUsage usage = pool.getUsage();
            for (long left = usage.getCommitted() - usage.getUsed(); left > PIECE; left -= PIECE) {
                sink = new byte[PIECE];
            }
        }
        sink = null;
    }
}
