//! A pair's page (`similarity/<a>+<b>.html`, apart from the students' reports, since it shows two people's
//! code): the fragments the two submissions share, side by side, each with its file and line numbers, in
//! the order they come in the first. Self-contained as the overview is (its style, nothing fetched, a
//! Content-Security-Policy that says so), the same bytes for the same class, every line of student code
//! made visible and escaped. Two columns on a desktop, one above the other on a phone.

use std::fmt::Write;

use crate::report::html::escape;
use crate::report::visible;
use crate::similarity::findings::{Findings, Participant};
use crate::similarity::fragments::Span;
use crate::similarity::Pair;

const STYLE: &str = include_str!("style.css");
const PAIR_STYLE: &str = include_str!("pair.css");

/// The page of `pair` (a pair of the class when `of_class`, else a student and a corpus entry).
pub fn page(findings: &Findings, pair: &Pair, of_class: bool) -> String {
    let (a, b) = (&findings.class[pair.a], findings.other(pair, of_class));
    let score = pair.shared.score() * 100.0;
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\
         <title>{} and {}: {score:.1}% similar</title><style>{STYLE}{PAIR_STYLE}</style></head><body>\n",
        escape(&a.name),
        escape(&b.name)
    );
    let share = |(covered, own): (u32, u32), who: &Participant| {
        let percent = if own == 0 { 0.0 } else { 100.0 * f64::from(covered) / f64::from(own) };
        format!("{percent:.1}% of {}'s own code ({covered} of {own} fingerprints)", escape(&who.name))
    };
    let other = if of_class { "another student of the class" } else { "a known solution, in the corpus" };
    let identical =
        if b.identical > 0 { format!(" (and {} entries identical to it)", b.identical) } else { String::new() };
    let _ = writeln!(
        out,
        "<header><p class=\"sub\"><a href=\"../index.html#similarity\">class overview</a></p>\
         <h1>{} and {}</h1><p class=\"sub\">{} · {} <span class=\"id\">{}</span> · {}{}, \
         {other}{identical}</p><p class=\"score\">score <strong>{score:.1}%</strong></p>\
         <p class=\"sub\">{} fragments in common cover {} and {}.</p>\
         <p class=\"verdict\">Evidence for a person to look at, never a verdict: solutions to one assignment share \
         much by nature, and only reading the code side by side can tell a copy from two people who thought \
         alike.</p></header>",
        escape(&a.name),
        escape(&b.name),
        a.prints.language.map_or("", |l| l.name()),
        escape(&a.name),
        escape(&a.key),
        escape(&b.name),
        if of_class { format!(" <span class=\"id\">{}</span>", escape(&b.key)) } else { String::new() },
        pair.shared.fragments.len(),
        share(pair.shared.a, a),
        share(pair.shared.b, b)
    );
    let count = pair.shared.fragments.len();
    for (i, fragment) in pair.shared.fragments.iter().enumerate() {
        let _ = write!(
            out,
            "<section id=\"fragment-{}\"><h2>Fragment {} of {count} <span class=\"id\">{} fingerprints</span></h2>\
             <div class=\"sides\">",
            i + 1,
            i + 1,
            fragment.prints
        );
        side(&mut out, a, fragment.a);
        side(&mut out, b, fragment.b);
        out.push_str("</div></section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

/// One side of a fragment: its file's lines, numbered.
fn side(out: &mut String, who: &Participant, span: Span) {
    let file = who.prints.files.get(usize::from(span.file));
    let name = file.map_or("?", |f| f.name.as_str());
    let _ = write!(
        out,
        "<figure class=\"side\"><figcaption>{} · {} lines {}–{}</figcaption><pre><code>",
        escape(&who.name),
        escape(name),
        span.first_line,
        span.last_line
    );
    let text = file.map_or("", |f| f.text.as_str());
    let first = span.first_line.max(1);
    for (number, line) in text.lines().enumerate().map(|(i, l)| (i as u32 + 1, l)) {
        if number < first {
            continue;
        }
        if number > span.last_line {
            break;
        }
        let _ = write!(
            out,
            "<span class=\"line\"><span class=\"ln\">{number}</span>{}</span>",
            escape(&visible::block(line))
        );
    }
    out.push_str("</code></pre></figure>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::findings::{sample, SAMPLE_BOARD};

    #[test]
    fn student_code_and_names_are_shown_inert_and_nothing_is_fetched() {
        let hostile = SAMPLE_BOARD.replace("MARKER", "</code></pre><script>alert(1)</script>\u{1b}[2J");
        let findings = sample(&[("<b>ann</b>", &hostile), ("bob", SAMPLE_BOARD)]);
        let pair = &findings.comparison.class[0];
        let page = page(&findings, pair, true);
        assert!(!page.contains("<script>") && !page.contains("<b>ann"), "{page}");
        assert!(
            page.contains("&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;alert(1)") && page.contains("\\u{1b}[2J"),
            "{page}"
        );
        assert!(page.contains("<span class=\"ln\">4</span>"), "numbered lines: {page}");
        assert!(!page.contains("://") && !page.contains(" src="), "nothing is fetched");
        assert_eq!(page, super::page(&findings, pair, true), "the same bytes");
    }
}
