//! The `java` command lines that start the Java adapter's server, one JVM for each world, and what each
//! JVM's sandbox shows. `build::java` compiles what they run; this module only says how to start it.
//!
//! Both JVMs run the adapter as the named module `npuzzle` (`-p MODULE -m npuzzle/npuzzle.Server`), which
//! exports the textbook package alone, under a security manager the server installs before any student
//! class loads, with a fixed set of the JVM's own threads (which the server names in its handshake, so the
//! grader charges every other thread). The `own` JVM is given the student's own classes and never sees the
//! reference Board; the `ref` JVM is given the reference Board and the student's Solver compiled against it.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::step::{AddressSpaceFit, Heap, Launch, MemoryBound};
use crate::runner::spec::ProcessSpec;

/// Stack size of JVM threads other than the request thread (which the server starts with 64 MB).
const THREAD_STACK: &str = "-Xss8m";

/// The heap a JVM starts with (`-Xms`, at most its maximum), in MB: a third of it is the young generation (the
/// parallel collector's ratio).
const INITIAL_HEAP_MB: u64 = 1024;

/// The most young generation the `own` world's JVM may grow to (`-XX:MaxNewSize`), in MB, and at most a
/// quarter of its starting heap. That JVM serves the Board tests (and a few Solver calls on trivial boards):
/// its requests' garbage dies young (the `own` JVM of `java/valid` on the official data set allocates 6.5 GB
/// in 5 s and keeps 6 MB alive), and left alone the parallel collector grows an eden that every collection
/// empties to 2 GB, each new page touched once for nothing: with the cap that JVM's CPU fell from 6.2 to 5.3 s
/// (1.1 s of system time to 0.3) and its peak memory from 2.2 GB to 0.37 GB (BENCHMARKS.md, "The young
/// generation capped"). Not for the `ref` world, whose Solvers' searches keep what they build: a wasteful
/// Solver's queues of hundreds of thousands of nodes, copied out of a capped young generation into the old
/// one, cost its collector 40% more CPU (`java/no-critical-optimization`'s MinPQ memory table: 13 s → 18 s).
const OWN_WORLD_YOUNG_GENERATION_MB: u64 = 256;

/// The heap the `ref` world's JVM starts with, in MB, when the plan's searches are large (a 1 GB young
/// generation). A Solver's search keeps up to millions of boards alive until it ends, and a young collection
/// copies every live one: with 1 GB of young generation instead of a third of 1 GB, whole searches fit
/// between two collections and the rest are caught fewer times (`java/valid` on the official data set: that
/// JVM's 7.3 s of CPU became 5.5 s, its peak memory 1.1 GB became 0.95 GB). Not for small searches, and not
/// for the `own` world, whose Board requests' garbage dies young: there a larger young generation only
/// touches more memory (BENCHMARKS.md, "The collectors' share"). The maximum, and so where a search runs out
/// of memory, is the same either way.
const LARGE_SEARCHES_INITIAL_HEAP_MB: u64 = 3072;

/// Searches are large when the reference built more boards than this in one of the plan's solves: a Java
/// Solver's board and search node take 100 to 200 bytes, so such a search's live boards alone pass a third of
/// the default young generation. The end-to-end tests' quick policy's largest has 135,187; the bundled
/// timing puzzles' (the default policy's) 1,216,182 (`grade::test_plan`'s test holds both).
pub const LARGE_SEARCH_BOARDS: u64 = 500_000;

/// Garbage-collector threads: a fixed number, all started with the JVM (see [`jvm_options`]).
const GC_THREADS: u32 = 2;

/// JIT compiler threads (one C1, one C2): the fewest tiered compilation allows, all started with the JVM.
const COMPILER_THREADS: u32 = 2;

/// The common fork-join pool's parallelism (the JDK's default: the machine's cores less one). Fixed, so that a
/// parallel stream or an async task runs on as many workers on an instructor's 32-core server as on a 2-core
/// laptop; and at least 2, where `CompletableFuture`'s async methods use the pool rather than a new thread a
/// task, which a memory walk just after the task would find still exiting and weigh as the student's
/// (`FirstUse.java`).
const COMMON_POOL_PARALLELISM: u32 = 2;

/// The server's own methods that C2 never compiles (C1 does): the request loop's `answer` (reading, splitting
/// and replying), its dispatch `handle` (one large `switch` over the verbs), the handle lookups `resolve`,
/// `resolveReferences` and `canonical` (`Handles.java`; it was an overload of `handle` in `Server.java`), and the
/// bookkeeping of a reply's handles (`recordHandles`, `handlesIn`). C2 recompiled
/// the first four several times per grade as new verbs reached them (an uncommon trap in a branch never taken
/// before throws the compiled code away), inlining tens of KB of JDK code each time: about 70% of the C2
/// compiler's time in a world's JVM (`-XX:+LogCompilation`; BENCHMARKS.md, "Per-student CPU"). None of them
/// does the student's work: the lookups run before the request's clock starts and the bookkeeping after it
/// stops, `answer` reads the clock around a call of `handle`, and `handle` only dispatches to the student's
/// method (which, like every JDK method it calls and the server's `escape` of a returned text, C2 still
/// compiles on its own). No student class, textbook class or counter is named here: the student's request CPU
/// is what the timing tests judge.
const C1_ONLY: [&str; 7] = [
    "npuzzle.Server::answer",
    "npuzzle.Server::handle",
    "npuzzle.Handles::resolve",
    "npuzzle.Handles::resolveReferences",
    "npuzzle.Handles::recordHandles",
    "npuzzle.Handles::handlesIn",
    "npuzzle.Handles::canonical",
];

/// What the Java adapter's JVMs run, wherever `build::java` put it.
#[derive(Debug)]
pub(super) struct Jvm {
    /// The `java` launcher.
    pub java: PathBuf,
    /// The JDK's directory.
    pub home: PathBuf,
    /// The adapter's compiled module (an exploded module directory).
    pub module: PathBuf,
    /// The memory agent's jar, if the JDK could build it.
    pub agent: Option<PathBuf>,
    /// The directory of the reference `Board.class`.
    pub reference_board: PathBuf,
    /// The heap of each JVM, and how large the plan's searches are: when larger than [`LARGE_SEARCH_BOARDS`],
    /// the `ref` world's JVM starts with a large young generation, touched at start.
    pub heap: Heap,
}

impl Jvm {
    /// The JVM of the `own` world: the student's Board and Solver in `classes`.
    pub fn own(&self, classes: &Path) -> Launch {
        self.launch(Role::Own, &["--own".as_ref(), classes.as_os_str()], vec![classes.to_owned()])
    }

    /// The JVMs of the `ref` world: the student's Solver compiled against the reference Board in `classes`,
    /// and javac's log in `ref_error` when it did not compile. The first serves the tests; the second, the
    /// re-run check's fresh processes, which solve the correctness tests' puzzles again: sized for small
    /// searches whatever the plan's largest (the large young generation's touch alone is 0.4 s of CPU and
    /// 750 MB, for 11 small solves), and compiled by C1 alone (`Compilers::C1`).
    pub fn reference(&self, classes: &Path, ref_error: Option<&Path>) -> (Launch, Launch) {
        let mut args =
            vec!["--ref".as_ref(), classes.as_os_str(), "--board".as_ref(), self.reference_board.as_os_str()];
        let mut shown = vec![classes.to_owned(), self.reference_board.clone()];
        if let Some(log) = ref_error {
            args.extend(["--ref-error".as_ref(), log.as_os_str()]);
            shown.push(log.to_owned());
        }
        let tests = Role::Reference { large_searches: self.heap.largest_solve > LARGE_SEARCH_BOARDS };
        (self.launch(tests, &args, shown.clone()), self.launch(Role::Rerun, &args, shown))
    }

    fn launch(&self, role: Role, world: &[&std::ffi::OsStr], shown: Vec<PathBuf>) -> Launch {
        let young = role.young();
        // the heap starts at most at its maximum (a machine with less memory)
        let initial_mb = self.heap.mb.min(match young {
            Young::Capped | Young::Adaptive => INITIAL_HEAP_MB,
            Young::LargeTouched => LARGE_SEARCHES_INITIAL_HEAP_MB,
        });
        let mut args = jvm_options(self.heap.mb, initial_mb);
        match young {
            Young::Capped => {
                args.push(format!("-XX:MaxNewSize={}m", OWN_WORLD_YOUNG_GENERATION_MB.min(initial_mb / 4)).into())
            }
            Young::Adaptive => {}
            Young::LargeTouched => args.push("-Dnpuzzle.firstTouch=true".into()),
        }
        if let Compilers::C1 = role.compilers() {
            args.push("-XX:TieredStopAtLevel=1".into());
        }
        if let Role::Reference { .. } = role {
            // the JDK's first-use state in the second reading's baseline (adapters/java/.../FirstUse.java)
            args.push("-Dnpuzzle.firstUse=true".into());
        }
        if let Some(agent) = &self.agent {
            let mut flag = OsString::from("-javaagent:");
            flag.push(agent);
            args.push(flag);
        }
        args.extend(["-p".into(), self.module.clone().into_os_string()]);
        // the Java SE API for the student's code, as on a class path (jdk.unsupported, with sun.misc.Unsafe,
        // is not part of it)
        args.extend(["--add-modules".into(), "java.se".into()]);
        args.extend(["-m".into(), "npuzzle/npuzzle.Server".into()]);
        args.extend(world.iter().map(|a| a.to_os_string()));
        let mut process = ProcessSpec::new(&self.java).args(args);
        if let Some(home) = std::env::var_os("JAVA_HOME") {
            process = process.env("JAVA_HOME", home);
        }
        process.view.read_only.extend([self.home.clone(), self.module.clone()]);
        process.view.read_only.extend(self.agent.clone());
        process.view.read_only.extend(shown);
        Launch { process, memory: MemoryBound::Heap { fit: Some(address_space_fit()) }, notes: vec![] }
    }
}

/// What a JVM serves, which sets how it starts.
#[derive(Debug, Clone, Copy)]
enum Role {
    /// The `own` world's tests: Board requests, whose garbage dies young.
    Own,
    /// The `ref` world's tests: the Solvers' searches, whose memory is weighed; `large_searches` when one of
    /// the plan's solves builds more than [`LARGE_SEARCH_BOARDS`] boards.
    Reference { large_searches: bool },
    /// The re-run check's fresh processes: a few small solves, nothing weighed.
    Rerun,
}

impl Role {
    fn young(self) -> Young {
        match self {
            Role::Own => Young::Capped,
            Role::Reference { large_searches: true } => Young::LargeTouched,
            Role::Reference { large_searches: false } | Role::Rerun => Young::Adaptive,
        }
    }

    fn compilers(self) -> Compilers {
        match self {
            Role::Rerun => Compilers::C1,
            Role::Own | Role::Reference { .. } => Compilers::Tiered,
        }
    }
}

/// How a JVM's young generation is sized.
#[derive(Debug, Clone, Copy)]
enum Young {
    /// The heap starts at [`INITIAL_HEAP_MB`] and the young generation stays within
    /// [`OWN_WORLD_YOUNG_GENERATION_MB`]: garbage that dies young reuses the same pages.
    Capped,
    /// The heap starts at [`INITIAL_HEAP_MB`] and the collector sizes the young generation as it goes.
    Adaptive,
    /// The heap starts at [`LARGE_SEARCHES_INITIAL_HEAP_MB`] (a large young generation for large searches), and
    /// the server touches its eden at start (`FirstTouch.java`), so that the student's requests never pay for
    /// its fresh pages.
    LargeTouched,
}

/// Which of the JIT's compilers a JVM runs.
#[derive(Debug, Clone, Copy)]
enum Compilers {
    /// C1 first, C2 for what stays hot: a JVM that serves a whole grade's requests.
    Tiered,
    /// C1 alone (`-XX:TieredStopAtLevel=1`): a JVM that solves a few small puzzles and ends (the re-run
    /// check's), where C2 compiled the JDK's startup code and the Solver's first loops for a process that
    /// would be gone before they paid back. Fed the re-run check's requests of `java/valid`, such a JVM's CPU
    /// fell from 0.22-0.24 s to 0.18-0.19 s (six alternated runs each; BENCHMARKS.md, "The re-run check's
    /// JVM"). Its answers are the same: which compiler ran the code never changes what it computes, and its
    /// CPU meets only the usual 5 s budget a solve, on the correctness tests' small puzzles (C1's code is
    /// slower on long loops, by far less than that budget's margin there).
    C1,
}

/// How a JVM fits an address-space limit, where no memory control group bounds its native memory: it
/// reserves far more address space than it uses (a 1 GB compressed class space, a 240 MB code cache, a
/// malloc arena of 64 MB per thread), so `-version` with a 256 MB heap needs 2 GB of address space; with these
/// reservations bounded, 800 MB. The rest of the allowance is thread stacks (`-Xss8m` each) and the margin.
fn address_space_fit() -> AddressSpaceFit {
    AddressSpaceFit {
        args: ["-XX:ReservedCodeCacheSize=64m", "-XX:CompressedClassSpaceSize=64m", "-XX:MaxMetaspaceSize=128m"]
            .map(OsString::from)
            .to_vec(),
        env: vec![("MALLOC_ARENA_MAX".into(), "2".into())],
        reserved_mb: 1024,
    }
}

/// The JVM's options before the agent and the module: a heap of `heap_mb` at most, `initial_heap_mb` (no more)
/// at start.
fn jvm_options(heap_mb: u64, initial_heap_mb: u64) -> Vec<OsString> {
    let mut options = vec![
        THREAD_STACK.into(),
        format!("-Xmx{heap_mb}m").into(),
        format!("-Xms{initial_heap_mb}m").into(),
        format!("-Dnpuzzle.heapMb={heap_mb}").into(),
        // A search keeps every board alive until it ends: the parallel collector's larger young generation
        // copies them far fewer times than the serial one (a 3.6-million-board solve: 4 young collections
        // instead of 18, and a third of the collector's CPU), and a heap that starts at 1 GB (3 GB for large
        // searches) is not grown by full collections.
        "-XX:+UseParallelGC".into(),
        // Every thread of the JVM's own exists before the first request, so the server can name them all
        // (`runtime_threads=`) and the grader charges every other thread to the student.
        "-XX:-UseDynamicNumberOfGCThreads".into(),
        "-XX:-UseDynamicNumberOfCompilerThreads".into(),
        format!("-XX:ParallelGCThreads={GC_THREADS}").into(),
        format!("-XX:CICompilerCount={COMPILER_THREADS}").into(),
        format!("-Djava.util.concurrent.ForkJoinPool.common.parallelism={COMMON_POOL_PARALLELISM}").into(),
        // The JDK keeps a direct buffer per thread for I/O through a channel (`Files.readAllBytes` reads a class
        // file of the adapter's module that way), sized by the largest read so far: one made after the second
        // reading's baseline is native memory the Solver would be charged with (6,075 bytes, 1.3x the bound,
        // when the baseline moved to the handshake). Not cached, such a buffer is freed when the read ends.
        "-Djdk.nio.maxCachedBufferSize=0".into(),
        // no thread that appears on request (a debugger's attach listener)
        "-XX:+DisableAttachMechanism".into(),
        "-Xshare:auto".into(),
        "-XX:-UsePerfData".into(),
        // Without this, an exception thrown often enough from compiled code loses its message and stack
        // ("threw java.lang.ArrayIndexOutOfBoundsException" instead of "Index 8452 out of bounds … (at
        // Board.java:26)"), at a moment that depends on the JIT's timing: reports would vary from run to run.
        "-XX:-OmitStackTraceInFastThrow".into(),
        // JVM warnings and unified logging default to stdout, which belongs to the protocol
        "-XX:+DisplayVMOutputToStderr".into(),
        "-Xlog:disable".into(),
        "-Xlog:all=warning:stderr".into(),
        "-Dfile.encoding=UTF-8".into(),
        "-Djava.awt.headless=true".into(),
        // the server installs a security manager (JDK 17 to 23); its deprecation warning would lead every
        // report's output, and the server quiets it through a private field of java.lang.System
        "-Djava.security.manager=allow".into(),
        "--add-opens".into(),
        "java.base/java.lang=npuzzle".into(),
        // without this, every CompileCommand is echoed on stdout, which belongs to the protocol
        "-XX:CompileCommand=quiet".into(),
    ];
    // C2 gives up on a method it may not build more than this many nodes for ("out of nodes") and leaves it to
    // C1 for good; the one per-method switch that says nothing (a compiler directive file announces itself)
    options.extend(C1_ONLY.iter().map(|method| format!("-XX:CompileCommand=MaxNodeLimit,{method},1000").into()));
    options
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jvm() -> Jvm {
        Jvm {
            java: "/jdk/bin/java".into(),
            home: "/jdk".into(),
            module: "/work/adapter/classes".into(),
            agent: Some("/work/adapter/agent.jar".into()),
            reference_board: "/work/adapter/refboard".into(),
            heap: Heap { mb: 2048, largest_solve: 0 },
        }
    }

    #[test]
    fn the_own_world_never_sees_the_reference_board() {
        let own = jvm().own(Path::new("/work/sub/own")).process;
        let text = |args: &[OsString]| args.iter().map(|a| a.to_string_lossy().into_owned()).collect::<Vec<_>>();
        assert!(!own.view.read_only.iter().any(|p| p.starts_with("/work/adapter/refboard")), "{:?}", own.view);
        assert!(!text(&own.args).iter().any(|a| a.contains("refboard")), "{:?}", own.args);
        assert_eq!(own.args[own.args.len() - 2..], ["--own", "/work/sub/own"].map(OsString::from));
        let (reference, rerun) =
            jvm().reference(Path::new("/work/sub/ref"), Some(Path::new("/work/sub/ref-error.txt")));
        for launch in [reference, rerun] {
            let shown = launch.process.view.read_only;
            assert!(shown.contains(&PathBuf::from("/work/adapter/refboard")));
            assert!(shown.contains(&PathBuf::from("/work/sub/ref-error.txt")));
            assert!(!shown.contains(&PathBuf::from("/work/sub/own")));
        }
    }

    #[test]
    fn the_jvm_starts_its_own_threads_up_front() {
        let args: Vec<String> =
            jvm().own(Path::new("/o")).process.args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        for flag in ["-XX:-UseDynamicNumberOfGCThreads", "-XX:-UseDynamicNumberOfCompilerThreads"] {
            assert!(args.iter().any(|a| a == flag), "{flag}: {args:?}");
        }
        assert!(args.iter().any(|a| a == "-Djava.security.manager=allow"), "{args:?}");
    }

    #[test]
    fn each_world_starts_with_the_heap_its_garbage_needs_never_above_the_maximum() {
        let sized = |launch: Launch| -> Vec<String> {
            let args = launch.process.args.iter().map(|a| a.to_string_lossy().into_owned());
            let sizes = ["-Xms", "-Xmx", "-XX:MaxNewSize"];
            args.filter(|a| sizes.iter().any(|s| a.starts_with(s)) || a.contains("firstTouch")).collect()
        };
        let capped = ["-Xmx8192m", "-Xms1024m", "-XX:MaxNewSize=256m"];
        let adaptive = ["-Xmx8192m", "-Xms1024m"].map(String::from).to_vec();
        let large = Jvm { heap: Heap { mb: 8192, largest_solve: LARGE_SEARCH_BOARDS + 1 }, ..jvm() };
        // the own world's young generation is capped whatever the searches
        assert_eq!(sized(large.own(Path::new("/o"))), capped);
        let (tests, rerun) = large.reference(Path::new("/r"), None);
        assert_eq!(sized(tests), ["-Xmx8192m", "-Xms3072m", "-Dnpuzzle.firstTouch=true"]);
        // the re-run check solves small puzzles only
        assert_eq!(sized(rerun), adaptive);
        let small = Jvm { heap: Heap { mb: 8192, largest_solve: LARGE_SEARCH_BOARDS }, ..jvm() };
        assert_eq!(sized(small.own(Path::new("/o"))), capped);
        let (tests, rerun) = small.reference(Path::new("/r"), None);
        assert_eq!((sized(tests), sized(rerun)), (adaptive.clone(), adaptive));
        // a machine with less memory: the heap starts at its maximum, and the own world's cap is a quarter of it
        let less = Jvm { heap: Heap { mb: 512, largest_solve: LARGE_SEARCH_BOARDS + 1 }, ..jvm() };
        assert_eq!(sized(less.own(Path::new("/o"))), ["-Xmx512m", "-Xms512m", "-XX:MaxNewSize=128m"]);
        let (tests, rerun) = less.reference(Path::new("/r"), None);
        assert_eq!(sized(tests), ["-Xmx512m", "-Xms512m", "-Dnpuzzle.firstTouch=true"]);
        assert_eq!(sized(rerun), ["-Xmx512m", "-Xms512m"]);
    }

    /// Each role's own flags, whatever the plan's searches: the JDK's first uses in the JVM that weighs
    /// Solvers alone, C1 alone in the re-run check's, the common pool's parallelism in all three.
    #[test]
    fn each_jvm_starts_with_its_roles_flags() {
        let large = Jvm { heap: Heap { mb: 8192, largest_solve: LARGE_SEARCH_BOARDS + 1 }, ..jvm() };
        for jvm in [jvm(), large] {
            let (tests, rerun) = jvm.reference(Path::new("/r"), None);
            for (role, launch) in [("own", jvm.own(Path::new("/o"))), ("ref", tests), ("rerun", rerun)] {
                let has = |flag: &str| launch.process.args.iter().any(|a| a == flag);
                let flags = [
                    has("-Dnpuzzle.firstUse=true"),
                    has("-XX:TieredStopAtLevel=1"),
                    has("-Djava.util.concurrent.ForkJoinPool.common.parallelism=2"),
                ];
                let expected = match role {
                    "ref" => [true, false, true],
                    "rerun" => [false, true, true],
                    _ => [false, false, true],
                };
                assert_eq!(flags, expected, "{role}: {:?}", launch.process.args);
            }
        }
    }

    #[test]
    fn only_the_servers_own_methods_are_kept_from_c2() {
        let args: Vec<String> =
            jvm().own(Path::new("/o")).process.args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
        let commands: Vec<&str> = args.iter().filter_map(|a| a.strip_prefix("-XX:CompileCommand=")).collect();
        assert_eq!(commands[0], "quiet", "{args:?}");
        assert_eq!(commands.len(), 1 + C1_ONLY.len(), "{args:?}");
        for command in &commands[1..] {
            let method = command.strip_prefix("MaxNodeLimit,").and_then(|m| m.strip_suffix(",1000"));
            // no wildcard, no other class: the student's code, the textbook classes and the counters keep C2
            let method = method.unwrap_or_else(|| panic!("{command}"));
            let server_side = method.starts_with("npuzzle.Server::") || method.starts_with("npuzzle.Handles::");
            assert!(server_side && !method.contains('*'), "{command}");
        }
    }
}
