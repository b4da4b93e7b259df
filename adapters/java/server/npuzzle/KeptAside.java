package npuzzle;

import java.lang.instrument.Instrumentation;
import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.Consumer;

/**
 * Memory a submission keeps aside from its objects and static fields, where the JVM rather than a field of its
 * own holds it: the values of its ThreadLocals (in each thread's map) and ClassValues (in each class's map), and
 * whatever a thread it started holds. {@link DeepSize} follows them all: a ThreadLocal or ClassValue the walk
 * meets leads to its values, and the threads the submission started are roots beside its static fields, each
 * walked whole (every field of the thread object: its task and what that captured, its thread-local values,
 * its uncaught-exception handler, the fields of a Thread subclass, a JDK worker's queue such as a Timer's),
 * counted by how much they grew. No field of a thread is singled out: one that is not listed cannot be missed.
 *
 * What a running thread holds in its stack's local variables alone is out of any walk's reach (the official
 * grader's walk sees none of this); the second reading ({@link KeptAnywhere}) weighs it with everything else
 * the process keeps.
 */
final class KeptAside {
    /** The threads that are the adapter's or the JVM's (alive before any student class loaded). */
    private static final Set<Thread> OWN = Collections.newSetFromMap(new IdentityHashMap<>());

    private static final Field THREAD_LOCALS = field(Thread.class, "threadLocals");
    private static final Field INHERITABLE_THREAD_LOCALS = field(Thread.class, "inheritableThreadLocals");
    private static final Field MAP_TABLE = field(nested("java.lang.ThreadLocal$ThreadLocalMap"), "table");
    private static final Field ENTRY_VALUE = field(nested("java.lang.ThreadLocal$ThreadLocalMap$Entry"), "value");
    private static final Field CLASS_VALUE_MAP = field(Class.class, "classValueMap");
    private static final Field CLASS_VALUE_IDENTITY = field(ClassValue.class, "identity");
    private static final Field CLASS_VALUE_ENTRY_VALUE = field(nested("java.lang.ClassValue$Entry"), "value");

    private KeptAside() {}

    /** Records the threads alive now, and `more` (started later), as the adapter's and the JVM's own. */
    static synchronized void ownThreadsAreAliveNowAnd(Thread... more) {
        OWN.addAll(Arrays.asList(live()));
        OWN.addAll(Arrays.asList(more));
    }

    /**
     * The live threads the submission started (any thread that is not the adapter's or the JVM's), which the
     * walk enters as roots: what each holds through any of its fields counts. The common fork-join pool's
     * workers of the JDK's own classes are the JVM's, whoever's task made the pool start them (a parallel
     * stream, a CompletableFuture): walked whole, one reaches the pool and every worker's queue, 5 KB the
     * official model never sees. What a student's task keeps there (its locals, a queued task's captures) is
     * the second reading's. A ForkJoinWorkerThread subclass of the student's own, even one naming the common
     * pool, is a thread the student started, walked whole.
     */
    static List<Object> roots() {
        List<Object> roots = new ArrayList<>();
        for (Thread t : live()) {
            if (!isOwn(t) && !isCommonPoolWorker(t)) roots.add(t);
        }
        return roots;
    }

    private static boolean isCommonPoolWorker(Thread t) {
        return t instanceof ForkJoinWorkerThread
                && t.getClass().getClassLoader() == null
                && ((ForkJoinWorkerThread) t).getPool() == ForkJoinPool.commonPool();
    }

    /**
     * The holders of a ThreadLocal's and a ClassValue's values, for one walk: the live threads and the loaded
     * classes, each listed once, however many ThreadLocals and ClassValues the walk meets.
     */
    static final class Holders {
        private Thread[] threads;
        private Class<?>[] classes;

        /** Gives `found` the value `key` has in each live thread. */
        void valuesOf(ThreadLocal<?> key, Consumer<Object> found) {
            if (threads == null) threads = live();
            for (Thread t : threads) {
                eachValue(read(THREAD_LOCALS, t), key, found);
                eachValue(read(INHERITABLE_THREAD_LOCALS, t), key, found);
            }
        }

        /** Gives `found` the value `key` holds for each loaded class (none where the agent is missing). */
        void valuesOf(ClassValue<?> key, Consumer<Object> found) {
            Object identity = read(CLASS_VALUE_IDENTITY, key);
            if (identity == null) return;
            if (classes == null) {
                Instrumentation inst = MemoryAgent.instrumentation();
                classes = inst == null ? new Class<?>[0] : inst.getAllLoadedClasses();
            }
            for (Class<?> c : classes) {
                Object map = read(CLASS_VALUE_MAP, c);
                if (!(map instanceof Map)) continue;
                Object entry;
                synchronized (map) {
                    entry = ((Map<?, ?>) map).get(identity);
                }
                Object value = read(CLASS_VALUE_ENTRY_VALUE, entry);
                if (value != null) found.accept(value);
            }
        }
    }

    private static synchronized boolean isOwn(Thread t) {
        return OWN.contains(t);
    }

    /** The values of a thread's ThreadLocal map (null: none), those of `key` alone unless it is null. */
    private static void eachValue(Object map, ThreadLocal<?> key, Consumer<Object> found) {
        Object table = read(MAP_TABLE, map);
        if (!(table instanceof Object[])) return;
        for (Object entry : (Object[]) table) {
            if (entry == null || (key != null && ((Reference<?>) entry).get() != key)) continue;
            Object value = read(ENTRY_VALUE, entry);
            if (value != null) found.accept(value);
        }
    }

    private static Thread[] live() {
        ThreadGroup root = Thread.currentThread().getThreadGroup();
        while (root.getParent() != null) root = root.getParent();
        Thread[] threads = new Thread[root.activeCount() + 16];
        int n;
        while ((n = root.enumerate(threads, true)) == threads.length) threads = new Thread[threads.length * 2];
        return Arrays.copyOf(threads, n);
    }

    private static Object read(Field f, Object o) {
        if (f == null || o == null) return null;
        try {
            return f.get(o);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    /** A field made readable, or null where this JDK has no such field (or does not open it to us). */
    private static Field field(Class<?> c, String name) {
        if (c == null) return null;
        try {
            return readable(c.getDeclaredField(name));
        } catch (NoSuchFieldException | RuntimeException e) {
            return null;
        }
    }

    private static Field readable(Field f) {
        return ObjectLayout.accessible(f) ? f : null;
    }

    private static Class<?> nested(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
