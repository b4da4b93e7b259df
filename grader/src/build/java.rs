//! Building a Java submission: the student's `Board.java` and `Solver.java` (default package) compiled with
//! our adapter (`adapters/java/`), and the `java` command lines that start the protocol server over them, one
//! JVM for each world (`build::jvm`).
//!
//! The adapter's sources are embedded in the grader binary and compiled once per source version into
//! `WORK/java-adapter-HASH/` (`classes/` is the named module `npuzzle`: the server and our
//! `edu.princeton.cs.algs4` stand-ins, the only package it exports; `refboard/` the reference `Board`;
//! `agent.jar` the memory agent's manifest). The student's files are compiled twice, against the module and
//! the Java SE API alone (so `import npuzzle.…` or `sun.misc.Unsafe` does not compile), into
//! `WORK/java-submission-HASH/`:
//!
//! - `own/` — their `Board.java` and `Solver.java` together (the `own` world);
//! - `ref/` — their `Solver.java` alone against our reference `Board.class` (the `ref` world, as the official
//!   grader substitutes its Board; the `ref` JVM loads the reference Board from `refboard/`). If it does not
//!   compile (the Solver uses Board members outside the API), the build is still ready: the server then
//!   answers every `ref`-world solver request with an exception carrying javac's output, and the Board tests
//!   run as usual.
//!
//! A student compile error is [`Prepared::CompileFailed`] with javac's output (relative paths); only a
//! problem on the grader's side (no JDK, an unwritable work directory, an adapter bug) is an error.
//!
//! This file is the build's order ([`build_java`]); its parts are one concept per file: `jdk` (finding the
//! JDK and running its tools), `adapter` (the embedded adapter and its compile), `student` (the student's
//! files, their compile into both worlds, and the hints that explain javac), `cache` (build directories
//! named by a hash and published when complete), `error` ([`JavaBuildError`]). The machine's memory, which
//! sizes the heap, is `build::machine`.

mod adapter;
mod cache;
mod error;
mod jdk;
mod student;

use std::fs;
use std::io;
use std::path::Path;
#[cfg(test)]
use std::path::PathBuf;

use self::adapter::build_adapter;
pub use self::adapter::textbook_sources;
use self::cache::{publish, staging_dir};
use self::error::io_error;
pub use self::error::JavaBuildError;
#[cfg(test)]
use self::jdk::find_tool;
use self::jdk::Jdk;
use self::student::{
    compile_student, extra_files_hint, package_declarations, strip_bom, strip_package_declarations, STUDENT_FILES,
};
use super::jvm::Jvm;
use super::step::{link_refused, BuildLimits, Heap, Launch, Prepared, WorldLaunches};

use corpus::rng::StableHash;

/// Compiles a Java submission folder (Board.java + Solver.java, default package) and the adapter. Ready, it
/// is a JVM for each world (`build::jvm`): the `java` launcher with its options, the agent, the adapter's
/// module and `--own DIR` or `--ref DIR --board DIR [--ref-error FILE]`, `JAVA_HOME` when the grader has it,
/// and what that JVM reads, shown read-only; never an address-space limit (the JVM reserves its heap up
/// front).
pub fn build_java(
    submission: &Path,
    work: &Path,
    heap: Heap,
    limits: &BuildLimits,
    policy: &crate::policy::JavaBuild,
) -> Result<Prepared, JavaBuildError> {
    let jdk = Jdk { limits: *limits, ..Jdk::find()? };
    fs::create_dir_all(work).map_err(io_error(format!("cannot create the work directory {}", work.display())))?;
    let work = fs::canonicalize(work).map_err(io_error(format!("cannot resolve {}", work.display())))?;
    let adapter = build_adapter(&jdk, &work)?;

    let mut sources = Vec::new();
    for name in STUDENT_FILES {
        let path = submission.join(name);
        if let Some(log) = link_refused(&path, name) {
            return Ok(Prepared::CompileFailed { log });
        }
        match fs::read(&path) {
            Ok(bytes) => sources.push((name, strip_bom(bytes))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Prepared::CompileFailed {
                    log: format!("{name} is missing: a Java submission is the two files Board.java and Solver.java"),
                });
            }
            Err(e) => return Err(io_error(format!("cannot read {}", path.display()))(e)),
        }
    }
    let mut notes = Vec::new();
    if policy.grade_package_declarations {
        notes = strip_package_declarations(&mut sources);
    } else if let Some(log) = package_declarations(&sources) {
        return Ok(Prepared::CompileFailed { log });
    }

    let mut key = StableHash::default();
    key.write_chunk(adapter.key.as_bytes());
    key.write_chunk(jdk::INLINE_STRING_CONCAT.as_bytes());
    for (name, bytes) in &sources {
        key.write_chunk(name.as_bytes());
        key.write_chunk(bytes);
    }
    let dir = work.join(format!("java-submission-{:016x}", key.finish()));
    if !crate::output::is_published(&dir) {
        let tmp = staging_dir(&dir)?;
        let built = compile_student(&jdk, &adapter, &sources, &tmp);
        if built.is_err() {
            let _ = fs::remove_dir_all(&tmp);
        }
        built?;
        publish(&tmp, &dir)?;
    }
    let own_failure = dir.join("own-error.txt");
    if own_failure.is_file() {
        let log = fs::read_to_string(&own_failure).map_err(io_error("cannot read the compile log"))?;
        return Ok(Prepared::CompileFailed { log: extra_files_hint(submission).unwrap_or_default() + &log });
    }

    let jvm = Jvm {
        java: jdk.java.clone(),
        home: jdk.home(),
        module: adapter.classes.clone(),
        agent: adapter.agent.clone(),
        reference_board: adapter.refboard.clone(),
        heap,
    };
    let ref_error = dir.join("ref-error.txt");
    let ref_error = ref_error.is_file().then_some(ref_error.as_path());
    // what the build changed is said once, with the world every report has
    let own = Launch { notes, ..jvm.own(&dir.join("own")) };
    let (reference, reference_rerun) = jvm.reference(&dir.join("ref"), ref_error);
    Ok(Prepared::PerWorld(Box::new(WorldLaunches { own, reference, reference_rerun })))
}

#[cfg(test)]
#[path = "java_memory_tests.rs"]
mod memory_tests;

#[cfg(test)]
#[path = "java_sites_tests.rs"]
mod sites_tests;

#[cfg(test)]
#[path = "java_class_check.rs"]
mod class_check;

#[cfg(test)]
#[path = "java_outbox_tests.rs"]
mod outbox_tests;

#[cfg(test)]
#[path = "java_expanded_tests.rs"]
mod expanded_tests;

#[cfg(test)]
#[path = "java_registry_tests.rs"]
mod registry_tests;

#[cfg(test)]
#[path = "java_text_tests.rs"]
mod text_tests;

#[cfg(test)]
#[path = "java_initializer_tests.rs"]
mod initializer_tests;

#[cfg(test)]
#[path = "java_textbook_tests.rs"]
mod textbook_tests;

#[cfg(test)]
#[path = "java_interrupt_tests.rs"]
mod interrupt_tests;

#[cfg(test)]
#[path = "java_exception_tests.rs"]
mod exception_tests;

#[cfg(test)]
mod tests {
    use super::super::conversation::{counter, neighbor_texts, one_text_fails, texts, Conversation};
    use super::*;
    use npuzzle_harness::protocol::Outcome;

    pub(super) fn java_available() -> bool {
        let found = find_tool("javac").is_some() && find_tool("java").is_some();
        if !found {
            eprintln!("skipped: no JDK on this machine");
        }
        found
    }

    /// A heap of `mb` for the plan of a test: small searches.
    pub(super) fn heap(mb: u64) -> Heap {
        Heap { mb, largest_solve: 0 }
    }

    /// One work directory for all tests, so the adapter is compiled once.
    pub(super) fn work() -> PathBuf {
        std::env::temp_dir().join("npuzzle-grader-java-tests")
    }

    pub(super) fn gallery(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/submissions/java").join(name)
    }

    /// The handshake of a Java server: fixed capabilities, then the runtime's threads.
    fn runtime_threads(c: &mut Conversation) -> Vec<u32> {
        let hello = c.ask("hello 1");
        let (fixed, threads) = hello.split_once(" runtime_threads=").expect("the runtime's threads are named");
        assert_eq!(
            fixed,
            "ok 1 java ref_world counters counters_heap call_sites refs neighbor_texts texts memory counters_deep null \
             foreign api_check iterables"
        );
        threads.split(',').map(|tid| tid.parse().expect("a thread id")).collect()
    }

    /// The submission at `dir` built as the tests build it: a 256 MB heap, the default limits and policy.
    pub(super) fn build(dir: &Path) -> Prepared {
        build_java(dir, &work(), heap(256), &BuildLimits::default(), &Default::default()).unwrap()
    }

    #[test]
    fn valid_submission_speaks_the_protocol_with_reference_counts() {
        if !java_available() {
            return;
        }
        let build = build(&gallery("valid"));
        let mut c = Conversation::start(build.clone());
        let threads = runtime_threads(&mut c);
        // the garbage collector's 2 and the compilers' 2 at least; never the process's first thread
        assert!(threads.len() >= 6 && !threads.contains(&c.child.id()), "{threads:?}");
        assert_eq!(c.ask("board own 3 8 1 3 4 0 2 7 6 5"), "ok b1");
        assert_eq!(c.ask("manhattan b1"), "ok 10");
        assert_eq!(c.ask("to_string b1"), r"ok 3\n 8  1  3 \n 4  0  2 \n 7  6  5 \n");
        assert_eq!(c.ask("neighbors b1"), "ok 4 b2 b3 b4 b5");
        // Request 4 was `neighbors`: references name the handles of its reply.
        assert_eq!(c.ask("manhattan @4.3"), c.ask("manhattan b5"));
        assert_eq!(c.ask("hamming @4.4"), "err protocol @4.4 refers to handle 4 of request 4, which returned 4");
        // `neighbors_texts`: a neighbors() and a toString() of each of its first three boards, in one request
        let (id, handles, neighbors_read) = neighbor_texts(&mut c, "b1", 3);
        assert_eq!((handles.len(), neighbors_read.len()), (4, 3));
        assert_eq!(c.ask(&format!("manhattan @{id}.3")), c.ask(&format!("manhattan {}", handles[3])));
        assert_eq!(neighbor_texts(&mut c, "b1", 0).2, []);
        // `texts`: a toString() of each board named, a handle that names none failing its text alone
        let solver = c.ask("solver b1");
        let solver = solver.strip_prefix("ok ").unwrap_or_else(|| panic!("{solver}"));
        let read = texts(&mut c, &["b2", "b1", "b99", "b5", solver]);
        assert!(matches!(&read[2], Outcome::Protocol(why) if why.contains("b99")), "{read:?}");
        assert!(matches!(&read[4], Outcome::Protocol(why) if why.ends_with("is not a board")), "{read:?}");
        assert_eq!(c.ask("texts"), "err protocol `texts` takes one handle or more, got none");
        let malformed = c.ask("texts b1 foo");
        assert!(malformed.starts_with("err protocol ") && malformed.contains("foo"), "{malformed}");
        assert_eq!(
            c.ask("neighbors_texts b1"),
            "err protocol `neighbors_texts` takes a handle and a count, got 1 arguments"
        );
        assert_eq!(c.ask("equals_null b1"), "ok false");
        assert_eq!(c.ask("equals_foreign b1"), "ok false");
        assert_eq!(c.ask("equals_uncastable b1"), "ok false");
        assert_eq!(c.ask("equals_as_object b1 b1"), "ok true");
        assert_eq!(
            c.ask("solver_null own"),
            "err exception java.lang.IllegalArgumentException initial board is null (at Solver.java:29)"
        );
        assert_eq!(c.ask("hamming b99"), "err protocol unknown handle b99");
        assert_eq!(c.ask("api"), "ok 0");
        // A Stack iterates afresh in every loop: two nested loops over one neighbors() see all four each time.
        let nested = c.ask("neighbors_nested b1");
        let lists = npuzzle_harness::protocol::decode_handle_lists(&nested["ok ".len()..]).unwrap();
        assert_eq!(lists.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 4, 4, 4], "{nested}");
        assert_eq!(
            c.ask("board ref 2 1 2 3 0"),
            "err protocol the ref world is served by a process of its own (this one serves own)"
        );
        c.finish();

        let mut c = Conversation::start_ref(build);
        runtime_threads(&mut c);
        assert_eq!(c.ask("board ref 3 0 1 3 4 2 5 7 8 6"), "ok b1");
        assert_eq!(c.ask("counters_reset heap"), "ok");
        assert_eq!(c.ask("solver b1"), "ok s2");
        let counters = c.ask("counters deep");
        // the Rust reference's figures for this board (`solver --stats`)
        for (name, value) in [
            ("pq_inserts", 20),
            ("pq_del_mins", 9),
            ("pq_max_size", 12),
            ("pq_ending_size", 11),
            ("board_constructed", 25),
            ("board_equals", 20),
            ("board_equals_not_grand_neighbor", 0),
            ("board_manhattan", 29),
            ("board_expanded", 8),
            ("board_neighbors_distinct", 8),
            ("pq_heap_violations", 0),
        ] {
            assert_eq!(counter(&counters, name), value, "{name} in {counters}");
        }
        assert!(counter(&counters, "pq_deep_bytes") > 0, "{counters}");
        assert_eq!(c.ask("moves s2"), "ok 4");
        assert_eq!(c.ask("solution s2"), "ok 5 b3 b4 b5 b6 b7");
        assert_eq!(c.ask("to_string b7"), r"ok 3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n");
        let bytes: u64 = c.ask("memory_board ref 3 1 2 3 4 5 6 7 8 0")[3..].parse().unwrap();
        assert!((64..=196).contains(&bytes), "{bytes}");
        assert_eq!(
            c.ask("board own 2 1 2 3 0"),
            "err protocol the own world is served by a process of its own (this one serves ref)"
        );
        assert_eq!(c.ask("api"), "err protocol `api` checks the own world, which another process serves");
        c.finish();
    }

    /// A toString() that throws for one neighbor fails that text alone in `neighbors_texts`: the next is still
    /// read, and the handles are recorded for references, as with a `to_string` request each.
    #[test]
    fn a_text_that_throws_is_that_texts_failure_alone() {
        if !java_available() {
            return;
        }
        let original = fs::read_to_string(gallery("valid").join("Board.java")).unwrap();
        let board = original.replace(
            "    public String toString() {\n",
            "    public String toString() {\n        if (tiles[0][0] == 0) throw new IllegalStateException(\"no text\");\n",
        );
        assert!(board.contains("no text"), "{board}");
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("Board.java"), board).unwrap();
        fs::copy(gallery("valid").join("Solver.java"), dir.path().join("Solver.java")).unwrap();
        one_text_fails(Conversation::start(build(dir.path())), "java.lang.IllegalStateException");
    }

    /// `neighbors_after` and `neighbors_nested` hold the student's Iterable as it is: a neighbors() that
    /// refills one static list and wraps it in an Iterable that is its own Iterator shows both faults, while
    /// the plain `neighbors` still copies at once.
    #[test]
    fn the_iterable_verbs_hold_the_students_result_uncopied() {
        if !java_available() {
            return;
        }
        let original = fs::read_to_string(gallery("valid").join("Board.java")).unwrap();
        let board = original
            .replace("Stack<Board> result = new Stack<Board>();", "SHARED.clear();\n        java.util.List<Board> result = SHARED;")
            .replace("result.push(new Board(copy));", "result.add(new Board(copy));")
            .replace("        return result;\n", "        return new OneShot(result);\n")
            .replace(
                "    private int[][] copyTiles() {",
                "    private static final java.util.List<Board> SHARED = new java.util.ArrayList<>();\n\
                 \n    private static class OneShot implements Iterable<Board>, java.util.Iterator<Board> {\n\
                 \x20       private final java.util.List<Board> list;\n\
                 \x20       private int next;\n\
                 \x20       OneShot(java.util.List<Board> list) { this.list = list; }\n\
                 \x20       public java.util.Iterator<Board> iterator() { return this; }\n\
                 \x20       public boolean hasNext() { return next < list.size(); }\n\
                 \x20       public Board next() { return list.get(next++); }\n    }\n\n    private int[][] copyTiles() {",
            );
        assert!(board.contains("SHARED.clear()") && board.contains("return new OneShot(result);"), "{board}");
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("Board.java"), board).unwrap();
        fs::copy(gallery("valid").join("Solver.java"), dir.path().join("Solver.java")).unwrap();
        let mut c = Conversation::start(build(dir.path()));
        c.ask("hello 1");
        assert_eq!(c.ask("board own 3 8 1 3 4 0 2 7 6 5"), "ok b1");
        assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b2");
        // b1's result, held while b2's call refills the list, yields b2's two neighbors.
        assert_eq!(c.ask("neighbors_after b1 b2"), "ok 2 b3 b4 2 b5 b6");
        assert_eq!(c.ask("to_string b3"), c.ask("to_string b5"));
        // The inner loop shares the outer loop's position: the outer loop ends after its first board.
        assert_eq!(c.ask("neighbors_nested b1"), "ok 1 b7 3 b8 b9 b10");
        assert_eq!(c.ask("neighbors b1"), "ok 4 b11 b12 b13 b14");
        assert_eq!(c.ask("neighbors_after b1 b99"), "err protocol unknown handle b99");
        c.finish();
    }

    /// A folder with the `valid` gallery Board and its Solver with `edit` applied.
    pub(super) fn valid_with_solver(edit: impl FnOnce(String) -> String) -> tempfile::TempDir {
        valid_with("Solver.java", edit)
    }

    /// The `valid` submission with its `file` (Board.java or Solver.java) edited.
    pub(super) fn valid_with(file: &str, edit: impl FnOnce(String) -> String) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for name in ["Board.java", "Solver.java"] {
            fs::copy(gallery("valid").join(name), dir.path().join(name)).unwrap();
        }
        let original = fs::read_to_string(dir.path().join(file)).unwrap();
        let edited = edit(original.clone());
        assert_ne!(edited, original, "the edit applies");
        fs::write(dir.path().join(file), edited).unwrap();
        dir
    }

    #[test]
    fn an_exhausted_heap_fails_the_request_in_words_and_the_server_goes_on() {
        if !java_available() {
            return;
        }
        let dir = valid_with_solver(|s| {
            s.replace(
                "MinPQ<SearchNode> pq = new",
                "if (initial.dimension() == 2) { long[][] hog = new long[1 << 20][];                  for (int i = 0; i < hog.length; i++) hog[i] = new long[1 << 10]; }\n        MinPQ<SearchNode> pq = new",
            )
        });
        let mut c = Conversation::start_ref(
            build_java(dir.path(), &work(), heap(96), &BuildLimits::default(), &Default::default()).unwrap(),
        );
        c.ask("hello 1");
        assert_eq!(c.ask("board ref 2 1 2 3 0"), "ok b1");
        assert_eq!(c.ask("solver b1"), "err exception java.lang.OutOfMemoryError Java heap space (heap 96 MB)");
        assert_eq!(c.ask("board ref 3 0 1 3 4 2 5 7 8 6"), "ok b2");
        assert_eq!(c.ask("solver b2"), "ok s3");
        c.finish();
    }

    /// A Solver that spends CPU where a test wants it, by the board's size. 2-by-2: the request thread itself
    /// computes forever. 3-by-3: a helper thread computes for 1.5 s of its CPU while the request thread waits
    /// for it (within the wall-clock safety net of 4.5 s that a 0.5 s limit has, so on a machine that is not
    /// overloaded only the CPU limit can end it early). 4-by-4: 40 MB kept alive, then 40 full collections of
    /// it: seconds of the collector's CPU, a few hundredths of the request thread's.
    fn cpu_spending_solver() -> tempfile::TempDir {
        valid_with_solver(|s| {
            s.replace(
                "MinPQ<SearchNode> pq = new",
                "if (initial.dimension() == 3) { Thread helper = new Thread(() -> { java.lang.management.ThreadMXBean t = \
                 java.lang.management.ManagementFactory.getThreadMXBean(); long end = t.getCurrentThreadCpuTime() \
                 + 1_500_000_000L; while (t.getCurrentThreadCpuTime() < end) { } }); helper.start(); \
                 try { helper.join(); } catch (InterruptedException e) { } }\n\
                 if (initial.dimension() == 4) { int[][] kept = new int[1 << 20][]; \
                 for (int i = 0; i < kept.length; i++) kept[i] = new int[8]; \
                 for (int i = 0; i < 40; i++) System.gc(); if (kept[7].length != 8) throw new IllegalStateException(); }\n\
                 if (initial.dimension() == 2) { while (System.nanoTime() != 0) { } }\n        MinPQ<SearchNode> pq = new",
            )
        })
    }

    /// The `ref` world's JVM of a submission, as the grader starts it.
    fn ref_world_spec(submission: &Path) -> crate::runner::spec::ProcessSpec {
        let Prepared::PerWorld(launches) =
            build_java(submission, &work(), heap(512), &BuildLimits::default(), &Default::default()).unwrap()
        else {
            panic!("the submission compiles")
        };
        launches.reference.process
    }

    /// The JVM's own threads are left out of the charge: a request whose work is mostly the garbage
    /// collector's is charged a small part of what the JVM spent on it. (A ratio of CPU times, the same on a
    /// fast machine and a loaded one; no deadline can end the request.)
    #[test]
    fn the_jvms_own_threads_are_not_charged() {
        use crate::runner::process::{Deadline, SubmissionProcess};
        use std::time::Duration;

        if !java_available() {
            return;
        }
        let dir = cpu_spending_solver();
        let mut jvm = SubmissionProcess::spawn(&ref_world_spec(dir.path())).unwrap();
        let patient = Deadline::from_cpu(Duration::from_secs(120));
        let ask = |jvm: &mut SubmissionProcess, line: &str| {
            jvm.send_line(line).unwrap();
            jvm.recv_line(patient).unwrap()
        };
        let hello = ask(&mut jvm, "0 hello 1");
        let runtime: Vec<u32> =
            hello.split_once("runtime_threads=").expect(&hello).1.split(',').map(|t| t.parse().unwrap()).collect();
        jvm.exclude_runtime_threads(&runtime);
        // the JVM's CPU time, all threads (ticks are precise enough for a ratio)
        let program = fs::read_to_string(format!("/proc/{}/task/{}/children", jvm.pid(), jvm.pid())).unwrap();
        let program: u32 = program.split_whitespace().next().unwrap().parse().unwrap();
        let whole = || {
            let stat = fs::read_to_string(format!("/proc/{program}/stat")).unwrap();
            let fields: Vec<u64> = stat
                .rsplit_once(')')
                .unwrap()
                .1
                .split_whitespace()
                .skip(11)
                .take(2)
                .map(|f| f.parse().unwrap())
                .collect();
            fields[0] + fields[1]
        };
        let (charged_before, whole_before) = (jvm.cpu_time(), whole());
        assert_eq!(ask(&mut jvm, "1 board ref 4 1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15").split(' ').nth(3), Some("b1"));
        assert!(ask(&mut jvm, "2 solver b1").starts_with("2 ok "));
        let charged = jvm.cpu_time() - charged_before;
        // SAFETY: sysconf has no preconditions.
        let ticks = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap();
        let spent = Duration::from_millis((whole() - whole_before) * 1000 / ticks);
        assert!(spent > charged * 4, "charged {charged:?} of the {spent:?} the JVM spent");
        jvm.kill();
    }

    /// Every thread a student's code starts is charged: a search on a helper thread that the request thread
    /// waits for times out as it does on the request thread.
    #[test]
    fn a_helper_threads_cpu_is_charged_like_the_request_threads() {
        use crate::runner::session::{Fault, Session, SessionLimits};
        use npuzzle_harness::protocol::{Handle, Request, Tiles, World};
        use std::time::Duration;

        if !java_available() {
            return;
        }
        let dir = cpu_spending_solver();
        let limits = SessionLimits {
            startup: Duration::from_secs(20),
            request: Duration::from_secs(1),
            ..SessionLimits::default()
        };
        let mut session = Session::new(ref_world_spec(dir.path()), limits).trusting_runtime_threads();
        assert!(!session.handshake().unwrap().runtime_threads.is_empty());
        let board =
            |n: usize, tiles: &[u32]| Request::Board { world: World::Ref, tiles: Tiles { n, tiles: tiles.to_vec() } };
        let limit = Duration::from_millis(500);
        // A machine too busy to run the program at all makes a wait a stall, not a time-out (`runner::stall`):
        // that attempt says nothing about the charge and is retried (as the grade replays a stalled test).
        // Every attempt ends its process (a time-out or a stall); the next request starts one.
        let mut failures = 0;
        let mut solve = |session: &mut Session, n: usize, tiles: &[u32]| {
            for attempt in 1..=5 {
                let b = session.call(&board(n, tiles)).unwrap().values;
                let result = session.call_within(&Request::Solver(Handle::Board(b[1..].parse().unwrap())), limit);
                failures += 1;
                if !matches!(result, Err(Fault::Stalled(_))) || attempt == 5 {
                    return result;
                }
            }
            unreachable!("the fifth attempt returns")
        };
        match solve(&mut session, 3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]) {
            Err(Fault::Timeout(why)) => assert!(why.contains("0.50 s of CPU"), "{why}"),
            other => panic!("the helper thread's search is charged: {other:?}"),
        }
        match solve(&mut session, 2, &[1, 2, 3, 0]) {
            Err(Fault::Timeout(why)) => assert!(why.contains("0.50 s of CPU"), "{why}"),
            other => panic!("the request thread's own loop times out: {other:?}"),
        }
        assert_eq!(session.starts(), failures);
        // Pipelined: the replies before a request that hangs are not held back by it, also when the outbox's
        // watchdog sleeps on a timer set for an earlier batch's replies (written since), not woken again.
        let earlier = [board(2, &[1, 2, 3, 0]), board(2, &[1, 2, 3, 0])];
        let answered = session.call_each(&earlier);
        assert!(answered.iter().all(Result::is_ok), "{answered:?}");
        let script = [
            board(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]),
            board(2, &[1, 2, 3, 0]),
            Request::Solver(Handle::Reply { request: 1, index: 0 }),
        ];
        let results = session.call_each(&script);
        assert!(results[0].is_ok() && results[1].is_ok(), "{results:?}");
        assert!(matches!(results[2], Err(Fault::Timeout(_) | Fault::Stalled(_))), "{results:?}");
        assert_eq!(session.starts(), failures + 1);
    }

    /// Whatever a student's code throws or returns, and whatever happens while the server describes it, is
    /// the student's failure (`err exception`), never the adapter's (`err protocol`).
    #[test]
    fn what_student_code_does_while_being_handled_is_the_students() {
        if !java_available() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let original = fs::read_to_string(gallery("valid").join("Board.java")).unwrap();
        let board = original
            .replace(
                "    public int dimension() {\n        return n;",
                "    public Object dimension() {\n        if (n == 2) return new Object() { public String toString() { \
                 throw new IllegalStateException(); } };\n        return n;",
            )
            .replace(
                "    public int hamming() {\n",
                "    public int hamming() {\n        if (n == 2) throw new RuntimeException() { \
                 public String getMessage() { return null; } \
                 public Throwable getCause() { throw new IllegalStateException(); } \
                 public StackTraceElement[] getStackTrace() { return null; } };\n",
            )
            .replace(
                "    public Iterable<Board> neighbors() {\n",
                "    public Iterable<Board> neighbors() {\n        if (n == 2) return () -> { throw new Error() { \
                 public String getMessage() { throw new UnsupportedOperationException(); } }; };\n",
            );
        assert_eq!(board.matches("n == 2").count(), 3, "the edits apply");
        let solver = fs::read_to_string(gallery("valid").join("Solver.java")).unwrap();
        let solver = solver
            .replace("public class Solver {", "public class Solver {\n    private static boolean solved;")
            .replace("        goal = found;\n", "        goal = found;\n        solved = true;\n")
            .replace("        public int compareTo(SearchNode that) {\n", "        public int compareTo(SearchNode that) {\n            if (solved) throw new IllegalStateException(\"solved\");\n");
        assert_eq!(solver.matches("solved").count(), 4, "the edits apply");
        fs::write(dir.path().join("Board.java"), board).unwrap();
        fs::write(dir.path().join("Solver.java"), solver).unwrap();
        let mut c = Conversation::start(build(dir.path()));
        c.ask("hello 1");
        assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
        assert_eq!(
            c.ask("dimension b1"),
            "err exception java.lang.ClassCastException dimension() returned a Board$1, not a number, boolean or string"
        );
        // no message, no cause (its getCause() throws), no stack trace (null): the type alone
        assert_eq!(c.ask("hamming b1"), "err exception Board$2 ");
        let neighbors = c.ask("neighbors b1");
        let expected =
            "err exception Board$3 its getMessage() threw java.lang.UnsupportedOperationException (at Board.java:";
        assert!(neighbors.starts_with(expected), "{neighbors}");
        assert_eq!(c.ask("board own 3 0 1 3 4 2 5 7 8 6"), "ok b2");
        // the queues' last heap-order check (asked for: `counters_reset heap`) runs when the grader reads the
        // counters, after the Solver's calls
        assert_eq!(c.ask("counters_reset heap"), "ok");
        assert_eq!(c.ask("solver b2"), "ok s3");
        let counted = c.ask("counters");
        assert!(
            counted.starts_with("err exception java.lang.IllegalStateException solved (at Solver.java:")
                && counted.ends_with("(when the grader re-checked the MinPQ's heap order after its last calls to the Solver, which calls compareTo())"),
            "{counted}"
        );
        c.finish();
    }

    #[test]
    fn compile_errors_come_back_with_relative_paths() {
        if !java_available() {
            return;
        }
        // the gallery entry links the valid Board.java, and a link is refused by name: compile a copy
        let linked = build(&gallery("compile-error"));
        assert!(matches!(&linked, Prepared::CompileFailed { log } if log.starts_with("Board.java is a symbolic link")));
        let dir = tempfile::tempdir().unwrap();
        for file in ["Board.java", "Solver.java"] {
            fs::copy(gallery("compile-error").join(file), dir.path().join(file)).unwrap();
        }
        let build = build(dir.path());
        let Prepared::CompileFailed { log } = build else { panic!("{build:?}") };
        assert!(log.contains("Solver.java:") && log.contains("error"), "{log}");
        assert!(!log.contains(&*work().to_string_lossy()), "{log}");
    }

    #[test]
    fn compiles_in_one_jvm_each_leave_their_own_status_and_log() {
        if !java_available() {
            return;
        }
        let jdk = Jdk::find().unwrap();
        let adapter = build_adapter(&jdk, &fs::canonicalize(work()).unwrap_or_else(|_| work())).unwrap();
        let staging = tempfile::tempdir().unwrap();
        let src = staging.path().join("src");
        fs::create_dir_all(&src).unwrap();
        fs::write(src.join("Bad.java"), "public class Bad { int x = ; }\n").unwrap();
        fs::write(src.join("Good.java"), "public class Good {}\n").unwrap();
        let compile = |out: &str, file: &str| {
            self::jdk::javac_args(&staging.path().join(out), &[], "UTF-8", &[PathBuf::from(file)]).unwrap()
        };
        // the failing compile first: the one after it still runs, and each says only its own
        let compilations = [("bad", compile("bad", "Bad.java")), ("good", compile("good", "Good.java"))];
        let (run, compiled) =
            self::jdk::compile_in_one_jvm(&jdk, staging.path(), &src, (&adapter.compiler, &[]), &compilations).unwrap();
        assert!(run.success(), "{}", run.combined());
        assert_eq!(compiled.iter().map(|c| c.status).collect::<Vec<_>>(), [Some(1), Some(0)], "{compiled:?}");
        assert!(compiled[0].log.starts_with("Bad.java:1: error:"), "{}", compiled[0].log);
        assert_eq!(compiled[1].log, "");
        assert!(staging.path().join("good/Good.class").is_file() && !staging.path().join("bad/Bad.class").exists());
    }

    #[test]
    fn compiles_stopped_by_the_wall_clock_say_so_and_nothing_of_the_runner() {
        if !java_available() {
            return;
        }
        // the adapter built with the usual limits first; then a Solver javac needs many seconds for (150,000
        // methods: about 8 s here), stopped after 1.5 s, when the runner has long said `ready`
        build_adapter(&Jdk::find().unwrap(), &fs::canonicalize(work()).unwrap_or_else(|_| work())).unwrap();
        let dir = tempfile::tempdir().unwrap();
        fs::copy(gallery("valid").join("Board.java"), dir.path().join("Board.java")).unwrap();
        let mut solver = format!("// {:?}\npublic class Solver {{\n", std::time::SystemTime::now());
        for i in 0..150_000 {
            solver.push_str(&format!("    int m{i}(int x) {{ return x * {i} + 1; }}\n"));
        }
        fs::write(dir.path().join("Solver.java"), solver + "}\n").unwrap();
        let limits = BuildLimits { wall: std::time::Duration::from_millis(1500), ..BuildLimits::default() };
        let built = build_java(dir.path(), &work(), heap(256), &limits, &Default::default()).unwrap();
        let Prepared::CompileFailed { log } = built else { panic!("{built:?}") };
        assert!(log.starts_with("the build did not finish within 1.5 s"), "{log}");
        assert!(!log.contains("ready") && !log.contains("javac-own.log"), "the runner's lines are not javac's: {log}");
    }

    #[test]
    fn a_flood_of_compile_errors_keeps_its_first_sixteen_mib() {
        if !java_available() {
            return;
        }
        // one line of 590 KB with 40,000 errors: javac prints the line and a caret line under each of its 50
        // (58 MB)
        let dir = tempfile::tempdir().unwrap();
        fs::copy(gallery("valid").join("Board.java"), dir.path().join("Board.java")).unwrap();
        let fields: Vec<String> = (0..40_000).map(|i| format!("int a{i} = ;")).collect();
        fs::write(dir.path().join("Solver.java"), format!("public class Solver {{ {} }}\n", fields.join(" "))).unwrap();
        let built = build(dir.path());
        let Prepared::CompileFailed { log } = built else { panic!("{built:?}") };
        assert!(log.starts_with("Solver.java:1: error: illegal start of expression"), "{}", &log[..200]);
        // the first 16 MiB kept whole (javac printed 58 MB), not a byte more
        let cap = crate::runner::tool::OUTPUT_CAP;
        assert!((cap - 4096..=cap).contains(&log.len()), "{} bytes", log.len());
    }

    #[test]
    fn a_package_line_is_explained() {
        let dir = tempfile::tempdir().unwrap();
        let board = "/* Board */\n// by me\npackage puzzle . eight;\n\npublic class Board {}\n";
        fs::write(dir.path().join("Board.java"), board).unwrap();
        fs::write(dir.path().join("Solver.java"), "public class Solver {}\n").unwrap();
        if !java_available() {
            return;
        }
        let build = build(dir.path());
        let Prepared::CompileFailed { log } = build else { panic!("{build:?}") };
        assert!(log.starts_with("Board.java:3: error: `package puzzle . eight;`"), "{log}");
        assert!(log.contains("default package"), "{log}");
    }

    #[test]
    fn a_solver_using_non_api_board_members_still_runs_its_board_tests() {
        if !java_available() {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let board = fs::read_to_string(gallery("valid").join("Board.java")).unwrap().replace(
            "    // board dimension n",
            "    public int tileAt(int row, int col) {\n        return tiles[row][col];\n    }\n\n    // board dimension n",
        );
        let solver = fs::read_to_string(gallery("valid").join("Solver.java")).unwrap().replace(
            "MinPQ<SearchNode> pq = new",
            "int corner = initial.tileAt(0, 0);\n        MinPQ<SearchNode> pq = new",
        );
        fs::write(dir.path().join("Board.java"), board).unwrap();
        fs::write(dir.path().join("Solver.java"), solver).unwrap();
        let build = build(dir.path());
        let mut c = Conversation::start(build.clone());
        c.ask("hello 1");
        assert_eq!(c.ask("api"), "ok 1 Board.tileAt(int,int)");
        assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
        assert_eq!(c.ask("solver b1"), "ok s2");
        c.finish();
        let mut c = Conversation::start_ref(build);
        c.ask("hello 1");
        assert_eq!(c.ask("board ref 2 1 2 3 0"), "ok b1");
        assert_eq!(c.ask("is_goal b1"), "ok true");
        let reply = c.ask("solver b1");
        assert!(reply.starts_with("err exception npuzzle.SolverDoesNotCompileWithReferenceBoard "), "{reply}");
        assert!(reply.contains("tileAt"), "{reply}");
        c.finish();
    }
}
