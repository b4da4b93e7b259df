//! The Python adapter's conversations: what its server answers over gallery and hostile submissions.

use super::super::conversation::{
    counter, heap_order_checked_only_when_asked, neighbor_texts, one_text_fails, retained_readings, samples_of,
    ties_both_ways_are_no_heap_violation, Conversation,
};
use super::*;

pub(super) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

pub(super) fn work() -> PathBuf {
    std::env::temp_dir().join("npuzzle-grader-python-tests")
}

/// The conversation with the server of a gallery submission, or `None` (skipped) without python3.
fn start(submission: &str) -> Option<Conversation> {
    start_at(&root().join("fixtures/submissions/python").join(submission))
}

/// The conversation with the server of the submission in `dir`, or `None` (skipped) without python3.
pub(super) fn start_at(dir: &Path) -> Option<Conversation> {
    if find_python().is_none() {
        eprintln!("skipped: no python3 on this machine");
        return None;
    }
    Some(Conversation::start(build_python(dir, &work(), 1024, &BuildLimits::default()).unwrap()))
}

/// A submission of the two files, in a temporary folder.
pub(super) fn submission(board: &str, solver: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("board.py"), board).unwrap();
    fs::write(dir.path().join("solver.py"), solver).unwrap();
    dir
}

/// The valid gallery submission's two files, each with `edit` applied (and the edit seen to apply).
pub(super) fn valid_edited(
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

#[test]
fn valid_submission_speaks_the_protocol() {
    let Some(mut c) = start("valid") else { return };
    // no thread is named: every thread of the process is charged
    assert_eq!(
        c.ask("hello 1"),
        "ok 1 python ref_world counters counters_heap call_sites refs neighbor_texts null foreign iterables"
    );
    assert_eq!(c.ask("board own 3 8 1 3 4 0 2 7 6 5"), "ok b1");
    assert_eq!(c.ask("manhattan b1"), "ok 10");
    assert_eq!(c.ask("neighbors b1"), "ok 4 b2 b3 b4 b5");
    assert_eq!(c.ask("manhattan @3.3"), c.ask("manhattan b5"));
    assert_eq!(c.ask("hamming @3.4"), "err protocol @3.4 refers to handle 4 of request 3, which returned 4");
    assert_eq!(c.ask("equals_null b1"), "ok false");
    assert_eq!(c.ask("equals_foreign b1"), "ok false");
    assert_eq!(c.ask("equals_uncastable b1"), "ok false");
    assert_eq!(c.ask("equals_as_object b1 b1"), "ok true");
    assert_eq!(c.ask("solver_null own"), "err exception ValueError initial board is None (at solver.py:22)");
    assert_eq!(c.ask("board ref 3 1 2 3 4 5 6 8 7 0"), "ok b6");
    assert_eq!(c.ask("to_string b6"), r"ok 3\n 1  2  3 \n 4  5  6 \n 8  7  0 \n");
    assert_eq!(c.ask("solver b6"), "ok s7");
    assert_eq!(c.ask("moves s7"), "ok -1");
    assert_eq!(c.ask("solution s7"), "ok none");
    assert_eq!(c.ask("memory_solver b6"), "err unsupported memory is not measured");
    assert_eq!(c.ask("hamming b99"), "err protocol unknown handle b99");
    // A list iterates afresh in every loop: two nested loops over one neighbors() see all four each time.
    let nested = c.ask("neighbors_nested b1");
    let lists = npuzzle_harness::protocol::decode_handle_lists(&nested["ok ".len()..]).unwrap();
    assert_eq!(lists.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 4, 4, 4], "{nested}");
    // `neighbors_texts`: a neighbors() and a str() of each of its first three boards, in one request
    let (id, handles, texts) = neighbor_texts(&mut c, "b1", 3);
    assert_eq!((handles.len(), texts.len()), (4, 3));
    assert_eq!(c.ask(&format!("manhattan @{id}.3")), c.ask(&format!("manhattan {}", handles[3])));
    c.finish();
}

/// An int a method returns may come as a float of an integral value (a manhattan() summed with `math.fabs`
/// has the right value: `12.0 == 12`); another float is the method's TypeError, its value named, and a bool
/// is no int.
#[test]
fn an_integral_float_is_its_int() {
    let dir = valid_edited(
        |board| {
            board.replace("        return self._manhattan\n", "        return float(self._manhattan)\n").replace(
                "    def dimension(self):\n",
                "    def dimension(self):\n        return len(self._tiles) + 0.5\n",
            )
        },
        |solver| solver,
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board own 3 8 1 3 4 0 2 7 6 5"), "ok b1");
    assert_eq!(c.ask("manhattan b1"), "ok 10");
    assert_eq!(c.ask("dimension b1"), "err exception TypeError dimension() returned float 3.5, not an int");
    c.finish();
}

/// A __str__ that raises for one neighbor fails that text alone in `neighbors_texts`: the next is still read,
/// and the handles are recorded for references, as with a `to_string` request each.
#[test]
fn a_text_that_raises_is_that_texts_failure_alone() {
    let dir = valid_edited(
        |board| {
            board.replace(
                "    def __str__(self):\n",
                "    def __str__(self):\n        if self._tiles[0][0] == 0:\n            raise RuntimeError(\"no text\")\n",
            )
        },
        |solver| solver,
    );
    let Some(c) = start_at(dir.path()) else { return };
    one_text_fails(c, "RuntimeError");
}

/// `neighbors_after` holds the student's iterable as it is: an iterator over one module-level list that
/// every neighbors() call refills yields the later board's neighbors. An iterator is single-use by Python's
/// protocol, so `neighbors_nested` lists it once and that list answers both loops.
#[test]
fn the_iterable_verbs_hold_the_students_result_uncopied() {
    let valid = root().join("fixtures/submissions/python/valid");
    let original = fs::read_to_string(valid.join("board.py")).unwrap();
    let board = "_SHARED = []\n\n\n".to_string()
        + &original
            .replace("        out = []\n", "        out = _SHARED\n        out.clear()\n")
            .replace("        return out\n", "        return iter(out)\n");
    assert!(board.contains("return iter(out)") && board.contains("_SHARED = []"), "{board}");
    let dir = submission(&board, &fs::read_to_string(valid.join("solver.py")).unwrap());
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board own 3 8 1 3 4 0 2 7 6 5"), "ok b1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b2");
    assert_eq!(c.ask("neighbors_after b1 b2"), "ok 2 b3 b4 2 b5 b6");
    assert_eq!(
        c.ask("neighbors_nested b1"),
        "ok 4 b7 b8 b9 b10 4 b11 b12 b13 b14 4 b15 b16 b17 b18 4 b19 b20 b21 b22 4 b23 b24 b25 b26"
    );
    assert_eq!(c.ask("neighbors b1"), "ok 4 b27 b28 b29 b30");
    c.finish();
}

/// A Solver that lowers every seventh search node's priority after inserting it breaks its MinPQs' heap order,
/// which the adapter checks, and finds, only when asked (`counters_reset heap`); its moves() answers how many
/// comparisons its nodes made, which is how the helper sees whether a check ran.
#[test]
fn the_heap_order_is_checked_only_after_a_reset_that_asks() {
    let dir = valid_edited(
        |board| board,
        |solver| {
            solver
                .replace(
                    "            pq.insert(_Node(neighbor, node.moves + 1, node))",
                    "            child = _Node(neighbor, node.moves + 1, node)\n            pq.insert(child)\n            \
                     if pq.size() % 7 == 0:\n                child.priority -= 1000",
                )
                .replace("from algs4 import MinPQ\n", "from algs4 import MinPQ\n\n_COMPARES = [0]\n")
                .replace("    def __lt__(self, other):\n", "    def __lt__(self, other):\n        _COMPARES[0] += 1\n")
                .replace(
                    "raise ValueError(\"initial board is None\")\n",
                    "raise ValueError(\"initial board is None\")\n        _COMPARES[0] = 0\n",
                )
                .replace(
                    "        return self._goal.moves if self._goal is not None else -1\n",
                    "        return _COMPARES[0]\n",
                )
        },
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    heap_order_checked_only_when_asked(&mut c, "3 7 2 1 3 4 6 0 5 8");
    c.finish();
}

/// A `__lt__` written with `<=` (each of two equal nodes "less" than the other) mutates nothing, and its
/// queues show no heap-order violation.
#[test]
fn a_less_than_that_holds_both_ways_for_ties_is_no_mutation() {
    let dir = valid_edited(
        |board| board,
        |solver| solver.replace("return self.priority < other.priority", "return self.priority <= other.priority"),
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    ties_both_ways_are_no_heap_violation(&mut c, "3 4 2 1 8 7 6 5 3 0", 20);
    c.finish();
}

/// The Python reference Board under the textbook solver makes exactly the Rust reference's operations
/// (the figures `fixturegen` recorded in fixtures/puzzles/puzzles.toml from `solver --stats`), and counts
/// the boards it expands as the Rust counting board does.
#[test]
fn the_reference_board_counts_equal_the_rust_references() {
    let Some(mut c) = start("valid") else { return };
    c.ask("hello 1");
    let text = fs::read_to_string(root().join("fixtures/puzzles/puzzles.toml")).unwrap();
    let metadata = corpus::metadata::parse_metadata(&text).unwrap();
    for name in ["puzzle04", "puzzle17", "puzzle23", "puzzle3x3-unsolvable1", "puzzle4x4-10", "puzzle41"] {
        let file = fs::read_to_string(root().join(format!("fixtures/puzzles/{name}.txt"))).unwrap();
        let reference = metadata[name].reference.unwrap_or_else(|| panic!("{name} has reference counts"));
        let board = c.ask(&format!("board ref {}", file.split_whitespace().collect::<Vec<_>>().join(" ")));
        assert_eq!(c.ask("counters_reset heap"), "ok");
        let solver = c.ask(&format!("solver {}", &board[3..]));
        assert!(solver.starts_with("ok s"), "{name}: {solver}");
        let counters = c.ask("counters");
        let rust = reference::instrument::baseline::reference_baseline(&reference::parse_puzzle(&file).unwrap()).counts;
        for (field, expected) in [
            ("board_expanded", rust.board_expanded),
            ("board_neighbors_distinct", rust.board_neighbors_distinct),
            ("pq_inserts", reference.inserts),
            ("pq_del_mins", reference.del_mins),
            ("pq_max_size", reference.max_queue_size),
            ("pq_ending_size", reference.ending_size),
            ("board_constructed", reference.boards_constructed),
            ("board_equals", reference.equals_calls),
            ("board_manhattan", reference.manhattan_calls),
            ("board_equals_not_grand_neighbor", 0),
            ("pq_heap_violations", 0),
        ] {
            assert_eq!(counter(&counters, field), expected, "{name}: {field} in {counters}");
        }
    }
    c.finish();
}

#[test]
fn a_syntax_error_is_the_students_compile_failure() {
    if find_python().is_none() {
        return;
    }
    // the gallery entry links the valid board.py, and a link is refused by name: check a copy
    let entry = root().join("fixtures/submissions/python/syntax-error");
    let linked = build_python(&entry, &work(), 1024, &BuildLimits::default()).unwrap();
    assert!(matches!(&linked, Prepared::CompileFailed { log } if log.starts_with("board.py is a symbolic link")));
    let copy = tempfile::tempdir().unwrap();
    for file in STUDENT_FILES {
        fs::copy(entry.join(file), copy.path().join(file)).unwrap();
    }
    let build = build_python(copy.path(), &work(), 1024, &BuildLimits::default()).unwrap();
    let Prepared::CompileFailed { log } = build else { panic!("expected a compile failure: {build:?}") };
    assert!(log.contains("solver.py") && log.contains("SyntaxError"), "{log}");
    // which Python refused it: a later one's syntax is the usual cause on a student's own laptop
    let python = std::process::Command::new(find_python().unwrap().0)
        .args(["-c", "import platform; print(platform.python_version())"])
        .output()
        .unwrap();
    let version = String::from_utf8(python.stdout).unwrap();
    assert!(
        log.ends_with(&format!(
            "(compiled by Python {}: syntax that a later Python added is an error here)\n",
            version.trim()
        )),
        "{log}"
    );
    let missing =
        build_python(&root().join("fixtures/submissions/java/valid"), &work(), 1024, &BuildLimits::default()).unwrap();
    assert!(matches!(missing, Prepared::CompileFailed { log } if log.starts_with("board.py is missing")));
}

/// An address space the interpreter cannot start in (a JVM's floor, 64 MB) is the policy's error, said before
/// anything runs: else every test would read "could not start the submission", as if the student's.
#[test]
fn an_address_space_too_small_for_the_interpreter_is_the_policys_error() {
    let entry = root().join("fixtures/submissions/python/valid");
    let small = build_python(&entry, &work(), PYTHON_MIN_ADDRESS_SPACE_MB - 1, &BuildLimits::default());
    let Err(error) = small else { panic!("a {} MB address space was accepted", PYTHON_MIN_ADDRESS_SPACE_MB - 1) };
    assert!(error.to_string().contains("set `limits.java_heap_mb` to 128 or more"), "{error}");
    if find_python().is_some() {
        let least = build_python(&entry, &work(), PYTHON_MIN_ADDRESS_SPACE_MB, &BuildLimits::default());
        assert!(least.is_ok(), "{least:?}");
    }
}

/// A Board whose hamming() runs the snippet its first tile numbers (one server for the whole table).
const SNIPPET_BOARD: &str = r#"
import sys
from snippets import SNIPPETS

class Board:
    def __init__(self, tiles):
        self.n = len(tiles)
        self.snippet = tiles[0][0]

    def dimension(self):
        return self.n

    def hamming(self):
        exec(SNIPPETS[self.snippet], {"__file__": __file__})
        return 0
"#;

/// What student code may do, and what the seal refuses: `hamming`'s reply (it runs the snippet), `ok …` or
/// the exception of `err exception …` (or either of two, split by `|`).
const SEAL: &[(&str, &str)] = &[
    ("import npuzzle_counters", "RuntimeError the grader does not allow importing npuzzle_counters"),
    ("import reference_board", "RuntimeError the grader does not allow importing reference_board"),
    ("import npuzzle_protocol", "RuntimeError the grader does not allow importing npuzzle_protocol"),
    ("import _heapq", "RuntimeError the grader does not allow importing _heapq"),
    ("import ctypes", "RuntimeError the grader does not allow importing ctypes"),
    // a process is refused when it starts, not at the import of a module that could start one
    ("import subprocess; subprocess.run(['true'])", "RuntimeError the grader does not allow starting a process"),
    ("import _posixsubprocess as p; p.fork_exec()", "RuntimeError the grader does not allow starting a process"),
    (
        "import sys; p = sys.modules.pop('_posixsubprocess')\n\
         try:\n    import _posixsubprocess\nfinally:\n    sys.modules['_posixsubprocess'] = p",
        "RuntimeError the grader does not allow importing _posixsubprocess",
    ),
    // a refused C extension loaded from its file under another package's name (its init function is found by
    // the name's last part); where every one is built into the interpreter there is no file to load
    (
        "import importlib.machinery as m, importlib.util as u\n\
         for name in ('_heapq', '_posixsubprocess', '_ctypes'):\n\
         \x20   spec = m.PathFinder.find_spec(name)\n\
         \x20   if spec and spec.origin.endswith('.so'):\n\
         \x20       u.module_from_spec(u.spec_from_file_location('x.' + name, spec.origin))\n\
         raise LookupError('every refused extension is built in')",
        "RuntimeError the grader does not allow importing x._|LookupError every refused extension is built in",
    ),
    (
        "import sys; s = sys.modules.pop('_signal')\n\
         try:\n    import _signal\nfinally:\n    sys.modules['_signal'] = s",
        "RuntimeError the grader does not allow importing _signal",
    ),
    ("import gc; gc.get_objects()", "RuntimeError the grader does not allow gc.get_objects()"),
    ("import gc; gc.get_referrers(gc)", "RuntimeError the grader does not allow gc.get_referrers()"),
    ("import gc; gc.get_referents(gc)", "RuntimeError the grader does not allow gc.get_referents()"),
    ("import sys; sys._getframe()", "RuntimeError the grader does not allow sys._getframe()"),
    ("import inspect; inspect.currentframe()", "RuntimeError the grader does not allow sys._getframe()"),
    ("import sys; sys._current_frames()", "RuntimeError the grader does not allow sys._current_frames()"),
    (
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    e.__traceback__.tb_frame",
        "RuntimeError the grader does not allow reading tb_frame",
    ),
    (
        "import traceback\ntry:\n    1 / 0\nexcept ZeroDivisionError:\n    traceback.print_exc()",
        "RuntimeError the grader does not allow reading tb_frame",
    ),
    ("(x for x in ()).gi_frame", "RuntimeError the grader does not allow reading gi_frame"),
    // (Python 3.8 reports a hook's refusal of a tracer as "Exception ignored" and leaves the tracer out)
    (
        "import sys\ntry:\n    sys.settrace(print)\nfinally:\n    assert sys.gettrace() is None",
        "RuntimeError the grader does not allow sys.settrace()|ok 0",
    ),
    (
        "import sys\ntry:\n    sys.setprofile(print)\nfinally:\n    assert sys.getprofile() is None",
        "RuntimeError the grader does not allow sys.setprofile()|ok 0",
    ),
    (
        "import sys; sys.addaudithook(print)",
        "npuzzle_seal.AuditHookRefused the grader does not allow sys.addaudithook()",
    ),
    ("import algs4; open(algs4.MinPQ.insert.__code__.co_filename)", "RuntimeError the grader does not allow opening"),
    ("open('/proc/self/mem', 'rb')", "RuntimeError the grader does not allow opening '/proc/self/mem'"),
    ("import os; os.open('/', os.O_RDONLY)", "RuntimeError the grader does not allow opening the directory '/'"),
    ("open('nowhere/../board.py')", "RuntimeError the grader does not allow opening 'nowhere/../board.py'"),
    ("import os; os.symlink('/proc', 'proc')", "RuntimeError the grader does not allow os.symlink()"),
    ("import os; os.system('true')", "RuntimeError the grader does not allow os.system()"),
    ("import os; os.fork()", "RuntimeError the grader does not allow os.fork()"),
    // what stays allowed: the standard library's own frame readers, files of the submission, threads
    ("import collections; collections.namedtuple('N', 'a b')(1, 2)", "ok 0"),
    ("import enum; enum.Enum('Color', 'RED GREEN')", "ok 0"),
    ("import typing; typing.TypeVar('T'); typing.NamedTuple('P', [('x', int)])", "ok 0"),
    ("import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: int\nP(1)", "ok 0"),
    ("import logging; logging.warning('a warning')", "ok 0"),
    ("import json, fractions; json.dumps(fractions.Fraction(1, 3).numerator)", "ok 0"),
    ("open(__file__).read()", "ok 0"),
    ("import threading; t = threading.Thread(target=sum, args=([1],)); t.start(); t.join()", "ok 0"),
    ("import heapq; h = []; heapq.heappush(h, 1); heapq.heappop(h)", "ok 0"),
    // a leftover import of a module that could start a process (both import `_posixsubprocess` at their top)
    ("import subprocess, asyncio, multiprocessing", "ok 0"),
    // nothing of the adapter's by name: an empty __main__, an algs4 of MinPQ alone
    ("import sys; assert [k for k in vars(sys.modules['__main__']) if k[0] != '_'] == []", "ok 0"),
    ("import algs4; assert [k for k in vars(algs4) if k[0] != '_'] == ['MinPQ']", "ok 0"),
];

/// The tiles of an 8-by-8 board whose first tile is `first`.
fn tiles_starting_with(first: usize) -> String {
    let rest = (0..64).filter(|&t| t != first);
    std::iter::once(first).chain(rest).map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
}

#[test]
fn the_seal_refuses_what_reaches_the_graders_side_and_nothing_a_student_needs() {
    let snippets: Vec<String> = SEAL.iter().map(|(code, _)| format!("{code:?}")).collect();
    let dir = submission(SNIPPET_BOARD, "class Solver:\n    pass\n");
    // a helper module of the student's: the snippets, as Python string literals (Rust's escapes are Python's)
    fs::write(dir.path().join("snippets.py"), format!("SNIPPETS = [{}]\n", snippets.join(", "))).unwrap();
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    for (k, (code, expected)) in SEAL.iter().enumerate() {
        assert!(c.ask(&format!("board own 8 {}", tiles_starting_with(k))).starts_with("ok b"));
        let reply = c.ask(&format!("hamming @{}.0", 2 * k + 1));
        let fits = |expected: &str| {
            let expected =
                if expected.starts_with("ok") { expected.to_string() } else { format!("err exception {expected}") };
            reply.starts_with(&expected)
        };
        assert!(expected.split('|').any(fits), "{code}\n  answered {reply}\n  expected {expected}");
    }
    c.finish();
}

/// The student's code runs with the collector's young threshold raised (`npuzzle_student.YOUNG_THRESHOLD`),
/// the rest of the collector as the interpreter has it; the student may set its own.
#[test]
fn the_students_code_runs_with_the_collectors_young_threshold_raised() {
    let board = "import gc\n\nclass Board:\n    def __init__(self, tiles):\n        pass\n\n    \
                 def hamming(self):\n        return gc.get_threshold()[0]\n\n    \
                 def manhattan(self):\n        return gc.get_threshold()[1]\n\n    \
                 def dimension(self):\n        gc.set_threshold(700)\n        return gc.get_threshold()[0]\n";
    let dir = submission(board, "class Solver:\n    pass\n");
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
    assert_eq!(c.ask("hamming b1"), "ok 50000");
    assert_eq!(c.ask("manhattan b1"), "ok 10");
    assert_eq!(c.ask("dimension b1"), "ok 700");
    c.finish();
}

/// A student who rebinds the builtins the adapter reads requests with does not change how it reads them.
#[test]
fn rebound_builtins_do_not_change_how_requests_are_read() {
    let board = r#"
import builtins

class Board:
    def __init__(self, tiles):
        self.n = len(tiles)

    def dimension(self):
        return self.n

    def hamming(self):
        builtins.len = lambda x: 0
        builtins.int = lambda *x: 0
        return 0
"#;
    let dir = submission(board, "class Solver:\n    pass\n");
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b1");
    assert_eq!(c.ask("hamming b1"), "ok 0");
    assert_eq!(c.ask("dimension b1"), "ok 2");
    assert_eq!(c.ask("board own 2 1 2 3 0"), "ok b2");
    assert_eq!(c.ask("hamming b9"), "err protocol unknown handle b9");
    c.finish();
}

/// A Solver that searches the first time moves() is asked, in a heapq list it empties behind heapq's back.
const LAZY_SOLVER: &str = r#"
import heapq

class Solver:
    def __init__(self, initial):
        self.initial = initial
        self.found = None

    def moves(self):
        if self.found is None:
            queue = [(self.initial.manhattan(), 0, 0, self.initial, None)]
            tie = 0
            while True:
                _, moves, _, board, parent = heapq.heappop(queue)
                if board.is_goal():
                    self.found = moves
                    break
                for neighbor in board.neighbors():
                    if parent is None or not neighbor == parent:
                        tie += 1
                        heapq.heappush(queue, (moves + 1 + neighbor.manhattan(), moves + 1, tie, neighbor, board))
            queue.clear()
        return self.found
"#;

/// The queues used since `counters_reset` end when the counters are read, not when the constructor returns:
/// a lazy Solver's search is counted, and emptying the list behind heapq's back does not shrink its ending
/// size (inserts less delMins). Reading the counters twice changes nothing.
#[test]
fn queues_end_when_the_counters_are_read() {
    let board = fs::read_to_string(root().join("fixtures/submissions/python/valid/board.py")).unwrap();
    let dir = submission(&board, LAZY_SOLVER);
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    assert_eq!(c.ask("board ref 3 8 1 3 4 0 2 7 6 5"), "ok b1");
    assert_eq!(c.ask("counters_reset"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s2");
    let before = c.ask("counters");
    assert_eq!(counter(&before, "pq_inserts"), 0, "{before}");
    assert_eq!(c.ask("moves s2"), "ok 14");
    let after = c.ask("counters");
    let (inserts, del_mins) = (counter(&after, "pq_inserts"), counter(&after, "pq_del_mins"));
    assert!(del_mins >= 14 && inserts > del_mins, "{after}");
    assert_eq!(counter(&after, "pq_ending_size"), inserts + 1 - del_mins, "{after}");
    assert_eq!(c.ask("counters"), after);
    c.finish();
}

/// With `--memory` (experiments only: the grader does not announce Python memory, whose objects the official
/// bounds do not fit), `memory_retained` answers the second reading too: every traced byte the process still
/// holds, tracing begun before the student's modules were imported. A module-level bytearray the search
/// writes its records into (`hostile/python/static-arena-search`: 32 MB, one in each world's module) is
/// allocated before any Solver, so the bytes a Solver's life left allocated do not hold it; the second
/// reading holds both arenas. Its twin `hostile/python/wasteful` keeps its nodes in the Solver: its process
/// keeps nothing beside them.
#[test]
fn the_second_reading_holds_a_module_level_arena() {
    let hostile = root().join("fixtures/submissions/hostile/python");
    let board = fs::read_to_string(hostile.join("wasteful/board.py")).unwrap();
    let weighed = |entry: &str| -> Option<[u64; 3]> {
        find_python()?;
        let dir = submission(&board, &fs::read_to_string(hostile.join(entry).join("solver.py")).unwrap());
        let Prepared::Ready(mut launch) = build_python(dir.path(), &work(), 1024, &BuildLimits::default()).unwrap()
        else {
            panic!("a Python build is one program")
        };
        launch.process.args.push("--memory".into());
        let mut c = Conversation::start(Prepared::Ready(launch));
        c.ask("hello 1");
        c.ask("board ref 3 8 1 3 4 0 2 7 6 5");
        c.ask("memory_solver b1");
        let readings = retained_readings(&c.ask("memory_retained s2"));
        c.finish();
        Some(readings)
    };
    let Some([wasteful, wasteful_kept, _]) = weighed("wasteful") else { return };
    let [arena, arena_kept, off_heap] = weighed("static-arena-search").unwrap();
    assert!(wasteful_kept < 1 << 20, "{wasteful_kept} kept, {wasteful} in the Solver's life");
    assert!(arena < 1 << 20, "the arena is not the life's: {arena}");
    assert!(arena_kept > 2 * (32 << 20) && off_heap == 0, "both arenas are kept: {arena_kept}");
}

/// `call_sites` names the student's lines the counted operations come from after `counters_reset sites`: one
/// sample every 128 operations of a counter (the 1st, the 129th, ...), each at the innermost line of the student's files on the stack,
/// with the sampling's own CPU.
#[test]
fn call_sites_name_the_students_lines_one_operation_in_128() {
    let Some(mut c) = start("valid") else { return };
    let source = fs::read_to_string(root().join("fixtures/submissions/python/valid/solver.py")).unwrap();
    let line_of = |text: &str| source.lines().position(|l| l.contains(text)).unwrap() + 1;
    c.ask("hello 1");
    assert_eq!(c.ask("board ref 3 0 1 3 4 2 5 7 8 6"), "ok b1");
    assert_eq!(c.ask("counters_reset sites"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s2");
    let counters = c.ask("counters");
    let sites = c.ask("call_sites");
    let sites = npuzzle_harness::protocol::decode_call_sites(&sites["ok ".len()..]).unwrap();
    for name in ["pq_inserts", "pq_del_mins", "board_constructed", "board_equals", "board_manhattan"] {
        let count = counter(&counters, name);
        let samples = samples_of(&sites, name);
        assert_eq!(samples, count.div_ceil(128), "{name}: {count} operations, {sites:?}");
    }
    let equals = format!("solver.py:{}", line_of("neighbor == node.previous.board"));
    assert!(sites.sites.iter().any(|s| s.counter == "board_equals" && s.site == equals), "{sites:?}");
    // a plain reset forgets the samples and stops sampling: a judged life is never sampled
    assert_eq!(c.ask("counters_reset"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s3");
    assert_eq!(c.ask("call_sites"), "ok sampling_cpu_ns=0");
    c.finish();
}

/// What a fair grader passes and the Python adapter failed until a red-team pass (2026-12-07): a solver.py
/// that builds a Board at its top level (it builds the reference one in the ref world, as a Java static
/// initializer does), a Solver that imports `board` inside a function and checks its argument's class (the
/// reference Board in the ref world, as at load time), and a Solver(None) that raises a subclass of
/// ValueError (`except ValueError` catches it; the adapter says so in the exception's name).
#[test]
fn the_ref_world_serves_its_board_at_load_and_call_time_and_a_value_error_subclass_is_one() {
    let dir = valid_edited(
        |board| board,
        |solver| {
            solver
                .replace(
                    "from algs4 import MinPQ\n",
                    "from algs4 import MinPQ\nfrom board import Board as _LoadedBoard\n\n_SANITY = _LoadedBoard([[1, 2], [3, 0]])\n\n\n\
                     class InvalidBoardError(ValueError):\n    pass\n",
                )
                .replace(
                    "        if initial is None:\n            raise ValueError(\"initial board is None\")\n",
                    "        if initial is None:\n            raise InvalidBoardError(\"initial board is None\")\n        \
                     from board import Board\n\n        if not isinstance(initial, Board):\n            \
                     raise ValueError(f\"Solver needs a Board, got {initial!r}\")\n",
                )
        },
    );
    let Some(mut c) = start_at(dir.path()) else { return };
    assert!(c.ask("hello 1").starts_with("ok "));
    for world in ["own", "ref"] {
        let board = c.handle(&format!("board {world} 3 0 1 3 4 2 5 7 8 6"));
        let solver = c.handle(&format!("solver {board}"));
        assert_eq!(c.ask(&format!("moves {solver}")), "ok 4", "{world}");
        let refused = c.ask(&format!("solver_null {world}"));
        assert!(
            refused.starts_with("err exception ") && refused.contains("InvalidBoardError(ValueError) initial board"),
            "{world}: {refused}"
        );
    }
    c.finish();
}
