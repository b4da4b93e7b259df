//! The HTML report: one self-contained page a student opens in a browser (inline CSS and SVG, a few lines of
//! script, nothing fetched). The score and the sections come first, then the fix-first list and the failures
//! grouped by root cause, each with its evidence drawn (`draw`), the timing chart (`chart`), and the
//! tests that passed, collapsed.
//!
//! Like the text report it leaves out CPU times and anything else that varies between runs: the same results
//! give the same bytes. Every string that came from the submission (messages, rows, its output) is escaped.

mod chart;
mod details;
mod draw;
mod escape;

/// The page's one escaping rule, for other pages that show student-controlled text (the class overview).
pub use escape::escape;
mod groups;

use std::fmt::Write;

use super::summary;
use super::text::{bounded, head_and_tail};
use crate::results::{Category, Report, RootCause, Status, TestResult};
use escape::anchor;

/// Bytes of the program's stderr shown.
const MAX_OUTPUT_BYTES: usize = 8 * 1024;
/// Bytes of a message or of the compiler's output shown.
const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// Inputs listed per test before the rest are counted.
const MAX_INPUT_ROWS: usize = 12;

const STYLE: &str = include_str!("style.css");

/// Expands or collapses every `<details>`, opens a section's `<details>` when a link leads to it, and marks the
/// page as scripted (the browser test looks for it).
const SCRIPT: &str = include_str!("script.js");

/// Renders the page.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>8-puzzle report: {} ({})</title><style>{STYLE}</style></head><body>\n",
        escape(&report.submission.name),
        match report.not_graded {
            Some(_) => "not graded".to_string(),
            None => format!("{:.2}/{:.2}", report.score.total, report.score.max),
        }
    );
    summary(&mut out, report);
    if report.not_graded.is_some() && report.tests.is_empty() {
        details::details(&mut out, &report.details);
        let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body></html>\n");
        return out;
    }
    fix_first(&mut out, report);
    failures(&mut out, report);
    details::details(&mut out, &report.details);
    timing_charts(&mut out, report);
    passed(&mut out, report);
    if !report.output.is_empty() {
        let _ = writeln!(
            out,
            "<section id=\"output\"><details><summary>What the submission printed (its standard output and error){}</summary>\
             <pre>{}</pre></details></section>",
            if report.output_truncated { " (output truncated)" } else { "" },
            escape(&head_and_tail(&report.output, MAX_OUTPUT_BYTES))
        );
    }
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body></html>\n");
    out
}

fn summary(out: &mut String, report: &Report) {
    let score = &report.score;
    let _ = write!(
        out,
        "<header><h1>8-puzzle report</h1><p class=\"sub\">{} ({}) · seed {}</p>",
        escape(&report.submission.name),
        escape(&report.submission.language),
        report.seed,
    );
    match &report.not_graded {
        Some(not_graded) => {
            let _ = write!(
                out,
                "<p class=\"score\"><strong>Not graded</strong></p><p class=\"problem not-graded\">Not graded: {}</p>",
                escape(&not_graded.reason)
            );
        }
        None => {
            if let Some(partial) = &report.partial {
                let _ = write!(out, "<p class=\"problem\">{}</p>", escape(&partial.headline()));
            }
            let _ = write!(
                out,
                "<p class=\"score\">{}<strong>{:.2}</strong> / {:.2} <span>({:.2}%)</span></p>",
                if report.partial.is_some() { "partial score: " } else { "" },
                score.total,
                score.max,
                score.percent(),
            );
        }
    }
    for (line, listed) in summary::problems(report) {
        let _ = write!(out, "<p class=\"problem\">{}</p>", escape(&line));
        if !listed.is_empty() {
            let items: Vec<String> = listed.iter().map(|item| format!("<li>{}</li>", escape(item))).collect();
            let _ = write!(out, "<ul class=\"problem\">{}</ul>", items.concat());
        }
    }
    if !report.tests.is_empty() {
        sections(out, report);
    }
    let class = if report.withheld > 0 || report.partial.is_some() { "problem" } else { "sub" };
    let _ = write!(out, "<p class=\"{class}\">{}</p>", escape(&summary::score_line(report)));
    if report.not_graded.is_none() {
        let _ = write!(
            out,
            "<p class=\"sub weights\">{}</p>",
            escape(&summary::weight_line(&score.categories, report.partial.is_some()))
        );
    }
    out.push_str("<button id=\"expand\" type=\"button\">Expand all</button></header>\n");
}

/// Each section's tallies and points, with a bar, then the official summary's lines (correctness pooled).
fn sections(out: &mut String, report: &Report) {
    out.push_str(
        "<div class=\"scroll\"><table class=\"sections\"><thead><tr><th>section</th><th>passed</th><th>failed</th>\
         <th>skipped</th><th>points</th><th></th></tr></thead><tbody>",
    );
    for c in &report.score.categories {
        // A section worth nothing (not scored, or nothing applied) gets no bar.
        let bar = if c.weight > 0.0 {
            format!("<span class=\"bar\"><span style=\"width:{:.0}%\"></span></span>", 100.0 * c.points / c.weight)
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<tr><td><a href=\"#cat-{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{:.2} / {:.2}</td>\
             <td>{bar}</td></tr>",
            c.category.name(),
            escape(c.category.heading()),
            c.passed,
            c.failed,
            c.skipped,
            c.points,
            c.weight
        );
    }
    out.push_str("</tbody></table></div>");
    let tallies: Vec<String> = summary::tallies(report)
        .iter()
        .map(|t| format!("<li>{}: {}{}</li>", escape(t.label), escape(&t.verdict), escape(t.after)))
        .collect();
    let _ = write!(out, "<ul class=\"tallies\">{}</ul>", tallies.concat());
}

fn fix_first(out: &mut String, report: &Report) {
    if report.fix_first.is_empty() && report.count_causes.is_empty() {
        return;
    }
    out.push_str("<section id=\"fix-first\"><h2>Fix first</h2><p>One cause fails many tests:</p><ol>");
    for cause in &report.count_causes {
        let _ = write!(out, "<li><a href=\"#{}\">{}</a></li>", groups::count_anchor(cause), escape(&cause.summary()));
    }
    for cause in &report.fix_first {
        let links: Vec<String> =
            cause.explains.iter().map(|id| format!("<a href=\"#{}\">{}</a>", anchor(id), escape(id))).collect();
        let _ = write!(
            out,
            "<li><strong>{}</strong> is wrong (<a href=\"#{}\">{}</a>); {} {} because of it</li>",
            escape(cause.method.call()),
            anchor(&cause.test),
            escape(&cause.test),
            links.join(", "),
            if cause.explains.len() == 1 { "fails" } else { "fail" }
        );
    }
    out.push_str("</ol></section>\n");
}

fn failing(test: &TestResult) -> bool {
    matches!(test.status, Status::Failed | Status::Error)
}

/// Failures grouped by root cause (the cause's own test, then those it explains), then the other failures,
/// then the compiler's output, then the tests skipped because of them.
fn failures(out: &mut String, report: &Report) {
    for note in &report.notes {
        let _ = write!(out, "<p class=\"note\">Note: {}</p>", escape(note));
    }
    let failed: Vec<&TestResult> = report.tests.iter().filter(|t| failing(t)).collect();
    if failed.is_empty() && report.compile_log.is_none() {
        out.push_str("<section id=\"failures\"><h2>Failures</h2><p class=\"none\">No test failed.</p></section>\n");
        return;
    }
    let _ = write!(out, "<section id=\"failures\"><h2>Failures ({})</h2>", failed.len());
    if let Some(line) = summary::explain_line(report) {
        let _ = write!(out, "<p class=\"sub\">{}</p>", escape(&line));
    }
    for cause in &report.fix_first {
        cause_group(out, report, cause);
    }
    for position in 0..report.count_causes.len() {
        groups::count_card(out, report, position);
    }
    let others: Vec<&TestResult> = failed.iter().copied().filter(|t| !explained(report, &t.id)).collect();
    if !others.is_empty() {
        if !report.fix_first.is_empty() || !report.count_causes.is_empty() {
            out.push_str("<h3>Other failures</h3>");
        }
        // Rows of one table that fail together are one card; any other failure has a card of its own.
        let mut rest = &others[..];
        while let Some(first) = rest.first() {
            let table = groups::same_table(rest);
            if table > 1 {
                groups::table_card(out, &rest[..table]);
            } else {
                card(out, first, None);
            }
            rest = &rest[table.max(1)..];
        }
    }
    if let Some(log) = &report.compile_log {
        let _ = write!(
            out,
            "<h3>The compiler's output</h3><pre class=\"log\">{}</pre>",
            escape(&bounded(log, MAX_MESSAGE_BYTES))
        );
    }
    out.push_str("</section>\n");
}

/// Whether a root cause claims the test (as its own or as one it explains), or a count cause its row.
fn explained(report: &Report, id: &str) -> bool {
    report.fix_first.iter().any(|c| c.test == id || c.explains.iter().any(|e| e == id))
        || report.count_causes.iter().any(|c| c.tests.iter().any(|t| t == id))
}

fn cause_group(out: &mut String, report: &Report, cause: &RootCause) {
    let _ = write!(out, "<div class=\"cause\"><h3>{} is wrong</h3>", escape(cause.method.call()));
    if let Some(own) = report.tests.iter().find(|t| t.id == cause.test) {
        card(out, own, None);
    }
    for id in &cause.explains {
        if let Some(test) = report.tests.iter().find(|t| &t.id == id) {
            card(out, test, Some(cause));
        }
    }
    out.push_str("</div>");
}

/// One failing test: its verdict, title, inputs, message and evidence.
fn card(out: &mut String, test: &TestResult, cause: Option<&RootCause>) {
    let _ = write!(
        out,
        "<article class=\"test {}\" id=\"{}\"><h4><span class=\"status\">{}</span> <code>{}</code> {}{}\
         <span class=\"points\">{:.2} / {:.2}</span></h4>",
        status_class(test.status),
        anchor(&test.id),
        escape(test.status.word()),
        escape(&test.id),
        test.official.as_deref().map(|o| format!("<span class=\"official\">{}</span> ", escape(o))).unwrap_or_default(),
        escape(&test.title),
        test.score,
        test.max_score
    );
    if let Some(cause) = cause {
        // the text report's words, with the test it names linked
        let said = escape(&summary::see_first(cause, &test.id));
        let test_id = escape(&cause.test);
        let linked = said.replacen(&*test_id, &format!("<a href=\"#{}\">{test_id}</a>", anchor(&cause.test)), 1);
        let _ = write!(out, "<p class=\"because\">{}{}</p>", &linked[..1].to_uppercase(), &linked[1..]);
    }
    inputs(out, test);
    if !test.message.is_empty() {
        let _ = write!(out, "<pre class=\"message\">{}</pre>", escape(&bounded(&test.message, MAX_MESSAGE_BYTES)));
    }
    if let Some(evidence) = &test.evidence {
        draw::evidence(out, evidence);
    }
    rows(out, test);
    out.push_str("</article>");
}

fn status_class(status: Status) -> &'static str {
    match status {
        Status::Passed => "passed",
        Status::Failed => "failed",
        Status::Skipped => "skipped",
        Status::NotApplicable => "not-applicable",
        Status::Error => "error",
    }
}

fn inputs(out: &mut String, test: &TestResult) {
    if test.inputs.is_empty() {
        return;
    }
    let shown: Vec<String> = test.inputs.iter().take(MAX_INPUT_ROWS).map(|i| escape(i)).collect();
    let more = test.inputs.len().saturating_sub(MAX_INPUT_ROWS);
    let _ = write!(
        out,
        "<p class=\"inputs\">Inputs: {}{}</p>",
        shown.join(", "),
        if more > 0 { format!(" and {more} more") } else { String::new() }
    );
}

fn rows(out: &mut String, test: &TestResult) {
    if test.rows.is_empty() {
        return;
    }
    out.push_str("<pre class=\"rows\">");
    if let Some(columns) = &test.columns {
        let _ = writeln!(out, "{}", escape(columns));
    }
    for row in &test.rows {
        let _ = writeln!(out, "{}", escape(row));
    }
    out.push_str("</pre>");
}

/// A chart per count table of the timing section.
fn timing_charts(out: &mut String, report: &Report) {
    let timing: Vec<&TestResult> = report.tests_in(Category::Timing).collect();
    let mut tables: Vec<(&str, Vec<&TestResult>)> = Vec::new();
    for test in timing {
        let Some(official) = test.official.as_deref() else { continue };
        match tables.last_mut() {
            Some((name, rows)) if *name == official => rows.push(test),
            _ => tables.push((official, vec![test])),
        }
    }
    let mut drawn = String::new();
    for (name, rows) in &tables {
        chart::chart(&mut drawn, name, rows);
    }
    if !drawn.is_empty() {
        let _ = writeln!(out, "<section id=\"timing\"><h2>Timing: counts against the reference</h2>{drawn}</section>");
    }
}

/// Every test that did not fail, by section, collapsed.
fn passed(out: &mut String, report: &Report) {
    out.push_str("<section id=\"tests\"><h2>Every test</h2>");
    for category in Category::ALL {
        let tests: Vec<&TestResult> = report.tests_in(category).collect();
        if tests.is_empty() {
            continue;
        }
        let count = |s: Status| tests.iter().filter(|t| t.status == s).count();
        let _ = write!(
            out,
            "<details id=\"cat-{}\"><summary>{}: {} passed, {} failed, {} skipped, {} not applicable</summary><ul>",
            category.name(),
            escape(category.heading()),
            count(Status::Passed),
            count(Status::Failed) + count(Status::Error),
            count(Status::Skipped),
            count(Status::NotApplicable)
        );
        let mut table = None;
        for test in tests {
            // a table's column headings once, above its first row, as the text report prints them
            let base = test.row.as_ref().and(test.id.split_once('/')).map(|(base, _)| base);
            if let (Some(base), Some(columns)) = (base, &test.columns) {
                if table != Some(base) {
                    let _ = write!(out, "<li class=\"columns\"><pre>{}</pre></li>", escape(columns));
                }
            }
            table = base;
            line(out, test);
        }
        out.push_str("</ul></details>");
    }
    out.push_str("</section>\n");
}

/// A test as a list item: failures link to their card; the others open to show their inputs and rows.
fn line(out: &mut String, test: &TestResult) {
    let head = format!(
        "<span class=\"status\">{}</span> <code>{}</code> {}",
        escape(test.status.word()),
        escape(&test.id),
        escape(&test.title)
    );
    let class = status_class(test.status);
    if failing(test) {
        let _ = write!(out, "<li class=\"{class}\"><a href=\"#{}\">{head}</a></li>", anchor(&test.id));
        return;
    }
    let _ = write!(out, "<li class=\"{class}\"><details><summary>{head}</summary>");
    if !test.message.is_empty() {
        let _ = write!(out, "<p>{}</p>", escape(&bounded(&test.message, MAX_MESSAGE_BYTES)));
    }
    inputs(out, test);
    if let Some(evidence) = &test.evidence {
        draw::evidence(out, evidence);
    }
    rows(out, test);
    out.push_str("</details></li>");
}
