//! What a process run is made of, named once for the whole process layer: the spec (program, arguments,
//! environment, [`ProcessLimits`], [`View`], [`Identity`]), how a program ended ([`Termination`]) and the
//! stderr kept of it ([`CapturedOutput`]).
//!
//! `process`, `pipes`, `unix`, `sandbox` and `tool` all use these types; this file uses none of theirs, so
//! the process layer has no cycle. It holds data and no system calls.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The longest protocol line accepted (specs/protocol.md): a 127-by-127 board's `toString()` is about
/// 100 KB, and a `solution` of a million boards about 8 MB of handles.
pub const MAX_REPLY_BYTES: usize = 16 << 20;

/// How many processes and threads a submission may hold at once unless its spec says otherwise: enough for
/// a JVM, too few for a fork bomb.
pub const DEFAULT_PROCESSES: u64 = 128;

/// Resource and capture limits of one program run: the kernel's (rlimits, control groups) and the grader's
/// own (line length, stderr kept).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessLimits {
    /// Address-space cap (`RLIMIT_AS`) in bytes; `None` for the JVM, which
    /// reserves far more address space than it uses.
    pub address_space: Option<u64>,
    /// Last-resort CPU cap for the whole run (`RLIMIT_CPU`, rounded up to
    /// whole seconds): past it the kernel kills the program with `SIGXCPU`.
    pub cpu: Option<Duration>,
    /// Longest accepted stdout line in bytes; longer is [`ProcessFault::LineTooLong`](super::process::ProcessFault::LineTooLong).
    pub max_line_bytes: usize,
    /// How much stderr [`SubmissionProcess::take_output`](super::process::SubmissionProcess::take_output) keeps between takes.
    pub stderr_bytes: usize,
    /// Kill the program if the grader thread that spawned it ends (even if
    /// the grader is killed). Spawn from a thread that outlives the run.
    pub die_with_grader: bool,
    /// Most processes and threads the sandbox may hold at once (`RLIMIT_NPROC` of its own uid, and its
    /// `pids` control group).
    pub processes: Option<u64>,
    /// Memory cap of the whole sandbox in bytes (its `memory` control group): every process's memory,
    /// native memory and the pages of the sandbox's tmpfs mounts included.
    pub memory: Option<u64>,
    /// Size of the scratch directory in bytes (a tmpfs of its own; `None`: the kernel's default, half the
    /// machine's memory).
    pub scratch: Option<u64>,
    /// Largest file the program may write (`RLIMIT_FSIZE`), in bytes: where there is no mount namespace
    /// (so no tmpfs) it bounds what one file of the scratch directory can take of the host's disk.
    pub file_size: Option<u64>,
}

/// The scratch size and file-size cap of a run unless its spec says otherwise.
pub const DEFAULT_SCRATCH_BYTES: u64 = 64 << 20;

impl Default for ProcessLimits {
    fn default() -> Self {
        ProcessLimits {
            address_space: None,
            cpu: Some(Duration::from_secs(600)),
            max_line_bytes: MAX_REPLY_BYTES,
            stderr_bytes: 64 << 10,
            die_with_grader: true,
            processes: Some(DEFAULT_PROCESSES),
            memory: None,
            scratch: Some(DEFAULT_SCRATCH_BYTES),
            file_size: Some(DEFAULT_SCRATCH_BYTES),
        }
    }
}

/// What to run: a program, its arguments, extra environment, limits, and what
/// its sandbox shows it.
///
/// The program runs in a fresh empty directory, so `program` and any path in
/// `args` should be absolute (a relative `program` containing `/` is resolved
/// against the grader's directory, a bare name on `PATH`). The environment
/// holds only `PATH`, `HOME` and `TMPDIR` (the fresh directory),
/// `LANG=C.UTF-8` and [`ProcessSpec::env`]. The program file itself is
/// visible; any other file it needs outside the system directories must be
/// in [`ProcessSpec::view`].
#[derive(Debug, Clone)]
pub struct ProcessSpec {
    /// The program: absolute, or a bare name looked up on `PATH`.
    pub program: PathBuf,
    #[allow(missing_docs)]
    pub args: Vec<OsString>,
    /// Extra environment variables, such as `JAVA_HOME` for the JVM.
    pub env: Vec<(OsString, OsString)>,
    #[allow(missing_docs)]
    pub limits: ProcessLimits,
    /// What the sandbox shows beyond the system directories and the scratch directory.
    pub view: View,
    /// Who the program runs as.
    pub identity: Identity,
    /// The working directory, if not the fresh scratch directory (it must be in [`ProcessSpec::view`]).
    pub cwd: Option<PathBuf>,
}

impl ProcessSpec {
    /// A spec for `program` without arguments, with default [`ProcessLimits`], an unprivileged identity and
    /// nothing but the program in view.
    pub fn new(program: impl Into<PathBuf>) -> Self {
        ProcessSpec {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            limits: ProcessLimits::default(),
            view: View::default(),
            identity: Identity::default(),
            cwd: None,
        }
    }

    /// Shows `path` read-only.
    pub fn read_only(mut self, path: impl Into<PathBuf>) -> Self {
        self.view.read_only.push(path.into());
        self
    }

    /// Shows `path` writable.
    pub fn writable(mut self, path: impl Into<PathBuf>) -> Self {
        self.view.writable.push(path.into());
        self
    }

    /// Adds arguments.
    pub fn args<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(mut self, args: I) -> Self {
        self.args.extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// Adds an environment variable.
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env.push((key.as_ref().to_owned(), value.as_ref().to_owned()));
        self
    }

    /// Replaces the limits.
    pub fn limits(mut self, limits: ProcessLimits) -> Self {
        self.limits = limits;
        self
    }
}

/// What a sandboxed process sees of the filesystem beyond the system's toolchain directories and its
/// scratch directory. Each path appears at its own name; a file may be named as well as a directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// Visible, read-only: the submission's files, a toolchain outside `/usr`.
    pub read_only: Vec<PathBuf>,
    /// Visible and writable: a build's output directory (it must exist).
    pub writable: Vec<PathBuf>,
}

/// Who a sandboxed process runs as, when the grader is root.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Identity {
    /// A uid of its own, without privileges: every submission run.
    #[default]
    Unprivileged,
    /// Root without any capability: a build, which writes into root-owned caches.
    CaplessRoot,
}

/// How a program ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// It exited with this status.
    Code(i32),
    /// A signal killed it.
    Signal(i32),
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Termination::Code(code) => write!(f, "exited with status {code}"),
            Termination::Signal(number) => match signal_name(number) {
                Some(name) => write!(f, "killed by signal {number} ({name})"),
                None => write!(f, "killed by signal {number}"),
            },
        }
    }
}

/// The conventional name of signal `number`, such as `SIGSEGV` for 11.
fn signal_name(number: i32) -> Option<&'static str> {
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

/// Stderr captured since the last [`SubmissionProcess::take_output`](super::process::SubmissionProcess::take_output).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CapturedOutput {
    /// At most [`ProcessLimits::stderr_bytes`] bytes, decoded as lossy UTF-8: the first half of the cap, then the
    /// latest bytes (where a crash message is).
    pub text: String,
    /// Whether bytes were dropped past the cap.
    pub truncated: bool,
    /// How many bytes were dropped.
    pub dropped_bytes: u64,
    /// Where in `text` the dropped bytes were (the first half ends there).
    pub cut_at: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signal_names_cover_crashes_and_limits() {
        assert_eq!(signal_name(libc::SIGSEGV), Some("SIGSEGV"));
        assert_eq!(signal_name(libc::SIGXCPU), Some("SIGXCPU"));
        assert_eq!(signal_name(64), None);
    }
}
