//! `index.html`, the class overview drawn: one self-contained page (inline CSS, an inline SVG chart, a few
//! lines of script that sort the students' table; nothing fetched, which its Content-Security-Policy
//! enforces), beside the students' reports it links to. It shows the figures of [`super::Overview`] and the
//! students' rows, nothing that varies between runs: the same gradebook gives the same bytes, whether `batch`
//! or `gradebook merge` wrote it. Every name and message is escaped.

use std::fmt::Write;

use super::Overview;
use crate::batch::Row;
use crate::report::html::escape;
use crate::report::Format;
use crate::results::plural;
use crate::results::Partial;
use crate::similarity::findings::Findings;

const STYLE: &str = include_str!("style.css");
/// Sorts the students' table by a column when its heading is clicked, and marks the page as scripted (the
/// browser test looks for it).
const SCRIPT: &str = include_str!("script.js");

const CHART_WIDTH: f64 = 640.0;
const CHART_HEIGHT: f64 = 250.0;
const CHART_LEFT: f64 = 36.0;
/// Room below the bars for the axis's numbers and title, drawn larger on a phone (style.css).
const CHART_BOTTOM: f64 = 64.0;
/// A test's list of the students failing it is open when it is this short (a click opens a longer one).
const OPEN_UP_TO: usize = 6;
/// Room above the tallest bar for its count.
const CHART_TOP: f64 = 30.0;

/// What the page says of the run that graded the class (from `gradebook.json`'s `run`).
#[derive(Debug, Clone, Copy)]
pub struct RunLine<'a> {
    #[allow(missing_docs)]
    pub seed: u64,
    #[allow(missing_docs)]
    pub grader_version: &'a str,
    /// `--only`.
    pub only: &'a [String],
    /// The students' report formats, by name.
    pub formats: &'a [String],
    /// Fixture files the tests lacked.
    pub missing_fixtures: &'a [String],
    /// Set when `--only` left tests out of the grades.
    pub partial: Option<&'a Partial>,
    /// The LMS imports not written because the run is partial (`canvas-import.csv`).
    pub withheld_imports: &'a [String],
}

/// The page of a class whose figures are `overview` and rows `rows`, graded under `run`, with its code
/// similarity's section when it was compared.
pub fn render(overview: &Overview, rows: &[Row], run: &RunLine<'_>, similarity: Option<&Findings>) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; \
         script-src 'unsafe-inline'\">\
         <title>8-puzzle class overview: {}</title><style>{STYLE}</style></head><body>\n",
        plural(overview.students, "student")
    );
    header(&mut out, overview, run, similarity.is_some());
    distribution(&mut out, overview);
    sections(&mut out, overview);
    tests(&mut out, overview, report_extension(run));
    causes(&mut out, overview);
    people(&mut out, overview, report_extension(run));
    if let Some(findings) = similarity {
        super::similarity::section(&mut out, findings);
    }
    students(&mut out, rows, report_extension(run));
    let _ = write!(out, "<script>\n{SCRIPT}</script>\n</body></html>\n");
    out
}

/// The extension of the report each student is linked to: HTML where it was written, else text, else the
/// first format.
fn report_extension(run: &RunLine<'_>) -> Option<&'static str> {
    let formats: Vec<Format> = run.formats.iter().filter_map(|f| f.parse().ok()).collect();
    [Format::Html, Format::Text]
        .into_iter()
        .find(|f| formats.contains(f))
        .or(formats.first().copied())
        .map(Format::extension)
}

fn header(out: &mut String, o: &Overview, run: &RunLine<'_>, similarity: bool) {
    let percent = |p: Option<f64>| p.map_or("–".to_string(), |p| format!("{p:.2}%"));
    let languages: Vec<String> = o.languages.iter().map(|(l, n)| format!("{n} {}", escape(l))).collect();
    let only = if run.only.is_empty() { String::new() } else { format!(" · only {}", escape(&run.only.join(" "))) };
    let _ = write!(
        out,
        "<header><h1>Class overview</h1>\
         <p class=\"sub\">{} · {} graded ({}) · seed {} · grader {}{only}</p>\
         <p class=\"score\">mean <strong>{}</strong> · median <strong>{}</strong></p>",
        plural(o.students, "student"),
        o.graded,
        languages.join(", "),
        run.seed,
        escape(run.grader_version),
        percent(o.mean_percent),
        percent(o.median_percent)
    );
    if !run.missing_fixtures.is_empty() {
        let _ = write!(
            out,
            "<p class=\"problem\">Grader problem: the fixture directory lacks {}: every grade is incomplete</p>",
            escape(&run.missing_fixtures.join(", "))
        );
    }
    if let Some(partial) = run.partial {
        let imports = if run.withheld_imports.is_empty() {
            String::new()
        } else {
            format!(
                " {} not written: grade the class {}, or pass --allow-partial to write {}",
                escape(&run.withheld_imports.join(", ")),
                escape(partial.remedy()),
                if run.withheld_imports.len() == 1 { "it" } else { "them" }
            )
        };
        let _ = write!(
            out,
            "<p class=\"problem\">Partial run: only {} were graded; these grades are not the assignment's.{imports}</p>",
            escape(&partial.describe())
        );
    }
    let similarity = if similarity { " · <a href=\"#similarity\">similarity</a>" } else { "" };
    let _ = writeln!(
        out,
        "<nav><a href=\"#distribution\">scores</a> · <a href=\"#sections\">sections</a> · <a href=\"#tests\">tests</a> · \
         <a href=\"#causes\">root causes</a> · <a href=\"#not-compiled\">did not compile</a>{similarity} · \
         <a href=\"#students\">students</a></nav></header>"
    );
}

/// The score distribution as bars, one per ten percentage points, with the count above each and the
/// percentages at the bars' edges (`0 10 … 100`: short enough to stay legible at a phone's width).
fn distribution(out: &mut String, o: &Overview) {
    let highest = o.distribution.iter().map(|b| b.students).max().unwrap_or(0).max(1);
    let plot_w = CHART_WIDTH - CHART_LEFT - 24.0;
    let plot_h = CHART_HEIGHT - CHART_TOP - CHART_BOTTOM;
    let slot = plot_w / o.distribution.len().max(1) as f64;
    let _ = write!(
        out,
        "<section id=\"distribution\"><h2>Scores</h2><figure class=\"chart\"><svg class=\"distribution\" \
         viewBox=\"0 0 {CHART_WIDTH} {CHART_HEIGHT}\" role=\"img\" aria-label=\"graded students by score\">"
    );
    let base = CHART_TOP + plot_h;
    let _ = write!(
        out,
        "<line class=\"axis-line\" x1=\"{CHART_LEFT}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\"/>",
        CHART_LEFT + plot_w
    );
    for (i, bin) in o.distribution.iter().enumerate() {
        let h = plot_h * bin.students as f64 / highest as f64;
        let x = CHART_LEFT + slot * i as f64;
        let _ = write!(
            out,
            "<rect class=\"bin\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\"><title>{} at {}–{}%</title></rect>\
             <text class=\"count\" x=\"{:.1}\" y=\"{:.1}\">{}</text>\
             <text class=\"axis\" x=\"{x:.1}\" y=\"{:.1}\">{}</text>",
            x + slot * 0.1,
            base - h,
            slot * 0.8,
            plural(bin.students, "student"),
            bin.from,
            bin.to,
            x + slot / 2.0,
            base - h - 5.0,
            bin.students,
            base + 24.0,
            bin.from
        );
    }
    if let Some(last) = o.distribution.last() {
        let _ = write!(
            out,
            "<text class=\"axis\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            CHART_LEFT + plot_w,
            base + 24.0,
            last.to
        );
    }
    let _ = write!(
        out,
        "<text class=\"axis\" x=\"{:.1}\" y=\"{:.1}\">score, % of the maximum</text></svg></figure>",
        CHART_LEFT + plot_w / 2.0,
        base + 54.0
    );
    if o.graded < o.students {
        let _ = write!(
            out,
            "<p class=\"sub\">{} could not be graded and {} not in the chart.</p>",
            plural(o.students - o.graded, "student"),
            if o.students - o.graded == 1 { "is" } else { "are" }
        );
    }
    out.push_str("</section>\n");
}

fn sections(out: &mut String, o: &Overview) {
    out.push_str(
        "<section id=\"sections\"><h2>Sections</h2><table class=\"figures stack\"><thead><tr><th>section</th>\
         <th>mean points</th><th></th></tr></thead><tbody>",
    );
    for s in &o.sections {
        let share = if s.mean_max > 0.0 { 100.0 * s.mean_points / s.mean_max } else { 0.0 };
        let _ = write!(
            out,
            "<tr><td data-label=\"section\">{}</td><td data-label=\"mean\">{:.2} / {:.2}</td>\
             <td><span class=\"bar\"><span style=\"width:{share:.0}%\"></span></span></td></tr>",
            escape(&section_heading(&s.category)),
            s.mean_points,
            s.mean_max
        );
    }
    out.push_str("</tbody></table></section>\n");
}

fn section_heading(name: &str) -> String {
    crate::catalog::Category::ALL
        .iter()
        .find(|c| c.name() == name)
        .map_or(name.to_string(), |c| c.heading().to_string())
}

fn tests(out: &mut String, o: &Overview, extension: Option<&str>) {
    out.push_str("<section id=\"tests\"><h2>Tests failed</h2>");
    if o.tests.is_empty() {
        out.push_str("<p class=\"none\">No graded student failed a test.</p></section>\n");
        return;
    }
    out.push_str(
        "<table class=\"figures stack\"><thead><tr><th>test</th><th>what it checks</th><th>students failing</th>\
         <th></th></tr></thead><tbody>",
    );
    for t in &o.tests {
        let share = 100.0 * t.students as f64 / o.graded.max(1) as f64;
        // who fails it, each linked to their report: the question an instructor asks first
        let who: Vec<String> =
            t.who.iter().map(|w| format!("<li>{}</li>", link(&w.name, &w.id, &w.report, extension))).collect();
        let _ = write!(
            out,
            "<tr id=\"test-{}\"><td data-label=\"test\"><code>{}</code></td><td data-label=\"checks\">{}</td>\
             <td data-label=\"failing\"><details{}><summary>{} of {}</summary><ul class=\"who\">{}</ul></details></td>\
             <td><span class=\"bar fail\"><span style=\"width:{share:.0}%\"></span></span></td></tr>",
            escape(&t.id),
            escape(&t.id),
            escape(&t.title),
            if t.who.len() <= OPEN_UP_TO { " open" } else { "" },
            t.students,
            o.graded,
            who.concat()
        );
    }
    out.push_str("</tbody></table></section>\n");
}

fn causes(out: &mut String, o: &Overview) {
    out.push_str("<section id=\"causes\"><h2>Root causes fix-first found</h2>");
    if o.root_causes.is_empty() {
        out.push_str("<p class=\"none\">No failure in the class explains others.</p></section>\n");
        return;
    }
    out.push_str("<ul>");
    for c in &o.root_causes {
        let _ = write!(
            out,
            "<li><strong>{}</strong> is wrong in the Board of {}</li>",
            escape(&c.cause),
            plural(c.students, "student")
        );
    }
    out.push_str("</ul></section>\n");
}

/// Who did not compile, and who could not be graded (with why).
fn people(out: &mut String, o: &Overview, extension: Option<&str>) {
    out.push_str("<section id=\"not-compiled\"><h2>Did not compile</h2>");
    if o.did_not_compile.is_empty() {
        out.push_str("<p class=\"none\">Every graded submission compiled.</p>");
    } else {
        out.push_str("<ul>");
        for who in &o.did_not_compile {
            let _ = write!(out, "<li>{}</li>", link(&who.name, &who.id, &who.report, extension));
        }
        out.push_str("</ul>");
    }
    out.push_str("</section>\n");
    if o.not_graded.is_empty() {
        return;
    }
    out.push_str("<section id=\"not-graded\"><h2>Could not be graded</h2><ul>");
    for who in &o.not_graded {
        let _ = write!(
            out,
            "<li><strong>{}</strong> <span class=\"id\">{}</span>: {}</li>",
            escape(&who.name),
            escape(&who.id),
            escape(who.reason.as_deref().unwrap_or(""))
        );
    }
    out.push_str("</ul></section>\n");
}

fn students(out: &mut String, rows: &[Row], extension: Option<&str>) {
    out.push_str(
        "<section id=\"students\"><h2>Students</h2><table class=\"students stack\"><thead><tr>\
         <th data-sort=\"text\">student</th><th data-sort=\"number\">score</th><th data-sort=\"number\">%</th>\
         <th data-sort=\"text\">late</th><th data-sort=\"number\">tests failed</th><th>root causes</th></tr></thead><tbody>",
    );
    for row in rows {
        let name = if row.final_percent().is_some() {
            link(&row.name, row.id.as_str(), &row.report, extension)
        } else {
            format!("{} <span class=\"id\">{}</span>", escape(&row.name), escape(row.id.as_str()))
        };
        let number = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.2}"));
        let late = match row.late {
            Some(true) => "late",
            _ => "",
        };
        let mut failed: Vec<&str> = row.failed.iter().map(|id| id.split('/').next().unwrap_or(id)).collect();
        failed.dedup();
        // a row with an error has no final grade: its reason, never a number
        let score = match &row.error {
            Some(error) => format!("<span class=\"error\">not graded: {}</span>", escape(error)),
            None => format!("{} / {}", number(row.score), number(row.max)),
        };
        let _ = write!(
            out,
            "<tr><td data-key=\"{}\" data-label=\"student\">{name}</td><td data-key=\"{}\" data-label=\"score\">{score}</td>\
             <td data-key=\"{}\" data-label=\"%\">{}</td><td data-label=\"late\">{late}</td>\
             <td data-key=\"{}\" data-label=\"tests failed\">{}</td><td data-label=\"root causes\">{}</td></tr>",
            escape(&row.name.to_lowercase()),
            row.score.unwrap_or(-1.0),
            row.final_percent().unwrap_or(-1.0),
            number(row.final_percent()),
            failed.len(),
            failed.len(),
            escape(&row.root_causes.join(", "))
        );
    }
    out.push_str("</tbody></table></section>\n");
}

/// A student's name linked to their report (their identity beside it).
fn link(name: &str, id: &str, report: &str, extension: Option<&str>) -> String {
    match extension {
        Some(ext) => format!(
            "<a href=\"{}.{ext}\">{}</a> <span class=\"id\">{}</span>",
            escape(report),
            escape(name),
            escape(id)
        ),
        None => format!("{} <span class=\"id\">{}</span>", escape(name), escape(id)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradebook::overview::figures;
    use crate::gradebook::sample::row;
    use crate::identity::StudentId;

    fn run(formats: &[String]) -> RunLine<'_> {
        RunLine {
            seed: 1,
            grader_version: "0.1.0",
            only: &[],
            formats,
            missing_fixtures: &[],
            partial: None,
            withheld_imports: &[],
        }
    }

    #[test]
    fn every_graded_student_links_to_their_report_and_no_name_becomes_markup() {
        let rows = [
            row(StudentId::entry("ada"), "ada", Some(90.0), None),
            row(StudentId::entry("<script>x</script>"), "<b>evil</b>", Some(10.0), None),
            row(StudentId::entry("eve"), "eve", None, Some("<i>empty</i>")),
        ];
        let formats = ["text".to_string(), "html".into()];
        let page = render(&figures(&rows), &rows, &run(&formats), None);
        assert!(page.contains("<a href=\"ada.html\">ada</a>"), "{page}");
        assert!(!page.contains("<b>evil") && !page.contains("<script>x") && !page.contains("<i>empty"));
        assert!(page.contains("&lt;b&gt;evil&lt;/b&gt;"));
        assert!(!page.contains("href=\"eve."), "a student without a report is not linked");
        let formats = ["json".to_string(), "text".into()];
        let text_only = render(&figures(&rows), &rows, &run(&formats), None);
        assert!(text_only.contains("<a href=\"ada.txt\">"));
        assert!(!page.contains("://") && !page.contains(" src="), "nothing is fetched");
    }
}
