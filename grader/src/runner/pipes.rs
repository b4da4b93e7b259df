//! The grader's ends of a program's pipes.
//!
//! Stdin and stdout are driven from the calling thread with `poll(2)` on non-blocking descriptors: a protocol
//! round trip is then one `write`, one `poll` and one `read`, with no thread hand-offs. (A thread per pipe
//! would cost two hand-offs per round trip; a grading run makes a hundred thousand round trips, and those
//! hand-offs cost more CPU than the submission's own answers.) Because the grader writes only while
//! it also reads, a program that stops reading cannot block it: unsent bytes wait in [`Conduit`] and go out
//! whenever the pipe has room.
//!
//! Stderr is different: nobody waits on it, yet it must keep draining or a chatty program would block. It
//! has a thread of its own feeding a bounded [`StderrCapture`].

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::spec::CapturedOutput;

/// Queued stdin bytes past which [`Conduit::queue`] starts writing at once.
const EAGER_WRITE_BYTES: usize = 16 << 10;
/// How much is read from stdout at a time.
const READ_CHUNK: usize = 64 << 10;
/// The capacity asked of each pipe (Linux allows unprivileged processes up to 1 MiB by default): while the
/// grader judges one batch, the program answering the next can run this far ahead before a pipe stops it.
const PIPE_BYTES: libc::c_int = 1 << 20;
/// How far [`Conduit::pump`] reads ahead of the lines taken: enough for two batches of replies, and a bound
/// on what a program flooding its stdout can make the grader hold.
const PUMP_AHEAD_BYTES: usize = 16 << 20;

/// What [`Conduit::next_line`] found.
#[derive(Debug)]
pub(super) enum StdoutEvent {
    /// A line without its line ending (lossy UTF-8).
    Line(String),
    /// A line longer than the limit.
    TooLong,
    /// Stdout reached its end and every line was taken.
    End,
    /// The program's stdin closed while bytes for it were still unsent: it will never see them.
    StdinClosed,
    /// Nothing complete arrived within the wait.
    Waiting,
}

/// A program's stdin and stdout, non-blocking, with the bytes not yet written and not yet taken as lines.
#[derive(Debug)]
pub(super) struct Conduit {
    stdin: Option<ChildStdin>,
    /// Bytes queued for stdin; those before `sent` are written (kept until the rest go, so a partial write
    /// never shifts a long batch).
    unsent: Vec<u8>,
    sent: usize,
    /// `unsent.len()` when a write was last attempted: a full pipe is not retried on every queued line.
    attempted: usize,
    stdout: ChildStdout,
    stdout_open: bool,
    chunk: Box<[u8]>,
    received: Vec<u8>,
    /// Where the next line starts in `received`.
    start: usize,
    /// How far from `start` is known to hold no newline.
    scanned: usize,
    max_line_bytes: usize,
    /// How many replies the next line stands for (a fused request's): it may be as many times as long.
    line_replies: usize,
}

impl Conduit {
    /// Takes over the two pipes, making the grader's ends non-blocking.
    pub fn new(stdin: ChildStdin, stdout: ChildStdout, max_line_bytes: usize) -> io::Result<Conduit> {
        set_nonblocking(stdin.as_raw_fd())?;
        set_nonblocking(stdout.as_raw_fd())?;
        enlarge(stdin.as_raw_fd());
        enlarge(stdout.as_raw_fd());
        Ok(Conduit {
            stdin: Some(stdin),
            unsent: Vec::new(),
            sent: 0,
            attempted: 0,
            stdout,
            stdout_open: true,
            chunk: vec![0; READ_CHUNK].into_boxed_slice(),
            received: Vec::new(),
            start: 0,
            scanned: 0,
            max_line_bytes,
            line_replies: 1,
        })
    }

    /// The longest stdout line accepted, in bytes (for one reply).
    pub fn max_line_bytes(&self) -> usize {
        self.max_line_bytes
    }

    /// Lets the lines read next stand for `replies` replies each (a fused request's), so each may be as many
    /// times [`Self::max_line_bytes`] long; 1 is every other line.
    pub fn expect_replies(&mut self, replies: usize) {
        self.line_replies = replies.max(1);
    }

    /// Queues bytes for stdin; they are written while the grader waits for a line (or by [`Self::flush`]).
    /// Returns false, queuing nothing, once stdin is closed.
    pub fn queue(&mut self, bytes: &[u8]) -> bool {
        if self.stdin.is_none() {
            return false;
        }
        self.unsent.extend_from_slice(bytes);
        if self.unsent.len() - self.attempted >= EAGER_WRITE_BYTES {
            // A long batch starts going out while the grader is still writing it, so the program works
            // in parallel instead of waiting for the whole batch. A full pipe just leaves the rest queued.
            self.write_some();
        }
        true
    }

    /// Closes stdin, dropping whatever was not written.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
        self.unsent = Vec::new();
        (self.sent, self.attempted) = (0, 0);
    }

    /// Writes the unsent bytes within `wait`, reading (and dropping) stdout meanwhile so the program cannot
    /// block on it. Returns whether everything went out; a closed stdin counts as done.
    pub fn flush(&mut self, wait: Duration) -> io::Result<bool> {
        let until = Instant::now() + wait;
        loop {
            if self.write_some() == Written::Closed {
                self.close_stdin();
            }
            if !self.has_unsent() {
                return Ok(true);
            }
            let Some(left) = until.checked_duration_since(Instant::now()) else { return Ok(false) };
            let ready = self.poll(left)?;
            if ready.stdout {
                self.read_some()?;
                self.received.clear();
                (self.start, self.scanned) = (0, 0);
            }
        }
    }

    /// The next stdout line, waiting up to `wait` for it while writing unsent stdin bytes.
    pub fn next_line(&mut self, wait: Duration) -> io::Result<StdoutEvent> {
        let until = Instant::now() + wait;
        loop {
            if let Some(event) = self.take_line() {
                return Ok(event);
            }
            let stdin_closed = self.write_some() == Written::Closed;
            // Replies usually wait in the pipe already (the program runs ahead of a pipelined batch): read
            // first, and only sleep in `poll` when there is nothing. Even when stdin is closed, the lines
            // the program wrote before are taken first.
            if self.read_some()? {
                continue;
            }
            if stdin_closed {
                return Ok(StdoutEvent::StdinClosed);
            }
            let Some(left) = until.checked_duration_since(Instant::now()) else { return Ok(StdoutEvent::Waiting) };
            if self.poll(left)?.stdout {
                self.read_some()?;
            }
        }
    }

    /// Moves bytes without waiting: writes what stdin accepts and reads what stdout holds (up to
    /// [`PUMP_AHEAD_BYTES`] ahead). Called between the grader's own work, it keeps a program that is running
    /// ahead from stalling on a full pipe in either direction.
    pub fn pump(&mut self) -> io::Result<()> {
        self.write_some();
        while self.received.len() - self.start < PUMP_AHEAD_BYTES && self.read_some()? {}
        Ok(())
    }

    /// A complete line (or the unterminated last one at the end of stdout), if one is buffered.
    fn take_line(&mut self) -> Option<StdoutEvent> {
        let pending = &self.received[self.start..];
        let newline = memchr::memchr(b'\n', &pending[self.scanned..]).map(|at| self.scanned + at);
        let length = newline.unwrap_or(pending.len());
        if length > self.max_line_bytes.saturating_mul(self.line_replies) {
            return Some(StdoutEvent::TooLong);
        }
        if newline.is_none() && self.stdout_open {
            self.scanned = pending.len();
            return None;
        }
        if pending.is_empty() {
            return Some(StdoutEvent::End);
        }
        let line = decode(&pending[..length]);
        self.start += length + usize::from(newline.is_some());
        self.scanned = 0;
        if self.start == self.received.len() {
            self.received.clear();
            self.start = 0;
        }
        Some(StdoutEvent::Line(line))
    }

    /// Writes what stdin accepts now.
    fn write_some(&mut self) -> Written {
        let unsent = self.has_unsent();
        let Some(stdin) = self.stdin.as_mut() else {
            return if unsent { Written::Closed } else { Written::Done };
        };
        self.attempted = self.unsent.len();
        while self.sent < self.unsent.len() {
            match stdin.write(&self.unsent[self.sent..]) {
                Ok(n) => self.sent += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(_) => {
                    // EPIPE: the program closed its stdin or ended.
                    self.stdin = None;
                    return Written::Closed;
                }
            }
        }
        if self.sent == self.unsent.len() {
            self.unsent.clear();
            (self.sent, self.attempted) = (0, 0);
        } else if self.sent * 2 >= self.unsent.len() {
            // Amortized: what moves is at most what was written since the last move.
            self.unsent.drain(..self.sent);
            (self.sent, self.attempted) = (0, self.unsent.len());
        }
        Written::Done
    }

    fn has_unsent(&self) -> bool {
        self.sent < self.unsent.len()
    }

    /// Reads what stdout has now (one chunk); notes its end. Returns whether anything changed (bytes or
    /// the end arrived).
    fn read_some(&mut self) -> io::Result<bool> {
        if !self.stdout_open {
            return Ok(false);
        }
        let read = loop {
            match self.stdout.read(&mut self.chunk) {
                Ok(0) => {
                    self.stdout_open = false;
                    return Ok(true);
                }
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
                Err(e) => return Err(e),
            }
        };
        if self.start > 0 && self.start * 2 >= self.received.len() {
            self.received.drain(..self.start);
            self.start = 0;
        }
        self.received.extend_from_slice(&self.chunk[..read]);
        Ok(true)
    }

    /// Waits up to `wait` until stdout has something (data or its end) or stdin has room for unsent bytes.
    fn poll(&self, wait: Duration) -> io::Result<Ready> {
        let mut fds = [
            libc::pollfd { fd: self.stdout.as_raw_fd(), events: libc::POLLIN, revents: 0 },
            libc::pollfd { fd: -1, events: libc::POLLOUT, revents: 0 },
        ];
        if let (Some(stdin), true) = (&self.stdin, self.has_unsent()) {
            fds[1].fd = stdin.as_raw_fd();
        }
        if !self.stdout_open {
            fds[0].fd = -1;
        }
        // Round up, so a short wait still sleeps instead of spinning.
        let millis = wait.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as libc::c_int;
        // SAFETY: `fds` is a valid array of two pollfd structs; negative fds are ignored by poll.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, millis) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            return if error.kind() == io::ErrorKind::Interrupted { Ok(Ready::default()) } else { Err(error) };
        }
        let any = libc::POLLIN | libc::POLLOUT | libc::POLLHUP | libc::POLLERR;
        Ok(Ready { stdout: fds[0].revents & any != 0 })
    }
}

/// Whether [`Conduit::write_some`] could keep writing.
#[derive(Debug, PartialEq, Eq)]
enum Written {
    Done,
    Closed,
}

/// Which pipes [`Conduit::poll`] found ready (stdin's room is simply tried again).
#[derive(Debug, Default)]
struct Ready {
    stdout: bool,
}

fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor this process owns, with integer arguments only.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Asks for a [`PIPE_BYTES`] pipe; a system that refuses keeps its default (64 KiB), which is only slower.
/// (Linux caps a user's pipe memory, 64 MiB by default: past about 30 sessions at once, as with `grader batch
/// --jobs 16` and more, new pipes get a page or two until some close — still correct, only slower.)
fn enlarge(fd: RawFd) {
    // SAFETY: fcntl on a descriptor this process owns, with integer arguments only.
    unsafe { libc::fcntl(fd, libc::F_SETPIPE_SZ, PIPE_BYTES) };
}

fn decode(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    match std::str::from_utf8(line) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(line).into_owned(),
    }
}

/// Stderr kept up to a cap: the first half of the cap from the start, and the latest half from the end
/// (where a crash or an allocation failure says what happened), counting what is dropped between them.
#[derive(Debug)]
pub(super) struct StderrCapture {
    state: Mutex<CaptureState>,
    ended: Condvar,
}

#[derive(Debug)]
struct CaptureState {
    head: Vec<u8>,
    /// The latest bytes once `head` is full, at most `cap - cap / 2`, oldest first (wrapped at `tail_start`).
    tail: Vec<u8>,
    tail_start: usize,
    dropped: u64,
    cap: usize,
    ended: bool,
}

impl StderrCapture {
    /// An empty capture keeping at most `cap` bytes between takes.
    pub fn new(cap: usize) -> Self {
        let state = CaptureState { head: Vec::new(), tail: Vec::new(), tail_start: 0, dropped: 0, cap, ended: false };
        StderrCapture { state: Mutex::new(state), ended: Condvar::new() }
    }

    /// Drains `stderr` to its end, never blocking the writer on a full capture.
    pub fn fill_from(&self, mut stderr: ChildStderr) {
        let mut buffer = vec![0; 64 << 10];
        loop {
            match stderr.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => self.lock().keep(&buffer[..n]),
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        self.lock().ended = true;
        self.ended.notify_all();
    }

    /// Waits up to `timeout` for stderr to reach its end.
    pub fn wait_ended(&self, timeout: Duration) {
        let state = self.lock();
        let _ = self.ended.wait_timeout_while(state, timeout, |state| !state.ended);
    }

    /// Takes what was kept so far; the cap applies afresh from here.
    pub fn take(&self) -> CapturedOutput {
        let mut state = self.lock();
        let mut kept = std::mem::take(&mut state.head);
        let cut_at = kept.len();
        let start = std::mem::take(&mut state.tail_start);
        let tail = std::mem::take(&mut state.tail);
        kept.extend_from_slice(&tail[start..]);
        kept.extend_from_slice(&tail[..start]);
        let dropped = std::mem::take(&mut state.dropped);
        let head = String::from_utf8_lossy(&kept[..cut_at]).into_owned();
        let text = head.clone() + &String::from_utf8_lossy(&kept[cut_at..]);
        CapturedOutput { text, truncated: dropped > 0, dropped_bytes: dropped, cut_at: head.len() }
    }

    fn lock(&self) -> MutexGuard<'_, CaptureState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl CaptureState {
    fn keep(&mut self, mut bytes: &[u8]) {
        let head_room = (self.cap / 2).saturating_sub(self.head.len()).min(bytes.len());
        self.head.extend_from_slice(&bytes[..head_room]);
        bytes = &bytes[head_room..];
        let tail_cap = self.cap - self.cap / 2;
        if bytes.len() >= tail_cap {
            // Everything the tail held, and the start of these bytes, is dropped.
            self.dropped += (self.tail.len() + bytes.len() - tail_cap) as u64;
            self.tail.clear();
            self.tail.extend_from_slice(&bytes[bytes.len() - tail_cap..]);
            self.tail_start = 0;
            return;
        }
        for &byte in bytes {
            if self.tail.len() < tail_cap {
                self.tail.push(byte);
            } else {
                self.tail[self.tail_start] = byte;
                self.tail_start = (self.tail_start + 1) % tail_cap;
                self.dropped += 1;
            }
        }
    }
}

/// Captures for other modules' tests.
#[cfg(test)]
pub(super) mod tests_support {
    /// What a capture of `cap` bytes hands over after `bytes` were written to it at once.
    pub fn capture(bytes: &[u8], cap: usize) -> super::CapturedOutput {
        let capture = super::StderrCapture::new(cap);
        capture.lock().keep(bytes);
        capture.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};

    /// What a capture of `cap` bytes keeps of `chunks` written in turn: (text, cut_at, dropped).
    fn captured(cap: usize, chunks: &[&str]) -> (String, usize, u64) {
        let capture = StderrCapture::new(cap);
        for chunk in chunks {
            capture.lock().keep(chunk.as_bytes());
        }
        let out = capture.take();
        assert_eq!(out.truncated, out.dropped_bytes > 0);
        (out.text, out.cut_at, out.dropped_bytes)
    }

    #[test]
    fn a_capture_keeps_the_start_and_the_latest_bytes_and_counts_the_middle() {
        assert_eq!(captured(8, &["abc"]), ("abc".into(), 3, 0));
        assert_eq!(captured(8, &["abcdefgh"]), ("abcdefgh".into(), 4, 0));
        assert_eq!(captured(8, &["abcdefghij"]), ("abcdghij".into(), 4, 2));
        // Byte by byte through the ring, and in one long write: the same.
        let one_by_one: Vec<String> = "abcdefghijklmnopqrstuvwxyz".chars().map(String::from).collect();
        let chunks: Vec<&str> = one_by_one.iter().map(String::as_str).collect();
        assert_eq!(captured(8, &chunks), ("abcdwxyz".into(), 4, 18));
        assert_eq!(captured(8, &["abcdefghijklmnopqrstuvwxyz"]), ("abcdwxyz".into(), 4, 18));
        assert_eq!(captured(8, &["abcdef", "ghijklmnopqrstuvwx", "yz"]), ("abcdwxyz".into(), 4, 18));
    }

    /// `pump` alone moves a batch several pipes long through `cat` and back: it writes what the pipe takes
    /// and reads what came back, without ever waiting, so a program running ahead never stalls on a pipe.
    #[test]
    fn pumping_moves_a_long_batch_both_ways_without_waiting() {
        let mut cat = Command::new("cat").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let (stdin, stdout) = (cat.stdin.take().unwrap(), cat.stdout.take().unwrap());
        let mut conduit = Conduit::new(stdin, stdout, 1 << 20).unwrap();
        let lines: Vec<String> = (0..5000).map(|i| format!("{i} {}", "x".repeat(1000))).collect();
        let total: usize = lines.iter().map(|l| l.len() + 1).sum();
        for line in &lines {
            assert!(conduit.queue(line.as_bytes()) && conduit.queue(b"\n"));
        }
        assert!(conduit.has_unsent(), "5 MB outgrow both pipes: the rest is for `pump` to write");
        let since = Instant::now();
        while conduit.received.len() < total {
            assert!(since.elapsed() < Duration::from_secs(10), "pumping stalled at {} bytes", conduit.received.len());
            conduit.pump().unwrap();
            std::thread::sleep(Duration::from_millis(1));
        }
        for line in &lines {
            match conduit.next_line(Duration::ZERO).unwrap() {
                StdoutEvent::Line(got) => assert_eq!(&got, line),
                other => panic!("{other:?}"),
            }
        }
        drop(conduit);
        cat.wait().unwrap();
    }
}
