package npuzzle;

import java.lang.reflect.InvocationTargetException;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import npuzzle.Server.StudentFailure;

/**
 * Turning what a student's code threw into the failure the reply reports, without trusting the throwable.
 *
 * A student's exception class may override getMessage(), getCause() or getStackTrace() to throw, return
 * null or misbehave; so every such call is made inside a guard, and a call that throws becomes part of the
 * description ("its getMessage() threw java.lang.IllegalStateException"), never an adapter failure. Only the
 * server declares a grader fault (`err protocol`), and only for a throwable of its own: one whose class a
 * world's loader defined, or that went through a student's code on its way up, is the student's
 * ({@link #isStudents}).
 */
final class Failures {
    private Failures() {}

    /** The heap the grader started the JVM with (`-Dnpuzzle.heapMb`), for out-of-memory messages. */
    private static final long HEAP_MB = Long.getLong("npuzzle.heapMb", Runtime.getRuntime().maxMemory() >> 20);

    /** A class loader's name and the identity hash after it, in a JVM's message ({@link #withoutIdentityHashes}). */
    private static final Pattern LOADER_HASH = Pattern.compile("(of loader '[^']*') @[0-9a-f]+");

    /**
     * Loads and links what describing a failure takes (this class and its pattern, the matcher's classes, the
     * method references' call sites), before any student code runs: a Solver that fills the heap meets its
     * OutOfMemoryError with no room to load a class, and this class's first use there ended the server
     * (status 1, the row "crashed" in place of "ran out of memory"; under load, about one run in three).
     */
    static void prepare() {
        failure(new IllegalStateException(null, new Error("prepared, of loader 'own' @0")));
        failure(new OutOfMemoryError("prepared"));
    }

    /**
     * The failure a request reports for `t` when it is the student's (what their code threw, the adapter's
     * verdict on their values, a stack their recursion filled), or null when it is the adapter's own.
     */
    static StudentFailure ofStudent(Throwable t) {
        boolean students = t instanceof StudentFailure || t instanceof StackOverflowError || isStudents(t);
        return students ? failure(t) : null;
    }

    /** Turns whatever a call into student code threw into the failure the reply reports. */
    static StudentFailure failure(Throwable t) {
        if (t instanceof InvocationTargetException && !isStudentClass(t)) {
            Throwable target = ((InvocationTargetException) t).getTargetException();
            if (target != null) t = target;
        }
        if (t instanceof StudentFailure) return (StudentFailure) t;
        String type = t.getClass().getName();
        if (t instanceof IllegalArgumentException && t.getClass() != IllegalArgumentException.class) {
            // what `catch (IllegalArgumentException e)` catches: the grader accepts it where it asks for one
            // (new Solver(null)), as the official grader does
            type += "(java.lang.IllegalArgumentException)";
        }
        if (t instanceof OutOfMemoryError) {
            // Where the allocation failed varies from run to run, so only the kind of memory and the heap.
            String message = guarded(t::getMessage, "getMessage()");
            String what = message == null ? "" : message + " ";
            return new StudentFailure(type, what + "(heap " + HEAP_MB + " MB)");
        }
        return new StudentFailure(type, describe(t));
    }

    /** A throwable's message followed by where in the student's code it was thrown, if known. */
    static String describe(Throwable t) {
        String message = guarded(t::getMessage, "getMessage()");
        if (message == null) message = "";
        Throwable cause = guardedCause(t);
        if (message.isEmpty() && cause != null && cause != t) {
            // ExceptionInInitializerError and friends: the cause is what the student needs to see
            String causeMessage = guarded(cause::getMessage, "getMessage()");
            message = "caused by " + cause.getClass().getName() + (causeMessage == null ? "" : ": " + causeMessage);
            t = cause;
        }
        message = withoutIdentityHashes(message);
        String where = where(t);
        if (where == null) return message;
        return message.isEmpty() ? "(at " + where + ")" : message + " (at " + where + ")";
    }

    /**
     * `message` without the identity hash the JVM writes after a class loader's name ("Board is in unnamed
     * module of loader 'own' @70177ecd", in a ClassCastException's message): it depends on what the process
     * hashed before, and the same submission's report must read the same from run to run.
     */
    static String withoutIdentityHashes(String message) {
        return LOADER_HASH.matcher(message).replaceAll("$1");
    }

    /** The first frame of a student's file in t's stack trace, as `Board.java:12`, or null. */
    private static String where(Throwable t) {
        StackTraceElement[] trace;
        try {
            trace = t.getStackTrace();
        } catch (Throwable e) {
            return null;
        }
        if (trace == null) return null;
        for (StackTraceElement e : trace) {
            if (e != null && isStudentFrame(e) && e.getFileName() != null) {
                return e.getLineNumber() >= 0 ? e.getFileName() + ":" + e.getLineNumber() : e.getFileName();
            }
        }
        return null;
    }

    /** The value of a student-overridable call, or a note of what it threw instead. */
    private static String guarded(Supplier<String> call, String what) {
        try {
            return call.get();
        } catch (Throwable e) {
            return "its " + what + " threw " + e.getClass().getName();
        }
    }

    private static Throwable guardedCause(Throwable t) {
        try {
            return t.getCause();
        } catch (Throwable e) {
            return null;
        }
    }

    /** Whether a frame is a student's: a class of the `own` or `ref` world (not the reference Board's). */
    private static boolean isStudentFrame(StackTraceElement e) {
        String loader = e.getClassLoaderName();
        return "own".equals(loader) || "ref".equals(loader);
    }

    private static boolean isStudentClass(Throwable t) {
        return WorldLoader.isWorld(t.getClass().getClassLoader());
    }

    /**
     * Whether a throwable that reached the server's last resort is the student's: its class (or its cause's)
     * was defined by a world's loader, or its stack trace (of a JDK class, so not overridden) passes through a
     * student's frame. Otherwise it is the adapter's own failure.
     */
    static boolean isStudents(Throwable t) {
        for (int depth = 0; t != null && depth < 8; depth++) {
            if (isStudentClass(t)) return true;
            for (StackTraceElement e : t.getStackTrace()) {
                if (isStudentFrame(e)) return true;
            }
            t = t.getCause();
        }
        return false;
    }
}
