package npuzzle;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The `api` verb: the public constructors and methods a student's Board or Solver declares beyond the
 * assignment's API. Allowed besides the API: a public static main(String[]), and overrides of Object's
 * public methods (equals(Object), hashCode(), toString()).
 */
final class ApiCheck {
    private ApiCheck() {}

    static final Set<String> BOARD = new HashSet<>(Arrays.asList(
            "Board(int[][])", "toString()", "dimension()", "hamming()", "manhattan()", "isGoal()",
            "equals(Object)", "neighbors()", "twin()", "hashCode()"));
    static final Set<String> SOLVER = new HashSet<>(Arrays.asList(
            "Solver(Board)", "isSolvable()", "moves()", "solution()", "equals(Object)", "hashCode()", "toString()"));

    /** Names such as `Board.tileAt(int,int)` or `Solver(Board,int)`, sorted. */
    static List<String> extraMembers(Class<?> c, String label, Set<String> allowed) {
        TreeSet<String> extra = new TreeSet<>();
        for (Constructor<?> k : c.getDeclaredConstructors()) {
            if (!Modifier.isPublic(k.getModifiers()) || k.isSynthetic()) continue;
            String signature = label + parameters(k.getParameterTypes());
            if (!allowed.contains(signature)) extra.add(signature);
        }
        for (Method m : c.getDeclaredMethods()) {
            int mods = m.getModifiers();
            if (!Modifier.isPublic(mods) || m.isSynthetic() || m.isBridge()) continue;
            String signature = m.getName() + parameters(m.getParameterTypes());
            if (signature.equals("main(String[])") && Modifier.isStatic(mods)) continue;
            if (allowed.contains(signature) && !Modifier.isStatic(mods)) continue;
            extra.add(label + "." + signature);
        }
        return new ArrayList<>(extra);
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
