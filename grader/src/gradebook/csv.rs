//! CSV as spreadsheets and LMSs read it (RFC 4180): fields quoted when they must be, and no field that a
//! spreadsheet would run. A student's name, an error message or a test id is text: one that starts with
//! `=`, `+`, `-`, `@` (and is more than that sign), a tab or a carriage return would be taken for a formula
//! (`=HYPERLINK(…)`), so it is
//! written after a `'`, which spreadsheets read as "text follows" (the OWASP advice for CSV injection). A
//! field holding a comma, a quote, a line break or any other control character (or a byte-order mark) is quoted, so it stays one
//! field of one row. Numbers are written as numbers.
//!
//! The reader is for the files instructors give back to us (a Canvas gradebook export as a template).

/// One text field, neutralised and quoted as needed.
pub fn text(field: &str) -> String {
    let formula = looks_like_formula(field);
    let field = if formula { format!("'{field}") } else { field.to_string() };
    if field.contains([',', '"', '\u{feff}']) || field.chars().any(char::is_control) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field
    }
}

/// Whether a spreadsheet would run `field`: it starts with `=`, `+`, `-`, `@`, a tab or a carriage return,
/// and is more than that one sign (a lone `-`, Moodle's "no date", runs nothing).
fn looks_like_formula(field: &str) -> bool {
    field.starts_with(['\t', '\r']) || (field.starts_with(['=', '+', '-', '@']) && field.chars().nth(1).is_some())
}

/// A number with two decimals.
pub fn number(value: f64) -> String {
    format!("{value:.2}")
}

/// One row: the fields joined by commas, ended by CRLF as RFC 4180 writes it (every LMS reads that).
pub fn row<S: AsRef<str>>(fields: &[S]) -> String {
    let mut line = fields.iter().map(|f| f.as_ref()).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

/// The rows of a CSV text (quoted fields may hold commas, quotes and line breaks); a leading byte-order
/// mark, which spreadsheets add, is dropped.
///
/// # Errors
/// A quoted field that never ends.
pub fn parse(text: &str) -> Result<Vec<Vec<String>>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let (mut rows, mut row, mut field) = (Vec::new(), Vec::new(), String::new());
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') if chars.peek() == Some(&'\n') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err("a quoted field never ends".into());
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case("ada", "ada")]
    #[case("bob, jr", "\"bob, jr\"")]
    #[case("say \"hi\"", "\"say \"\"hi\"\"\"")]
    #[case("=HYPERLINK(\"http://x\",\"y\")", "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"")]
    #[case("+1", "'+1")]
    #[case("-2+3", "'-2+3")]
    #[case("@SUM(A1)", "'@SUM(A1)")]
    #[case("\tx", "\"'\tx\"")]
    #[case("-", "-")]
    #[case("a\rb", "\"a\rb\"")]
    #[case("a\x1bb", "\"a\x1bb\"")]
    fn text_fields_are_neutralised_and_quoted(#[case] field: &str, #[case] written: &str) {
        assert_eq!(text(field), written);
    }

    proptest! {
        /// Whatever a field holds, it reads back as one field of one row (after the `'` a formula gets).
        #[test]
        fn every_field_reads_back_whole(fields in proptest::collection::vec(".{0,12}", 1..5)) {
            let line = row(&fields.iter().map(|f| text(f)).collect::<Vec<_>>());
            let parsed = parse(&line).unwrap();
            prop_assert_eq!(parsed.len(), 1);
            let expected: Vec<String> = fields
                .iter()
                .map(|f| if looks_like_formula(f) { format!("'{f}") } else { f.clone() })
                .collect();
            prop_assert_eq!(&parsed[0], &expected);
        }
    }
}
