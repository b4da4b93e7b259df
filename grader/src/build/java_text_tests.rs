//! The Java adapter's texts on the wire (`Server.escape`): a student's `toString()` may hold any character,
//! and its reply must carry it on one line and come back as written, the escapes' own backslashes included.

use npuzzle_harness::protocol::{escape, unescape, Outcome};

use super::super::conversation::{texts, Conversation};
use super::tests::{build, java_available, valid_with};

/// What the edited Board's `toString()` returns: each character the protocol escapes, alone and in pairs,
/// backslashes at either end, a text that looks escaped already, and characters beyond Latin-1 (one a
/// surrogate pair).
const TEXT: &str = "\\a\\\\b\\n\tc\r\n\n\té 😀 \\t\\";

/// `TEXT` on the wire, written out by hand.
const WIRE: &str = r"\\a\\\\b\\n\tc\r\n\n\té 😀 \\t\\";

#[test]
fn a_text_with_every_escaped_character_comes_back_as_written() {
    if !java_available() {
        return;
    }
    let dir = valid_with("Board.java", |board| {
        board.replace(
            "    public String toString() {",
            // a Java string literal escapes these characters as the protocol does (the text holds no quote)
            &format!("    public String toString() {{\n        if (n == 2) return \"{}\";", escape(TEXT)),
        )
    });
    let mut c = Conversation::start(build(dir.path()));
    c.ask("hello 1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
    assert_eq!(unescape(WIRE), TEXT);
    assert_eq!(c.ask("to_string b1"), format!("ok {WIRE}"));
    assert_eq!(texts(&mut c, &["b1"]), [Outcome::Ok(WIRE.into())], "read in a `texts` request, still escaped");
    assert_eq!(c.ask("board own 3 1 2 3 4 5 6 7 8 0"), "ok b2");
    assert_eq!(
        c.ask("to_string b2"),
        r"ok 3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n",
        "a text with nothing to escape but its rows"
    );
}
