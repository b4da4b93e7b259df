//! The parent's handle on one worker process (`grader batch-worker`, see [`super::worker`]): start it, wait
//! until it has planned, hand it students, and when it dies, say how.
//!
//! The worker is this grader's own executable, not a submission: it runs outside any sandbox, as the grader
//! does, and starts the sandboxes of the students it grades through the runner like `grader grade`. Its
//! standard error is passed on to ours line by line, its last lines kept to explain a death.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use super::worker::{Job, Reply};

/// Lines of a worker's standard error kept to explain its death.
const KEPT_LINES: usize = 6;

/// A running worker.
pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_thread: Option<JoinHandle<()>>,
}

/// How starting a worker went wrong.
#[derive(Debug)]
pub enum StartError {
    /// It planned and said the tests cannot be planned: the grader cannot run (exit 2).
    Plan(String),
    /// It could not be started, or died before it said anything.
    Died(String),
}

impl Worker {
    /// Starts a worker on the settings in `settings_file` and waits until it has planned the tests; returns it
    /// with the fixture files it found missing.
    pub fn start(settings_file: &Path) -> Result<(Worker, Vec<String>), StartError> {
        let exe = std::env::current_exe().map_err(|e| StartError::Died(format!("cannot find the grader: {e}")))?;
        let mut child = Command::new(exe)
            .arg("batch-worker")
            .arg(settings_file)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| StartError::Died(format!("cannot start a grader process: {e}")))?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(StartError::Died("a grader process has no pipes".into()));
        };
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        let stderr_thread = std::thread::spawn(move || pass_on(stderr, &tail));
        let mut worker =
            Worker { child, stdin, stdout: BufReader::new(stdout), stderr_tail, stderr_thread: Some(stderr_thread) };
        match worker.read_reply() {
            Some(Reply::Ready { missing_fixtures }) => Ok((worker, missing_fixtures)),
            Some(Reply::Failed { message }) => Err(StartError::Plan(message)),
            _ => Err(StartError::Died(worker.death())),
        }
    }

    /// Grades one student: `Ok` with the worker's reply, or `Err` with how the worker died doing it (the
    /// worker is then spent).
    pub fn grade(&mut self, job: &Job) -> Result<Reply, String> {
        let line = serde_json::to_string(job).map_err(|e| e.to_string())?;
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        match (sent, self.read_reply()) {
            (Ok(()), Some(reply @ Reply::Graded { .. })) => Ok(reply),
            _ => Err(self.death()),
        }
    }

    fn read_reply(&mut self) -> Option<Reply> {
        let mut line = String::new();
        match self.stdout.read_line(&mut line) {
            Ok(n) if n > 0 => serde_json::from_str(&line).ok(),
            _ => None,
        }
    }

    /// Waits for a worker that stopped answering and says how it ended, with its last words.
    fn death(&mut self) -> String {
        let _ = self.child.kill();
        let status = self.child.wait();
        if let Some(thread) = self.stderr_thread.take() {
            let _ = thread.join();
        }
        let tail: Vec<String> = self.stderr_tail.lock().map(|t| t.iter().cloned().collect()).unwrap_or_default();
        let how = status.map_or_else(|e| format!("could not be waited for ({e})"), describe);
        match last_words(&tail) {
            Some(said) => format!("{how}; its last words: {}", crate::report::visible::line(&said)),
            None => how,
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // closing its standard input ends a worker between students; one still grading is stopped
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What a worker said last that explains its end: a panic's message (`thread 'main' panicked at src/x.rs:3:5:`
/// and the line after it, the message; not the backtrace's notes that follow), or else its last line.
fn last_words(tail: &[String]) -> Option<String> {
    let Some(at) = tail.iter().rposition(|line| line.contains(" panicked at ")) else {
        return tail.last().cloned();
    };
    let message = tail.get(at + 1).filter(|line| !line.starts_with("note:") && !line.starts_with("stack backtrace:"));
    Some(match message {
        Some(message) => format!("{} {message}", tail[at].trim_end()),
        None => tail[at].clone(),
    })
}

/// How a worker ended, in words.
fn describe(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(101), _) => "the grader panicked (exit code 101)".into(),
        (Some(code), _) => format!("the grader's process exited with code {code}"),
        (_, Some(libc::SIGKILL)) => {
            "the grader's process was killed (SIGKILL: the kernel's out-of-memory killer ends a process so)".into()
        }
        (_, Some(libc::SIGSEGV)) => "the grader's process crashed (SIGSEGV, a segmentation fault)".into(),
        (_, Some(libc::SIGABRT)) => "the grader's process aborted (SIGABRT)".into(),
        (_, Some(signal)) => format!("the grader's process was ended by signal {signal}"),
        _ => "the grader's process ended".into(),
    }
}

/// Copies a worker's standard error to ours, keeping its last lines.
/// A panic's line and its message, once seen, stay the last lines kept: the backtrace printed after them
/// (dozens of lines with `RUST_BACKTRACE`) would push them out of the few kept.
fn pass_on(stderr: impl std::io::Read, tail: &Mutex<VecDeque<String>>) {
    let mut panic_lines = 0;
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        eprintln!("{line}");
        let Ok(mut tail) = tail.lock() else { continue };
        if line.contains(" panicked at ") {
            tail.clear();
            panic_lines = 1;
        } else if panic_lines == 1 {
            panic_lines = 2;
        } else if panic_lines == 2 {
            continue;
        }
        if tail.len() == KEPT_LINES {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

#[cfg(test)]
mod tests {
    use super::{last_words, pass_on, KEPT_LINES};
    use std::collections::VecDeque;
    use std::sync::Mutex;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn a_panics_last_words_are_its_message_not_the_backtraces_notes() {
        let panic = lines(
            "grading alice\nthread 'main' panicked at grader/src/policy.rs:141:5:\noverflow when multiplying duration \
             by scalar\nstack backtrace:\n   0: rust_begin_unwind\nnote: Some details are omitted, run with \
             `RUST_BACKTRACE=full` for a verbose backtrace.",
        );
        assert_eq!(
            last_words(&panic).unwrap(),
            "thread 'main' panicked at grader/src/policy.rs:141:5: overflow when multiplying duration by scalar"
        );
        assert_eq!(last_words(&lines("one\ntwo")).unwrap(), "two");
        // the backtrace after a panic does not push its message out of the lines kept
        let frames: String = (0..3 * KEPT_LINES).map(|k| format!("  {k}: frame\n")).collect();
        let stderr = format!("thread 'main' (7) panicked at src/a.rs:1:1:\nthe message\nstack backtrace:\n{frames}");
        let tail = Mutex::new(VecDeque::new());
        pass_on(stderr.as_bytes(), &tail);
        let kept: Vec<String> = tail.into_inner().unwrap().into();
        assert_eq!(last_words(&kept).unwrap(), "thread 'main' (7) panicked at src/a.rs:1:1: the message");
        assert_eq!(last_words(&[]), None);
    }
}
