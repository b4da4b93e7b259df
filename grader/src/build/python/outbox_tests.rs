//! The Python adapter's outbox (`adapters/python/server.py`, `Outbox`): replies wait while the next request is
//! already read, and a watchdog thread writes them once they have waited 10 ms, so a request that never
//! returns cannot hold back the replies before it. The watchdog is woken only from its untimed sleep; these
//! tests hold it in the other state, asleep on a timer set for a reply written since.

use std::process::Command;

use rstest::rstest;

use super::super::conversation::Ended;
use super::tests::{root, start_at, submission, valid_edited};
use super::*;

/// The replies before a request that never returns are written without it, the server's whole conversation
/// (a batch first, so that the watchdog may still sleep on its timer; the next test holds it there).
#[test]
fn replies_before_a_request_that_never_returns_are_written() {
    let board = std::fs::read_to_string(root().join("fixtures/submissions/python/valid/board.py")).unwrap();
    let dir =
        submission(&board, "class Solver:\n    def __init__(self, initial):\n        while True:\n            pass\n");
    let Some(mut c) = start_at(dir.path()) else { return };
    c.ask("hello 1");
    let earlier = c.send_batch(&["board own 2 1 2 3 0", "board own 2 1 2 3 0"]);
    for id in earlier {
        assert!(c.read_reply().starts_with(&format!("{id} ok ")));
    }
    let ids = c.send_batch(&["board own 2 1 2 3 0", "board own 2 0 1 3 2", "solver b3"]);
    let guard = c.killed_after(std::time::Duration::from_secs(60));
    let replies = [c.read_reply(), c.read_reply()];
    drop(guard);
    c.child.kill().unwrap();
    c.child.wait().unwrap();
    for (id, reply) in ids.iter().zip(&replies) {
        assert!(reply.starts_with(&format!("{id} ok ")), "{reply:?}");
    }
}

/// The watchdog asleep on a timer set for a reply written since, then a new reply that waits: nothing wakes
/// the watchdog for it, and it is written when that timer ends. The script holds the outbox's lock to see the
/// watchdog's state and to put the new reply while the watchdog cannot move; a reply never written ends the
/// script (an alarm after a minute) and fails the test.
#[test]
fn a_reply_that_starts_waiting_while_the_watchdog_sleeps_on_a_timer_is_written() {
    let Some((python, _)) = find_python() else {
        eprintln!("skipped: no python3 on this machine");
        return;
    };
    let script = r#"
import os, signal, sys, time
sys.path.insert(0, sys.argv[1])
import server

signal.alarm(60)
r, w = os.pipe()
out = server.Outbox(w)
out.start()
placed = False
while not placed:
    out.put("a\n", False)  # wakes the idle watchdog, which then sleeps on a 10 ms timer for it
    while True:
        with out.ready:
            if not out.waiting:
                break  # the watchdog wrote `a` before it was seen asleep on its timer: again
            if len(out.ready._waiters) == 1 and not out.idle:  # on the condition, not in its untimed sleep
                out.flush()
                out.put("c\n", False)
                placed = True
                break
        time.sleep(0.0002)
got = b""
while not got.endswith(b"c\n"):
    got += os.read(r, 4096)
print("written")
"#;
    let adapter = root().join("adapters/python");
    let output = Command::new(python).arg("-c").arg(script).arg(&adapter).output().unwrap();
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{:?}: {said} {}", output.status, String::from_utf8_lossy(&output.stderr));
    assert_eq!(said.trim(), "written");
}

/// A pipelined batch whose last request makes the student's code end the interpreter at once (`os._exit`,
/// which runs no `atexit` handler and flushes nothing, or a signal to itself): every reply before it comes
/// out, then the end of the output, so the grader charges the end to the request that met it. Before, the
/// replies it held were lost with the process and the report named an earlier trial that had passed.
#[rstest]
#[case::exit("os._exit(3)", Ended::Code(3))]
#[case::abort("os.abort()", Ended::Signal(6))]
#[case::kill("os.kill(os.getpid(), 9)", Ended::Signal(9))]
#[case::kill_through_posix("import posix; posix.kill(posix.getpid(), 9)", Ended::Signal(9))]
#[case::raise_signal("import signal; signal.raise_signal(signal.SIGKILL)", Ended::Signal(9))]
#[case::raise_signal_through_its_c_module("import _signal; _signal.raise_signal(9)", Ended::Signal(9))]
fn a_request_that_ends_the_interpreter_leaves_the_replies_before_it_written(
    #[case] ending: &str,
    #[case] ended: Ended,
) {
    let dir = valid_edited(
        |board| {
            let end = format!("    def __str__(self):\n        if len(self._tiles) == 2:\n            import os\n            {ending}\n");
            board.replace("    def __str__(self):\n", &end)
        },
        |solver| solver,
    );
    let Some(c) = start_at(dir.path()) else { return };
    let answered = ["board own 3 1 2 3 4 5 6 7 8 0", "to_string b1", "board own 2 1 2 3 0", "hamming b2"];
    c.ends_after_answering(&answered, "to_string b2", ended);
}
