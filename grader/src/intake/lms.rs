//! What an LMS export's names say about a student: Canvas's `name_[LATE_]USERID_SUBMISSIONID_file` files and
//! Moodle's `Full Name_PARTICIPANTID_assignsubmission_TYPE_` folders (or, exported without folders, files named
//! `Full Name_PARTICIPANTID_assignsubmission_TYPE_file`). Pure functions of a name; `intake` does the rest.
//!
//! The layouts, from the LMSs themselves:
//! - Canvas's "Download Submissions" zip names each file `lastfirst_USERID_ATTACHMENTID_file` (the second
//!   number is what Canvas calls the submission's file id; we keep it as the submission id), with `LATE_` (any
//!   case) after the name when the submission was late, and `-N` added to a file name seen before
//!   (`Solver-1.java`). Example layouts: the canvas-unzipper README (github.com/mikewesthad/canvas-unzipper).
//! - Moodle's "Download all submissions" (mod/assign/locallib.php, `download_submissions`) prefixes each
//!   file with the student's full name (underscores made spaces) and `_` and the participant id
//!   (`get_uniqueid_for_user`), then `_assignsubmission_file_` and either the file's path inside a folder of
//!   that name (the default since Moodle 3.1) or the file name itself. Blind marking writes `Participant`
//!   for the name. The same participant id is the `Participant N` of the offline grading worksheet.

/// A Canvas file name taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CanvasFile {
    /// The name part (`lovelaceada`: Canvas writes last name then first name, lowercase, no spaces).
    pub name: String,
    /// Whether Canvas marked the submission late.
    pub late: bool,
    #[allow(missing_docs)]
    pub user_id: String,
    /// The number after the user id.
    pub submission_id: String,
    /// The file as the student named it (Canvas's `-N` for a repeated name removed).
    pub original: String,
}

fn digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// A Canvas export's file name, or `None` when the name is not Canvas's. The name part may itself hold
/// underscores: the first `[LATE_]USERID_SUBMISSIONID_` after it is taken.
pub fn canvas_file(file_name: &str) -> Option<CanvasFile> {
    let parts: Vec<&str> = file_name.split('_').collect();
    for at in 1..parts.len() {
        let late = parts[at].eq_ignore_ascii_case("late");
        let ids = if late { at + 1 } else { at };
        let (Some(user), Some(submission)) = (parts.get(ids), parts.get(ids + 1)) else { return None };
        if !(digits(user) && digits(submission)) || parts.len() <= ids + 2 {
            continue;
        }
        let rest = parts[ids + 2..].join("_");
        if rest.is_empty() {
            continue;
        }
        return Some(CanvasFile {
            name: parts[..at].join("_"),
            late,
            user_id: user.to_string(),
            submission_id: submission.to_string(),
            original: without_repeat_suffix(&rest),
        });
    }
    None
}

/// `Solver-1.java` → `Solver.java`: Canvas's mark of a file name it had seen before.
fn without_repeat_suffix(name: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) => match stem.rsplit_once('-') {
            Some((base, n)) if digits(n) && !base.is_empty() => format!("{base}.{ext}"),
            _ => name.to_string(),
        },
        None => name.to_string(),
    }
}

/// A Moodle export's folder or file name taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoodleEntry {
    /// The student's full name (`Participant` under blind marking).
    pub name: String,
    #[allow(missing_docs)]
    pub participant_id: String,
    /// The submission plugin: `file` for uploaded files, `onlinetext` for text typed into Moodle.
    pub plugin: String,
    /// For a file exported without folders, its own name; empty for a folder.
    pub file: String,
}

/// A Moodle export's entry name, or `None` when it is not Moodle's.
pub fn moodle_entry(file_name: &str) -> Option<MoodleEntry> {
    const MARK: &str = "_assignsubmission_";
    let at = file_name.find(MARK)?;
    let (head, tail) = (&file_name[..at], &file_name[at + MARK.len()..]);
    let (name, id) = head.rsplit_once('_')?;
    let (plugin, file) = tail.split_once('_')?;
    if !digits(id) || name.is_empty() || plugin.is_empty() {
        return None;
    }
    Some(MoodleEntry {
        name: name.to_string(),
        participant_id: id.to_string(),
        plugin: plugin.to_string(),
        file: file.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case("lovelaceada_12345_67890_Board.java", Some(("lovelaceada", false, "12345", "67890", "Board.java")))]
    #[case("lovelaceada_late_12345_67890_Solver-1.java", Some(("lovelaceada", true, "12345", "67890", "Solver.java")))]
    #[case("lovelaceada_LATE_12345_67890_Solver.java", Some(("lovelaceada", true, "12345", "67890", "Solver.java")))]
    #[case("lovelaceada_12345_67890_my_Board.java", Some(("lovelaceada", false, "12345", "67890", "my_Board.java")))]
    #[case("o_brien_7_8_8puzzle.zip", Some(("o_brien", false, "7", "8", "8puzzle.zip")))]
    #[case("Board.java", None)]
    #[case("a_b_c_Board.java", None)]
    #[case("ada_12_34_", None)]
    fn canvas_file_names_give_student_and_file(
        #[case] file: &str,
        #[case] expected: Option<(&str, bool, &str, &str, &str)>,
    ) {
        let got = canvas_file(file).map(|c| (c.name, c.late, c.user_id, c.submission_id, c.original));
        let expected = expected.map(|(n, l, u, s, o)| (n.into(), l, u.into(), s.into(), o.into()));
        assert_eq!(got, expected);
    }

    #[rstest]
    #[case("Ada Lovelace_12345_assignsubmission_file_", Some(("Ada Lovelace", "12345", "file", "")))]
    #[case("Ada Lovelace_12345_assignsubmission_file_Board.java", Some(("Ada Lovelace", "12345", "file", "Board.java")))]
    #[case("Participant_9_assignsubmission_onlinetext_", Some(("Participant", "9", "onlinetext", "")))]
    #[case("Ada_x_assignsubmission_file_", None)]
    #[case("submission_98765", None)]
    fn moodle_names_give_student_and_file(#[case] entry: &str, #[case] expected: Option<(&str, &str, &str, &str)>) {
        let got = moodle_entry(entry).map(|m| (m.name, m.participant_id, m.plugin, m.file));
        assert_eq!(got, expected.map(|(a, b, c, d)| (a.into(), b.into(), c.into(), d.into())));
    }
}
