//! The Java adapter's memory figures (`adapters/java/README.md`, "Memory"): the official model's layout checked
//! against the JVM's own in both pointer modes, the figures of known objects in that model, what each queue's
//! walk reaches, statics counted by their growth, and `memory_retained` over a lazy Solver.

use std::fs;
use std::path::Path;
use std::process::Command;

use super::super::conversation::{counter, retained_readings, Conversation};
use super::tests::{build, gallery, java_available, valid_with, valid_with_solver};
use super::*;

/// A 4-move puzzle in the `ref` world: 5 boards on its solution.
const FOUR_MOVES: &str = "3 0 1 3 4 2 5 7 8 6";

/// Lists, for every loaded class it can instantiate (without running a constructor) and for arrays of every
/// type, the JVM's own size where the model given as argument (`official` or `compressed`) disagrees,
/// with why the class may hide fields from reflection (`thread`, `loader`, `module`, else `other`).
const LAYOUT_CHECK: &str = r#"package npuzzle;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

public final class LayoutCheck {
    static class A { byte b; }
    static class B extends A { long l; }
    static class C extends B { int i; short s; Object o; }
    static class D extends A { int i; long l; byte c; char ch; }
    static class E { boolean z; Object o; long l; char c; }
    static class F extends E { Object p; int i; double d; }
    static class G extends C { byte x; long y; Object z; }
    static final Class<?>[] PROBES = {A.class, B.class, C.class, D.class, E.class, F.class, G.class};

    public static void main(String[] args) throws Exception {
        Instrumentation inst = MemoryAgent.instrumentation();
        ObjectLayout model = new ObjectLayout(args[0].equals("official") ? 16 : 12, args[0].equals("official") ? 8 : 4,
                args[0].equals("official") ? 24 : 16, false);
        Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Object unsafe = f.get(null);
        java.lang.reflect.Method allocate = unsafe.getClass().getMethod("allocateInstance", Class.class);
        int checked = 0;
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.isArray() || c.isInterface() || c.isPrimitive() || Modifier.isAbstract(c.getModifiers())) continue;
            Object o;
            try {
                o = allocate.invoke(unsafe, c);
            } catch (Throwable t) {
                continue;
            }
            checked++;
            long jvm = inst.getObjectSize(o);
            if (jvm != model.instanceSize(c)) {
                String kind = Thread.class.isAssignableFrom(c) ? "thread"
                        : ClassLoader.class.isAssignableFrom(c) ? "loader" : c == Module.class ? "module" : "other";
                System.out.println("MISMATCH " + c.getName() + " " + kind + " jvm=" + jvm + " model=" + model.instanceSize(c));
            }
        }
        Class<?>[] types = {boolean.class, byte.class, char.class, short.class, int.class, float.class, long.class,
                double.class, Object.class, String.class};
        for (Class<?> t : types) {
            for (int length : new int[] {0, 1, 2, 3, 5, 7, 9, 100, 101}) {
                Object a = Array.newInstance(t, length);
                checked++;
                if (inst.getObjectSize(a) != model.sizeOf(a)) {
                    System.out.println("MISMATCH " + t.getName() + "[" + length + "] array jvm=" + inst.getObjectSize(a));
                }
            }
        }
        System.out.println("checked " + checked + " probes " + PROBES.length);
    }
}
"#;

/// The `-javaagent:` flag and the adapter's module directory from a ready build (LayoutCheck runs it as a
/// class path, so its package-private members are LayoutCheck's).
fn agent_and_classes(build: &Prepared) -> (String, String) {
    let Prepared::PerWorld(launches) = build else { panic!("expected a ready build: {build:?}") };
    let args: Vec<String> = launches.own.process.args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let agent = args.iter().find(|a| a.starts_with("-javaagent:")).expect("the agent flag").clone();
    let at = args.iter().position(|a| a == "-p").expect("a module path");
    (agent, args[at + 1].clone())
}

/// The lines of LayoutCheck's output under the given JVM flags and model.
fn layout_check(agent: &str, classpath: &str, flags: &[&str], model: &str) -> Vec<String> {
    let java = find_tool("java").expect("java");
    let output = Command::new(java)
        .args(flags)
        .args([agent, "-cp", classpath, "npuzzle.LayoutCheck", model])
        .output()
        .expect("java runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
}

/// The model's layout is the JVM's: in the JVM's own mode (compressed pointers) and in the official one
/// (none), every class the JVM loaded, our probes of tricky inheritance among them, and arrays of every type
/// measure alike, except JDK classes whose fields the JVM hides from reflection (threads, class loaders,
/// modules, reflection and method-handle internals) or pads (a contended counter cell).
#[test]
fn the_layout_model_measures_what_the_jvm_lays_out() {
    if !java_available() {
        return;
    }
    let build = build(&gallery("valid"));
    let (agent, classes) = agent_and_classes(&build);
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("LayoutCheck.java");
    fs::write(&source, LAYOUT_CHECK).unwrap();
    let compiled = Command::new(find_tool("javac").expect("javac"))
        .args(["-nowarn", "--release", "17", "-XDignore.symbol.file", "-cp", &classes, "-d"])
        .arg(dir.path())
        .arg(&source)
        .output()
        .unwrap();
    assert!(compiled.status.success(), "{}", String::from_utf8_lossy(&compiled.stderr));
    let classpath = format!("{classes}:{}", dir.path().display());
    let explained = |line: &str| {
        let name = line.split(' ').nth(1).unwrap_or("");
        [" thread ", " loader ", " module "].iter().any(|kind| line.contains(kind))
            || ["java.lang.reflect.", "java.lang.invoke.", "jdk.internal.", "sun."].iter().any(|p| name.starts_with(p))
            || name == "java.util.concurrent.ConcurrentHashMap$CounterCell"
    };
    for (flags, model) in
        [(&[][..], "compressed"), (&["-XX:-UseCompressedOops", "-XX:-UseCompressedClassPointers"][..], "official")]
    {
        let lines = layout_check(&agent, &classpath, flags, model);
        let summary = lines.last().expect("a summary line");
        let checked: usize = summary.split(' ').nth(1).and_then(|n| n.parse().ok()).expect(summary);
        assert!(checked > 400, "{model}: {summary}");
        let unexplained: Vec<&String> = lines.iter().filter(|l| l.starts_with("MISMATCH") && !explained(l)).collect();
        assert!(unexplained.is_empty(), "{model}: the model differs from the JVM:\n{unexplained:#?}");
    }
}

/// The figures of the official model: our reference Board weighs the official one's (96, 120 and 384 bytes at
/// n = 3, 4, 9), the gallery's Board (an int[][] and four ints) the Board memory table's reference plus 16,
/// the textbook Solver its goal's chain (24 + 5 × (40 + 96) at 4 moves), with or without its solution asked
/// (`memory_retained` does not enter the Iterable solution() returns), and its queues exactly the canonical
/// search's figure in the model of `runner::checks::memory_model`.
#[test]
fn the_valid_submission_measures_the_official_figures() {
    if !java_available() {
        return;
    }
    let build = build(&gallery("valid"));
    let mut own = Conversation::start(build.clone());
    own.ask("hello 1");
    // 40 + (24 + 3 × 8) + 3 × (24 + 3 × 4, padded): 192 + 16
    assert_eq!(own.ask("memory_board own 3 1 2 3 4 5 6 7 8 0"), "ok 208");
    own.finish();
    let mut c = Conversation::start_ref(build);
    c.ask("hello 1");
    assert_eq!(c.ask("memory_board ref 3 1 2 3 4 5 6 7 8 0"), "ok 96");
    assert_eq!(c.ask("memory_board ref 4 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0"), "ok 120");
    let nine: Vec<String> = (1..81).map(|t| t.to_string()).collect();
    assert_eq!(c.ask(&format!("memory_board ref 9 {} 0", nine.join(" "))), "ok 384");
    assert_eq!(c.ask(&format!("board ref {FOUR_MOVES}")), "ok b1");
    assert_eq!(without_walk_cpu(&c.ask("memory_solver b1")), "ok s2 704");
    assert_eq!(retained_readings(&c.ask("memory_retained s2"))[0], 704);
    assert_eq!(c.ask("counters_reset"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s3");
    let counters = c.ask("counters deep");
    // 20 inserts, both queues at 8 slots: 19 × (40 + 96) + 2 × (40 + 24 + 8 × 8)
    assert_eq!(counter(&counters, "pq_deep_bytes"), 19 * 136 + 2 * (40 + 24 + 64), "{counters}");
    // the walk reached everything
    assert_eq!(counter(&counters, "pq_deep_cut"), 0, "{counters}");
    c.finish();
}

/// What a JDK object of a module other than java.base holds is walked too (the agent opens every module of
/// the boot layer): the gallery's Board with 32 bytes a tile more, kept as the user object of a
/// `javax.swing.tree.DefaultMutableTreeNode` (java.desktop), weighs them. With java.base alone open, the node
/// weighed its own 48 bytes and the Board 208 + 48 + 8 at 3-by-3, as if the array were not there.
#[test]
fn what_an_object_of_another_jdk_module_holds_is_weighed() {
    if !java_available() {
        return;
    }
    let dir = valid_with("Board.java", |board| {
        board.replacen(
            "    public Board(int[][] tiles) {\n",
            "    private final javax.swing.tree.DefaultMutableTreeNode hidden;\n\n    public Board(int[][] tiles) {\n        \
             hidden = new javax.swing.tree.DefaultMutableTreeNode(new long[4 * tiles.length * tiles.length]);\n",
            1,
        )
    });
    let mut own = Conversation::start(build(dir.path()));
    own.ask("hello 1");
    let bytes: u64 = own.ask("memory_board own 3 1 2 3 4 5 6 7 8 0")[3..].parse().unwrap();
    // the gallery's 208, the field (8), the node (48) and its long[36] (24 + 36 × 8)
    assert_eq!(bytes, 208 + 8 + 48 + 24 + 36 * 8, "the node's user object is weighed");
    own.finish();
}

/// A thread that is not running is an object like any other: a Board whose 32 bytes a tile hide in the lambda
/// of a Thread it never started (a red-team entry), or in the field of a Thread subclass that has ended, weighs
/// them. Before, the walk skipped every Thread it met and weighed such a Board as the gallery's (208 bytes at
/// 3-by-3, plus its field). The thread's group and security context, which every thread refers to, are not
/// the Board's.
#[rstest::rstest]
#[case::never_started("new Thread(() -> System.out.print(waste.length))")]
#[case::ended("ended(new Thread() { final long[] kept = waste; })")]
fn what_a_thread_that_is_not_running_holds_is_weighed(#[case] thread: &str) {
    if !java_available() {
        return;
    }
    let dir = valid_with("Board.java", |board| {
        board.replacen(
            "    public Board(int[][] tiles) {\n",
            &format!(
                "    private final Thread scratch;\n\n    private static Thread ended(Thread t) {{\n        t.start();\n        \
                 try {{ t.join(); }} catch (InterruptedException e) {{ throw new IllegalStateException(e); }}\n        \
                 return t;\n    }}\n\n    public Board(int[][] tiles) {{\n        \
                 final long[] waste = new long[4 * tiles.length * tiles.length];\n        scratch = {thread};\n"
            ),
            1,
        )
    });
    let mut own = Conversation::start(build(dir.path()));
    own.ask("hello 1");
    let bytes: u64 = own.ask("memory_board own 3 1 2 3 4 5 6 7 8 0")[3..].parse().unwrap();
    own.finish();
    // the gallery's 208, the field (8) and the long[36] (24 + 36 × 8), then the thread, its name and the
    // lambda or subclass: a few hundred bytes, not the thread groups and every thread they list
    let hidden = 208 + 8 + 24 + 36 * 8;
    assert!((hidden..hidden + 600).contains(&bytes), "{bytes} bytes, the array's alone {hidden}");
}

/// A Board that caches a table per n in a static `HashMap` through `computeIfAbsent` weighs what the gallery's
/// Board weighs at every size, as the official table (which sees no statics) weighs it: `computeIfAbsent`
/// leaves the doubling of a table its new key filled to its next call, which one Board built before the
/// measured one left to the measured one (at the thirteenth size: 13 keys pass a 16-slot table's 12).
#[test]
fn a_static_cache_grown_a_call_late_is_not_the_measured_boards() {
    if !java_available() {
        return;
    }
    let dir = valid_with("Board.java", |board| {
        board.replacen(
            "    public Board(int[][] tiles) {\n",
            "    private static final java.util.Map<Integer, int[]> GOALS = new java.util.HashMap<>();\n\n    \
             public Board(int[][] tiles) {\n        GOALS.computeIfAbsent(tiles.length, k -> new int[k * k]);\n",
            1,
        )
    });
    let sizes: Vec<usize> = (2..=17).collect();
    let weigh = |entry: &Path| -> Vec<String> {
        let mut own = Conversation::start(build(entry));
        own.ask("hello 1");
        let replies = sizes
            .iter()
            .map(|&n| {
                let tiles: Vec<String> = (1..n * n).map(|t| t.to_string()).collect();
                own.ask(&format!("memory_board own {n} {} 0", tiles.join(" ")))
            })
            .collect();
        own.finish();
        replies
    };
    assert_eq!(weigh(dir.path()), weigh(&gallery("valid")), "sizes {sizes:?}");
}

/// OFFICIAL-TESTS.md 9.5: when the search nodes are inner classes and the queues Solver fields, each queue
/// reaches the Solver through its nodes' outer instance, and through it the other queue: the queues' deep
/// memory is twice the Solver's.
#[test]
fn each_queue_reaches_the_other_through_its_nodes_outer_solver() {
    if !java_available() {
        return;
    }
    let (entry, _copy) = resolved(&gallery("inner-class-nodes"));
    let mut c = Conversation::start_ref(build(&entry));
    c.ask("hello 1");
    assert_eq!(c.ask(&format!("board ref {FOUR_MOVES}")), "ok b1");
    let solver: u64 = c.ask("memory_solver b1").split(' ').nth(2).unwrap().parse().unwrap();
    assert!(solver > 704, "{solver}");
    assert_eq!(c.ask("counters_reset"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s3");
    assert_eq!(counter(&c.ask("counters deep"), "pq_deep_bytes"), 2 * solver);
    c.finish();
}

/// What the statics of the submission's classes reach counts by its growth over the measured span: a Solver
/// keeping its queues in static fields weighs its goal's node and the Solver (24 + 136 bytes) on top of what
/// the textbook Solver's queues weigh, for every Solver it builds; one keeping them behind a SoftReference
/// adds the reference and its array; a Board's constant table, built by the static initializer before any
/// span (even when the first thing asked is a Board's memory), never counts.
#[test]
fn statics_count_by_their_growth_and_referents_count() {
    if !java_available() {
        return;
    }
    let valid = figures("valid");
    // The second Solver's queues replace the first's in the static fields: they count again.
    let statics = figures("static-search");
    // A Solver with one more field (8), the SoftReference (header, four references and a long: 56), its
    // Object[2] (24 + 2 × 8)
    let soft = figures("soft-reference-search");
    for (k, &(queues, _)) in valid.iter().enumerate() {
        assert_eq!(statics[k].1, 160 + queues, "board {k}: {statics:?} against {valid:?}");
        assert_eq!(soft[k].1, 168 + 56 + 40 + queues, "board {k}: {soft:?} against {valid:?}");
    }
    let (entry, _copy) = resolved(&gallery("board-static-table"));
    let mut c = Conversation::start(build(&entry));
    c.ask("hello 1");
    assert_eq!(c.ask("memory_board own 3 1 2 3 4 5 6 7 8 0"), "ok 208");
    assert_eq!(c.ask("memory_board own 2 1 2 3 0"), "ok 144");
    c.finish();
}

/// A Solver that searches the first time it is asked, keeps its queues in fields, and whose solution()
/// throws: its constructor leaves almost nothing (the Solver and the initial board), `memory_retained` asks
/// moves() (the search runs), isSolvable() and solution() (which throws, ignored) and sees the whole search;
/// its queues, built in moves(), end when the counters are read, as an eager Solver's do.
#[test]
fn a_lazy_solver_is_measured_like_an_eager_one() {
    if !java_available() {
        return;
    }
    let lazy = valid_with_solver(|s| {
        s.replace(
            "private final SearchNode goal;",
            "private SearchNode goal;\n    private Board initial;\n    private MinPQ<SearchNode> pq;\n    \
             private MinPQ<SearchNode> twinPq;",
        )
        .replace(
            "        MinPQ<SearchNode> pq = new MinPQ<SearchNode>();\n        MinPQ<SearchNode> twinPq = new \
             MinPQ<SearchNode>();\n",
            "        this.initial = initial;\n    }\n\n    private void search() {\n        if (initial == null) \
             return;\n        Board initial = this.initial;\n        pq = new MinPQ<SearchNode>();\n        twinPq = \
             new MinPQ<SearchNode>();\n",
        )
        .replace("        goal = found;\n", "        goal = found;\n        this.initial = null;\n")
        .replace("    public boolean isSolvable() {\n", "    public boolean isSolvable() {\n        search();\n")
        .replace(
            "        if (!isSolvable()) return null;\n        Stack<Board> path",
            "        if (isSolvable()) throw new UnsupportedOperationException(\"not yet\");\n        Stack<Board> path",
        )
    });
    let eager = |c: &mut Conversation| {
        c.ask(&format!("board ref {FOUR_MOVES}"));
        c.ask("counters_reset");
        c.ask("solver b1");
        c.ask("moves s2");
        c.ask("counters deep")
    };
    let mut c = Conversation::start_ref(build(&gallery("valid")));
    c.ask("hello 1");
    let expected = eager(&mut c);
    c.finish();
    let mut c = Conversation::start_ref(build(lazy.path()));
    c.ask("hello 1");
    let seen = eager(&mut c);
    for name in ["pq_inserts", "pq_del_mins", "pq_max_size", "pq_ending_size", "pq_deep_bytes"] {
        assert_eq!(counter(&seen, name), counter(&expected, name), "{name}: {seen} against {expected}");
    }
    assert_eq!(c.ask("solution s2").split(' ').next(), Some("err"));
    // the Solver (header and four references) and the initial board
    assert_eq!(without_walk_cpu(&c.ask("memory_solver b1")), "ok s3 144");
    // after moves(): the Solver, its goal's node (40 + 96) and everything its queues hold
    let retained = retained_readings(&c.ask("memory_retained s3"))[0];
    assert_eq!(retained, 48 + 136 + counter(&expected, "pq_deep_bytes"));
    c.finish();
}

/// A Solver weighed as its life's own calls left it: one that keeps its queues in fields and lets them go at
/// its second moves(), the first call of `memory_retained`'s own, weighs what its twin that keeps them weighs.
/// Before the Solver was weighed before that call too, it showed the goal's chain alone.
#[test]
fn a_solver_that_lets_go_when_weighed_is_weighed_before() {
    if !java_available() {
        return;
    }
    let keeping = |drop: &str| {
        let drop = drop.to_string();
        valid_with_solver(move |s| {
            s.replace(
                "    private final SearchNode goal;\n",
                "    private final SearchNode goal;\n    private MinPQ<SearchNode> pq;\n    private MinPQ<SearchNode> \
                 twinPq;\n    private int movesCalls;\n",
            )
            .replace(
                "        MinPQ<SearchNode> pq = new MinPQ<SearchNode>();\n        MinPQ<SearchNode> twinPq = new \
                 MinPQ<SearchNode>();\n",
                "        pq = new MinPQ<SearchNode>();\n        twinPq = new MinPQ<SearchNode>();\n",
            )
            .replace("    public int moves() {\n", &format!("    public int moves() {{\n        movesCalls++;\n{drop}"))
        })
    };
    let weighed = |dir: &Path| {
        let mut c = Conversation::start_ref(build(dir));
        c.ask("hello 1");
        c.ask(&format!("board ref {FOUR_MOVES}"));
        c.ask("memory_solver b1");
        for call in ["moves s2", "is_solvable s2", "solution s2"] {
            assert!(c.ask(call).starts_with("ok "), "{call}");
        }
        let retained = retained_readings(&c.ask("memory_retained s2"))[0];
        c.finish();
        retained
    };
    let kept = weighed(keeping("").path());
    let let_go = weighed(
        keeping("        if (movesCalls == 2) {\n            pq = null;\n            twinPq = null;\n        }\n")
            .path(),
    );
    // the textbook Solver's 704 and the queues (valid's pq_deep_bytes at four moves: 19 × 136 + 2 × 128)
    assert!(kept > 704 + 2_000, "{kept}");
    assert_eq!(let_go, kept);
}

/// The second reading (`memory_retained`'s second and third values): what the whole process keeps, after a
/// full collection, beyond what it held before the submission's first class was defined, and its part in
/// native buffers. A Solver's life is weighed wherever it keeps memory. `java/wasteful`'s every search node,
/// held by a Timer's task, by a parked thread's uncaught-exception handler or by a thread of its own class
/// that names the common fork-join pool (whose JDK workers the walk leaves out), weighs in the walk at least
/// what it weighs in a field (the threads a submission starts are walked whole); a record of each kept in a class
/// initializer's int[8_000_000] is in the heap's reading, and kept in a direct buffer, off the heap. The
/// textbook Solver's process keeps a few tens of KB beyond its baseline: the grader's handles, the classes'
/// metadata, the Solver itself.
#[test]
fn a_solvers_life_is_weighed_wherever_it_keeps_memory() {
    if !java_available() {
        return;
    }
    let hostile = |name: &str| gallery("../hostile/java").join(name);
    let [deep, kept, off_heap] = weighed(&gallery("valid"));
    assert!(kept < 64 << 10 && off_heap == 0, "valid: {deep} bytes deep, {kept} kept, {off_heap} off the heap");
    let [wasteful, ..] = weighed(&hostile("wasteful"));
    for attack in ["timer-task-search", "uncaught-handler-search"] {
        let [deep, ..] = weighed(&hostile(attack));
        assert!(deep >= wasteful, "{attack}: {deep} bytes deep, against wasteful's {wasteful}");
    }
    // a thread of the student's own class is walked whole even where it passes for a common pool's worker
    let (copy, _dir) = resolved(&hostile("thread-subclass-search"));
    let solver = fs::read_to_string(copy.join("Solver.java")).unwrap();
    let disguised = solver.replace("extends Thread {", "extends java.util.concurrent.ForkJoinWorkerThread {").replace(
        "            this.kept = kept;\n",
        "            super(java.util.concurrent.ForkJoinPool.commonPool());\n            this.kept = kept;\n",
    );
    assert!(disguised.contains("super(java.util.concurrent.ForkJoinPool.commonPool())"), "the edit applies");
    let dir = tempfile::tempdir().unwrap();
    fs::copy(copy.join("Board.java"), dir.path().join("Board.java")).unwrap();
    fs::write(dir.path().join("Solver.java"), disguised).unwrap();
    let [deep, ..] = weighed(dir.path());
    assert!(deep >= wasteful, "a ForkJoinWorkerThread of its own: {deep} bytes deep, against wasteful's {wasteful}");
    let [deep, kept, off_heap] = weighed(&hostile("static-array-search"));
    assert!(deep < wasteful && kept > 32_000_000 && off_heap == 0, "{deep} deep, {kept} kept, {off_heap} off");
    let [deep, kept, off_heap] = weighed(&hostile("direct-buffer-search"));
    assert!(deep < wasteful && off_heap == 32 << 20 && kept >= off_heap, "{deep} deep, {kept} kept, {off_heap} off");
}

/// `memory_retained`'s three values for the Solver of a 10-move board, in the `ref` world of the entry at
/// `dir`, after a warm-up Solver as the grader's.
fn weighed(dir: &Path) -> [u64; 3] {
    let (entry, _copy) = resolved(dir);
    let mut c = Conversation::start_ref(build(&entry));
    c.ask("hello 1");
    c.ask("board ref 3 1 2 3 4 5 6 7 0 8");
    c.ask("solver b1");
    c.ask("board ref 3 8 1 3 4 0 2 7 6 5");
    c.ask("memory_solver b3");
    let readings = retained_readings(&c.ask("memory_retained s4"));
    c.finish();
    readings
}

/// For two boards in turn, in one server: the queues' deep memory of a solve and the memory of a Solver
/// `memory_solver` builds next, for a gallery entry.
fn figures(name: &str) -> Vec<(u64, u64)> {
    let (entry, _copy) = resolved(&gallery(name));
    let mut c = Conversation::start_ref(build(&entry));
    c.ask("hello 1");
    let mut figures = Vec::new();
    for board in [FOUR_MOVES, "3 8 1 3 4 0 2 7 6 5"] {
        let b = c.ask(&format!("board ref {board}"))[3..].to_string();
        c.ask("counters_reset");
        c.ask(&format!("solver {b}"));
        let deep = counter(&c.ask("counters deep"), "pq_deep_bytes");
        let solver: u64 = c.ask(&format!("memory_solver {b}")).split(' ').nth(2).unwrap().parse().unwrap();
        figures.push((deep, solver));
    }
    c.finish();
    figures
}

/// A gallery entry ready to build: the entry itself, or a copy with its links resolved (the build refuses
/// links).
fn resolved(entry: &Path) -> (PathBuf, Option<tempfile::TempDir>) {
    let linked = fs::read_dir(entry).unwrap().any(|f| f.unwrap().file_type().unwrap().is_symlink());
    if !linked {
        return (entry.to_path_buf(), None);
    }
    let dir = tempfile::tempdir().unwrap();
    for file in fs::read_dir(entry).unwrap() {
        let file = file.unwrap();
        fs::copy(file.path(), dir.path().join(file.file_name())).unwrap();
    }
    (dir.path().to_path_buf(), Some(dir))
}

/// A `memory_solver` reply without its last value, the CPU its walks took (in microseconds), which must be
/// there.
fn without_walk_cpu(reply: &str) -> &str {
    let (rest, micros) = reply.rsplit_once(' ').expect("a reply with values");
    assert!(micros.parse::<u64>().is_ok(), "the walks' CPU ends `{reply}`");
    rest
}
