//! Our Java adapter (`adapters/java/`), embedded in the grader binary and compiled once per source version
//! and JDK into `WORK/java-adapter-HASH/` ([`build_adapter`]): `classes/` the named module `npuzzle` (the
//! server and our `edu.princeton.cs.algs4` stand-ins, the only package it exports), `refboard/` the reference
//! `Board`, `agent.jar` the memory agent's manifest, `compiler/` what runs a student's compiles
//! (`Compilations`, `jdk::compile_in_one_jvm`). The textbook classes it provides are also what a
//! student's own `javac` needs ([`textbook_sources`], for `grader new java`).

use std::fs;
use std::path::{Path, PathBuf};

use corpus::rng::StableHash;

use super::cache::{publish, staging_dir, write_file};
use super::error::JavaBuildError;
use super::jdk::{javac, javac_args, Jdk, INLINE_STRING_CONCAT, NO_SOURCE_PATH};

/// Adapter sources compiled into `classes/`: path under `adapters/java/`, text.
const ADAPTER_SOURCES: &[(&str, &str)] = &[
    ("module-info.java", include_str!("../../../../adapters/java/module-info.java")),
    ("server/npuzzle/Server.java", include_str!("../../../../adapters/java/server/npuzzle/Server.java")),
    ("server/npuzzle/Handles.java", include_str!("../../../../adapters/java/server/npuzzle/Handles.java")),
    ("server/npuzzle/Arguments.java", include_str!("../../../../adapters/java/server/npuzzle/Arguments.java")),
    ("server/npuzzle/Outbox.java", include_str!("../../../../adapters/java/server/npuzzle/Outbox.java")),
    ("server/npuzzle/WorldLoader.java", include_str!("../../../../adapters/java/server/npuzzle/WorldLoader.java")),
    ("server/npuzzle/Seal.java", include_str!("../../../../adapters/java/server/npuzzle/Seal.java")),
    ("server/npuzzle/Failures.java", include_str!("../../../../adapters/java/server/npuzzle/Failures.java")),
    (
        "server/npuzzle/RuntimeThreads.java",
        include_str!("../../../../adapters/java/server/npuzzle/RuntimeThreads.java"),
    ),
    ("server/npuzzle/BoardMeter.java", include_str!("../../../../adapters/java/server/npuzzle/BoardMeter.java")),
    ("server/npuzzle/World.java", include_str!("../../../../adapters/java/server/npuzzle/World.java")),
    ("server/npuzzle/Counters.java", include_str!("../../../../adapters/java/server/npuzzle/Counters.java")),
    ("server/npuzzle/Expanded.java", include_str!("../../../../adapters/java/server/npuzzle/Expanded.java")),
    ("server/npuzzle/Sites.java", include_str!("../../../../adapters/java/server/npuzzle/Sites.java")),
    ("server/npuzzle/QueueRegistry.java", include_str!("../../../../adapters/java/server/npuzzle/QueueRegistry.java")),
    ("server/npuzzle/DeepSize.java", include_str!("../../../../adapters/java/server/npuzzle/DeepSize.java")),
    ("server/npuzzle/Memory.java", include_str!("../../../../adapters/java/server/npuzzle/Memory.java")),
    ("server/npuzzle/ObjectLayout.java", include_str!("../../../../adapters/java/server/npuzzle/ObjectLayout.java")),
    ("server/npuzzle/StaticRoots.java", include_str!("../../../../adapters/java/server/npuzzle/StaticRoots.java")),
    ("server/npuzzle/KeptAside.java", include_str!("../../../../adapters/java/server/npuzzle/KeptAside.java")),
    ("server/npuzzle/KeptAnywhere.java", include_str!("../../../../adapters/java/server/npuzzle/KeptAnywhere.java")),
    ("server/npuzzle/FirstTouch.java", include_str!("../../../../adapters/java/server/npuzzle/FirstTouch.java")),
    ("server/npuzzle/FirstUse.java", include_str!("../../../../adapters/java/server/npuzzle/FirstUse.java")),
    ("server/npuzzle/ApiCheck.java", include_str!("../../../../adapters/java/server/npuzzle/ApiCheck.java")),
    ("agent/npuzzle/MemoryAgent.java", include_str!("../../../../adapters/java/agent/npuzzle/MemoryAgent.java")),
    (
        "algs4/edu/princeton/cs/algs4/MinPQ.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/MinPQ.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/MaxPQ.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/MaxPQ.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Stack.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/Stack.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Queue.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/Queue.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Bag.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/Bag.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/ResizingArrayStack.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/ResizingArrayStack.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/LinkedStack.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/LinkedStack.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/ResizingArrayQueue.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/ResizingArrayQueue.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/LinkedQueue.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/LinkedQueue.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/ResizingArrayBag.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/ResizingArrayBag.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/LinkedBag.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/LinkedBag.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/In.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/In.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StdIn.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/StdIn.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StdOut.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/StdOut.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StdRandom.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/StdRandom.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/Stopwatch.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/Stopwatch.java"),
    ),
    (
        "algs4/edu/princeton/cs/algs4/StopwatchCPU.java",
        include_str!("../../../../adapters/java/algs4/edu/princeton/cs/algs4/StopwatchCPU.java"),
    ),
];

/// What runs the student's compiles in one JVM (default package), compiled into `compiler/`.
const COMPILATIONS: &str = include_str!("../../../../adapters/java/compiler/Compilations.java");

/// Our reference Board (default package), compiled against `classes/` into `refboard/`.
const REFERENCE_BOARD: &str = include_str!("../../../../adapters/java/reference/Board.java");

/// The memory agent's manifest.
const AGENT_MANIFEST: &str = "Premain-Class: npuzzle.MemoryAgent\n";

/// The compiled adapter.
pub(super) struct Adapter {
    /// Hash of the sources and the compiler, naming the cache directory.
    pub(super) key: String,
    /// The module `npuzzle` (exploded): `npuzzle.*` and `edu.princeton.cs.algs4.*` classes.
    pub(super) classes: PathBuf,
    /// The reference `Board.class` (default package).
    pub(super) refboard: PathBuf,
    /// The memory agent, if the JDK has a `jar` tool.
    pub(super) agent: Option<PathBuf>,
    /// `Compilations` (default package), which runs a student's compiles in one JVM (`jdk::compile_in_one_jvm`).
    pub(super) compiler: PathBuf,
}

/// Compiles the embedded adapter into `work/java-adapter-HASH/`, unless a previous build is there.
pub(super) fn build_adapter(jdk: &Jdk, work: &Path) -> Result<Adapter, JavaBuildError> {
    let mut hash = StableHash::default();
    hash.write_chunk(jdk.javac.as_os_str().as_encoded_bytes());
    hash.write_chunk(jdk.jar.as_ref().map_or(&b""[..], |j| j.as_os_str().as_encoded_bytes()));
    for (path, text) in ADAPTER_SOURCES {
        hash.write_chunk(path.as_bytes());
        hash.write_chunk(text.as_bytes());
    }
    hash.write_chunk(REFERENCE_BOARD.as_bytes());
    hash.write_chunk(COMPILATIONS.as_bytes());
    hash.write_chunk(INLINE_STRING_CONCAT.as_bytes());
    let key = format!("{:016x}", hash.finish());
    let dir = work.join(format!("java-adapter-{key}"));
    if !crate::output::is_published(&dir) {
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
        compiler: dir.join("compiler"),
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
    // path: its files are named); its string concatenations are StringBuilder calls (`INLINE_STRING_CONCAT`)
    let output = javac(jdk, out, &src, javac_args(&classes, &[INLINE_STRING_CONCAT.into()], "UTF-8", &files)?)?;
    if !output.success() {
        return Err(JavaBuildError::Adapter(output.combined()));
    }
    // the reference Board names nothing of the adapter (it counts through JDK interfaces); the compile runner
    // names the JDK's compiler alone
    let no_source_path = [NO_SOURCE_PATH[0].into(), NO_SOURCE_PATH[1].into()];
    let separate = [
        ("reference/Board.java", REFERENCE_BOARD, "refboard"),
        ("compiler/Compilations.java", COMPILATIONS, "compiler"),
    ];
    for (path, text, classes) in separate {
        let file = src.join(path);
        write_file(&file, text.as_bytes())?;
        let output = javac(jdk, out, &src, javac_args(&out.join(classes), &no_source_path, "UTF-8", &[file])?)?;
        if !output.success() {
            return Err(JavaBuildError::Adapter(output.combined()));
        }
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

/// The sources a student's own `javac` needs for the textbook classes this grader provides: the stand-ins
/// (`edu/princeton/cs/algs4/…`) and the classes their MinPQ reports to (`npuzzle/Counters.java`,
/// `npuzzle/QueueRegistry.java`, and what Counters names: `npuzzle/Expanded.java`, `npuzzle/BoardMeter.java`,
/// `npuzzle/Sites.java`), as paths in the default package's folder and their text (`grader new java`).
pub fn textbook_sources() -> impl Iterator<Item = (&'static str, &'static str)> {
    const REPORTED_TO: [&str; 5] = [
        "server/npuzzle/Counters.java",
        "server/npuzzle/Expanded.java",
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
pub(super) fn algs4_provided() -> Vec<&'static str> {
    ADAPTER_SOURCES
        .iter()
        .filter_map(|(path, _)| path.strip_prefix("algs4/edu/princeton/cs/algs4/")?.strip_suffix(".java"))
        .collect()
}
