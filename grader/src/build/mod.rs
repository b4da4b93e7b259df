//! Turns a submission path into a program the runner can start: an executable as it is, a Cargo project
//! built in release mode, a Java folder compiled with the adapter, or a Python folder run by its adapter.
//!
//! A build failure is the student's "compilation" result, not a grader error: it is returned as
//! [`Prepared::CompileFailed`] with the compiler's output, and grading goes on to write a report.

pub mod cargo;
pub mod java;
pub mod python;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

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

pub(crate) fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// Prepares a submission of a known kind. `work` is a directory the build may use for its outputs and
/// caches; `heap_mb` is the memory limit a JVM is started with, and a Python server's address space.
pub fn prepare(path: &Path, kind: SubmissionKind, work: &Path, heap_mb: u64) -> Result<Prepared, BuildError> {
    match kind {
        SubmissionKind::Executable => Ok(Prepared::Ready(Launch {
            program: std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
            args: vec![],
            env: vec![],
            address_space_limit: true,
        })),
        SubmissionKind::Cargo => cargo::build_cargo(path),
        SubmissionKind::Java => match java::build_java(path, work, heap_mb) {
            Ok(java::JavaBuild::Ready { program, args, env }) => {
                Ok(Prepared::Ready(Launch { program, args, env, address_space_limit: false }))
            }
            Ok(java::JavaBuild::CompileFailed { log }) => Ok(Prepared::CompileFailed { log }),
            Err(e) => Err(BuildError::Java(e.to_string())),
        },
        SubmissionKind::Python => match python::build_python(path, work, heap_mb) {
            // the server caps its own address space (at `heap_mb`, as the JVM's heap)
            Ok(python::PythonBuild::Ready { program, args, env }) => {
                Ok(Prepared::Ready(Launch { program, args, env, address_space_limit: false }))
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
