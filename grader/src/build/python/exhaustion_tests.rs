//! The Python adapter when the student's code uses up its address space: the failure is the student's
//! `MemoryError` whatever CPython raised on the way, and the server goes on answering.

use super::super::conversation::Conversation;
use super::tests::{root, submission, work};
use super::*;

/// A Solver that raises `raised` (made before anything else, so that raising it takes no new memory); with
/// `fill`, first fills an algs4 MinPQ until the address space runs out and takes a thousand items back out
/// (room for small objects, none for another arena), the queue (tracked for the counters, out of the Solver's
/// reach) still holding the rest as it raises.
fn solver(fill: bool, raised: &str) -> String {
    let filling = "        try:\n            while True:\n                pq.insert((len(pq), [0] * 8))\n        \
                   except MemoryError:\n            for _ in range(1000):\n                pq.del_min()\n";
    let filling = if fill { filling } else { "" };
    format!(
        "from algs4 import MinPQ\n\n\nclass Solver:\n    def __init__(self, initial):\n        \
         error = {raised}\n        pq = MinPQ()\n{filling}        pq.insert((0, []))\n        raise error\n"
    )
}

/// Under CPython an exhausted address space is not always a `MemoryError`: an allocation failing on the way
/// out of another failure raised `SystemError: error return without exception set` in the student's own line
/// (`hostile/python/fills-memory`, in about half its runs with one layout of the adapter). Whatever the
/// student's code raised, an address space still full once its frames are gone reads as the MemoryError,
/// the queues holding it are let go, and the next requests are answered; with room left, what was raised is
/// what is said.
#[test]
fn an_exception_raised_with_the_address_space_full_is_a_memory_error() {
    if find_python().is_none() {
        return;
    }
    let board = fs::read_to_string(root().join("fixtures/submissions/python/valid/board.py")).unwrap();
    let out_of_memory = "MemoryError out of memory (address space 128 MB)";
    for (fill, raised, said) in [
        (true, "SystemError('error return without exception set')", out_of_memory),
        (true, "ValueError('gave up')", out_of_memory),
        (false, "ValueError('gave up')", "ValueError gave up"),
    ] {
        let dir = submission(&board, &solver(fill, raised));
        let build = build_python(dir.path(), &work(), PYTHON_MIN_ADDRESS_SPACE_MB, &BuildLimits::default());
        let mut c = Conversation::start(build.unwrap());
        c.ask("hello 1");
        assert_eq!(c.ask("board ref 3 8 1 3 4 0 2 7 6 5"), "ok b1");
        assert_eq!(c.ask("counters_reset"), "ok");
        let reply = c.ask("solver b1");
        assert!(reply.starts_with(&format!("err exception {said}")), "{raised}: {reply}");
        for _ in 0..3 {
            let board = c.ask("board ref 3 8 1 3 4 0 2 7 6 5");
            assert!(board.starts_with("ok b"), "the server goes on: {board}");
            assert_eq!(c.ask(&format!("manhattan {}", &board[3..])), "ok 10");
        }
        c.finish();
    }
}
