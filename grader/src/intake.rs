//! A class as a learning-management system hands it over, turned into one folder per student.
//!
//! `grader batch` is given a directory or a zip file. Inside, each student is one of:
//! - a folder (a Moodle export names it `Full Name_12345_assignsubmission_file_`; a Gradescope export
//!   `submission_12345`), or an executable file, graded as it is;
//! - a zip file (one per student, as a course's own collection or Coursera hands them), unpacked;
//! - loose files named the Canvas way, `name_[late_]USERID_SUBMISSIONID_Board.java` (Canvas appends `-1`
//!   to a file name it has seen before: `Board-1.java`), gathered into a folder per student.
//!
//! Archives come from students, so unpacking is defensive: entries whose names leave the target folder
//! (`../`, absolute paths) and symbolic links are refused, and sizes are capped (per file, per archive, and
//! the number of entries); a zip that breaks a cap is skipped whole. Everything that is not graded is
//! listed with the reason, never dropped silently.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Caps on what one archive may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Bytes of one unpacked file.
    pub file_bytes: u64,
    /// Bytes of everything one archive unpacks to (a class zip holds every student).
    pub archive_bytes: u64,
    /// Entries in one archive.
    pub entries: usize,
}

impl Default for Caps {
    fn default() -> Self {
        Caps { file_bytes: 16 << 20, archive_bytes: 1 << 30, entries: 100_000 }
    }
}

/// One student's submission, ready to grade.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Student {
    /// The name shown in the gradebook.
    pub name: String,
    /// The folder or executable to grade.
    pub path: PathBuf,
}

/// Something in the class that is not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// Its name, relative to what the grader was given (`alice.zip`, `alice.zip: ../evil.sh`).
    pub entry: String,
    /// Why it was not graded, a lowercase fragment (`its path leaves the archive's folder`), printed after the entry.
    pub reason: String,
}

/// The class: who is graded and what was left out.
#[derive(Debug, Default)]
pub struct Class {
    /// The students, in name order.
    pub students: Vec<Student>,
    /// Everything left out, each reported on standard error; never silently dropped.
    pub skipped: Vec<Skipped>,
}

/// What stops reading a class at all (a bad entry only skips that entry).
#[derive(Debug, thiserror::Error)]
pub enum IntakeError {
    /// The class directory or zip could not be read.
    #[error("failed to read the class `{path}`: {source}")]
    #[allow(missing_docs)] // the message names the fields
    Read { path: PathBuf, source: std::io::Error },
    /// The class zip could not be unpacked.
    #[error("failed to unpack the class `{path}`: {reason}")]
    #[allow(missing_docs)] // the message names the fields
    Unpack { path: PathBuf, reason: String },
}

/// Reads the class at `input` (a directory or a zip file), unpacking into `scratch` (which must be empty
/// or absent: the caller owns it and removes it after grading).
pub fn gather(input: &Path, scratch: &Path, caps: Caps) -> Result<Class, IntakeError> {
    let read_error = |source| IntakeError::Read { path: input.to_path_buf(), source };
    std::fs::create_dir_all(scratch).map_err(read_error)?;
    let mut class = Class::default();
    let dir = if input.is_file() {
        let unpacked = scratch.join("class");
        unzip(input, &unpacked, caps, "", &mut class.skipped)
            .map_err(|reason| IntakeError::Unpack { path: input.to_path_buf(), reason })?;
        single_folder(&unpacked)
    } else {
        input.to_path_buf()
    };
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(&dir).map_err(read_error)?.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    let mut canvas: BTreeMap<String, Vec<(PathBuf, String)>> = BTreeMap::new();
    for path in entries {
        let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let skip = |reason: &str| Skipped { entry: file_name.clone(), reason: reason.to_string() };
        if file_name.starts_with('.') || file_name == "__MACOSX" {
            class.skipped.push(skip("hidden or system file"));
        } else if file_name == "submission_metadata.yml" {
            class.skipped.push(skip("Gradescope export metadata"));
        } else if path.is_dir() {
            class.students.push(Student { name: student_name(&file_name), path });
        } else if file_name.to_ascii_lowercase().ends_with(".zip") {
            let stem = &file_name[..file_name.len() - 4];
            let name = canvas_name(stem).map_or_else(|| student_name(stem), |(name, _)| name);
            let target =
                scratch.join("students").join(format!("{:04}-{}", class.students.len(), path_component(&name)));
            let mut inner = Vec::new();
            match unzip(&path, &target, caps, &file_name, &mut inner) {
                Ok(()) => class.students.push(Student { name, path: single_folder(&target) }),
                Err(reason) => class.skipped.push(skip(&format!("not unpacked: {reason}"))),
            }
            class.skipped.extend(inner);
        } else if let Some((name, original)) = canvas_name(&file_name) {
            canvas.entry(name).or_default().push((path, original));
        } else if crate::build::detect(&path).is_ok() {
            class.students.push(Student { name: file_name.clone(), path });
        } else {
            class.skipped.push(skip(
                "not a submission: expected a folder, a zip, an executable, or Canvas-named files \
                 (name_USERID_SUBMISSIONID_File.java)",
            ));
        }
    }
    for (name, files) in canvas {
        let folder = scratch.join("students").join(format!("{:04}-{}", class.students.len(), path_component(&name)));
        let copied = std::fs::create_dir_all(&folder).and_then(|()| {
            files.iter().try_for_each(|(from, original)| std::fs::copy(from, folder.join(original)).map(drop))
        });
        match copied {
            Ok(()) => class.students.push(Student { name, path: folder }),
            Err(e) => class.skipped.push(Skipped { entry: name, reason: format!("failed to gather its files: {e}") }),
        }
    }
    class.students.sort_by(|a, b| a.name.cmp(&b.name));
    dedupe(&mut class.students);
    Ok(class)
}

/// The student's name in an LMS folder name: Moodle's `Full Name_12345_assignsubmission_file_` is
/// `Full Name`; anything else is kept.
fn student_name(folder: &str) -> String {
    if let Some(at) = folder.find("_assignsubmission_") {
        let head = &folder[..at];
        if let Some((name, id)) = head.rsplit_once('_') {
            if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
                return name.to_string();
            }
        }
        return head.to_string();
    }
    folder.to_string()
}

/// A Canvas file name, `name_[late_]USERID_SUBMISSIONID_original`, as the student's name and the original
/// file name (without the `-N` Canvas adds to repeated names).
fn canvas_name(file_name: &str) -> Option<(String, String)> {
    let parts: Vec<&str> = file_name.splitn(5, '_').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (name, rest) = match parts.as_slice() {
        [name, "late", user, sub, rest] if digits(user) && digits(sub) => (*name, *rest),
        [name, user, sub, rest @ ..] if digits(user) && digits(sub) && !rest.is_empty() => {
            (*name, &file_name[name.len() + user.len() + sub.len() + 3..])
        }
        _ => return None,
    };
    if name.is_empty() || rest.is_empty() {
        return None;
    }
    let original = match rest.rsplit_once('.') {
        Some((stem, ext)) => match stem.rsplit_once('-') {
            Some((base, n)) if digits(n) && !base.is_empty() => format!("{base}.{ext}"),
            _ => rest.to_string(),
        },
        None => rest.to_string(),
    };
    Some((name.to_string(), original))
}

/// A student's name as one path component (a scratch folder, a report's file name): no separators, no
/// control characters, nothing hidden, at most 80 characters.
pub fn path_component(name: &str) -> String {
    let cleaned: String =
        name.chars().map(|c| if c == '/' || c == '\\' || c.is_control() { '_' } else { c }).take(80).collect();
    match cleaned.trim_start_matches('.') {
        "" => "_".to_string(),
        rest => rest.to_string(),
    }
}

/// Two students with one name get `name (2)`, so no report overwrites another.
fn dedupe(students: &mut [Student]) {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for student in students {
        let count = seen.entry(student.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            student.name = format!("{} ({count})", student.name);
        }
    }
}

/// Where an unpacked archive's content really is: inside its one folder when it holds nothing else.
fn single_folder(dir: &Path) -> PathBuf {
    let entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(read) => read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n != "__MACOSX" && !n.to_string_lossy().starts_with('.')))
            .collect(),
        Err(_) => return dir.to_path_buf(),
    };
    match entries.as_slice() {
        [only] if only.is_dir() => single_folder(only),
        _ => dir.to_path_buf(),
    }
}

/// Unpacks `zip` into `target` within `caps`; entries refused one by one are added to `skipped` (named
/// `label: entry`), a broken cap or an unreadable archive is the error.
fn unzip(zip: &Path, target: &Path, caps: Caps, label: &str, skipped: &mut Vec<Skipped>) -> Result<(), String> {
    let file = std::fs::File::open(zip).map_err(|e| e.to_string())?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| format!("not a readable zip ({e})"))?;
    if archive.len() > caps.entries {
        return Err(format!("{} entries, more than the {} allowed", archive.len(), caps.entries));
    }
    std::fs::create_dir_all(target).map_err(|e| e.to_string())?;
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| format!("entry {i} is unreadable ({e})"))?;
        let shown = if label.is_empty() { entry.name().to_string() } else { format!("{label}: {}", entry.name()) };
        let Some(relative) = entry.enclosed_name() else {
            skipped.push(Skipped { entry: shown, reason: "its path leaves the archive's folder".into() });
            continue;
        };
        if entry.is_symlink() {
            skipped.push(Skipped { entry: shown, reason: "a symbolic link".into() });
            continue;
        }
        let path = target.join(relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(|e| e.to_string())?;
            continue;
        }
        if entry.size() > caps.file_bytes {
            return Err(format!(
                "`{}` unpacks to {} bytes, more than the {} bytes allowed",
                entry.name(),
                entry.size(),
                caps.file_bytes
            ));
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        // The declared size may lie: read one byte past the cap to know.
        let mut bytes = Vec::new();
        (&mut entry).take(caps.file_bytes + 1).read_to_end(&mut bytes).map_err(|e| format!("`{}`: {e}", shown))?;
        if bytes.len() as u64 > caps.file_bytes {
            return Err(format!("`{}` unpacks to more than the {} bytes allowed", entry.name(), caps.file_bytes));
        }
        total += bytes.len() as u64;
        if total > caps.archive_bytes {
            return Err(format!("it unpacks to more than the {} bytes allowed", caps.archive_bytes));
        }
        std::fs::write(&path, &bytes).map_err(|e| e.to_string())?;
        #[cfg(unix)]
        if entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0) {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use rstest::rstest;

    use super::*;

    fn zip_of(path: &Path, files: &[(&str, &[u8])]) {
        let mut writer = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        for (name, bytes) in files {
            writer.start_file(*name, options).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap();
    }

    #[rstest]
    #[case("Ada Lovelace_12345_assignsubmission_file_", "Ada Lovelace")]
    #[case("submission_98765", "submission_98765")]
    #[case("alice", "alice")]
    fn folder_names_become_student_names(#[case] folder: &str, #[case] name: &str) {
        assert_eq!(student_name(folder), name);
    }

    #[rstest]
    #[case("lovelaceada_12345_67890_Board.java", Some(("lovelaceada", "Board.java")))]
    #[case("lovelaceada_late_12345_67890_Solver-1.java", Some(("lovelaceada", "Solver.java")))]
    #[case("lovelaceada_12345_67890_my_Board.java", Some(("lovelaceada", "my_Board.java")))]
    #[case("Board.java", None)]
    #[case("a_b_c_Board.java", None)]
    fn canvas_file_names_give_student_and_file(#[case] file: &str, #[case] expected: Option<(&str, &str)>) {
        assert_eq!(canvas_name(file), expected.map(|(a, b)| (a.to_string(), b.to_string())));
    }

    #[test]
    fn a_folder_of_zips_canvas_files_and_folders_becomes_one_folder_per_student() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let c = class.path();
        zip_of(&c.join("bob.zip"), &[("bob/Board.java", b"class Board {}"), ("bob/Solver.java", b"class Solver {}")]);
        std::fs::write(c.join("cy_111_222_Board.java"), "class Board {}").unwrap();
        std::fs::write(c.join("cy_111_223_Solver-1.java"), "class Solver {}").unwrap();
        std::fs::create_dir(c.join("Ada Lovelace_12345_assignsubmission_file_")).unwrap();
        std::fs::write(c.join("notes.txt"), "hello").unwrap();
        std::fs::write(c.join(".DS_Store"), "").unwrap();

        let got = gather(c, &scratch.path().join("s"), Caps::default()).unwrap();

        let names: Vec<&str> = got.students.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Ada Lovelace", "bob", "cy"]);
        assert!(got.students[1].path.join("Board.java").is_file(), "the zip's one folder is the submission");
        assert!(got.students[2].path.join("Solver.java").is_file(), "Canvas's -1 is removed");
        let skipped: Vec<&str> = got.skipped.iter().map(|s| s.entry.as_str()).collect();
        assert_eq!(skipped, [".DS_Store", "notes.txt"]);
    }

    #[test]
    fn traversal_and_links_are_refused_and_listed() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let mut writer = zip::ZipWriter::new(std::fs::File::create(class.path().join("eve.zip")).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        writer.start_file("../../escaped.txt", options).unwrap();
        writer.write_all(b"out").unwrap();
        writer.add_symlink("link", "/etc/passwd", options).unwrap();
        writer.start_file("Board.java", options).unwrap();
        writer.write_all(b"class Board {}").unwrap();
        writer.finish().unwrap();

        let got = gather(class.path(), &scratch.path().join("s"), Caps::default()).unwrap();

        assert_eq!(got.students.len(), 1);
        assert!(got.students[0].path.join("Board.java").is_file());
        assert!(!got.students[0].path.join("link").exists());
        assert!(!scratch.path().join("escaped.txt").exists() && !class.path().join("escaped.txt").exists());
        let reasons: Vec<String> = got.skipped.iter().map(|s| format!("{}: {}", s.entry, s.reason)).collect();
        assert_eq!(
            reasons,
            ["eve.zip: ../../escaped.txt: its path leaves the archive's folder", "eve.zip: link: a symbolic link"]
        );
    }

    #[test]
    fn a_zip_bomb_or_a_broken_zip_skips_that_student_only() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let big = vec![0u8; 4096];
        zip_of(&class.path().join("bomb.zip"), &[("Board.java", &big)]);
        std::fs::write(class.path().join("broken.zip"), "PK not really").unwrap();
        zip_of(&class.path().join("fine.zip"), &[("Board.java", b"class Board {}")]);
        let caps = Caps { file_bytes: 1024, ..Caps::default() };

        let got = gather(class.path(), &scratch.path().join("s"), caps).unwrap();

        assert_eq!(got.students.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["fine"]);
        assert_eq!(got.skipped.len(), 2, "{:?}", got.skipped);
        assert!(got.skipped[0].reason.contains("more than the 1024 bytes allowed"), "{:?}", got.skipped[0]);
        assert!(got.skipped[1].reason.contains("not a readable zip"), "{:?}", got.skipped[1]);
    }

    #[test]
    fn a_class_zip_is_unpacked_first() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let class = dir.path().join("submissions.zip");
        zip_of(&class, &[("ada_1_2_Board.java", b"class Board {}"), ("ada_1_2_Solver.java", b"class Solver {}")]);

        let got = gather(&class, &scratch.path().join("s"), Caps::default()).unwrap();

        assert_eq!(got.students.len(), 1);
        assert_eq!(got.students[0].name, "ada");
        assert!(got.students[0].path.join("Solver.java").is_file());
    }

    #[test]
    fn two_students_with_one_name_keep_both_reports() {
        let mut students =
            vec![Student { name: "ada".into(), path: "a".into() }, Student { name: "ada".into(), path: "b".into() }];
        dedupe(&mut students);
        assert_eq!(students[1].name, "ada (2)");
    }
}
