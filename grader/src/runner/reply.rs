//! What the grader keeps of a reply. A submission decides how long its replies are (an exception message of
//! 12 MiB fits a protocol line, and so does a `toString()` of a megabyte for a 3-by-3 board), while a Board
//! test keeps thousands of requests in flight; so the session reads every reply through two bounds:
//!
//! - **Text is cut as it is read** ([`kept`]): an exception's kind and message, a refusal's reason and a
//!   `toString()` longer than any board a test prints keep their start and their end, with the number of
//!   bytes left out between them ([`crate::clip`]).
//! - **The replies read but not yet handed to their checks are capped** ([`ReadAhead`]): past the policy's
//!   `limits.reply_buffer_mb`, a reply's request fails with "reply too long" instead of being kept.
//!
//! Which replies are kept depends only on what the program wrote and on the order in which the grader reads
//! and redeems batches, never on timing, so reports stay reproducible. This module knows the protocol's
//! wire types only; the session turns what it keeps into answers and faults.

use std::sync::OnceLock;

use npuzzle_harness::protocol::{escape, Outcome};

use crate::clip::clipped;

/// The most of an exception message or a refusal's reason kept: its first and last 2 KiB.
pub const MESSAGE_KEEP: usize = 4 << 10;
/// The most of an exception's kind kept (a Java class name, or `panic`).
const KIND_KEEP: usize = 256;
/// What a kept reply costs beyond its text: the answer or fault that holds it.
const REPLY_OVERHEAD: usize = 64;

/// The most of a `toString()` reply kept: four times the reference's text of the largest board any test
/// prints (a 127-by-127 board, about 86 KB on the wire), room for any whitespace a student's format uses.
pub fn text_keep() -> usize {
    static KEEP: OnceLock<usize> = OnceLock::new();
    *KEEP.get_or_init(|| {
        let largest = reference::Board::goal(reference::board::MAX_DIMENSION).map(|board| board.to_string());
        4 * escape(&largest.unwrap_or_default()).len()
    })
}

/// `outcome` with its text cut to the bounds above; `text` says the request was `to_string`, whose values
/// are text rather than numbers and handles.
pub fn kept(outcome: Outcome, text: bool) -> Outcome {
    match outcome {
        Outcome::Ok(values) if text => Outcome::Ok(clipped(values, text_keep())),
        Outcome::Ok(values) => Outcome::Ok(values),
        Outcome::Exception { kind, message } => {
            Outcome::Exception { kind: clipped(kind, KIND_KEEP), message: clipped(message, MESSAGE_KEEP) }
        }
        Outcome::Unsupported(reason) => Outcome::Unsupported(clipped(reason, MESSAGE_KEEP)),
        Outcome::Protocol(reason) => Outcome::Protocol(clipped(reason, MESSAGE_KEEP)),
    }
}

/// The bytes the grader holds to keep `outcome` until its check reads it.
pub fn weight(outcome: &Outcome) -> usize {
    REPLY_OVERHEAD
        + match outcome {
            Outcome::Ok(values) => values.len(),
            Outcome::Exception { kind, message } => kind.len() + message.len(),
            Outcome::Unsupported(reason) | Outcome::Protocol(reason) => reason.len(),
        }
}

/// The cap on replies read ahead of their checks (`limits.reply_buffer_mb`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadAhead {
    /// The most bytes held, in MiB.
    pub mib: usize,
}

impl ReadAhead {
    /// Why a reply of `weight` bytes is not kept when `held` bytes already wait, or `None` when it fits.
    pub fn refuses(self, held: usize, weight: usize) -> Option<String> {
        (held.saturating_add(weight) > self.mib << 20).then(|| {
            format!(
                "the replies waiting to be judged would hold more than {} MiB with this one ({weight} bytes), the \
                 grader's limit (`limits.reply_buffer_mb`): are the submission's exception messages or \
                 toString() very long?",
                self.mib
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_and_reasons_are_cut_and_short_answers_are_kept_whole() {
        let huge = "m".repeat(12 << 20);
        let Outcome::Exception { kind, message } =
            kept(Outcome::Exception { kind: "k".repeat(1000), message: huge.clone() }, false)
        else {
            panic!("still an exception")
        };
        assert!(kind.len() < KIND_KEEP + 64 && message.len() < MESSAGE_KEEP + 64, "{} {}", kind.len(), message.len());
        assert!(message.starts_with("mm") && message.ends_with("mm"));
        assert!(message.contains(&format!("({} bytes left out)", (12 << 20) - MESSAGE_KEEP)), "{message:.80}");
        assert_eq!(
            kept(Outcome::Protocol(huge.clone()), false),
            Outcome::Protocol(clipped(huge.clone(), MESSAGE_KEEP))
        );
        // handles and numbers are never cut: a cut handle list would read as other handles
        assert_eq!(kept(Outcome::Ok(huge.clone()), false), Outcome::Ok(huge));
        assert_eq!(kept(Outcome::Ok("3\\n1 2 3".into()), true), Outcome::Ok("3\\n1 2 3".into()));
    }

    #[test]
    fn a_to_string_longer_than_any_board_a_test_prints_is_cut() {
        let board = escape(&reference::Board::goal(127).unwrap().to_string());
        assert!((80_000..100_000).contains(&board.len()), "{}", board.len());
        assert_eq!(text_keep(), 4 * board.len());
        let long = "7 ".repeat(text_keep());
        let Outcome::Ok(cut) = kept(Outcome::Ok(long), true) else { panic!("still an answer") };
        assert!(cut.len() < text_keep() + 64 && cut.contains("bytes left out"), "{}", cut.len());
    }

    #[test]
    fn the_read_ahead_refuses_a_reply_past_its_budget_only() {
        let budget = ReadAhead { mib: 1 };
        assert_eq!(budget.refuses(0, 1 << 20), None);
        assert_eq!(budget.refuses((1 << 20) - 10, 10), None);
        let why = budget.refuses((1 << 20) - 10, 11).unwrap();
        assert!(why.contains("more than 1 MiB with this one (11 bytes)") && why.contains("reply_buffer_mb"), "{why}");
        assert_eq!(weight(&Outcome::Ok("12".into())), REPLY_OVERHEAD + 2);
    }
}
