package npuzzle;

/**
 * The floor's stand-in for the adapter's queue registry: the textbook MinPQ registers itself, and a plain
 * program keeps no registry (scripts/bench-java-floor.sh).
 */
public final class QueueRegistry {
    private QueueRegistry() {}

    /** What the adapter's MinPQ implements for the registry. */
    public abstract static class Tracked {
        protected abstract int npuzzleSize();

        protected abstract void npuzzleCheckHeapOrder();
    }

    public static void register(Tracked queue) {}

    public static void operated(Tracked queue) {}
}
