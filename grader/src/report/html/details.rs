//! What the official report prints before its tests, as a collapsed section of the page: the files
//! submitted with their sizes, the compiler's transcript, and the style section (0 points), each tool's
//! findings as a list (or why it did not run).

use std::fmt::Write;

use super::escape::escape;
use crate::results::{plural, Details};

/// Findings listed per tool.
const MAX_FINDINGS: usize = 60;

/// The section, when there is anything to show.
pub fn details(out: &mut String, details: &Details) {
    if details.files.is_empty() && details.transcript.is_empty() && details.style.is_none() {
        return;
    }
    out.push_str("<section id=\"details\"><h2>Files, compiler and style</h2>");
    if !details.files.is_empty() {
        out.push_str(
            "<details><summary>The files submitted</summary><div class=\"scroll\"><table class=\"files\"><tbody>",
        );
        for file in &details.files {
            let _ = write!(out, "<tr><td>{}</td><td>{} bytes</td></tr>", escape(&file.name), file.bytes);
        }
        out.push_str("</tbody></table></div></details>");
    }
    if !details.transcript.is_empty() {
        out.push_str("<details><summary>The compiler</summary>");
        for step in &details.transcript {
            let said = if step.output.is_empty() { "(nothing to say)" } else { &step.output };
            let _ =
                write!(out, "<p><code>% {}</code></p><pre class=\"log\">{}</pre>", escape(&step.command), escape(said));
        }
        out.push_str("</details>");
    }
    if let Some(style) = &details.style {
        let _ = write!(
            out,
            "<details id=\"style\"><summary>Style and common bug patterns (0 points): {}</summary>",
            escape(&style.verdicts())
        );
        for tool in &style.tools {
            let _ = write!(out, "<h4><code>% {}</code></h4>", escape(&tool.command));
            if let Some(why) = &tool.not_run {
                let _ = write!(out, "<p class=\"problem\">Not run: {}</p>", escape(why));
            }
            if tool.not_run.is_none() && tool.findings.is_empty() {
                out.push_str("<p class=\"none\">Nothing found.</p>");
            }
            if !tool.findings.is_empty() {
                out.push_str("<ul class=\"findings\">");
                for finding in tool.findings.iter().take(MAX_FINDINGS) {
                    let _ = write!(out, "<li><code>{}</code></li>", escape(&finding.line_text()));
                }
                if tool.findings.len() > MAX_FINDINGS {
                    let _ =
                        write!(out, "<li>… and {} more</li>", plural(tool.findings.len() - MAX_FINDINGS, "finding"));
                }
                out.push_str("</ul>");
            }
            if let Some(tally) = tool.tally() {
                let _ = write!(out, "<p>{}</p>", escape(&tally));
            }
        }
        out.push_str("</details>");
    }
    out.push_str("</section>\n");
}
