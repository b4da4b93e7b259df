package npuzzle;

/**
 * The floor's stand-in for the adapter's counters: the textbook MinPQ the grader compiles calls these, and a
 * plain program counts nothing (scripts/bench-java-floor.sh).
 */
public final class Counters {
    private Counters() {}

    public static void pqInserted() {}

    public static void pqBuiltWith(int items) {}

    public static void pqDeletedMin() {}

    public static void pqHeapViolated() {}

    /** A plain program checks no heap order. */
    public static boolean heapOrderChecked() {
        return false;
    }

    public static boolean stopCharging() {
        return false;
    }

    public static void chargeAgain(boolean stopped) {}
}
