//! Python, by the reference manual's lexical rules ("Lexical analysis"): physical lines joined into
//! logical lines inside brackets and after a backslash; a logical line's end as `NEWLINE`, its indentation
//! as `INDENT` and `DEDENT` (tabs to the next multiple of eight); blank and comment-only lines ignored;
//! string prefixes (`r`, `b`, `f`, `u` and their pairs, any case) and triple quotes; numbers with
//! underscores, exponents and imaginary suffixes; operators by longest match. A file the interpreter would
//! refuse still gives tokens (an unterminated string ends the file, an inconsistent dedent just dedents).
//!
//! `import` and `from … import` statements and docstrings (a logical line that is only a string) are left out.

use super::lexeme::{Class, Cursor, Lexeme};

/// Python's hard keywords (soft keywords such as `match` and `case` are identifiers where they may be).
const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del",
    "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
    "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// Operators and delimiters of more than one character, longest first.
const OPERATORS: [&str; 24] = [
    "**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+=", "-=", "*=",
    "/=", "%=", "&=", "|=", "^=", "@=",
];

const NEWLINE: &str = "\0NEWLINE";
const INDENT: &str = "\0INDENT";
const DEDENT: &str = "\0DEDENT";

/// The lexemes of a Python file.
pub(super) fn lexemes(source: &str) -> Vec<Lexeme<'_>> {
    let mut lexer = Lexer { c: Cursor::new(source), depth: 0, indents: vec![0], out: Vec::new() };
    lexer.run();
    leave_out_declarations(lexer.out)
}

struct Lexer<'a> {
    c: Cursor<'a>,
    /// Open brackets: inside them, line ends join lines.
    depth: usize,
    indents: Vec<usize>,
    out: Vec<Lexeme<'a>>,
}

impl<'a> Lexer<'a> {
    fn emit(&mut self, class: Class, start: usize, line: u32) {
        self.out.push(Lexeme { class, text: &self.c.source[start..self.c.at], line });
    }

    fn layout(&mut self, text: &'static str) {
        self.out.push(Lexeme { class: Class::Fixed, text, line: self.c.line });
    }

    fn run(&mut self) {
        let mut line_start = true;
        while self.c.at < self.c.source.len() {
            if line_start && self.depth == 0 {
                line_start = false;
                if !self.indentation() {
                    continue;
                }
            }
            let Some(c) = self.c.peek(0) else { break };
            match c {
                ' ' | '\t' | '\x0c' | '\r' => {
                    self.c.bump();
                }
                '#' => {
                    while self.c.peek(0).is_some_and(|c| c != '\n') {
                        self.c.bump();
                    }
                }
                '\\' if matches!(self.c.peek(1), Some('\n')) => {
                    self.c.bump();
                    self.c.bump();
                }
                '\\' if matches!((self.c.peek(1), self.c.peek(2)), (Some('\r'), Some('\n'))) => {
                    for _ in 0..3 {
                        self.c.bump();
                    }
                }
                '\n' => {
                    if self.depth == 0 {
                        self.layout(NEWLINE);
                        line_start = true;
                    }
                    self.c.bump();
                }
                _ => self.token(c),
            }
        }
        if self.out.last().is_some_and(|l| !l.is(NEWLINE)) {
            self.layout(NEWLINE);
        }
        while self.indents.len() > 1 {
            self.indents.pop();
            self.layout(DEDENT);
        }
    }

    /// Measures a line's indentation and emits `INDENT`/`DEDENT`; false (and the line skipped) when the line
    /// is blank or a comment only.
    fn indentation(&mut self) -> bool {
        let mut column = 0;
        while let Some(c) = self.c.peek(0) {
            match c {
                ' ' => column += 1,
                '\t' => column = (column / 8 + 1) * 8,
                '\x0c' => column = 0,
                _ => break,
            }
            self.c.bump();
        }
        match self.c.peek(0) {
            None => return false,
            Some('#') => {
                while self.c.peek(0).is_some_and(|c| c != '\n') {
                    self.c.bump();
                }
                self.c.bump();
                return false;
            }
            Some('\n') => {
                self.c.bump();
                return false;
            }
            Some('\r') if self.c.peek(1) == Some('\n') => {
                self.c.bump();
                self.c.bump();
                return false;
            }
            _ => {}
        }
        let current = self.indents.last().copied().unwrap_or(0);
        if column > current {
            self.indents.push(column);
            self.layout(INDENT);
        } else {
            while self.indents.len() > 1 && self.indents.last().is_some_and(|&i| i > column) {
                self.indents.pop();
                self.layout(DEDENT);
            }
        }
        true
    }

    fn token(&mut self, c: char) {
        let (start, line) = (self.c.at, self.c.line);
        if let Some(prefix) = self.string_prefix() {
            for _ in 0..prefix {
                self.c.bump();
            }
            let raw = self.c.source[start..self.c.at].contains(['r', 'R']);
            self.string(raw);
            self.emit(Class::Text, start, line);
        } else if c.is_alphabetic() || c == '_' {
            while self.c.peek(0).is_some_and(|c| c.is_alphanumeric() || c == '_') {
                self.c.bump();
            }
            let word = &self.c.source[start..self.c.at];
            self.emit(if KEYWORDS.contains(&word) { Class::Fixed } else { Class::Identifier }, start, line);
        } else if c.is_ascii_digit() || (c == '.' && self.c.peek(1).is_some_and(|d| d.is_ascii_digit())) {
            self.number();
            self.emit(Class::Number, start, line);
        } else {
            let rest = &self.c.source[self.c.at..];
            let length = OPERATORS.iter().find(|op| rest.starts_with(**op)).map_or(c.len_utf8(), |op| op.len());
            for _ in 0..self.c.source[self.c.at..self.c.at + length].chars().count() {
                self.c.bump();
            }
            match c {
                '(' | '[' | '{' => self.depth += 1,
                ')' | ']' | '}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            self.emit(Class::Fixed, start, line);
        }
    }

    /// The length of a string prefix (with no quote: 0) when a string starts here, in characters.
    fn string_prefix(&self) -> Option<usize> {
        let quote = |c: Option<char>| matches!(c, Some('"' | '\''));
        if quote(self.c.peek(0)) {
            return Some(0);
        }
        let letter = |c: Option<char>| c.is_some_and(|c| "rRbBfFuUtT".contains(c));
        if letter(self.c.peek(0)) && quote(self.c.peek(1)) {
            return Some(1);
        }
        let pair = |a: Option<char>, b: Option<char>| {
            let (Some(a), Some(b)) = (a, b) else { return false };
            let s: String = [a.to_ascii_lowercase(), b.to_ascii_lowercase()].iter().collect();
            ["rb", "br", "fr", "rf", "tr", "rt"].contains(&s.as_str())
        };
        (pair(self.c.peek(0), self.c.peek(1)) && quote(self.c.peek(2))).then_some(2)
    }

    /// A string from its opening quote: triple-quoted ones span lines, others end at their line's end.
    fn string(&mut self, raw: bool) {
        let Some(quote) = self.c.bump() else { return };
        let triple = self.c.peek(0) == Some(quote) && self.c.peek(1) == Some(quote);
        if triple {
            self.c.bump();
            self.c.bump();
        }
        while let Some(c) = self.c.peek(0) {
            if c == '\\' {
                self.c.bump();
                // a raw string keeps its backslash, but it still escapes the quote after it
                if !raw || self.c.peek(0) == Some(quote) || self.c.peek(0) == Some('\\') {
                    self.c.bump();
                }
                continue;
            }
            if c == '\n' && !triple {
                return;
            }
            self.c.bump();
            if c == quote && (!triple || (self.c.peek(0) == Some(quote) && self.c.peek(1) == Some(quote))) {
                if triple {
                    self.c.bump();
                    self.c.bump();
                }
                return;
            }
        }
    }

    fn number(&mut self) {
        let start = self.c.at;
        let rest = &self.c.source[start..];
        let hex = rest.starts_with("0x") || rest.starts_with("0X");
        let mut dot = false;
        while let Some(c) = self.c.peek(0) {
            let previous = self.c.source[start..self.c.at].chars().next_back();
            let exponent_sign = matches!(c, '+' | '-') && !hex && matches!(previous, Some('e' | 'E'));
            if c.is_ascii_alphanumeric() || c == '_' || exponent_sign {
                self.c.bump();
            } else if c == '.' && !dot && !hex {
                dot = true;
                self.c.bump();
            } else {
                break;
            }
        }
    }
}

/// Leaves out `import` statements and docstrings: logical lines that begin with `import` or `from`, or
/// hold nothing but strings.
fn leave_out_declarations(all: Vec<Lexeme<'_>>) -> Vec<Lexeme<'_>> {
    let mut kept = Vec::with_capacity(all.len());
    let mut at = 0;
    while at < all.len() {
        let statement_start = kept.last().is_none_or(|l: &Lexeme<'_>| l.is(NEWLINE) || l.is(INDENT) || l.is(DEDENT));
        if statement_start {
            let end = all[at..].iter().position(|l| l.is(NEWLINE)).map_or(all.len(), |i| at + i + 1);
            let import = all[at].is("import") || all[at].is("from");
            let docstring = all[at..end].iter().all(|l| l.class == Class::Text || l.is(NEWLINE));
            if import || docstring {
                at = end;
                continue;
            }
        }
        kept.push(all[at]);
        at += 1;
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(source: &str) -> String {
        super::super::lexeme::shown(&lexemes(source))
    }

    #[test]
    fn logical_lines_and_indentation_become_tokens() {
        let source = "from algs4 import MinPQ\nimport sys\n\nclass Board:\n    \"\"\"A board.\n\n    Immutable.\"\"\"\n\n    def __init__(self, tiles):  # keep a copy\n        self.t = [row[:] for row in\n                  tiles]\n\n        x = 1 + \\\n            2\n    def n(self):\n\treturn len(self.t)\n";
        assert_eq!(
            shown(source),
            "class ID : NEWLINE INDENT def ID ( ID , ID ) : NEWLINE INDENT ID . ID = [ ID [ : ] for ID in ID ] NEWLINE \
             ID = NUM + NUM NEWLINE DEDENT def ID ( ID ) : NEWLINE INDENT return ID ( ID . ID ) NEWLINE DEDENT DEDENT"
        );
    }

    #[test]
    fn strings_of_every_shape_are_one_token_on_the_line_they_start() {
        let source = "a = rb'x\\'y' + f\"{n:2d}\" + '''one\ntwo''' + R\"\\d\"\nb = 'unterminated\nc = 1e-5 + 0x_ff + 3.5j + .5\n";
        assert_eq!(
            shown(source),
            "ID = STR + STR + STR + STR NEWLINE ID = STR NEWLINE ID = NUM + NUM + NUM + NUM NEWLINE"
        );
        let lines: Vec<u32> = lexemes(source).iter().map(|l| l.line).collect();
        assert_eq!(lines.last(), Some(&4), "line numbers count the triple-quoted string's lines: {lines:?}");
    }

    #[test]
    fn operators_match_longest_first() {
        assert_eq!(shown("a //= b ** -c != d -> e\n"), "ID //= ID ** - ID != ID -> ID NEWLINE");
    }

    #[test]
    fn broken_files_still_give_tokens() {
        assert_eq!(shown("def f(:\n  x = '''never closed\n"), "def ID ( : ID = STR NEWLINE");
        assert_eq!(shown(""), "");
        assert_eq!(shown("    \n# only a comment\n"), "");
        assert_eq!(shown("if x:\n        a\n    b\n"), "if ID : NEWLINE INDENT ID NEWLINE DEDENT ID NEWLINE");
    }
}
