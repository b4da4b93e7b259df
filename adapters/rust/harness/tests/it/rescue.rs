//! The harness buffers replies while more requests wait, so a request that crashes, hangs or exits must not
//! take the replies before it along: every earlier reply still reaches the grader, and the fatal request is
//! the first one unanswered. Drives the real `harness-probe` submission, whose `hamming()` of a 4-by-4 board
//! misbehaves as told. Crashes and exits run without the watchdog, so the signal handlers and the exit hook
//! are what delivers; a hang without the watchdog shows the replies really were held back.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use rstest::rstest;

/// Requests answered before the fatal one: hello, a 3x3 board, many hammings of it, then the 4x4 board.
const ANSWERED_BEFORE_FATAL: u64 = 203;

/// Everything at once, as the grader sends a batch: the fatal `hamming` of the 4x4 board comes with replies
/// still waiting, and more requests queue behind it.
fn batch() -> String {
    let mut text = String::from("0 hello 1\n1 board own 3 8 1 3 4 0 2 7 6 5\n");
    for id in 2..ANSWERED_BEFORE_FATAL - 1 {
        text.push_str(&format!("{id} hamming b1\n"));
    }
    let last = ANSWERED_BEFORE_FATAL - 1;
    text.push_str(&format!("{last} board own 4 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0\n"));
    text.push_str(&format!("{ANSWERED_BEFORE_FATAL} hamming b2\n"));
    text.push_str(&format!("{} hamming b1\n", ANSWERED_BEFORE_FATAL + 1));
    text
}

/// The probe, killed when dropped: a failed assertion must not leave a hanging probe spinning on a core.
struct Probe(Child);

impl Drop for Probe {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn spawn(mode: &str, watchdog: bool) -> (Probe, mpsc::Receiver<String>) {
    let batch = batch();
    // Under PIPE_BUF, the batch is written atomically, so the probe's first read takes all of it and no
    // reply is flushed for want of input before the fatal request.
    assert!(batch.len() < 4096, "the batch is {} bytes", batch.len());
    let mut child = Command::new(env!("CARGO_BIN_EXE_harness-probe"))
        .env("HARNESS_PROBE", mode)
        .env("HARNESS_PROBE_WATCHDOG", if watchdog { "on" } else { "off" })
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the probe starts");
    child.stdin.as_mut().unwrap().write_all(batch.as_bytes()).expect("the batch is written");
    let stdout = child.stdout.take().unwrap();
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    (Probe(child), received)
}

/// Reads replies until the one to the last request before the fatal one (or the stream ends).
fn replies_before_fatal(received: &mpsc::Receiver<String>) -> Vec<String> {
    let mut replies = Vec::new();
    // Not a timing assertion: a liveness bound, so a lost reply fails the test instead of hanging it.
    while let Ok(line) = received.recv_timeout(Duration::from_secs(60)) {
        let done = line.starts_with(&format!("{} ", ANSWERED_BEFORE_FATAL - 1));
        replies.push(line);
        if done {
            break;
        }
    }
    replies
}

fn assert_every_earlier_reply(replies: &[String]) {
    let ids: Vec<u64> = replies.iter().map(|r| r.split(' ').next().unwrap().parse().unwrap()).collect();
    assert_eq!(ids, (0..ANSWERED_BEFORE_FATAL).collect::<Vec<_>>(), "replies: {replies:?}");
    assert!(replies.iter().all(|r| r.split(' ').nth(1) == Some("ok")), "replies: {replies:?}");
}

#[rstest]
#[case::abort("abort", Some(libc::SIGABRT), None)]
#[case::segfault("segfault", Some(libc::SIGSEGV), None)]
#[case::stack_overflow("overflow", Some(libc::SIGABRT), Some("has overflowed its stack"))]
#[case::exit("exit", None, None)]
fn a_crash_or_exit_delivers_every_earlier_reply_and_no_later_one(
    #[case] mode: &str,
    #[case] signal: Option<i32>,
    #[case] on_stderr: Option<&str>,
) {
    let (mut probe, received) = spawn(mode, false);
    let replies = replies_before_fatal(&received);
    assert_every_earlier_reply(&replies);
    let status = probe.0.wait().expect("the probe ends");
    let rest: Vec<String> = received.iter().collect();
    assert!(rest.is_empty(), "nothing after the fatal request is answered: {rest:?}");
    assert_eq!(status.signal(), signal, "{status:?}");
    if signal.is_none() {
        assert_eq!(status.code(), Some(0));
    }
    let mut stderr = String::new();
    probe.0.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    if let Some(expected) = on_stderr {
        // Rust's own stack-overflow report still runs after the harness's handler.
        assert!(stderr.contains(expected), "stderr: {stderr}");
    }
}

#[test]
fn a_hang_delivers_every_earlier_reply_while_it_hangs() {
    let (mut probe, received) = spawn("hang", true);
    let replies = replies_before_fatal(&received);
    assert_every_earlier_reply(&replies);
    assert!(probe.0.try_wait().expect("the probe can be polled").is_none(), "the probe still hangs");
    drop(probe);
    let rest: Vec<String> = received.iter().collect();
    assert!(rest.is_empty(), "nothing after the hanging request is answered: {rest:?}");
}

#[test]
fn without_the_watchdog_a_hang_holds_every_reply_back() {
    // Shows the other tests exercise the rescuers: the replies are buffered, and nothing else writes them.
    let (probe, received) = spawn("hang", false);
    let early = received.recv_timeout(Duration::from_millis(300));
    assert!(early.is_err(), "a reply left without a rescuer: {early:?}");
    drop(probe);
}
