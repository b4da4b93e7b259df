//! What was handed in: a submission of a known kind, or why it is none, said in the words of the files as
//! the student named them (`found solver.java: rename it to Solver.java`, `only writeup.pdf was handed in`,
//! `nothing was handed in`), never a path of the grader's. The one place that decides whether a path is a
//! submission; `grade` reports one that is not as not graded (`results::NotGraded`), listing the files that
//! were handed in.
//!
//! A submission is an executable file, a folder with `Cargo.toml` (Rust), with `Board.java` and `Solver.java`
//! (Java), or with `board.py` and `solver.py` (Python), or a folder holding one such folder and nothing else
//! ([`super::locate`]). A folder with one of a pair, or with the pair under other names or deeper down, is
//! not one: the official grader refuses such an upload, and a build that fails for it would be read as the
//! student's code not compiling.

use std::path::{Path, PathBuf};

use super::{locate, SubmissionKind};
use crate::results::SubmittedFile;
use crate::runner::sandbox::is_executable;

/// A submission found: where its files are (inside the one folder an upload may wrap them in) and its kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandedIn {
    #[allow(missing_docs)]
    pub path: PathBuf,
    #[allow(missing_docs)]
    pub kind: SubmissionKind,
}

/// Why what was handed in is not a submission, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotASubmission {
    /// Why, with what to do, in the words of the files handed in.
    pub reason: String,
    /// The files handed in, by their paths in what was handed in, with their sizes (at most [`MAX_LISTED`]).
    pub files: Vec<SubmittedFile>,
}

/// The most files a reason or a list names.
pub const MAX_LISTED: usize = 100;

/// What every kind of submission consists of, for the reasons' last words.
const WHAT_A_SUBMISSION_IS: &str = "a submission is Board.java and Solver.java (Java), board.py and solver.py \
                                    (Python), or a Cargo project (Rust)";

/// The files each language's submission must have at its top, and the extension of its sources.
const LANGUAGES: [(&str, &[&str], &str); 3] = [
    ("Java", &["Board.java", "Solver.java"], ".java"),
    ("Python", &["board.py", "solver.py"], ".py"),
    ("Rust", &["Cargo.toml"], ".rs"),
];

/// What `path` holds (it exists): a submission, or why it is not one.
pub fn examine(path: &Path) -> Result<HandedIn, NotASubmission> {
    let shown = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if !path.is_dir() {
        if is_executable(path) {
            return Ok(HandedIn { path: path.to_path_buf(), kind: SubmissionKind::Executable });
        }
        let bytes = std::fs::symlink_metadata(path).map(|m| m.len()).unwrap_or(0);
        let reason = match unpack_advice(&shown) {
            Some(advice) => format!("only {shown} was handed in, an archive: {advice}"),
            None => format!("only {shown} was handed in, and it is not a program: {WHAT_A_SUBMISSION_IS}"),
        };
        return Err(NotASubmission { reason, files: vec![SubmittedFile { name: shown, bytes }] });
    }
    let located = locate(path);
    let top = |name: &str| located.join(name).is_file();
    let kind = if top("Cargo.toml") {
        Some(SubmissionKind::Cargo)
    } else if top("Board.java") && top("Solver.java") {
        Some(SubmissionKind::Java)
    } else if top("board.py") && top("solver.py") {
        Some(SubmissionKind::Python)
    } else {
        None
    };
    if let Some(kind) = kind {
        return Ok(HandedIn { path: located, kind });
    }
    let files = handed_in_files(path);
    let at_top: PathBuf = located.strip_prefix(path).map(Path::to_path_buf).unwrap_or_default();
    Err(NotASubmission { reason: why_not(&files, &at_top), files: files.into_iter().take(MAX_LISTED).collect() })
}

/// The regular files under `root` (links and hidden files left out, `__MACOSX` too), by path, sorted.
fn handed_in_files(root: &Path) -> Vec<SubmittedFile> {
    walkdir::WalkDir::new(root)
        .min_depth(1)
        .max_depth(8)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| {
            let name = e.file_name().to_string_lossy();
            !name.starts_with('.') && name != "__MACOSX"
        })
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .take(10 * MAX_LISTED)
        .filter_map(|e| {
            let name = e.path().strip_prefix(root).ok()?.to_string_lossy().into_owned();
            Some(SubmittedFile { name, bytes: e.metadata().ok()?.len() })
        })
        .collect()
}

/// Where a file a language needs was found.
enum Found<'a> {
    /// At the top, under another name (`solver.java`, `Solver (1).java`).
    Misnamed(&'a str),
    /// Deeper down, under its own name or another.
    Deeper(&'a str),
    Missing,
}

/// Why the `files` handed in (paths from what was handed in; `top` is the folder the submission's files
/// should be in, relative to it) are no submission, and what to do.
fn why_not(files: &[SubmittedFile], top: &Path) -> String {
    if files.is_empty() {
        return "nothing was handed in".into();
    }
    let in_top = |f: &&SubmittedFile| Path::new(&f.name).parent() == Some(top);
    let top_names: Vec<&str> = files.iter().filter(in_top).filter_map(|f| file_name(&f.name)).collect();
    let mut problems = Vec::new();
    for (language, needed, extension) in LANGUAGES {
        let looks_like = |name: &str| needed.iter().any(|n| near(name, n)) || name.ends_with(extension);
        if !files.iter().any(|f| file_name(&f.name).is_some_and(looks_like)) {
            continue;
        }
        let mut said = Vec::new();
        for &needed_file in needed {
            let found = if let Some(name) = top_names.iter().find(|n| near(n, needed_file)) {
                Found::Misnamed(name)
            } else if top_names.contains(&needed_file) {
                continue;
            } else if let Some(file) = files.iter().find(|f| file_name(&f.name).is_some_and(|n| n == needed_file)) {
                Found::Deeper(&file.name)
            } else if let Some(file) = files.iter().find(|f| file_name(&f.name).is_some_and(|n| near(n, needed_file))) {
                Found::Deeper(&file.name)
            } else {
                Found::Missing
            };
            said.push(match found {
                Found::Misnamed(name) => format!("found {name}: rename it to {needed_file}"),
                Found::Deeper(path) if file_name(path) == Some(needed_file) => {
                    format!("{needed_file} is in {}, not at the top of what was handed in", folder_of(path))
                }
                Found::Deeper(path) => format!("found {path}: rename it to {needed_file} and move it to the top"),
                Found::Missing => format!("{needed_file} is missing"),
            });
        }
        let pair = match needed {
            [one] => format!("a {language} submission is a folder with {one} at its top"),
            [a, b] => format!("a {language} submission is the two files {a} and {b}"),
            _ => String::new(),
        };
        problems.push(format!("{} ({pair})", said.join("; ")));
    }
    if problems.is_empty() {
        if let [one] = files {
            if let Some(advice) = unpack_advice(&one.name) {
                return format!("{}, an archive: {advice}", only(files));
            }
        }
        return format!("{}: {WHAT_A_SUBMISSION_IS}", only(files));
    }
    problems.join("; ")
}

/// What to do with an archive handed in alone (`sub.zip`): `grade` grades files, not archives (`batch`
/// unpacks a class's zips itself).
fn unpack_advice(name: &str) -> Option<String> {
    let lower = name.to_lowercase();
    let archive = [".zip", ".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".7z", ".rar", ".jar"]
        .into_iter()
        .find(|extension| lower.ends_with(extension))?;
    let stem = &name[..name.len() - archive.len()];
    let unpack = match archive {
        ".zip" | ".jar" => format!("`unzip {name} -d {stem}`"),
        ".7z" | ".rar" => format!("unpack it into a folder `{stem}`"),
        _ => format!("`mkdir {stem} && tar -xf {name} -C {stem}`"),
    };
    Some(format!(
        "unpack it first ({unpack}) and grade that folder, which must hold the files themselves \
         ({WHAT_A_SUBMISSION_IS}); `grader batch` unpacks each student's zip itself"
    ))
}

/// `only writeup.pdf was handed in`, `only a.txt and b.pdf were handed in`, or a few names and how many more.
fn only(files: &[SubmittedFile]) -> String {
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    match names.as_slice() {
        [one] => format!("only {one} was handed in"),
        [a, b] => format!("only {a} and {b} were handed in"),
        [a, b, c] => format!("only {a}, {b} and {c} were handed in"),
        [a, b, rest @ ..] => format!("only {a}, {b} and {} other files were handed in", rest.len()),
        [] => "nothing was handed in".into(),
    }
}

fn file_name(path: &str) -> Option<&str> {
    Path::new(path).file_name().and_then(|n| n.to_str())
}

/// `hw/src/` for `hw/src/Board.java`.
fn folder_of(path: &str) -> String {
    match Path::new(path).parent() {
        Some(parent) if !parent.as_os_str().is_empty() => format!("{}/", parent.display()),
        _ => "the top".into(),
    }
}

/// Whether `found` is `expected` under another name a student could have given it by mistake: another case
/// (`solver.java`), a copy's mark (`Solver (1).java`, `Solver-2.java`, `Solver copy.java`), or an extension
/// added (`Solver.java.txt`). Not the name itself.
fn near(found: &str, expected: &str) -> bool {
    if found == expected {
        return false;
    }
    let found = found.to_lowercase();
    let found = found.strip_suffix(".txt").filter(|f| f.contains('.')).unwrap_or(&found);
    let expected = expected.to_lowercase();
    let split = |name: &str| -> (String, String) {
        match name.rsplit_once('.') {
            Some((stem, extension)) => (stem.to_string(), extension.to_string()),
            None => (name.to_string(), String::new()),
        }
    };
    let ((stem, extension), (expected_stem, expected_extension)) = (split(found), split(&expected));
    extension == expected_extension && without_copy_mark(&stem) == expected_stem
}

/// A file name's stem without what copying adds to it: ` (1)`, `-2`, ` copy`, ` - Copy`.
fn without_copy_mark(stem: &str) -> &str {
    let stem = stem.trim();
    for mark in [" - copy", " copy"] {
        if let Some(rest) = stem.strip_suffix(mark) {
            return rest.trim();
        }
    }
    if let Some(rest) = stem.strip_suffix(')') {
        if let Some((base, n)) = rest.rsplit_once('(') {
            if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) {
                return base.trim();
            }
        }
    }
    if let Some((base, n)) = stem.rsplit_once(['-', '_', ' ']) {
        if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !base.is_empty() {
            return base.trim();
        }
    }
    stem
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    fn folder(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        dir
    }

    fn reason(files: &[&str]) -> String {
        let dir = folder(files);
        examine(dir.path()).map(|h| format!("a submission: {:?}", h.kind)).unwrap_or_else(|e| e.reason)
    }

    #[rstest]
    #[case::empty(&[], "nothing was handed in")]
    #[case::hidden_only(&[".DS_Store", "__MACOSX/x"], "nothing was handed in")]
    #[case::a_pdf(&["writeup.pdf"], "only writeup.pdf was handed in: a submission is Board.java and Solver.java (Java)")]
    #[case::a_zip(&["8puzzle.zip"], "only 8puzzle.zip was handed in, an archive: unpack it first (`unzip 8puzzle.zip -d 8puzzle`)")]
    #[case::a_tarball(&["hw.tar.gz"], "only hw.tar.gz was handed in, an archive: unpack it first (`mkdir hw && tar -xf hw.tar.gz -C hw`)")]
    #[case::lower_case(
        &["Board.java", "solver.java"],
        "found solver.java: rename it to Solver.java (a Java submission is the two files Board.java and Solver.java)"
    )]
    #[case::half(
        &["Board.java", "notes.txt"],
        "Solver.java is missing (a Java submission is the two files Board.java and Solver.java)"
    )]
    #[case::copies(&["Board (1).java", "Solver.java.txt"], "found Board (1).java: rename it to Board.java; found Solver.java.txt: rename it to Solver.java")]
    #[case::deeper(
        &["hw/src/Board.java", "hw/src/Solver.java", "README.md"],
        "Board.java is in hw/src/, not at the top of what was handed in; Solver.java is in hw/src/"
    )]
    #[case::python_half(&["solver.py"], "board.py is missing (a Python submission is the two files board.py and solver.py)")]
    #[case::rust_without_manifest(&["src/main.rs"], "Cargo.toml is missing (a Rust submission is a folder with Cargo.toml at its top)")]
    #[case::java(&["Board.java", "Solver.java", "writeup.pdf"], "a submission: Java")]
    #[case::wrapped(&["my 8puzzle/board.py", "my 8puzzle/solver.py"], "a submission: Python")]
    #[case::wrapped_misnamed(&["hw/board.java", "hw/Solver.java"], "found board.java: rename it to Board.java")]
    fn what_was_handed_in_or_why_it_is_not_a_submission(#[case] files: &[&str], #[case] expected: &str) {
        let got = reason(files);
        assert!(got.starts_with(expected), "{files:?}: {got}");
    }

    #[test]
    fn the_files_are_listed_as_handed_in_and_a_lone_file_is_no_program() {
        let dir = folder(&["8puzzle/Board.java", "8puzzle/notes.txt"]);
        let not = examine(dir.path()).unwrap_err();
        let names: Vec<&str> = not.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["8puzzle/Board.java", "8puzzle/notes.txt"], "paths as the student sees them");
        assert!(!not.reason.contains(&*dir.path().to_string_lossy()), "no path of the grader's: {}", not.reason);
        let lone = dir.path().join("8puzzle/notes.txt");
        assert!(examine(&lone)
            .unwrap_err()
            .reason
            .starts_with("only notes.txt was handed in, and it is not a program"));
        std::fs::write(dir.path().join("sub.zip"), b"PK").unwrap();
        let zip = examine(&dir.path().join("sub.zip")).unwrap_err().reason;
        assert!(
            zip.starts_with("only sub.zip was handed in, an archive: unpack it first (`unzip sub.zip -d sub`)"),
            "{zip}"
        );
        assert_eq!(examine(Path::new("/bin/sh")).unwrap().kind, SubmissionKind::Executable);
    }

    #[rstest]
    #[case("solver.java", "Solver.java", true)]
    #[case("Solver (2).java", "Solver.java", true)]
    #[case("Solver-1.java", "Solver.java", true)]
    #[case("Solver copy.java", "Solver.java", true)]
    #[case("SOLVER.JAVA.txt", "Solver.java", true)]
    #[case("Solver.java", "Solver.java", false)]
    #[case("Solver2.java", "Solver.java", false)]
    #[case("SolverTest.java", "Solver.java", false)]
    #[case("Solver.py", "solver.py", true)]
    #[case("cargo.toml", "Cargo.toml", true)]
    fn near_names_are_mistakes_a_student_could_make(#[case] found: &str, #[case] expected: &str, #[case] is: bool) {
        assert_eq!(near(found, expected), is);
    }
}
