//! What an honest student's Rust crate may be, as `cargo` builds it on their machine: in the edition
//! `cargo new` writes today (2024, whose syntax 2021 refuses), with a Board that is not `Send` (one holding an
//! `Rc`: the grader serves every request on one thread, and the trait asks nothing more). Each was a failed
//! build (0 points) until a red-team pass found them (2026-12-07).

use crate::support::{copy_resolved, grade, quick_policy, root};

#[test]
fn a_2024_crate_with_a_board_that_is_not_send_builds_and_is_graded() {
    let outside = tempfile::tempdir().unwrap();
    let copy = outside.path().join("rust-submission");
    copy_resolved(&root().join("templates/rust-submission"), &copy);
    let manifest = std::fs::read_to_string(copy.join("Cargo.toml")).unwrap();
    std::fs::write(copy.join("Cargo.toml"), manifest.replace("edition = \"2021\"", "edition = \"2024\"")).unwrap();
    let board = std::fs::read_to_string(copy.join("src/board.rs")).unwrap();
    let board = board
        .replace("    tiles: Vec<Vec<u32>>,", "    tiles: std::rc::Rc<[Vec<u32>]>,")
        .replace("Board { tiles: tiles.to_vec() }", "Board { tiles: tiles.to_vec().into() }")
        .replace(
            "        self.tiles.len()\n",
            // a let chain: Rust 2024 only
            "        if let Some(first) = self.tiles.first()\n            && !first.is_empty()\n        {\n            \
             return first.len();\n        }\n        self.tiles.len()\n",
        );
    assert!(board.contains("Rc<[Vec<u32>]>") && board.contains("&& !first.is_empty()"), "the edits apply");
    std::fs::write(copy.join("src/board.rs"), board).unwrap();
    let policy = quick_policy();
    let graded = grade(&copy, &["--policy", policy.to_str().unwrap(), "--only", "board-3"]);
    assert_eq!(graded.test("compile-1")["status"], "passed", "{}", graded.json["compile_log"]);
    assert_eq!(graded.test("board-3")["status"], "passed", "{}", graded.text);
}
