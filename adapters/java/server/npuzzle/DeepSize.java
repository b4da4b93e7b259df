package npuzzle;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deep memory of an object graph: the sum of Instrumentation.getObjectSize over every object reachable
 * from the roots through instance fields and array elements, each object once. Class objects, class
 * loaders, threads and the referents of java.lang.ref references are not followed (they are not retained
 * by the data structure), and static fields are not part of any object.
 */
final class DeepSize {
    /** Returned by {@link #of} when the walk would visit more than its budget of objects. */
    static final long OVER_BUDGET = -1;

    private static final Map<Class<?>, Field[]> FIELDS = new HashMap<>();

    private DeepSize() {}

    static boolean available() {
        return MemoryAgent.instrumentation() != null;
    }

    /**
     * The deep size of everything reachable from the roots without passing through {@code excluded} (null
     * for none), or OVER_BUDGET past maxObjects objects.
     */
    static long of(Collection<?> roots, long maxObjects, Object excluded) {
        Instrumentation inst = MemoryAgent.instrumentation();
        if (inst == null) return 0;
        IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();
        if (excluded != null) seen.put(excluded, Boolean.TRUE);
        ArrayDeque<Object> pending = new ArrayDeque<>();
        for (Object root : roots) {
            if (root != null) pending.push(root);
        }
        long bytes = 0;
        while (!pending.isEmpty()) {
            Object o = pending.pop();
            if (skipped(o) || seen.put(o, Boolean.TRUE) != null) continue;
            if (seen.size() > maxObjects) return OVER_BUDGET;
            bytes += inst.getObjectSize(o);
            Class<?> c = o.getClass();
            if (c.isArray()) {
                if (!c.getComponentType().isPrimitive()) {
                    for (int i = 0, len = Array.getLength(o); i < len; i++) {
                        Object e = ((Object[]) o)[i];
                        if (e != null) pending.push(e);
                    }
                }
                continue;
            }
            for (Field f : referenceFields(c)) {
                Object v;
                try {
                    v = f.get(o);
                } catch (IllegalAccessException | RuntimeException e) {
                    continue;
                }
                if (v != null) pending.push(v);
            }
        }
        return bytes;
    }

    static long of(Object root) {
        return of(List.of(root), Long.MAX_VALUE, null);
    }

    private static boolean skipped(Object o) {
        return o instanceof Class || o instanceof ClassLoader || o instanceof Thread || o instanceof Module;
    }

    /** The readable instance fields of reference type declared by c and its superclasses. */
    private static Field[] referenceFields(Class<?> c) {
        Field[] cached = FIELDS.get(c);
        if (cached != null) return cached;
        List<Field> fields = new ArrayList<>();
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            if (k == java.lang.ref.Reference.class) continue;
            for (Field f : k.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) continue;
                try {
                    f.setAccessible(true);
                    fields.add(f);
                } catch (RuntimeException e) {
                    // not accessible (a module that is not open): its contents are not counted
                }
            }
        }
        Field[] result = fields.toArray(new Field[0]);
        FIELDS.put(c, result);
        return result;
    }
}
