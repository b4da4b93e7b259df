//! The one escaping rule of the page, below every part that writes student-controlled text, and the
//! anchors of tests built with it.

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The anchor of a test's card (or of its row in a group's card).
pub fn anchor(id: &str) -> String {
    format!("test-{}", escape(&id.replace('/', "-")))
}
