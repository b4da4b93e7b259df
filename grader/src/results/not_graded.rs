//! Not graded: a run that gives the student no final grade, and why. One notion for every consumer: a
//! report says so at its top in place of a score (every format; Gradescope, which needs a number, scores 0
//! with the reason as the first line of its output), a gradebook row has the reason as its `error` and no
//! score, an LMS file leaves the student's cell empty, the class overview lists them with the reason, and
//! the command exits non-zero (1 when it is the submission's doing, 2 when the grader's).
//!
//! Two causes: what was handed in is not a submission (a missing or misnamed file, nothing gradable:
//! `build::handed_in`), the student's; and a test the machine stalled twice in a row (`runner::stall`: a
//! stall believed on evidence the submission cannot produce), the grader's: the tests that did run keep their
//! verdicts in the report, but no grade is final until the student is graded again on a less busy machine
//! (a resumed batch grades them again: they get no resume stamp). A partial run is no final grade either,
//! but it is the instructor's choice and has its own marks (`Partial`).

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
    /// The machine stalled the submission twice in a row during a test: the grader's problem (exit 2).
    MachineStalled,
}

impl NotGraded {
    /// No final grade when the machine stalled any test twice in a row (`stalled`: what it stalled).
    pub fn machine_stalled(stalled: &[String]) -> Option<NotGraded> {
        (!stalled.is_empty()).then(|| NotGraded { reason: stalled_twice(stalled), because: Because::MachineStalled })
    }
}

/// What the machine stalled twice in a row, in the words every output uses: the report's grader-problem line
/// ([`Report::stalls_line`]) and the reason a stalled run is not graded are one sentence.
fn stalled_twice(stalled: &[String]) -> String {
    format!(
        "the machine stalled the submission twice in a row during {} (it was kept from running, not slow on its \
         own); those tests are errors, not the submission's failures: grade again on a less busy machine",
        stalled.join(", ")
    )
}

impl Because {
    /// Whether the grader, not the student, is to blame (the command then exits 2).
    pub fn is_grader_problem(self) -> bool {
        match self {
            Because::NotASubmission => false,
            Because::MachineStalled => true,
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

    /// The line that names what the machine stalled twice in a row ([`Report::machine_stalls`]), a grader
    /// problem every format states at its top.
    pub fn stalls_line(&self) -> String {
        stalled_twice(&self.machine_stalls)
    }

    /// The line every human format prints at its top for a run that is not graded: `Not graded: REASON`.
    pub fn not_graded_line(&self) -> Option<String> {
        self.not_graded.as_ref().map(|n| format!("Not graded: {}", n.reason))
    }
}
