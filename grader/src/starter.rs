//! `grader new rust|java|python DIR`: a starter submission that builds and runs where it is written, with
//! nothing to download and no path to edit.
//!
//! Every file is embedded in the grader binary, so an installed grader (`cargo install --path grader`) writes
//! the same starter as a checkout: the `templates/` skeletons, `puzzle04.txt`, and what the assignment's test
//! client needs to run on the student's machine:
//! - Rust: the grader's own `npuzzle` crate, copied into `npuzzle/` and named by path, so `cargo run
//!   --release -- puzzle04.txt` builds offline (the grader builds the student's code against its own copy
//!   anyway, whatever path the crate names);
//! - Java: the grader's textbook stand-ins as sources (`edu/princeton/cs/algs4/`, and the two `npuzzle`
//!   classes its MinPQ reports to, with what they name), where `javac Board.java Solver.java` finds them
//!   with no flags;
//! - Python: `algs4.py`, the textbook MinPQ without the grader's counting.

use std::path::{Path, PathBuf};

/// The language of a starter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Language {
    /// A Cargo crate (`src/board.rs`, `src/solver.rs`) against `npuzzle`.
    Rust,
    /// `Board.java` and `Solver.java` in the default package.
    Java,
    /// `board.py` and `solver.py`.
    Python,
}

/// Why a starter could not be written.
#[derive(Debug, thiserror::Error)]
pub enum StarterError {
    /// The folder exists and holds files: a starter never overwrites work.
    #[error("`{}` is not empty: `grader new` writes into a new or empty folder (it never overwrites files)", .0.display())]
    NotEmpty(PathBuf),
    /// Something other than a folder is already there.
    #[error("`{}` exists and is not a folder: name a new or empty folder for the starter", .0.display())]
    NotAFolder(PathBuf),
    /// Writing failed.
    #[error("failed to write `{}`: {source}", path.display())]
    Write {
        #[allow(missing_docs)]
        path: PathBuf,
        #[allow(missing_docs)]
        source: std::io::Error,
    },
}

/// A sample puzzle every starter holds (4 moves).
const PUZZLE04: &str = include_str!("../../fixtures/puzzles/puzzle04.txt");

const RUST_TEMPLATE: &[(&str, &str)] = &[
    ("src/main.rs", include_str!("../../templates/rust-submission/src/main.rs")),
    ("src/board.rs", include_str!("../../templates/rust-submission/src/board.rs")),
    ("src/solver.rs", include_str!("../../templates/rust-submission/src/solver.rs")),
    ("npuzzle/src/lib.rs", include_str!("../../npuzzle/src/lib.rs")),
    ("npuzzle/src/api.rs", include_str!("../../npuzzle/src/api.rs")),
    ("npuzzle/src/client.rs", include_str!("../../npuzzle/src/client.rs")),
    ("npuzzle/src/minpq.rs", include_str!("../../npuzzle/src/minpq.rs")),
    ("npuzzle/src/observe.rs", include_str!("../../npuzzle/src/observe.rs")),
];

/// The crate's manifest: its own workspace (so it builds inside any other), `npuzzle` by path, excluded
/// from the workspace so that its tests (which need proptest) are never built here.
const RUST_MANIFEST: &str = r#"# A Rust submission for the 8 Puzzle assignment (written by `grader new rust`). Fill in src/board.rs and
# src/solver.rs; `cargo run --release -- puzzle04.txt` runs the assignment's test client, offline.
# The grader builds src/ against its own npuzzle, whatever this file names.
[package]
name = "my-8puzzle"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
npuzzle = { path = "npuzzle" }

[workspace]
exclude = ["npuzzle"]
"#;

const NPUZZLE_MANIFEST: &str = r#"# The grader's npuzzle crate (traits, MinPQ, test client), copied by `grader new rust`: do not edit.
[package]
name = "npuzzle"
version = "0.1.0"
edition = "2021"
publish = false
"#;

const RUST_README: &str = "# A Rust submission to the 8 Puzzle assignment\n\n\
Fill in `src/board.rs` (your Board, `npuzzle::PuzzleBoard`) and `src/solver.rs` (your `Solver<B>`, \
`npuzzle::PuzzleSolver<B>`, with `npuzzle::MinPQ`).\n\n\
- `cargo run --release -- puzzle04.txt` runs the assignment's test client on your Board and Solver.\n\
- `grader grade .` grades this crate (`--self-check` for a quick run while you work, \
`--format html=report.html` for a page to open in a browser).\n\n\
`npuzzle/` is the grader's own crate, copied here so the crate builds offline; the grader builds your `src/` \
against its copy, so do not change it.\n";

const JAVA_TEMPLATE: &[(&str, &str)] = &[
    ("Board.java", include_str!("../../templates/java-submission/Board.java")),
    ("Solver.java", include_str!("../../templates/java-submission/Solver.java")),
];

const JAVA_README: &str = "# A Java submission to the 8 Puzzle assignment\n\n\
Fill in `Board.java` and `Solver.java` (default package, the assignment's API and no other public methods).\n\n\
- `javac Board.java Solver.java && java Solver puzzle04.txt` runs the assignment's test client.\n\
- `grader grade .` grades this folder (`--self-check` for a quick run while you work, \
`--format html=report.html` for a page to open in a browser).\n\n\
`edu/princeton/cs/algs4/` holds the grader's stand-ins for the textbook classes you may import (javac finds \
them beside your files), and `npuzzle/` the classes their MinPQ reports to. With the course's algs4.jar \
you may use that instead. Only Board.java and Solver.java are graded.\n";

const PYTHON_TEMPLATE: &[(&str, &str)] = &[
    ("board.py", include_str!("../../templates/python-submission/board.py")),
    ("solver.py", include_str!("../../templates/python-submission/solver.py")),
    ("algs4.py", include_str!("../../templates/python-submission/algs4.py")),
    ("README.md", include_str!("../../templates/python-submission/README.md")),
];

/// Writes the starter for `language` into `dir` (created; it must be new or empty) and returns what to do
/// next, for the person who asked.
///
/// # Errors
/// [`StarterError::NotEmpty`] when `dir` holds anything, [`StarterError::NotAFolder`] when it is a file,
/// [`StarterError::Write`] when a file cannot be written.
pub fn write(language: Language, dir: &Path) -> Result<String, StarterError> {
    if std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some()) {
        return Err(StarterError::NotEmpty(dir.to_path_buf()));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(StarterError::NotAFolder(dir.to_path_buf()));
    }
    let files = files(language);
    for (name, text) in &files {
        let path = dir.join(name);
        let written = path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|()| std::fs::write(&path, text));
        written.map_err(|source| StarterError::Write { path, source })?;
    }
    let shown = dir.display();
    let run = match language {
        Language::Rust => format!("cd {shown} && cargo run --release -- puzzle04.txt"),
        Language::Java => format!("cd {shown} && javac Board.java Solver.java && java Solver puzzle04.txt"),
        Language::Python => format!("cd {shown} && python3 solver.py puzzle04.txt"),
    };
    Ok(format!(
        "grader: wrote a {} starter ({} files) into {shown}; run it with `{run}`, grade it with `grader grade {shown}`",
        language_name(language),
        files.len()
    ))
}

fn language_name(language: Language) -> &'static str {
    match language {
        Language::Rust => "Rust",
        Language::Java => "Java",
        Language::Python => "Python",
    }
}

/// The source files of a starter (of its language: what a student may copy), by path: the code every
/// student is given, which code similarity leaves out of every match.
pub fn sources(language: Language) -> Vec<(String, &'static str)> {
    let extension = match language {
        Language::Rust => ".rs",
        Language::Java => ".java",
        Language::Python => ".py",
    };
    files(language).into_iter().filter(|(name, _)| name.ends_with(extension)).collect()
}

/// Every file of a starter: its path in the folder and its text.
fn files(language: Language) -> Vec<(String, &'static str)> {
    let mut files: Vec<(String, &'static str)> = vec![("puzzle04.txt".into(), PUZZLE04)];
    let owned =
        |list: &[(&str, &'static str)]| list.iter().map(|(name, text)| (name.to_string(), *text)).collect::<Vec<_>>();
    match language {
        Language::Rust => {
            files.extend(owned(RUST_TEMPLATE));
            files.push(("Cargo.toml".into(), RUST_MANIFEST));
            files.push(("npuzzle/Cargo.toml".into(), NPUZZLE_MANIFEST));
            files.push(("README.md".into(), RUST_README));
        }
        Language::Java => {
            files.extend(owned(JAVA_TEMPLATE));
            files.extend(crate::build::java::textbook_sources().map(|(name, text)| (name.to_string(), text)));
            files.push(("README.md".into(), JAVA_README));
        }
        Language::Python => files.extend(owned(PYTHON_TEMPLATE)),
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_starter_goes_into_a_new_or_empty_folder_only() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("mine");
        let said = write(Language::Python, &target).unwrap();
        assert!(said.contains("python3 solver.py puzzle04.txt"), "{said}");
        assert!(target.join("algs4.py").is_file() && target.join("puzzle04.txt").is_file());
        let again = write(Language::Python, &target).unwrap_err();
        assert!(again.to_string().contains("is not empty"), "{again}");
        let file = target.join("board.py");
        let over_a_file = write(Language::Java, &file).unwrap_err();
        assert!(over_a_file.to_string().contains("exists and is not a folder"), "{over_a_file}");
    }

    #[test]
    fn the_java_starter_holds_the_textbook_classes_where_javac_finds_them() {
        let names: Vec<String> = files(Language::Java).into_iter().map(|(name, _)| name).collect();
        for name in [
            "Board.java",
            "edu/princeton/cs/algs4/MinPQ.java",
            "edu/princeton/cs/algs4/In.java",
            "npuzzle/Counters.java",
            "npuzzle/Expanded.java",
            "npuzzle/BoardMeter.java",
            "npuzzle/Sites.java",
        ] {
            assert!(names.iter().any(|n| n == name), "{name} in {names:?}");
        }
        assert!(!names.iter().any(|n| n.contains("Server")), "no grader server in a starter: {names:?}");
    }
}
