//! A partial run: one that graded only part of what a whole run grades, by the instructor's choice. Two
//! choices make one: `--only`, which narrows the tests, and `--skip-bad-fixtures`, which grades without the
//! fixture files that could not be used or that the tests needed and the directory lacks (those tests are
//! then not run, or are errors). Either way the score is no grade for the assignment, so every report format
//! says so at its top and in its score line, the gradebook has it in its `partial` column, and the LMS
//! imports are not written without `--allow-partial` (with it, they say partial).

use serde::{Deserialize, Serialize};

/// How many left-out fixture files [`Partial::describe`] names before it counts the rest.
const NAMED_FIXTURES: usize = 3;

/// What a partial run left out ([module doc](self)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Partial {
    /// The `--only` patterns, as given; empty when `--only` was not given.
    pub only: Vec<String>,
    /// Tests run, the build's included.
    pub tests_run: usize,
    /// Tests a run without `--only` grades under the same policy (its `tests.skip` left out) and these
    /// fixtures.
    pub tests_total: usize,
    /// Fixture files graded without (`--skip-bad-fixtures`): those that could not be used and those the tests
    /// needed that the directory lacks, by name, sorted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub without_fixtures: Vec<String>,
}

impl Partial {
    /// What a run with `only` (possibly none) that ran `tests_run` of the `tests_total` tests a run without
    /// `--only` grades, and graded without the fixture files `without_fixtures` (`--skip-bad-fixtures`), is:
    /// partial when `--only` left tests out or any fixture file was left out, `None` for a whole run.
    pub fn of(
        only: &[String],
        tests_run: usize,
        tests_total: usize,
        mut without_fixtures: Vec<String>,
    ) -> Option<Partial> {
        without_fixtures.sort();
        without_fixtures.dedup();
        let narrowed = !only.is_empty() && tests_run < tests_total;
        (narrowed || !without_fixtures.is_empty()).then(|| Partial {
            only: if narrowed { only.to_vec() } else { vec![] },
            tests_run,
            tests_total,
            without_fixtures,
        })
    }

    /// What was graded, a phrase that follows "only" or "over": `9 of the 229 tests (--only 'board-1*')`,
    /// `the tests possible without puzzle36.txt (--skip-bad-fixtures)`, or both.
    pub fn describe(&self) -> String {
        match (self.narrowed(), self.fixtures_left_out()) {
            (Some(tests), None) => tests,
            (None, Some(fixtures)) => format!("the tests possible {fixtures}"),
            (Some(tests), Some(fixtures)) => format!("{tests}, {fixtures}"),
            (None, None) => format!("{} tests", self.tests_run),
        }
    }

    /// How to grade the whole assignment instead, after "grade" or "grade the class": `without --only`.
    pub fn remedy(&self) -> &'static str {
        match (self.only.is_empty(), self.without_fixtures.is_empty()) {
            (false, true) => "without --only",
            (true, _) => "with every fixture file usable, without --skip-bad-fixtures",
            (false, false) => "without --only, with every fixture file usable and without --skip-bad-fixtures",
        }
    }

    /// The line every report puts at its top: what was run, and that the score is not the assignment's grade.
    pub fn headline(&self) -> String {
        // a test that needs a missing file is run, as an error that scores as failed: the score is not over
        // the tests possible alone
        let over = if self.without_fixtures.is_empty() { "over those alone, " } else { "" };
        format!(
            "PARTIAL RUN: only {} were run; the score is {over}not the assignment's grade (grade {} for that)",
            self.describe(),
            self.remedy()
        )
    }

    /// A short mark for a column heading: `[partial: 9 of 229 tests]`, `[partial: without 2 fixture files]`.
    pub fn mark(&self) -> String {
        let tests = (!self.only.is_empty()).then(|| format!("{} of {} tests", self.tests_run, self.tests_total));
        let files = (!self.without_fixtures.is_empty())
            .then(|| format!("without {}", super::details::plural(self.without_fixtures.len(), "fixture file")));
        let parts: Vec<String> = tests.into_iter().chain(files).collect();
        format!("[partial: {}]", parts.join(", "))
    }

    /// `9 of the 229 tests (--only 'board-1*')`, when `--only` left tests out.
    fn narrowed(&self) -> Option<String> {
        let patterns: Vec<String> = self.only.iter().map(|p| format!("'{p}'")).collect();
        (!self.only.is_empty())
            .then(|| format!("{} of the {} tests (--only {})", self.tests_run, self.tests_total, patterns.join(" ")))
    }

    /// `without puzzle36.txt and puzzle99.txt (--skip-bad-fixtures)`, when fixture files were left out.
    fn fixtures_left_out(&self) -> Option<String> {
        let files = &self.without_fixtures;
        let named = files.iter().take(NAMED_FIXTURES).cloned().collect::<Vec<_>>();
        let list = match (named.as_slice(), files.len() - named.len()) {
            ([], _) => return None,
            ([one], 0) => one.clone(),
            (_, 0) => format!("{} and {}", named[..named.len() - 1].join(", "), named[named.len() - 1]),
            (_, more) => format!("{} and {}", named.join(", "), super::details::plural(more, "more file")),
        };
        Some(format!("without {list} (--skip-bad-fixtures)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| n.to_string()).collect()
    }

    #[test]
    fn a_run_is_partial_when_only_narrows_it_or_a_fixture_file_is_left_out() {
        assert_eq!(Partial::of(&[], 229, 229, vec![]), None);
        assert_eq!(Partial::of(&files(&["*"]), 229, 229, vec![]), None, "a pattern that selects all");
        let only = Partial::of(&files(&["board-1*"]), 9, 229, vec![]).expect("partial");
        assert_eq!(only.describe(), "9 of the 229 tests (--only 'board-1*')");
        assert_eq!(only.mark(), "[partial: 9 of 229 tests]");
        let fixtures = Partial::of(&[], 225, 225, files(&["puzzle99.txt", "puzzle36.txt"])).expect("partial");
        assert_eq!(
            fixtures.describe(),
            "the tests possible without puzzle36.txt and puzzle99.txt (--skip-bad-fixtures)"
        );
        assert_eq!(fixtures.mark(), "[partial: without 2 fixture files]");
        let all = Partial::of(&files(&["*"]), 225, 225, files(&["puzzle36.txt"])).expect("partial");
        assert!(all.only.is_empty(), "--only that selects all narrows nothing: {all:?}");
        let both = Partial::of(&files(&["timing-*"]), 30, 225, files(&["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"]));
        let both = both.expect("partial");
        assert_eq!(
            both.describe(),
            "30 of the 225 tests (--only 'timing-*'), without a.txt, b.txt, c.txt and 2 more files (--skip-bad-fixtures)"
        );
        assert_eq!(both.mark(), "[partial: 30 of 225 tests, without 5 fixture files]");
    }

    #[test]
    fn the_headline_says_what_to_do_for_the_whole_grade() {
        let only = Partial::of(&files(&["board-1a"]), 2, 229, vec![]).expect("partial");
        assert_eq!(
            only.headline(),
            "PARTIAL RUN: only 2 of the 229 tests (--only 'board-1a') were run; the score is over those alone, not \
             the assignment's grade (grade without --only for that)"
        );
        let fixtures = Partial::of(&[], 225, 225, files(&["puzzle36.txt"])).expect("partial");
        let headline = fixtures.headline();
        assert!(headline.starts_with("PARTIAL RUN: only the tests possible without puzzle36.txt (--skip-bad-fixtures)"));
        assert!(headline.ends_with(
            "the score is not the assignment's grade (grade with every fixture file usable, without \
             --skip-bad-fixtures for that)"
        ));
    }

    #[test]
    fn a_partial_run_of_an_older_gradebook_reads_without_the_fixtures_field() {
        let old = r#"{"only":["board-1*"],"tests_run":9,"tests_total":229}"#;
        let partial: Partial = serde_json::from_str(old).expect("an older gradebook's partial");
        assert!(partial.without_fixtures.is_empty());
        assert_eq!(serde_json::to_string(&partial).unwrap(), old, "written as before when no fixture is left out");
    }
}
