//! A Markdown summary for CI job pages (GitHub's step summary, GitLab's job page): the score, a table per
//! category, and the tests that did not pass with the first line of why. What the submission wrote (its name,
//! messages, the compiler's echo of its code) renders as text: no HTML, comment, link or image of its own
//! ([`visible::markdown_inline`]), and no control character ([`visible`]).

use std::fmt::Write;

use super::visible;

use crate::results::Category;
use crate::results::{Report, Status};

/// Renders the Markdown summary.
pub fn render(report: &Report) -> String {
    let mut out = String::new();
    let percent = report.score.percent();
    let _ = writeln!(
        out,
        "## 8 Puzzle grading: {} ({})\n",
        visible::markdown_inline(&report.submission.name),
        visible::markdown_inline(&report.submission.language)
    );
    let label = match (&report.partial, report.withheld) {
        (Some(_), _) => "Partial score",
        (None, 0) => "Score",
        (None, _) => "Score of the visible tests",
    };
    match &report.not_graded {
        Some(not_graded) => {
            let _ = writeln!(
                out,
                "**Not graded:** {} — seed {}\n",
                visible::markdown_inline(&not_graded.reason),
                report.seed
            );
            if report.tests.is_empty() {
                return out;
            }
        }
        None => {
            let _ = writeln!(
                out,
                "**{label}: {:.2} / {:.2} ({percent:.1}%)** — seed {}\n",
                report.score.total, report.score.max, report.seed
            );
            if let Some(partial) = &report.partial {
                let _ = writeln!(out, "> **{}**\n", visible::markdown_inline(&partial.headline()));
            }
            if report.withheld > 0 {
                let hidden = crate::results::plural(report.withheld, "test");
                let _ = writeln!(out, "{hidden} hidden until the due date, and the aggregate score with them.\n");
            }
        }
    }
    for note in &report.notes {
        let _ = writeln!(out, "> Note: {}\n", visible::markdown_inline(note));
    }
    let _ = writeln!(out, "| category | passed | failed | skipped | n/a | points |\n|---|---:|---:|---:|---:|---:|");
    for c in report.score.categories.iter().filter(|c| c.passed + c.failed + c.skipped + c.not_applicable > 0) {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {:.2} / {:.2} |",
            c.category.heading(),
            c.passed,
            c.failed,
            c.skipped,
            c.not_applicable,
            c.points,
            c.weight
        );
    }
    if !report.machine_stalls.is_empty() {
        let _ = writeln!(out, "\n**Grader problem:** {}", report.stalls_line());
    }
    if let Some(style) = &report.details.style {
        let _ = writeln!(out, "\nStyle (0 points): {}", style.verdicts());
    }
    for cause in &report.count_causes {
        let _ = writeln!(out, "\n**Fix first:** {}", cause.summary().replace('|', "\\|"));
    }
    if let Some(log) = &report.compile_log {
        let log = visible::block(log.trim_end()).replace("```", "` ` `").replace("~~~", "~ ~ ~");
        let _ = writeln!(out, "\n### The compiler's output\n\n```text\n{log}\n```");
    }
    let failing: Vec<_> = report.tests.iter().filter(|t| matches!(t.status, Status::Failed | Status::Error)).collect();
    if failing.is_empty() {
        let _ = writeln!(out, "\nEvery applicable test passed.");
        return out;
    }
    let _ = writeln!(out, "\n### Not passed\n");
    if let Some(line) = super::summary::explain_line(report) {
        let _ = writeln!(out, "{line}\n");
    }
    for category in Category::ALL {
        for t in failing.iter().filter(|t| t.category == category).take(50) {
            let _ = writeln!(out, "- `{}` {} — {}", t.id, t.title, visible::markdown_inline(t.reason()));
        }
    }
    out
}
