//! Integers written into strings digit by digit, without the formatting machinery.
//!
//! Protocol text is mostly numbers: a 127-by-127 board is 16,129 tiles each way (its `toString()` and its
//! `board` request). Through `fmt` every number costs a formatter call; here it costs a few divisions.

/// Appends `value` in decimal.
pub(crate) fn push(out: &mut String, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend(digits[start..].iter().map(|&digit| char::from(digit)));
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_what_display_writes() {
        for value in [0, 7, 10, 99, 100, 16_128, u64::from(u32::MAX), u64::MAX] {
            let mut out = String::from("x");
            super::push(&mut out, value);
            assert_eq!(out, format!("x{value}"));
        }
    }
}
