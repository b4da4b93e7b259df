package npuzzle;

import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The -javaagent that gives the server Instrumentation.getObjectSize. It also opens java.base's packages to
 * the application class loader's unnamed module (the adapter's own classes; students' classes live in other
 * loaders), so the deep-size walk can read the private fields of JDK collections a student's objects hold.
 */
public final class MemoryAgent {
    private static volatile Instrumentation instrumentation;

    private MemoryAgent() {}

    public static void premain(String args, Instrumentation inst) {
        instrumentation = inst;
        try {
            Module base = Object.class.getModule();
            Set<Module> adapter = Set.of(MemoryAgent.class.getModule());
            Map<String, Set<Module>> opens = new HashMap<>();
            for (String pkg : base.getPackages()) opens.put(pkg, adapter);
            inst.redefineModule(base, Set.of(), Map.of(), opens, Set.of(), Map.of());
        } catch (RuntimeException e) {
            System.err.println("npuzzle agent: cannot open java.base for the memory walk: " + e);
        }
    }

    /** The instrumentation, or null when the JVM was started without the agent. */
    public static Instrumentation instrumentation() {
        return instrumentation;
    }
}
