//! Java: the style section's lexer ([`crate::style::lexer`]: comments skipped, literals whole, never
//! rejecting), its words split into Java's keywords and identifiers; `import` and `package` declarations
//! and annotations are left out.

use super::lexeme::{past, past_group, Class, Lexeme};
use crate::style::lexer::{self, Kind};

/// Java's reserved keywords and literals (JLS 3.9, 3.10.3, 3.10.8); contextual keywords (`var`, `record`,
/// `yield`, `sealed`) are identifiers, as they may be.
pub(crate) const KEYWORDS: [&str; 53] = [
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "try",
    "void",
    "volatile",
    "while",
    "true",
    "false",
    "null",
];

/// The lexemes of a Java file.
pub(super) fn lexemes(source: &str) -> Vec<Lexeme<'_>> {
    let all: Vec<Lexeme<'_>> = lexer::tokens(source)
        .into_iter()
        .map(|t| {
            let class = match t.kind {
                Kind::Word if KEYWORDS.contains(&t.text) => Class::Fixed,
                Kind::Word => Class::Identifier,
                Kind::Number => Class::Number,
                Kind::Literal => Class::Text,
                Kind::Symbol => Class::Fixed,
            };
            Lexeme { class, text: t.text, line: t.line }
        })
        .collect();
    let mut kept = Vec::with_capacity(all.len());
    let mut at = 0;
    while at < all.len() {
        let lexeme = all[at];
        let declaration_start = kept.last().is_none_or(|l: &Lexeme<'_>| l.is(";") || l.is("}") || l.is("{"));
        if (lexeme.is("import") || lexeme.is("package")) && declaration_start {
            at = past(&all, at, ";");
        } else if lexeme.is("@") && all.get(at + 1).is_some_and(|l| l.class == Class::Identifier) {
            // an annotation, `@Override` or `@SuppressWarnings("unchecked")` (not `@interface`)
            at += 2;
            while all.get(at).is_some_and(|l| l.is("."))
                && all.get(at + 1).is_some_and(|l| l.class == Class::Identifier)
            {
                at += 2;
            }
            if all.get(at).is_some_and(|l| l.is("(")) {
                at = past_group(&all, at, "(", ")");
            }
        } else {
            kept.push(lexeme);
            at += 1;
        }
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
    fn keywords_stay_identifiers_go_and_declarations_are_left_out() {
        let source = "package p;\nimport java.util.List;\nimport static java.lang.Math.abs;\n\
                      /** doc */ public class Board { @Override public int hashCode() { return 'x' + n * 2; }\n\
                      @SuppressWarnings(\"unchecked\") private final int[] tiles = null; }";
        assert_eq!(
            shown(source),
            "public class ID { public int ID ( ) { return STR + ID * NUM ; } private final int [ ] ID = null ; }"
        );
        let lines: Vec<u32> = lexemes(source).iter().map(|l| l.line).collect();
        assert_eq!((lines[0], lines[lines.len() - 1]), (4, 5));
    }

    #[test]
    fn words_that_begin_like_declarations_are_code() {
        assert_eq!(shown("x = importer; packages.add(x);"), "ID = ID ; ID . ID ( ID ) ;");
    }
}
