//! A build step (cargo, javac, jar) run to its end in a [`sandbox`], like a submission's
//! program: its own filesystem view, PID namespace, no network, limits on memory and processes, and a
//! wall-clock limit past which the whole sandbox is killed (a build script's `setsid` child included).
//!
//! It owns no policy: the caller says what to run, what the step may see and write, and its limits
//! ([`ProcessSpec`]); this module collects the output and reports how the step ended.
//!
//! One kind of process runs outside any sandbox: [`ask_host`], a question about the grader's own machine
//! (which interpreter a `PATH` entry stands for) that a sandbox would answer wrongly. It never gets a
//! student's file.

use std::io::{self, Read};
use std::os::fd::OwnedFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use super::spec::{ProcessSpec, Termination};
use super::{sandbox, unix};

/// How much of each output stream a step keeps; the rest is read and dropped.
pub(crate) const OUTPUT_CAP: usize = 16 << 20;
/// How long a stream may stay open after the step ended (only without a PID namespace can it).
const STREAM_GRACE: Duration = Duration::from_secs(1);
/// How often the step's end and the clock are looked at.
const POLL: Duration = Duration::from_millis(5);

/// What a build step left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// How it ended (a step past its time limit was killed: [`ToolOutput::timed_out`]).
    pub status: Termination,
    /// Its standard output, up to 16 MiB.
    pub stdout: Vec<u8>,
    /// Its standard error, up to 16 MiB.
    pub stderr: Vec<u8>,
    /// Whether it ran past its wall-clock limit and was killed.
    pub timed_out: bool,
}

impl ToolOutput {
    /// Whether the step exited with status 0 in time.
    pub fn success(&self) -> bool {
        !self.timed_out && self.status == Termination::Code(0)
    }

    /// Standard output then standard error, as text.
    pub fn combined(&self) -> String {
        let mut text = String::from_utf8_lossy(&self.stdout).into_owned();
        text.push_str(&String::from_utf8_lossy(&self.stderr));
        text
    }
}

/// Runs `spec` in a sandbox with `/dev/null` as its input until it ends or `wall` has passed, and returns
/// what it printed. Fails only if the step cannot be started.
///
/// ```
/// use std::time::Duration;
/// use grader::runner::spec::{ProcessSpec, Termination};
/// use grader::runner::tool::run_to_end;
///
/// let spec = ProcessSpec::new("/bin/sh").args(["-c", "echo built; (setsid sleep 1000 &); exit 0"]);
/// let output = run_to_end(&spec, Duration::from_secs(60))?;
/// assert_eq!((output.status, &output.stdout[..]), (Termination::Code(0), &b"built\n"[..]));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn run_to_end(spec: &ProcessSpec, wall: Duration) -> io::Result<ToolOutput> {
    let scratch = tempfile::Builder::new().prefix("build-step-").tempdir()?;
    let started = sandbox::start(spec, scratch.path(), false).map_err(|e| {
        let program = spec.program.display();
        io::Error::new(e.kind(), format!("failed to start `{program}`: {e}"))
    })?;
    let stdout = drain(started.stdout)?;
    let stderr = drain(started.stderr)?;
    let mut sandbox = started.sandbox;
    let since = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = sandbox.peek_exit(false)? {
            break status;
        }
        if since.elapsed() > wall {
            timed_out = true;
            sandbox.kill();
            break sandbox.peek_exit(true)?.unwrap_or(Termination::Signal(libc::SIGKILL));
        }
        thread::sleep(POLL);
    };
    sandbox.kill();
    sandbox.reap();
    let stdout = stdout.recv_timeout(STREAM_GRACE).unwrap_or_default();
    let stderr = stderr.recv_timeout(STREAM_GRACE).unwrap_or_default();
    Ok(ToolOutput { status, stdout, stderr, timed_out })
}

/// Runs the grader's own `program` with `args` outside any sandbox, in the grader's environment, in a
/// process group of its own that is killed past `wall`, and returns what it printed.
///
/// For questions about the host only, such as what `sys.executable` a `python3` on `PATH` reports: a
/// version manager's shim answers only where the manager is visible, which no sandbox is. The caller
/// passes no path a student chose: whatever touches a submission is a sandboxed [`run_to_end`].
pub fn ask_host(program: &Path, args: &[&str], wall: Duration) -> io::Result<ToolOutput> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()?;
    let stdout = drain(child.stdout.take().expect("piped").into())?;
    let stderr = drain(child.stderr.take().expect("piped").into())?;
    let since = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        if since.elapsed() > wall {
            timed_out = true;
            unix::kill_group(child.id())?;
            break child.wait()?;
        }
        thread::sleep(POLL);
    };
    let status = match status.code() {
        Some(code) => Termination::Code(code),
        None => Termination::Signal(status.signal().unwrap_or(libc::SIGKILL)),
    };
    let stdout = stdout.recv_timeout(STREAM_GRACE).unwrap_or_default();
    let stderr = stderr.recv_timeout(STREAM_GRACE).unwrap_or_default();
    Ok(ToolOutput { status, stdout, stderr, timed_out })
}

/// Reads `stream` to its end on a thread of its own, keeping the first [`OUTPUT_CAP`] bytes.
fn drain(stream: OwnedFd) -> io::Result<mpsc::Receiver<Vec<u8>>> {
    let (send, receive) = mpsc::channel();
    thread::Builder::new().name("build-output".into()).spawn(move || {
        let mut file = std::fs::File::from(stream);
        let mut kept = Vec::new();
        let mut chunk = vec![0; 64 << 10];
        while let Ok(n @ 1..) = file.read(&mut chunk) {
            let room = OUTPUT_CAP.saturating_sub(kept.len());
            kept.extend_from_slice(&chunk[..n.min(room)]);
        }
        let _ = send.send(kept);
    })?;
    Ok(receive)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_past_its_time_limit_is_killed_with_everything_it_started() {
        let spec = ProcessSpec::new("/bin/sh").args(["-c", "echo started; setsid sleep 1000; echo never"]);
        let output = run_to_end(&spec, Duration::from_millis(300)).unwrap();
        assert!(output.timed_out);
        assert!(!output.success());
        assert_eq!(output.stdout, b"started\n");
    }

    #[test]
    fn a_failing_step_keeps_both_streams() {
        let spec = ProcessSpec::new("/bin/sh").args(["-c", "echo out; echo err >&2; exit 2"]);
        let output = run_to_end(&spec, Duration::from_secs(60)).unwrap();
        assert_eq!(output.status, Termination::Code(2));
        assert_eq!(output.combined(), "out\nerr\n");
    }

    #[test]
    fn a_question_to_the_host_past_its_time_limit_is_killed_with_its_group() {
        let asked =
            ask_host(Path::new("/bin/sh"), &["-c", "echo $HOME; sleep 1000 & wait"], Duration::from_millis(300));
        let output = asked.unwrap();
        assert!(output.timed_out);
        assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), std::env::var("HOME").unwrap_or_default());
    }
}
