//! The text report, shaped like the official one: a summary with per-category counts and the aggregate
//! score, then each test with its inputs and `==> passed` / `==> FAILED`.
//!
//! Long lists are bounded (inputs, messages, the program's output), so a report stays readable whatever
//! the submission did. Colors only when asked (a terminal without `NO_COLOR`).

use std::fmt::Write;

use crate::catalog::Category;
use crate::results::{Report, Status, TestResult};

/// Input rows shown per test before the rest are summarized.
const MAX_INPUT_ROWS: usize = 12;
/// Message lines shown per test.
const MAX_MESSAGE_LINES: usize = 40;
/// Bytes of the program's stderr shown.
const MAX_OUTPUT_BYTES: usize = 8 * 1024;

/// Renders the text report.
pub fn render(report: &Report, color: bool) -> String {
    let mut out = String::new();
    summary(&mut out, report, color);
    for category in Category::ALL {
        let tests: Vec<&TestResult> = report.tests_in(category).collect();
        if tests.is_empty() || (category == Category::Compile && report.compile_log.is_none()) {
            continue;
        }
        banner(&mut out, category.heading());
        for test in &tests {
            test_block(&mut out, test, color);
        }
        if let (Category::Compile, Some(log)) = (category, &report.compile_log) {
            let _ = writeln!(out, "The compiler's output:\n\n{}\n", bounded(log, MAX_OUTPUT_BYTES));
        }
        let passed = tests.iter().filter(|t| t.status == Status::Passed).count();
        let counted = tests.iter().filter(|t| t.status != Status::NotApplicable).count();
        let _ = writeln!(out, "Total: {passed}/{counted} tests passed{}\n", if passed == counted { "!" } else { "" });
    }
    if !report.output.is_empty() {
        banner(&mut out, "Output of the submission on standard error");
        let _ = writeln!(out, "{}", bounded(&report.output, MAX_OUTPUT_BYTES));
        if report.output_truncated {
            let _ = writeln!(out, "(output truncated)");
        }
    }
    out
}

fn summary(out: &mut String, report: &Report, color: bool) {
    let _ = writeln!(out, "ASSESSMENT SUMMARY\n");
    let _ = writeln!(out, "Submission:  {} ({})", report.submission.name, report.submission.language);
    let _ = writeln!(out, "Seed:        {}\n", report.seed);
    for c in &report.score.categories {
        let counted = c.passed + c.failed + c.skipped;
        let label = format!("{}:", c.category.heading());
        let verdict = match (counted, c.category) {
            (0, Category::Api) if c.points > 0.0 => {
                format!("{} (the language's types fix the API)", paint("PASSED", Status::Passed, color))
            }
            (0, _) if c.not_applicable > 0 => "not applicable".to_string(),
            (0, _) => continue,
            (_, Category::Compile | Category::Api) if c.failed + c.skipped == 0 => {
                paint("PASSED", Status::Passed, color)
            }
            (_, Category::Compile | Category::Api) => paint("FAILED", Status::Failed, color),
            _ => {
                let word = if c.passed == counted { Status::Passed } else { Status::Failed };
                paint(&format!("{}/{} tests passed", c.passed, counted), word, color)
            }
        };
        let _ = writeln!(out, "{label:<52} {verdict}");
    }
    let _ = writeln!(
        out,
        "\nAggregate score: {:.2}% [{}]\n",
        report.score.percent(),
        report
            .score
            .categories
            .iter()
            .filter(|c| c.weight > 0.0)
            .map(|c| format!("{}: {:.2}/{:.2}", c.category.name(), c.points, c.weight))
            .collect::<Vec<_>>()
            .join(", ")
    );
}

fn banner(out: &mut String, title: &str) {
    let line = "*".repeat(78);
    let _ = writeln!(out, "{line}\n*  {title}\n{line}\n");
}

fn test_block(out: &mut String, test: &TestResult, color: bool) {
    let name = test.official.as_deref().map(|o| format!("{o}: ")).unwrap_or_default();
    if test.status == Status::Skipped {
        // One line: the reason is the dependency, and a failed build skips nearly everything.
        let _ = writeln!(
            out,
            "{name}{}  [{}]  ==> {} ({})\n",
            test.title,
            test.id,
            paint("skipped", test.status, color),
            test.message.trim_start_matches("skipped: ")
        );
        return;
    }
    let _ = writeln!(out, "{name}{}  [{}]", test.title, test.id);
    for input in test.inputs.iter().take(MAX_INPUT_ROWS) {
        let _ = writeln!(out, "  * {input}");
    }
    if test.inputs.len() > MAX_INPUT_ROWS {
        let _ = writeln!(out, "  * … and {} more", test.inputs.len() - MAX_INPUT_ROWS);
    }
    for row in &test.rows {
        let _ = writeln!(out, "    {row}");
    }
    let lines: Vec<&str> = test.message.lines().collect();
    for line in lines.iter().take(MAX_MESSAGE_LINES) {
        let _ = writeln!(out, "  - {line}");
    }
    if lines.len() > MAX_MESSAGE_LINES {
        let _ = writeln!(out, "  - … ({} more lines)", lines.len() - MAX_MESSAGE_LINES);
    }
    let _ = writeln!(out, "==> {}\n", paint(test.status.word(), test.status, color));
}

fn paint(text: &str, status: Status, color: bool) -> String {
    if !color {
        return text.to_string();
    }
    let code = match status {
        Status::Passed => "32",
        Status::Failed | Status::Error => "31",
        Status::Skipped | Status::NotApplicable => "33",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.trim_end().to_string();
    }
    format!("{}\n… ({} more bytes)", &text[..text.floor_char_boundary(max)], text.len() - max)
}
