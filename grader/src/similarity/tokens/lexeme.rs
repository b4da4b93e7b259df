//! What every lexer here makes and shares, below all of them: a [`Lexeme`] (a token before normalization),
//! its [`Class`], and its normalized [`Token`] code; the [`Cursor`] Python's and Rust's lexers read with; and
//! two helpers that skip a declaration's tokens.

/// One normalized token: a code standing for its normalized text, and the line it starts on (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The same for the same normalized text, in every run and on every machine.
    pub code: u64,
    #[allow(missing_docs)]
    pub line: u32,
}

/// What a token is, before normalization.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// An identifier: every one is the same token.
    Identifier,
    /// A number literal.
    Number,
    /// A string, text block or character literal.
    Text,
    /// A keyword, operator, punctuation or layout token (`INDENT`): kept as its text.
    Fixed,
}

/// The code of a normalized token.
fn code(class: Class, text: &str) -> u64 {
    let normalized = match class {
        Class::Identifier => "\0id",
        Class::Number => "\0num",
        Class::Text => "\0str",
        Class::Fixed => text,
    };
    corpus::rng::StableHash::of(normalized.as_bytes())
}

/// A token of a lexer, before normalization: its class, its text (for fixed tokens) and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lexeme<'a> {
    pub class: Class,
    pub text: &'a str,
    pub line: u32,
}

impl Lexeme<'_> {
    pub fn token(&self) -> Token {
        Token { code: code(self.class, self.text), line: self.line }
    }

    /// Whether this is the fixed token `text` (a keyword, an operator).
    pub fn is(&self, text: &str) -> bool {
        self.class == Class::Fixed && self.text == text
    }
}

/// Skips from `lexemes[at]` to just past the end of a bracketed group opening there (`(`, `[`), counting
/// nested brackets of that kind; returns the index after it (the end, if it never closes).
pub fn past_group(lexemes: &[Lexeme<'_>], at: usize, open: &str, close: &str) -> usize {
    let mut depth = 0usize;
    for (i, lexeme) in lexemes.iter().enumerate().skip(at) {
        if lexeme.is(open) {
            depth += 1;
        } else if lexeme.is(close) {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return i + 1;
            }
        }
    }
    lexemes.len()
}

/// Skips from `lexemes[at]` to just past the next `end` (a `;`); the end of the file if there is none.
pub fn past(lexemes: &[Lexeme<'_>], at: usize, end: &str) -> usize {
    lexemes[at..].iter().position(|l| l.is(end)).map_or(lexemes.len(), |i| at + i + 1)
}

/// Where a lexer is in its source: the byte offset of the next character and its line (1-based).
#[derive(Debug, Clone, Copy)]
pub struct Cursor<'a> {
    pub source: &'a str,
    /// Byte offset of the next character.
    pub at: usize,
    pub line: u32,
}

impl<'a> Cursor<'a> {
    /// At the start of `source`.
    pub fn new(source: &'a str) -> Cursor<'a> {
        Cursor { source, at: 0, line: 1 }
    }

    /// The character `ahead` characters on, if any.
    pub fn peek(&self, ahead: usize) -> Option<char> {
        self.source[self.at..].chars().nth(ahead)
    }

    /// The source from the next character on.
    pub fn rest(&self) -> &'a str {
        &self.source[self.at..]
    }

    /// Takes the next character, counting lines.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Takes the next `n` characters.
    pub fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }
}

/// (test support) Lexemes as text: `ID`, `NUM`, `STR`, and fixed tokens as they are (`NEWLINE` for Python's).
#[cfg(test)]
pub fn shown(lexemes: &[Lexeme<'_>]) -> String {
    lexemes
        .iter()
        .map(|l| match l.class {
            Class::Identifier => "ID",
            Class::Number => "NUM",
            Class::Text => "STR",
            Class::Fixed => l.text.trim_start_matches('\0'),
        })
        .collect::<Vec<_>>()
        .join(" ")
}
