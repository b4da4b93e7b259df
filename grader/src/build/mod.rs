//! Turns a submission path into a program the runner can start: an executable as it is, a Cargo project
//! built in release mode (`cargo`: the student's crate as a scratch crate of the grader's, `scratch`, compiled
//! apart from the grader's crates, `link`), a Java folder compiled with the adapter, or a Python folder run
//! by its adapter.
//!
//! A build failure is the student's "compilation" result, not a grader error: it is returned as
//! [`Prepared::CompileFailed`] with the compiler's output, and grading goes on to write a report.
//!
//! Every build step (cargo with its build scripts and proc macros, javac, jar, Python's compile check) is a
//! [`step`](step::step) run by [`run_step`](step::run_step): sandboxed like a submission's program (see
//! `runner::sandbox`), as root without capabilities, seeing only the toolchain and the paths the step
//! names, with [`BuildLimits`].
//! This module describes processes and never starts one: the runner does (`runner::tool`, which also asks
//! the host which interpreter `python3` is).

pub mod cargo;
pub mod checkstyle;
#[cfg(test)]
mod conversation;
pub mod handed_in;
pub mod java;
mod jvm;
pub mod link;
pub mod machine;
pub mod python;
pub mod scratch;
pub mod step;

use std::path::Path;

use crate::runner::sandbox::is_executable;
pub use jvm::LARGE_SEARCH_BOARDS;
pub use step::{AddressSpaceFit, BuildError, BuildLimits, Heap, Launch, MemoryBound, Prepared, WorldLaunches};

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
    /// The language's name in a sentence.
    pub fn display_name(self) -> &'static str {
        match self {
            SubmissionKind::Executable => "a program",
            SubmissionKind::Cargo => "Rust",
            SubmissionKind::Java => "Java",
            SubmissionKind::Python => "Python",
        }
    }

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

/// Where a submission's files are: inside the one folder `path` holds when it holds nothing else (an upload
/// zipped with its folder; hidden files and `__MACOSX` do not count), else `path` itself. A link is not
/// followed, and a path that is a submission already is left as it is.
pub fn locate(path: &Path) -> std::path::PathBuf {
    if detect(path).is_ok() {
        return path.to_path_buf();
    }
    let Ok(entries) = std::fs::read_dir(path) else { return path.to_path_buf() };
    let shown: Vec<std::fs::DirEntry> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name() != "__MACOSX" && !e.file_name().to_string_lossy().starts_with('.'))
        .collect();
    match shown.as_slice() {
        [only] if only.file_type().is_ok_and(|t| t.is_dir()) => locate(&only.path()),
        _ => path.to_path_buf(),
    }
}

/// The kinds of submission a folder can be, in the order [`detect`] tries them, each with the files that make
/// a folder one (any of them).
const FOLDER_KINDS: [(SubmissionKind, &[&str]); 3] = [
    (SubmissionKind::Cargo, &["Cargo.toml"]),
    (SubmissionKind::Java, &["Board.java", "Solver.java"]),
    (SubmissionKind::Python, &["board.py", "solver.py"]),
];

/// The kinds of submission whose files folder `path` holds, in the order [`detect`] tries them.
fn folder_kinds(path: &Path) -> impl Iterator<Item = SubmissionKind> + '_ {
    FOLDER_KINDS.into_iter().filter(|(_, files)| files.iter().any(|f| path.join(f).is_file())).map(|(kind, _)| kind)
}

/// Works out what kind of submission `path` is.
pub fn detect(path: &Path) -> Result<SubmissionKind, BuildError> {
    if path.is_dir() {
        if let Some(kind) = folder_kinds(path).next() {
            return Ok(kind);
        }
    } else if is_executable(path) {
        return Ok(SubmissionKind::Executable);
    }
    Err(BuildError::NotASubmission(path.to_path_buf()))
}

/// What a report says of a folder graded as `kind` that holds another language's files too (a Java folder
/// with board.py beside it): [`detect`] took the first kind it tries, and the student may have meant another.
pub fn passed_over(path: &Path, kind: SubmissionKind) -> Vec<String> {
    let graded = FOLDER_KINDS.iter().find(|(k, _)| *k == kind).map_or(&[][..], |(_, files)| *files);
    FOLDER_KINDS
        .iter()
        .filter(|(other, _)| *other != kind)
        .filter_map(|(other, files)| {
            let there: Vec<&str> = files.iter().copied().filter(|f| path.join(f).is_file()).collect();
            (!there.is_empty()).then(|| {
                format!(
                    "the submission also holds {} ({} files): it was graded as {} ({}), which the grader tries \
                     first; hand in one language's files",
                    there.join(" and "),
                    other.display_name(),
                    kind.display_name(),
                    graded.join(", ")
                )
            })
        })
        .collect()
}

/// Prepares a submission of a known kind. `work` is a directory the build may use for its outputs and
/// caches; `heap` is the memory its runtime is given; `limits` bound every build step; `rust` says how a
/// Cargo project is built.
pub fn prepare(
    path: &Path,
    kind: SubmissionKind,
    work: &Path,
    heap: Heap,
    limits: &BuildLimits,
    rust: &crate::policy::RustBuild,
    java: &crate::policy::JavaBuild,
) -> Result<Prepared, BuildError> {
    match kind {
        SubmissionKind::Executable => Ok(Prepared::Ready(Box::new(Launch::native(
            std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()),
        )))),
        SubmissionKind::Cargo => cargo::build_cargo(path, work, rust, limits),
        SubmissionKind::Java => {
            java::build_java(path, work, heap, limits, java).map_err(|e| BuildError::Java(e.to_string()))
        }
        SubmissionKind::Python => {
            python::build_python(path, work, heap.mb, limits).map_err(|e| BuildError::Python(e.to_string()))
        }
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
        let both = tempfile::tempdir().unwrap();
        for file in ["Board.java", "Solver.java", "solver.py"] {
            std::fs::write(both.path().join(file), "").unwrap();
        }
        assert_eq!(detect(both.path()).unwrap(), SubmissionKind::Java);
        assert_eq!(
            passed_over(both.path(), SubmissionKind::Java),
            ["the submission also holds solver.py (Python files): it was graded as Java (Board.java, Solver.java), \
              which the grader tries first; hand in one language's files"]
        );
        assert!(passed_over(&root.join("fixtures/submissions/python/valid"), SubmissionKind::Python).is_empty());
        assert!(e.to_string().contains("is not a submission"), "{e}");
    }

    #[test]
    fn an_upload_wrapped_in_one_folder_is_found_inside_it() {
        let upload = tempfile::tempdir().unwrap();
        let inner = upload.path().join("My 8puzzle/src");
        std::fs::create_dir_all(&inner).unwrap();
        std::fs::create_dir(upload.path().join("__MACOSX")).unwrap();
        std::fs::write(upload.path().join(".DS_Store"), "").unwrap();
        std::fs::write(inner.join("Board.java"), "").unwrap();
        assert_eq!(locate(upload.path()), inner);
        assert_eq!(detect(&locate(upload.path())).unwrap(), SubmissionKind::Java);
        // Two folders, or a link to one, are left alone: the grader follows no link of a submission.
        let linked = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(&inner, linked.path().join("elsewhere")).unwrap();
        assert_eq!(locate(linked.path()), linked.path());
    }
}
