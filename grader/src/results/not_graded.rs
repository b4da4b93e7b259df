//! Not graded: a run that gives the student no final grade, and why. One notion for every consumer: a
//! report says so at its top in place of a score (every format; Gradescope, which needs a number, scores 0
//! with the reason as the first line of its output), a gradebook row has the reason as its `error` and no
//! score, an LMS file leaves the student's cell empty, the class overview lists them with the reason, and
//! the command exits non-zero (1 when it is the submission's doing, 2 when the grader's).
//!
//! Today one cause is the submission's: what was handed in is not a submission (a missing or misnamed file,
//! nothing gradable: `build::handed_in`). A cause of the grader's (a test the machine stalled twice, a
//! partial run that is no final grade) is another [`Because`] variant with its reason; the consumers above
//! read [`Report::not_graded`] and need no change for it.

use serde::Serialize;

use super::{Details, Report, Submission, SubmittedFile};

/// Why a run gives no final grade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NotGraded {
    /// Why, and what to do, in the words of what was handed in (`found solver.java: rename it to
    /// Solver.java`); a lowercase fragment the formats print after "Not graded: ".
    pub reason: String,
    /// Whose doing it is.
    pub because: Because,
}

/// What kept a run from a final grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Because {
    /// What was handed in is not a submission: the student's to fix (exit 1).
    NotASubmission,
}

impl Because {
    /// Whether the grader, not the student, is to blame (the command then exits 2).
    pub fn is_grader_problem(self) -> bool {
        match self {
            Because::NotASubmission => false,
        }
    }
}

impl Report {
    /// The report of something handed in that is not a submission: no test ran, no score, the reason, and
    /// the files that were handed in (by their names as handed in).
    pub fn not_a_submission(name: &str, seed: u64, reason: &str, files: Vec<SubmittedFile>) -> Report {
        Report {
            submission: Submission { name: name.to_string(), language: "unknown".into() },
            seed,
            details: Details { files, transcript: vec![], style: None },
            not_graded: Some(NotGraded { reason: reason.to_string(), because: Because::NotASubmission }),
            ..Report::default()
        }
    }

    /// The line every human format prints at its top for a run that is not graded: `Not graded: REASON`.
    pub fn not_graded_line(&self) -> Option<String> {
        self.not_graded.as_ref().map(|n| format!("Not graded: {}", n.reason))
    }
}
