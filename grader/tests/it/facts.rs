//! The HTML report carries every fact the text report shows, so that a line added to one only fails a test.
//! The facts of a text report are its lines, each read by the rule of its kind ([`text_facts`]): most are
//! themselves (a message line, a row, a finding, a grader problem), some are what they name (a test's header
//! is its id and title, a file's line its name, `Seed: 7` is `seed 7`), and the layout is none (banners,
//! verdict arrows, tallies the page counts its own way, the marks that say a list was cut). Each must appear
//! in the page's visible text, case and spacing aside. The other way, every grader problem, note, cause and
//! fix-first item the page shows must be in the text.
//!
//! Checked on the reports the end-to-end tests already write (html.rs, call_sites.rs, formats.rs, and every
//! gallery entry's first run in gallery.rs): no submission is graded for this alone.

/// The facts of `text` (a text report) that the page `html` does not show; empty when it shows them all.
pub fn missing_from_html(text: &str, html: &str) -> Vec<String> {
    let page = visible_text(html);
    text_facts(text).into_iter().filter(|fact| !page.contains(&normalized(fact))).collect()
}

/// The page's lines of its own (grader problems, notes, causes, fix-first items) that `text` does not show.
pub fn missing_from_text(html: &str, text: &str) -> Vec<String> {
    let text = normalized(text);
    let mut missing = Vec::new();
    for marker in ["<p class=\"problem", "<p class=\"note\">", "<p class=\"because\">", "<section id=\"fix-first\">"] {
        for part in html.split(marker).skip(1) {
            let end = if marker.contains("fix-first") { "</section>" } else { "</p>" };
            let block = if marker.ends_with('>') { part } else { part.split_once('>').map_or(part, |(_, rest)| rest) };
            let block = block.split(end).next().unwrap_or("");
            for line in visible_text(&format!("<p>{block}</p>")).lines() {
                let line = line.trim();
                if !line.is_empty()
                    && line != "fix first"
                    && line != "one cause fails many tests:"
                    && !text.contains(line)
                {
                    missing.push(line.to_string());
                }
            }
        }
    }
    missing
}

/// A text report's facts, in order (module doc).
pub fn text_facts(text: &str) -> Vec<String> {
    let mut facts = Vec::new();
    let mut after_stars = false;
    let mut in_files = false;
    for raw in text.lines() {
        let line = raw.split_whitespace().collect::<Vec<_>>().join(" ");
        let banner_title = after_stars && raw.starts_with("*  ");
        after_stars = !raw.is_empty() && raw.chars().all(|c| c == '*');
        if line.is_empty() {
            in_files = false;
            continue;
        }
        if line == "The following files were submitted:" {
            in_files = true;
            continue;
        }
        if in_files {
            if let Some((_, name)) = line.split_once(' ') {
                facts.push(name.to_string());
            }
            continue;
        }
        if after_stars || banner_title || layout(&line) {
            continue;
        }
        if let Some((head, rest)) = raw.trim_start().split_once("  [") {
            let (id, after) = rest.split_once(']').unwrap_or((rest, ""));
            facts.push(id.trim_end_matches("/…").to_string());
            facts.push(head.split_once(": ").map_or(head, |(_, title)| title).to_string());
            if let Some(reason) = after.trim().strip_prefix("==> skipped (").and_then(|r| r.strip_suffix(')')) {
                facts.push(reason.to_string());
            }
            continue;
        }
        let fact = if let Some(value) = line.strip_prefix("Submission: ") {
            value.to_string()
        } else if let Some(seed) = line.strip_prefix("Seed: ") {
            format!("seed {seed}")
        } else if let Some(row) = ["=> passed ", "=> FAILED ", "=> ERROR ", "=> skip ", "=> n/a "]
            .iter()
            .find_map(|verdict| line.strip_prefix(verdict))
        {
            row.to_string()
        } else if let Some(item) = line.strip_prefix("* ").or_else(|| line.strip_prefix("- ")) {
            item.to_string()
        } else if raw.starts_with("  ") && !line.contains(' ') && line.ends_with(':') {
            line.trim_end_matches(':').to_string() // a table row's name above its reasons
        } else {
            line
        };
        facts.push(fact);
    }
    facts
}

/// Lines that are layout, not facts: rules, the summary's heading, section tallies the page counts per
/// section and table, and the marks that say a list was cut where the page cuts it later or not at all.
fn layout(line: &str) -> bool {
    let cut = |l: &str| {
        let l = l.trim_start_matches(['*', '-', ' ']);
        (l.starts_with("… and ") || l.starts_with("... and ")) && l.ends_with(" more")
            || l.starts_with("… (") && (l.ends_with(" more lines)") || l.ends_with(" more bytes)"))
    };
    line.chars().all(|c| c == '-')
        || line.starts_with("*-")
        || line == "ASSESSMENT SUMMARY"
        || line == "Fix first (one cause fails many tests):"
        || line.starts_with("==>")
        || line.starts_with("Total: ")
        || (line.starts_with("Running ") && line.contains(" total test"))
        || cut(line)
}

/// A page's visible text: scripts and styles dropped, tags gone (a block's end a line break), entities
/// decoded, one line per block, normalized.
pub fn visible_text(html: &str) -> String {
    let mut text = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        text.push_str(&rest[..at]);
        let tag_end = rest[at..].find('>').map_or(rest.len(), |e| at + e + 1);
        let tag = rest[at..tag_end].to_ascii_lowercase();
        let name: String = tag.trim_start_matches(['<', '/']).chars().take_while(char::is_ascii_alphanumeric).collect();
        rest = &rest[tag_end..];
        if (name == "script" || name == "style") && !tag.starts_with("</") {
            let close = format!("</{name}>");
            rest = rest.find(&close).map_or("", |e| &rest[e + close.len()..]);
            continue;
        }
        let inline = ["a", "strong", "code", "span", "em", "b", "i", "small"].contains(&name.as_str());
        text.push(if inline { ' ' } else { '\n' });
    }
    text.push_str(rest);
    let decoded = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    decoded.lines().map(normalized).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n")
}

/// Lowercase, one space between words, none before the punctuation an inline tag's end may have spaced off.
fn normalized(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let mut out = joined;
    for mark in [")", ",", ";", ":", ".", "]"] {
        out = out.replace(&format!(" {mark}"), mark);
    }
    for mark in ["(", "["] {
        out = out.replace(&format!("{mark} "), mark);
    }
    out
}

#[test]
fn a_line_the_page_lacks_is_named_and_layout_is_no_fact() {
    let text = "ASSESSMENT SUMMARY\n\nSubmission:  ada (java)\nSeed:        7\n\nAggregate score: 50.00%\n\n\
                ****\n*  COMPILING\n****\n\nTest 1a: hamming of a board  [board-1a]\n  * puzzle04.txt\n  - threw\n\
                  - calls come from: 98% at Solver.java:21\n==> FAILED\n\nTotal: 0/1 tests passed\n";
    let page = "<html><style>p{}</style><p class=\"sub\">ada (java) · seed 7</p><p>Aggregate score: 50.00%</p>\
                <h4><code>board-1a</code> Hamming of a <em>board</em></h4><p>Inputs: puzzle04.txt</p>\
                <pre>threw</pre><script>var x = 'calls come from';</script></html>";
    assert_eq!(missing_from_html(text, page), ["calls come from: 98% at Solver.java:21"]);
    assert_eq!(
        missing_from_html(text, &page.replace("<pre>threw", "<pre>threw\ncalls come from: 98% at Solver.java:21")),
        Vec::<String>::new()
    );
    let problem = "<p class=\"problem\">GRADER PROBLEM: the machine stalled</p>";
    assert_eq!(missing_from_text(problem, text), ["grader problem: the machine stalled"]);
}
