package npuzzle;

/**
 * Operation counts: the instrumented MinPQ (package edu.princeton.cs.algs4, in this module) reports here
 * directly, the reference Board (default package, another module) through a {@link BoardMeter}. Its public
 * methods are the MinPQ's (another package of this module); the package is not exported, so nothing of this
 * class is visible outside the module.
 *
 * Requests run on one thread, but a student's code may start others: a count made on another thread (a
 * helper that inserts into a MinPQ or calls a Board) takes a lock, and from then on every count does, so no
 * increment is lost to a race (a race could only lower the counts).
 *
 * After `counters_reset sites`, every 128th operation of the MinPQ's inserts and delMins and of the reference
 * Board's constructions, equals(), manhattan() and hamming() is also sampled for where it came from
 * ({@link Sites}); the other 127, and every operation while sampling is off, cost one comparison more.
 */
public final class Counters {
    private Counters() {}

    // MinPQ
    static long pqInserts;
    static long pqDelMins;
    /** The most items held by all MinPQs together (summed over queues, as the official grader reports it). */
    static long pqMaxSize;
    /** Items held by all MinPQs together now: inserts minus delMins since the last reset. */
    static long pqLiveSize;
    static long pqEndingSize;
    static long pqDeepBytes;
    /** 1 when the queues' walks stopped before the end ({@link DeepSize#queues}): pqDeepBytes is a lower bound. */
    static long pqDeepCut;
    static long pqHeapViolations;
    /**
     * Whether the queues' heap order is checked, from `counters_reset heap` to the next reset (capability
     * `counters_heap`): the checks call the student's compareTo, on the student's thread, inside the Solver's
     * requests, and only the heap-order test reads them. Off until the first reset, and then in a span that
     * did not ask: pq_heap_violations is left out of its counters.
     */
    private static volatile boolean heapOrderChecked;

    // reference Board
    static long boardConstructed;
    static long boardEquals;
    static long boardEqualsNonBoard;
    static long boardEqualsNotGrandNeighbor;
    static long boardManhattan;
    static long boardHamming;
    static long boardToString;
    static long boardNeighbors;
    static long boardTwin;
    static long boardIsGoal;
    static long boardDimension;

    private static long nextBoardId = 1;
    private static final Expanded EXPANDED = new Expanded();
    /** Whether the server is building a reference board for the grader (a root: {@link BoardMeter}). */
    private static boolean buildingRoot;

    /** The thread that runs requests; counts made on it alone need no lock until another thread counts. */
    private static volatile Thread requestThread;
    /** Whether a thread other than the request thread has counted (then every count takes the lock). */
    private static volatile boolean shared;
    private static final Object LOCK = new Object();
    /** Threads whose Board counts are not charged now: the adapter's heap-order check runs on them. */
    private static final java.util.Set<Thread> UNCHARGED = new java.util.HashSet<>();
    /** How many threads are in {@link #UNCHARGED} (read without the lock: 0 on the fast path). */
    private static volatile int unchargedCount;

    static void setRequestThread(Thread thread) {
        requestThread = thread;
    }

    /** Whether the calling thread may count without the lock (and notes when it may not, for good). */
    private static boolean alone() {
        if (!shared && Thread.currentThread() == requestThread) return true;
        shared = true;
        return false;
    }

    /** One MinPQ insert. */
    public static void pqInserted() {
        if (alone()) {
            inserted();
        } else {
            synchronized (LOCK) {
                inserted();
            }
        }
    }

    private static void inserted() {
        if (Sites.due(++pqInserts)) Sites.sample("pq_inserts");
        pqLiveSize++;
        if (pqLiveSize > pqMaxSize) pqMaxSize = pqLiveSize;
    }

    /** A MinPQ built from an array starts with its items. */
    public static void pqBuiltWith(int items) {
        synchronized (LOCK) {
            pqLiveSize += items;
            if (pqLiveSize > pqMaxSize) pqMaxSize = pqLiveSize;
        }
    }

    /** One MinPQ delMin. */
    public static void pqDeletedMin() {
        if (alone()) {
            deleted();
        } else {
            synchronized (LOCK) {
                deleted();
            }
        }
    }

    private static void deleted() {
        if (Sites.due(++pqDelMins)) Sites.sample("pq_del_mins");
        if (pqLiveSize > 0) pqLiveSize--;
        EXPANDED.intervalEnds();
    }

    /** MinPQ inserts since the last reset. */
    static long pqInsertsNow() {
        synchronized (LOCK) {
            return pqInserts;
        }
    }

    /** Whether the queues' heap order is checked now (MinPQ's periodic checks, and a span's last ones). */
    public static boolean heapOrderChecked() {
        return heapOrderChecked;
    }

    /** A queue found out of heap order. */
    public static void pqHeapViolated() {
        synchronized (LOCK) {
            pqHeapViolations++;
        }
    }

    /** A fresh lineage id for a reference board (never 0, which means "no parent"). */
    static long nextBoardId() {
        if (alone()) return nextBoardId++;
        synchronized (LOCK) {
            return nextBoardId++;
        }
    }

    /** Counts one reference-Board event (see {@link BoardMeter}) unless the calling thread is uncharged now. */
    static void board(int event) {
        if (unchargedCount != 0 && uncharged(Thread.currentThread())) return;
        if (alone()) {
            boardEvent(event);
        } else {
            synchronized (LOCK) {
                boardEvent(event);
            }
        }
    }

    private static void boardEvent(int event) {
        switch (event) {
            case BoardMeter.CONSTRUCTED: if (Sites.due(++boardConstructed)) Sites.sample("board_constructed"); break;
            case BoardMeter.TO_STRING: boardToString++; break;
            case BoardMeter.DIMENSION: boardDimension++; break;
            case BoardMeter.HAMMING: if (Sites.due(++boardHamming)) Sites.sample("board_hamming"); break;
            case BoardMeter.MANHATTAN: if (Sites.due(++boardManhattan)) Sites.sample("board_manhattan"); break;
            case BoardMeter.IS_GOAL: boardIsGoal++; break;
            case BoardMeter.EQUALS: if (Sites.due(++boardEquals)) Sites.sample("board_equals"); break;
            case BoardMeter.EQUALS_NON_BOARD: boardEqualsNonBoard++; break;
            case BoardMeter.EQUALS_NOT_GRAND_NEIGHBOR: boardEqualsNotGrandNeighbor++; break;
            case BoardMeter.NEIGHBORS: boardNeighbors++; EXPANDED.neighborsCalled(); break;
            case BoardMeter.TWIN: boardTwin++; break;
            default: break; // not an event: nothing counts
        }
    }

    /**
     * The neighbors() call just counted was on a board descended from one the grader built, whose tiles hash
     * to `hash` (see {@link Expanded}); unless the calling thread is uncharged now.
     */
    static void rootNeighbors(long hash) {
        if (unchargedCount != 0 && uncharged(Thread.currentThread())) return;
        if (alone()) {
            EXPANDED.rootNeighbors(hash);
        } else {
            synchronized (LOCK) {
                EXPANDED.rootNeighbors(hash);
            }
        }
    }

    /** The server builds reference boards for the grader while `on` (on the request thread). */
    static void buildingRoot(boolean on) {
        buildingRoot = on;
    }

    /** Whether the reference board being built is the grader's: the server builds it, on the request thread. */
    static boolean buildsRoot() {
        return buildingRoot && Thread.currentThread() == requestThread;
    }

    private static boolean uncharged(Thread thread) {
        synchronized (LOCK) {
            return UNCHARGED.contains(thread);
        }
    }

    /**
     * Board counts made by the calling thread are not charged until {@link #chargeAgain(boolean)}: work done
     * on the adapter's behalf (a heap-order check calls the student's compareTo, which may call manhattan()).
     * Per thread, so another thread's check never stops or restarts this one's charging. Returns what to pass
     * back (false when the thread was already uncharged: an inner check leaves it to the outer one).
     */
    public static boolean stopCharging() {
        synchronized (LOCK) {
            if (!UNCHARGED.add(Thread.currentThread())) return false;
            unchargedCount = UNCHARGED.size();
            return true;
        }
    }

    public static void chargeAgain(boolean stopped) {
        if (!stopped) return;
        synchronized (LOCK) {
            UNCHARGED.remove(Thread.currentThread());
            unchargedCount = UNCHARGED.size();
        }
    }

    /**
     * Adds the queues' deep size that `counters deep` measured ({@code cut}: the walk stopped early). Plain values,
     * not DeepSize's type: this class ships in the Java starter, where DeepSize does not.
     */
    static void queuesWalked(long bytes, boolean cut) {
        synchronized (LOCK) {
            pqDeepBytes += bytes;
            if (cut) pqDeepCut = 1;
        }
    }

    /** The heap bytes of the table behind board_expanded ({@link Expanded#footprintBytes}). */
    static long expandedTableBytes() {
        synchronized (LOCK) {
            return EXPANDED.footprintBytes();
        }
    }

    /**
     * Zeroes every counter; call sites are sampled from now on when `sampleSites` ({@link Sites}), and the
     * queues' heap order checked when `checkHeapOrder`.
     */
    static void reset(boolean sampleSites, boolean checkHeapOrder) {
        synchronized (LOCK) {
            heapOrderChecked = checkHeapOrder;
            pqInserts = pqDelMins = pqMaxSize = pqLiveSize = pqEndingSize = pqDeepBytes = pqDeepCut = 0;
            pqHeapViolations = 0;
            boardConstructed = boardEquals = boardEqualsNonBoard = boardEqualsNotGrandNeighbor = 0;
            boardManhattan = boardHamming = boardToString = boardNeighbors = boardTwin = boardIsGoal = 0;
            boardDimension = 0;
            EXPANDED.clear();
            Sites.reset(sampleSites);
        }
    }

    /** The `counters` reply values, in the protocol's order. */
    static String encode(long peakBytes) {
        StringBuilder sb = new StringBuilder(400);
        synchronized (LOCK) {
            pair(sb, "pq_inserts", pqInserts);
            pair(sb, "pq_del_mins", pqDelMins);
            pair(sb, "pq_max_size", pqMaxSize);
            pair(sb, "pq_ending_size", pqEndingSize);
            pair(sb, "pq_deep_bytes", pqDeepBytes);
            pair(sb, "pq_deep_cut", pqDeepCut);
            if (heapOrderChecked) pair(sb, "pq_heap_violations", pqHeapViolations);
            pair(sb, "board_constructed", boardConstructed);
            pair(sb, "board_equals", boardEquals);
            pair(sb, "board_equals_non_board", boardEqualsNonBoard);
            pair(sb, "board_equals_not_grand_neighbor", boardEqualsNotGrandNeighbor);
            pair(sb, "board_manhattan", boardManhattan);
            pair(sb, "board_hamming", boardHamming);
            pair(sb, "board_to_string", boardToString);
            pair(sb, "board_neighbors", boardNeighbors);
            pair(sb, "board_expanded", EXPANDED.expanded());
            pair(sb, "board_neighbors_distinct", EXPANDED.distinct());
            pair(sb, "board_twin", boardTwin);
            pair(sb, "board_is_goal", boardIsGoal);
            pair(sb, "board_dimension", boardDimension);
            pair(sb, "peak_bytes", peakBytes);
        }
        return sb.toString();
    }

    private static void pair(StringBuilder sb, String name, long value) {
        if (sb.length() > 0) sb.append(' ');
        sb.append(name).append('=').append(value);
    }
}
