//! What `--only` selects. Each pattern is checked against the catalog's test ids before anything runs: one
//! that matches no test (a typo: `bord-*`, `board-99`) is the user's error, named with the closest ids,
//! never a run that grades the build alone and scores it 100%. A run that `--only` narrows is [`Partial`]:
//! it knows how many of the whole run's tests it ran, which every report and gradebook shows.

use super::error::GradeError;
use crate::catalog::{self, Item};
use crate::catalog_doc::closest;
use crate::policy::Policy;
use crate::results::Partial;

/// Suggestions named for a pattern that matches nothing, at most.
const MAX_SUGGESTIONS: usize = 5;

/// Checks every `--only` pattern, each on its own: it must match a test of the catalog (an id, a row of an
/// official table, or a prefix pattern ending in `*`) that the policy does not skip.
///
/// # Errors
/// [`GradeError::OnlyMatchesNothing`] for the first pattern that matches no test, with the closest ids;
/// [`GradeError::OnlySkipped`] for one that matches only tests the policy skips.
pub fn check_only(only: &[String], policy: &Policy) -> Result<(), GradeError> {
    let all = catalog::all();
    let ids = catalog::test_ids(&all);
    policy_patterns_match(policy, &all, &ids)?;
    for pattern in only {
        let selects = |id: &String| Policy::matches(std::slice::from_ref(pattern), id);
        if !ids.iter().any(selects) {
            return Err(GradeError::OnlyMatchesNothing { pattern: pattern.clone(), close: suggestions(pattern, &all) });
        }
        if !ids.iter().filter(|id| !Policy::matches(&policy.tests.skip, id)).any(selects) {
            return Err(GradeError::OnlySkipped(pattern.clone()));
        }
    }
    Ok(())
}

/// Checks the policy's `tests.skip` and `tests.hidden` patterns as `--only`'s are checked: each must match a
/// test of the catalog. A typo there (`bord-2*`) once left the tests it meant to hide shown to students.
///
/// # Errors
/// [`GradeError::PolicyPatternMatchesNothing`] for the first pattern that matches no test.
pub fn check_policy_patterns(policy: &Policy) -> Result<(), GradeError> {
    let all = catalog::all();
    policy_patterns_match(policy, &all, &catalog::test_ids(&all))
}

/// [`check_policy_patterns`] against the catalog's items and test ids, built once by the caller.
fn policy_patterns_match(policy: &Policy, all: &[Item], ids: &[String]) -> Result<(), GradeError> {
    for (field, patterns) in [("tests.skip", &policy.tests.skip), ("tests.hidden", &policy.tests.hidden)] {
        for pattern in patterns {
            if !ids.iter().any(|id| Policy::matches(std::slice::from_ref(pattern), id)) {
                return Err(GradeError::PolicyPatternMatchesNothing {
                    field,
                    pattern: pattern.clone(),
                    close: suggestions(pattern, all),
                });
            }
        }
    }
    Ok(())
}

/// What a run with `only` that ran `tests_run` tests and graded without the fixture files `without_fixtures`
/// (`--skip-bad-fixtures`) is: [`Partial`] when `only` left out tests a run without `--only` grades under
/// `policy`, or a fixture file was left out; `None` when it is the whole run.
pub fn partial(only: &[String], policy: &Policy, tests_run: usize, without_fixtures: Vec<String>) -> Option<Partial> {
    let tests_total = if only.is_empty() {
        tests_run
    } else {
        let ids = catalog::test_ids(&catalog::all());
        ids.iter().filter(|id| !Policy::matches(&policy.tests.skip, id)).count()
    };
    Partial::of(only, tests_run, tests_total, without_fixtures)
}

/// Patterns close to one that matches nothing, each of which matches a test: for `bord-*`, the catalog's
/// prefixes nearest its fixed head (`board-*`); for an id, the ids nearest it (`board-99` → `board-9`).
/// A pattern that names a row (`timing-2/puzzle99`) is compared with the rows' ids.
fn suggestions(pattern: &str, items: &[Item]) -> Vec<String> {
    let ids: Vec<String> = if pattern.contains('/') {
        catalog::test_ids(items)
    } else {
        items.iter().map(|item| item.id.to_string()).collect()
    };
    let close = match pattern.split_once('*') {
        None => closest(pattern, &ids),
        Some((head, _)) => {
            let tail = &pattern[head.len()..];
            let heads: Vec<String> = ids
                .iter()
                .flat_map(|id| {
                    let lengths = head.len().saturating_sub(1)..=head.len() + 1;
                    lengths.filter(|&k| id.is_char_boundary(k) && k <= id.len()).map(|k| id[..k].to_string())
                })
                .collect();
            closest(head, &heads).into_iter().map(|head| format!("{head}{tail}")).collect()
        }
    };
    let all_ids = catalog::test_ids(items);
    let mut matching: Vec<String> = Vec::new();
    for candidate in close {
        let useful = all_ids.iter().any(|id| Policy::matches(std::slice::from_ref(&candidate), id));
        if useful && !matching.contains(&candidate) {
            matching.push(candidate);
        }
    }
    matching.truncate(MAX_SUGGESTIONS);
    matching
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    /// What a pattern gives: `Ok` when it selects tests, else the error's text.
    fn checked(pattern: &str, policy: &Policy) -> Result<(), String> {
        check_only(&[pattern.to_string()], policy).map_err(|e| e.to_string())
    }

    #[rstest]
    #[case::a_prefix_with_a_typo("bord-*", "--only 'bord-*' matches no test. Did you mean 'board-*'?")]
    #[case::an_id_past_the_last("board-99", "--only 'board-99' matches no test. Did you mean")]
    #[case::a_row_that_is_no_official_puzzle("timing-2/puzzle99", "Did you mean 'timing-2/puzzle29'")]
    #[case::nothing_like_it("zzzzzzzzzz", "--only 'zzzzzzzzzz' matches no test (`grader catalog` lists")]
    fn a_pattern_that_matches_no_test_is_named_with_the_closest(#[case] pattern: &str, #[case] says: &str) {
        let error = checked(pattern, &Policy::default()).unwrap_err();
        assert!(error.contains(says), "{error}");
        assert!(error.contains("`grader catalog`"), "{error}");
    }

    #[rstest]
    #[case::an_id("board-1a")]
    #[case::a_prefix("board-1*")]
    #[case::an_item_of_rows("timing-2")]
    #[case::a_row("timing-2/puzzle20")]
    #[case::rows_of_every_table("timing-*/puzzle4*")]
    #[case::the_build_alone("compile-1")]
    fn a_pattern_that_matches_a_test_passes(#[case] pattern: &str) {
        assert_eq!(checked(pattern, &Policy::default()), Ok(()));
    }

    #[test]
    fn each_pattern_is_checked_on_its_own() {
        let only = ["board-1a".to_string(), "solvr-1".to_string()];
        let error = check_only(&only, &Policy::default()).unwrap_err().to_string();
        assert!(error.starts_with("--only 'solvr-1' matches no test. Did you mean 'solver-1'"), "{error}");
    }

    /// The policy's own patterns are checked as `--only`'s: a typo in `tests.hidden` showed students the
    /// tests it meant to hide.
    #[rstest]
    #[case::hidden("hidden", "the policy's tests.hidden pattern 'bord-2*' matches no test. Did you mean 'board-2*'")]
    #[case::skipped("skip", "the policy's tests.skip pattern 'bord-2*' matches no test. Did you mean 'board-2*'")]
    fn a_policy_pattern_that_matches_no_test_is_refused(#[case] field: &str, #[case] says: &str) {
        let mut policy = Policy::default();
        let patterns = vec!["board-1b".to_string(), "bord-2*".to_string()];
        if field == "hidden" {
            policy.tests.hidden = patterns;
        } else {
            policy.tests.skip = patterns;
        }
        let error = check_policy_patterns(&policy).unwrap_err().to_string();
        assert!(error.starts_with(says), "{error}");
        assert_eq!(checked("board-1a", &policy).unwrap_err(), error, "every run checks them");
    }

    #[test]
    fn a_pattern_of_skipped_tests_alone_is_refused() {
        let mut policy = Policy::default();
        policy.tests.skip = vec!["board-1*".into()];
        let error = checked("board-1a", &policy).unwrap_err();
        assert!(error.contains("only tests the policy skips"), "{error}");
        assert_eq!(checked("board-*", &policy), Ok(()), "board-2a and others remain");
    }

    #[test]
    fn a_run_is_partial_when_only_leaves_tests_out() {
        let policy = Policy::default();
        let total = catalog::test_ids(&catalog::all()).len();
        assert_eq!(partial(&[], &policy, 2, vec![]), None);
        assert_eq!(partial(&["*".into()], &policy, total, vec![]), None, "a pattern that selects all is a whole run");
        let run = partial(&["board-1a".into()], &policy, 2, vec![]).expect("partial");
        assert_eq!((run.tests_run, run.tests_total), (2, total));
        assert_eq!(run.describe(), format!("2 of the {total} tests (--only 'board-1a')"));
    }
}
