package npuzzle;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The static fields of a submission's classes, where a Board or Solver can keep memory that no walk from the
 * object itself reaches (a Solver that parks its whole search in a static list measures a few bytes).
 *
 * Before a measured span the adapter initializes the classes (so what a static initializer builds, such as a
 * constant table, exists before the span and is never counted) and records what their static fields reach;
 * after it, whatever those fields reach that was not there before counts: memory reachable from statics
 * counts by how much it grew during the span ({@link DeepSize}).
 */
final class StaticRoots {
    /** The classes initialized so far, by class loader. */
    private static final Map<ClassLoader, List<Class<?>>> INITIALIZED = new IdentityHashMap<>();
    /** The binary names of the classes in each loader's directories (they never change). */
    private static final Map<ClassLoader, List<String>> NAMES = new IdentityHashMap<>();

    private StaticRoots() {}

    /**
     * The classes of a world's directory whose binary name `which` accepts, loaded and initialized (once; a
     * class whose initializer throws is left out: the student's code meets that failure where it uses the
     * class). `standIn` (our reference Board) is never one of them.
     */
    static List<Class<?>> of(ClassLoader loader, Predicate<String> which, Class<?> standIn) {
        List<Class<?>> known = INITIALIZED.computeIfAbsent(loader, l -> new ArrayList<>());
        List<Class<?>> result = new ArrayList<>();
        for (String name : NAMES.computeIfAbsent(loader, StaticRoots::classNames)) {
            if (!which.test(name)) continue;
            Class<?> c = initialized(known, name, loader);
            if (c != null && c != standIn) result.add(c);
        }
        return result;
    }

    /**
     * The objects the static reference fields of `classes` hold now, and what the threads the submission
     * started hold ({@link KeptAside#roots}).
     */
    static List<Object> values(List<Class<?>> classes) {
        List<Object> values = KeptAside.roots();
        for (Class<?> c : classes) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) continue;
                try {
                    f.setAccessible(true);
                    Object v = f.get(null);
                    if (v != null) values.add(v);
                } catch (RuntimeException | IllegalAccessException | LinkageError e) {
                    // unreadable: what it holds is not counted
                }
            }
        }
        return values;
    }

    private static Class<?> initialized(List<Class<?>> known, String name, ClassLoader loader) {
        for (Class<?> c : known) {
            if (c.getName().equals(name)) return c;
        }
        try {
            Class<?> c = Class.forName(name, true, loader);
            if (c.getClassLoader() != loader) return null;
            known.add(c);
            return c;
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The binary names of the classes a world's loader defines (none for any other loader). */
    private static List<String> classNames(ClassLoader loader) {
        return loader instanceof WorldLoader ? ((WorldLoader) loader).classNames() : List.of();
    }
}
