//! The JDK the build runs: found through `JAVA_HOME` or `PATH` ([`Jdk::find`]), with `jar` taken from the
//! same JDK as `javac`, and each of its tools run as a sandboxed build step (`build::step`) that sees the
//! JDK and writes only into its staging directory. The `javac` command line every compile shares lives here.

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

use super::error::{io_error, JavaBuildError};
use crate::build::step::{step, BuildLimits};
use crate::runner::sandbox::is_executable;
use crate::runner::spec::ProcessSpec;
use crate::runner::tool::ToolOutput;

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
    /// The limits of each javac and jar run.
    pub(super) limits: BuildLimits,
}

impl Jdk {
    /// The JDK's directory (`HOME/bin/java`), which the sandbox must show.
    pub(super) fn home(&self) -> PathBuf {
        let java = fs::canonicalize(&self.java).unwrap_or_else(|_| self.java.clone());
        java.parent().and_then(Path::parent).map(Path::to_path_buf).unwrap_or(java)
    }

    pub(super) fn find() -> Result<Jdk, JavaBuildError> {
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

/// A javac run in `cwd`, writing classes to `out` (both inside `staging`, the only place it may write):
/// quiet, fast to start, Java 17 class files; `paths` are its module and class path options.
pub(super) fn javac_spec(
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

pub(super) fn javac(
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
