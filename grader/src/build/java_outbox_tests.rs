//! The Java adapter's outbox (`adapters/java/server/npuzzle/Outbox.java`): replies wait while the next request
//! is already buffered, and a watchdog thread writes them once they have waited 10 ms, so a request that never
//! returns cannot hold back the replies before it. The watchdog is woken only from its untimed sleep; this test
//! holds it in the other state, asleep on a timer set for a reply written since.

use std::path::Path;
use std::process::Command;

use super::find_tool;
use super::tests::java_available;

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
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join("npuzzle");
    std::fs::create_dir(&sources).unwrap();
    let outbox = Path::new(env!("CARGO_MANIFEST_DIR")).join("../adapters/java/server/npuzzle/Outbox.java");
    std::fs::copy(outbox, sources.join("Outbox.java")).unwrap();
    std::fs::write(sources.join("OutboxCheck.java"), CHECK).unwrap();
    let classes = dir.path().join("classes");
    let javac = Command::new(find_tool("javac").unwrap())
        .arg("-d")
        .arg(&classes)
        .args([sources.join("Outbox.java"), sources.join("OutboxCheck.java")])
        .output()
        .unwrap();
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
    let run =
        Command::new(find_tool("java").unwrap()).arg("-cp").arg(&classes).arg("npuzzle.OutboxCheck").output().unwrap();
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(run.status.success(), "{:?}: {said} {}", run.status, String::from_utf8_lossy(&run.stderr));
    assert_eq!(said.trim(), "written");
}
