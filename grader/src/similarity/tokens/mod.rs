//! Source text as the normalized token stream that fingerprints are taken of, one lexer per language:
//! comments, blank lines and layout are gone; every identifier is one token (`ID`), every number one
//! (`NUM`), every string or character literal one (`STR`); keywords, operators and punctuation stay as
//! they are. So renaming anything, or changing a message or a constant, changes no token, while the
//! code's shape (its keywords, operators and nesting) is all that is left to compare.
//!
//! Declarations that every solution writes and that say nothing about how it works are left out: Java's
//! `import` and `package` lines and annotations, Python's `import` lines and docstrings (a string that is a
//! whole statement), Rust's `use` lines, `mod x;` and attributes.
//!
//! The lexers are written here, against each language's own token rules, rather than taken from a parser
//! crate: they never reject a file (a submission that does not compile is still compared, as far as it
//! goes), they need nothing from a build (no C compiler, as tree-sitter's grammars do), and they cost the
//! grader's clean build nothing but their own few hundred lines. Java's is the style section's lexer
//! ([`crate::style::lexer`]) with Java's keywords on top; Python's follows the reference manual's "Lexical
//! analysis" (logical lines, `INDENT`/`DEDENT`, string prefixes, triple quotes); Rust's follows the
//! reference's "Tokens" (nested block comments, raw strings, lifetimes against character literals).

pub(super) mod java;
mod lexeme;
mod python;
mod rust;

use serde::{Deserialize, Serialize};

use lexeme::Lexeme;
pub use lexeme::Token;

/// A language whose submissions are compared (each only with its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// `Board.java` and `Solver.java`.
    Java,
    /// `board.py` and `solver.py`.
    Python,
    /// A crate's `src/**/*.rs`.
    Rust,
}

impl Language {
    /// Every language, in the order reports list them.
    pub const ALL: [Language; 3] = [Language::Java, Language::Python, Language::Rust];

    /// The language's name as reports and gradebooks write it (`java`, `python`, `rust`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Java => "java",
            Language::Python => "python",
            Language::Rust => "rust",
        }
    }

    /// The language of a source file, by its extension.
    pub fn of_file(name: &str) -> Option<Language> {
        let extension = name.rsplit_once('.').map(|(_, e)| e)?;
        match extension {
            "java" => Some(Language::Java),
            "py" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }
}

/// The normalized tokens of `source`, a file of `language`.
pub fn tokens(language: Language, source: &str) -> Vec<Token> {
    let lexemes = match language {
        Language::Java => java::lexemes(source),
        Language::Python => python::lexemes(source),
        Language::Rust => rust::lexemes(source),
    };
    lexemes.iter().map(Lexeme::token).collect()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Whatever a file holds (quotes, backslashes, brackets and comment openers left open, any
        /// character), every lexer gives tokens in line order, on lines the file has.
        #[test]
        fn any_text_gives_tokens_in_line_order(text in "([ -~\n\t\r]|é|λ|\u{2028}|'|\"|\\\\|#|/\\*|\"\"\"|r#\"){0,200}") {
            let lines = text.matches('\n').count() as u32 + 1;
            for language in Language::ALL {
                let stream = tokens(language, &text);
                prop_assert!(stream.windows(2).all(|t| t[0].line <= t[1].line), "{language:?}");
                prop_assert!(stream.iter().all(|t| (1..=lines).contains(&t.line)), "{language:?}");
            }
        }
    }

    #[test]
    fn identifiers_numbers_and_literals_are_one_token_each_whatever_they_say() {
        for language in Language::ALL {
            let (a, b) = match language {
                Language::Java => ("int count = 12; s = \"x\";", "int total = 7; name = \"a longer one\";"),
                Language::Python => ("count = 12\ns = 'x'\n", "total = 0x7\nname = \"a longer one\"\n"),
                Language::Rust => ("let count = 12; s = \"x\";", "let total = 7u32; name = r#\"a longer one\"#;"),
            };
            assert_eq!(tokens(language, a), tokens(language, b), "{language:?}");
            assert_ne!(tokens(language, a), tokens(language, &a.replace('=', "+")), "{language:?}: operators count");
        }
    }

    #[test]
    fn languages_are_known_by_their_files_extension() {
        assert_eq!(Language::of_file("Board.java"), Some(Language::Java));
        assert_eq!(Language::of_file("src/board.rs"), Some(Language::Rust));
        assert_eq!(Language::of_file("solver.py"), Some(Language::Python));
        assert_eq!(Language::of_file("README"), None);
    }
}
