//! The Python adapter over valid submissions written as a Python programmer may write them: what a plain
//! `python3 solver.py` runs must run behind the protocol too, and be counted as it would be (each case
//! failed tests it reached before), and a Solver that reaches past the reference Board's API is told why.

use std::fs;

use super::super::conversation::counter;
use super::tests::{root, start_at, submission, valid_edited};

/// A 3-by-3 board of 2 moves in the `world`, solved: `moves()`'s reply.
fn moves_in(c: &mut super::super::conversation::Conversation, world: &str) -> String {
    let board = c.ask(&format!("board {world} 3 1 2 3 4 5 6 0 7 8"));
    let solver = c.ask(&format!("solver {}", &board["ok ".len()..]));
    assert!(solver.starts_with("ok s"), "{solver}");
    c.ask(&format!("moves {}", &solver["ok ".len()..]))
}

/// The valid Solver with its search node's class (`class _Node:` to `class Solver:`) replaced by `node`,
/// which defines a `_Node(board, moves, previous)` of its own.
fn with_node(solver: &str, node: &str) -> String {
    let (start, end) = (solver.find("class _Node:").unwrap(), solver.find("class Solver:").unwrap());
    format!("{}{node}\n\n{}", &solver[..start], &solver[end..])
}

/// `dataclasses` reads a string annotation through `sys.modules[cls.__module__]`: a module the adapter loaded
/// had to be there, as an import puts it (the search node a dataclass whose `previous` is an `"_Entry"`; the
/// Board a dataclass under `from __future__ import annotations`).
#[test]
fn a_dataclass_with_string_annotations_loads_in_both_worlds() {
    const CELL: &str = r#"from __future__ import annotations
from dataclasses import dataclass


@dataclass
class Cell:
    row: int
    column: Cell | None = None


"#;
    const NODE: &str = r#"from dataclasses import dataclass, field


@dataclass(order=True)
class _Entry:
    priority: int
    board: object = field(compare=False)
    moves: int = field(compare=False)
    previous: "_Entry" = field(compare=False, default=None)


def _Node(board, moves, previous):
    return _Entry(moves + board.manhattan(), board, moves, previous)
"#;
    let dir = valid_edited(
        |board| {
            format!("{CELL}{board}").replace(
                "    def __init__(self, tiles):\n",
                "    def __init__(self, tiles):\n        Cell(0, Cell(1))\n",
            )
        },
        |solver| with_node(&solver, NODE),
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
    const HELPER: &str = r#"from board import Board


class Node:
    def __init__(self, board, moves, previous):
        if not isinstance(board, Board):
            raise TypeError(f"a Node holds a Board, not {type(board).__name__}")
        self.board = board
        self.moves = moves
        self.previous = previous
        self.priority = moves + board.manhattan()

    def __lt__(self, other):
        return self.priority < other.priority
"#;
    let dir = valid_edited(|board| board, |solver| with_node(&solver, "from node import Node as _Node\n"));
    fs::write(dir.path().join("node.py"), HELPER).unwrap();
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(moves_in(&mut c, "ref"), "ok 2");
    assert_eq!(moves_in(&mut c, "own"), "ok 2");
    assert_eq!(moves_in(&mut c, "ref"), "ok 2", "the ref world's helper is still its own");
    c.finish();
}

/// A Solver that imports more than Board from board.py runs in the `own` world, and in the `ref` world fails
/// saying why, not with Python's "cannot import name 'read_board' from 'board' (unknown location)", which
/// names a function the student can see and a location that reads as the grader's fault.
#[test]
fn a_solver_importing_more_than_board_from_board_py_is_told_why_it_fails_over_the_reference_board() {
    let dir = valid_edited(
        |board| format!("{board}\n\ndef read_board(path):\n    return path\n"),
        |solver| format!("from board import read_board\n{solver}"),
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(moves_in(&mut c, "own"), "ok 2");
    // the world's modules load at its first request; its Board serves, its Solver does not
    let board = c.handle("board ref 3 1 2 3 4 5 6 0 7 8");
    let failed = c.ask(&format!("solver {board}"));
    assert!(
        failed.starts_with(
            "err exception ImportError board.read_board is not there when the Solver runs over the reference Board"
        ) && failed.contains("move read_board into solver.py or a module of its own (at solver.py:1)"),
        "{failed}"
    );
    c.finish();
}

/// A module the grader's Python does not have (numpy), or a helper left out of the submission, fails the
/// requests that load it saying where it is missing from: Python's "No module named 'numpy'" alone, under a
/// compilation that passed, could read as the grader's installation at fault.
#[test]
fn a_module_nowhere_to_be_found_is_said_to_be_missing_from_the_submission_and_the_graders_python() {
    let dir = valid_edited(|board| format!("import numpy_nowhere\n{board}"), |solver| solver);
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    let failed = c.ask("board own 3 1 2 3 4 5 6 0 7 8");
    let said = "err exception ModuleNotFoundError No module named 'numpy_nowhere': neither the grader's Python nor \
                the submitted files have it (at board.py:1)";
    assert_eq!(failed, said);
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

/// A student's signal handler is given no frame: the one it interrupted is the server's wait on the main
/// thread, whose locals reach the grader's side (a red-team board.py sent itself SIGALRM with `pthread_kill`
/// and read them). `getsignal()` still answers the student's own handler.
#[test]
fn a_signal_handler_is_given_no_frame() {
    const HANDLER: &str = r#"import signal
import threading
import time

SEEN = []


def _on_alarm(signum, frame):
    SEEN.append(frame)


signal.signal(signal.SIGALRM, _on_alarm)


"#;
    let dir = valid_edited(
        |board| {
            let hamming = [
                "    def hamming(self):",
                "        signal.pthread_kill(threading.main_thread().ident, signal.SIGALRM)",
                "        for _ in range(400):",
                "            if SEEN:",
                "                break",
                "            time.sleep(0.005)",
                "        return 10 * len(SEEN) + (SEEN[0] is None) + 2 * (signal.getsignal(signal.SIGALRM) is _on_alarm)",
                "",
                "    def _hamming_unused(self):",
                "",
            ];
            format!("{HANDLER}{board}").replace("    def hamming(self):\n", &hamming.join("\n"))
        },
        |solver| solver,
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
    // one handler call, its frame None, the student's handler answered
    assert_eq!(c.ask("hamming b1"), "ok 13");
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

/// `heapify` of a list heapq already counts adds only the items beyond our tally: a decrease-key that edits
/// an entry in place and heapifies again (the heapq documentation's pattern) keeps the live size, where it
/// once added the whole list again and doubled the queue's max size (a red-team Solver failed Memory Solver
/// 2 on it). A list met first by heapify adds all its items; one shortened by hand gives back what it lost.
#[test]
fn heapify_of_a_list_in_use_adds_only_what_is_new() {
    let solver = r#"
import heapq

class Solver:
    def __init__(self, initial):
        q = [3, 1, 2]
        heapq.heapify(q)          # met first here: three items
        heapq.heappush(q, 0)      # four
        q[0] = -1                 # a decrease-key in place
        heapq.heapify(q)          # still four
        q.append(5)
        heapq.heapify(q)          # one more: five
        q.pop()
        q.pop()
        heapq.heapify(q)          # two fewer: three
        heapq.heappop(q)          # two
        self.q = q

    def moves(self):
        return 0
"#;
    let board = fs::read_to_string(root().join("fixtures/submissions/python/valid/board.py")).unwrap();
    let dir = submission(&board, solver);
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board ref 2 1 2 3 0"), "ok b1");
    assert_eq!(c.ask("counters_reset"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s2");
    let read = c.ask("counters");
    assert_eq!(counter(&read, "pq_max_size"), 5, "{read}");
    assert_eq!(counter(&read, "pq_ending_size"), 2, "{read}");
    assert_eq!((counter(&read, "pq_inserts"), counter(&read, "pq_del_mins")), (1, 1), "{read}");
    c.finish();
}

/// The student's modules load as a program run with no arguments would: the client guarded by `if
/// len(sys.argv) > 1` (not `__name__`) runs nothing, and the adapter's command line is not there to read. A
/// solver.py that raises at its top level fails what asks for a Solver, not the Board tests (as a Java
/// Solver's static initializer that throws fails only where Solver is used).
#[test]
fn the_students_modules_see_no_arguments_and_a_solver_that_fails_to_load_spares_the_board() {
    let guarded = valid_edited(
        |board| board,
        |solver| {
            format!("{solver}\nimport sys\n\nif len(sys.argv) > 1 or '--submission' in sys.orig_argv:\n    raise SystemExit(f'ran the client: {{sys.argv}}')\n")
        },
    );
    let Some(mut c) = start_at(guarded.path()) else { return };
    assert!(c.ask("hello 1").starts_with("ok "));
    for world in ["own", "ref"] {
        let board = c.handle(&format!("board {world} 3 0 1 3 4 2 5 7 8 6"));
        let solver = c.handle(&format!("solver {board}"));
        assert_eq!(c.ask(&format!("moves {solver}")), "ok 4", "{world}");
    }
    c.finish();

    let raising = valid_edited(|board| board, |solver| format!("{solver}\nraise RuntimeError('half written')\n"));
    let Some(mut c) = start_at(raising.path()) else { return };
    assert!(c.ask("hello 1").starts_with("ok "));
    let board = c.handle("board own 3 0 1 3 4 2 5 7 8 6");
    assert_eq!(c.ask(&format!("manhattan {board}")), "ok 4");
    for world in ["own", "ref"] {
        let board = c.handle(&format!("board {world} 3 0 1 3 4 2 5 7 8 6"));
        let solver = c.ask(&format!("solver {board}"));
        assert!(solver.starts_with("err exception RuntimeError half written"), "{world}: {solver}");
    }
    c.finish();
}

/// A Solver that reaches past the API of the reference Board it runs over in the ref world (an attribute its
/// own board.py has, an order its own Board defines) is told so in the error's own words, not only
/// "'Board' object has no attribute" or "'<' not supported", which read as the grader's fault.
#[test]
fn a_solver_reaching_past_the_reference_boards_api_is_told_why() {
    for (reach, says) in [
        ("initial._tiles", "AttributeError 'Board' object has no attribute '_tiles': here the Solver runs over"),
        ("initial < initial.twin()", "TypeError '<' not supported between instances of 'Board' and 'Board': here"),
    ] {
        let dir = valid_edited(
            |board| board,
            |solver| {
                solver.replace(
                    "            raise ValueError(\"initial board is None\")\n",
                    &format!("            raise ValueError(\"initial board is None\")\n        {reach}\n"),
                )
            },
        );
        let Some(mut c) = start_at(dir.path()) else { return };
        assert!(c.ask("hello 1").starts_with("ok "));
        let board = c.handle("board ref 3 0 1 3 4 2 5 7 8 6");
        let solver = c.ask(&format!("solver {board}"));
        assert!(solver.starts_with(&format!("err exception {says}")), "{reach}: {solver}");
        assert!(solver.contains("the assignment's API alone"), "{solver}");
        c.finish();
    }
}
