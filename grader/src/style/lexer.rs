//! Java source as tokens with their line and column, for our custom style checks: comments, string, text
//! block and character literals are skipped (a `hamming()` in a comment or a string is not a call), and
//! nothing is ever rejected (a file javac refuses still yields tokens; the checks simply find less).

/// What a token is, as far as the custom checks care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword.
    Word,
    /// A number literal.
    Number,
    /// A string, text block or character literal (its text is not kept).
    Literal,
    /// One punctuation character (`{`, `(`, `<`, `.`, `;`, …).
    Symbol,
}

/// One token: its kind, its text, and where it starts (1-based line and column, in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    #[allow(missing_docs)]
    pub kind: Kind,
    #[allow(missing_docs)]
    pub text: &'a str,
    #[allow(missing_docs)]
    pub line: u32,
    #[allow(missing_docs)]
    pub column: u32,
}

impl Token<'_> {
    /// Whether this is the word or symbol `text`.
    pub fn is(&self, text: &str) -> bool {
        self.kind != Kind::Literal && self.text == text
    }
}

/// The tokens of `source`, in order.
pub fn tokens(source: &str) -> Vec<Token<'_>> {
    let mut lexer = Lexer { source, at: 0, line: 1, column: 1 };
    let mut tokens = Vec::new();
    while let Some(token) = lexer.next() {
        tokens.push(token);
    }
    tokens
}

struct Lexer<'a> {
    source: &'a str,
    /// Byte offset of the next character.
    at: usize,
    line: u32,
    column: u32,
}

impl<'a> Lexer<'a> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.source[self.at..].chars().nth(ahead)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn rest_starts_with(&self, text: &str) -> bool {
        self.source[self.at..].starts_with(text)
    }

    /// Skips up to and including `end` (or to the end of the source).
    fn skip_past(&mut self, end: &str) {
        while !self.rest_starts_with(end) && self.bump().is_some() {}
        for _ in end.chars() {
            self.bump();
        }
    }

    /// Skips a quoted literal whose opening quote was consumed, honouring backslash escapes.
    fn skip_quoted(&mut self, quote: char) {
        while let Some(c) = self.bump() {
            match c {
                '\\' => {
                    self.bump();
                }
                '\n' => return,
                c if c == quote => return,
                _ => {}
            }
        }
    }

    fn next(&mut self) -> Option<Token<'a>> {
        loop {
            let c = self.peek(0)?;
            if c.is_whitespace() {
                self.bump();
            } else if self.rest_starts_with("//") {
                self.skip_past("\n");
            } else if self.rest_starts_with("/*") {
                self.bump();
                self.bump();
                self.skip_past("*/");
            } else {
                break;
            }
        }
        let (start, line, column) = (self.at, self.line, self.column);
        let c = self.bump()?;
        let kind = if c.is_alphabetic() || c == '_' || c == '$' {
            while self.peek(0).is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                self.bump();
            }
            Kind::Word
        } else if c.is_ascii_digit() {
            while self.peek(0).is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
                self.bump();
            }
            Kind::Number
        } else if c == '"' && self.rest_starts_with("\"\"") {
            self.bump();
            self.bump();
            self.skip_text_block();
            Kind::Literal
        } else if c == '"' || c == '\'' {
            self.skip_quoted(c);
            Kind::Literal
        } else {
            Kind::Symbol
        };
        Some(Token { kind, text: &self.source[start..self.at], line, column })
    }

    /// Skips a text block after its opening `"""`, to its closing `"""`.
    fn skip_text_block(&mut self) {
        while !self.rest_starts_with("\"\"\"") {
            match self.bump() {
                Some('\\') => {
                    self.bump();
                }
                Some(_) => {}
                None => return,
            }
        }
        for _ in 0..3 {
            self.bump();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(source: &str) -> Vec<String> {
        tokens(source).iter().map(|t| format!("{}@{}:{}", t.text, t.line, t.column)).collect()
    }

    #[test]
    fn comments_and_literals_hide_their_contents() {
        let source = "a /* hamming() */ b // hamming()\n\"hamming()\" 'x' \"\"\"\n  hamming() \"\"\" c";
        let kept: Vec<&str> = tokens(source).iter().filter(|t| t.kind != Kind::Literal).map(|t| t.text).collect();
        assert_eq!(kept, ["a", "b", "c"]);
        assert_eq!(words("int x;\n  y = 1;")[3..], ["y@2:3", "=@2:5", "1@2:7", ";@2:8"]);
    }

    #[test]
    fn unterminated_literals_and_comments_end_quietly() {
        assert_eq!(tokens("a \"never closed").len(), 2);
        assert_eq!(tokens("a /* never closed").len(), 1);
        assert_eq!(tokens("'\\").len(), 1);
        assert_eq!(tokens("é = ü;").len(), 4);
    }
}
