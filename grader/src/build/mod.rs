//! Turns a submission path into a program the runner can start: an executable as it is, a Cargo project
//! built in release mode (in a scratch workspace of the grader's, `cargo` + `scratch`), a Java folder compiled
//! with the adapter, or a Python folder run by its adapter.
//!
//! A build failure is the student's "compilation" result, not a grader error: it is returned as
//! [`Prepared::CompileFailed`] with the compiler's output, and grading goes on to write a report.
//!
//! Every build step (cargo with its build scripts and proc macros, javac, jar, Python's compile check) is a
//! [`step`] run by [`run_step`]: sandboxed like a submission's program (see `runner::sandbox`), as root
//! without capabilities, seeing only the toolchain and the paths the step names, with [`BuildLimits`].
//! This module describes processes and never starts one: the runner does (`runner::tool`, which also asks
//! the host which interpreter `python3` is).

pub mod cargo;
pub mod java;
pub mod python;
pub mod scratch;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::policy;
use crate::runner::sandbox::is_executable;
use crate::runner::spec::{Identity, ProcessLimits, ProcessSpec};
use crate::runner::tool::{self, ToolOutput};

/// The limits of every build step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildLimits {
    /// Wall-clock time of one step.
    pub wall: Duration,
    /// Memory of one step's sandbox, in MB.
    pub memory_mb: u64,
    /// Processes and threads of one step's sandbox.
    pub processes: u64,
}

impl BuildLimits {
    /// The policy's build limits.
    pub fn from_policy(limits: &policy::Limits) -> BuildLimits {
        BuildLimits {
            wall: Duration::from_secs_f64(limits.build_seconds),
            memory_mb: limits.build_memory_mb,
            processes: limits.build_processes,
        }
    }
}

impl Default for BuildLimits {
    fn default() -> Self {
        BuildLimits::from_policy(&policy::Limits::default())
    }
}

/// A build step running `program`: sandboxed as root without capabilities, with `limits`' memory and
/// process caps, no CPU limit of its own. Add its arguments, environment, working directory and the paths
/// it reads ([`ProcessSpec::read_only`]) and writes ([`ProcessSpec::writable`]), then [`run_step`] it.
pub fn step(program: impl Into<PathBuf>, limits: &BuildLimits) -> ProcessSpec {
    let limits = ProcessLimits {
        cpu: None,
        processes: Some(limits.processes),
        memory: Some(limits.memory_mb << 20),
        ..ProcessLimits::default()
    };
    let mut spec = ProcessSpec::new(program).limits(limits);
    spec.identity = Identity::CaplessRoot;
    spec
}

/// Runs a build step to its end (or its time limit). `tool` names it in errors.
pub fn run_step(spec: &ProcessSpec, limits: &BuildLimits, tool: &str) -> Result<ToolOutput, BuildError> {
    tool::run_to_end(spec, limits.wall).map_err(|source| BuildError::Tool { tool: tool.into(), source })
}

/// What a student reads when a build step ran out of time, before its output.
pub fn timed_out_log(limits: &BuildLimits, output: &ToolOutput) -> String {
    format!(
        "the build did not finish within {} s and was stopped with everything it started (does a build \
         script wait for something, or leave a process behind?)\n{}",
        limits.wall.as_secs_f64(),
        output.combined()
    )
}

/// The kind of submission found at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubmissionKind {
    /// A program that already speaks the protocol.
    Executable,
    /// A Cargo project (a directory with `Cargo.toml`).
    Cargo,
    /// A folder with `Board.java` and `Solver.java`.
    Java,
    /// A folder with `board.py` and `solver.py`.
    Python,
}

impl SubmissionKind {
    /// The language name used in reports.
    pub fn language(self) -> &'static str {
        match self {
            SubmissionKind::Executable => "program",
            SubmissionKind::Cargo => "rust",
            SubmissionKind::Java => "java",
            SubmissionKind::Python => "python",
        }
    }
}

/// How to start a prepared submission.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// Extra environment variables.
    pub env: Vec<(OsString, OsString)>,
    /// Whether an address-space limit may be applied (not for the JVM, which reserves its heap up front).
    pub address_space_limit: bool,
    /// What the program reads besides itself and the system directories (shown read-only by its sandbox).
    pub read_only: Vec<PathBuf>,
}

/// The result of preparing a submission.
#[derive(Debug, Clone)]
pub enum Prepared {
    /// Ready to run.
    Ready(Launch),
    /// The submission did not compile; the log is shown to the student.
    CompileFailed {
        /// The compiler's output.
        log: String,
    },
}

/// Why a submission could not even be looked at (the grader's or the user's problem, not the student's).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Nothing usable at the path.
    #[error(
        "`{0}` is not a submission: expected an executable file, a Cargo project directory, a folder with \
         Board.java and Solver.java, or a folder with board.py and solver.py"
    )]
    NotASubmission(PathBuf),
    /// A tool the build needs is missing or failed to start.
    #[error("failed to run {tool}: {source} (is it installed and on PATH?)")]
    Tool {
        /// The tool.
        tool: String,
        /// Why.
        source: std::io::Error,
    },
    /// The Java build failed for a reason other than the student's code.
    #[error("failed to prepare the Java adapter: {0}")]
    Java(String),
    /// The Python interpreter is missing or too old, or the adapter could not be written.
    #[error("failed to prepare the Python adapter: {0}")]
    Python(String),
}

/// Works out what kind of submission `path` is.
pub fn detect(path: &Path) -> Result<SubmissionKind, BuildError> {
    if path.is_dir() {
        if path.join("Cargo.toml").is_file() {
            return Ok(SubmissionKind::Cargo);
        }
        if path.join("Board.java").is_file() || path.join("Solver.java").is_file() {
            return Ok(SubmissionKind::Java);
        }
        if path.join("board.py").is_file() || path.join("solver.py").is_file() {
            return Ok(SubmissionKind::Python);
        }
    } else if is_executable(path) {
        return Ok(SubmissionKind::Executable);
    }
    Err(BuildError::NotASubmission(path.to_path_buf()))
}

/// Prepares a submission of a known kind. `work` is a directory the build may use for its outputs and
/// caches; `heap_mb` is the memory limit a JVM is started with; and a Python server's address space; `limits`
/// bound every build step; `rust` says
/// how a Cargo project is built.
pub fn prepare(
    path: &Path,
    kind: SubmissionKind,
    work: &Path,
    heap_mb: u64,
    limits: &BuildLimits,
    rust: &crate::policy::RustBuild,
) -> Result<Prepared, BuildError> {
    match kind {
        SubmissionKind::Executable => Ok(Prepared::Ready(Launch {
            program: std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
            args: vec![],
            env: vec![],
            address_space_limit: true,
            read_only: vec![],
        })),
        SubmissionKind::Cargo => cargo::build_cargo(path, work, rust, limits),
        SubmissionKind::Java => match java::build_java(path, work, heap_mb, limits) {
            Ok(java::JavaBuild::Ready { program, args, env, read_only }) => {
                Ok(Prepared::Ready(Launch { program, args, env, address_space_limit: false, read_only }))
            }
            Ok(java::JavaBuild::CompileFailed { log }) => Ok(Prepared::CompileFailed { log }),
            Err(e) => Err(BuildError::Java(e.to_string())),
        },
        SubmissionKind::Python => match python::build_python(path, work, heap_mb, limits) {
            // the server caps its own address space (at `heap_mb`, as the JVM's heap)
            Ok(python::PythonBuild::Ready { program, args, env, read_only }) => {
                Ok(Prepared::Ready(Launch { program, args, env, address_space_limit: false, read_only }))
            }
            Ok(python::PythonBuild::CompileFailed { log }) => Ok(Prepared::CompileFailed { log }),
            Err(e) => Err(BuildError::Python(e.to_string())),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_each_kind_and_rejects_the_rest() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        assert_eq!(detect(&root.join("reference")).unwrap(), SubmissionKind::Cargo);
        assert_eq!(detect(Path::new("/bin/sh")).unwrap(), SubmissionKind::Executable);
        assert_eq!(detect(&root.join("fixtures/submissions/python/valid")).unwrap(), SubmissionKind::Python);
        let e = detect(&root.join("specs")).unwrap_err();
        assert!(e.to_string().contains("is not a submission"), "{e}");
    }
}
