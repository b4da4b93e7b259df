package npuzzle;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import npuzzle.Server.StudentFailure;

/**
 * One world: a class loader holding a Board and a Solver (own: the student's; ref: our reference Board and
 * the student's Solver compiled against it), and reflective calls into them. Classes are loaded lazily,
 * on the first request that needs them, so a problem in one world never affects the other.
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
    private final URLClassLoader loader;
    /** Why this world has no Solver (the student's Solver.java did not compile against our Board), or null. */
    private final String solverUnavailable;

    private Class<?> board;
    private Class<?> solver;
    private Constructor<?> boardConstructor;
    private Constructor<?> solverConstructor;
    private final Map<String, Method> methods = new HashMap<>();
    private Method equalsOverload;
    private boolean equalsResolved;

    World(String name, Path dir, ClassLoader parent, String solverUnavailable) throws MalformedURLException {
        this.name = name;
        this.loader = new URLClassLoader(name, new URL[] {dir.toUri().toURL()}, parent);
        this.solverUnavailable = solverUnavailable;
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
        } catch (LinkageError e) {
            throw Server.failure(e);
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
        }
    }

    private static Object construct(Constructor<?> k, Object argument) throws StudentFailure {
        try {
            return k.newInstance(argument);
        } catch (InvocationTargetException e) {
            throw Server.failure(e.getCause());
        } catch (InstantiationException | IllegalAccessException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot call " + k + ": " + e, e);
        } catch (Throwable t) {
            // class initialization or linkage failed in the student's code
            throw Server.failure(t);
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
        Class<?> boardType = boardClass();
        List<Object> out = new ArrayList<>();
        try {
            for (Object x : (Iterable<?>) iterable) {
                if (x == null) throw new StudentFailure("java.lang.NullPointerException", what + " contains null");
                if (!boardType.isInstance(x)) {
                    throw new StudentFailure("java.lang.ClassCastException",
                            what + " contains a " + x.getClass().getName() + ", which is not a Board");
                }
                out.add(x);
            }
        } catch (StudentFailure f) {
            throw f;
        } catch (Throwable t) {
            throw Server.failure(t);
        }
        return out;
    }

    /**
     * An Iterable of the student's iterated nested, one loop inside the other (the `neighbors_nested`
     * request): the outer loop's boards, then for each of them the boards the inner loop yielded during that
     * step, every one checked as boards() checks them.
     */
    List<List<Object>> nestedBoards(Object iterable, String what) throws StudentFailure {
        if (!(iterable instanceof Iterable)) return List.of(boards(iterable, what, false)); // which throws
        Class<?> boardType = boardClass();
        List<Object> outer = new ArrayList<>();
        List<List<Object>> lists = new ArrayList<>();
        lists.add(outer);
        try {
            for (Object x : (Iterable<?>) iterable) {
                if (x == null || !boardType.isInstance(x)) {
                    boards(java.util.Collections.singletonList(x), what, false); // throws, saying why
                }
                outer.add(x);
                lists.add(boards(iterable, what, false));
            }
        } catch (StudentFailure f) {
            throw f;
        } catch (Throwable t) {
            throw Server.failure(t);
        }
        return lists;
    }

    private static Object invoke(Method m, Object target, Object[] args) throws StudentFailure {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw Server.failure(e.getCause());
        } catch (IllegalAccessException | IllegalArgumentException e) {
            throw new IllegalStateException("cannot call " + m + ": " + e, e);
        } catch (Throwable t) {
            throw Server.failure(t);
        }
    }

    /** A no-argument method by name: public (possibly inherited), else declared non-public in the hierarchy. */
    private static Method find(Class<?> c, String name) {
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
    }

    /** A non-private equals(Board) overload a caller in the default package would bind to, if any. */
    private static Method findOverload(Class<?> boardClass) {
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
    }
}
