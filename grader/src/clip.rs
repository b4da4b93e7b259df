//! Text a submission controls, cut to a bound: its start and its end are kept, with a mark between them
//! saying how many bytes were left out. A submission decides how long its exception messages and its
//! `toString()` are (a 12 MiB message fits a protocol line); what the grader keeps of them, and what a
//! report shows, is bounded here.
//!
//! It knows nothing of the protocol or the reports: the runner clips replies as it reads them, and results
//! clip a test's message as a last bound.

use std::borrow::Cow;

/// `text` if it is at most `keep` bytes, else its first and last `keep / 2` bytes (to character boundaries)
/// with `… (N bytes left out) …` between them.
///
/// ```
/// use grader::clip::clip;
///
/// assert_eq!(clip("short", 8), "short");
/// assert_eq!(clip("0123456789abcdef", 8), "0123… (8 bytes left out) …cdef");
/// ```
pub fn clip(text: &str, keep: usize) -> Cow<'_, str> {
    if text.len() <= keep {
        return Cow::Borrowed(text);
    }
    let head = text.floor_char_boundary(keep / 2);
    let tail = text.ceil_char_boundary(text.len() - keep / 2);
    Cow::Owned(format!("{}… ({} bytes left out) …{}", &text[..head], tail - head, &text[tail..]))
}

/// [`clip`] of an owned string, which it returns as it is when it is short enough.
pub fn clipped(text: String, keep: usize) -> String {
    match clip(&text, keep) {
        Cow::Borrowed(_) => text,
        Cow::Owned(cut) => cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_keeps_both_ends_on_character_boundaries_and_counts_what_it_left_out() {
        assert_eq!(clip("", 0), "");
        assert_eq!(clip("abcd", 4), "abcd");
        assert_eq!(clip("abcde", 4), "ab… (1 bytes left out) …de");
        // 'é' is two bytes: the head stops before it, the tail starts after it
        assert_eq!(clip("aébcdeé", 4), "a… (6 bytes left out) …é");
        let long = "x".repeat(1 << 20);
        let cut = clipped(long, 4096);
        assert!(cut.len() < 4096 + 64, "{}", cut.len());
        assert!(cut.contains(&format!("({} bytes left out)", (1 << 20) - 4096)));
    }

    #[test]
    fn a_short_text_is_returned_as_it_is() {
        let text = String::from("fine");
        let pointer = text.as_ptr();
        let kept = clipped(text, 16);
        assert_eq!(kept.as_ptr(), pointer);
    }
}
