//! A class as a learning-management system hands it over, turned into one folder per student, each student
//! with one identity ([`StudentId`]) and what the export says about them (LMS ids, the original name, late).
//!
//! `grader batch` is given a directory or a zip file. Inside, each student is one of:
//! - a folder (a Gradescope export's `submission_12345`, anyone's own), or an executable file, graded as it is;
//! - a zip file (one per student, as a course's own collection or Coursera hands them), unpacked;
//! - Canvas's files, `name_[LATE_]USERID_SUBMISSIONID_Board.java` (any case), gathered per user id (`lms`);
//! - Moodle's folders `Full Name_PARTICIPANTID_assignsubmission_file_`, or its files named so without folders,
//!   gathered per participant id.
//!
//! A submission that is one folder inside its folder, or one zip inside its folder (a Moodle student who
//! uploaded `8puzzle.zip`), is descended into or unpacked. Archives are unpacked defensively (`unzip`).
//! A student the export names is always in the class, with the reason when their files cannot be used;
//! everything else that is not graded is listed with the reason, never dropped silently.

mod lms;
pub mod unzip;
mod zip_names;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::identity::StudentId;
use unzip::{single_folder, unzip};

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

/// What an LMS export says about who a student is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Lms {
    /// A student of a Canvas export.
    Canvas {
        /// The Canvas user id (the gradebook's `ID` column).
        user_id: String,
        /// The number after the user id in each of the student's file names, once each, sorted.
        submission_ids: Vec<String>,
    },
    /// A student of a Moodle export.
    Moodle {
        /// The participant id (the offline grading worksheet's `Participant N`).
        participant_id: String,
    },
}

/// One student of the class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Student {
    /// Their identity: file names, gradebook rows and shards go by it.
    pub id: StudentId,
    /// Their name as the export gives it (`lovelaceada`, `Ada Lovelace`, `alice`), kept as it is.
    pub name: String,
    /// What the LMS export says about them, if it is one.
    pub lms: Option<Lms>,
    /// Whether the LMS marked the submission late, where the export says (Canvas).
    pub late: Option<bool>,
    /// The folder or executable to grade, or why there is none (an archive that could not be unpacked).
    pub submission: Result<PathBuf, String>,
}

impl Student {
    /// Who they are, without their submission (as the class's roster names them).
    pub fn enrolled(&self) -> Enrolled {
        Enrolled { id: self.id.clone(), name: self.name.clone(), lms: self.lms.clone(), late: self.late }
    }
}

/// Something in the class that is not graded, and why.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Skipped {
    /// Its name, relative to what the grader was given (`alice.zip`, `alice.zip: ../evil.sh`).
    pub entry: String,
    /// Why it was not graded, a lowercase fragment (`its path leaves the archive's folder`), printed after the entry.
    pub reason: String,
}

/// A student the class names, graded here or not (a shard grades some): who they are and what the export says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Enrolled {
    #[allow(missing_docs)]
    pub id: StudentId,
    #[allow(missing_docs)]
    pub name: String,
    #[allow(missing_docs)]
    pub lms: Option<Lms>,
    #[allow(missing_docs)]
    pub late: Option<bool>,
}

/// The class: who is graded and what was left out.
#[derive(Debug, Default)]
pub struct Class {
    /// The students graded, by name, then identity.
    pub students: Vec<Student>,
    /// Every student the class names, in the same order: the graded ones and those left to other shards.
    pub roster: Vec<Enrolled>,
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

/// One piece of a student's submission as the class holds it.
#[derive(Debug)]
enum Part {
    /// A folder of theirs.
    Folder(PathBuf),
    /// A file, to be named `as_name` in their folder (a zip is unpacked instead).
    File { from: PathBuf, as_name: String },
    /// An executable graded as it is.
    Program(PathBuf),
    /// Something the LMS exported that is not code (Moodle's online text).
    NotCode,
}

/// A student as the entries name them, before their submission is put together.
#[derive(Debug)]
struct Pending {
    name: String,
    lms: Option<Lms>,
    late: Option<bool>,
    parts: Vec<Part>,
}

impl Pending {
    /// The student an entry names, before any of their parts (lateness comes with each part).
    fn clone_empty(&self) -> Pending {
        Pending { name: self.name.clone(), lms: self.lms.clone(), late: None, parts: vec![] }
    }
}

/// Reads the class at `input` (a directory or a zip file), unpacking into `scratch` (which must be empty
/// or absent: the caller owns it and removes it after grading).
pub fn gather(input: &Path, scratch: &Path, caps: Caps) -> Result<Class, IntakeError> {
    gather_where(input, scratch, caps, &|_| true, &[])
}

/// As [`gather`], but only the students `keep` accepts are put together and in [`Class::students`] (a shard's);
/// [`Class::roster`] still names everyone. An entry that is one of `graders_own` (the batch's output folder,
/// which `grader batch .` puts inside the class) is skipped and listed as the grader's, never a student.
pub fn gather_where(
    input: &Path,
    scratch: &Path,
    caps: Caps,
    keep: &dyn Fn(&StudentId) -> bool,
    graders_own: &[PathBuf],
) -> Result<Class, IntakeError> {
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
    let mut pending: BTreeMap<StudentId, Pending> = BTreeMap::new();
    let graders_own: Vec<PathBuf> = graders_own.iter().filter_map(|p| std::fs::canonicalize(p).ok()).collect();
    for path in entries {
        let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if std::fs::canonicalize(&path).is_ok_and(|p| graders_own.contains(&p)) {
            let reason = "the grader's own output folder (--output-dir), not a student".to_string();
            class.skipped.push(Skipped { entry: file_name, reason });
            continue;
        }
        match classify(&path, &file_name) {
            Ok((id, student, part)) => {
                add_part(pending.entry(id).or_insert_with(|| student.clone_empty()), student, part)
            }
            Err(reason) => class.skipped.push(Skipped { entry: file_name, reason }),
        }
    }
    let mut everyone: Vec<(StudentId, Pending)> = pending.into_iter().collect();
    everyone.sort_by(|(a_id, a), (b_id, b)| (a.name.to_lowercase(), a_id).cmp(&(b.name.to_lowercase(), b_id)));
    let mut stems = BTreeSet::new();
    for (id, student) in everyone {
        class.roster.push(Enrolled {
            id: id.clone(),
            name: student.name.clone(),
            lms: student.lms.clone(),
            late: student.late,
        });
        // Two identities whose file stems are equal (a hash collision, which only a crafted name could cause)
        // would share report files: the later student of the two is not graded, and says why.
        let stem = id.file_stem();
        let shared = !stems.insert(stem.clone());
        if !keep(&id) {
            continue;
        }
        let submission = if shared {
            Err(format!("its report file name `{stem}` is another student's too: rename the entry and grade again"))
        } else {
            assemble(&id, student.parts, scratch, caps, &mut class.skipped)
        };
        class.students.push(Student { id, name: student.name, lms: student.lms, late: student.late, submission });
    }
    class.skipped.sort();
    Ok(class)
}

/// Adds one entry's part (and what its name says: late, Canvas submission ids) to its student.
fn add_part(entry: &mut Pending, student: Pending, part: Part) {
    entry.late = match (entry.late, student.late) {
        (Some(a), Some(b)) => Some(a || b),
        (a, b) => a.or(b),
    };
    if let (Some(Lms::Canvas { submission_ids, .. }), Some(Lms::Canvas { submission_ids: new, .. })) =
        (&mut entry.lms, &student.lms)
    {
        submission_ids.extend(new.iter().cloned());
        submission_ids.sort();
        submission_ids.dedup();
    }
    entry.parts.push(part);
}

/// The student an entry belongs to and the part it is of their submission, or why it is no one's.
fn classify(path: &Path, file_name: &str) -> Result<(StudentId, Pending, Part), String> {
    let plain = |name: &str| Pending { name: name.to_string(), lms: None, late: None, parts: vec![] };
    if file_name.starts_with('.') || file_name == "__MACOSX" {
        return Err("hidden or system file".into());
    }
    if file_name == "submission_metadata.yml" {
        return Err("Gradescope export metadata".into());
    }
    if let Some(moodle) = lms::moodle_entry(file_name) {
        let id = StudentId::moodle(&moodle.participant_id);
        let lms = Some(Lms::Moodle { participant_id: moodle.participant_id.clone() });
        let student = Pending { lms, ..plain(&moodle.name) };
        let part = match (moodle.plugin.as_str(), path.is_dir()) {
            ("file", true) => Part::Folder(path.to_path_buf()),
            ("file", false) if !moodle.file.is_empty() => {
                Part::File { from: path.to_path_buf(), as_name: moodle.file.clone() }
            }
            _ => Part::NotCode,
        };
        return Ok((id, student, part));
    }
    if path.is_file() {
        if let Some(canvas) = lms::canvas_file(file_name) {
            let lms = Lms::Canvas { user_id: canvas.user_id.clone(), submission_ids: vec![canvas.submission_id] };
            let student = Pending { lms: Some(lms), late: Some(canvas.late), ..plain(&canvas.name) };
            let part = Part::File { from: path.to_path_buf(), as_name: canvas.original };
            return Ok((StudentId::canvas(&canvas.user_id), student, part));
        }
    }
    if StudentId::is_reserved(file_name) {
        return Err(format!(
            "its name reads as an LMS student's identity (`{file_name}`), which a folder of its own cannot take: \
             rename it"
        ));
    }
    let id = StudentId::entry(file_name);
    if path.is_dir() {
        return Ok((id, plain(file_name), Part::Folder(path.to_path_buf())));
    }
    if let Some(stem) = zip_stem(file_name) {
        return Ok((id, plain(stem), Part::File { from: path.to_path_buf(), as_name: file_name.to_string() }));
    }
    if crate::build::detect(path).is_ok() {
        return Ok((id, plain(file_name), Part::Program(path.to_path_buf())));
    }
    if path.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()) && !path.exists() {
        return Err("a link to nothing (the file or folder it names is gone): point it at the student's \
                    submission, or replace it with a copy"
            .into());
    }
    Err("not a submission: expected a folder, a zip, an executable, or an LMS export's files (Canvas: \
         name_USERID_SUBMISSIONID_File.java; Moodle: Full Name_ID_assignsubmission_file_)"
        .into())
}

/// The name of a zip file without its extension (any case).
fn zip_stem(file_name: &str) -> Option<&str> {
    let cut = file_name.len().checked_sub(4)?;
    (file_name.is_char_boundary(cut) && file_name[cut..].eq_ignore_ascii_case(".zip")).then(|| &file_name[..cut])
}

/// Puts a student's parts together as one folder (or their executable), in `scratch/students/<stem>` when
/// it must be made.
fn assemble(
    id: &StudentId,
    parts: Vec<Part>,
    scratch: &Path,
    caps: Caps,
    skipped: &mut Vec<Skipped>,
) -> Result<PathBuf, String> {
    let parts: Vec<Part> = parts.into_iter().filter(|p| !matches!(p, Part::NotCode)).collect();
    let folder = scratch.join("students").join(id.file_stem());
    match parts.as_slice() {
        [] => Err("the export holds no file of theirs (Moodle's online text is not graded)".into()),
        [Part::Program(path)] => Ok(path.clone()),
        [Part::Folder(path)] => descend(path, &folder, caps, skipped),
        parts => {
            std::fs::create_dir_all(&folder).map_err(|e| format!("failed to gather their files: {e}"))?;
            for part in parts {
                let copied = match part {
                    Part::Folder(path) => copy_tree(path, &folder),
                    Part::File { from, as_name } => std::fs::copy(from, folder.join(as_name)).map(drop),
                    Part::Program(path) => {
                        std::fs::copy(path, folder.join(path.file_name().unwrap_or_default())).map(drop)
                    }
                    Part::NotCode => Ok(()),
                };
                copied.map_err(|e| format!("failed to gather their files: {e}"))?;
            }
            descend(&folder, &folder.join("unpacked"), caps, skipped)
        }
    }
}

/// Where a student's submission really is inside `dir`: inside its one folder, or unpacked (into `target`)
/// from its one zip.
fn descend(dir: &Path, target: &Path, caps: Caps, skipped: &mut Vec<Skipped>) -> Result<PathBuf, String> {
    let inner = single_folder(dir);
    let visible: Vec<PathBuf> = std::fs::read_dir(&inner)
        .map(|read| read.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    let visible: Vec<&PathBuf> = visible
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| n != "__MACOSX" && !n.to_string_lossy().starts_with('.')))
        .collect();
    match visible.as_slice() {
        [zip] if zip.is_file() && zip.file_name().and_then(|n| zip_stem(&n.to_string_lossy()).map(drop)).is_some() => {
            let label = zip.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            unzip(zip, target, caps, &label, skipped).map_err(|reason| format!("{label} not unpacked: {reason}"))?;
            let unpacked = single_folder(target);
            match std::fs::read_dir(&unpacked).map(|read| read.count()) {
                Ok(0) => Err(format!("the zip {label} is empty")),
                _ if only_hidden(&unpacked) => {
                    Err(format!("the zip {label} holds nothing but hidden files (such as __MACOSX or .DS_Store)"))
                }
                _ => Ok(unpacked),
            }
        }
        _ => Ok(inner),
    }
}

/// Whether every entry of `dir` is hidden (`.DS_Store`) or macOS's `__MACOSX`.
fn only_hidden(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|read| {
        read.filter_map(Result::ok)
            .all(|e| e.file_name() == "__MACOSX" || e.file_name().to_string_lossy().starts_with('.'))
    })
}

/// Copies the folder `from` into `to` (merging with what is there); links are not followed or copied, as
/// the grader follows no link in a submission.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in walkdir::WalkDir::new(from).follow_links(false) {
        let entry = entry.map_err(std::io::Error::other)?;
        let at = to.join(entry.path().strip_prefix(from).map_err(std::io::Error::other)?);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&at)?;
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &at)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

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

    fn ids(class: &Class) -> Vec<(&str, &str)> {
        class.students.iter().map(|s| (s.id.as_str(), s.name.as_str())).collect()
    }

    #[test]
    fn a_folder_of_zips_canvas_files_and_folders_becomes_one_folder_per_student() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let c = class.path();
        zip_of(&c.join("bob.zip"), &[("bob/Board.java", b"class Board {}"), ("bob/Solver.java", b"class Solver {}")]);
        std::fs::write(c.join("cy_111_222_Board.java"), "class Board {}").unwrap();
        std::fs::write(c.join("cy_LATE_111_223_Solver-1.java"), "class Solver {}").unwrap();
        std::fs::create_dir(c.join("Ada Lovelace_12345_assignsubmission_file_")).unwrap();
        std::fs::write(c.join("notes.txt"), "hello").unwrap();
        std::fs::write(c.join(".DS_Store"), "").unwrap();

        let got = gather(c, &scratch.path().join("s"), Caps::default()).unwrap();

        assert_eq!(ids(&got), [("moodle-12345", "Ada Lovelace"), ("bob.zip", "bob"), ("canvas-111", "cy")]);
        let path = |i: usize| got.students[i].submission.clone().unwrap();
        assert!(path(1).join("Board.java").is_file(), "the zip's one folder is the submission");
        assert!(path(2).join("Solver.java").is_file(), "Canvas's -1 is removed");
        assert_eq!(got.students[2].late, Some(true), "a LATE_ file makes the student late, in any case");
        assert_eq!(
            got.students[2].lms,
            Some(Lms::Canvas { user_id: "111".into(), submission_ids: vec!["222".into(), "223".into()] })
        );
        assert_eq!(got.students[0].lms, Some(Lms::Moodle { participant_id: "12345".into() }));
        let skipped: Vec<&str> = got.skipped.iter().map(|s| s.entry.as_str()).collect();
        assert_eq!(skipped, [".DS_Store", "notes.txt"]);
        // a student's link to nothing is named as that, not as something that is no submission
        std::os::unix::fs::symlink(c.join("gone"), c.join("eve")).unwrap();
        let again = gather(c, &scratch.path().join("t"), Caps::default()).unwrap();
        let eve = again.skipped.iter().find(|s| s.entry == "eve").expect("eve is skipped");
        assert!(eve.reason.starts_with("a link to nothing"), "{}", eve.reason);
    }

    /// Two Moodle students of one name and a zip named as a renamed duplicate would be are three students,
    /// with three identities and three report file names.
    #[test]
    fn namesakes_and_a_later_zip_stay_three_students() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let c = class.path();
        for id in ["101", "102"] {
            let folder = c.join(format!("Ada_{id}_assignsubmission_file_"));
            std::fs::create_dir(&folder).unwrap();
            std::fs::write(folder.join("Board.java"), "class Board {}").unwrap();
        }
        zip_of(&c.join("Ada (2).zip"), &[("Board.java", b"class Board {}")]);

        let got = gather(c, &scratch.path().join("s"), Caps::default()).unwrap();

        assert_eq!(ids(&got), [("moodle-101", "Ada"), ("moodle-102", "Ada"), ("Ada (2).zip", "Ada (2)")]);
        let stems: BTreeSet<String> = got.students.iter().map(|s| s.id.file_stem()).collect();
        assert_eq!(stems.len(), 3);
    }

    /// Moodle, exported without folders, or with a student's zip or subfolder inside their folder.
    #[test]
    fn moodle_files_zips_and_subfolders_are_one_folder_per_participant() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let c = class.path();
        std::fs::write(c.join("Ann Lee_7_assignsubmission_file_Board.java"), "class Board {}").unwrap();
        std::fs::write(c.join("Ann Lee_7_assignsubmission_file_Solver.java"), "class Solver {}").unwrap();
        std::fs::write(c.join("Ann Lee_7_assignsubmission_onlinetext_onlinetext.html"), "hi").unwrap();
        let zipped = c.join("Bo Chen_8_assignsubmission_file_");
        std::fs::create_dir(&zipped).unwrap();
        zip_of(&zipped.join("8puzzle.zip"), &[("8puzzle/Board.java", b"class Board {}")]);
        let nested = c.join("Cy Diaz_9_assignsubmission_file_").join("src");
        std::fs::create_dir_all(&nested).unwrap();
        std::fs::write(nested.join("Board.java"), "class Board {}").unwrap();
        std::fs::create_dir(c.join("Di Eze_10_assignsubmission_onlinetext_")).unwrap();

        let got = gather(c, &scratch.path().join("s"), Caps::default()).unwrap();

        let names: Vec<&str> = got.students.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Ann Lee", "Bo Chen", "Cy Diaz", "Di Eze"]);
        for student in &got.students[..3] {
            let path = student.submission.as_ref().unwrap();
            assert!(path.join("Board.java").is_file(), "{student:?}");
        }
        assert!(got.students[0].submission.as_ref().unwrap().join("Solver.java").is_file());
        assert!(got.students[3].submission.as_ref().unwrap_err().contains("online text"), "{:?}", got.students[3]);
    }

    /// `grader batch .` in the class folder: its output folder (`grades/`) is there from the second run on,
    /// and is the grader's, not a student.
    #[test]
    fn the_graders_own_output_folder_is_not_a_student() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        for folder in ["amy", "grades"] {
            std::fs::create_dir(class.path().join(folder)).unwrap();
            std::fs::write(class.path().join(folder).join("Board.java"), "class Board {}").unwrap();
        }
        let own = [class.path().join("grades")];
        let got = gather_where(class.path(), &scratch.path().join("s"), Caps::default(), &|_| true, &own).unwrap();
        let names: Vec<&str> = got.roster.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["amy"]);
        assert_eq!(got.skipped.len(), 1);
        assert_eq!(got.skipped[0].entry, "grades");
        assert!(got.skipped[0].reason.contains("the grader's own output folder"), "{:?}", got.skipped);
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
        let path = got.students[0].submission.as_ref().unwrap();
        assert!(path.join("Board.java").is_file());
        assert!(!path.join("link").exists());
        assert!(!scratch.path().join("escaped.txt").exists() && !class.path().join("escaped.txt").exists());
        let reasons: Vec<String> = got.skipped.iter().map(|s| format!("{}: {}", s.entry, s.reason)).collect();
        assert_eq!(
            reasons,
            ["eve.zip: ../../escaped.txt: its path leaves the archive's folder", "eve.zip: link: a symbolic link"]
        );
    }

    /// A zip that cannot be unpacked is that student's problem, stated in their row: they stay in the class.
    #[test]
    fn a_zip_bomb_or_a_broken_zip_is_that_students_reason() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let big = vec![0u8; 4096];
        zip_of(&class.path().join("bomb.zip"), &[("Board.java", &big)]);
        std::fs::write(class.path().join("broken.zip"), "PK not really").unwrap();
        zip_of(&class.path().join("fine.zip"), &[("Board.java", b"class Board {}")]);
        let caps = Caps { file_bytes: 1024, ..Caps::default() };

        let got = gather(class.path(), &scratch.path().join("s"), caps).unwrap();

        assert_eq!(ids(&got), [("bomb.zip", "bomb"), ("broken.zip", "broken"), ("fine.zip", "fine")]);
        let reason = |i: usize| got.students[i].submission.clone().unwrap_err();
        assert!(reason(0).contains("more than the 1024 bytes allowed"), "{}", reason(0));
        assert!(reason(1).contains("not a readable zip"), "{}", reason(1));
        assert!(got.students[2].submission.is_ok());
    }

    /// A zip with nothing in it says so, in the words of what was handed in (never a path of the grader's).
    #[test]
    fn an_empty_zip_is_that_students_reason_in_their_words() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        zip_of(&class.path().join("ann.zip"), &[]);
        zip_of(&class.path().join("bo.zip"), &[("__MACOSX/._Board.java", b"x"), (".DS_Store", b"")]);

        let got = gather(class.path(), &scratch.path().join("s"), Caps::default()).unwrap();

        let reasons: Vec<String> = got.students.iter().map(|s| s.submission.clone().unwrap_err()).collect();
        assert_eq!(
            reasons,
            [
                "the zip ann.zip is empty",
                "the zip bo.zip holds nothing but hidden files (such as __MACOSX or .DS_Store)"
            ]
        );
    }

    #[test]
    fn a_class_zip_is_unpacked_first() {
        let dir = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        let class = dir.path().join("submissions.zip");
        zip_of(&class, &[("ada_1_2_Board.java", b"class Board {}"), ("ada_1_3_Solver.java", b"class Solver {}")]);

        let got = gather(&class, &scratch.path().join("s"), Caps::default()).unwrap();

        assert_eq!(ids(&got), [("canvas-1", "ada")]);
        assert!(got.students[0].submission.as_ref().unwrap().join("Solver.java").is_file());
    }

    #[test]
    fn a_folder_named_as_an_lms_identity_is_refused_with_the_reason() {
        let class = tempfile::tempdir().unwrap();
        let scratch = tempfile::tempdir().unwrap();
        std::fs::create_dir(class.path().join("canvas-1")).unwrap();
        std::fs::write(class.path().join("ada_1_2_Board.java"), "class Board {}").unwrap();

        let got = gather(class.path(), &scratch.path().join("s"), Caps::default()).unwrap();

        assert_eq!(ids(&got), [("canvas-1", "ada")]);
        assert!(got.skipped[0].reason.contains("rename it"), "{:?}", got.skipped);
    }
}
