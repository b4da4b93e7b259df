//! The overview's Similarity section: the pairs of the class, then the pairs with the corpus, whose score
//! reaches the threshold, highest first, each linked to its page of fragments side by side ([`super::pair`]);
//! and what was left out of the comparison, and why. Said as what it is: evidence for a person to look at,
//! never a verdict.

use std::fmt::Write;

use crate::report::html::escape;
use crate::similarity::findings::{line_count, line_ranges, page_name, Findings, MAX_PAGES};
use crate::similarity::Pair;

/// The section, for the overview's page.
pub fn section(out: &mut String, findings: &Findings) {
    let threshold = findings.settings.threshold;
    let _ = write!(
        out,
        "<section id=\"similarity\"><h2>Similarity</h2><p class=\"sub\">Evidence for a person to look at, never a \
         verdict. A pair's score is the share of the smaller submission's own code (the starter's, and what many \
         of the class share, left out) that lies in fragments the two have in common, identifiers, literals and \
         layout aside. Pairs at or above {threshold}% are listed (<code>--similarity-threshold</code>); the method \
         and its test set: specs/similarity.md.</p>"
    );
    pairs(out, findings, &findings.comparison.class, true);
    if findings.settings.corpus.is_some() {
        pairs(out, findings, &findings.comparison.corpus, false);
    }
    compared(out, findings);
    notes(out, findings);
    out.push_str("</section>\n");
}

fn pairs(out: &mut String, findings: &Findings, pairs: &[Pair], of_class: bool) {
    let (heading, other) =
        if of_class { ("Within the class", "student") } else { ("Against known solutions", "known solution") };
    let _ = write!(out, "<h3>{heading}</h3>");
    if pairs.is_empty() {
        let threshold = findings.settings.threshold;
        let _ = write!(out, "<p class=\"none\">No pair reaches {threshold}%.</p>");
        return;
    }
    let _ = write!(
        out,
        "<table class=\"figures pairs\"><thead><tr><th>score</th><th>student</th><th>{other}</th><th>language</th>\
         <th>shared lines</th><th></th></tr></thead><tbody>"
    );
    for pair in pairs.iter().take(MAX_PAGES) {
        let (a, b) = (&findings.class[pair.a], findings.other(pair, of_class));
        let score = pair.shared.score() * 100.0;
        let fragments = &pair.shared.fragments;
        let identical = if b.identical > 0 {
            format!(" <span class=\"id\">and {} identical</span>", b.identical)
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<tr><td>{score:.1}% <span class=\"bar fail\"><span style=\"width:{score:.0}%\"></span></span></td>\
             <td>{} <span class=\"id\">{}</span></td><td>{}{}{identical}</td><td>{}</td>\
             <td><span title=\"{}\">{}</span> · <span title=\"{}\">{}</span></td>\
             <td><a href=\"similarity/{}\">side by side</a></td></tr>",
            escape(&a.name),
            escape(&a.key),
            escape(&b.name),
            if of_class { format!(" <span class=\"id\">{}</span>", escape(&b.key)) } else { String::new() },
            a.prints.language.map_or("", |l| l.name()),
            escape(&line_ranges(&a.prints, fragments.iter().map(|f| f.a))),
            line_count(fragments.iter().map(|f| f.a)),
            escape(&line_ranges(&b.prints, fragments.iter().map(|f| f.b))),
            line_count(fragments.iter().map(|f| f.b)),
            escape(&page_name(a, b))
        );
    }
    out.push_str("</tbody></table>");
    if pairs.len() > MAX_PAGES {
        let _ = write!(
            out,
            "<p class=\"sub\">And {} more pairs at or above {}%, without a page: see <code>similarity.csv</code>.</p>",
            pairs.len() - MAX_PAGES,
            findings.settings.threshold
        );
    }
}

/// How many submissions were compared, per language, and against what.
fn compared(out: &mut String, findings: &Findings) {
    let mut per_language: Vec<String> = Vec::new();
    for language in crate::similarity::Language::ALL {
        let count = findings
            .class
            .iter()
            .filter(|p| p.prints.language == Some(language) && !p.prints.prints.is_empty())
            .count();
        if count > 0 {
            per_language.push(format!("{count} {}", language.name()));
        }
    }
    let common: Vec<String> = findings
        .comparison
        .common
        .iter()
        .filter(|(_, hashes, _)| *hashes > 0)
        .map(|(language, hashes, at_least)| {
            format!("{hashes} {} fingerprints in at least {at_least} submissions", language.name())
        })
        .collect();
    let corpus = match &findings.settings.corpus {
        Some(path) => format!(
            "; against {} known solutions in <code>{}</code>",
            findings.corpus.len() + findings.corpus.iter().map(|p| p.identical).sum::<usize>(),
            escape(path)
        ),
        None => String::new(),
    };
    let base = match &findings.settings.base {
        Some(path) => format!("the course's starter code in <code>{}</code>", escape(path)),
        None => "the starters <code>grader new</code> writes".to_string(),
    };
    let common = if common.is_empty() { String::new() } else { format!("; left out as common: {}", common.join(", ")) };
    let _ = write!(
        out,
        "<p class=\"sub\">Compared: {}{corpus}. Left out of every match: {base}{common}.</p>",
        if per_language.is_empty() { "no submission".to_string() } else { per_language.join(", ") }
    );
}

/// Submissions compared in part or not at all, and what in the corpus could not be used.
fn notes(out: &mut String, findings: &Findings) {
    let notes = findings.notes();
    if notes.is_empty() && findings.corpus_notes.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<details class=\"notes\"><summary>{} submissions compared in part or not at all{}</summary><ul>",
        notes.len(),
        if findings.corpus_notes.is_empty() { String::new() } else { ", and the corpus's notes".into() }
    );
    for (who, lines) in notes {
        let _ = write!(
            out,
            "<li><strong>{}</strong> <span class=\"id\">{}</span>: {}</li>",
            escape(&who.name),
            escape(&who.key),
            escape(&lines.join("; "))
        );
    }
    for note in &findings.corpus_notes {
        let _ = write!(out, "<li>corpus: {}</li>", escape(note));
    }
    out.push_str("</ul></details>");
}
