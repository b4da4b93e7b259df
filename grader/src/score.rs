//! The aggregate score, the official way: compile + API + correctness share + memory share + timing share,
//! each weighted by the policy. Pure arithmetic over test results.
//!
//! Board and Solver correctness share one weight and are counted together, test by test, as the official
//! grader counts "Correctness: 51/51 tests passed". Not-applicable tests leave the count; skipped tests
//! count as not passed. The API category in a language whose compiler enforces the API (all its tests not
//! applicable) earns its weight once the submission compiles.

use crate::policy::Weights;
use crate::results::Category;
use crate::results::{CategoryScore, Score, Status, TestResult};

/// Scores test results under `weights`, filling in each test's `score` and `max_score`.
pub fn score(tests: &mut [TestResult], weights: &Weights) -> Score {
    let compiled = tests.iter().any(|t| t.category == Category::Compile && t.status == Status::Passed);
    let applicable = |c: Category, tests: &[TestResult]| {
        tests.iter().filter(|t| t.category == c && t.status != Status::NotApplicable).count()
    };
    let correctness_total = applicable(Category::Board, tests) + applicable(Category::Solver, tests);
    let mut categories = Vec::new();
    for category in Category::ALL {
        let denominator = applicable(category, tests);
        let weight = match category {
            Category::Board | Category::Solver => weights.correctness * share(denominator, correctness_total),
            Category::Compile => weights.compile,
            Category::Api => weights.api,
            Category::Memory => weights.memory,
            Category::Timing => weights.timing,
            Category::Beyond => weights.beyond,
        };
        // A category with no tests at all (filtered out, or skipped by the policy) is not part of this run.
        let weight = if tests.iter().any(|t| t.category == category) { weight } else { 0.0 };
        let per_test = if denominator == 0 { 0.0 } else { weight / denominator as f64 };
        let mut tally =
            CategoryScore { category, passed: 0, failed: 0, skipped: 0, not_applicable: 0, points: 0.0, weight };
        for t in tests.iter_mut().filter(|t| t.category == category) {
            t.max_score = if t.status == Status::NotApplicable { 0.0 } else { per_test };
            t.score = if t.status == Status::Passed { per_test } else { 0.0 };
            tally.points += t.score;
            match t.status {
                Status::Passed => tally.passed += 1,
                Status::Failed | Status::Error => tally.failed += 1,
                Status::Skipped => tally.skipped += 1,
                Status::NotApplicable => tally.not_applicable += 1,
            }
        }
        if category == Category::Api && denominator == 0 && compiled {
            tally.points = weight;
        }
        categories.push(tally);
    }
    let total = round2(categories.iter().map(|c| c.points).sum());
    let max = round2(categories.iter().map(|c| c.weight).sum());
    for c in &mut categories {
        c.points = round2(c.points);
        c.weight = round2(c.weight);
    }
    for t in tests.iter_mut() {
        t.score = round2(t.score);
        t.max_score = round2(t.max_score);
    }
    Score { total, max, categories }
}

fn share(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Rounds to hundredths, so reports print the same digits on every machine.
pub(crate) fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(category: Category, status: Status) -> TestResult {
        TestResult::bare("t", category, status)
    }

    #[test]
    fn the_official_weights_give_100_for_a_clean_run() {
        let mut tests = vec![
            test(Category::Compile, Status::Passed),
            test(Category::Api, Status::NotApplicable),
            test(Category::Board, Status::Passed),
            test(Category::Board, Status::NotApplicable),
            test(Category::Solver, Status::Passed),
            test(Category::Memory, Status::Passed),
            test(Category::Timing, Status::Passed),
            test(Category::Beyond, Status::Failed),
        ];
        let s = score(&mut tests, &Weights::default());
        assert_eq!((s.total, s.max), (100.0, 100.0));
    }

    #[test]
    fn correctness_is_shared_by_test_count_and_skips_count_as_misses() {
        let mut tests = vec![
            test(Category::Compile, Status::Passed),
            test(Category::Api, Status::NotApplicable),
            test(Category::Board, Status::Passed),
            test(Category::Board, Status::Failed),
            test(Category::Board, Status::Passed),
            test(Category::Solver, Status::Skipped),
        ];
        let s = score(&mut tests, &Weights::default());
        // 2 of 4 correctness tests: 30 of 60; compile 5; API earned (enforced by the compiler): 5.
        assert_eq!(s.total, 40.0);
        let board = s.categories.iter().find(|c| c.category == Category::Board).unwrap();
        assert_eq!((board.passed, board.failed, board.points, board.weight), (2, 1, 30.0, 45.0));
        assert_eq!(tests[2].max_score, 15.0);
    }

    #[test]
    fn a_failed_build_earns_nothing() {
        let mut tests = vec![test(Category::Compile, Status::Failed), test(Category::Api, Status::NotApplicable)];
        assert_eq!(score(&mut tests, &Weights::default()).total, 0.0);
    }
}
