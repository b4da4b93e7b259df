//! The Python adapter over valid submissions written as a Python programmer may write them: what a plain
//! `python3 solver.py` runs must run behind the protocol too (each case failed every test it reached before).

use std::fs;

use super::tests::{root, start_at, submission};

/// The valid gallery submission's two files, each with `edit` applied (and the edit seen to apply).
fn valid_edited(
    board_edit: impl FnOnce(String) -> String,
    solver_edit: impl FnOnce(String) -> String,
) -> tempfile::TempDir {
    let valid = root().join("fixtures/submissions/python/valid");
    let read = |name: &str| fs::read_to_string(valid.join(name)).unwrap();
    let (board, solver) = (read("board.py"), read("solver.py"));
    let (edited_board, edited_solver) = (board_edit(board.clone()), solver_edit(solver.clone()));
    assert!(edited_board != board || edited_solver != solver, "an edit applies");
    submission(&edited_board, &edited_solver)
}

/// A 3-by-3 board of 2 moves in the `world`, solved: `moves()`'s reply.
fn moves_in(c: &mut super::super::conversation::Conversation, world: &str) -> String {
    let board = c.ask(&format!("board {world} 3 1 2 3 4 5 6 0 7 8"));
    let solver = c.ask(&format!("solver {}", &board["ok ".len()..]));
    assert!(solver.starts_with("ok s"), "{solver}");
    c.ask(&format!("moves {}", &solver["ok ".len()..]))
}

/// `dataclasses` reads a string annotation through `sys.modules[cls.__module__]`: a module the adapter loaded
/// had to be there, as an import puts it (the search node a dataclass whose `previous` is a `"Node"`; the
/// Board a dataclass under `from __future__ import annotations`).
#[test]
fn a_dataclass_with_string_annotations_loads_in_both_worlds() {
    let dir = valid_edited(
        |board| {
            let board = format!("from __future__ import annotations\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Cell:\n    row: int\n    column: Cell | None = None\n\n\n{board}");
            board.replace(
                "    def __init__(self, tiles):\n",
                "    def __init__(self, tiles):\n        Cell(0, Cell(1))\n",
            )
        },
        |solver| {
            let node = "from dataclasses import dataclass, field\n\n\n@dataclass(order=True)\nclass _Node:\n    \
                        priority: int\n    board: object = field(compare=False)\n    moves: int = field(compare=False)\n    \
                        previous: \"_Node\" = field(compare=False, default=None)\n\n\n\
                        def _node(board, moves, previous):\n    return _Node(moves + board.manhattan(), board, moves, previous)\n";
            let (start, end) = (solver.find("class _Node:").unwrap(), solver.find("class Solver:").unwrap());
            format!("{}{node}\n\n{}", &solver[..start], solver[end..].replace("_Node(", "_node("))
        },
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(moves_in(&mut c, "own"), "ok 2");
    assert_eq!(moves_in(&mut c, "ref"), "ok 2");
    c.finish();
}

/// A helper module's `from board import Board` is the reference Board in the `ref` world, as the official
/// grader compiles every class of a submission against its reference Board: the helper is loaded again for
/// that world, and the `own` world keeps its own.
#[test]
fn a_helper_module_imports_each_worlds_board() {
    let dir = valid_edited(
        |board| board,
        |solver| {
            let start = solver.find("class _Node:").unwrap();
            let end = solver.find("class Solver:").unwrap();
            format!("from node import Node as _Node\n{}{}", &solver[..start], &solver[end..])
        },
    );
    let node = "from board import Board\n\n\nclass Node:\n    def __init__(self, board, moves, previous):\n        if not isinstance(board, Board):\n            raise TypeError(f\"a Node holds a Board, not {type(board).__name__}\")\n        self.board = board\n        self.moves = moves\n        self.previous = previous\n        self.priority = moves + board.manhattan()\n\n    def __lt__(self, other):\n        return self.priority < other.priority\n";
    fs::write(dir.path().join("node.py"), node).unwrap();
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(moves_in(&mut c, "ref"), "ok 2");
    assert_eq!(moves_in(&mut c, "own"), "ok 2");
    assert_eq!(moves_in(&mut c, "ref"), "ok 2", "the ref world's helper is still its own");
    c.finish();
}

/// `signal.signal()` works on the main thread alone: the student's modules are loaded there, where a
/// program's top level runs (the common idiom restoring SIGPIPE's default).
#[test]
fn a_signal_handler_set_at_import_is_allowed() {
    let dir = valid_edited(
        |board| format!("import signal\n\nsignal.signal(signal.SIGPIPE, signal.SIG_DFL)\n\n\n{board}"),
        |solver| solver,
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
    assert_eq!(moves_in(&mut c, "own"), "ok 2");
    c.finish();
}

/// A lone surrogate (which no UTF-8 can carry) in a student's text goes out as U+FFFD, in a text and in an
/// exception's message, and every reply after it still goes: the outbox once died encoding it, taking the
/// replies it held with it, and the server never answered again.
#[test]
fn a_lone_surrogate_in_a_students_text_is_a_replacement_character() {
    let dir = valid_edited(
        |board| {
            board.replace(
                "    def __str__(self):\n",
                "    def __str__(self):\n        if len(self._tiles) == 2:\n            return \"2 \\ud800\"\n",
            )
            .replace(
                "    def hamming(self):\n",
                "    def hamming(self):\n        if len(self._tiles) == 2:\n            raise ValueError(\"bad \\udbff byte\")\n",
            )
        },
        |solver| solver,
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    let guard = c.killed_after(std::time::Duration::from_secs(60));
    c.ask("hello 1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
    let ids = c.send_batch(&["to_string b1", "hamming b1", "dimension b1"]);
    let replies: Vec<String> = ids.iter().map(|_| c.read_reply()).collect();
    drop(guard);
    assert!(replies[0].starts_with(&format!("{} ok ", ids[0])) && replies[0].ends_with("2 \u{fffd}"), "{replies:?}");
    assert!(replies[1].starts_with(&format!("{} err exception ", ids[1])), "{replies:?}");
    assert!(replies[1].contains(" ValueError bad \u{fffd} byte (at board.py:"), "{replies:?}");
    assert!(replies[2].starts_with(&format!("{} ok ", ids[2])) && replies[2].ends_with(" 2"), "{replies:?}");
    c.finish();
}
