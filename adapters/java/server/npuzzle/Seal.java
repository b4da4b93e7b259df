package npuzzle;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.security.Permission;
import java.security.Policy;
import java.security.ProtectionDomain;

/**
 * The security manager that keeps a student's code out of the adapter's internals, installed once the
 * server is set up and before any student class is loaded.
 *
 * The module system already hides what the adapter's module does not export, but a student's code could
 * still reflect into open places (the reference Board's private members), reach `sun.misc.Unsafe` through
 * reflection if jdk.unsupported were resolved, stop the JVM's own threads, or replace System.out. With the
 * security manager the classes of a world ({@link WorldLoader}) hold fixed permissions, reading system
 * properties and exiting, and nothing else: no `setAccessible`, no `MethodHandles.privateLookupIn`, no class
 * loader, no thread of the system group, no file, no process, no standard stream. Every other protection
 * domain (the JDK's, this module's) is granted everything; a permission check passes only when every frame
 * on the stack holds it, so the adapter's code called from a student's is held to the student's permissions.
 *
 * JDK 17 to 23 allow it with `-Djava.security.manager=allow` (which the grader passes); a JDK that no longer
 * has a security manager (24 and later) runs without it, with the module system's walls alone (and nothing
 * then writes the replies held when a student's code halts the JVM: see {@link #install}).
 */
@SuppressWarnings("removal")
final class Seal {
    private Seal() {}

    /**
     * Installs the policy and the security manager; false when this JDK has none. `beforeExit` runs whenever
     * the process is let exit: {@code System.exit} runs the shutdown hooks, but {@code Runtime.halt} does not,
     * and both ask the security manager first. (A student's code may call {@code checkExit} itself: that only
     * writes replies already complete.)
     */
    static boolean install(Runnable beforeExit) {
        Policy.setPolicy(new Policy() {
            @Override
            public boolean implies(ProtectionDomain domain, Permission permission) {
                // a world's classes have fixed permissions; this answers for the default domain of a world's
                // loader (a proxy class a student's code defines there), which gets nothing
                return !WorldLoader.isWorld(domain.getClassLoader());
            }
        });
        PrintStream warnings = quietWarnings();
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override
                public void checkExit(int status) {
                    super.checkExit(status);
                    beforeExit.run();
                }
            });
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        } finally {
            restoreWarnings(warnings);
        }
    }

    /**
     * JDK 17 warns on the JVM's first standard error that setSecurityManager is deprecated, which would
     * lead every report's output; the warning stream is a private field of System (java.lang is open to this
     * module on the command line). Returns the stream to restore, or null if it could not be swapped.
     */
    private static PrintStream quietWarnings() {
        try {
            Field initial = System.class.getDeclaredField("initialErrStream");
            initial.setAccessible(true);
            PrintStream before = (PrintStream) initial.get(null);
            initial.set(null, new PrintStream(OutputStream.nullOutputStream()));
            return before;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static void restoreWarnings(PrintStream before) {
        if (before == null) return;
        try {
            Field initial = System.class.getDeclaredField("initialErrStream");
            initial.setAccessible(true);
            initial.set(null, before);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // the swap worked, so this does too
        }
    }
}
