//! Decimal numbers in protocol and puzzle text, written and read without the general machinery.
#![allow(missing_docs)]
//!
//! Protocol text is mostly numbers: a 127-by-127 board is 16,129 tiles each way (its `toString()` and its
//! `board` request), and the grader reads hundreds of them per run. Through `fmt` every number costs a
//! formatter call, and through `split_whitespace` + `parse` every number costs a Unicode-aware scan and a
//! slice; here a number costs a few instructions. The readers are fast paths only: they answer `None` at the
//! first thing they do not expect, and the caller's careful path then says what is wrong and where.

/// Appends `value` in decimal. (`push_str` of itoa's digits: 40% fewer instructions than pushing them as
/// chars one by one, measured with callgrind on encoding a 127-by-127 board request.)
pub fn push(out: &mut String, value: u64) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// How numbers are separated in the text being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separators {
    /// Exactly one space between numbers, none before the first or after the last (protocol arguments).
    SingleSpace,
    /// Any run of ASCII whitespace, before, between and after (puzzle files and `toString()` text).
    AsciiWhitespace,
}

/// Reads the unsigned decimal numbers of `text` (each below 2³²), appending them to `out`; `None` if the text
/// holds anything else or separates them otherwise than `separators` says.
pub fn read_numbers(text: &str, separators: Separators, out: &mut Vec<u32>) -> Option<()> {
    let single = separators == Separators::SingleSpace;
    let bytes = text.as_bytes();
    // One pass, one branch per byte: a 127-by-127 board's text is ~100 KB.
    let (mut value, mut digits) = (0u64, 0u32);
    for &byte in bytes {
        let digit = byte.wrapping_sub(b'0');
        if digit < 10 {
            value = value * 10 + u64::from(digit);
            digits += 1;
            if digits > 10 {
                return None; // past u32::MAX for sure, and `value` stays far from overflowing
            }
        } else if byte == b' ' || (!single && byte.is_ascii_whitespace()) {
            if digits > 0 {
                out.push(u32::try_from(value).ok()?);
                (value, digits) = (0, 0);
            } else if single {
                return None; // a space that does not end a number: leading, or one of two in a row
            }
        } else {
            return None;
        }
    }
    if digits > 0 {
        out.push(u32::try_from(value).ok()?);
    } else if single && !bytes.is_empty() {
        return None; // a trailing space
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rstest::rstest;

    #[test]
    fn writes_what_display_writes() {
        for value in [0, 7, 10, 99, 100, 16_128, u64::from(u32::MAX), u64::MAX] {
            let mut out = String::from("x");
            push(&mut out, value);
            assert_eq!(out, format!("x{value}"));
        }
    }

    fn read(text: &str, separators: Separators) -> Option<Vec<u32>> {
        let mut out = Vec::new();
        read_numbers(text, separators, &mut out).map(|()| out)
    }

    use Separators::{AsciiWhitespace as Any, SingleSpace as Single};

    #[rstest]
    #[case(Single, "", Some(vec![]))]
    #[case(Single, "7", Some(vec![7]))]
    #[case(Single, "1 22 333", Some(vec![1, 22, 333]))]
    #[case(Single, "4294967295", Some(vec![u32::MAX]))]
    #[case(Single, "4294967296", None)]
    #[case(Single, "1  2", None)]
    #[case(Single, " 1", None)]
    #[case(Single, "1 ", None)]
    #[case(Single, "1\t2", None)]
    #[case(Single, "-1", None)]
    #[case(Single, "+1", None)]
    #[case(Single, "1x", None)]
    #[case(Any, "", Some(vec![]))]
    #[case(Any, "  \n", Some(vec![]))]
    #[case(Any, " 3\n 1  2\r\n\t0 \n", Some(vec![3, 1, 2, 0]))]
    #[case(Any, "1\x0c2", Some(vec![1, 2]))]
    #[case(Any, "1 x", None)]
    #[case(Any, "12a 3", None)]
    #[case(Any, "1\u{a0}2", None)]
    #[case(Any, "99999999999", None)]
    fn reads_exactly_its_form(#[case] separators: Separators, #[case] text: &str, #[case] expected: Option<Vec<u32>>) {
        assert_eq!(read(text, separators), expected);
    }

    proptest! {
        /// Whatever the fast path accepts, the general path reads the same way.
        #[test]
        fn agrees_with_split_and_parse(text in "[0-9 \\t\\n\\r]{0,40}") {
            if let Some(fast) = read(&text, Any) {
                let slow: Vec<u32> = text.split_ascii_whitespace().map(|t| t.parse().unwrap()).collect();
                prop_assert_eq!(fast, slow);
            }
            if let Some(fast) = read(&text, Single) {
                let slow: Vec<u32> = if text.is_empty() { vec![] } else { text.split(' ').map(|t| t.parse().unwrap()).collect() };
                prop_assert_eq!(fast, slow);
            }
        }
    }
}
