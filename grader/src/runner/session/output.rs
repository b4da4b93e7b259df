//! The standard error a session keeps of its programs ([`Output`]): the first half of [`OUTPUT_KEEP_BYTES`]
//! from the start, the latest half from the end, and how many bytes between them were left out.
//!
//! A program may write gigabytes to stderr, and the report shows what it wrote (its debugging prints, a stack
//! trace): the start says what it was doing, the end why it died. Which bytes are kept depends only on what
//! the program wrote, not on when the grader read it (the capture threads hand it over in chunks of any
//! size), so reports stay reproducible. Its latest words are also where a runtime says it ran out of memory
//! ([`Output::latest`]).

use crate::runner::process::CapturedOutput;

/// The most stderr text kept per session: half from the start, half the latest.
pub(super) const OUTPUT_KEEP_BYTES: usize = 64 * 1024;

/// The stderr a session keeps: the first half of [`OUTPUT_KEEP_BYTES`] from the start, the latest half from
/// the end, and how many bytes between them were left out.
#[derive(Debug, Default, Clone)]
pub(super) struct Output {
    head: String,
    tail: String,
    dropped: u64,
}

impl Output {
    const HALF: usize = OUTPUT_KEEP_BYTES / 2;

    /// Adds what a capture thread handed over (its own start, the bytes it left out, its latest).
    pub(super) fn append(&mut self, captured: &CapturedOutput) {
        self.push(&captured.text[..captured.cut_at]);
        self.dropped += captured.dropped_bytes;
        self.push(&captured.text[captured.cut_at..]);
    }

    fn push(&mut self, text: &str) {
        let room = Self::HALF.saturating_sub(self.head.len());
        let split = if text.len() <= room { text.len() } else { text.floor_char_boundary(room) };
        let (to_head, rest) = if self.tail.is_empty() && self.dropped == 0 { text.split_at(split) } else { ("", text) };
        self.head.push_str(to_head);
        if rest.is_empty() {
            return;
        }
        self.tail.push_str(rest);
        if self.tail.len() > Self::HALF {
            let cut = self.tail.ceil_char_boundary(self.tail.len() - Self::HALF);
            self.dropped += cut as u64;
            self.tail.drain(..cut);
        }
    }

    /// The last few KiB kept (where a program that died said why).
    pub(super) fn latest(&self) -> String {
        const LATEST: usize = 4 << 10;
        let mut text = self.tail.clone();
        if text.len() < LATEST {
            let from = self.head.ceil_char_boundary(self.head.len().saturating_sub(LATEST - text.len()));
            text.insert_str(0, &self.head[from..]);
        }
        text
    }

    /// The text kept, and whether some was left out.
    pub(super) fn into_text(self) -> (String, bool) {
        if self.dropped == 0 {
            return (self.head + &self.tail, false);
        }
        let gap = crate::results::output_gap(self.dropped);
        (self.head + &gap + &self.tail, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::pipes::tests_support::capture;

    #[test]
    fn kept_output_is_the_start_and_the_end_whenever_it_was_read() {
        let stream: String = (0..40_000).map(|i| format!("{i}\n")).collect();
        let whole = |chunks: &[usize]| {
            let mut output = Output::default();
            let mut at = 0;
            for &len in chunks {
                output.append(&capture(&stream.as_bytes()[at..at + len], 64 << 10));
                at += len;
            }
            output.into_text()
        };
        let len = stream.len();
        let (text, truncated) = whole(&[len]);
        assert!(truncated && text.starts_with("0\n1\n") && text.ends_with("39998\n39999\n"), "{}", &text[..40]);
        assert!(text.contains(&format!("({} bytes of standard error left out)", len - OUTPUT_KEEP_BYTES)), "{text}");
        assert_eq!(whole(&[10, 70_000, len - 70_010]), (text.clone(), true));
        assert_eq!(whole(&[40_000, 1, len - 40_001]), (text, true));
        assert_eq!(whole(&[100]), (stream[..100].to_string(), false));
    }

    #[test]
    fn the_latest_words_reach_back_into_the_start_when_the_end_is_short() {
        let mut output = Output::default();
        output.append(&capture(b"first\nsecond\n", 64 << 10));
        assert_eq!(output.latest(), "first\nsecond\n", "all of it sits in the start");
        output.append(&capture(&[b'a'; 33_755], 64 << 10));
        output.append(&capture(&[b'b'; 1_000], 64 << 10));
        let latest = output.latest();
        assert_eq!(latest.len(), 4 << 10);
        assert!(latest.starts_with('a') && latest.ends_with(&"b".repeat(1_000)), "{latest:.20}");
    }
}
