//! JUnit XML (quick-junit) for GitLab, Jenkins and other CI dashboards: one test suite per category, one
//! test case per test, failure bodies with the student-facing message (expected vs actual).
//!
//! Each test case's `time` is the CPU time the submission spent on it (the one field that varies from run to
//! run; no timestamps are written). A failed build's compiler output is the compile test's failure body. A run
//! that is not graded is one failing case, `not graded`, whose message says why.

use quick_junit::{NonSuccessKind, Report as JunitReport, TestCase, TestCaseStatus, TestSuite};

use crate::results::Category;
use crate::results::{Report, Status};

/// Renders JUnit XML.
pub fn render(report: &Report) -> String {
    let mut junit = JunitReport::new(format!("8puzzle grading of {}", report.submission.name));
    if let Some(not_graded) = &report.not_graded {
        // One failing case says so, so that a CI job shows the reason rather than a green empty run.
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status.set_message(format!("Not graded: {}", not_graded.reason));
        let mut suite = TestSuite::new("Submission");
        let mut case = TestCase::new("not graded", status);
        case.set_classname("submission");
        suite.add_test_case(case);
        junit.add_test_suite(suite);
    }
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
                match (&report.compile_log, category) {
                    (Some(log), Category::Compile) => {
                        status.set_description(format!("{}\n\nThe compiler's output:\n{log}", test.message))
                    }
                    _ => status.set_description(test.message.as_str()),
                };
            }
            let mut case = TestCase::new(format!("{} {}", test.id, test.title), status);
            case.set_classname(category.name());
            if let Some(ms) = test.cpu_ms {
                case.set_time(std::time::Duration::from_millis(ms));
            }
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string().unwrap_or_else(|e| format!("<!-- failed to write JUnit XML: {e} -->\n"))
}
