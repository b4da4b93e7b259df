//! The report as a student may see it before the due date (`--hide-hidden-tests`, and the standard output of
//! a Gradescope run): the tests the policy hides left out, and nothing else that tells of them.

use crate::results::{CategoryScore, Report, Score, Status, TestResult};
use crate::score::round2;

impl Report {
    /// The report as a student may see it before the due date: the tests the policy hides left out (their
    /// number in [`Report::withheld`]), the score that of the visible tests, no cause or message naming a
    /// hidden test, and not the submission's output (it may print what the hidden tests gave it). The
    /// same report when nothing is hidden.
    pub fn without_hidden(&self) -> Report {
        let hidden_tests: Vec<&TestResult> = self.tests.iter().filter(|t| t.hidden).collect();
        let hidden = self.hidden_ids();
        if hidden.is_empty() {
            return self.clone();
        }
        let shown = |id: &str| !hidden.contains(&id);
        let mut report = self.clone();
        report.tests.retain(|t| !t.hidden);
        for test in &mut report.tests {
            test.message = mask_hidden(&test.message, &hidden);
        }
        report.fix_first.retain(|cause| shown(&cause.test));
        for cause in &mut report.fix_first {
            cause.explains.retain(|id| shown(id));
            cause.repeats.retain(|id| shown(id));
        }
        report.fix_first.retain(|cause| !cause.explains.is_empty());
        report.count_causes.retain(|cause| cause.tests.iter().all(|id| shown(id)));
        report.score = visible_score(&self.score, &hidden_tests, &report.tests);
        report.output = String::new();
        report.output_truncated = false;
        report.withheld = hidden.len();
        report
    }

    /// The ids of the tests the policy hides until the due date, in report order.
    pub fn hidden_ids(&self) -> Vec<&str> {
        self.tests.iter().filter(|t| t.hidden).map(|t| t.id.as_str()).collect()
    }
}

/// `text` with every mention of a `hidden` test id (a whole id, not part of a longer one) replaced by "a test
/// hidden until the due date".
pub fn mask_hidden(text: &str, hidden: &[&str]) -> String {
    let part_of_id = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '/';
    let mut text = text.to_string();
    for id in hidden {
        let mut from = 0;
        while let Some(found) = text[from..].find(id).map(|i| i + from) {
            let end = found + id.len();
            let whole = !text[..found].ends_with(part_of_id) && !text[end..].starts_with(part_of_id);
            if whole {
                text.replace_range(found..end, "a test hidden until the due date");
                from = found + "a test hidden until the due date".len();
            } else {
                from = end;
            }
        }
    }
    text
}

/// The score of the tests left: a category that lost hidden tests gets the tallies and points of its
/// visible tests; the others stay as they were (a compiler-checked API keeps the points no test carries).
fn visible_score(score: &Score, hidden: &[&TestResult], tests: &[TestResult]) -> Score {
    let categories: Vec<CategoryScore> = score
        .categories
        .iter()
        .map(|c| {
            if !hidden.iter().any(|t| t.category == c.category) {
                return c.clone();
            }
            let of: Vec<&TestResult> = tests.iter().filter(|t| t.category == c.category).collect();
            let count = |status: &[Status]| of.iter().filter(|t| status.contains(&t.status)).count();
            CategoryScore {
                category: c.category,
                passed: count(&[Status::Passed]),
                failed: count(&[Status::Failed, Status::Error]),
                skipped: count(&[Status::Skipped]),
                not_applicable: count(&[Status::NotApplicable]),
                points: round2(of.iter().map(|t| t.score).sum()),
                weight: round2(of.iter().map(|t| t.max_score).sum()),
            }
        })
        .collect();
    Score {
        total: round2(categories.iter().map(|c| c.points).sum()),
        max: round2(categories.iter().map(|c| c.weight).sum()),
        categories,
    }
}
