//! The files of a submission that are compared: the files the grader grades, read defensively. A Java
//! submission's `Board.java` and `Solver.java`, a Python one's `board.py` and `solver.py`, a Rust crate's
//! `src/**/*.rs` (its `main.rs` included: one line of it is the starter's). An executable has no source
//! to compare.
//!
//! Whatever a file holds, reading it never fails the class: a file past [`MAX_FILE_BYTES`] is compared up
//! to there, a submission past [`MAX_SUBMISSION_BYTES`] in all up to there, a file with NUL bytes is
//! binary and left out, text that is not UTF-8 is read as ISO-8859-1 (as javac reads it), a link is not
//! followed, an empty file is said to be empty; each is a note beside the submission's row.

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::tokens::Language;
use crate::build::{detect, SubmissionKind};

/// The most bytes of one file compared (over ten times the longest solution in the gallery).
pub const MAX_FILE_BYTES: usize = 128 << 10;
/// The most bytes of one submission compared, all its files together.
pub const MAX_SUBMISSION_BYTES: usize = 256 << 10;
/// The most files of one Rust crate's `src/` compared.
pub const MAX_FILES: usize = 64;

/// One file as compared: its path in the submission and its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceFile {
    /// Its path in the submission, `/`-separated (`Board.java`, `src/board.rs`).
    pub name: String,
    /// Its text, as far as it is compared.
    pub text: String,
}

/// A submission's files as compared, and what was left out of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    /// Its language, where it has one.
    pub language: Option<Language>,
    /// Its files, in path order.
    pub files: Vec<SourceFile>,
    /// What was cut or left out, and why: one sentence each.
    pub notes: Vec<String>,
}

/// The files of the submission at `path` (a folder or an executable).
pub fn read(path: &Path) -> Sources {
    let path = crate::build::locate(path);
    let (language, names): (Language, Vec<String>) = match detect(&path) {
        Ok(SubmissionKind::Java) => (Language::Java, existing(&path, &["Board.java", "Solver.java"])),
        Ok(SubmissionKind::Python) => (Language::Python, existing(&path, &["board.py", "solver.py"])),
        Ok(SubmissionKind::Cargo) => (Language::Rust, rust_files(&path)),
        Ok(SubmissionKind::Executable) => {
            return Sources { notes: vec!["an executable: there is no source to compare".into()], ..Sources::default() }
        }
        Err(_) => {
            return Sources {
                notes: vec!["no Board.java, board.py or Cargo.toml: nothing to compare".into()],
                ..Sources::default()
            }
        }
    };
    let mut sources = Sources { language: Some(language), ..Sources::default() };
    if names.len() > MAX_FILES {
        sources.notes.push(format!("{} source files: only the first {MAX_FILES} are compared", names.len()));
    }
    let mut budget = MAX_SUBMISSION_BYTES;
    for name in names.into_iter().take(MAX_FILES) {
        if budget == 0 {
            sources
                .notes
                .push(format!("{name}: not compared (the submission's first {} KiB are)", MAX_SUBMISSION_BYTES >> 10));
            continue;
        }
        match read_file(&path.join(&name), budget.min(MAX_FILE_BYTES)) {
            Ok((text, note)) => {
                if let Some(note) = note {
                    sources.notes.push(format!("{name}: {note}"));
                }
                budget = budget.saturating_sub(text.len());
                sources.files.push(SourceFile { name, text });
            }
            Err(why) => sources.notes.push(format!("{name}: {why}")),
        }
    }
    if sources.files.is_empty() && sources.notes.is_empty() {
        sources.notes.push("no source file to compare".into());
    }
    sources
}

/// Those of `names` that are in `dir`.
fn existing(dir: &Path, names: &[&str]) -> Vec<String> {
    names.iter().filter(|n| dir.join(n).symlink_metadata().is_ok()).map(|n| n.to_string()).collect()
}

/// A crate's `src/**/*.rs`, by path; links are not followed.
fn rust_files(crate_dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = walkdir::WalkDir::new(crate_dir.join("src"))
        .follow_links(false)
        .max_depth(8)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir() && e.file_name().to_string_lossy().ends_with(".rs"))
        .filter_map(|e| e.path().strip_prefix(crate_dir).ok().map(|p| p.to_string_lossy().replace('\\', "/")))
        .collect();
    names.sort();
    names
}

/// A file's text, at most `limit` bytes of it, and a note when some was cut; or why it is not compared.
pub(super) fn read_file(path: &Path, limit: usize) -> Result<(String, Option<String>), String> {
    let meta = path.symlink_metadata().map_err(|e| format!("cannot be read ({e})"))?;
    if meta.file_type().is_symlink() {
        return Err("a link, not followed: not compared".into());
    }
    if !meta.is_file() {
        return Err("not a file: not compared".into());
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(|e| format!("cannot be read ({e})"))?;
    file.take(limit as u64).read_to_end(&mut bytes).map_err(|e| format!("cannot be read ({e})"))?;
    let size = meta.len();
    if size == 0 {
        return Ok((String::new(), Some("empty".into())));
    }
    if bytes.contains(&0) {
        return Err(format!("binary ({}, NUL bytes in it): not compared", size_text(size)));
    }
    let mut notes = Vec::new();
    if size > limit as u64 {
        notes.push(format!("{}: only its first {} KiB are compared", size_text(size), limit >> 10));
    }
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text.to_string(),
        // a multi-byte character cut at the limit
        Err(e) if e.error_len().is_none() => String::from_utf8_lossy(&bytes[..e.valid_up_to()]).into_owned(),
        Err(_) => {
            notes.push("not UTF-8: read as ISO-8859-1".into());
            bytes.iter().map(|&b| char::from(b)).collect()
        }
    };
    Ok((text, (!notes.is_empty()).then(|| notes.join("; "))))
}

/// A file's size for a note: bytes, KiB or MiB.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b < 1 << 10 => format!("{b} bytes"),
        b if b < 1 << 20 => format!("{:.1} KiB", b as f64 / 1024.0),
        b => format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graded_files_of_each_language_are_read() {
        let dir = tempfile::tempdir().unwrap();
        let java = dir.path().join("java");
        std::fs::create_dir_all(&java).unwrap();
        std::fs::write(java.join("Board.java"), "class Board {}").unwrap();
        std::fs::write(java.join("Solver.java"), "class Solver {}").unwrap();
        std::fs::write(java.join("Helper.java"), "class Helper {}").unwrap();
        let sources = read(&java);
        assert_eq!(sources.language, Some(Language::Java));
        let names: Vec<&str> = sources.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["Board.java", "Solver.java"], "the files the grader grades");

        let rust = dir.path().join("upload/crate");
        std::fs::create_dir_all(rust.join("src/search")).unwrap();
        std::fs::write(rust.join("Cargo.toml"), "[package]").unwrap();
        std::fs::write(rust.join("src/main.rs"), "mod board;").unwrap();
        std::fs::write(rust.join("src/search/node.rs"), "struct Node;").unwrap();
        std::fs::write(rust.join("src/notes.txt"), "not code").unwrap();
        let sources = read(&dir.path().join("upload"));
        let names: Vec<&str> = sources.files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!((sources.language, names), (Some(Language::Rust), vec!["src/main.rs", "src/search/node.rs"]));
    }

    #[test]
    fn odd_files_are_noted_never_fatal() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("board.py"), vec![b'x'; 5 << 20]).unwrap();
        std::fs::write(dir.path().join("solver.py"), b"\x7fELF\0\0binary").unwrap();
        let sources = read(dir.path());
        assert_eq!(sources.files.len(), 1);
        assert_eq!(sources.files[0].text.len(), MAX_FILE_BYTES);
        assert_eq!(
            sources.notes,
            [
                "board.py: 5.0 MiB: only its first 128 KiB are compared",
                "solver.py: binary (12 bytes, NUL bytes in it): not compared"
            ]
        );

        std::fs::write(dir.path().join("board.py"), b"").unwrap();
        std::fs::write(dir.path().join("solver.py"), b"# caf\xe9\nx = 1\n").unwrap();
        let sources = read(dir.path());
        assert_eq!(sources.notes, ["board.py: empty", "solver.py: not UTF-8: read as ISO-8859-1"]);
        assert_eq!(sources.files[1].text, "# café\nx = 1\n");

        let program = dir.path().join("program");
        std::fs::write(&program, "#!/bin/sh\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(read(&program).language, None);
        assert_eq!(read(&dir.path().join("nothing-here")).notes.len(), 1);
    }

    #[test]
    fn a_link_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("secret.py"), "answers = 1").unwrap();
        std::os::unix::fs::symlink(dir.path().join("secret.py"), dir.path().join("board.py")).unwrap();
        let sources = read(dir.path());
        assert!(sources.files.is_empty());
        assert_eq!(sources.notes, ["board.py: a link, not followed: not compared"]);
    }
}
