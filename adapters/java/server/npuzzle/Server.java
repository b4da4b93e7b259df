package npuzzle;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The Java side of the submission protocol (specs/protocol.md): reads requests on standard input, calls
 * the student's Board and Solver by reflection, writes replies on standard output.
 *
 * One process serves one world, and the grader starts one for each: `own` (the student's Board and Solver)
 * or `ref` (our reference Board and the student's Solver compiled against it). So the `own` process never
 * holds the reference Board, which a student's Board could otherwise load and delegate to. The worlds'
 * classes live in loaders of the server's ({@link WorldLoader}), which show them the textbook classes of
 * this module and nothing else of it; this module exports nothing else ({@code module-info.java}); and a
 * security manager ({@link Seal}) holds their code to computing. Everything the student prints goes to
 * standard error: System.out is pointed at System.err before any student class is loaded, and replies are
 * written to the process's real standard output. Requests run one at a time on a thread with a large stack.
 *
 * The grader may pipeline requests (we announce `refs`): several lines can be waiting on standard input
 * before the first reply goes out. They are still read, handled and answered one by one, in order, and a
 * handle argument may be a reference `@ID.K` to the K-th handle an earlier reply returned.
 *
 * Usage: java -javaagent:agent.jar -p MODULE -m npuzzle/npuzzle.Server (--own DIR | --ref DIR --board DIR
 * [--ref-error FILE])
 */
public final class Server {
    static final int VERSION = 1;
    /**
     * Stack of the request thread: room for over half a million frames of recursive student code, yet an
     * infinite recursion overflows in well under a second of CPU (filling the stack costs about 17 ms per
     * MB, so 512 MB would turn every StackOverflowError into a 5 s timeout). -Dnpuzzle.stackMb overrides.
     */
    private static final long STACK_BYTES = Long.getLong("npuzzle.stackMb", 64) << 20;
    /** Verbs whose `ok` reply holds handles that later requests may refer to. */
    private static final Set<String> RETURNS_HANDLES = Set.of(
            "board", "board_probe", "neighbors", "neighbors_texts", "neighbors_after", "neighbors_nested", "twin", "solver", "solver_null",
            "solution", "memory_solver");
    /** Verbs whose arguments are handles (and `neighbors_texts`' count after one), so any may be a reference. */
    private static final Set<String> TAKES_HANDLES = Set.of(
            "dimension", "hamming", "manhattan", "to_string", "is_goal", "equals", "equals_as_object",
            "equals_null", "equals_foreign", "equals_uncastable", "neighbors", "neighbors_texts", "neighbors_after",
            "neighbors_nested", "texts",
            "twin", "release", "solver", "is_solvable", "moves", "solution", "memory_solver", "memory_retained");

    /** The world this process serves. */
    private final World world;
    private final Memory memory;
    /** The objects handed out, and the references to them a request may make. */
    private final Handles handles = new Handles();
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final boolean cpuSupported;
    /**
     * The ID of the request being answered (-1 until it is read) and the request thread's CPU time when the
     * student's code was called (-1 until it is), for {@link #outOfMemory}.
     */
    private long requestId = -1;
    private long requestStart = -1;
    /** The handshake's `runtime_threads=` capability (see {@link RuntimeThreads}), or "". */
    private final String runtimeThreads;

    private Server(World world, String runtimeThreads) {
        this.world = world;
        this.runtimeThreads = runtimeThreads;
        this.memory = new Memory(world, this::cpuNow);
        this.cpuSupported = threads.isCurrentThreadCpuTimeSupported();
        if (cpuSupported && !threads.isThreadCpuTimeEnabled()) threads.setThreadCpuTimeEnabled(true);
    }

    // ------------------------------------------------------------------ entry point

    public static void main(String[] args) throws Exception {
        World world = World.from(args);
        // The protocol owns the real stdin/stdout; students get an empty System.in and System.out -> stderr.
        Writer protocolOut = new BufferedWriter(
                new OutputStreamWriter(new FileOutputStream(FileDescriptor.out), StandardCharsets.UTF_8), 1 << 16);
        BufferedReader protocolIn = new BufferedReader(
                new InputStreamReader(new FileInputStream(FileDescriptor.in), StandardCharsets.UTF_8), 1 << 16);
        System.setOut(System.err);
        System.setIn(new ByteArrayInputStream(new byte[0]));

        Outbox outbox = new Outbox(protocolOut);
        outbox.start();
        // Every thread the JVM will have of its own exists now, and no student class is loaded yet.
        Server server = new Server(world, RuntimeThreads.capability(RuntimeThreads.list()));
        // a worker ended by what it threw (a Throwable no reply could be built for) exits as a failure, not 0
        int[] status = {1};
        Thread worker = new Thread(null, () -> status[0] = server.serve(protocolIn, outbox), "submission", STACK_BYTES);
        worker.setContextClassLoader(world.loader());
        Counters.setRequestThread(worker);
        Sites.watch(world.loader().getUnnamedModule(), ManagementFactory.getThreadMXBean());
        KeptAnywhere.prepare();
        Failures.prepare();
        FirstTouch.eden();
        // a student's code that halts the JVM must not take the replies before its request with it
        Seal.install(outbox::flush);
        // after the seal, so that the common pool is made as it would be for the student's first use
        FirstUse.warm();
        KeptAside.ownThreadsAreAliveNowAnd(worker);
        worker.start();
        // A student's code may interrupt this thread (it is in the student's thread group): the JVM would
        // print an InterruptedException "in thread main" at npuzzle.Server.main, which reads as the
        // adapter's crash, and exit with 1. The wait goes on until the worker ends.
        while (worker.isAlive()) {
            try {
                worker.join();
            } catch (InterruptedException interrupted) {
                // not the server's to act on
            }
        }
        System.exit(status[0]);
    }

    /**
     * Answers requests in order until `bye` or the end of input. Pipelined requests simply wait in `in`,
     * the one reader of the protocol's standard input for the whole process, so its buffering loses none of
     * them. A reply goes out once no further request is waiting (see {@link Outbox}).
     */
    private int serve(BufferedReader in, Outbox out) {
        try {
            String line;
            while ((line = in.readLine()) != null) {
                Reply reply;
                try {
                    reply = answer(line);
                } catch (OutOfMemoryError e) {
                    reply = outOfMemory(e);
                }
                out.put(reply.line, reply.bye || !in.ready());
                if (reply.bye) break;
            }
            return 0;
        } catch (IOException e) {
            System.err.println("npuzzle server: protocol channel failed: " + e);
            return 3;
        } finally {
            out.flush();
        }
    }

    // ------------------------------------------------------------------ one request

    private static final class Reply {
        final String line;
        final boolean bye;

        Reply(String line, boolean bye) {
            this.line = line;
            this.bye = bye;
        }
    }

    /** A request the program refuses: the grader's or the adapter's side (protocol) or not expressible. */
    static final class Refusal extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean unsupported;

        Refusal(boolean unsupported, String reason) {
            super(reason, null, false, false);
            this.unsupported = unsupported;
        }
    }

    /** The student's code threw (or is missing something the API requires). */
    static final class StudentFailure extends Exception {
        private static final long serialVersionUID = 1L;
        final String type;
        final String detail;

        StudentFailure(String type, String detail) {
            super(type, null, false, false);
            this.type = type;
            this.detail = detail;
        }
    }

    private Reply answer(String line) {
        requestId = requestStart = -1;
        if (line.endsWith("\r")) line = line.substring(0, line.length() - 1);
        String[] tokens = line.split(" ", -1);
        long id;
        try {
            id = Long.parseLong(tokens[0]);
            if (id < 0) throw new NumberFormatException();
        } catch (NumberFormatException e) {
            return new Reply("0 err protocol 0 missing request id", false);
        }
        requestId = id;
        if (tokens.length < 2) return new Reply(id + " err protocol 0 missing verb", false);
        String verb = tokens[1];
        String[] args = new String[tokens.length - 2];
        System.arraycopy(tokens, 2, args, 0, args.length);
        try {
            // before the clock starts, as in the Rust harness: a bad reference runs no code (CPU 0)
            if (TAKES_HANDLES.contains(verb)) handles.resolveReferences(args);
        } catch (Refusal r) {
            return new Reply(id + " err protocol 0 " + escape(r.getMessage()), false);
        }

        long start = requestStart = cpuNow();
        String outcome;
        try {
            String values = handle(verb, args);
            long cpu = elapsed(start);
            // the reply's handles are the server's bookkeeping, after the clock stops (a `neighbors_texts`
            // reply's texts follow its handles after a tab: no text is ever read as a handle)
            if (RETURNS_HANDLES.contains(verb)) {
                int tab = values.indexOf('\t');
                handles.recordHandles(id, tab < 0 ? values : values.substring(0, tab));
            }
            outcome = values.isEmpty() ? "ok " + cpu : "ok " + cpu + " " + values;
        } catch (Refusal r) {
            outcome = "err " + (r.unsupported ? "unsupported " : "protocol ") + elapsed(start) + " " + escape(r.getMessage());
        } catch (OutOfMemoryError e) {
            throw e; // answered by serve, once what filled the heap is let go (outOfMemory)
        } catch (Throwable t) {
            StudentFailure f = studentsFailure(t);
            if (f != null) {
                outcome = "err exception " + elapsed(start) + " " + f.type + " " + escape(f.detail);
            } else {
                outcome = "err protocol " + elapsed(start) + " " + escape("adapter failure: " + t);
                t.printStackTrace();
            }
        }
        return new Reply(id + " " + outcome, verb.equals("bye") && outcome.startsWith("ok"));
    }

    /** How many times {@link #outOfMemory} builds its reply before it gives up. */
    private static final int OUT_OF_MEMORY_ATTEMPTS = 5;

    /**
     * The reply to the request that ran out of heap (the heap is the student's): a Solver that fills it makes
     * the collector throw (`GC overhead limit exceeded`, `Java heap space`), and the heap stays full while the
     * queues it created are held for the span's end, so the reply's own few allocations would fail too. They
     * are let go first (the failed request's counts are moot); an attempt that still fails gives the collector
     * a turn. If none succeeds (or the request's ID was never read), the error ends the worker: the process
     * exits with status 1, the error on its standard error.
     */
    private Reply outOfMemory(OutOfMemoryError error) {
        letGoOfSpan();
        if (requestId < 0) throw error;
        for (int attempt = 1; ; attempt++) {
            try {
                StudentFailure f = Failures.failure(error);
                long cpu = requestStart < 0 ? 0 : elapsed(requestStart);
                return new Reply(requestId + " err exception " + cpu + " " + f.type + " " + escape(f.detail), false);
            } catch (OutOfMemoryError again) {
                if (attempt == OUT_OF_MEMORY_ATTEMPTS) throw again;
            }
        }
    }

    /**
     * {@link Failures#ofStudent}, for a request that failed; when what the student's code met was the heap
     * running out (an OutOfMemoryError a call into their code threw, which the world reports as theirs rather
     * than through {@link #outOfMemory}), the span's queues are let go of as there. Otherwise they stayed held
     * until the next span began, and at the JVM's exit after a life whose constructor filled the heap, the JDK's
     * own shutdown hook (`Logging-Cleaner`, LogManager's) met `GC overhead limit exceeded` and printed it into
     * the submission's output (2 of 8 grades beside two spinning processes). A life that ran out of heap reads
     * no counts (its constructor failed) or counts that are moot, as in outOfMemory.
     */
    private static StudentFailure studentsFailure(Throwable t) {
        StudentFailure f = Failures.ofStudent(t);
        if (f != null && f.type.equals(OutOfMemoryError.class.getName())) letGoOfSpan();
        return f;
    }

    /** A request ran out of heap: see {@link QueueRegistry#letGoOfSpan}. */
    private static void letGoOfSpan() {
        synchronized (QueueRegistry.class) {
            QueueRegistry.letGoOfSpan();
        }
    }

    private long cpuNow() {
        return cpuSupported ? threads.getCurrentThreadCpuTime() : 0;
    }

    private long elapsed(long start) {
        return cpuSupported ? Math.max(0, (threads.getCurrentThreadCpuTime() - start) / 1000) : 0;
    }

    private String handle(String verb, String[] args) throws Refusal, StudentFailure {
        switch (verb) {
            case "hello": {
                if (args.length != 1) throw protocol("`hello` takes the version");
                int version;
                try {
                    version = Integer.parseInt(args[0]);
                } catch (NumberFormatException e) {
                    throw protocol("bad version `" + args[0] + "`");
                }
                if (version != VERSION) throw protocol("unsupported version " + version);
                world.initialize();
                String memory = DeepSize.available() ? " memory counters_deep" : "";
                return VERSION + " java ref_world counters counters_heap call_sites refs neighbor_texts texts" + memory + " null foreign api_check iterables" + runtimeThreads;
            }
            case "memory_board": {
                World world = world(verb, args);
                int[][] rows = Arguments.tiles(verb, args);
                requireMemory();
                return Long.toString(memory.ofNewBoard(world, rows));
            }
            case "board":
            case "board_probe": {
                World world = world(verb, args);
                int[][] rows = Arguments.tiles(verb, args);
                // a reference board the grader builds is a root: only its descendants' expansions count
                Counters.buildingRoot(true);
                Object board;
                try {
                    board = world.newBoard(rows);
                } finally {
                    Counters.buildingRoot(false);
                }
                if (verb.equals("board_probe")) {
                    // overwrite the caller's array the board was built from (the immutability probe)
                    int n = rows.length;
                    for (int r = 0; r < n; r++) {
                        for (int c = 0; c < n; c++) rows[r][c] = r * n + c;
                    }
                }
                return handles.add(true, world, board);
            }
            case "dimension":
            case "hamming":
            case "manhattan":
            case "to_string": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                String name = verb.equals("to_string") ? "toString" : verb;
                Object result = b.world.call(b.value, name);
                return verb.equals("to_string") ? escape(World.text(result, "toString()")) : World.text(result, name + "()");
            }
            case "is_goal": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                return World.text(b.world.call(b.value, "isGoal"), "isGoal()");
            }
            case "equals":
            case "equals_as_object": {
                String[] two = Arguments.two(verb, args);
                Handles.Obj a = handles.board(two[0]);
                Handles.Obj b = handles.board(two[1]);
                if (a.world != b.world) throw protocol(two[0] + " and " + two[1] + " are not boards of one world");
                boolean asObject = verb.equals("equals_as_object");
                return String.valueOf(a.world.equals(a.value, b.value, !asObject));
            }
            case "equals_null": {
                Handles.Obj a = handles.board(Arguments.one(verb, args));
                return String.valueOf(a.world.equals(a.value, null, true));
            }
            case "equals_foreign": {
                Handles.Obj a = handles.board(Arguments.one(verb, args));
                return String.valueOf(a.world.equals(a.value, "a string", false));
            }
            case "equals_uncastable": {
                Handles.Obj a = handles.board(Arguments.one(verb, args));
                return String.valueOf(a.world.equals(a.value, new Uncastable(), false));
            }
            case "neighbors": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                List<Object> boards = b.world.boards(b.world.call(b.value, "neighbors"), "neighbors()", false);
                return handles.addAll(b.world, boards);
            }
            case "neighbors_texts": {
                // neighbors(), then toString() of each of the first MAX boards, each text's outcome apart
                if (args.length != 2) {
                    throw protocol("`neighbors_texts` takes a handle and a count, got " + args.length + " arguments");
                }
                Handles.Obj b = handles.board(args[0]);
                long max;
                try {
                    max = Long.parseLong(args[1]);
                    if (max < 0) throw new NumberFormatException();
                } catch (NumberFormatException e) {
                    throw protocol("bad count of texts `" + args[1] + "`");
                }
                List<Object> boards = b.world.boards(b.world.call(b.value, "neighbors"), "neighbors()", false);
                StringBuilder reply = new StringBuilder(handles.addAll(b.world, boards));
                for (int k = 0; k < boards.size() && k < max; k++) {
                    reply.append('\t').append(textOutcome(b.world, boards.get(k)));
                }
                return reply.toString();
            }
            case "texts": {
                // toString() of each board, each text's outcome apart (a handle that names no board too); a
                // token that is no handle refuses the whole request, as a malformed line does
                if (args.length == 0) throw protocol("`texts` takes one handle or more, got none");
                String[] keys = new String[args.length];
                for (int i = 0; i < args.length; i++) keys[i] = Handles.canonical(args[i]);
                StringBuilder reply = new StringBuilder(64 * args.length);
                for (String key : keys) {
                    reply.append('\t');
                    Handles.Obj b;
                    try {
                        b = handles.boardByKey(key);
                    } catch (Refusal r) {
                        reply.append('?').append(escape(r.getMessage()));
                        continue;
                    }
                    reply.append(textOutcome(b.world, b.value));
                }
                return reply.toString();
            }
            case "neighbors_after": {
                // Both Iterables are held, not copied, until both calls have returned (a neighbors() that
                // refills one shared list shows it here; the plain `neighbors` copies at once).
                String[] two = Arguments.two(verb, args);
                Handles.Obj a = handles.board(two[0]);
                Handles.Obj b = handles.board(two[1]);
                if (a.world != b.world) throw protocol(two[0] + " and " + two[1] + " are not boards of one world");
                Object first = a.world.call(a.value, "neighbors");
                Object second = b.world.call(b.value, "neighbors");
                List<Object> fromFirst = a.world.boards(first, "neighbors()", false);
                List<Object> fromSecond = b.world.boards(second, "neighbors()", false);
                return handles.addAll(a.world, fromFirst) + " " + handles.addAll(b.world, fromSecond);
            }
            case "neighbors_nested": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                StringBuilder lists = new StringBuilder();
                for (List<Object> boards : b.world.nestedBoards(b.world.call(b.value, "neighbors"), "neighbors()")) {
                    if (lists.length() > 0) lists.append(' ');
                    lists.append(handles.addAll(b.world, boards));
                }
                return lists.toString();
            }
            case "twin": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                return handles.add(true, b.world, b.world.board(b.world.call(b.value, "twin"), "twin() returned"));
            }
            case "release": {
                for (String h : args) handles.release(h);
                return "";
            }
            case "solver": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                return handles.add(false, b.world, solve(b.world, b.value));
            }
            case "memory_solver": {
                Handles.Obj b = handles.board(Arguments.one(verb, args));
                requireMemory();
                Memory.Measured solver = memory.ofNewSolver(b.world, b.value);
                return handles.add(false, b.world, solver.value) + " " + solver.bytes + " " + solver.walksMicros;
            }
            case "memory_retained": {
                Handles.Obj s = handles.solver(Arguments.one(verb, args));
                requireMemory();
                long bytes = memory.retainedBy(s.world, s.value);
                // the second reading, once the walk's records and what solution() returned are garbage
                KeptAnywhere.Reading kept = KeptAnywhere.sinceBaseline();
                return bytes + " " + (kept.heap + kept.offHeap) + " " + kept.offHeap;
            }
            case "solver_null": {
                if (args.length != 1) throw protocol("`solver_null` takes a world");
                World w = world(args[0]);
                return handles.add(false, w, solve(w, null));
            }
            case "is_solvable": {
                Handles.Obj s = handles.solver(Arguments.one(verb, args));
                return World.text(s.world.call(s.value, "isSolvable"), "isSolvable()");
            }
            case "moves": {
                Handles.Obj s = handles.solver(Arguments.one(verb, args));
                return World.text(s.world.call(s.value, "moves"), "moves()");
            }
            case "solution": {
                Handles.Obj s = handles.solver(Arguments.one(verb, args));
                Object path = s.world.call(s.value, "solution");
                memory.solutionReturned(s.value, path);
                if (path == null) return "none";
                return handles.addAll(s.world, s.world.boards(path, "solution()", true));
            }
            case "counters_reset": {
                // `counters_reset sites` also samples call sites until the next reset (capability `call_sites`),
                // `counters_reset heap` checks the queues' heap order until then (capability `counters_heap`)
                boolean sites = args.length == 1 && args[0].equals("sites");
                boolean heap = args.length == 1 && args[0].equals("heap");
                if (!sites && !heap) Arguments.noArgs(verb, args);
                Counters.reset(sites, heap);
                synchronized (QueueRegistry.class) {
                    QueueRegistry.beginSpan();
                }
                return "";
            }
            case "counters": {
                // `counters deep` also walks the ended queues' deep memory (up to millions of objects): only
                // the queue-memory test asks for it (capability `counters_deep`).
                boolean deep = args.length == 1 && args[0].equals("deep");
                if (!deep) Arguments.noArgs(verb, args);
                List<QueueRegistry.Tracked> ended = endQueueSpan();
                if (deep && DeepSize.available()) {
                    DeepSize.Queues queues = memory.ofQueues(ended, Counters.pqInsertsNow());
                    Counters.queuesWalked(queues.bytes, queues.cut);
                }
                return Counters.encode(0);
            }
            case "call_sites": {
                Arguments.noArgs(verb, args);
                return Sites.encode();
            }
            case "api": {
                Arguments.noArgs(verb, args);
                if (!world.name.equals("own")) throw protocol("`api` checks the own world, which another process serves");
                List<String> extra = new ArrayList<>();
                extra.addAll(ApiCheck.extraMembers(world.boardClass(), "Board", ApiCheck.BOARD));
                extra.addAll(ApiCheck.extraMembers(world.solverClass(), "Solver", ApiCheck.SOLVER));
                StringBuilder sb = new StringBuilder().append(extra.size());
                for (String name : extra) sb.append(' ').append(name);
                return sb.toString();
            }
            case "bye": {
                Arguments.noArgs(verb, args);
                return "";
            }
            default:
                throw protocol("unknown verb `" + verb + "` with " + args.length + " arguments");
        }
    }

    /** Runs a Solver constructor (its queues end when the grader next reads the counters). */
    static Object solve(World world, Object board) throws StudentFailure {
        return world.newSolver(board);
    }

    /**
     * Ends the span of the queues (`counters`): the queues used in it report their sizes and get a last
     * heap-order check. The registry is read under its lock: a student's helper threads may still be creating
     * queues. The check calls the student's compareTo: what it throws is the student's failure.
     */
    private static List<QueueRegistry.Tracked> endQueueSpan() throws StudentFailure {
        try {
            synchronized (QueueRegistry.class) {
                return QueueRegistry.endSpan();
            }
        } catch (Throwable t) {
            StudentFailure f = Failures.failure(t);
            throw new StudentFailure(f.type, f.detail + " (when the grader re-checked the MinPQ's heap order "
                    + "after its last calls to the Solver, which calls compareTo())");
        }
    }

    private static void requireMemory() throws Refusal {
        if (!DeepSize.available()) throw unsupported("the JVM was started without the memory agent");
    }

    // ------------------------------------------------------------------ texts of boards

    /**
     * One text of a `neighbors_texts` or `texts` reply: what a `to_string` request of `board` would answer, as
     * the reply marks it (`=TEXT`, `!TYPE MESSAGE`, `?REASON` for the adapter's own failure). Running out of heap
     * ends the whole request, as anywhere.
     */
    private static String textOutcome(World world, Object board) {
        try {
            return "=" + escape(World.text(world.call(board, "toString"), "toString()"));
        } catch (OutOfMemoryError e) {
            throw e;
        } catch (Throwable t) {
            StudentFailure f = studentsFailure(t);
            if (f != null) return "!" + f.type + " " + escape(f.detail);
            t.printStackTrace();
            return "?" + escape("adapter failure: " + t);
        }
    }

    // ------------------------------------------------------------------ worlds

    private World world(String verb, String[] args) throws Refusal {
        if (args.length < 2) throw protocol("`" + verb + "` takes a world, n and n² tiles");
        return world(args[0]);
    }

    private World world(String name) throws Refusal {
        if (name.equals(world.name)) return world;
        if (name.equals("own") || name.equals("ref")) {
            throw protocol("the " + name + " world is served by a process of its own (this one serves " + world.name + ")");
        }
        throw protocol("unknown world `" + name + "` (expected own or ref)");
    }

    /** A protocol error: the request is malformed or names what this process does not have (never the student's). */
    static Refusal protocol(String reason) {
        return new Refusal(false, reason);
    }

    private static Refusal unsupported(String reason) {
        return new Refusal(true, reason);
    }

    // ------------------------------------------------------------------ text

    /**
     * Escapes text for the rest of a line: backslash (first, so the escapes' own are not doubled), newline,
     * carriage return, tab. String.replace copies the runs between them whole (and returns the text itself when
     * it holds none): a board's text is mostly such runs, and escaping it a character at a time cost three to
     * four times as much.
     */
    static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
    }

    /** An object of a type no Board can be cast to (for equals_uncastable). */
    private static final class Uncastable {
        @Override
        public String toString() {
            return "an object of a private class";
        }
    }
}
