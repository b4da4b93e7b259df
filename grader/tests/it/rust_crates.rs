//! What an honest student's Rust crate may be, as `cargo` builds it on their machine, each a false failure
//! until a red-team pass found it (2026-12-07): in the edition `cargo new` writes today (2024, whose syntax
//! 2021 refuses), with a Board that is not `Send` (one holding an `Rc`: the grader serves every request on one
//! thread, and the trait asks nothing more), or with a table per size kept outside the Board; and a crate laid
//! out in a way the grader does not build, told why.

use std::path::{Path, PathBuf};

use crate::support::{copy_resolved, grade, quick_policy, root, Graded};

/// A copy of the starter crate in `into`, named `name`.
fn starter(into: &Path, name: &str) -> PathBuf {
    let copy = into.join(name);
    copy_resolved(&root().join("templates/rust-submission"), &copy);
    copy
}

/// Rewrites `file` of the crate in `dir` with `edit`, which must change it.
fn edit(dir: &Path, file: &str, edit: impl FnOnce(String) -> String) {
    let before = std::fs::read_to_string(dir.join(file)).unwrap();
    let after = edit(before.clone());
    assert_ne!(after, before, "the edit of {file} applies");
    std::fs::write(dir.join(file), after).unwrap();
}

/// The crate in `dir` graded under the quick policy, `only` that test.
fn graded_only(dir: &Path, only: &str) -> Graded {
    let policy = quick_policy();
    grade(dir, &["--policy", policy.to_str().unwrap(), "--only", only])
}

#[test]
fn a_2024_crate_with_a_board_that_is_not_send_builds_and_is_graded() {
    let outside = tempfile::tempdir().unwrap();
    let copy = starter(outside.path(), "rust-submission");
    edit(&copy, "Cargo.toml", |manifest| manifest.replace("edition = \"2021\"", "edition = \"2024\""));
    edit(&copy, "src/board.rs", |board| {
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
        board
    });
    let graded = graded_only(&copy, "board-3");
    assert_eq!(graded.test("compile-1")["status"], "passed", "{}", graded.json["compile_log"]);
    assert_eq!(graded.test("board-3")["status"], "passed", "{}", graded.text);
}

/// A Board that builds a table of goal positions per size in a `thread_local!` the first time it meets that
/// size weighs, row by row, what the template's Board weighs: the table is outside the Board (no official walk
/// of a Board's fields sees it), and the Boards the harness builds first from the same tiles made it. Before
/// they did, the first Board of each size was charged with it and its line failed Memory Board (a red-team
/// crate, 2026-12-07).
#[test]
fn a_table_per_size_kept_outside_the_board_is_not_the_boards_memory() {
    let outside = tempfile::tempdir().unwrap();
    let (plain, cached) = (starter(outside.path(), "plain"), starter(outside.path(), "cached"));
    edit(&cached, "src/board.rs", |board| {
        let board = board.replace(
            "        Board { tiles: tiles.to_vec() }\n",
            "        GOALS.with(|goals| {\n            goals.borrow_mut().entry(tiles.len()).or_insert_with(|| (0..(tiles.len() * \
             tiles.len()) as u32).collect::<Vec<u32>>());\n        });\n        Board { tiles: tiles.to_vec() }\n",
        ) + "\nthread_local! {\n    static GOALS: std::cell::RefCell<std::collections::HashMap<usize, Vec<u32>>> = \
             std::cell::RefCell::new(std::collections::HashMap::new());\n}\n";
        assert!(board.contains("GOALS.with"), "the edit applies");
        board
    });
    let rows = |crate_dir: &Path| -> Vec<(String, String)> {
        let graded = graded_only(crate_dir, "memory-board");
        let rows: Vec<(String, String)> = graded.json["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["id"].as_str().unwrap().starts_with("memory-board/"))
            .map(|t| (t["status"].as_str().unwrap().to_string(), t["rows"].to_string()))
            .collect();
        assert_eq!(rows.len(), 10, "{}", graded.text);
        rows
    };
    let (plain_rows, cached_rows) = (rows(&plain), rows(&cached));
    assert!(cached_rows.iter().all(|(status, _)| status == "passed"), "{cached_rows:?}");
    assert_eq!(cached_rows, plain_rows);
}

/// A crate laid out as `cargo new --lib` plus a binary (`src/lib.rs` declaring the modules, `main.rs` using
/// them through the crate's name) builds with cargo but not in the grader, which builds main.rs as a library
/// of its own: the compile log says so and what to change, where before it showed only the unresolved import.
#[test]
fn a_crate_whose_modules_live_in_lib_rs_is_told_why_it_does_not_build() {
    let outside = tempfile::tempdir().unwrap();
    let copy = starter(outside.path(), "rust-submission");
    edit(&copy, "src/main.rs", |main| {
        let main = main.replace("mod board;\n", "").replace("mod solver;\n", "").replace(
            "npuzzle::submission_main!(board::Board, solver::Solver);",
            "use my_8puzzle::{board::Board, solver::Solver};\n\nnpuzzle::submission_main!(Board, Solver);",
        );
        assert!(main.contains("use my_8puzzle") && !main.contains("mod board;"), "the edits apply: {main}");
        main
    });
    std::fs::write(copy.join("src/lib.rs"), "pub mod board;\npub mod solver;\n").unwrap();
    let graded = graded_only(&copy, "board-3");
    assert_eq!(graded.test("compile-1")["status"], "failed", "{}", graded.text);
    let log = graded.json["compile_log"].as_str().unwrap();
    assert!(log.contains("my_8puzzle") && log.contains("src/lib.rs is not read"), "{log}");
}
