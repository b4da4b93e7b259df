//! The text report, shaped like the official one: a summary with the official tallies (correctness pooled
//! over Board and Solver, memory pooled over its three tables) and the aggregate score, then each test with
//! its inputs and `==> passed` / `==> FAILED`. Tests that are rows of one official table print as that table:
//! a heading, one `=> passed` / `=> FAILED` line per row, and `==> k/N tests passed`.
//!
//! Long lists are bounded (inputs, messages, the program's output), so a report stays readable whatever
//! the submission did. Colors only when asked (a terminal without `NO_COLOR`). Whatever the submission
//! wrote (its name, messages, rows, output, the compiler's echo of its code) is shown through
//! [`visible`], so no escape in it reaches the reader's terminal.

use std::fmt::Write;

use super::{summary, visible};
use crate::results::Category;
use crate::results::{Report, Status, TestResult};

/// Input rows shown per test before the rest are summarized.
const MAX_INPUT_ROWS: usize = 12;
/// Message lines shown per test.
const MAX_MESSAGE_LINES: usize = 40;
/// Bytes of the program's stderr shown.
const MAX_OUTPUT_BYTES: usize = 8 * 1024;
/// Findings listed per style tool.
const MAX_FINDINGS: usize = 40;

/// Renders the text report; `failures_only` leaves out the tests that passed, did not apply or were skipped
/// (the summary and the fix-first list stay).
pub fn render(report: &Report, color: bool, failures_only: bool) -> String {
    let mut out = String::new();
    summary(&mut out, report, color);
    if report.not_graded.is_some() && report.tests.is_empty() {
        files(&mut out, report);
        return out;
    }
    fix_first(&mut out, report);
    if let Some(line) = summary::explain_line(report) {
        let _ = writeln!(out, "{line}\n");
    }
    files(&mut out, report);
    for category in Category::ALL {
        let all: Vec<&TestResult> = report.tests_in(category).collect();
        let failing = |t: &TestResult| matches!(t.status, Status::Failed | Status::Error);
        let tests: Vec<&TestResult> = if failures_only {
            // A table stays whole when one of its rows failed: the passing rows are the comparison.
            let failing_tables: Vec<&str> =
                all.iter().filter(|t| failing(t)).filter_map(|t| t.id.split_once('/').map(|(base, _)| base)).collect();
            all.iter()
                .filter(|t| failing(t) || t.id.split_once('/').is_some_and(|(base, _)| failing_tables.contains(&base)))
                .copied()
                .collect()
        } else {
            all.clone()
        };
        if category == Category::Compile {
            compiling(&mut out, report, &tests, color, failures_only);
            continue;
        }
        if category == Category::Board {
            if let Some(style) = report.details.style.as_ref().filter(|_| !failures_only) {
                style_section(&mut out, style);
            }
        }
        if tests.is_empty() {
            continue;
        }
        banner(&mut out, category.heading());
        let _ = writeln!(out, "Running {} total {}.\n", all.len(), if all.len() == 1 { "test" } else { "tests" });
        let mut rest = &tests[..];
        while let Some(first) = rest.first() {
            let table = rest.iter().take_while(|t| t.row.is_some() && t.official == first.official).count();
            if table > 0 {
                table_block(&mut out, &rest[..table], color);
                rest = &rest[table..];
            } else {
                test_block(&mut out, first, report, color);
                rest = &rest[1..];
            }
        }
        let passed = all.iter().filter(|t| t.status == Status::Passed).count();
        let counted = all.iter().filter(|t| t.status != Status::NotApplicable).count();
        let _ = writeln!(out, "Total: {passed}/{counted} tests passed{}\n", if passed == counted { "!" } else { "" });
    }
    if !report.output.is_empty() {
        banner(&mut out, "What the submission printed (its standard output and error)");
        let _ = writeln!(out, "{}", visible::block(&head_and_tail(&report.output, MAX_OUTPUT_BYTES)));
        if report.output_truncated {
            let _ = writeln!(out, "(output truncated)");
        }
    }
    out
}

fn summary(out: &mut String, report: &Report, color: bool) {
    let _ = writeln!(out, "ASSESSMENT SUMMARY\n");
    let _ = writeln!(
        out,
        "Submission:  {} ({})",
        visible::line(&report.submission.name),
        visible::line(&report.submission.language)
    );
    let _ = writeln!(out, "Seed:        {}\n", report.seed);
    if let Some(partial) = &report.partial {
        let _ = writeln!(out, "{}\n", partial.headline());
    }
    if let Some(not_graded) = &report.not_graded {
        let _ = writeln!(out, "NOT GRADED: {}\n", visible::block(&not_graded.reason));
    }
    for note in &report.notes {
        let _ = writeln!(out, "Note: {}\n", visible::block(note));
    }
    for (line, listed) in summary::problems(report) {
        let _ = writeln!(out, "{line}");
        for item in listed {
            let _ = writeln!(out, "  {item}");
        }
        let _ = writeln!(out);
    }
    let tallies = summary::tallies(report);
    // the style tools' lines go between API and the rest, as the official summary prints them
    let style_at = tallies.iter().position(|t| !matches!(t.label, "Compilation" | "API")).unwrap_or(tallies.len());
    for (at, tally) in tallies.iter().enumerate() {
        if at == style_at {
            style_summary(out, report, color);
        }
        let verdict = match tally.status {
            Some(status) => paint(&tally.verdict, status, color),
            None => tally.verdict.clone(),
        };
        let _ = writeln!(out, "{:<28} {verdict}{}", format!("{}:", tally.label), tally.after);
    }
    if style_at == tallies.len() {
        style_summary(out, report, color);
    }
    let gap = if tallies.is_empty() { "" } else { "\n" };
    let _ = writeln!(out, "{gap}{}", summary::score_line(report));
    if report.not_graded.is_none() {
        let _ = writeln!(out, "{}", summary::weight_line(&report.score.categories, report.partial.is_some()));
    }
    let _ = writeln!(out);
}

/// The style tools' verdicts, as the official summary prints them between API and Correctness.
fn style_summary(out: &mut String, report: &Report, color: bool) {
    let Some(style) = &report.details.style else { return };
    let _ = writeln!(out);
    for name in style.names() {
        let verdict = style.verdict(name).unwrap_or_default();
        let shown = match verdict.as_str() {
            "PASSED" => paint(&verdict, Status::Passed, color),
            v if v.starts_with("FAILED") => paint(&verdict, Status::Failed, color),
            _ => verdict,
        };
        let _ = writeln!(out, "{:<28} {shown}", format!("{name}:"));
    }
    let _ = writeln!(out);
}

/// "Fix first": each root cause and the failures it explains, so a student starts where it matters.
fn fix_first(out: &mut String, report: &Report) {
    if report.fix_first.is_empty() && report.count_causes.is_empty() {
        return;
    }
    let _ = writeln!(out, "Fix first (one cause fails many tests):");
    for line in summary::fix_first_lines(report) {
        let _ = writeln!(out, "  * {line}");
    }
    let _ = writeln!(out);
}

/// The files submitted, with their sizes (no dates: the report is the same wherever it is made).
fn files(out: &mut String, report: &Report) {
    if report.details.files.is_empty() {
        return;
    }
    let _ = writeln!(out, "The following files were submitted:\n----------------------------------");
    for file in &report.details.files {
        let _ = writeln!(out, "{:>6} {}", human_size(file.bytes), visible::line(&file.name));
    }
    let _ = writeln!(out);
}

/// A size as `ls -lh` prints it: bytes, then K and M with one decimal, rounded up.
fn human_size(bytes: u64) -> String {
    let up = |value: f64| (value * 10.0).ceil() / 10.0;
    match bytes {
        0..=1023 => bytes.to_string(),
        1024..=1_048_575 => format!("{:.1}K", up(bytes as f64 / 1024.0)),
        _ => format!("{:.1}M", up(bytes as f64 / 1_048_576.0)),
    }
}

/// The COMPILING section: each compile command with what it printed about its file, then the compile test
/// (shown when it failed, or when there is no transcript to show instead).
fn compiling(out: &mut String, report: &Report, tests: &[&TestResult], color: bool, failures_only: bool) {
    let transcript = &report.details.transcript;
    let failed = report.compile_log.is_some() || tests.iter().any(|t| t.status != Status::Passed);
    if !failed && (transcript.is_empty() || failures_only) {
        return;
    }
    banner(out, "COMPILING");
    for step in transcript {
        let _ = writeln!(out, "% {}\n{RULE}", step.command);
        if !step.output.is_empty() {
            let _ = writeln!(out, "{}", visible::block(&bounded(&step.output, MAX_OUTPUT_BYTES)));
        }
        let _ = writeln!(out);
    }
    if let (true, Some(log)) = (transcript.is_empty(), &report.compile_log) {
        let _ = writeln!(out, "The compiler's output:\n\n{}\n", visible::block(&bounded(log, MAX_OUTPUT_BYTES)));
    }
    if failed {
        for test in tests {
            test_block(out, test, report, color);
        }
    }
}

/// The rule under a command, as the official report draws it.
const RULE: &str = "*-----------------------------------------------------------";

/// CHECKING STYLE AND COMMON BUG PATTERNS: each tool's command, then its findings (or why it did not run)
/// and its tally.
fn style_section(out: &mut String, style: &crate::results::Style) {
    banner(out, "CHECKING STYLE AND COMMON BUG PATTERNS (0 points)");
    for tool in &style.tools {
        let _ = writeln!(out, "% {}\n{RULE}", tool.command);
        if let Some(why) = &tool.not_run {
            let _ = writeln!(out, "not run: {why}");
        }
        for finding in tool.findings.iter().take(MAX_FINDINGS) {
            let _ = writeln!(out, "{}", visible::line(&finding.line_text()));
        }
        if tool.findings.len() > MAX_FINDINGS {
            let _ = writeln!(out, "... and {} more", tool.findings.len() - MAX_FINDINGS);
        }
        if let Some(tally) = tool.tally() {
            let _ = writeln!(out, "{tally}");
        }
        let _ = writeln!(out);
    }
}

fn banner(out: &mut String, title: &str) {
    let line = "*".repeat(78);
    let _ = writeln!(out, "{line}\n*  {title}\n{line}\n");
}

fn test_block(out: &mut String, test: &TestResult, report: &Report, color: bool) {
    let name = test_name(test.official.as_deref());
    if test.status == Status::Skipped {
        // One line: the reason is the dependency, and a failed build skips nearly everything.
        let _ = writeln!(
            out,
            "{name}{}  [{}]  ==> {} ({})\n",
            test.title,
            test.id,
            paint("skipped", test.status, color),
            visible::line(test.message.trim_start_matches("skipped: "))
        );
        return;
    }
    let _ = writeln!(out, "{name}{}  [{}]", test.title, test.id);
    for input in test.inputs.iter().take(MAX_INPUT_ROWS) {
        let _ = writeln!(out, "  * {}", visible::line(input));
    }
    if test.inputs.len() > MAX_INPUT_ROWS {
        let _ = writeln!(out, "  * … and {} more", test.inputs.len() - MAX_INPUT_ROWS);
    }
    for row in &test.rows {
        let _ = writeln!(out, "    {}", visible::line(row));
    }
    match report.cause_of(&test.id) {
        // The test's own guess at a cause would mislead: the trial it failed on, then where to look.
        Some(cause) => {
            if let Some(trial) = test.message.lines().next().filter(|l| l.starts_with("failed on trial")) {
                let _ = writeln!(out, "  - {}", visible::line(trial));
            }
            let _ = writeln!(out, "  - {}", summary::see_first(cause, &test.id));
        }
        None => message(out, &test.message, "  - "),
    }
    let _ = writeln!(out, "==> {}\n", paint(test.status.word(), test.status, color));
}

/// How the official report names a test inside its section: `Test 1a: ` for `Board 1a`, the label itself
/// where it has no number (`Memory Board: `), nothing for this project's own tests.
fn test_name(official: Option<&str>) -> String {
    match official {
        None => String::new(),
        Some(label) => match label.rsplit_once(' ') {
            Some((_, number)) if number.starts_with(|c: char| c.is_ascii_digit()) => format!("Test {number}: "),
            _ => format!("{label}: "),
        },
    }
}

/// Rows of one official table: its heading once, a verdict line per row, the failures' reasons after it.
fn table_block(out: &mut String, rows: &[&TestResult], color: bool) {
    let first = rows[0];
    let name = test_name(first.official.as_deref());
    let base = first.id.split('/').next().unwrap_or(&first.id);
    let _ = writeln!(out, "{name}{}  [{base}/…]", first.title);
    if let Some(columns) = &first.columns {
        let _ = writeln!(out, "{:9} {columns}", "");
    }
    for test in rows {
        let line = test.rows.first().cloned().unwrap_or_else(|| test.row.clone().unwrap_or_default());
        let verdict = match test.status {
            Status::Passed => "=> passed",
            Status::Failed => "=> FAILED",
            Status::Error => "=> ERROR ",
            Status::Skipped => "=> skip  ",
            Status::NotApplicable => "=> n/a   ",
        };
        let _ = writeln!(out, "{} {}", paint(verdict, test.status, color), visible::line(&line));
        for extra in test.rows.iter().skip(1) {
            let _ = writeln!(out, "{:9} {}", "", visible::line(extra));
        }
    }
    let passed = rows.iter().filter(|t| t.status == Status::Passed).count();
    let counted = rows.iter().filter(|t| t.status != Status::NotApplicable).count();
    let _ = writeln!(out, "==> {passed}/{counted} tests passed");
    for test in rows.iter().filter(|t| !t.message.is_empty() && t.status != Status::Passed) {
        let _ = writeln!(out, "  {}:", test.row.as_deref().unwrap_or(&test.id));
        message(out, &test.message, "    - ");
    }
    let _ = writeln!(out);
}

fn message(out: &mut String, message: &str, prefix: &str) {
    let lines: Vec<&str> = message.lines().collect();
    for line in lines.iter().take(MAX_MESSAGE_LINES) {
        let _ = writeln!(out, "{prefix}{}", visible::line(line));
    }
    if lines.len() > MAX_MESSAGE_LINES {
        let _ = writeln!(out, "{prefix}… ({} more lines)", lines.len() - MAX_MESSAGE_LINES);
    }
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

/// At most `max` bytes of `text`: its first and its last half (a crash's last words are at the end).
pub(super) fn head_and_tail(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.trim_end().to_string();
    }
    let head = &text[..text.floor_char_boundary(max / 2)];
    let tail = &text[text.ceil_char_boundary(text.len() - max / 2)..];
    let middle = &text[head.len()..text.len() - tail.len()];
    // what the grader had already left out of the program's output, in the middle cut here, counts too
    let (gaps, gap_lines) = crate::results::output_gaps_in(middle);
    let left_out = (middle.len() - gap_lines) as u64 + gaps;
    format!("{head}\n… ({left_out} more bytes) …\n{}", tail.trim_end())
}

pub(super) fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.trim_end().to_string();
    }
    format!("{}\n… ({} more bytes)", &text[..text.floor_char_boundary(max)], text.len() - max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_output_shows_its_start_and_its_end() {
        assert_eq!(head_and_tail("short\n", 8), "short");
        assert_eq!(head_and_tail("0123456789abcdef", 8), "0123\n… (8 more bytes) …\ncdef");
        // Never inside a character.
        assert_eq!(head_and_tail("ééééé", 4), "é\n… (6 more bytes) …\né");
        // a cut the session made already is counted in the program's bytes
        let kept = format!("{}{}{}", "a".repeat(10), crate::results::output_gap(1_000_000), "z".repeat(10));
        assert_eq!(head_and_tail(&kept, 8), "aaaa\n… (1000012 more bytes) …\nzzzz");
    }
}
