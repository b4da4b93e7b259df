//! Student text made visible and inert before a report shows it: a name, a `toString()`, an exception
//! message, the program's output or the compiler's echo of a source line may hold control characters and
//! escapes that a terminal would obey (clear the screen, retitle the window, move the cursor over a verdict)
//! or Unicode controls that reorder what a reader sees. Each is written as its code, `\u{1b}`, so the reader
//! sees that it was there and nothing obeys it.
//!
//! Two shapes: [`line()`] for text shown on one line (a name, a table row), where a line break is shown too;
//! [`block`] for text shown as lines (a message, the program's output), which keeps line breaks and tabs.
//! Markdown's own syntax is [`markdown_inline`]'s business: it makes the text visible and escapes whatever
//! Markdown would turn into markup, a link, an image or raw HTML.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is shown as its code: C0 and C1 controls and DEL (`char::is_control`), and the Unicode
/// controls that change the order or the joining of what is displayed (bidirectional embeddings, overrides
/// and isolates, the marks, zero-width joiners, the BOM, the line and paragraph separators).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{061c}' | '\u{feff}')
}

fn escaped(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| hidden(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) && !keep(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` for one line: every control character, line breaks and tabs included, as its code.
pub fn line(text: &str) -> Cow<'_, str> {
    escaped(text, |_| false)
}

/// `text` for a block of lines: line feeds and tabs kept, every other control character as its code (a
/// carriage return too, which would let a line overwrite itself on a terminal).
pub fn block(text: &str) -> Cow<'_, str> {
    escaped(text, |c| c == '\n' || c == '\t')
}

/// `text` as one line of Markdown that renders as the text itself: visible controls ([`line()`]), `&`, `<`
/// and `>` as entities (no raw HTML, no `<!--` that hides the rest of the page, no autolink), and every
/// other character Markdown gives a meaning to backslash-escaped (no link, no image, no emphasis or code, no
/// table cell break, no bare `https:` or `www.` link).
pub fn markdown_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in line(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.' | '!' | '|' | '~'
            | ':' | '@' | '"' | '=' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_escapes_and_reordering_controls_are_shown_as_codes() {
        assert_eq!(line("plain text"), Cow::Borrowed("plain text"));
        assert_eq!(line("\x1b[2J\x1b]0;owned\x07"), "\\u{1b}[2J\\u{1b}]0;owned\\u{7}");
        assert_eq!(line("a\r\nb\tc"), "a\\u{d}\\u{a}b\\u{9}c");
        assert_eq!(line("abc\u{202e}fed\u{9b}"), "abc\\u{202e}fed\\u{9b}");
        assert_eq!(block("a\r\nb\tc\x1b"), "a\\u{d}\nb\tc\\u{1b}");
    }

    #[test]
    fn markdown_renders_no_markup_a_student_wrote() {
        let shown = markdown_inline("<!-- ![x](https://evil.example/p.png) [y](javascript:1) <b>|</b> www.x.org");
        assert!(!shown.contains('<') && !shown.contains("]("), "{shown}");
        assert_eq!(markdown_inline("a_b*c`d"), "a\\_b\\*c\\`d");
        assert_eq!(markdown_inline("x\x1by"), "x\\\\u\\{1b\\}y");
    }
}
