//! The Linux half of [`super::process`]: signals to a whole process group,
//! peeking at an exit without reaping it, reaping, and what `/proc` tells
//! about a process (CPU time, threads, children). Starting a process is
//! `sandbox`'s.
//!
//! This file, `pipes` (non-blocking pipe I/O) and `sandbox/child.rs` own
//! every `libc` call and every `unsafe` block of the runner. None knows about
//! the protocol, deadlines or students; `process` decides when to call what.

use std::io;
use std::sync::OnceLock;
use std::time::Duration;

use super::spec::Termination;

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

/// CPU time of process `pid`, every thread it has had (ended ones included) and the children it has reaped,
/// or `None` once it is gone. Its own threads' time is the kernel's exact figure (the process's CPU clock, in
/// nanoseconds), so that the time of a few threads, read from their own exact clocks, can be taken from it
/// without the rounding of clock ticks adding up; the reaped children's is in clock ticks.
pub(super) fn process_cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let ticks = clock_ticks_per_second();
    let reaped = parse_reaped_cpu_time(&stat, ticks)?;
    let own = process_clock(pid).or_else(|| parse_thread_cpu_time(&stat, ticks))?;
    Some(own + reaped)
}

/// The CPU clock of process `pid` (all its threads, ended ones included), exact.
fn process_clock(pid: u32) -> Option<Duration> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `clock` is a valid out-pointer.
    if unsafe { libc::clock_getcpuclockid(pid as libc::pid_t, &mut clock) } != 0 {
        return None;
    }
    // SAFETY: an all-zero timespec is valid, and `now` is a valid out-pointer.
    let mut now: libc::timespec = unsafe { std::mem::zeroed() };
    if unsafe { libc::clock_gettime(clock, &mut now) } != 0 {
        return None;
    }
    Some(Duration::new(u64::try_from(now.tv_sec).ok()?, u32::try_from(now.tv_nsec).ok()?))
}

/// CPU time of thread `tid` of process `pid`, or `None` once it is gone: exact (the scheduler's figure in
/// `schedstat`) where the kernel keeps it, else in clock ticks.
pub(super) fn thread_cpu_time(pid: u32, tid: u32) -> Option<Duration> {
    if let Ok(schedstat) = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/schedstat")) {
        return parse_schedstat(&schedstat);
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/task/{tid}/stat")).ok()?;
    parse_thread_cpu_time(&stat, clock_ticks_per_second())
}

/// The first field of a `schedstat` line: nanoseconds spent on a CPU.
fn parse_schedstat(schedstat: &str) -> Option<Duration> {
    Some(Duration::from_nanos(schedstat.split_whitespace().next()?.parse().ok()?))
}

/// The children of every thread of process `pid` (empty once it is gone, or where the kernel does not
/// list children).
pub(super) fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    let mut children = Vec::new();
    for task in tasks.filter_map(Result::ok) {
        if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
            children.extend(list.split_whitespace().filter_map(|child| child.parse::<u32>().ok()));
        }
    }
    children
}

/// CPU time (user + system) used so far by this process, all threads, and by the children it has reaped.
pub(super) fn own_and_children_cpu() -> (Duration, Duration) {
    let used = |who| {
        let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        rusage(who).map_or(Duration::ZERO, |usage| time(usage.ru_utime) + time(usage.ru_stime))
    };
    (used(libc::RUSAGE_SELF), used(libc::RUSAGE_CHILDREN))
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

/// Sums cutime and cstime (fields 16 and 17 of `/proc/<pid>/stat`): the CPU time of the children the
/// process has reaped.
fn parse_reaped_cpu_time(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    sum_ticks(stat, 13..15, ticks_per_second)
}

/// Sums utime and stime (fields 14 and 15 of `/proc/<pid>/stat`, or of `/proc/<pid>/task/<tid>/stat`; a
/// thread's fields 16 and 17 are its process's reaped children).
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
    fn reaped_children_are_fields_16_and_17() {
        let stat = "42 (odd) name)) R 1 42 42 0 -1 4194304 99 0 0 0 150 50 7 3 20 0 1 0 27479 3133440";
        assert_eq!(parse_reaped_cpu_time(stat, 100), Some(Duration::from_millis(100)));
    }

    #[test]
    fn a_threads_cpu_time_leaves_out_reaped_children() {
        let stat = "43 (submission) S 1 42 42 0 -1 4194304 99 0 0 0 150 50 7 3 20 0 1 0 27479 3133440";
        assert_eq!(parse_thread_cpu_time(stat, 100), Some(Duration::from_millis(2000)));
    }

    #[test]
    fn a_schedstat_line_starts_with_nanoseconds_on_a_cpu() {
        assert_eq!(parse_schedstat("77757302 115186137 43\n"), Some(Duration::from_nanos(77_757_302)));
        assert_eq!(parse_schedstat(""), None);
    }

    #[test]
    fn this_processs_cpu_clock_counts_its_threads_work() {
        let pid = std::process::id();
        let before = process_cpu_time(pid).unwrap();
        let spin = std::thread::spawn(move || {
            // SAFETY: gettid has no preconditions.
            let tid = unsafe { libc::gettid() } as u32;
            while thread_cpu_time(pid, tid).is_some_and(|cpu| cpu < Duration::from_millis(60)) {}
        });
        spin.join().unwrap();
        // the thread has ended; its time stays in the process's clock
        let after = process_cpu_time(pid).unwrap();
        assert!(after >= before + Duration::from_millis(30), "{before:?} then {after:?}");
        assert_eq!(process_cpu_time(u32::MAX), None);
    }

    #[test]
    fn a_process_lists_its_children() {
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        assert!(children(std::process::id()).contains(&child.id()));
        child.kill().unwrap();
        child.wait().unwrap();
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

    #[test]
    fn cpu_time_of_a_truncated_stat_is_unknown() {
        assert_eq!(parse_reaped_cpu_time("42 (x) R 1 42", 100), None);
    }
}
