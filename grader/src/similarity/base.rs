//! The base: code every student was given, whose fingerprints match nothing (MOSS's `-b`, JPlag's base code,
//! Dolos's boilerplate). By default the starters `grader new` writes ([`crate::starter`]): the templates with
//! the assignment's signatures and test client, and what ships with them (Java's textbook stand-ins,
//! Python's `algs4.py`, Rust's `npuzzle` crate). A course with a starter of its own gives its folder
//! (`--similarity-base DIR`): every `.java`, `.py` and `.rs` file under it is base code of its language.

use std::collections::HashSet;
use std::path::Path;

use super::compare::Base;
use super::fingerprints::Fingerprints;
use super::method::Method;
use super::sources::{read_file, SourceFile, Sources, MAX_FILE_BYTES};
use super::tokens::Language;

/// The most files a base folder may hold.
const MAX_BASE_FILES: usize = 2_000;

/// The base of the starters `grader new` writes.
pub fn starters(method: &Method) -> Base {
    let mut files = Vec::new();
    for language in [crate::starter::Language::Java, crate::starter::Language::Python, crate::starter::Language::Rust] {
        files.extend(crate::starter::sources(language).into_iter().map(|(name, text)| (name, text.to_string())));
    }
    of_files(files, method)
}

/// The base of every source file under `dir`.
///
/// # Errors
/// `dir` is not a folder, or holds more than [`MAX_BASE_FILES`] source files.
pub fn folder(dir: &Path, method: &Method) -> Result<Base, String> {
    if !dir.is_dir() {
        return Err(format!("`{}` is not a folder (--similarity-base names the course's starter code)", dir.display()));
    }
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(false).sort_by_file_name().into_iter().filter_map(Result::ok) {
        let name = entry.path().strip_prefix(dir).unwrap_or(entry.path()).to_string_lossy().into_owned();
        if !entry.file_type().is_file() || Language::of_file(&name).is_none() {
            continue;
        }
        if files.len() == MAX_BASE_FILES {
            return Err(format!(
                "`{}` holds more than {MAX_BASE_FILES} source files: --similarity-base names the course's starter code",
                dir.display()
            ));
        }
        if let Ok((text, _)) = read_file(entry.path(), MAX_FILE_BYTES) {
            files.push((name, text));
        }
    }
    Ok(of_files(files, method))
}

fn of_files(files: Vec<(String, String)>, method: &Method) -> Base {
    let mut base = Base::default();
    for language in Language::ALL {
        let mine: Vec<SourceFile> = files
            .iter()
            .filter(|(name, _)| Language::of_file(name) == Some(language))
            .map(|(name, text)| SourceFile { name: name.clone(), text: text.clone() })
            .collect();
        let prints = Fingerprints::of(Sources { language: Some(language), files: mine, notes: vec![] }, method);
        let hashes: HashSet<u64> = prints.prints.iter().map(|p| p.hash).collect();
        base.hashes.insert(language, hashes);
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_starter_gives_base_fingerprints() {
        let base = starters(&Method::DEFAULT);
        for language in Language::ALL {
            assert!(base.hashes[&language].len() > 20, "{language:?}: {}", base.hashes[&language].len());
        }
    }

    #[test]
    fn a_base_folder_is_read_by_language_and_must_be_a_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("java")).unwrap();
        let body = "public int hamming() { int count = 0; for (int i = 0; i < n; i++) if (t[i] != i + 1) count++; return count; }";
        std::fs::write(dir.path().join("java/Board.java"), body).unwrap();
        std::fs::write(dir.path().join("notes.txt"), body).unwrap();
        let base = folder(dir.path(), &Method::DEFAULT).unwrap();
        assert!(!base.hashes[&Language::Java].is_empty());
        assert!(base.hashes[&Language::Python].is_empty());
        assert!(folder(&dir.path().join("java/Board.java"), &Method::DEFAULT).unwrap_err().contains("is not a folder"));
    }
}
