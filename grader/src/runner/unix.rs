//! The Linux half of [`super::process`]: the confined command (new process
//! group, scrubbed environment, resource limits applied in the child before
//! `exec`), signals to a whole process group, peeking at an exit without
//! reaping it, and CPU time read from `/proc`.
//!
//! It also pumps the three pipes, each on its own thread: stdin from a queue
//! (so the grader never blocks on a program that does not read), stdout as
//! bounded lines, and stderr into a bounded capture that keeps draining.
//!
//! This file owns every `libc` call and every `unsafe` block of the runner. It
//! knows nothing about the protocol, deadlines or students; `process` decides
//! when to call what.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use super::process::{CapturedOutput, Limits, ProcessSpec, Termination};

#[cfg(target_env = "gnu")]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
type Resource = libc::c_int;

/// The command for `spec`, to run in `workdir` in a new process group with
/// piped stdio, a scrubbed environment (`PATH`, `HOME=workdir`,
/// `LANG=C.UTF-8` and the spec's own variables) and the spec's limits.
pub(super) fn confined_command(spec: &ProcessSpec, workdir: &Path) -> io::Result<Command> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    let mut command = Command::new(absolute_program(&spec.program)?);
    command
        .args(&spec.args)
        .current_dir(workdir)
        .env_clear()
        .env("PATH", path)
        .env("HOME", workdir)
        .env("LANG", "C.UTF-8")
        .envs(spec.env.iter().map(|(key, value)| (key, value)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    confine(&mut command, &spec.limits);
    Ok(command)
}

fn absolute_program(program: &Path) -> io::Result<PathBuf> {
    if program.is_relative() && program.components().count() > 1 {
        return Ok(std::env::current_dir()?.join(program));
    }
    Ok(program.to_owned())
}

/// What the child does to itself between `fork` and `exec`.
#[derive(Debug, Clone, Copy)]
struct ChildSetup {
    address_space: Option<u64>,
    cpu: Option<Duration>,
    die_with_parent: bool,
}

/// Makes `cmd` start in a new process group (its pgid is its pid) and apply `limits`.
fn confine(cmd: &mut Command, limits: &Limits) {
    let setup =
        ChildSetup { address_space: limits.address_space, cpu: limits.cpu, die_with_parent: limits.die_with_grader };
    cmd.process_group(0);
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs between fork and exec, where only
    // async-signal-safe calls are allowed. `apply` calls getrlimit, setrlimit,
    // prctl and getppid, and builds only allocation-free `io::Error`s.
    unsafe {
        cmd.pre_exec(move || apply(setup, parent));
    }
}

fn apply(setup: ChildSetup, parent: libc::pid_t) -> io::Result<()> {
    set_rlimit(libc::RLIMIT_CORE, 0, 0)?;
    if let Some(bytes) = setup.address_space {
        set_rlimit(libc::RLIMIT_AS, bytes, bytes)?;
    }
    if let Some(cpu) = setup.cpu {
        let soft = cpu.as_secs() + u64::from(cpu.subsec_nanos() > 0);
        // Past the soft limit the kernel sends SIGXCPU; past the hard one, SIGKILL.
        set_rlimit(libc::RLIMIT_CPU, soft.max(1), soft.max(1) + 1)?;
    }
    if setup.die_with_parent {
        // SAFETY: plain syscalls without pointers.
        let armed = unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
        if armed != 0 {
            return Err(io::Error::last_os_error());
        }
        // The grader may have died before the signal was armed.
        if unsafe { libc::getppid() } != parent {
            return Err(io::Error::from_raw_os_error(libc::ESRCH));
        }
    }
    Ok(())
}

/// Lowers a limit, never asking for more than the current hard limit allows.
fn set_rlimit(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
    let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `current` is a valid, writable rlimit.
    if unsafe { libc::getrlimit(resource, &mut current) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let hard = hard.min(current.rlim_max);
    let wanted = libc::rlimit { rlim_cur: soft.min(hard), rlim_max: hard };
    // SAFETY: `wanted` is a valid rlimit.
    if unsafe { libc::setrlimit(resource, &wanted) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Sends `SIGKILL` to every process in group `pgid`; a group already gone is fine.
pub(super) fn kill_group(pgid: u32) -> io::Result<()> {
    // SAFETY: plain syscall without pointers.
    if unsafe { libc::killpg(pgid as libc::pid_t, libc::SIGKILL) } == 0 {
        return Ok(());
    }
    match io::Error::last_os_error() {
        e if e.raw_os_error() == Some(libc::ESRCH) => Ok(()),
        e => Err(e),
    }
}

/// How child `pid` ended, without reaping it: while it stays a zombie its pid,
/// and so its process group id, cannot be reused. `block` waits for the exit.
pub(super) fn peek_exit(pid: u32, block: bool) -> io::Result<Option<Termination>> {
    let flags = libc::WEXITED | libc::WNOWAIT | if block { 0 } else { libc::WNOHANG };
    // SAFETY: an all-zero siginfo_t is valid; si_pid stays 0 if nothing exited.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `info` is a valid, writable siginfo_t.
        if unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) } == 0 {
            break;
        }
        let error = io::Error::last_os_error();
        if error.kind() != io::ErrorKind::Interrupted {
            return Err(error);
        }
    }
    // SAFETY: waitid filled `info` for a SIGCHLD-style event (or left it zeroed).
    let (child, status) = unsafe { (info.si_pid(), info.si_status()) };
    if child == 0 {
        return Ok(None);
    }
    Ok(Some(match info.si_code {
        libc::CLD_EXITED => Termination::Code(status),
        _ => Termination::Signal(status),
    }))
}

/// CPU time (user + system) of `pid` and of the children it has reaped, or
/// `None` once `/proc/<pid>` is gone.
pub(super) fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    parse_cpu_time(&stat, clock_ticks_per_second())
}

/// Sums utime, stime, cutime and cstime (fields 14 to 17 of `/proc/<pid>/stat`).
fn parse_cpu_time(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    // The command name (field 2) is in parentheses and may contain spaces or ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = fields.get(11..15)?.iter().map(|field| field.parse::<u64>().ok()).sum::<Option<u64>>()?;
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(ticks_per_second.max(1));
    Some(Duration::from_nanos(u64::try_from(nanos).ok()?))
}

fn clock_ticks_per_second() -> u64 {
    static TICKS: OnceLock<u64> = OnceLock::new();
    // SAFETY: sysconf has no preconditions.
    *TICKS.get_or_init(|| u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap_or(100))
}

/// The conventional name of signal `number`, such as `SIGSEGV` for 11.
pub(super) fn signal_name(number: i32) -> Option<&'static str> {
    Some(match number {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

/// How many unread stdout lines may queue before the reader stops reading.
const QUEUED_LINES: usize = 16;

/// What the stdout thread reports; the channel closing means end of file.
pub(super) enum StdoutEvent {
    /// A line without its line ending (lossy UTF-8).
    Line(String),
    /// A line longer than the limit; the thread stopped reading.
    TooLong,
    /// Reading failed; the thread stopped reading.
    Failed(io::Error),
}

/// The grader's ends of a program's pipes, each pumped by its own thread.
/// The threads end once the program's group is dead and the pipes close.
pub(super) struct Pipes {
    /// Bytes to write to stdin, in order; dropping it closes stdin.
    pub stdin: Sender<Vec<u8>>,
    /// Stdout, line by line.
    pub lines: Receiver<StdoutEvent>,
    /// Stderr, bounded.
    pub stderr: Arc<StderrCapture>,
    /// The three pump threads.
    pub threads: Vec<JoinHandle<()>>,
}

impl Pipes {
    /// Starts the pump threads; `max_line_bytes` and `stderr_bytes` bound memory.
    pub fn start(
        (stdin, stdout, stderr): (ChildStdin, ChildStdout, ChildStderr),
        max_line_bytes: usize,
        stderr_bytes: usize,
    ) -> io::Result<Pipes> {
        let (stdin_tx, stdin_rx) = mpsc::channel();
        let (lines_tx, lines_rx) = mpsc::sync_channel(QUEUED_LINES);
        let capture = Arc::new(StderrCapture::new(stderr_bytes));
        let shared = Arc::clone(&capture);
        let threads = vec![
            pump("submission-stdin", move || write_lines(stdin, stdin_rx))?,
            pump("submission-stdout", move || read_lines(stdout, max_line_bytes, lines_tx))?,
            pump("submission-stderr", move || shared.fill_from(stderr))?,
        ];
        Ok(Pipes { stdin: stdin_tx, lines: lines_rx, stderr: capture, threads })
    }
}

fn pump(name: &str, work: impl FnOnce() + Send + 'static) -> io::Result<JoinHandle<()>> {
    thread::Builder::new().name(name.to_owned()).spawn(work)
}

fn write_lines(mut stdin: impl Write, lines: Receiver<Vec<u8>>) {
    for line in lines {
        if stdin.write_all(&line).is_err() {
            return;
        }
    }
}

fn read_lines(stdout: impl Read, max_line_bytes: usize, events: SyncSender<StdoutEvent>) {
    let mut reader = BufReader::with_capacity(64 << 10, stdout);
    loop {
        let event = match next_line(&mut reader, max_line_bytes) {
            Ok(NextLine::Line(line)) => StdoutEvent::Line(line),
            Ok(NextLine::TooLong) => StdoutEvent::TooLong,
            Ok(NextLine::End) => return,
            Err(error) => StdoutEvent::Failed(error),
        };
        let last = !matches!(event, StdoutEvent::Line(_));
        if events.send(event).is_err() || last {
            return;
        }
    }
}

enum NextLine {
    Line(String),
    TooLong,
    End,
}

/// The next line of at most `max` bytes; an unterminated last line counts.
fn next_line(reader: &mut impl BufRead, max: usize) -> io::Result<NextLine> {
    let mut line = Vec::new();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if buffer.is_empty() {
            return Ok(match line.is_empty() {
                true => NextLine::End,
                false => NextLine::Line(decode(line)),
            });
        }
        let newline = buffer.iter().position(|&byte| byte == b'\n');
        let chunk = &buffer[..newline.unwrap_or(buffer.len())];
        if line.len() + chunk.len() > max {
            return Ok(NextLine::TooLong);
        }
        line.extend_from_slice(chunk);
        let used = chunk.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() {
            return Ok(NextLine::Line(decode(line)));
        }
    }
}

fn decode(mut line: Vec<u8>) -> String {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8(line).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Stderr kept up to a cap, counting what is dropped past it.
#[derive(Debug)]
pub(super) struct StderrCapture {
    state: Mutex<CaptureState>,
    ended: Condvar,
}

#[derive(Debug)]
struct CaptureState {
    kept: Vec<u8>,
    dropped: u64,
    cap: usize,
    ended: bool,
}

impl StderrCapture {
    fn new(cap: usize) -> Self {
        let state = CaptureState { kept: Vec::new(), dropped: 0, cap, ended: false };
        StderrCapture { state: Mutex::new(state), ended: Condvar::new() }
    }

    /// Drains `stderr` to its end, never blocking the writer on a full capture.
    fn fill_from(&self, mut stderr: impl Read) {
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
        let kept = std::mem::take(&mut state.kept);
        let dropped = std::mem::take(&mut state.dropped);
        CapturedOutput {
            text: String::from_utf8_lossy(&kept).into_owned(),
            truncated: dropped > 0,
            dropped_bytes: dropped,
        }
    }

    fn lock(&self) -> MutexGuard<'_, CaptureState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl CaptureState {
    fn keep(&mut self, bytes: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len()).min(bytes.len());
        self.kept.extend_from_slice(&bytes[..room]);
        self.dropped += (bytes.len() - room) as u64;
    }
}

/// Whether `pid` is a live process (not a zombie); for tests.
#[cfg(test)]
pub(super) fn is_running(pid: u32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    let exists = unsafe { libc::kill(pid as libc::pid_t, 0) } == 0
        || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM);
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')));
    exists && !zombie
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_sums_own_and_reaped_children_ticks() {
        let stat = "42 (odd) name)) R 1 42 42 0 -1 4194304 99 0 0 0 150 50 7 3 20 0 1 0 27479 3133440";
        assert_eq!(parse_cpu_time(stat, 100), Some(Duration::from_millis(2100)));
    }

    #[test]
    fn cpu_time_of_a_truncated_stat_is_unknown() {
        assert_eq!(parse_cpu_time("42 (x) R 1 42", 100), None);
    }

    #[test]
    fn signal_names_cover_crashes_and_limits() {
        assert_eq!(signal_name(libc::SIGSEGV), Some("SIGSEGV"));
        assert_eq!(signal_name(libc::SIGXCPU), Some("SIGXCPU"));
        assert_eq!(signal_name(64), None);
    }
}
