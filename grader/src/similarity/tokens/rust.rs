//! Rust, by the reference's "Tokens" and "Comments": line and (nested) block comments, doc comments
//! included; identifiers and raw identifiers (`r#match`); lifetimes told from character literals (`'a`
//! against `'a'`); strings, byte and C strings, raw strings with any number of `#`; numbers with
//! underscores, exponents and suffixes (`7u32`, `1e-3_f64`), never eating the `..` of a range or a method's
//! `.`; punctuation by longest match, but `<` and `>` always alone (a generic's `>>` is two closings). A file
//! rustc would refuse still gives tokens.
//!
//! `use` declarations, `mod name;` and attributes (`#[derive(…)]`, `#![…]`) are left out.

use super::lexeme::{past, past_group, Class, Cursor, Lexeme};

/// Rust's strict and reserved keywords (2021 edition), and the literals `true` and `false`.
const KEYWORDS: [&str; 50] = [
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
    "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self", "Self",
    "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become",
    "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield",
];

/// Punctuation of more than one character, longest first (none made of `<` or `>` pairs: see the module doc).
const PUNCTUATION: [&str; 18] =
    ["...", "..=", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", ".."];

/// The lexemes of a Rust file.
pub(super) fn lexemes(source: &str) -> Vec<Lexeme<'_>> {
    let mut lexer = Lexer { c: Cursor::new(source), out: Vec::new() };
    lexer.run();
    leave_out_declarations(&lexer.out)
}

struct Lexer<'a> {
    c: Cursor<'a>,
    out: Vec<Lexeme<'a>>,
}

impl<'a> Lexer<'a> {
    fn run(&mut self) {
        while let Some(c) = self.c.peek(0) {
            let (start, line) = (self.c.at, self.c.line);
            let class = if c.is_whitespace() {
                self.c.bump();
                continue;
            } else if self.c.rest().starts_with("//") {
                while self.c.peek(0).is_some_and(|c| c != '\n') {
                    self.c.bump();
                }
                continue;
            } else if self.c.rest().starts_with("/*") {
                self.block_comment();
                continue;
            } else if let Some(prefix) = self.string_prefix() {
                let raw = self.c.rest()[..prefix].contains('r');
                self.c.bump_n(prefix);
                self.string(raw);
                Class::Text
            } else if c == '\'' {
                self.quote()
            } else if self.c.rest().starts_with("b'") {
                self.c.bump();
                self.quote()
            } else if c.is_alphabetic() || c == '_' {
                if self.c.rest().starts_with("r#") {
                    self.c.bump_n(2);
                }
                self.word();
                let word = &self.c.source[start..self.c.at];
                if KEYWORDS.contains(&word) {
                    Class::Fixed
                } else {
                    Class::Identifier
                }
            } else if c.is_ascii_digit() {
                self.number();
                Class::Number
            } else {
                let length = PUNCTUATION.iter().find(|p| self.c.rest().starts_with(**p)).map_or(1, |p| p.len());
                self.c.bump_n(length);
                Class::Fixed
            };
            self.out.push(Lexeme { class, text: &self.c.source[start..self.c.at], line });
        }
    }

    fn word(&mut self) {
        while self.c.peek(0).is_some_and(|c| c.is_alphanumeric() || c == '_') {
            self.c.bump();
        }
    }

    /// A block comment, nested ones inside it; an unterminated one ends the file.
    fn block_comment(&mut self) {
        let mut depth = 0usize;
        while self.c.at < self.c.source.len() {
            if self.c.rest().starts_with("/*") {
                depth += 1;
                self.c.bump_n(2);
            } else if self.c.rest().starts_with("*/") {
                self.c.bump_n(2);
                depth -= 1;
                if depth == 0 {
                    return;
                }
            } else {
                self.c.bump();
            }
        }
    }

    /// The characters before a string's opening quote or `#`s (`b`, `c`, `r`, `br`, `cr`), when one starts here.
    fn string_prefix(&self) -> Option<usize> {
        let rest = self.c.rest();
        let raw = |after: &str| {
            let hashes = after.len() - after.trim_start_matches('#').len();
            after[hashes..].starts_with('"')
        };
        if rest.starts_with('"') {
            Some(0)
        } else if rest.starts_with("b\"") || rest.starts_with("c\"") || (rest.starts_with('r') && raw(&rest[1..])) {
            Some(1)
        } else if (rest.starts_with("br") || rest.starts_with("cr")) && raw(&rest[2..]) {
            Some(2)
        } else {
            None
        }
    }

    /// A string from its `#`s or opening quote: raw (its prefix has an `r`) or with escapes.
    fn string(&mut self, raw: bool) {
        let hashes = self.c.rest().len() - self.c.rest().trim_start_matches('#').len();
        self.c.bump_n(hashes + 1);
        let closing = format!("\"{}", "#".repeat(hashes));
        while let Some(c) = self.c.peek(0) {
            if !raw && c == '\\' {
                self.c.bump_n(2);
            } else if self.c.rest().starts_with(&closing) {
                self.c.bump_n(closing.len());
                return;
            } else {
                self.c.bump();
            }
        }
    }

    /// From a `'`: a lifetime or label (`'a`, `'outer`: an identifier) or a character literal (`'a'`, `'\n'`).
    fn quote(&mut self) -> Class {
        let next = self.c.peek(1);
        let identifier_start = next.is_some_and(|c| c.is_alphabetic() || c == '_');
        if identifier_start {
            let word_end = self.c.rest()[1..]
                .char_indices()
                .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
                .map_or(self.c.rest().len(), |(i, _)| i + 1);
            if !self.c.rest()[word_end..].starts_with('\'') {
                self.c.bump();
                self.word();
                return Class::Identifier;
            }
        }
        self.c.bump();
        let mut taken = 0;
        while let Some(c) = self.c.peek(0) {
            if c == '\n' || taken > 12 {
                break;
            }
            self.c.bump();
            taken += 1;
            if c == '\\' {
                self.c.bump();
            } else if c == '\'' {
                break;
            }
        }
        Class::Text
    }

    fn number(&mut self) {
        let start = self.c.at;
        let based = ["0x", "0o", "0b"].iter().any(|p| self.c.rest().starts_with(p));
        let mut dot = false;
        while let Some(c) = self.c.peek(0) {
            let so_far = &self.c.source[start..self.c.at];
            let mantissa = so_far
                .strip_suffix(['e', 'E'])
                .is_some_and(|m| m.chars().all(|d| d.is_ascii_digit() || d == '_' || d == '.'));
            let fraction = c == '.' && !dot && !based && self.c.peek(1).is_some_and(|d| d.is_ascii_digit());
            let exponent_sign = matches!(c, '+' | '-') && !based && mantissa;
            if c.is_ascii_alphanumeric() || c == '_' || exponent_sign {
                self.c.bump();
            } else if fraction {
                dot = true;
                self.c.bump();
            } else if c == '.'
                && !dot
                && !based
                && self.c.peek(1).is_none_or(|d| !(d == '.' || d == '_' || d.is_alphabetic()))
            {
                // `1.` is a float: not a range's `..`, not a method's or a field's `.`
                dot = true;
                self.c.bump();
            } else {
                break;
            }
        }
    }
}

/// Leaves out `use` declarations (`pub use` too), `mod name;` and attributes.
fn leave_out_declarations<'a>(all: &[Lexeme<'a>]) -> Vec<Lexeme<'a>> {
    let mut kept: Vec<Lexeme<'_>> = Vec::with_capacity(all.len());
    let mut at = 0;
    while at < all.len() {
        let lexeme = all[at];
        let item_start = |kept: &[Lexeme<'_>]| kept.last().is_none_or(|l| l.is(";") || l.is("}") || l.is("{"));
        let next_is = |offset: usize, text: &str| all.get(at + offset).is_some_and(|l| l.is(text));
        if lexeme.is("#") && (next_is(1, "[") || (next_is(1, "!") && next_is(2, "["))) {
            let open = if next_is(1, "[") { at + 1 } else { at + 2 };
            at = past_group(all, open, "[", "]");
        } else if item_start(&kept) && (lexeme.is("use") || (lexeme.is("pub") && public_use(&all[at..]))) {
            at = past(all, at, ";");
        } else if lexeme.is("mod") && all.get(at + 1).is_some_and(|l| l.class == Class::Identifier) && next_is(2, ";") {
            at += 3;
        } else {
            kept.push(lexeme);
            at += 1;
        }
    }
    kept
}

/// Whether the item starting at `pub` is a `use` (`pub use`, `pub(crate) use`); a visibility is a few tokens,
/// so no more are looked at (a file of `{pub(` repeated must not cost a scan to its end per `pub`).
fn public_use(item: &[Lexeme<'_>]) -> bool {
    let item = &item[..item.len().min(16)];
    let after = if item.get(1).is_some_and(|l| l.is("(")) { past_group(item, 1, "(", ")") } else { 1 };
    item.get(after).is_some_and(|l| l.is("use"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(source: &str) -> String {
        super::super::lexeme::shown(&lexemes(source))
    }

    #[test]
    fn comments_declarations_and_attributes_are_left_out() {
        let source = "//! crate doc\nuse std::fmt;\npub(crate) use a::b;\nmod board;\n/* outer /* nested */ still */\n\
                      #[derive(Clone, PartialEq)]\n#![allow(dead_code)]\n/// doc\npub struct B { t: Vec<Vec<u32>> }\n\
                      mod inline { fn f() {} }";
        assert_eq!(shown(source), "pub struct ID { ID : ID < ID < ID > > } mod ID { fn ID ( ) { } }");
    }

    #[test]
    fn lifetimes_are_not_characters_and_numbers_leave_ranges_alone() {
        assert_eq!(shown("fn f<'a>(x: &'a str) -> char { 'x' }"), "fn ID < ID > ( ID : & ID ID ) -> ID { STR }");
        assert_eq!(shown("'\\n' '\\'' b'x' 'outer: loop {}"), "STR STR STR ID : loop { }");
        assert_eq!(
            shown("for i in 0..n { a[i] = 1.5e-3_f64 + 2.; x.0.max(1) }"),
            "for ID in NUM .. ID { ID [ ID ] = NUM + NUM ; ID . NUM . ID ( NUM ) }"
        );
        assert_eq!(shown("0..=9 1..2 7u32.pow(2)"), "NUM ..= NUM NUM .. NUM NUM . ID ( NUM )");
    }

    #[test]
    fn strings_of_every_kind_are_one_token_on_their_first_line() {
        let source =
            "let s = r#\"a \" quote\"# + br\"x\" + c\"y\" + \"multi\nline \\\" esc\" + r\"raw\\\";\nlet t = 1;";
        assert_eq!(shown(source), "let ID = STR + STR + STR + STR + STR ; let ID = NUM ;");
        let last = lexemes(source).last().map(|l| l.line);
        assert_eq!(last, Some(3));
        assert_eq!(shown("let r#match = 1;"), "let ID = NUM ;");
    }

    #[test]
    fn broken_files_still_give_tokens() {
        assert_eq!(shown("fn f() { \"never closed"), "fn ID ( ) { STR");
        assert_eq!(shown("/* never closed"), "");
        assert_eq!(shown("#[derive(Clone"), "");
        assert_eq!(shown("'"), "STR");
    }
}
