//! Failures that share a cause, drawn as one card instead of one per row: a count cause (a column that fails
//! row after row of the memory and timing tables, [`crate::triage::count_causes`]) with its rows in a table,
//! and the other failing rows of one table together. Each row keeps its test's anchor, so links to a row
//! still land on it.

use std::fmt::Write;

use super::escape::{anchor, escape};
use crate::report::text::bounded;
use crate::results::{CountCause, Report, TestResult};

/// Bytes of a row's reason shown.
const MAX_WHY_BYTES: usize = 4 * 1024;

/// The anchor of a count cause's card.
pub fn count_anchor(cause: &CountCause) -> String {
    format!("cause-{}", escape(&cause.what.replace(|c: char| !c.is_ascii_alphanumeric(), "")))
}

/// One card for the report's count cause at `position`: what fails and what to do, then its failing rows.
pub fn count_card(out: &mut String, report: &Report, position: usize) {
    let cause = &report.count_causes[position];
    let rows: Vec<&TestResult> =
        cause.tests.iter().filter_map(|id| report.tests.iter().find(|t| &t.id == id)).collect();
    // A row failing in two columns is listed under both causes; only the first holds its anchor.
    let anchored = |id: &str| !report.count_causes[..position].iter().any(|c| c.tests.iter().any(|t| t == id));
    let _ = write!(
        out,
        "<div class=\"cause\" id=\"{}\"><h3>{} fails on {} of {} puzzles</h3><article class=\"test failed group\">\
         <p class=\"because\">{}</p>",
        count_anchor(cause),
        escape(&cause.what),
        cause.puzzles_failing,
        cause.puzzles_judged,
        escape(&cause.summary())
    );
    row_table(out, &rows, &anchored);
    out.push_str("</article></div>");
}

/// How many tests from the start of `tests` are rows of one table.
pub fn same_table(tests: &[&TestResult]) -> usize {
    let table = |t: &TestResult| t.row.as_ref().and(t.id.split_once('/')).map(|(base, _)| base.to_string());
    let Some(first) = tests.first().and_then(|t| table(t)) else { return 1 };
    tests.iter().take_while(|t| table(t).as_deref() == Some(first.as_str())).count()
}

/// One card for failing rows of one table: the table's title, then each row with its reason.
pub fn table_card(out: &mut String, rows: &[&TestResult]) {
    let first = rows[0];
    let _ = write!(
        out,
        "<article class=\"test failed group\"><h4><span class=\"status\">{}</span> {}{} \
         <span class=\"points\">{} rows</span></h4>",
        escape(first.status.word()),
        first
            .official
            .as_deref()
            .map(|o| format!("<span class=\"official\">{}</span> ", escape(o)))
            .unwrap_or_default(),
        escape(&first.title),
        rows.len()
    );
    row_table(out, rows, &|_| true);
    out.push_str("</article>");
}

/// The rows as a table: the row as the text report prints it, and why it failed, whole (the lines of the
/// student's code a count comes from included).
fn row_table(out: &mut String, rows: &[&TestResult], anchored: &dyn Fn(&str) -> bool) {
    let columns = rows.first().and_then(|t| t.columns.as_deref()).unwrap_or("");
    let _ = write!(
        out,
        "<div class=\"scroll\"><table class=\"rows\"><thead><tr><th>row</th><th><pre>{}</pre></th><th>why</th></tr>\
         </thead><tbody>",
        escape(columns)
    );
    for test in rows {
        let id = if anchored(&test.id) { format!(" id=\"{}\"", anchor(&test.id)) } else { String::new() };
        let shown = test.rows.first().cloned().unwrap_or_default();
        let _ = write!(
            out,
            "<tr{id}><td><code>{}</code></td><td><pre>{}</pre></td><td class=\"why\">{}</td></tr>",
            escape(test.row.as_deref().unwrap_or(&test.id)),
            escape(&shown),
            escape(&bounded(&test.message, MAX_WHY_BYTES))
        );
    }
    out.push_str("</tbody></table></div>");
}
