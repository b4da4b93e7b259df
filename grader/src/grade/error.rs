//! The grader's own failures in a grading run ([`GradeError`]): a submission path that does not exist or
//! cannot be built, a fixture directory that cannot be used or lacks files, a style configuration that cannot be
//! read. Each says what to do; a long list of files is cut to its first few. Whatever the submission does
//! wrong is never one of these: it ends up in the report.

use std::path::PathBuf;

use crate::build;
use crate::style::StyleError;

/// The grader's own failures.
#[derive(Debug, thiserror::Error)]
pub enum GradeError {
    /// The submission path could not be built or understood.
    #[error(transparent)]
    Build(#[from] build::BuildError),
    /// An `--only` pattern matches no test of the catalog (a typo, an id that does not exist).
    #[error("--only '{pattern}' matches no test{}", did_you_mean(close))]
    OnlyMatchesNothing {
        #[allow(missing_docs)]
        pattern: String,
        /// Patterns close to it that match tests, closest first.
        close: Vec<String>,
    },
    /// A pattern of the policy's `tests.skip` or `tests.hidden` matches no test of the catalog.
    #[error("the policy's {field} pattern '{pattern}' matches no test{}", did_you_mean(close))]
    PolicyPatternMatchesNothing {
        /// `tests.skip` or `tests.hidden`.
        field: &'static str,
        #[allow(missing_docs)]
        pattern: String,
        /// Patterns close to it that match tests, closest first.
        close: Vec<String>,
    },
    /// An `--only` pattern matches only tests the policy skips (`tests.skip`), so it would grade nothing.
    #[error(
        "--only '{0}' matches only tests the policy skips (tests.skip), so nothing would be graded: choose \
         other tests (`grader catalog` lists them) or take them out of tests.skip"
    )]
    OnlySkipped(String),
    /// Nothing is at the submission's path (a typo in the command, not a student's mistake).
    #[error("`{}` does not exist: give the path of the submission (a folder, or an executable)", .0.display())]
    NoSuchSubmission(PathBuf),
    /// The fixtures could not be loaded.
    #[error(
        "failed to load fixtures from `{dir}`: {message} (fix that, or point --fixtures at another folder of \
         puzzle files)"
    )]
    Fixtures {
        #[allow(missing_docs)]
        dir: PathBuf,
        #[allow(missing_docs)]
        message: String,
    },
    /// The fixture directory holds no puzzle file at all.
    #[error(
        "the fixture directory `{}` holds no puzzle files (`*.txt`): point --fixtures at the puzzle data set \
         (or leave it out: the grader carries its own puzzles)",
        .0.display()
    )]
    NoPuzzles(PathBuf),
    /// Files of the fixture directory cannot be used.
    #[error(
        "{} with the puzzle files in `{}`:\n{}\nfix or remove those files, or pass --skip-bad-fixtures to grade \
         without them (the report then lists them)",
        count(.problems.len(), "problem"),
        dir.display(),
        listed(problems)
    )]
    BadFixtures {
        #[allow(missing_docs)]
        dir: PathBuf,
        /// Each file and its problem (`invalid puzzle file `x`: line 3: …`).
        problems: Vec<String>,
    },
    /// The fixture directory lacks files the planned tests need.
    #[error(
        "the fixture directory `{}` lacks {} the selected tests need: {}\npoint --fixtures at the full data set, \
         or pass --skip-bad-fixtures to grade anyway (the tests that need them are then errors, and the grader \
         exits 2 after writing the report)",
        dir.display(),
        count(missing.len(), "file"),
        abridged(missing)
    )]
    MissingFixtures {
        #[allow(missing_docs)]
        dir: PathBuf,
        /// The file names.
        missing: Vec<String>,
    },
    /// The style section's options cannot be used (an unreadable Checkstyle configuration).
    #[error(transparent)]
    Style(#[from] StyleError),
}

/// The most problems or missing files an error lists before summing up the rest.
const LISTED: usize = 12;

fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn listed(problems: &[String]) -> String {
    let mut lines: Vec<String> = problems.iter().take(LISTED).map(|p| format!("  {p}")).collect();
    if problems.len() > LISTED {
        lines.push(format!("  … and {} more", problems.len() - LISTED));
    }
    lines.join("\n")
}

/// The end of an `--only` error: the close patterns (`. Did you mean 'board-*'?`) and where the ids are listed.
fn did_you_mean(close: &[String]) -> String {
    let quoted: Vec<String> = close.iter().map(|c| format!("'{c}'")).collect();
    match quoted.len() {
        0 => " (`grader catalog` lists them)".into(),
        _ => format!(". Did you mean {}? (`grader catalog` lists them)", quoted.join(", ")),
    }
}

fn abridged(names: &[String]) -> String {
    let mut shown = names.iter().take(LISTED).cloned().collect::<Vec<_>>().join(", ");
    if names.len() > LISTED {
        shown.push_str(&format!(" and {} more", names.len() - LISTED));
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_list_of_fixture_files_is_cut_to_its_first_few() {
        let files = |n: usize| (1..=n).map(|k| format!("puzzle{k:02}.txt")).collect::<Vec<_>>();
        let missing = GradeError::MissingFixtures { dir: "fx".into(), missing: files(14) };
        let text = missing.to_string();
        assert!(text.starts_with("the fixture directory `fx` lacks 14 files the selected tests need: puzzle01.txt, "));
        assert!(text.contains("puzzle12.txt and 2 more\n"), "{text}");
        let bad = GradeError::BadFixtures { dir: "fx".into(), problems: files(1) };
        assert!(bad.to_string().starts_with("1 problem with the puzzle files in `fx`:\n  puzzle01.txt\nfix or remove"));
    }
}
