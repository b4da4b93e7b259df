//! The JDK the build runs: found through `JAVA_HOME` or `PATH` ([`Jdk::find`]), with `jar` taken from the
//! same JDK as `javac`, and each of its tools run as a sandboxed build step (`build::step`) that sees the
//! JDK and writes only into its staging directory. The `javac` command line every compile shares lives here.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::error::{io_error, JavaBuildError};
use crate::build::step::{step, BuildLimits};
use crate::runner::sandbox::is_executable;
use crate::runner::spec::ProcessSpec;
use crate::runner::tool::{ToolOutput, OUTPUT_CAP};

/// An empty source path: nothing but the files named is compiled (in the ref world, not the student's Board).
pub(super) const NO_SOURCE_PATH: [&str; 2] = ["-sourcepath", ""];

/// javac's switch that compiles string concatenation to StringBuilder calls rather than `invokedynamic`, for
/// the code that runs in the `ref` world's JVM (the adapter, and the student's Solver compiled there). Each new
/// shape of concatenation linked through `invokedynamic` spins method handles the JVM keeps on its heap (about
/// 5 KB each; a Solver printing a debug line made 45 KB of them), which the second reading of a Solver's
/// memory would find kept since its baseline (`KeptAnywhere`, specs/protocol.md "Memory"). What the code
/// computes is the same.
pub(super) const INLINE_STRING_CONCAT: &str = "-XDstringConcat=inline";

/// The JDK tools the build uses.
pub(super) struct Jdk {
    pub(super) java: PathBuf,
    pub(super) javac: PathBuf,
    pub(super) jar: Option<PathBuf>,
    /// The `java` of `javac`'s JDK, which runs the student's compiles ([`compile_in_one_jvm`]): a `java`
    /// first on `PATH` may be a runtime without the compiler's modules.
    pub(super) compiler_java: PathBuf,
    /// The limits of each javac and jar run.
    pub(super) limits: BuildLimits,
}

impl Jdk {
    /// The JDK's directory (`HOME/bin/java`), which the sandbox must show.
    pub(super) fn home(&self) -> PathBuf {
        home_of(&self.java)
    }

    pub(super) fn find() -> Result<Jdk, JavaBuildError> {
        let java = find_tool("java").ok_or(JavaBuildError::ToolNotFound("java"))?;
        let javac = find_tool("javac").ok_or(JavaBuildError::ToolNotFound("javac"))?;
        // `jar` and the compiler's `java` from the same JDK as javac (PATH entries are often symlinks into it)
        let beside_javac = |name: &str| {
            let real = fs::canonicalize(&javac).ok()?;
            Some(real.parent()?.join(name)).filter(|tool| is_executable(tool))
        };
        let jar = beside_javac("jar").or_else(|| find_tool("jar"));
        let compiler_java = beside_javac("java").unwrap_or_else(|| java.clone());
        Ok(Jdk { java, javac, jar, compiler_java, limits: BuildLimits::default() })
    }
}

impl Jdk {
    /// A build step running `tool` that writes into `staging` and reads the JDK.
    pub(super) fn step(&self, tool: &Path, staging: &Path) -> ProcessSpec {
        step(tool, &self.limits).read_only(self.home()).writable(staging)
    }

    pub(super) fn run(&self, spec: &ProcessSpec, tool: &Path) -> Result<ToolOutput, JavaBuildError> {
        crate::build::step::run_step(spec, &self.limits, &tool.display().to_string())
            .map_err(|e| JavaBuildError::Tool { tool: tool.to_owned(), source: std::io::Error::other(e.to_string()) })
    }
}

/// The directory of the JDK a tool (`HOME/bin/TOOL`, links followed) belongs to.
fn home_of(tool: &Path) -> PathBuf {
    let tool = fs::canonicalize(tool).unwrap_or_else(|_| tool.to_owned());
    tool.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or(tool)
}

/// `JAVA_HOME/bin/NAME` if it exists, else the first `NAME` on `PATH` (absolute).
pub(super) fn find_tool(name: &str) -> Option<PathBuf> {
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

/// The options of the JVM every compile runs in: quick to start (C1 alone, the serial collector, the JDK's
/// class data archive).
const COMPILER_JVM: [&str; 3] = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto"];

/// One javac command line without the JVM's options, writing classes to `out` (created here): quiet, Java
/// 17 class files; `paths` are its module and class path options, `files` what it compiles.
pub(super) fn javac_args(
    out: &Path,
    paths: &[OsString],
    encoding: &str,
    files: &[PathBuf],
) -> Result<Vec<OsString>, JavaBuildError> {
    fs::create_dir_all(out).map_err(io_error(format!("cannot create {}", out.display())))?;
    let options = ["--release", "17", "-encoding", encoding, "-nowarn", "-Xmaxerrs", "50", "-implicit:none"];
    let mut args: Vec<OsString> = options.iter().map(OsString::from).collect();
    args.extend(paths.iter().cloned());
    args.push("-d".into());
    args.push(out.into());
    args.extend(files.iter().map(OsString::from));
    Ok(args)
}

/// A javac run in `cwd` (inside `staging`, the only place it may write), as one process.
pub(super) fn javac(jdk: &Jdk, staging: &Path, cwd: &Path, args: Vec<OsString>) -> Result<ToolOutput, JavaBuildError> {
    let mut spec = jdk.step(&jdk.javac, staging).args(COMPILER_JVM.map(|option| format!("-J{option}"))).args(args);
    spec.cwd = Some(cwd.to_owned());
    jdk.run(&spec, &jdk.javac)
}

/// What one compilation of [`compile_in_one_jvm`] left.
#[derive(Debug)]
pub(super) struct Compiled {
    /// javac's exit status; `None` when the JVM ended before this compilation did.
    pub(super) status: Option<i32>,
    /// What javac printed.
    pub(super) log: String,
}

impl Compiled {
    pub(super) fn success(&self) -> bool {
        self.status == Some(0)
    }
}

/// Runs javac command lines ([`javac_args`]) one after another in one JVM (`Compilations`, which the
/// adapter's build compiled into `runner`), in `cwd`, writing only into `staging`, where each one's output
/// goes to `javac-NAME.log`; `shown` is what else the compilations read. A second compilation in the JVM
/// of the first costs about a tenth of a javac process of its own (its classes loaded and compiled
/// already: 0.75 s of CPU for a student's two compiles against 1.4 s). Returns the step's own output (for
/// a time-out, or a JVM that ended early: its standard error) and each compilation's result, in order.
pub(super) fn compile_in_one_jvm(
    jdk: &Jdk,
    staging: &Path,
    cwd: &Path,
    (runner, shown): (&Path, &[&Path]),
    compilations: &[(&str, Vec<OsString>)],
) -> Result<(ToolOutput, Vec<Compiled>), JavaBuildError> {
    let logs: Vec<PathBuf> = compilations.iter().map(|(name, _)| staging.join(format!("javac-{name}.log"))).collect();
    let java = &jdk.compiler_java;
    let mut spec = jdk.step(java, staging).read_only(home_of(java)).args(COMPILER_JVM);
    spec = spec.args([OsStr::new("-cp"), runner.as_os_str()]);
    spec = spec.args(["Compilations", "--log-cap", &OUTPUT_CAP.to_string()]);
    for ((_, args), log) in compilations.iter().zip(&logs) {
        spec = spec.args([OsStr::new("--compile"), log.as_os_str()]).args(args);
    }
    spec = spec.read_only(runner);
    for path in shown {
        spec = spec.read_only(path);
    }
    spec.cwd = Some(cwd.to_owned());
    let output = jdk.run(&spec, java)?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut lines = stdout.lines();
    if lines.next() != Some("ready") && !output.timed_out {
        return Err(JavaBuildError::Adapter(format!("its compile runner did not start: {}", output.combined())));
    }
    // `LOG STATUS` for each compilation that ended, in order
    let statuses: Vec<(&str, i32)> = lines
        .filter_map(|line| line.rsplit_once(' ').and_then(|(log, status)| Some((log, status.parse().ok()?))))
        .collect();
    let compiled = logs
        .iter()
        .map(|log| {
            let status = statuses.iter().find(|(path, _)| Path::new(path) == log).map(|&(_, status)| status);
            let log = read_capped(log).map(|bytes| String::from_utf8_lossy(&bytes).into_owned()).unwrap_or_default();
            Compiled { status, log }
        })
        .collect();
    // its standard output was the runner's lines, read above: what a failure shows is its standard error
    Ok((ToolOutput { stdout: Vec::new(), ..output }, compiled))
}

/// A compile's log, its first [`OUTPUT_CAP`] bytes (the runner keeps no more: what the grader keeps of any
/// build step's output).
fn read_capped(path: &Path) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    fs::File::open(path)?.take(OUTPUT_CAP as u64).read_to_end(&mut bytes)?;
    Ok(bytes)
}
