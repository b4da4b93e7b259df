//! The Linux half of [`super::process`]: signals to a whole process group,
//! peeking at an exit without reaping it, reaping, and what `/proc` tells
//! about a process (threads, namespaces; its CPU time and children in
//! `clocks.rs`). Starting a process is `sandbox`'s.
//!
//! This directory, `pipes` (non-blocking pipe I/O) and `sandbox/child.rs` own
//! every `libc` call and every `unsafe` block of the runner. None knows about
//! the protocol, deadlines or students; `process` decides when to call what.

use std::io;
use std::sync::OnceLock;
use std::time::Duration;

use super::spec::Termination;

mod clocks;

#[cfg(test)]
pub(super) use clocks::{children, process_cpu_time, thread_cpu_time};
pub(super) use clocks::{machine_busy_time, online_cpus, Offspring, ProcessClock, ProcessClocks, ThreadClock};

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

/// Reaps child `pid`, waiting for it to end.
pub(super) fn reap(pid: u32) {
    let mut status = 0;
    // SAFETY: `status` is a valid out-pointer.
    while unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) } == -1
        && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
    {}
}

/// The first child of `pid` (in the grader's numbering), if it has one.
pub(super) fn first_child(pid: u32) -> Option<u32> {
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).ok()?;
    children.split_whitespace().next()?.parse().ok()
}

/// The grader's number of the thread of process `pid` that its own PID namespace numbers `tid`.
pub(super) fn global_tid(pid: u32, tid: u32) -> Option<u32> {
    std::fs::read_dir(format!("/proc/{pid}/task")).ok()?.filter_map(Result::ok).find_map(|task| {
        let status = std::fs::read_to_string(task.path().join("status")).ok()?;
        let inner = innermost_pid(&status)?;
        (inner == tid).then(|| task.file_name().to_str()?.parse().ok()).flatten()
    })
}

/// The name thread `tid` (the grader's number) of process `pid` has now (`comm`: its first 15 bytes), if it
/// is still there.
pub(super) fn thread_name(pid: u32, tid: u32) -> Option<String> {
    let comm = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/comm")).ok()?;
    Some(comm.trim_end_matches('\n').to_string())
}

/// The last number of the `NSpid:` line of a `/proc/PID/status`: the id in the innermost namespace.
fn innermost_pid(status: &str) -> Option<u32> {
    let line = status.lines().find(|line| line.starts_with("NSpid:"))?;
    line.split_whitespace().last()?.parse().ok()
}

/// Where this process's command line and environment are in memory (`/proc/self/stat` fields 48 to 51),
/// as `[(arg_start, arg_end), (env_start, env_end)]`; zeros when unknown.
pub(super) fn argument_and_environment_areas() -> &'static [(usize, usize); 2] {
    static AREAS: OnceLock<[(usize, usize); 2]> = OnceLock::new();
    AREAS.get_or_init(|| {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        parse_areas(&stat).unwrap_or_default()
    })
}

fn parse_areas(stat: &str) -> Option<[(usize, usize); 2]> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<usize> =
        after_name.split_whitespace().skip(45).take(4).map(|f| f.parse().ok()).collect::<Option<_>>()?;
    match fields[..] {
        [arg_start, arg_end, env_start, env_end] => Some([(arg_start, arg_end), (env_start, env_end)]),
        _ => None,
    }
}

/// CPU time (user + system) used so far by this process, all threads.
pub(super) fn own_cpu() -> Duration {
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    rusage(libc::RUSAGE_SELF).map_or(Duration::ZERO, |usage| time(usage.ru_utime) + time(usage.ru_stime))
}

/// The peak resident set of this process alone (`ru_maxrss` of `RUSAGE_SELF`), in KiB.
pub(super) fn own_peak_memory_kib() -> u64 {
    rusage(libc::RUSAGE_SELF).map_or(0, |usage| u64::try_from(usage.ru_maxrss).unwrap_or(0))
}

/// `getrusage(who)`, or `None` if the kernel refuses it.
fn rusage(who: libc::c_int) -> Option<libc::rusage> {
    // SAFETY: `usage` is a valid, writable rusage; getrusage only fills it in.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    (unsafe { libc::getrusage(who, &mut usage) } == 0).then_some(usage)
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
    fn a_threads_innermost_id_is_the_last_of_its_namespace_ids() {
        assert_eq!(innermost_pid("Name:\tjava\nNSpid:\t4242\t7\nNSsid: 1\n"), Some(7));
        assert_eq!(innermost_pid("NSpid:\t4242\n"), Some(4242));
        assert_eq!(innermost_pid("Name: x\n"), None);
    }

    #[test]
    fn this_processs_command_line_is_where_its_stat_says() {
        let [(start, end), _] = *argument_and_environment_areas();
        assert!(start != 0 && end > start);
        let argv0 = std::env::args_os().next().unwrap();
        // SAFETY: the range is this process's own, mapped argument area.
        let area = unsafe { std::slice::from_raw_parts(start as *const u8, end - start) };
        assert!(area.starts_with(std::os::unix::ffi::OsStrExt::as_bytes(argv0.as_os_str())));
    }
}
