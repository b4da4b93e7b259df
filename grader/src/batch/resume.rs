//! Resuming a class: a student whose reports are current is not graded again.
//!
//! A student's reports are current when a stamp (`<output>/.resume/<stem>.json`, written after their reports)
//! holds the same key, and every report file is there. The key is a hash of everything a report depends
//! on: the submission's content (every file's path, bytes and executable bit), the student's name and
//! identity (the report shows them), the policy (effective, defaults filled in), the seed, `--only`,
//! `--skip-bad-fixtures`, the report formats, the fixtures (every file's path and bytes), and the grader
//! itself (its version and the bytes of its executable, so a rebuilt grader grades everyone again). A
//! student who could not be graded gets no stamp, so the next run tries them again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use corpus::rng::StableHash;
use serde::{Deserialize, Serialize};

use super::worker::{Grade, Settings};
use crate::output::write_atomically;

/// What a stamp holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Stamp {
    /// The key the reports were written under, in hex.
    pub key: String,
    /// The student's grade then.
    pub grade: Grade,
    /// The fixture files the run lacked (`--skip-bad-fixtures`), so a resumed run still exits 2.
    pub missing_fixtures: Vec<String>,
}

/// The part of every student's key that is the same for the whole class.
pub fn run_key(settings: &Settings) -> u64 {
    let mut hash = StableHash::default();
    hash.write_chunk(env!("CARGO_PKG_VERSION").as_bytes());
    hash.write_chunk(grader_build().as_bytes());
    hash.write_chunk(settings.policy.as_bytes());
    hash.write_chunk(&settings.seed.to_le_bytes());
    hash.write_chunk(settings.only.join("\n").as_bytes());
    hash.write_chunk(&[u8::from(settings.skip_bad_fixtures)]);
    hash.write_chunk(settings.formats.join("\n").as_bytes());
    // A course's Checkstyle configuration is read anew by every worker: its bytes, not its name.
    let style = settings.style().config().unwrap_or_default();
    hash.write_chunk(&style);
    hash_tree(&mut hash, &settings.fixtures);
    hash.finish()
}

/// A hash of the grader's executable, in hex: two runs with equal hashes ran the same grader. The
/// executable (tens of megabytes) is read once per process: the run key and `gradebook.json` share it.
pub fn grader_build() -> String {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD
        .get_or_init(|| {
            let executable = std::env::current_exe().and_then(std::fs::read).unwrap_or_default();
            format!("{:016x}", StableHash::of(executable))
        })
        .clone()
}

/// Every file under the fixture directory `root`, by its relative path, with a hash (hex) of its bytes and
/// executable bit, as the run key counts them.
pub fn fixture_hashes(root: &Path) -> BTreeMap<String, String> {
    files_under(root)
        .into_iter()
        .map(|file| {
            let mut hash = StableHash::default();
            hash_file(&mut hash, &file);
            let name = file.strip_prefix(root).unwrap_or(&file).to_string_lossy().into_owned();
            (name, format!("{:016x}", hash.finish()))
        })
        .collect()
}

/// A student's key: the run's, their name, identity and file stem, and their submission's content.
pub fn student_key(run: u64, id: &str, name: &str, stem: &str, submission: &Path) -> String {
    let mut hash = StableHash::default();
    hash.write_chunk(&run.to_le_bytes());
    for text in [id, name, stem] {
        hash.write_chunk(text.as_bytes());
    }
    hash_tree(&mut hash, submission);
    format!("{:016x}", hash.finish())
}

/// Adds every file under `root` (or `root` itself, a file): its relative path, its bytes, and whether it is
/// executable, in path order. Unreadable files add their path and a marker, so the key still changes when
/// they do.
fn hash_tree(hash: &mut StableHash, root: &Path) {
    for file in files_under(root) {
        hash.write_chunk(file.strip_prefix(root).unwrap_or(&file).as_os_str().as_encoded_bytes());
        hash_file(hash, &file);
    }
}

/// Every file under `root` (or `root` itself, a file), in path order; links are not followed.
fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| !e.file_type().is_dir())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    files
}

/// Adds a file's executable bit and bytes, or a marker when it cannot be read.
fn hash_file(hash: &mut StableHash, file: &Path) {
    match (std::fs::symlink_metadata(file), std::fs::read(file)) {
        (Ok(meta), Ok(bytes)) => {
            use std::os::unix::fs::PermissionsExt;
            hash.write_chunk(&[u8::from(meta.permissions().mode() & 0o111 != 0)]);
            hash.write_chunk(&bytes);
        }
        _ => hash.write_chunk(b"\0unreadable"),
    }
}

/// Where a student's stamp is.
pub fn stamp_path(output_dir: &Path, stem: &str) -> PathBuf {
    output_dir.join(".resume").join(format!("{stem}.json"))
}

/// The stamp of a student whose reports are current under `key`, if so.
pub fn current(output_dir: &Path, stem: &str, key: &str, extensions: &[&str]) -> Option<Stamp> {
    let text = std::fs::read_to_string(stamp_path(output_dir, stem)).ok()?;
    let stamp: Stamp = serde_json::from_str(&text).ok()?;
    let reports = extensions.iter().all(|ext| output_dir.join(format!("{stem}.{ext}")).is_file());
    (stamp.key == key && reports).then_some(stamp)
}

/// The report files in `output_dir` of students whose stamps are there but who are not among `stems`: an
/// earlier run's class graded into the same folder, whose reports stay (the grader removes nothing it was not
/// about to write again) though the gradebook leaves them out. Each student's reports in every format the
/// grader writes, sorted by file name.
pub fn strangers_reports(output_dir: &Path, stems: &std::collections::BTreeSet<String>) -> Vec<PathBuf> {
    let Ok(stamps) = std::fs::read_dir(output_dir.join(".resume")) else { return Vec::new() };
    let strangers: Vec<String> = stamps
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.strip_suffix(".json").map(str::to_string))
        .filter(|stem| !stems.contains(stem))
        .collect();
    let extensions: std::collections::BTreeSet<&str> =
        crate::report::Format::ALL.iter().map(|format| format.extension()).collect();
    let mut reports: Vec<PathBuf> = strangers
        .iter()
        .flat_map(|stem| extensions.iter().map(move |ext| output_dir.join(format!("{stem}.{ext}"))))
        .filter(|path| path.is_file())
        .collect();
    reports.sort();
    reports
}

/// Removes a student's stamp and reports before they are graded again, so no report of an earlier run
/// stays beside a grade that failed.
pub fn forget(output_dir: &Path, stem: &str, extensions: &[&str]) {
    let _ = std::fs::remove_file(stamp_path(output_dir, stem));
    for ext in extensions {
        let _ = std::fs::remove_file(output_dir.join(format!("{stem}.{ext}")));
    }
}

/// Records that a student's reports are current under the stamp's key.
pub fn record(output_dir: &Path, stem: &str, stamp: &Stamp) -> std::io::Result<()> {
    let path = stamp_path(output_dir, stem);
    std::fs::create_dir_all(path.parent().unwrap_or(output_dir))?;
    write_atomically(&path, serde_json::to_string(stamp).map_err(std::io::Error::other)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_changes_with_the_content_name_and_mode_of_any_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Board.java"), "class Board {}").unwrap();
        let key = || student_key(1, "alice", "alice", "alice", dir.path());
        let first = key();
        assert_eq!(key(), first, "the same content gives the same key");
        std::fs::write(dir.path().join("Board.java"), "class Board { }").unwrap();
        let edited = key();
        assert_ne!(edited, first);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path().join("Board.java"), std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_ne!(key(), edited, "the executable bit counts");
        assert_ne!(student_key(2, "alice", "alice", "alice", dir.path()), key(), "the run's settings count");
        assert_ne!(student_key(1, "alice", "Alice", "alice", dir.path()), key(), "the name in the report counts");
    }

    #[test]
    fn a_stamp_is_current_only_with_its_key_and_every_report() {
        let out = tempfile::tempdir().unwrap();
        let grade = Grade {
            score: 1.0,
            max: 2.0,
            categories: vec![],
            category_max: vec![],
            failed: vec![],
            language: "rust".into(),
            compiled: true,
            root_causes: vec![],
            partial: None,
            fix_first: None,
            grader_problem: false,
        };
        let stamp = Stamp { key: "k".into(), grade, missing_fixtures: vec![] };
        record(out.path(), "ada", &stamp).unwrap();
        assert_eq!(current(out.path(), "ada", "k", &["txt"]), None, "the report is missing");
        std::fs::write(out.path().join("ada.txt"), "report").unwrap();
        assert_eq!(current(out.path(), "ada", "k", &["txt"]), Some(stamp));
        assert_eq!(current(out.path(), "ada", "other", &["txt"]), None);
        forget(out.path(), "ada", &["txt"]);
        assert!(!out.path().join("ada.txt").exists() && !stamp_path(out.path(), "ada").exists());
    }
}
