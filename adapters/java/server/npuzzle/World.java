package npuzzle;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import npuzzle.Server.StudentFailure;

/**
 * The world this process serves: the class loaders holding its Board and Solver (own: the student's; ref:
 * our reference Board and the student's Solver compiled against it, see {@link WorldLoader}), and
 * reflective calls into them. The student's classes are loaded lazily, on the first request that needs
 * them.
 *
 * Every call into a student's code, and every look at what it returned, is guarded: whatever it throws
 * (from a constructor, a method, a class initializer, an Iterable, or while the server looks its classes
 * over) is the student's failure ({@link Failures}), and a returned value is used only once its type is
 * known to be the JDK's or the world's Board.
 */
final class World {
    private static final Method OBJECT_EQUALS;

    static {
        try {
            OBJECT_EQUALS = Object.class.getMethod("equals", Object.class);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String name;
    private final WorldLoader loader;
    /** Why this world has no Solver (the student's Solver.java did not compile against our Board), or null. */
    private final String solverUnavailable;

    private Class<?> board;
    private Class<?> solver;
    private Constructor<?> boardConstructor;
    private Constructor<?> solverConstructor;
    /**
     * What a class's static initializer threw when {@link #initialize} ran it, by class name, until the
     * first construction of that class reports it.
     */
    private final Map<String, Throwable> initializerFailures = new HashMap<>();
    private final Map<String, Method> methods = new HashMap<>();
    private Method equalsOverload;
    private boolean equalsResolved;

    private World(String name, WorldLoader loader, String solverUnavailable) {
        this.name = name;
        this.loader = loader;
        this.solverUnavailable = solverUnavailable;
    }

    /**
     * The world the command line names: `--own DIR`, or `--ref DIR --board DIR [--ref-error FILE]` (DIR the
     * student's classes, `--board` the reference Board's, `--ref-error` javac's log when the student's Solver
     * did not compile against it). In the ref world the reference Board is initialized here, with its meter.
     */
    static World from(String[] args) throws Exception {
        String world = null;
        Path classes = null;
        Path boardDir = null;
        Path refError = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            Path value = Paths.get(args[i + 1]);
            switch (args[i]) {
                case "--own": world = "own"; classes = value; break;
                case "--ref": world = "ref"; classes = value; break;
                case "--board": boardDir = value; break;
                case "--ref-error": refError = value; break;
                default: return usage("unknown argument " + args[i]);
            }
        }
        if (world == null || args.length % 2 != 0 || world.equals("ref") != (boardDir != null)) return usage(null);
        if (world.equals("own")) return new World("own", WorldLoader.student("own", classes, null), null);
        WorldLoader boards = WorldLoader.referenceBoard(boardDir);
        BoardMeter.handTo(Class.forName("Board", false, boards));
        String failure = refError == null ? null : new String(Files.readAllBytes(refError), StandardCharsets.UTF_8);
        return new World("ref", WorldLoader.student("ref", classes, boards), failure);
    }

    private static World usage(String problem) {
        if (problem != null) System.err.println("npuzzle server: " + problem);
        System.err.println("usage: npuzzle.Server (--own DIR | --ref DIR --board DIR [--ref-error FILE])");
        System.exit(2);
        return null;
    }

    /** The loader of the student's classes. */
    ClassLoader loader() {
        return loader;
    }

    Class<?> boardClass() throws StudentFailure {
        if (board == null) board = load("Board");
        return board;
    }

    Class<?> solverClass() throws StudentFailure {
        if (solver == null) {
            if (solverUnavailable != null) {
                throw new StudentFailure("npuzzle.SolverDoesNotCompileWithReferenceBoard",
                        "Solver.java does not compile against the reference Board, so it cannot be run over it "
                                + "(a Solver may use only the Board API):\n" + solverUnavailable);
            }
            solver = load("Solver");
        }
        return solver;
    }

    private Class<?> load(String className) throws StudentFailure {
        try {
            return Class.forName(className, false, loader);
        } catch (ClassNotFoundException e) {
            throw new StudentFailure("java.lang.NoClassDefFoundError", "no class " + className + " in the " + name + " world");
        } catch (Throwable t) {
            throw Failures.failure(t);
        }
    }

    /**
     * Runs the static initializer of the student's class this world serves first (the own world's Board, the
     * ref world's Solver) now, in the handshake, whose budget is the program's start
     * (`limits.startup_cpu_seconds`): a class that builds a table when it is initialized (seconds, for a
     * pattern database) pays for it once per process, as in the official grader's single run, and not inside
     * its first construction's budget (there, a Solver's 6 s initializer failed the first solve, and each
     * restarted process paid it again in the next one). Not the own world's Solver: an initializer that never
     * ends would then fail the Board tests too, which never use it. What an initializer throws waits for the
     * class's first construction, which reports it as it would have been reported there ({@link #construct});
     * a class that is missing or cannot be loaded is left to its first use.
     */
    void initialize() {
        Class<?> first;
        try {
            first = name.equals("own") ? boardClass() : solverClass();
        } catch (StudentFailure e) {
            return; // no such class, or no Solver in this world: its first use says so
        }
        try {
            Class.forName(first.getName(), true, loader);
        } catch (Throwable t) {
            initializerFailures.put(first.getName(), t);
        }
    }

    Object newBoard(int[][] rows) throws StudentFailure {
        if (boardConstructor == null) boardConstructor = constructor(boardClass(), int[][].class, "Board(int[][])");
        return construct(boardConstructor, rows);
    }

    Object newSolver(Object initial) throws StudentFailure {
        if (solverConstructor == null) solverConstructor = constructor(solverClass(), boardClass(), "Solver(Board)");
        return construct(solverConstructor, initial);
    }

    private static Constructor<?> constructor(Class<?> c, Class<?> parameter, String what) throws StudentFailure {
        try {
            Constructor<?> k = c.getDeclaredConstructor(parameter);
            k.setAccessible(true);
            return k;
        } catch (NoSuchMethodException e) {
            throw new StudentFailure("java.lang.NoSuchMethodError", "no constructor " + what);
        } catch (Throwable t) {
            // a class the constructor's class names could not be linked
            throw Failures.failure(t);
        }
    }

    private Object construct(Constructor<?> k, Object argument) throws StudentFailure {
        try {
            return k.newInstance(argument);
        } catch (Throwable t) {
            // what the constructor threw, or a class initialization or linkage that failed in the student's code;
            // the class's first construction after its initializer failed in `initialize` reports what it threw
            // (later ones see the JVM's NoClassDefFoundError, as they would have)
            Throwable initializer = initializerFailures.remove(k.getDeclaringClass().getName());
            throw Failures.failure(t instanceof NoClassDefFoundError && initializer != null ? initializer : t);
        }
    }

    /** Calls the no-argument API method `method` on a Board or Solver of this world. */
    Object call(Object target, String method) throws StudentFailure {
        boolean isBoard = boardClass().isInstance(target);
        Class<?> api = isBoard ? boardClass() : solverClass();
        String key = (isBoard ? "Board." : "Solver.") + method;
        Method m = methods.get(key);
        if (m == null) {
            m = find(api, method);
            if (m == null) {
                throw new StudentFailure("java.lang.NoSuchMethodError", "no method " + key + "()");
            }
            methods.put(key, m);
        }
        return invoke(m, target, new Object[0]);
    }

    /**
     * a.equals(b). With staticTypeBoard, resolves the call as javac does for an argument of type Board (an
     * overload equals(Board) wins over equals(Object)); otherwise as for an argument of type Object.
     */
    boolean equals(Object a, Object b, boolean staticTypeBoard) throws StudentFailure {
        Method m = OBJECT_EQUALS;
        if (staticTypeBoard) {
            if (!equalsResolved) {
                equalsOverload = findOverload(boardClass());
                equalsResolved = true;
            }
            if (equalsOverload != null) m = equalsOverload;
        }
        Object result = invoke(m, a, new Object[] {b});
        return Boolean.TRUE.equals(result);
    }

    /** The boards an Iterable of the student's yields, checked to be non-null Boards of this world. */
    List<Object> boards(Object iterable, String what, boolean fromSolver) throws StudentFailure {
        if (iterable == null) throw new StudentFailure("java.lang.NullPointerException", what + " returned null");
        if (!(iterable instanceof Iterable)) {
            throw new StudentFailure("java.lang.ClassCastException",
                    what + " returned a " + iterable.getClass().getName() + ", which is not an Iterable");
        }
        List<Object> out = new ArrayList<>();
        try {
            for (Object x : (Iterable<?>) iterable) out.add(board(x, what + " contains"));
        } catch (StudentFailure f) {
            throw f;
        } catch (Throwable t) {
            throw Failures.failure(t);
        }
        return out;
    }

    /**
     * `x`, a board a student's method gave (`what` says how: `twin() returned`, `neighbors() contains`), once
     * it is a non-null Board of this world.
     */
    Object board(Object x, String what) throws StudentFailure {
        if (x == null) throw new StudentFailure("java.lang.NullPointerException", what + " null");
        if (!boardClass().isInstance(x)) {
            throw new StudentFailure("java.lang.ClassCastException",
                    what + " a " + x.getClass().getName() + ", which is not a Board");
        }
        return x;
    }

    /**
     * A value a student's method returned, as reply text: a number, a boolean, a character or a string (JDK
     * classes, whose toString() is theirs). Anything else is the student's failure: its toString() is theirs.
     */
    static String text(Object value, String what) throws StudentFailure {
        boolean jdkNumber = value instanceof Number && value.getClass().getModule() == Object.class.getModule();
        if (value == null || jdkNumber || value instanceof Boolean || value instanceof Character || value instanceof String) {
            return String.valueOf(value);
        }
        throw new StudentFailure("java.lang.ClassCastException",
                what + " returned a " + value.getClass().getName() + ", not a number, boolean or string");
    }

    /**
     * An Iterable of the student's iterated nested, one loop inside the other (the `neighbors_nested`
     * request): the outer loop's boards, then for each of them the boards the inner loop yielded during that
     * step, every one checked as boards() checks them.
     */
    List<List<Object>> nestedBoards(Object iterable, String what) throws StudentFailure {
        if (!(iterable instanceof Iterable)) return List.of(boards(iterable, what, false)); // which throws
        List<Object> outer = new ArrayList<>();
        List<List<Object>> lists = new ArrayList<>();
        lists.add(outer);
        try {
            for (Object x : (Iterable<?>) iterable) {
                outer.add(board(x, what + " contains"));
                lists.add(boards(iterable, what, false));
            }
        } catch (StudentFailure f) {
            throw f;
        } catch (Throwable t) {
            throw Failures.failure(t);
        }
        return lists;
    }

    private static Object invoke(Method m, Object target, Object[] args) throws StudentFailure {
        try {
            return m.invoke(target, args);
        } catch (Throwable t) {
            throw Failures.failure(t);
        }
    }

    /** A no-argument method by name: public (possibly inherited), else declared non-public in the hierarchy. */
    private static Method find(Class<?> c, String name) throws StudentFailure {
        try {
            Method m = null;
            try {
                m = c.getMethod(name);
            } catch (NoSuchMethodException e) {
                for (Class<?> k = c; k != null && m == null; k = k.getSuperclass()) {
                    try {
                        m = k.getDeclaredMethod(name);
                    } catch (NoSuchMethodException ignored) {
                        // keep looking in the superclass
                    }
                }
            }
            if (m != null) m.setAccessible(true);
            return m;
        } catch (Throwable t) {
            // a class a method of the student's names could not be linked
            throw Failures.failure(t);
        }
    }

    /** A non-private equals(Board) overload a caller in the default package would bind to, if any. */
    private static Method findOverload(Class<?> boardClass) throws StudentFailure {
        try {
            for (Class<?> k = boardClass; k != null && k != Object.class; k = k.getSuperclass()) {
                try {
                    Method m = k.getDeclaredMethod("equals", boardClass);
                    if (Modifier.isPrivate(m.getModifiers())) return null;
                    m.setAccessible(true);
                    return m;
                } catch (NoSuchMethodException ignored) {
                    // keep looking
                }
            }
            return null;
        } catch (Throwable t) {
            throw Failures.failure(t);
        }
    }
}
