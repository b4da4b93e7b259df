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

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::jvm::Jvm;
use super::step::{link_refused, step, BuildLimits, Launch, Prepared, WorldLaunches};
use crate::runner::sandbox::is_executable;
use crate::runner::spec::ProcessSpec;
use crate::runner::tool::ToolOutput;

use corpus::rng::StableHash;

/// Adapter sources compiled into `classes/`: path under `adapters/java/`, text.
const ADAPTER_SOURCES: &[(&str, &str)] = &[
    ("module-info.java", include_str!("../../../adapters/java/module-info.java")),
    ("server/npuzzle/Server.java", include_str!("../../../adapters/java/server/npuzzle/Server.java")),
    ("server/npuzzle/Outbox.java", include_str!("../../../adapters/java/server/npuzzle/Outbox.java")),
    ("server/npuzzle/WorldLoader.java", include_str!("../../../adapters/java/server/npuzzle/WorldLoader.java")),
    ("server/npuzzle/Seal.java", include_str!("../../../adapters/java/server/npuzzle/Seal.java")),
    ("server/npuzzle/Failures.java", include_str!("../../../adapters/java/server/npuzzle/Failures.java")),
    ("server/npuzzle/RuntimeThreads.java", include_str!("../../../adapters/java/server/npuzzle/RuntimeThreads.java")),
    ("server/npuzzle/BoardMeter.java", include_str!("../../../adapters/java/server/npuzzle/BoardMeter.java")),
    ("server/npuzzle/World.java", include_str!("../../../adapters/java/server/npuzzle/World.java")),
    ("server/npuzzle/Counters.java", include_str!("../../../adapters/java/server/npuzzle/Counters.java")),
    ("server/npuzzle/Sites.java", include_str!("../../../adapters/java/server/npuzzle/Sites.java")),
    ("server/npuzzle/QueueRegistry.java", include_str!("../../../adapters/java/server/npuzzle/QueueRegistry.java")),
    ("server/npuzzle/DeepSize.java", include_str!("../../../adapters/java/server/npuzzle/DeepSize.java")),
    ("server/npuzzle/Memory.java", include_str!("../../../adapters/java/server/npuzzle/Memory.java")),
    ("server/npuzzle/ObjectLayout.java", include_str!("../../../adapters/java/server/npuzzle/ObjectLayout.java")),
    ("server/npuzzle/StaticRoots.java", include_str!("../../../adapters/java/server/npuzzle/StaticRoots.java")),
    ("server/npuzzle/ApiCheck.java", include_str!("../../../adapters/java/server/npuzzle/ApiCheck.java")),
    ("agent/npuzzle/MemoryAgent.java", include_str!("../../../adapters/java/agent/npuzzle/MemoryAgent.java")),
    (
        "algs4/edu/princeton/cs/algs4/MinPQ.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/MinPQ.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/MaxPQ.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/MaxPQ.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Stack.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/Stack.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Queue.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/Queue.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Bag.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/Bag.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/In.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/In.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StdIn.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/StdIn.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StdOut.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/StdOut.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StdRandom.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/StdRandom.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Stopwatch.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/Stopwatch.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StopwatchCPU.java",
        include_str!("../../../adapters/java/algs4/edu/princeton/cs/algs4/StopwatchCPU.java"),
    ),
];

/// Our reference Board (default package), compiled against `classes/` into `refboard/`.
const REFERENCE_BOARD: &str = include_str!("../../../adapters/java/reference/Board.java");

/// The memory agent's manifest.
const AGENT_MANIFEST: &str = "Premain-Class: npuzzle.MemoryAgent\n";

/// An empty source path: nothing but the files named is compiled (in the ref world, not the student's Board).
const NO_SOURCE_PATH: [&str; 2] = ["-sourcepath", ""];

/// The files a Java submission consists of.
const STUDENT_FILES: [&str; 2] = ["Board.java", "Solver.java"];

/// Why a Java submission could not be built, for a reason that is not the student's.
#[derive(Debug, thiserror::Error)]
pub enum JavaBuildError {
    /// No JDK tool of this name in `JAVA_HOME/bin` or on `PATH`.
    #[error("`{0}` was not found in JAVA_HOME/bin or on PATH: install a JDK (17 or later) or set JAVA_HOME")]
    ToolNotFound(&'static str),
    /// A JDK tool could not be started.
    #[error("failed to run {tool}: {source}")]
    Tool {
        /// The tool's path (found beside `javac`, or on `PATH`).
        tool: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// Reading the submission or writing the work directory failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done, as the error message starts.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// The embedded adapter did not compile or package: a grader bug (or an unsupported JDK).
    #[error("the Java adapter failed to build (needs JDK 17 or later): {0}")]
    Adapter(String),
}

fn io_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> JavaBuildError {
    let what = what.into();
    move |source| JavaBuildError::Io { what, source }
}

/// Compiles a Java submission folder (Board.java + Solver.java, default package) and the adapter. Ready, it
/// is a JVM for each world (`build::jvm`): the `java` launcher with its options, the agent, the adapter's
/// module and `--own DIR` or `--ref DIR --board DIR [--ref-error FILE]`, `JAVA_HOME` when the grader has it,
/// and what that JVM reads, shown read-only; never an address-space limit (the JVM reserves its heap up
/// front).
pub fn build_java(
    submission: &Path,
    work: &Path,
    heap_mb: u64,
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
                    log: format!(
                        "{name} is missing: a Java submission is the two files Board.java and Solver.java \
                         (found in {})",
                        submission.display()
                    ),
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
    for (name, bytes) in &sources {
        key.write_chunk(name.as_bytes());
        key.write_chunk(bytes);
    }
    let dir = work.join(format!("java-submission-{:016x}", key.finish()));
    if !dir.join("done").is_file() {
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
        heap_mb,
    };
    let ref_error = dir.join("ref-error.txt");
    let ref_error = ref_error.is_file().then_some(ref_error.as_path());
    // what the build changed is said once, with the world every report has
    let own = Launch { notes, ..jvm.own(&dir.join("own")) };
    Ok(Prepared::PerWorld(WorldLaunches { own, reference: jvm.reference(&dir.join("ref"), ref_error) }))
}

/// The memory the grader's machine gives its processes, in MB: the physical memory, or the control group's
/// limit where that is lower (a container). `None` when neither can be read.
pub fn machine_memory_mb() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration.
    let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    let physical = (pages > 0 && page_size > 0).then(|| (pages as u64).saturating_mul(page_size as u64));
    let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .filter_map(|path| fs::read_to_string(path).ok())
        .find_map(|text| cgroup_limit(&text));
    [physical, cgroup].into_iter().flatten().min().map(|bytes| bytes >> 20)
}

/// A control group's memory limit in bytes (`max`, or a value too large to be a real limit, is none).
fn cgroup_limit(text: &str) -> Option<u64> {
    text.trim().parse::<u64>().ok().filter(|&bytes| bytes < 1 << 60)
}

/// The JDK tools the build uses.
struct Jdk {
    java: PathBuf,
    javac: PathBuf,
    jar: Option<PathBuf>,
    /// The limits of each javac and jar run.
    limits: BuildLimits,
}

impl Jdk {
    /// The JDK's directory (`HOME/bin/java`), which the sandbox must show.
    fn home(&self) -> PathBuf {
        let java = fs::canonicalize(&self.java).unwrap_or_else(|_| self.java.clone());
        java.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or(java)
    }

    fn find() -> Result<Jdk, JavaBuildError> {
        let java = find_tool("java").ok_or(JavaBuildError::ToolNotFound("java"))?;
        let javac = find_tool("javac").ok_or(JavaBuildError::ToolNotFound("javac"))?;
        // `jar` from the same JDK as javac (PATH entries are often symlinks into it)
        let jar = fs::canonicalize(&javac)
            .ok()
            .and_then(|real| real.parent().map(|bin| bin.join("jar")))
            .filter(|p| is_executable(p))
            .or_else(|| find_tool("jar"));
        Ok(Jdk { java, javac, jar, limits: BuildLimits::default() })
    }
}

/// `JAVA_HOME/bin/NAME` if it exists, else the first `NAME` on `PATH` (absolute).
fn find_tool(name: &str) -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let candidate = Path::new(&home).join("bin").join(name);
        if is_executable(&candidate) {
            return Some(std::path::absolute(&candidate).unwrap_or(candidate));
        }
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
        .map(|candidate| std::path::absolute(&candidate).unwrap_or(candidate))
}

/// The compiled adapter.
struct Adapter {
    /// Hash of the sources and the compiler, naming the cache directory.
    key: String,
    /// The module `npuzzle` (exploded): `npuzzle.*` and `edu.princeton.cs.algs4.*` classes.
    classes: PathBuf,
    /// The reference `Board.class` (default package).
    refboard: PathBuf,
    /// The memory agent, if the JDK has a `jar` tool.
    agent: Option<PathBuf>,
}

/// Compiles the embedded adapter into `work/java-adapter-HASH/`, unless a previous build is there.
fn build_adapter(jdk: &Jdk, work: &Path) -> Result<Adapter, JavaBuildError> {
    let mut hash = StableHash::default();
    hash.write_chunk(jdk.javac.as_os_str().as_encoded_bytes());
    hash.write_chunk(jdk.jar.as_ref().map_or(&b""[..], |j| j.as_os_str().as_encoded_bytes()));
    for (path, text) in ADAPTER_SOURCES {
        hash.write_chunk(path.as_bytes());
        hash.write_chunk(text.as_bytes());
    }
    hash.write_chunk(REFERENCE_BOARD.as_bytes());
    let key = format!("{:016x}", hash.finish());
    let dir = work.join(format!("java-adapter-{key}"));
    if !dir.join("done").is_file() {
        let tmp = staging_dir(&dir)?;
        let built = compile_adapter(jdk, &tmp);
        if built.is_err() {
            let _ = fs::remove_dir_all(&tmp);
        }
        built?;
        publish(&tmp, &dir)?;
    }
    let agent = dir.join("agent.jar");
    Ok(Adapter {
        key,
        classes: dir.join("classes"),
        refboard: dir.join("refboard"),
        agent: agent.is_file().then_some(agent),
    })
}

fn compile_adapter(jdk: &Jdk, out: &Path) -> Result<(), JavaBuildError> {
    let src = out.join("src");
    let mut files = Vec::new();
    for (path, text) in ADAPTER_SOURCES {
        let file = src.join(path);
        write_file(&file, text.as_bytes())?;
        files.push(file);
    }
    let classes = out.join("classes");
    // the module-info among the files makes this a compile of the module `npuzzle` (which takes no source
    // path: its files are named)
    let output = javac(jdk, out, &src, &classes, &[], &files)?;
    if !output.success() {
        return Err(JavaBuildError::Adapter(output.combined()));
    }
    // the reference Board names nothing of the adapter (it counts through JDK interfaces)
    let board = src.join("reference").join("Board.java");
    write_file(&board, REFERENCE_BOARD.as_bytes())?;
    let output =
        javac(jdk, out, &src, &out.join("refboard"), &[NO_SOURCE_PATH[0].into(), NO_SOURCE_PATH[1].into()], &[board])?;
    if !output.success() {
        return Err(JavaBuildError::Adapter(output.combined()));
    }
    if let Some(jar) = &jdk.jar {
        // a manifest alone: the JDK loads the agent class from the module
        let manifest = out.join("MANIFEST.MF");
        write_file(&manifest, AGENT_MANIFEST.as_bytes())?;
        let spec = jdk
            .step(jar, out)
            .args(["--create", "--file"])
            .args([out.join("agent.jar")])
            .args(["--manifest".as_ref(), manifest.as_os_str()]);
        let output = jdk.run(&spec, jar)?;
        if !output.success() {
            return Err(JavaBuildError::Adapter(output.combined()));
        }
    }
    let _ = fs::remove_dir_all(&src);
    Ok(())
}

/// Compiles the student's files into `out/own` and `out/ref` (in parallel: two javac processes). Writes
/// `out/own-error.txt` when their files do not compile, `out/ref-error.txt` when only the substitution fails.
fn compile_student(
    jdk: &Jdk,
    adapter: &Adapter,
    sources: &[(&str, Vec<u8>)],
    out: &Path,
) -> Result<(), JavaBuildError> {
    let own_src = out.join("src-own");
    let ref_src = out.join("src-ref");
    for (name, bytes) in sources {
        write_file(&own_src.join(name), bytes)?;
        if *name == "Solver.java" {
            write_file(&ref_src.join(name), bytes)?;
        }
    }
    let encoding = if sources.iter().all(|(_, b)| std::str::from_utf8(b).is_ok()) { "UTF-8" } else { "ISO-8859-1" };
    let own_out = out.join("own");
    let ref_out = out.join("ref");
    let names: Vec<PathBuf> = STUDENT_FILES.iter().map(PathBuf::from).collect();
    // The adapter's module, of which the student's code sees the package it exports (the textbook's), and
    // the Java SE API, not the JDK's own modules (no sun.misc.Unsafe): what the JVM will give it.
    let module: Vec<OsString> = vec![
        NO_SOURCE_PATH[0].into(),
        NO_SOURCE_PATH[1].into(),
        "-p".into(),
        adapter.classes.clone().into_os_string(),
        "--add-modules".into(),
        "npuzzle".into(),
        "--limit-modules".into(),
        "java.se,npuzzle".into(),
    ];
    let with_board = [&module[..], &["-cp".into(), adapter.refboard.clone().into_os_string()]].concat();

    let own = javac_spec(jdk, out, &own_src, &own_out, &module, encoding, &names)?.read_only(&adapter.classes);
    let reference = javac_spec(jdk, out, &ref_src, &ref_out, &with_board, encoding, &names[1..])?
        .read_only(&adapter.classes)
        .read_only(&adapter.refboard);
    let (own, reference) = std::thread::scope(|scope| {
        let reference = scope.spawn(|| jdk.run(&reference, &jdk.javac));
        (jdk.run(&own, &jdk.javac), reference.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    });
    let (own, reference) = (own?, reference?);

    if !own.success() {
        let mut log = own.combined();
        if own.timed_out {
            log = super::step::timed_out_log(&jdk.limits, &own);
        } else if log.trim().is_empty() {
            log = format!("javac failed ({}) without a message", own.status);
        }
        if let Some(hint) = algs4_hint(sources) {
            log = format!("{hint}\n\n{log}");
        }
        write_file(&out.join("own-error.txt"), log.as_bytes())?;
        return Ok(());
    }
    if !reference.success() {
        // no student class may stay behind: the ref world must hold nothing half-built
        let _ = fs::remove_dir_all(&ref_out);
        write_file(&out.join("ref-error.txt"), reference.combined().as_bytes())?;
    }
    fs::create_dir_all(&ref_out).map_err(io_error("cannot create the ref class directory"))?;
    Ok(())
}

/// The sources a student's own `javac` needs for the textbook classes this grader provides: the stand-ins
/// (`edu/princeton/cs/algs4/…`) and the classes their MinPQ reports to (`npuzzle/Counters.java`,
/// `npuzzle/QueueRegistry.java`, and what Counters names: `npuzzle/BoardMeter.java`, `npuzzle/Sites.java`), as
/// paths in the default package's folder and their text (`grader new java`).
pub fn textbook_sources() -> impl Iterator<Item = (&'static str, &'static str)> {
    const REPORTED_TO: [&str; 4] = [
        "server/npuzzle/Counters.java",
        "server/npuzzle/QueueRegistry.java",
        "server/npuzzle/BoardMeter.java",
        "server/npuzzle/Sites.java",
    ];
    ADAPTER_SOURCES.iter().filter_map(|&(path, text)| {
        let kept = path
            .strip_prefix("algs4/")
            .or_else(|| REPORTED_TO.contains(&path).then(|| path.trim_start_matches("server/")));
        kept.map(|name| (name, text))
    })
}

/// The textbook classes this grader provides (its own stand-ins, under `adapters/java/algs4`).
fn algs4_provided() -> Vec<&'static str> {
    ADAPTER_SOURCES
        .iter()
        .filter_map(|(path, _)| path.strip_prefix("algs4/edu/princeton/cs/algs4/")?.strip_suffix(".java"))
        .collect()
}

/// When a student's code names a textbook class this grader does not provide, says so: javac alone says
/// only "cannot find symbol" or "package does not exist", which reads like the student's mistake.
fn algs4_hint(sources: &[(&str, Vec<u8>)]) -> Option<String> {
    const PACKAGE: &str = "edu.princeton.cs.algs4.";
    let mut provided = algs4_provided();
    provided.sort_unstable();
    let mut lines = Vec::new();
    for (name, bytes) in sources {
        let text = String::from_utf8_lossy(bytes);
        let mut missing: Vec<String> = Vec::new();
        for (at, _) in text.match_indices(PACKAGE) {
            let class: String =
                text[at + PACKAGE.len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !class.is_empty() && !provided.contains(&class.as_str()) && !missing.contains(&class) {
                missing.push(class);
            }
        }
        lines.extend(missing.into_iter().map(|class| {
            format!(
                "{name} uses {PACKAGE}{class}, which this grader does not provide; allowed: {}.",
                provided.join(", ")
            )
        }));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

impl Jdk {
    /// A build step running `tool` that writes into `staging` and reads the JDK.
    fn step(&self, tool: &Path, staging: &Path) -> ProcessSpec {
        step(tool, &self.limits).read_only(self.home()).writable(staging)
    }

    fn run(&self, spec: &ProcessSpec, tool: &Path) -> Result<ToolOutput, JavaBuildError> {
        super::step::run_step(spec, &self.limits, &tool.display().to_string())
            .map_err(|e| JavaBuildError::Tool { tool: tool.to_owned(), source: std::io::Error::other(e.to_string()) })
    }
}

/// A javac run in `cwd`, writing classes to `out` (both inside `staging`, the only place it may write):
/// quiet, fast to start, Java 17 class files; `paths` are its module and class path options.
fn javac_spec(
    jdk: &Jdk,
    staging: &Path,
    cwd: &Path,
    out: &Path,
    paths: &[OsString],
    encoding: &str,
    files: &[PathBuf],
) -> Result<ProcessSpec, JavaBuildError> {
    fs::create_dir_all(out).map_err(io_error(format!("cannot create {}", out.display())))?;
    let mut spec = jdk
        .step(&jdk.javac, staging)
        .args(["-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1", "-J-Xshare:auto"])
        .args(["--release", "17", "-encoding", encoding, "-nowarn", "-Xmaxerrs", "50", "-implicit:none"])
        .args(paths)
        .args(["-d"])
        .args([out])
        .args(files);
    spec.cwd = Some(cwd.to_owned());
    Ok(spec)
}

fn javac(
    jdk: &Jdk,
    staging: &Path,
    cwd: &Path,
    out: &Path,
    paths: &[OsString],
    files: &[PathBuf],
) -> Result<ToolOutput, JavaBuildError> {
    let spec = javac_spec(jdk, staging, cwd, out, paths, "UTF-8", files)?;
    jdk.run(&spec, &jdk.javac)
}

/// A fresh directory next to `dir` to build into before publishing it under `dir`'s name.
fn staging_dir(dir: &Path) -> Result<PathBuf, JavaBuildError> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = dir.with_file_name(name);
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(io_error(format!("cannot create {}", tmp.display())))?;
    Ok(tmp)
}

/// Marks `tmp` complete and renames it to `dir`. If another build published `dir` first, keeps theirs.
fn publish(tmp: &Path, dir: &Path) -> Result<(), JavaBuildError> {
    write_file(&tmp.join("done"), b"")?;
    if fs::rename(tmp, dir).is_err() {
        let _ = fs::remove_dir_all(tmp);
        if !dir.join("done").is_file() {
            // a stale, unfinished directory of that name (a build killed midway): replace it
            let _ = fs::remove_dir_all(dir);
            return Err(JavaBuildError::Io {
                what: format!("cannot publish the build in {} (retry)", dir.display()),
                source: io::Error::other("a stale build directory was in the way and has been removed"),
            });
        }
    }
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), JavaBuildError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io_error(format!("cannot create {}", parent.display())))?;
    }
    fs::write(path, bytes).map_err(io_error(format!("cannot write {}", path.display())))
}

/// Drops a UTF-8 byte-order mark, which javac rejects as an illegal character.
fn strip_bom(bytes: Vec<u8>) -> Vec<u8> {
    match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    }
}

/// A message explaining the default package when a file declares a package, else `None`.
fn package_declarations(sources: &[(&str, Vec<u8>)]) -> Option<String> {
    let mut log = String::new();
    for (name, bytes) in sources {
        let text = String::from_utf8_lossy(bytes);
        if let Some((line, declaration)) = package_declaration(&text) {
            let _ = writeln!(log, "{name}:{line}: error: `{declaration}` is not allowed here");
        }
    }
    if log.is_empty() {
        return None;
    }
    log.push_str(
        "Board.java and Solver.java must be in the default package: delete the `package` line at the top of \
         each file (IDEs such as IntelliJ and Eclipse add one when the file is created inside a package). The \
         grader, like the assignment's own autograder, compiles the two files on their own, with \
         edu.princeton.cs.algs4 available for `import edu.princeton.cs.algs4.MinPQ;` and similar.\n",
    );
    Some(log)
}

/// Removes each file's `package` declaration (blanked in place, so the compiler's line numbers stay the
/// student's) and says so, for a policy that grades such submissions anyway.
fn strip_package_declarations(sources: &mut [(&str, Vec<u8>)]) -> Vec<String> {
    let mut notes = Vec::new();
    for (name, bytes) in sources.iter_mut() {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let Some((line, declaration)) = package_declaration(&text) else { continue };
        let Some(at) = text.find("package") else { continue };
        let end = text[at..].find(';').map_or(text.len(), |i| at + i + 1);
        let blanked: String = text[at..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        *bytes = format!("{}{blanked}{}", &text[..at], &text[end..]).into_bytes();
        notes.push(format!(
            "{name}:{line} declares `{declaration}`: the grader removed that line and graded the file in the \
             default package, as this course's policy allows (java.grade_package_declarations); the official \
             grader would not compile it, so delete the line before you submit elsewhere."
        ));
    }
    notes
}

/// When a Java submission that did not compile has `.java` files besides Board.java and Solver.java, what
/// happened and what to do: the grader, as the official one, compiles those two files only.
fn extra_files_hint(submission: &Path) -> Option<String> {
    let mut extra: Vec<String> = fs::read_dir(submission)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.ends_with(".java") && !STUDENT_FILES.contains(&name.as_str()))
        .collect();
    if extra.is_empty() {
        return None;
    }
    extra.sort();
    let classes: Vec<&str> = extra.iter().map(|f| f.trim_end_matches(".java")).collect();
    Some(format!(
        "Only Board.java and Solver.java are compiled (as the official grader compiles them), not {}: nest {} \
         in Solver.java (or Board.java), e.g. `private static class {} {{ … }}` inside class Solver, and \
         submit the two files alone. The compiler's output:\n\n",
        extra.join(", "),
        classes.join(" and "),
        classes[0]
    ))
}

/// The line number and text of a `package` declaration that starts the compilation unit, skipping comments.
fn package_declaration(text: &str) -> Option<(usize, String)> {
    let mut rest = text;
    let mut line = 1;
    loop {
        let trimmed = rest.trim_start();
        line += rest[..rest.len() - trimmed.len()].matches('\n').count();
        rest = trimmed;
        if let Some(after) = rest.strip_prefix("//") {
            let end = after.find('\n').map_or(after.len(), |i| i);
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix("/*") {
            let end = after.find("*/").map_or(after.len(), |i| i + 2);
            line += after[..end].matches('\n').count();
            rest = &after[end..];
        } else {
            break;
        }
    }
    let word_end = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
    if &rest[..word_end] != "package" {
        return None;
    }
    let end = rest.find(';').map_or(rest.len().min(80), |i| i + 1);
    Some((line, rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")))
}

#[cfg(test)]
#[path = "java_memory_tests.rs"]
mod memory_tests;

#[cfg(test)]
#[path = "java_sites_tests.rs"]
mod sites_tests;

#[cfg(test)]
mod tests {
    use super::super::conversation::{counter, Conversation};
    use super::*;

    #[test]
    fn a_policy_that_grades_package_declarations_blanks_the_line_and_says_so() {
        let board = b"// my board\npackage puzzle.eight;\nclass Board {}\n".to_vec();
        let mut sources = [("Board.java", board), ("Solver.java", b"class Solver {}".to_vec())];
        let notes = strip_package_declarations(&mut sources);
        assert_eq!(
            String::from_utf8_lossy(&sources[0].1),
            format!("// my board\n{}\nclass Board {{}}\n", " ".repeat(21))
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("Board.java:2 declares `package puzzle.eight;`: the grader removed"), "{notes:?}");
    }

    #[test]
    fn extra_java_files_are_named_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(extra_files_hint(dir.path()), None);
        for file in ["Board.java", "Solver.java", "SearchNode.java", "notes.txt"] {
            fs::write(dir.path().join(file), "").unwrap();
        }
        let hint = extra_files_hint(dir.path()).unwrap();
        assert!(
            hint.starts_with("Only Board.java and Solver.java are compiled (as the official grader compiles them), not SearchNode.java: nest SearchNode in Solver.java"),
            "{hint}"
        );
    }

    pub(super) fn java_available() -> bool {
        let found = find_tool("javac").is_some() && find_tool("java").is_some();
        if !found {
            eprintln!("skipped: no JDK on this machine");
        }
        found
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
            "ok 1 java ref_world counters call_sites refs memory counters_deep null foreign api_check iterables"
        );
        threads.split(',').map(|tid| tid.parse().expect("a thread id")).collect()
    }

    /// The submission at `dir` built as the tests build it: a 256 MB heap, the default limits and policy.
    pub(super) fn build(dir: &Path) -> Prepared {
        build_java(dir, &work(), 256, &BuildLimits::default(), &Default::default()).unwrap()
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
        assert_eq!(c.ask("counters_reset"), "ok");
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
        let original = fs::read_to_string(gallery("valid").join("Solver.java")).unwrap();
        let solver = edit(original.clone());
        assert_ne!(solver, original, "the edit applies");
        let dir = tempfile::tempdir().unwrap();
        fs::copy(gallery("valid").join("Board.java"), dir.path().join("Board.java")).unwrap();
        fs::write(dir.path().join("Solver.java"), solver).unwrap();
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
            build_java(dir.path(), &work(), 96, &BuildLimits::default(), &Default::default()).unwrap(),
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
            build_java(submission, &work(), 512, &BuildLimits::default(), &Default::default()).unwrap()
        else {
            panic!("the submission compiles")
        };
        let mut spec = crate::runner::spec::ProcessSpec::new(launches.reference.program).args(launches.reference.args);
        spec.view.read_only = launches.reference.read_only;
        for (key, value) in launches.reference.env {
            spec = spec.env(key, value);
        }
        spec
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
        let solve = |session: &mut Session, n: usize, tiles: &[u32]| {
            let b = session.call(&board(n, tiles)).unwrap().values;
            session.call_within(&Request::Solver(Handle::Board(b[1..].parse().unwrap())), limit)
        };
        match solve(&mut session, 3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]) {
            Err(Fault::Timeout(why)) => assert!(why.contains("0.50 s of CPU"), "{why}"),
            other => panic!("the helper thread's search is charged: {other:?}"),
        }
        match solve(&mut session, 2, &[1, 2, 3, 0]) {
            Err(Fault::Timeout(why)) => assert!(why.contains("0.50 s of CPU"), "{why}"),
            other => panic!("the request thread's own loop times out: {other:?}"),
        }
        assert_eq!(session.starts(), 2);
        // Pipelined: the replies before a request that hangs are not held back by it.
        let script = [
            board(3, &[0, 1, 3, 4, 2, 5, 7, 8, 6]),
            board(2, &[1, 2, 3, 0]),
            Request::Solver(Handle::Reply { request: 1, index: 0 }),
        ];
        let results = session.call_each(&script);
        assert!(results[0].is_ok() && results[1].is_ok(), "{results:?}");
        assert!(matches!(results[2], Err(Fault::Timeout(_))), "{results:?}");
        assert_eq!(session.starts(), 3);
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
        // the queues' last heap-order check runs when the grader reads the counters, after the Solver's calls
        assert_eq!(c.ask("counters_reset"), "ok");
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
    fn a_textbook_class_the_grader_lacks_is_named_with_the_ones_it_has() {
        let solver =
            b"import edu.princeton.cs.algs4.MinPQ;\nimport edu.princeton.cs.algs4.ResizingArrayStack;\n".to_vec();
        let board = b"import edu.princeton.cs.algs4.Stack;\n".to_vec();
        let hint = algs4_hint(&[("Board.java", board.clone()), ("Solver.java", solver)]).unwrap();
        assert!(
            hint.starts_with(
                "Solver.java uses edu.princeton.cs.algs4.ResizingArrayStack, which this grader does not provide; \
                 allowed: Bag, In, MaxPQ, MinPQ, Queue, Stack, StdIn, StdOut, StdRandom, Stopwatch, StopwatchCPU."
            ),
            "{hint}"
        );
        assert_eq!(algs4_hint(&[("Board.java", board)]), None);
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
    fn the_machine_has_memory_and_a_container_limit_may_lower_it() {
        assert!(machine_memory_mb().is_some_and(|mb| mb > 0));
        assert_eq!(cgroup_limit("max\n"), None);
        assert_eq!(cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(cgroup_limit("2147483648\n"), Some(2 << 30));
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
    fn package_detection_ignores_comments_and_identifiers() {
        assert_eq!(package_declaration("package a.b;\nclass X {}"), Some((1, "package a.b;".into())));
        assert_eq!(package_declaration("/* package x; */\nimport y;"), None);
        assert_eq!(package_declaration("// package x;\nclass packaged {}"), None);
        assert_eq!(package_declaration("packages();"), None);
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
