//! JUnit XML (quick-junit) for GitLab, Jenkins and other CI dashboards: one test suite per category, one
//! test case per test, failure bodies with the student-facing message (expected vs actual).
//!
//! No timestamps or durations are written, so the XML is as deterministic as the other reports.

use quick_junit::{NonSuccessKind, Report as JunitReport, TestCase, TestCaseStatus, TestSuite};

use crate::catalog::Category;
use crate::results::{Report, Status};

/// Renders JUnit XML.
pub fn render(report: &Report) -> String {
    let mut junit = JunitReport::new(format!("8puzzle grading of {}", report.submission.name));
    for category in Category::ALL {
        let tests: Vec<_> = report.tests_in(category).collect();
        if tests.is_empty() {
            continue;
        }
        let mut suite = TestSuite::new(category.heading());
        for test in tests {
            let mut status = match test.status {
                Status::Passed => TestCaseStatus::success(),
                Status::Failed => TestCaseStatus::non_success(NonSuccessKind::Failure),
                Status::Error => TestCaseStatus::non_success(NonSuccessKind::Error),
                Status::Skipped | Status::NotApplicable => TestCaseStatus::skipped(),
            };
            if test.status != Status::Passed {
                status.set_message(test.reason());
                status.set_description(test.message.as_str());
            }
            let mut case = TestCase::new(format!("{} {}", test.id, test.title), status);
            case.set_classname(category.name());
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string().unwrap_or_else(|e| format!("<!-- failed to write JUnit XML: {e} -->\n"))
}
