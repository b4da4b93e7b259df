package npuzzle;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How many bytes an object takes in a memory model, computed from its class's fields the way HotSpot lays them
 * out (JDK 15 and later), not asked of the running JVM.
 *
 * The official grader's figures (OFFICIAL-TESTS.md section 4) are those of a 64-bit JVM without compressed
 * pointers: 16-byte object headers, 8-byte references, arrays whose elements start at byte 24, every object
 * padded to 8 bytes. The grader's JVM keeps compressed pointers (12-byte headers, 4-byte references), which
 * take a third less heap and CPU on the largest searches, so {@link #OFFICIAL} computes the official layout
 * instead of measuring this one. The figures then do not depend on the JDK the grader runs on either (from
 * JDK 22 on, arrays without compressed class pointers start at byte 20).
 *
 * Layout, as HotSpot's FieldLayoutBuilder does it: a class's instance fields go after its superclass's, into
 * the superclass's holes where they fit; primitives by decreasing size, then references; each at the smallest
 * hole that fits it at its natural alignment, else at the end. Fields the JVM injects (hidden from
 * reflection, in a few JDK classes such as Throwable and MemberName) are not seen: {@link DeepSize} never
 * counts an object at less than the running JVM's own size of it.
 *
 * Our stand-ins for the textbook classes weigh what the textbook's do: MinPQ's instrumentation fields are not
 * part of any model's MinPQ.
 */
final class ObjectLayout {
    /** The official model: 64-bit HotSpot without compressed oops or class pointers, JDK 8 to 21 arrays. */
    static final ObjectLayout OFFICIAL = new ObjectLayout(16, 8, 24, true);

    /**
     * The grader's own JVM (64-bit HotSpot with compressed oops and class pointers, the default below a 32 GB
     * heap), every field counted: where it disagrees with Instrumentation.getObjectSize, the class has fields
     * reflection does not show.
     */
    static final ObjectLayout COMPRESSED = new ObjectLayout(12, 4, 16, false);

    /**
     * The textbook fields of our stand-ins that carry more than the textbook's, by class name: MinPQ's own, and
     * none of the registry's marks it inherits (its superclass, {@link QueueRegistry.Tracked}).
     */
    private static final Map<String, Set<String>> TEXTBOOK_FIELDS = Map.of(
            "edu.princeton.cs.algs4.MinPQ", Set.of("pq", "n", "comparator"),
            QueueRegistry.Tracked.class.getName(), Set.of());

    private static final int ALIGNMENT = 8;

    private final int header;
    private final int reference;
    private final int arrayBase;
    private final boolean textbookStandIns;
    private final Map<Class<?>, Shape> shapes = new HashMap<>();

    /**
     * A model with these header and reference sizes and this offset of an array's first element;
     * textbookStandIns leaves out what our algs4 stand-ins carry beyond the textbook's fields.
     */
    ObjectLayout(int header, int reference, int arrayBase, boolean textbookStandIns) {
        this.header = header;
        this.reference = reference;
        this.arrayBase = arrayBase;
        this.textbookStandIns = textbookStandIns;
    }

    /** The bytes of one object (not what it references). */
    long sizeOf(Object o) {
        Class<?> c = o.getClass();
        if (!c.isArray()) return shape(c).size;
        Class<?> element = c.getComponentType();
        return align((long) arrayBase + (long) Array.getLength(o) * slot(element));
    }

    /** The bytes of an instance of c (a class, not an array type). */
    long instanceSize(Class<?> c) {
        return shape(c).size;
    }

    /**
     * The instance fields of reference type a deep walk follows in c's objects (superclasses' included): those
     * of the model, less a Reference's links to its queue and to the collector's lists.
     */
    Field[] references(Class<?> c) {
        return shape(c).references;
    }

    private int slot(Class<?> type) {
        if (!type.isPrimitive()) return reference;
        if (type == long.class || type == double.class) return 8;
        if (type == int.class || type == float.class) return 4;
        if (type == short.class || type == char.class) return 2;
        return 1;
    }

    private static long align(long bytes) {
        return (bytes + ALIGNMENT - 1) / ALIGNMENT * ALIGNMENT;
    }

    /** A class's instance layout: its size, the free holes before its end, and its reference fields. */
    private static final class Shape {
        final long size;
        final int end;
        /** Free [start, end) ranges inside the object, by increasing offset. */
        final List<int[]> holes;
        final Field[] references;

        Shape(int end, List<int[]> holes, Field[] references) {
            this.size = align(end);
            this.end = end;
            this.holes = holes;
            this.references = references;
        }
    }

    private Shape shape(Class<?> c) {
        Shape s = shapes.get(c);
        if (s == null) {
            s = computeShape(c);
            shapes.put(c, s);
        }
        return s;
    }

    private Shape computeShape(Class<?> c) {
        Class<?> parent = c.getSuperclass();
        List<int[]> holes = new ArrayList<>();
        int end = header;
        List<Field> references = new ArrayList<>();
        if (parent != null) {
            Shape inherited = shape(parent);
            for (int[] h : inherited.holes) holes.add(h.clone());
            end = inherited.end;
            references.addAll(List.of(inherited.references));
        }
        List<Field> primitives = new ArrayList<>();
        List<Field> own = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || !counted(c, f)) continue;
            (f.getType().isPrimitive() ? primitives : own).add(f);
        }
        primitives.sort((a, b) -> slot(b.getType()) - slot(a.getType()));
        for (Field f : primitives) end = place(slot(f.getType()), holes, end);
        for (Field f : own) {
            end = place(reference, holes, end);
            if (followed(c, f) && accessible(f)) references.add(f);
        }
        return new Shape(end, holes, references.toArray(new Field[0]));
    }

    private boolean counted(Class<?> c, Field f) {
        if (!textbookStandIns) return true;
        Set<String> textbook = TEXTBOOK_FIELDS.get(c.getName());
        return textbook == null || c.getClassLoader() != ObjectLayout.class.getClassLoader()
                || textbook.contains(f.getName());
    }

    /**
     * Places a field of `size` bytes (aligned to its size): in the smallest hole that fits it (among equals,
     * the last), else at the end. Returns the new end; updates the holes.
     */
    private static int place(int size, List<int[]> holes, int end) {
        int best = -1;
        for (int i = holes.size() - 1; i >= 0; i--) {
            int[] h = holes.get(i);
            int start = alignTo(h[0], size);
            if (start + size <= h[1] && (best < 0 || h[1] - h[0] < holes.get(best)[1] - holes.get(best)[0])) best = i;
        }
        if (best < 0) {
            int start = alignTo(end, size);
            if (start > end) holes.add(new int[] {end, start});
            return start + size;
        }
        int[] h = holes.remove(best);
        int start = alignTo(h[0], size);
        int at = best;
        if (start > h[0]) holes.add(at++, new int[] {h[0], start});
        if (start + size < h[1]) holes.add(at, new int[] {start + size, h[1]});
        return end;
    }

    private static int alignTo(int offset, int alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }

    /**
     * Whether a deep walk follows f: every reference field, except that of a java.lang.ref.Reference only the
     * referent is the object's (its queue and list links belong to the garbage collector).
     */
    private static boolean followed(Class<?> c, Field f) {
        return c != java.lang.ref.Reference.class || f.getName().equals("referent");
    }

    /** Whether the walk may read f (a module that is not open keeps its contents uncounted). */
    static boolean accessible(Field f) {
        try {
            f.setAccessible(true);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
