//! The report as a gradebook sees it: one entry per official test (a per-row table such as Timing 2 is one
//! entry holding its 25 rows, as the official report groups them), tests that do not apply left out, and
//! points in whole cents that add up exactly.
//!
//! Why cents: a category's weight is shared among its tests (60 points over 52 correctness tests is 1.1538…
//! each), so per-test points rounded one by one add up to 59.80, not 60, and a gradebook that sums its
//! tests (Gradescope, an LMS) disagrees with the report's own total. Here each category's weight and points
//! (already rounded to cents by [`crate::score`]) are split among its entries by the largest-remainder
//! method, so the entries of a category add up to the category exactly, and the categories to the total.
//! A category whose points no test carries (the API of a language whose compiler enforces it) gets an entry
//! of its own, so no point is lost on the way.

use crate::results::Category;
use crate::results::{Report, Status, TestResult};

/// One gradebook entry: an official test with all its rows, or a test of our own.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry<'a> {
    /// The catalog id without the row (`timing-2`, `board-5a`), or the category's name for a category entry.
    pub id: String,
    /// `Timing 2: Count MinPQ operations`, or the title alone for a test of our own.
    pub name: String,
    #[allow(missing_docs)]
    pub category: Category,
    /// The tests it holds: one, or every applicable row of a table (none for a category entry).
    pub tests: Vec<&'a TestResult>,
    /// Points earned, in cents.
    pub score_cents: u64,
    /// Points available, in cents.
    pub max_cents: u64,
    /// Whether any of its tests is hidden from students until after the deadline.
    pub hidden: bool,
}

impl Entry<'_> {
    /// Whether every test it holds passed (a category entry passes when it earned its points).
    pub fn passed(&self) -> bool {
        if self.tests.is_empty() {
            self.score_cents == self.max_cents
        } else {
            self.tests.iter().all(|t| t.status == Status::Passed)
        }
    }

    /// How many of its tests passed, and of how many.
    pub fn tally(&self) -> (usize, usize) {
        (self.tests.iter().filter(|t| t.status == Status::Passed).count(), self.tests.len())
    }
}

/// The entries of `report`, in catalog order, with exact points.
pub fn entries(report: &Report) -> Vec<Entry<'_>> {
    let mut entries = Vec::new();
    for category in Category::ALL {
        let Some(tally) = report.score.categories.iter().find(|c| c.category == category) else { continue };
        let first = entries.len();
        for test in report.tests_in(category).filter(|t| t.status != Status::NotApplicable) {
            let base = test.id.split_once('/').map_or(test.id.as_str(), |(base, _)| base);
            let open = entries.len() > first;
            match entries.last_mut() {
                Some(Entry { id, tests, hidden, .. }) if open && id == base => {
                    tests.push(test);
                    *hidden |= test.hidden;
                }
                _ => entries.push(Entry {
                    id: base.to_string(),
                    name: match &test.official {
                        Some(official) => format!("{official}: {}", test.title),
                        None => test.title.clone(),
                    },
                    category,
                    tests: vec![test],
                    score_cents: 0,
                    max_cents: 0,
                    hidden: test.hidden,
                }),
            }
        }
        let weight = cents(tally.weight);
        let points = cents(tally.points);
        if entries.len() == first {
            if weight > 0 {
                entries.push(Entry {
                    id: category.name().to_string(),
                    name: match category {
                        Category::Api => "API: enforced by the compiler (the API's traits fix every signature)".into(),
                        _ => category.heading().to_string(),
                    },
                    category,
                    tests: vec![],
                    score_cents: points,
                    max_cents: weight,
                    hidden: false,
                });
            }
            continue;
        }
        // Earned points go to the passed tests and the rest of the weight to the others, each split in
        // proportion: both add up exactly, and no entry earns more than it is worth.
        let ours = &mut entries[first..];
        let (passed, missed): (Vec<u64>, Vec<u64>) = ours
            .iter()
            .map(|e| {
                let (passed, of) = e.tally();
                (passed as u64, (of - passed) as u64)
            })
            .unzip();
        let earned = apportion(points, &passed);
        let lost = apportion(weight.saturating_sub(points), &missed);
        for ((entry, earned), lost) in ours.iter_mut().zip(earned).zip(lost) {
            entry.score_cents = earned;
            entry.max_cents = earned + lost;
        }
    }
    entries
}

/// Whole cents of an amount already rounded to hundredths.
pub fn cents(points: f64) -> u64 {
    (points * 100.0).round().max(0.0) as u64
}

/// Splits `total` into whole parts proportional to `shares`: each part gets the floor of its exact share,
/// then the cents left over go one each to the largest remainders (earlier parts winning ties). The parts
/// add up to `total` whenever any share is non-zero.
pub fn apportion(total: u64, shares: &[u64]) -> Vec<u64> {
    let whole: u128 = shares.iter().map(|&s| u128::from(s)).sum();
    if whole == 0 {
        return vec![0; shares.len()];
    }
    let exact = |i: usize| u128::from(total) * u128::from(shares[i]);
    let mut parts: Vec<u64> = (0..shares.len()).map(|i| (exact(i) / whole) as u64).collect();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(exact(i) % whole));
    let left = total - parts.iter().sum::<u64>();
    for &i in order.iter().take(left as usize) {
        parts[i] += 1;
    }
    parts
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn sixty_points_over_fifty_two_tests_add_up_to_sixty() {
        let parts = apportion(6000, &[1; 52]);
        assert_eq!(parts.iter().sum::<u64>(), 6000);
        assert!(parts.iter().all(|&p| p == 115 || p == 116), "{parts:?}");
    }

    #[test]
    fn shares_split_in_proportion_with_the_largest_remainders_first() {
        // Timing: 20 points over 5 tables of 25 rows is 4 points a table.
        assert_eq!(apportion(2000, &[25; 5]), vec![400; 5]);
        assert_eq!(apportion(100, &[1, 2, 0]), vec![33, 67, 0]);
        assert_eq!(apportion(7, &[0, 0]), vec![0, 0]);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, rng_seed: proptest::test_runner::RngSeed::Fixed(16), ..ProptestConfig::default() })]

        /// Whatever the weights and verdicts, entries add up exactly to the category's points and weight.
        #[test]
        fn points_add_up_exactly(weight in 0u64..20_000, rows in proptest::collection::vec((1u64..30, 0u64..30), 1..60)) {
            let sizes: Vec<u64> = rows.iter().map(|r| r.0).collect();
            let passed: Vec<u64> = rows.iter().map(|r| r.1.min(r.0)).collect();
            let missed: Vec<u64> = sizes.iter().zip(&passed).map(|(n, p)| n - p).collect();
            let (n, p): (u64, u64) = (sizes.iter().sum(), passed.iter().sum());
            let points = ((weight as f64) * (p as f64) / (n as f64)).round() as u64;
            let earned = apportion(points, &passed);
            let lost = apportion(weight - points, &missed);
            prop_assert_eq!(earned.iter().sum::<u64>(), if p > 0 { points } else { 0 });
            prop_assert_eq!(lost.iter().sum::<u64>(), if n > p { weight - points } else { 0 });
            for (i, k) in passed.iter().enumerate() {
                prop_assert!(*k > 0 || earned[i] == 0);
            }
        }
    }
}
