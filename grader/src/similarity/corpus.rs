//! A corpus of known solutions (`--similarity-corpus DIR`): earlier classes' submissions, public solutions,
//! any tree of them. Every folder that is a submission (a Java, Python or Rust one, as `grader grade` knows
//! them) is one entry, named by its path in the tree (`2023/alice`); a zip is unpacked (defensively, as a
//! class's are: [`crate::intake::unzip`]) and read as a tree of its own, so a past class's export zipped
//! whole is as welcome as a folder of folders. Links are not followed, hidden entries are skipped.
//!
//! Entries whose fingerprints are the same, hash for hash (forks of one public repository, a solution
//! handed in twice), are one entry, which counts the others: a student who copied a popular solution is
//! listed against it once, not once per fork.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::fingerprints::Fingerprints;
use super::method::Method;
use super::sources;
use crate::build::{detect, SubmissionKind};
use crate::intake::{unzip, Caps};

/// The most entries a corpus may hold.
pub const MAX_ENTRIES: usize = 50_000;
/// How deep a corpus's folders (and zips inside zips) are followed.
const MAX_DEPTH: usize = 12;

/// One known solution.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its path in the corpus (`2023/alice`, `public.zip/8puzzle-main`).
    pub name: String,
    /// Entries with the same fingerprints, left out as this one's copies.
    pub identical: usize,
    #[allow(missing_docs)]
    pub prints: Fingerprints,
}

/// A corpus read.
#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Its entries, in path order.
    pub entries: Vec<Entry>,
    /// What in it could not be used, and why (a zip that would not unpack, entries past the cap).
    pub notes: Vec<String>,
}

/// Reads the corpus at `root` (a folder or a zip), unpacking zips into `scratch` (the caller's, removed
/// after).
///
/// # Errors
/// `root` is neither a folder nor a zip, or cannot be read.
pub fn read(root: &Path, scratch: &Path, method: &Method) -> Result<Corpus, String> {
    let mut reader = Reader { scratch, unpacked: 0, method, found: Vec::new(), notes: Vec::new() };
    if root.is_dir() {
        reader.folder(root, "", 0);
    } else if root.is_file() && is_zip(root) {
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        reader.zip(root, &name, 0);
    } else {
        return Err(format!(
            "`{}` is not a folder or a zip of known solutions (--similarity-corpus takes any tree of submissions: \
             one per folder, zips too)",
            root.display()
        ));
    }
    if reader.found.len() > MAX_ENTRIES {
        reader.notes.push(format!("{} submissions: only the first {MAX_ENTRIES} are compared", reader.found.len()));
        reader.found.truncate(MAX_ENTRIES);
    }
    Ok(Corpus { entries: without_duplicates(reader.found), notes: reader.notes })
}

struct Reader<'a> {
    scratch: &'a Path,
    unpacked: usize,
    method: &'a Method,
    found: Vec<Entry>,
    notes: Vec<String>,
}

impl Reader<'_> {
    fn folder(&mut self, dir: &Path, name: &str, depth: usize) {
        if self.found.len() > MAX_ENTRIES {
            return;
        }
        if matches!(detect(dir), Ok(SubmissionKind::Java | SubmissionKind::Python | SubmissionKind::Cargo)) {
            let prints = Fingerprints::of(sources::read(dir), self.method);
            let name = if name.is_empty() { ".".to_string() } else { name.to_string() };
            self.found.push(Entry { name, identical: 0, prints });
            return;
        }
        if depth >= MAX_DEPTH {
            self.notes.push(format!("{name}: deeper than {MAX_DEPTH} folders: not read"));
            return;
        }
        let Ok(read) = std::fs::read_dir(dir) else {
            self.notes.push(format!("{}: cannot be read", if name.is_empty() { "." } else { name }));
            return;
        };
        let mut children: Vec<PathBuf> = read.filter_map(Result::ok).map(|e| e.path()).collect();
        children.sort();
        for child in children {
            let file_name = child.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if file_name.starts_with('.') || file_name == "__MACOSX" {
                continue;
            }
            let Ok(meta) = child.symlink_metadata() else { continue };
            let child_name = if name.is_empty() { file_name.clone() } else { format!("{name}/{file_name}") };
            if meta.is_dir() {
                self.folder(&child, &child_name, depth + 1);
            } else if meta.is_file() && is_zip(&child) {
                self.zip(&child, &child_name, depth + 1);
            }
        }
    }

    fn zip(&mut self, zip: &Path, name: &str, depth: usize) {
        self.unpacked += 1;
        let target = self.scratch.join(format!("corpus-{}", self.unpacked));
        let mut refused = Vec::new();
        match unzip::unzip(zip, &target, Caps::default(), name, &mut refused) {
            Ok(()) => self.folder(&target, name, depth),
            Err(why) => self.notes.push(format!("{name}: not unpacked: {why}")),
        }
        self.notes.extend(refused.into_iter().map(|s| format!("{}: {}", s.entry, s.reason)));
    }
}

fn is_zip(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("zip"))
}

/// The entries, each set of entries with the same fingerprints as its first, counting the rest.
fn without_duplicates(found: Vec<Entry>) -> Vec<Entry> {
    let mut first: HashMap<Vec<u64>, usize> = HashMap::new();
    let mut kept: Vec<Entry> = Vec::new();
    for entry in found {
        let hashes: Vec<u64> = entry.prints.prints.iter().map(|p| p.hash).collect();
        if hashes.is_empty() {
            kept.push(entry);
            continue;
        }
        match first.get(&hashes) {
            Some(&at) => kept[at].identical += 1,
            None => {
                first.insert(hashes, kept.len());
                kept.push(entry);
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    const SOLVER: &str = "class Solver { int moves(int[] a) { int s = 0; for (int i = 0; i < a.length; i++) { \
                          if (a[i] > 0) { s += a[i] * i; } else { s -= i; } } while (s > 100) { s = s / 2 + 1; } return s; } }";

    fn java(dir: &Path, body: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("Solver.java"), body).unwrap();
        std::fs::write(dir.join("Board.java"), "class Board {}").unwrap();
    }

    #[test]
    fn a_tree_of_folders_and_zips_is_read_entry_by_entry() {
        let root = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        java(&root.path().join("2023/alice"), SOLVER);
        java(&root.path().join("2023/bob/upload"), &SOLVER.replace("s -= i;", "s++;"));
        // only a literal differs: the same fingerprints
        java(&root.path().join("2023/fork-of-alice"), &SOLVER.replace("100", "7"));
        std::fs::create_dir_all(root.path().join("2023/.git/objects")).unwrap();
        std::fs::write(root.path().join("notes.txt"), "not a solution").unwrap();
        let mut writer = zip::ZipWriter::new(std::fs::File::create(root.path().join("public.zip")).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        for (name, text) in
            [("8puzzle-main/board.py", "class Board:\n    pass\n"), ("8puzzle-main/solver.py", "x = 1\n")]
        {
            writer.start_file(name, options).unwrap();
            writer.write_all(text.as_bytes()).unwrap();
        }
        writer.start_file("../escape/board.py", options).unwrap();
        writer.finish().unwrap();
        std::fs::write(root.path().join("broken.zip"), "not a zip").unwrap();

        let corpus = read(root.path(), scratch.path(), &Method::DEFAULT).unwrap();
        let names: Vec<(&str, usize)> = corpus.entries.iter().map(|e| (e.name.as_str(), e.identical)).collect();
        assert_eq!(names, [("2023/alice", 1), ("2023/bob/upload", 0), ("public.zip/8puzzle-main", 0)], "{corpus:?}");
        assert!(corpus.notes.iter().any(|n| n.starts_with("broken.zip: not unpacked")), "{:?}", corpus.notes);
        assert!(corpus.notes.iter().any(|n| n.contains("escape") && n.contains("leaves")), "{:?}", corpus.notes);
        assert!(read(&root.path().join("notes.txt"), scratch.path(), &Method::DEFAULT)
            .unwrap_err()
            .contains("is not a folder or a zip"));
    }
}
