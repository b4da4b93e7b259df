//! The words the text and HTML reports share, so that the page says what the text says: the official
//! summary's tallies (correctness pooled over Board and Solver, as the official report pools it), the
//! weight line, the score line, the grader's problems, the pointer from a failure to the test whose cause
//! explains it, and where `grader explain` tells more. `grader/tests/it/facts.rs` checks that the page
//! carries every fact of the text.

use crate::results::{Category, CategoryScore, Report, RootCause, Status};

/// The categories of one summary line: the official report pools Board and Solver as "Correctness".
const SUMMARY_LINES: [(&str, &[Category]); 6] = [
    ("Compilation", &[Category::Compile]),
    ("API", &[Category::Api]),
    ("Correctness", &[Category::Board, Category::Solver]),
    ("Memory", &[Category::Memory]),
    ("Timing", &[Category::Timing]),
    ("Beyond the official grader", &[Category::Beyond]),
];

/// One line of the official summary: `Correctness: 50/52 tests passed`.
pub struct Tally {
    /// `Compilation`, `Correctness`, …
    pub label: &'static str,
    /// The verdict's words (`PASSED`, `50/52 tests passed`), which a renderer may color by `status`.
    pub verdict: String,
    /// Passed, failed, or neither (`not applicable`).
    pub status: Option<Status>,
    /// What follows the verdict uncolored: ` (not scored)`, ` (the language's types fix the API)`, ...
    pub after: &'static str,
}

/// The official summary's lines, in its order (the style tools' lines go before Correctness); a line whose
/// categories hold no test is left out.
pub fn tallies(report: &Report) -> Vec<Tally> {
    let mut lines = Vec::new();
    for (label, categories) in SUMMARY_LINES {
        let parts: Vec<&CategoryScore> =
            report.score.categories.iter().filter(|c| categories.contains(&c.category)).collect();
        let (passed, failed, skipped, not_applicable) = parts.iter().fold((0, 0, 0, 0), |acc, c| {
            (acc.0 + c.passed, acc.1 + c.failed, acc.2 + c.skipped, acc.3 + c.not_applicable)
        });
        let counted = passed + failed + skipped;
        let points: f64 = parts.iter().map(|c| c.points).sum();
        let weight: f64 = parts.iter().map(|c| c.weight).sum();
        let tally = |verdict: &str, status, after| Tally { label, verdict: verdict.to_string(), status, after };
        lines.push(match (counted, label) {
            (0, "API") if points > 0.0 => tally("PASSED", Some(Status::Passed), api_unchecked(report)),
            (0, _) if not_applicable > 0 => tally("not applicable", None, ""),
            (0, _) => continue,
            (_, "Compilation" | "API") if failed + skipped == 0 => tally("PASSED", Some(Status::Passed), ""),
            (_, "Compilation" | "API") => tally("FAILED", Some(Status::Failed), ""),
            _ => {
                let status = if passed == counted { Status::Passed } else { Status::Failed };
                let scored = if weight > 0.0 { "" } else { " (not scored)" };
                tally(&format!("{passed}/{counted} tests passed"), Some(status), scored)
            }
        });
    }
    lines
}

/// Why the API line passes with no test run: the language's own rules fix the API (Rust's traits), or it
/// has no way to mark a method beyond it (Python: no method is private).
fn api_unchecked(report: &Report) -> &'static str {
    match report.submission.language.as_str() {
        "python" => " (not checked: Python has no private methods to tell an extra public one by)",
        _ => " (the language's types fix the API)",
    }
}

/// The score line: `Aggregate score: 87.50%`, the visible tests' score when hidden tests are left out, or
/// none when the run is not graded.
pub fn score_line(report: &Report) -> String {
    if report.not_graded.is_some() {
        return "Aggregate score: none (not graded)".into();
    }
    if let Some(partial) = &report.partial {
        return format!(
            "Partial score: {:.2}% over {}{}; not the assignment's grade",
            report.score.percent(),
            partial.describe(),
            if report.withheld > 0 { ", the tests hidden until the due date left out" } else { "" }
        );
    }
    if report.withheld > 0 {
        return format!(
            "Score of the visible tests: {:.2}% ({} hidden until the due date, and the aggregate score with them)",
            report.score.percent(),
            crate::results::plural(report.withheld, "test")
        );
    }
    format!("Aggregate score: {:.2}%", report.score.percent())
}

/// The weight line: the weights the score uses. Under the official weights it says what the official
/// report prints instead (Timing 10%, Memory 20%), although every official aggregate is computed, as ours is,
/// with Memory 10% and Timing 20% (specs/policy.md). In a partial run the weights are the policy's over the
/// sections run, and the line says so.
pub fn weight_line(categories: &[CategoryScore], partial: bool) -> String {
    let weight =
        |of: &[Category]| categories.iter().filter(|c| of.contains(&c.category)).map(|c| c.weight).sum::<f64>();
    let weights: Vec<f64> = SUMMARY_LINES.iter().map(|(_, of)| weight(of)).collect();
    let official = [5.0, 5.0, 60.0, 10.0, 20.0, 0.0];
    if weights.iter().zip(official).all(|(w, o)| (w - o).abs() < 0.005) {
        return "[ Compilation: 5%, API: 5%, Style: 0%, Correctness: 60%, Memory: 10%, Timing: 20% ] (the official \
                report prints \"Timing: 10%, Memory: 20%\" but computes its score with these, as this one does)"
            .into();
    }
    let total: f64 = weights.iter().sum();
    let parts: Vec<String> = SUMMARY_LINES
        .iter()
        .zip(&weights)
        .filter(|(_, &w)| w > 0.0)
        .map(|((label, _), w)| format!("{label}: {:.2}%", if total > 0.0 { 100.0 * w / total } else { 0.0 }))
        .collect();
    let whose =
        if partial { "this course's policy over the sections this partial run graded" } else { "this course's policy" };
    format!("[ {} ] ({whose})", parts.join(", "))
}

/// The grader's own problems with this run, each a line starting `GRADER PROBLEM: ` (fixture files missing,
/// tests the machine stalled twice, fixture files skipped), with the skipped files listed after their line.
pub fn problems(report: &Report) -> Vec<(String, Vec<String>)> {
    let mut lines = Vec::new();
    if !report.missing_fixtures.is_empty() {
        let line = format!(
            "GRADER PROBLEM: the fixture directory has no usable {} (a test left with none of its inputs is an \
             error, not the submission's failure; one left with some ran on those alone, the others marked \
             `(missing)`)",
            report.missing_fixtures.join(", ")
        );
        lines.push((line, vec![]));
    }
    if !report.machine_stalls.is_empty() {
        lines.push((format!("GRADER PROBLEM: {}", report.stalls_line()), vec![]));
    }
    if !report.skipped_fixtures.is_empty() {
        let line = format!(
            "GRADER PROBLEM: {} could not be used and {} skipped (--skip-bad-fixtures):",
            crate::results::plural(report.skipped_fixtures.len(), "fixture file"),
            if report.skipped_fixtures.len() == 1 { "was" } else { "were" }
        );
        let files = report.skipped_fixtures.iter().map(|s| format!("{}: {}", s.file, s.problem)).collect();
        lines.push((line, files));
    }
    lines
}

/// What a failure explained by a root cause says instead of guessing a cause of its own: `see board-2a
/// first: toString() is wrong there, and this test reads boards through it`.
pub fn see_first(cause: &RootCause, test: &str) -> String {
    let why = if cause.repeats.iter().any(|id| id == test) {
        "the same fault; fix it there first"
    } else {
        "and this test reads boards through it"
    };
    format!("see {} first: {} is wrong there, {why}", cause.test, cause.method.call())
}

/// The fix-first list, one line a cause, in fixing order: the count causes (`manhattan() is called 5.4-9.3×
/// the allowed on 8/8 puzzles (Timing 4b): cache it: …`), then the broken Board methods (`manhattan() is
/// wrong (board-2a); board-15 fails because of it`).
pub fn fix_first_lines(report: &Report) -> Vec<String> {
    let counts = report.count_causes.iter().map(crate::results::CountCause::summary);
    let methods = report.fix_first.iter().map(|cause| {
        format!(
            "{} is wrong ({}); {} {} because of it",
            cause.method.call(),
            cause.test,
            cause.explains.join(", "),
            if cause.explains.len() == 1 { "fails" } else { "fail" }
        )
    });
    counts.chain(methods).collect()
}

/// Where the hints are, when some test failed: `For what a test checks and why it usually fails: grader
/// explain ID (e.g. grader explain board-2a)`, naming the first failing test.
pub fn explain_line(report: &Report) -> Option<String> {
    let first = report.tests.iter().find(|t| matches!(t.status, Status::Failed | Status::Error))?;
    let base = first.id.split('/').next().unwrap_or(&first.id);
    Some(format!("For what a test checks and why it usually fails: grader explain ID (e.g. grader explain {base})"))
}
