//! A running submission program: spawn it confined, exchange protocol lines
//! with it under a deadline, capture its stderr, and make sure it dies.
//!
//! This is the only module that knows about processes (its Linux half lives in
//! `unix.rs`). It must not know the protocol's messages or judge answers: it
//! moves lines and reports how the program misbehaved as a [`ProcessFault`]
//! (`process/fault.rs`, with the [`Deadline`] it is held to). What the grader
//! itself has used ([`CpuUsed`]) is `process/usage.rs`.
//!
//! # Why CPU time is the deadline
//! A grader runs on busy machines: CI, a laptop compiling, several submissions
//! at once. Wall-clock deadlines then fail correct programs at random. So
//! [`SubmissionProcess::recv_line`] bounds the CPU time the program consumes,
//! which a loaded machine does not inflate: the CPU time of every process in
//! its sandbox, each with every thread it has had (ended ones included) and
//! the children it has reaped (`SubmissionProcess::cpu_time`, polled every
//! 20 ms). A program blocked on nothing (waiting for input that never comes)
//! uses no CPU, so a net ends it too ([`Deadline::wall`]), counted in the time
//! the machine left available to it: from a [`stall::WINDOW`] into a wait, a
//! [`Watch`] settles each window against what other processes used of the
//! CPUs while the program's threads waited for one ([`stall`]). A hang then
//! ends after the same available time on a quiet machine and a busy one; a
//! program the machine kept from running for many times its net ends as the
//! machine's stall ([`stall::Cause::Machine`]), which the grading run replays.

//! # Why a sandbox
//! A submission may start helpers (a shell script, a `java` launcher, a stray
//! background job, a `setsid` child waiting for the grader to exit). Every
//! program starts in a [`sandbox`] of its own: its own PID
//! namespace, whose init the grader kills and reaps, so one `SIGKILL` ends all
//! of them; its own filesystem view, uid, network and limits. Every path that
//! ends a program, including `Drop`, kills the sandbox and reaps its init, so
//! no orphan survives the grader.
//!
//! The runtime's own threads can be left out
//! ([`SubmissionProcess::exclude_runtime_threads`]; the Java adapter names
//! them in its handshake, before any student code runs, and the session
//! believes it only of that adapter): the JVM's garbage collector, JIT
//! compiler and housekeeping threads, which exist from its start. Everything
//! else is charged: the request thread, every thread the student's code
//! starts (one that has ended too), the JVM threads that run Java code
//! (finalizers, cleaners), and every process the program starts. Their times
//! are exact (the process's CPU clock, each left-out thread's `schedstat`),
//! so the few threads taken out do not add up clock-tick rounding. The wall
//! cap stays, at five times the CPU limit and more.
//!
//! # Limits of the approach
//! - A multi-threaded program is charged the CPU of all its threads, which can
//!   exceed the elapsed time.
//! - Without namespaces (a kernel that refuses them, which the grader reports),
//!   a descendant that leaves the group (`setsid`) escapes the group kill, and
//!   one reparented away from the sandbox's init is no longer counted.

use std::cell::Cell;
use std::io;
use std::path::Path;
use std::process::{ChildStderr, ChildStdin, ChildStdout};
use std::sync::Arc;
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

mod fault;
mod transcript;
mod usage;

pub(crate) use self::fault::describe_bytes;
pub use self::fault::{Deadline, ProcessFault, TimeoutKind};
use self::transcript::Transcript;
pub use self::transcript::TRANSCRIPTS;
pub use self::usage::{grader_peak_memory_kib, CpuUsed};
use super::pipes::{Conduit, StderrCapture, StdoutEvent};
use super::sandbox::{self, Sandbox};
pub use super::spec::{CapturedOutput, ProcessLimits, ProcessSpec, Termination, MAX_REPLY_BYTES};
use super::stall::{self, Watch};
use super::unix;

/// How often a waiting call looks at the program's CPU time and exit.
const POLL: Duration = Duration::from_millis(20);
/// How long to wait for the pipes to settle around an exit.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// A submission program started by [`SubmissionProcess::spawn`]; dropping it
/// kills the program's process group and removes its working directory.
///
/// Every fault from [`recv_line`](Self::recv_line) leaves the program killed
/// and reaped: a conversation ends at its first fault.
///
/// ```
/// use std::time::Duration;
/// use grader::runner::process::{Deadline, ProcessSpec, SubmissionProcess, Termination};
///
/// let mut cat = SubmissionProcess::spawn(&ProcessSpec::new("cat"))?;
/// cat.send_line("3 1 2")?;
/// assert_eq!(cat.recv_line(Deadline::from_cpu(Duration::from_secs(5)))?, "3 1 2");
/// assert_eq!(cat.wait_exit(Duration::from_secs(5))?, Termination::Code(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SubmissionProcess {
    sandbox: Sandbox,
    workdir: tempfile::TempDir,
    conduit: Conduit,
    stderr: Arc<StderrCapture>,
    /// The thread draining stderr (taken when joined).
    stderr_drain: Option<JoinHandle<()>>,
    /// When the last exchange happened, and the program's CPU time then (and its collector's) — read lazily
    /// at the first poll tick, so a quick reply costs no `/proc` read (the CPU deadline then starts at most one
    /// tick late).
    last_exchange: (Option<Readings>, Instant),
    last_cpu: Cell<Duration>,
    /// The runtime's own threads of the program (the grader's ids), whose CPU time the deadlines leave out.
    runtime_threads: Vec<RuntimeThread>,
    /// The runtime's collector threads' CPU time when last read ([`RuntimeThread::collector`]).
    last_collector_cpu: Cell<Duration>,
    status: Option<Termination>,
    /// The current wait's available time ([`stall`]), once it has lasted a [`stall::WINDOW`].
    watch: Option<Watch>,
    /// The sandbox's whole CPU time (every thread, the runtime's too) when last read.
    last_whole_cpu: Cell<Duration>,
    /// What the sandbox ended with: its whole CPU time, and whether its memory group killed a process.
    ended: Ended,
    /// The protocol lines exchanged, when the grader was asked to keep them ([`TRANSCRIPTS`]).
    transcript: Option<Transcript>,
}

/// How a sandbox ended, read before its init is reaped (its control groups go with it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ended {
    /// CPU time of every process the sandbox held (all threads, reaped children included).
    pub cpu: Duration,
    /// Whether the kernel killed a process of the sandbox for passing its memory limit.
    pub out_of_memory: bool,
    /// The most memory the sandbox's processes held at once (its memory group's peak), when it had one.
    pub peak_memory: Option<u64>,
}

impl SubmissionProcess {
    /// Starts `spec` in a new process group, in a new empty temporary
    /// directory, with a scrubbed environment and the spec's limits.
    ///
    /// Fails if the directory cannot be made or the program cannot be started.
    pub fn spawn(spec: &ProcessSpec) -> io::Result<Self> {
        let workdir = tempfile::Builder::new().prefix("submission-").tempdir()?;
        let started = sandbox::start(spec, workdir.path(), true).map_err(|e| {
            let program = spec.program.display();
            io::Error::new(e.kind(), format!("failed to start `{program}`: {e}"))
        })?;
        let Some(stdin) = started.stdin else { unreachable!("stdin was piped") };
        let (stdin, stdout, stderr) =
            (ChildStdin::from(stdin), ChildStdout::from(started.stdout), ChildStderr::from(started.stderr));
        let mut sandbox = started.sandbox;
        let limits = &spec.limits;
        let stderr_capture = Arc::new(StderrCapture::new(limits.stderr_bytes));
        let shared = Arc::clone(&stderr_capture);
        let started = Conduit::new(stdin, stdout, limits.max_line_bytes).and_then(|conduit| {
            let drain = thread::Builder::new().name("submission-stderr".into()).spawn(move || shared.fill_from(stderr));
            Ok((conduit, drain?))
        });
        match started {
            Ok((conduit, drain)) => Ok(SubmissionProcess {
                sandbox,
                workdir,
                conduit,
                stderr: stderr_capture,
                stderr_drain: Some(drain),
                last_exchange: (Some(Readings::default()), Instant::now()),
                last_cpu: Cell::new(Duration::ZERO),
                runtime_threads: Vec::new(),
                last_collector_cpu: Cell::new(Duration::ZERO),
                status: None,
                watch: None,
                last_whole_cpu: Cell::new(Duration::ZERO),
                ended: Ended::default(),
                transcript: Transcript::open(spec),
            }),
            Err(error) => {
                sandbox.kill();
                sandbox.reap();
                Err(error)
            }
        }
    }

    /// The pid of the program's sandbox (its init), which is also its process group id.
    pub fn pid(&self) -> u32 {
        self.sandbox.pid()
    }

    /// The program's working directory, removed when `self` is dropped.
    pub fn workdir(&self) -> &Path {
        self.workdir.path()
    }

    /// Queues `line` and a newline for the program's stdin; never blocks, even
    /// if the program is not reading (the bytes go out while the grader waits
    /// for a reply). `line` must not contain a newline.
    pub fn send_line(&mut self, line: &str) -> Result<(), ProcessFault> {
        debug_assert!(!line.contains('\n'), "protocol lines are single lines");
        if !(self.conduit.queue(line.as_bytes()) && self.conduit.queue(b"\n")) {
            return Err(match self.poll_exit() {
                Some(status) => ProcessFault::Exited { status },
                None => ProcessFault::ClosedStdin,
            });
        }
        if let Some(transcript) = &mut self.transcript {
            transcript.sent(line);
        }
        self.last_exchange = (None, Instant::now());
        self.watch = None;
        Ok(())
    }

    /// Moves protocol bytes both ways without waiting (see `Conduit::pump`). A fault it meets is left for
    /// the next [`SubmissionProcess::recv_line`] to report.
    pub fn pump(&mut self) {
        let _ = self.conduit.pump();
    }

    /// [`Self::recv_line`] for a line that stands for `replies` replies (a fused request's): it may be as many
    /// times as long as one.
    pub fn recv_replies(&mut self, deadline: Deadline, replies: usize) -> Result<String, ProcessFault> {
        self.conduit.expect_replies(replies);
        let received = self.recv_line(deadline);
        self.conduit.expect_replies(1);
        received
    }

    /// The next stdout line, without its line ending, once the program prints
    /// it within `deadline` (counted from the last exchange).
    ///
    /// On any fault the program is killed and reaped before this returns.
    pub fn recv_line(&mut self, deadline: Deadline) -> Result<String, ProcessFault> {
        let received = self.wait_for_line(deadline);
        match &received {
            Ok(line) => {
                if let Some(transcript) = &mut self.transcript {
                    transcript.received(line);
                }
                (self.last_exchange, self.watch) = ((None, Instant::now()), None);
            }
            Err(_) => drop(self.finish()),
        }
        received
    }

    fn wait_for_line(&mut self, deadline: Deadline) -> Result<String, ProcessFault> {
        loop {
            match self.conduit.next_line(POLL)? {
                StdoutEvent::Line(line) => return Ok(line),
                StdoutEvent::TooLong => return Err(ProcessFault::LineTooLong { limit: self.conduit.max_line_bytes() }),
                StdoutEvent::End => return Err(self.ended_or(ProcessFault::ClosedStdout)),
                StdoutEvent::StdinClosed => return Err(self.ended_or(ProcessFault::ClosedStdin)),
                StdoutEvent::Waiting => {}
            }
            self.check(deadline)?;
            if let Some(status) = self.poll_exit() {
                // The group is dead now, so stdout drains to its end quickly.
                return match self.conduit.next_line(EXIT_GRACE) {
                    Ok(StdoutEvent::Line(line)) => Ok(line),
                    _ => Err(ProcessFault::Exited { status }),
                };
            }
        }
    }

    fn check(&mut self, deadline: Deadline) -> Result<(), ProcessFault> {
        let now = self.cpu_time();
        let (whole, collector_now) = (self.last_whole_cpu.get(), self.last_collector_cpu.get());
        let then = *self.last_exchange.0.get_or_insert(Readings { charged: now, collector: collector_now });
        let cpu = now.saturating_sub(then.charged);
        let collector = collector_now.saturating_sub(then.collector);
        let wall = self.last_exchange.1.elapsed();
        let kind = match deadline.ceiling {
            _ if cpu > deadline.cpu => Some(TimeoutKind::Cpu),
            Some(ceiling) if whole >= ceiling => Some(TimeoutKind::Budget),
            _ => None,
        };
        if let Some(kind) = kind {
            return Err(ProcessFault::Timeout { kind, cpu, collector, wall, limit: deadline, cause: None });
        }
        let pid = self.sandbox.pid();
        if wall < stall::WINDOW && wall < deadline.wall {
            return Ok(());
        }
        let watch = self.watch.get_or_insert_with(|| Watch::start(pid, wall, whole));
        watch.tick(whole);
        match watch.reached(deadline.wall, whole, sandbox::stops_are_refused()) {
            None => Ok(()),
            Some(cause) => {
                let wall = watch.elapsed();
                let limit = deadline;
                Err(ProcessFault::Timeout { kind: TimeoutKind::Wall, cpu, collector, wall, limit, cause: Some(cause) })
            }
        }
    }

    /// A pipe closed: an exit (whose status may lag a moment behind the pipe), or else `fault`.
    fn ended_or(&mut self, fault: ProcessFault) -> ProcessFault {
        let since = Instant::now();
        loop {
            if let Some(status) = self.poll_exit() {
                return ProcessFault::Exited { status };
            }
            if since.elapsed() > EXIT_GRACE {
                return fault;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// From now on, deadlines leave out the CPU time of threads `tids` of the program (Linux thread ids as
    /// the program sees them, which it announced as its runtime's own). Ids that are not the program's live
    /// threads now are ignored; so is a second call. Those the runtime names as its garbage collector's
    /// now ([`RuntimeThread::collector`]) are also read on their own, for what a time-out says.
    pub fn exclude_runtime_threads(&mut self, tids: &[u32]) {
        if self.status.is_some() || !self.runtime_threads.is_empty() {
            return;
        }
        let Some(program) = self.sandbox.program() else { return };
        for &tid in tids {
            let Some(tid) = self.sandbox.thread(tid) else { continue };
            let Some(clock) = unix::ThreadClock::open(program, tid) else { continue };
            if let Some(cpu) = clock.read() {
                let collector = unix::thread_name(program, tid).is_some_and(|name| is_collector(&name));
                self.runtime_threads.push(RuntimeThread { clock, last: Cell::new(cpu), collector });
            }
        }
        // A new clock: the next check takes a fresh baseline.
        self.last_cpu.set(Duration::ZERO);
        self.last_exchange.0 = None;
        self.watch = None;
    }

    /// The CPU time charged to the program so far: that of every process of its sandbox, each with every
    /// thread it has had and the children it has reaped, less the runtime's own threads
    /// ([`SubmissionProcess::exclude_runtime_threads`]). Never decreases; once the program has ended it
    /// stays at its last reading when runtime threads are left out (their time can no longer be told apart).
    pub fn cpu_time(&self) -> Duration {
        if self.status.is_none() {
            // the left-out threads first: what they use while the whole is read is then charged (a few
            // microseconds), never the other way round
            let (mut runtime, mut collector) = (Duration::ZERO, Duration::ZERO);
            for thread in &self.runtime_threads {
                let time = thread.time();
                runtime += time;
                collector += if thread.collector { time } else { Duration::ZERO };
            }
            self.last_collector_cpu.set(collector.max(self.last_collector_cpu.get()));
            if let Some(all) = self.sandbox.cpu_time() {
                self.last_cpu.set(all.saturating_sub(runtime).max(self.last_cpu.get()));
                self.last_whole_cpu.set(all.max(self.last_whole_cpu.get()));
            }
        }
        self.last_cpu.get()
    }

    /// Takes the stderr captured since the last take. Once the program has
    /// ended, first waits (briefly) for the rest of its stderr.
    pub fn take_output(&mut self) -> CapturedOutput {
        if self.status.is_some() {
            self.stderr.wait_ended(EXIT_GRACE);
        }
        self.stderr.take()
    }

    /// Closes stdin (after the queued lines are written) and waits up to
    /// `timeout` for the program to exit on its own; if it does not, kills it
    /// and returns [`ProcessFault::NoExit`]. The exit status is not judged.
    pub fn wait_exit(&mut self, timeout: Duration) -> Result<Termination, ProcessFault> {
        let since = Instant::now();
        if self.status.is_none() {
            self.conduit.flush(timeout)?;
        }
        self.conduit.close_stdin();
        loop {
            if let Some(status) = self.poll_exit() {
                return Ok(status);
            }
            if since.elapsed() > timeout {
                self.finish();
                return Err(ProcessFault::NoExit { waited: timeout });
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// Kills the program's whole process group and reaps the program.
    pub fn kill(&mut self) -> Termination {
        self.finish()
    }

    /// How the program ended, once it has.
    pub fn termination(&self) -> Option<Termination> {
        self.status
    }

    /// What the sandbox ended with, once the program has ended (until then, the CPU used so far).
    pub fn ended(&self) -> Ended {
        match self.status {
            Some(_) => self.ended,
            None => Ended { cpu: self.sandbox.cpu_time().unwrap_or_default(), ..Ended::default() },
        }
    }

    /// If the program has exited, kills its leftover group and reaps it.
    fn poll_exit(&mut self) -> Option<Termination> {
        if self.status.is_none() && !matches!(self.sandbox.peek_exit(false), Ok(Some(_))) {
            return None;
        }
        Some(self.finish())
    }

    /// Joins the stderr thread, which ends once the dead group's pipe closes.
    /// A pipe held open by a descendant that escaped the group cannot hang
    /// the grader: such a thread is left to end on its own.
    fn join_stderr_drain(&mut self) {
        let Some(drain) = self.stderr_drain.take() else { return };
        let since = Instant::now();
        while !drain.is_finished() && since.elapsed() < EXIT_GRACE {
            thread::sleep(Duration::from_millis(5));
        }
        if drain.is_finished() {
            let _ = drain.join();
        }
    }

    /// Kills the group, records the final CPU time and status, and reaps.
    fn finish(&mut self) -> Termination {
        if let Some(status) = self.status {
            return status;
        }
        // Read before the kill: a PID namespace torn down with its program alive reaps that program without
        // adding its CPU time to the init's (the kernel makes the dying init ignore SIGCHLD).
        let alive = self.sandbox.cpu_time();
        let process_clock = self.runtime_threads.is_empty().then_some(&self.last_cpu);
        let status = end_sandbox(&mut self.sandbox, process_clock);
        let (out_of_memory, peak_memory) = self.sandbox.memory_record();
        let cpu = alive.max(self.sandbox.cpu_time()).unwrap_or_default();
        self.ended = Ended { cpu, out_of_memory, peak_memory };
        self.sandbox.reap();
        self.conduit.close_stdin();
        self.status = Some(status);
        status
    }
}

impl Drop for SubmissionProcess {
    fn drop(&mut self) {
        self.finish();
        self.join_stderr_drain();
    }
}

/// The program's charged CPU time and its collector threads' CPU time, as read together at an exchange.
#[derive(Debug, Clone, Copy, Default)]
struct Readings {
    charged: Duration,
    collector: Duration,
}

/// One of the runtime's own threads, whose CPU time the deadlines leave out.
#[derive(Debug)]
struct RuntimeThread {
    clock: unix::ThreadClock,
    /// Its time when last read (kept once it has ended: it stays in the process's total).
    last: Cell<Duration>,
    /// Whether the runtime named it as its garbage collector's when it was announced ([`is_collector`]).
    collector: bool,
}

impl RuntimeThread {
    /// Its CPU time now, or when last read if it has ended.
    fn time(&self) -> Duration {
        if let Some(now) = self.clock.read() {
            self.last.set(now.max(self.last.get()));
        }
        self.last.get()
    }
}

/// Whether a runtime thread's name is one the JVM gives its garbage collector's threads: the parallel
/// collector's workers (`GC Thread#0`, …) and the VM thread, which runs its pauses. The only runtime whose
/// threads are left out is the JVM's; the names are read when the adapter announces the threads, before any
/// student code runs, and they only choose the words of a time-out (`session::fault`), never a charge.
fn is_collector(name: &str) -> bool {
    name.starts_with("GC Thread#") || name == "VM Thread"
}

/// Kills the sandbox and waits until its init is a zombie, then records the
/// final CPU time into `cpu`. The caller reaps the init.
fn end_sandbox(sandbox: &mut Sandbox, cpu: Option<&Cell<Duration>>) -> Termination {
    sandbox.kill();
    let status = sandbox.peek_exit(true).ok().flatten();
    if let (Some(cell), Some(last)) = (cpu, sandbox.cpu_time()) {
        cell.set(last.max(cell.get()));
    }
    status.unwrap_or(Termination::Signal(libc::SIGKILL))
}

#[cfg(test)]
mod tests;
