package npuzzle;

import java.lang.instrument.Instrumentation;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The -javaagent that gives the server Instrumentation.getObjectSize. It also opens the packages of every
 * module of the boot layer (java.base's and the others': java.desktop, java.logging, java.sql, ...) to the
 * adapter's module (students' classes live in other loaders and modules), so the deep-size walk can read the
 * private fields of any JDK object a student's objects hold. A module left closed would keep what such an
 * object holds out of the figures: a Board that hid 32 bytes a tile in a javax.swing.tree.DefaultMutableTreeNode
 * weighed as the reference does.
 *
 * The agent's jar holds a manifest alone: the JDK loads this class from the adapter's module, whose package
 * is exported to java.instrument only (to call premain). The Instrumentation stays in this module: nothing
 * public returns it, so a student's code cannot install a class-file transformer or redefine a class.
 */
public final class MemoryAgent {
    private static volatile Instrumentation instrumentation;

    private MemoryAgent() {}

    public static void premain(String args, Instrumentation inst) {
        instrumentation = inst;
        Set<Module> adapter = Set.of(MemoryAgent.class.getModule());
        for (Module module : ModuleLayer.boot().modules()) {
            if (adapter.contains(module)) continue;
            try {
                Map<String, Set<Module>> opens = new HashMap<>();
                for (String pkg : module.getPackages()) opens.put(pkg, adapter);
                inst.redefineModule(module, Set.of(), Map.of(), opens, Set.of(), Map.of());
            } catch (RuntimeException e) {
                System.err.println("npuzzle agent: cannot open " + module.getName() + " for the memory walk: " + e);
            }
        }
    }

    /** The instrumentation, or null when the JVM was started without the agent. */
    static Instrumentation instrumentation() {
        return instrumentation;
    }
}
