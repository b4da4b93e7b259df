package npuzzle;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.Permissions;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PropertyPermission;
import java.util.Set;

/**
 * A class loader of a world: it defines the classes compiled into one directory (read whole when the
 * loader is made, so loading never touches a file on a student's behalf) and shows them the textbook
 * stand-ins of edu.princeton.cs.algs4 and the platform's classes, and nothing else of the adapter: a name
 * in another package of the adapter's module is not found, whoever asks.
 *
 * The `own` world is one loader over the student's Board and Solver. The `ref` world is two: the reference
 * Board in a loader of its own (named `refboard`) and the student's Solver, compiled against it, in a loader
 * named `ref` that takes `Board` from the first; so the student's classes and the reference Board are in
 * different unnamed modules. Stack traces name a loader: `own` and `ref` frames are the student's.
 *
 * Every class defined here gets the same protection domain, whose permissions are fixed (the security
 * policy is never consulted for it): reading system properties and exiting the JVM, nothing more (see
 * {@link Seal}).
 */
final class WorldLoader extends ClassLoader {
    private static final String TEXTBOOK = "edu.princeton.cs.algs4";
    private static final ClassLoader ADAPTER = WorldLoader.class.getClassLoader();
    private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
    private static final Set<String> ADAPTER_PACKAGES = WorldLoader.class.getModule().getPackages();

    /** Class files not defined yet, by binary name. */
    private final Map<String, byte[]> pending = new HashMap<>();
    /** Every class name this loader defines. */
    private final Set<String> names;
    private final ProtectionDomain domain;
    /** The loader `Board` comes from, when it is not this one (the `ref` world's Solver loader), or null. */
    private final WorldLoader boards;
    /** Whether it defines the student's classes (not our reference Board's). */
    private final boolean student;

    private WorldLoader(String name, Path dir, WorldLoader boards, boolean student) throws IOException {
        super(name, null);
        this.student = student;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.class")) {
            for (Path file : files) {
                String fileName = file.getFileName().toString();
                pending.put(fileName.substring(0, fileName.length() - ".class".length()), Files.readAllBytes(file));
            }
        }
        this.names = Set.copyOf(pending.keySet());
        this.boards = boards;
        this.domain = new ProtectionDomain(new CodeSource(dir.toUri().toURL(), (Certificate[]) null), granted());
    }

    /** The loader of the student's classes in `dir` (`own` or `ref`); `boards` supplies `Board`, or null. */
    static WorldLoader student(String world, Path dir, WorldLoader boards) throws IOException {
        return new WorldLoader(world, dir, boards, true);
    }

    /** The loader of the reference Board's classes in `dir`. */
    static WorldLoader referenceBoard(Path dir) throws IOException {
        return new WorldLoader("refboard", dir, null, false);
    }

    /** The binary names of the classes this loader defines, sorted. */
    List<String> classNames() {
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(null);
        return sorted;
    }

    /** What the classes of every world may do beyond pure computation. */
    private static Permissions granted() {
        Permissions permissions = new Permissions();
        // `System.getProperty("line.separator")` in a toString()
        permissions.add(new PropertyPermission("*", "read"));
        // System.exit ends the process, as it does without a security manager (the grader reports a crash)
        permissions.add(new RuntimePermission("exitVM.*"));
        permissions.setReadOnly();
        return permissions;
    }

    /** Whether a loader is a world's: its classes are a student's (or the reference Board). */
    static boolean isWorld(ClassLoader loader) {
        return loader instanceof WorldLoader;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) c = locate(name);
            if (resolve) resolveClass(c);
            return c;
        }
    }

    private Class<?> locate(String name) throws ClassNotFoundException {
        if (boards != null && boards.names.contains(name)) return boards.loadClass(name);
        if (names.contains(name)) return findClass(name);
        int dot = name.lastIndexOf('.');
        String pkg = dot < 0 ? "" : name.substring(0, dot);
        if (pkg.equals(TEXTBOOK)) return Class.forName(name, false, ADAPTER);
        if (ADAPTER_PACKAGES.contains(pkg)) throw new ClassNotFoundException(name);
        return PLATFORM.loadClass(name);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] bytes = pending.remove(name);
        if (bytes == null) throw new ClassNotFoundException(name);
        // what the process holds before the submission's first class is the baseline of the second reading
        if (student) KeptAnywhere.baselineOnce();
        return defineClass(name, bytes, 0, bytes.length, domain);
    }
}
