package npuzzle;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import npuzzle.Server.StudentFailure;

/**
 * The `api` verb: the public constructors and methods a student's Board or Solver exposes beyond the
 * assignment's API, its own and those it inherits from the submission's other classes (a package-private
 * base class, an interface with a default method, in Board.java or Solver.java). Methods of JDK supertypes
 * are not the student's API. Allowed besides the API: a public static main(String[]), and overrides of
 * Object's public methods (equals(Object), hashCode(), toString()).
 */
final class ApiCheck {
    private ApiCheck() {}

    static final Set<String> BOARD = new HashSet<>(Arrays.asList(
            "Board(int[][])", "toString()", "dimension()", "hamming()", "manhattan()", "isGoal()",
            "equals(Object)", "neighbors()", "twin()", "hashCode()"));
    static final Set<String> SOLVER = new HashSet<>(Arrays.asList(
            "Solver(Board)", "isSolvable()", "moves()", "solution()", "equals(Object)", "hashCode()", "toString()"));

    /** Names such as `Board.tileAt(int,int)` or `Solver(Board,int)`, sorted. */
    static List<String> extraMembers(Class<?> c, String label, Set<String> allowed) throws StudentFailure {
        try {
            TreeSet<String> extra = new TreeSet<>();
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (!Modifier.isPublic(k.getModifiers()) || k.isSynthetic()) continue;
                String signature = label + parameters(k.getParameterTypes());
                if (!allowed.contains(signature)) extra.add(signature);
            }
            for (Class<?> k : submissionTypes(c)) {
                for (Method m : k.getDeclaredMethods()) {
                    int mods = m.getModifiers();
                    if (!Modifier.isPublic(mods) || m.isSynthetic() || m.isBridge()) continue;
                    // an interface's static methods are not inherited; its abstract ones are implemented in c
                    if (k.isInterface() && (Modifier.isStatic(mods) || Modifier.isAbstract(mods))) continue;
                    String signature = m.getName() + parameters(m.getParameterTypes());
                    if (signature.equals("main(String[])") && Modifier.isStatic(mods)) continue;
                    if (allowed.contains(signature) && !Modifier.isStatic(mods)) continue;
                    extra.add(label + "." + signature);
                }
            }
            return new ArrayList<>(extra);
        } catch (Throwable t) {
            // a class a member's signature names could not be linked
            throw Failures.failure(t);
        }
    }

    /**
     * c and the supertypes it inherits members from that the submission defines (same class loader):
     * superclasses up to the first JDK one, and every interface of those, transitively.
     */
    private static List<Class<?>> submissionTypes(Class<?> c) {
        List<Class<?>> types = new ArrayList<>();
        ArrayDeque<Class<?>> pending = new ArrayDeque<>();
        pending.add(c);
        while (!pending.isEmpty()) {
            Class<?> k = pending.poll();
            if (k.getClassLoader() != c.getClassLoader() || types.contains(k)) continue;
            types.add(k);
            if (k.getSuperclass() != null) pending.add(k.getSuperclass());
            pending.addAll(Arrays.asList(k.getInterfaces()));
        }
        return types;
    }

    private static String parameters(Class<?>[] types) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < types.length; i++) {
            if (i > 0) sb.append(',');
            sb.append(types[i].getSimpleName());
        }
        return sb.append(')').toString();
    }
}
