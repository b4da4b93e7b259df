//! Fix-this-first: which failures share one root cause.
//!
//! Many Board tests read a board back through other methods (the official grader's too: its tests of
//! neighbors, twins and k-th neighbors rely upon toString()), so one wrong method fails a string of tests,
//! each of which would otherwise guess its own cause ("the board changed after neighbors()" when only
//! toString() is wrong). Each test here lists the Board methods it leans on; a method is *broken* when one of
//! its own tests fails for a reason of its own; a failing test that leans on a broken method is put under
//! that method's first failing test. Pure over results: it runs after scoring and before rendering.

use crate::results::{BoardMethod as Method, RootCause, Status, TestResult};

use Method::*;

/// Per test: the methods it checks (a wrong answer from one of them is this test's own failure), then the
/// ones it reads boards through (walking to a k-th neighbor, reading tiles back with toString()).
/// Tests not listed lean on no Board method of the student's (the Solver and timing tests run over the
/// reference Board).
const LEANS: &[(&str, &[Method], &[Method])] = &[
    ("board-1a", &[Hamming], &[]),
    ("board-1b", &[Hamming], &[]),
    ("board-2a", &[Manhattan], &[]),
    ("board-2b", &[Manhattan], &[]),
    ("board-3", &[Dimension], &[]),
    ("board-4a", &[ToString], &[]),
    ("board-4b", &[ToString], &[]),
    ("board-5a", &[Neighbors], &[ToString]),
    ("board-5b", &[Neighbors], &[ToString]),
    ("board-6a", &[Neighbors], &[ToString]),
    ("board-6b", &[Neighbors], &[ToString]),
    ("board-7a", &[Twin], &[ToString]),
    ("board-7b", &[Twin], &[ToString]),
    ("board-8a", &[IsGoal], &[]),
    ("board-8b", &[IsGoal], &[]),
    ("board-9", &[], &[Hamming, Manhattan, Dimension, ToString]),
    ("board-10a", &[Equals], &[]),
    ("board-10b", &[Equals], &[]),
    ("board-10c", &[Equals], &[]),
    ("board-11", &[], &[Hamming, Manhattan, Dimension, ToString, IsGoal]),
    ("board-12", &[], &[Hamming, Manhattan, Dimension, ToString, IsGoal, Equals, Neighbors, Twin]),
    ("board-13", &[Dimension], &[ToString, Neighbors]),
    ("board-14", &[Hamming], &[ToString, Neighbors]),
    ("board-15", &[Manhattan], &[ToString, Neighbors]),
    ("board-16", &[Hamming], &[ToString, Twin]),
    ("board-17", &[Manhattan], &[ToString, Twin]),
    ("beyond-neighbors", &[Neighbors], &[ToString]),
    ("beyond-twin", &[Twin], &[ToString]),
    ("beyond-neighbor-values", &[Hamming, Manhattan, IsGoal], &[ToString, Neighbors]),
    ("beyond-pair", &[], &[Hamming, Manhattan, ToString, IsGoal, Equals, Neighbors, Twin]),
];

/// The root causes among `tests`' failures, in fixing order (only those that explain another failure).
///
/// Only wrong answers take part: a test that failed by an exception, a crash, a time-out or running out of
/// memory says so itself, and the method that threw may be the constructor, which no test here isolates.
pub fn root_causes(tests: &[TestResult]) -> Vec<RootCause> {
    const FAULTS: [&str; 5] = ["threw ", "crashed", "timed out", "ran out of memory", "protocol error"];
    let failed = |t: &&TestResult| {
        matches!(t.status, Status::Failed | Status::Error) && !FAULTS.iter().any(|f| t.reason().starts_with(f))
    };
    let leans = |id: &str| LEANS.iter().find(|(test, _, _)| *test == id).map(|(_, own, on)| (*own, *on));
    let mut causes: Vec<RootCause> = Vec::new();
    let mut explained: Vec<&str> = Vec::new();
    for (done, method) in Method::ALL.into_iter().enumerate() {
        // A failure is this method's own when the test checks it, every method it reads boards through has
        // been judged already (and found right: a broken one would have explained it), and nothing explains it.
        let judged = &Method::ALL[..done];
        let own = tests.iter().filter(failed).find(|t| {
            !explained.contains(&t.id.as_str())
                && leans(&t.id).is_some_and(|(own, on)| own.contains(&method) && on.iter().all(|m| judged.contains(m)))
        });
        let Some(own) = own else { continue };
        let explains: Vec<&str> = tests
            .iter()
            .filter(failed)
            .filter(|t| t.id != own.id && !explained.contains(&t.id.as_str()))
            .filter(|t| leans(&t.id).is_some_and(|(own, on)| own.contains(&method) || on.contains(&method)))
            .map(|t| t.id.as_str())
            .collect();
        explained.push(own.id.as_str());
        explained.extend(&explains);
        let repeats = explains
            .iter()
            .filter(|id| leans(id).is_some_and(|(own, _)| own.contains(&method)))
            .map(|id| id.to_string())
            .collect();
        let explains: Vec<String> = explains.iter().map(|id| id.to_string()).collect();
        if !explains.is_empty() {
            causes.push(RootCause { method, test: own.id.clone(), explains, repeats });
        }
    }
    causes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Category;

    fn test(id: &str, status: Status) -> TestResult {
        TestResult {
            id: id.into(),
            official: None,
            row: None,
            columns: None,
            category: Category::Board,
            title: String::new(),
            status,
            score: 0.0,
            max_score: 0.0,
            inputs: vec![],
            rows: vec![],
            message: String::new(),
            evidence: None,
            hidden: false,
            cpu_ms: None,
        }
    }

    fn failing(ids: &[&str]) -> Vec<TestResult> {
        LEANS
            .iter()
            .map(|(id, _, _)| test(id, if ids.contains(id) { Status::Failed } else { Status::Passed }))
            .collect()
    }

    #[test]
    fn a_wrong_manhattan_explains_the_tests_that_read_it() {
        let causes = root_causes(&failing(&["board-2a", "board-2b", "board-9", "board-12", "board-15", "board-17"]));
        assert_eq!(causes.len(), 1);
        assert_eq!((causes[0].method, causes[0].test.as_str()), (Manhattan, "board-2a"));
        assert_eq!(causes[0].explains, ["board-2b", "board-9", "board-12", "board-15", "board-17"]);
        assert_eq!(causes[0].repeats, ["board-2b", "board-15", "board-17"]);
    }

    /// A transposed toString(): the neighbor, twin and k-th tests fail through it, and neighbors() and
    /// twin() are not blamed.
    #[test]
    fn a_wrong_to_string_is_blamed_before_the_methods_read_through_it() {
        let ids = ["board-4a", "board-4b", "board-5a", "board-6a", "board-7a", "board-11", "board-13", "board-14"];
        let causes = root_causes(&failing(&ids));
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!((causes[0].method, causes[0].test.as_str()), (ToString, "board-4a"));
        assert_eq!(
            causes[0].explains,
            ["board-4b", "board-5a", "board-6a", "board-7a", "board-11", "board-13", "board-14"]
        );
    }

    #[test]
    fn a_lone_failure_is_no_root_cause_and_independent_failures_stay_apart() {
        assert!(root_causes(&failing(&["board-2a"])).is_empty());
        let causes = root_causes(&failing(&["board-1a", "board-14", "board-7a", "board-16"]));
        let named: Vec<(Method, &str, usize)> =
            causes.iter().map(|c| (c.method, c.test.as_str(), c.explains.len())).collect();
        assert_eq!(named, [(Hamming, "board-1a", 2)], "twin() explains nothing more than its own test");
        // A wrong neighbors() alone: the k-th neighbor tests fail through it, hamming() is not blamed.
        let causes = root_causes(&failing(&["board-5a", "board-6a", "board-13", "board-14", "board-15"]));
        assert_eq!(causes.len(), 1, "{causes:?}");
        assert_eq!((causes[0].method, causes[0].test.as_str()), (Neighbors, "board-5a"));
        assert_eq!(causes[0].explains, ["board-6a", "board-13", "board-14", "board-15"]);
    }

    /// A Board that throws for n >= 12 fails 1b, 4b and 5b on its 127-by-127 trials: the exceptions speak
    /// for themselves, and toString() is not blamed.
    #[test]
    fn failures_by_exception_explain_nothing_and_are_not_explained() {
        let mut tests = failing(&["board-1b", "board-4b", "board-5b"]);
        for t in &mut tests {
            t.message =
                "failed on trial 1201 of 1202: random 127-by-127 board\nthrew java.lang.ArrayIndexOutOfBoundsException"
                    .into();
        }
        assert!(root_causes(&tests).is_empty());
    }

    #[test]
    fn every_leaning_test_is_in_the_catalog() {
        let ids: Vec<String> = crate::catalog::all().iter().map(|item| item.id.to_string()).collect();
        for (id, _, _) in LEANS {
            assert!(ids.iter().any(|i| i == id), "{id} is not a catalog id");
        }
    }
}
