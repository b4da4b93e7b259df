//! The Linux half of [`super::process`]: the confined command (new process
//! group, scrubbed environment, resource limits applied in the child before
//! `exec`), signals to a whole process group, peeking at an exit without
//! reaping it, and CPU time read from `/proc`.
//!
//! This file and `pipes` (non-blocking pipe I/O) own every `libc` call and
//! every `unsafe` block of the runner. Neither knows about the protocol,
//! deadlines or students; `process` decides when to call what.

use std::io;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use super::process::{Limits, ProcessSpec, Termination};

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

/// CPU time (user + system) of thread `tid` of process `pid`, or `None` once it is gone.
pub(super) fn thread_cpu_time(pid: u32, tid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/stat")).ok()?;
    parse_thread_cpu_time(&stat, clock_ticks_per_second())
}

/// CPU time (user + system) used so far by this process, all threads, and by the children it has reaped.
pub(super) fn own_and_children_cpu() -> (Duration, Duration) {
    fn used(who: libc::c_int) -> Duration {
        // SAFETY: `usage` is a valid, writable rusage; getrusage only fills it in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(who, &mut usage) } != 0 {
            return Duration::ZERO;
        }
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        time(usage.ru_utime) + time(usage.ru_stime)
    }
    (used(libc::RUSAGE_SELF), used(libc::RUSAGE_CHILDREN))
}

/// Sums utime, stime, cutime and cstime (fields 14 to 17 of `/proc/<pid>/stat`).
fn parse_cpu_time(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    sum_ticks(stat, 11..15, ticks_per_second)
}

/// Sums utime and stime (fields 14 and 15 of `/proc/<pid>/task/<tid>/stat`; a thread's fields 16 and 17
/// are its process's reaped children).
fn parse_thread_cpu_time(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    sum_ticks(stat, 11..13, ticks_per_second)
}

/// The sum of the fields at `range` after the command name, in clock ticks, as a duration.
fn sum_ticks(stat: &str, range: std::ops::Range<usize>, ticks_per_second: u64) -> Option<Duration> {
    // The command name (field 2) is in parentheses and may contain spaces or ')'.
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = fields.get(range)?.iter().map(|field| field.parse::<u64>().ok()).sum::<Option<u64>>()?;
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
    fn a_threads_cpu_time_leaves_out_reaped_children() {
        let stat = "43 (submission) S 1 42 42 0 -1 4194304 99 0 0 0 150 50 7 3 20 0 1 0 27479 3133440";
        assert_eq!(parse_thread_cpu_time(stat, 100), Some(Duration::from_millis(2000)));
    }

    #[test]
    fn the_threads_of_this_process_have_cpu_times() {
        let pid = std::process::id();
        // SAFETY: gettid has no preconditions.
        let tid = unsafe { libc::gettid() } as u32;
        assert!(thread_cpu_time(pid, tid).is_some());
        assert_eq!(thread_cpu_time(pid, u32::MAX), None);
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
