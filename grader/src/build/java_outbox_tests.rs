//! The Java adapter's outbox (`adapters/java/server/npuzzle/Outbox.java`): replies wait while the next request
//! is already buffered, and a watchdog thread writes them once they have waited 10 ms, so a request that never
//! returns cannot hold back the replies before it. The watchdog is woken only from its untimed sleep; the
//! first test holds it in the other state, asleep on a timer set for a reply written since. A request that
//! ends the process writes the replies before it on the way out, whether it exits or halts.

use super::super::conversation::{Conversation, Ended};
use super::class_check;
use super::tests::{build, java_available, valid_with};

/// Puts a reply, waits until the watchdog sleeps on the timer it set for that reply (its thread's state, read
/// while the outbox's lock is held, so that it cannot move), then, still holding the lock, writes the reply
/// and puts another: nothing wakes the watchdog for it. It must still be written (once that timer ends); a
/// reply never written ends the check after a minute, and fails it.
const CHECK: &str = r#"
package npuzzle;

import java.io.Writer;

final class OutboxCheck {
    public static void main(String[] args) throws Exception {
        StringBuffer written = new StringBuffer();
        Writer sink = new Writer() {
            private final StringBuilder buffered = new StringBuilder();
            @Override public void write(char[] chars, int at, int length) { buffered.append(chars, at, length); }
            @Override public void flush() { written.append(buffered); buffered.setLength(0); }
            @Override public void close() {}
        };
        Outbox out = new Outbox(sink);
        out.start();
        Thread watchdog = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("protocol-outbox")).findFirst().orElseThrow();
        boolean placed = false;
        while (!placed) {
            out.put("a", false); // wakes the idle watchdog, which then sleeps on a 10 ms timer for it
            while (true) {
                synchronized (out) {
                    if (watchdog.getState() == Thread.State.TIMED_WAITING) {
                        out.flush();
                        out.put("c", false);
                        placed = true;
                        break;
                    }
                    if (written.indexOf("a") >= 0 && watchdog.getState() == Thread.State.WAITING) {
                        break; // the watchdog wrote `a` before it was seen asleep on its timer: again
                    }
                }
                Thread.sleep(0, 200_000);
            }
        }
        long until = System.nanoTime() + 60_000_000_000L;
        while (written.indexOf("c") < 0) {
            if (System.nanoTime() > until) {
                System.out.println("never written");
                System.exit(1);
            }
            Thread.sleep(1);
        }
        System.out.println("written");
    }
}
"#;

#[test]
fn a_reply_that_starts_waiting_while_the_watchdog_sleeps_on_a_timer_is_written() {
    if !java_available() {
        return;
    }
    assert_eq!(class_check::run(&["Outbox.java"], "OutboxCheck", CHECK), "written");
}

/// A pipelined batch whose last request makes the student's code end the JVM at once: every reply before it
/// must come out, then the end of the output (the grader charges the end to the request that met it, not to
/// one whose reply was lost). `Runtime.halt` runs no shutdown hook; the security manager's exit check writes
/// them. Without it the batch's replies, each held while the next request waited, were lost with the
/// process, and the grader named an earlier request that had been answered.
#[rstest::rstest]
#[case::halts("Runtime.getRuntime().halt(3)")]
#[case::exits("System.exit(3)")]
fn a_request_that_ends_the_jvm_leaves_the_replies_before_it_written(#[case] end: &str) {
    if !java_available() {
        return;
    }
    let dir = valid_with("Board.java", |board| {
        board.replace(
            "    public String toString() {",
            &format!("    public String toString() {{\n        if (n == 2) {end};"),
        )
    });
    let answered = [
        "board own 3 1 2 3 4 5 6 7 8 0",
        "to_string b1",
        "board own 3 1 2 3 4 5 6 0 7 8",
        "to_string b2",
        "board own 2 1 2 3 0",
    ];
    Conversation::start(build(dir.path())).ends_after_answering(&answered, "to_string b3", Ended::Code(3));
}
