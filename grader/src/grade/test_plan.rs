//! The half of a grading run that does not depend on the submission ([`TestPlan`]): the fixtures loaded (or
//! refused, per [`BadFixtures`]), the catalog's items the policy and `--only` select, and their tests planned
//! (random boards from the seed, exact distances, reference baselines). A batch prepares it once and grades
//! the whole class against it.

use std::collections::BTreeSet;
use std::path::Path;

use corpus::Corpus;

use super::error::GradeError;
use super::selection;
use crate::catalog::{self, Item};
use crate::plan::{self, PlannedTest};
use crate::policy::Policy;
use crate::results::{Partial, SkippedFixture};
use crate::style::StyleOptions;

/// What to do when the fixture directory has files that cannot be used (corrupt, unreadable, contradicting
/// `puzzles.toml`) or lacks files the planned tests need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BadFixtures {
    /// Stop before any submission runs: the instructor fixes the directory (the default).
    #[default]
    Refuse,
    /// Grade without them (`--skip-bad-fixtures`): the report's header lists the files skipped, and a test
    /// left without an input it needs is an error (the grader then exits 2 after writing the report).
    Skip,
}

/// The half of a grading run that does not depend on the submission: the policy, the seed, and the tests
/// planned from the fixtures (random boards, exact distances, reference baselines).
///
/// Planning is the costly part of that half and gives the same tests for every student, so a batch prepares
/// one plan and grades the whole class against it, shared by reference across its threads.
#[derive(Debug, Clone)]
pub struct TestPlan {
    pub(super) policy: Policy,
    pub(super) seed: u64,
    pub(super) tests: Vec<PlannedTest>,
    pub(super) skipped_fixtures: Vec<SkippedFixture>,
    pub(super) style: StyleOptions,
    /// Set when `--only` leaves tests out or `--skip-bad-fixtures` fixture files.
    pub(super) partial: Option<Partial>,
}

impl TestPlan {
    /// Loads the fixtures in `fixtures` and plans the tests that `policy` and `only` select (`only` as in
    /// [`GradeOptions::only`](crate::grade::GradeOptions::only)), every random board drawn from `seed`; search
    /// bounds the fixtures' metadata lacks are kept in `work_dir` (the grader's cache, where there is one).
    /// Fixture files that cannot be used, and files the planned tests need that the directory lacks, stop
    /// here unless `bad` is [`BadFixtures::Skip`].
    ///
    /// # Errors
    /// [`GradeError::OnlyMatchesNothing`] or [`GradeError::OnlySkipped`] for an `only` pattern that selects
    /// no test (checked first); [`GradeError::Fixtures`] when the fixture directory cannot be loaded, [`GradeError::NoPuzzles`] when it
    /// holds no puzzle file; with [`BadFixtures::Refuse`], [`GradeError::BadFixtures`] and
    /// [`GradeError::MissingFixtures`].
    pub fn prepare(
        fixtures: &Path,
        seed: u64,
        policy: Policy,
        only: &[String],
        bad: BadFixtures,
        work_dir: Option<&Path>,
    ) -> Result<TestPlan, GradeError> {
        selection::check_only(only, &policy)?;
        let dir = fixtures.to_path_buf();
        let corpus =
            Corpus::load(fixtures).map_err(|e| GradeError::Fixtures { dir: dir.clone(), message: e.to_string() })?;
        if corpus.puzzles.is_empty() && corpus.problems.is_empty() {
            return Err(GradeError::NoPuzzles(dir));
        }
        if bad == BadFixtures::Refuse && !corpus.problems.is_empty() {
            return Err(GradeError::BadFixtures {
                dir,
                problems: corpus.problems.iter().map(|p| p.to_string()).collect(),
            });
        }
        let items = selected_items(&policy, only);
        let mut tests = plan::plan(&items, &corpus, seed, policy.tests.trials_scale, work_dir);
        // Skips may name expanded tests (`timing-*/puzzle4x4-39`), which only exist after planning.
        tests.retain(|test| !Policy::matches(&policy.tests.skip, &test.id));
        if !only.is_empty() {
            tests.retain(|test| test.item.check.is_build() || Policy::matches(only, &test.id));
        }
        let missing = missing_fixtures(&tests);
        if bad == BadFixtures::Refuse && !missing.is_empty() {
            return Err(GradeError::MissingFixtures { dir, missing });
        }
        let skipped_fixtures: Vec<SkippedFixture> =
            corpus.problems.iter().map(|p| SkippedFixture::of(p, &corpus.root)).collect();
        let without = missing.into_iter().chain(skipped_fixtures.iter().map(|s| s.file.clone())).collect();
        let partial = selection::partial(only, &policy, tests.len(), without);
        Ok(TestPlan { policy, seed, tests, skipped_fixtures, style: StyleOptions::default(), partial })
    }

    /// The plan with `style` for the style section of Java submissions.
    pub fn with_style(self, style: StyleOptions) -> TestPlan {
        TestPlan { style, ..self }
    }

    /// Fixture files the planned tests need and the directory lacks (only with [`BadFixtures::Skip`]).
    pub fn missing_fixtures(&self) -> Vec<String> {
        missing_fixtures(&self.tests)
    }

    /// Set when `--only` leaves tests out (how many of the whole run's tests this plan runs) or
    /// `--skip-bad-fixtures` fixture files (which).
    pub fn partial(&self) -> Option<&Partial> {
        self.partial.as_ref()
    }

    /// The planned tests, in catalog order.
    pub fn tests(&self) -> &[PlannedTest] {
        &self.tests
    }

    /// The most boards the reference built in one solve of a puzzle the plan's tests solve (0 where no
    /// trial's counts are known): how large the searches the grade asks of a Solver are.
    pub fn largest_reference_solve(&self) -> u64 {
        let trials = self.tests.iter().flat_map(|t| &t.trials);
        let partners = trials.clone().filter_map(|t| t.partner.as_deref());
        trials.chain(partners).filter_map(|t| t.reference.map(|r| r.boards_constructed)).max().unwrap_or(0)
    }
}

/// Every fixture file some planned test needed and the fixture directory lacks, once each, sorted.
pub(super) fn missing_fixtures(tests: &[PlannedTest]) -> Vec<String> {
    let missing: BTreeSet<&String> = tests.iter().flat_map(|t| &t.missing).collect();
    missing.into_iter().cloned().collect()
}

fn selected_items(policy: &Policy, only: &[String]) -> Vec<Item> {
    catalog::all()
        .into_iter()
        .filter(|item| !Policy::matches(&policy.tests.skip, item.id))
        .filter(|item| only.is_empty() || item.check.is_build() || only_matches(only, item.id))
        .collect()
}

/// Whether an item is needed for `--only` patterns, which may name whole items or expanded tests.
fn only_matches(only: &[String], id: &str) -> bool {
    Policy::matches(only, id)
        || only.iter().any(|p| p.split('/').next().is_some_and(|base| Policy::matches(&[base.to_string()], id)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_timing_puzzles_are_large_searches_and_the_quick_sets_are_not() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles");
        let plan = |policy: Policy| TestPlan::prepare(&fixtures, 1, policy, &[], BadFixtures::Refuse, None).unwrap();
        let whole = plan(Policy::default()).largest_reference_solve();
        assert!(whole > crate::build::LARGE_SEARCH_BOARDS, "{whole}");
        let mut quick = Policy::default();
        // the end-to-end tests' quick policy keeps the lighter timing puzzles (grader/tests/it/support.rs)
        quick.tests.skip = ["20", "21", "22", "24", "25", "26", "27", "28", "29", "34", "35", "36", "37", "39", "40"]
            .iter()
            .chain(&["43", "44", "46"])
            .map(|n| format!("timing-*/puzzle{n}"))
            .collect();
        let light = plan(quick).largest_reference_solve();
        assert!(light > 0 && light < crate::build::LARGE_SEARCH_BOARDS, "{light}");
    }

    #[test]
    fn only_patterns_select_items_by_the_base_of_expanded_ids() {
        let only = |p: &str| only_matches(&[p.to_string()], "timing-2");
        assert!(only("timing-2/puzzle4x4-40"));
        assert!(only("timing-*/puzzle4x4-4*"));
        assert!(only("timing-2"));
        assert!(!only("timing-3/puzzle4x4-40"));
    }
}
