//! What `/proc` and the kernel's CPU clocks tell about another process's CPU time and children, read
//! often: a grade reads a JVM's clocks about 10,000 times, so the files stay open between readings
//! ([`ProcessClock`], [`ProcessClocks`], [`ThreadClock`], [`Offspring`]), within a budget of descriptors,
//! and the machine's own busy time ([`machine_busy_time`]).
//! One rule decides when a kept file serves again (`kept_or_opened`): while it still reads.

use std::io;
use std::sync::OnceLock;
use std::time::Duration;

/// A `/proc` file kept open and read again from its start (`pread`): no path lookup, open or close per
/// reading. A grade reads the CPU clocks of a JVM's threads about 10,000 times; opening each file each time
/// was most of the grader's system time. A kept file stays bound to the process or thread it was opened for:
/// once that one is gone its reads fail, even if the id has been given to another. Where the caller's budget
/// of open files is spent (a sandbox keeps a bounded number: a program of many threads must not use up the
/// grader's descriptors), the file is opened again by its path at each reading, as before.
#[derive(Debug)]
enum ProcFile {
    Kept(std::fs::File),
    Reopened(String),
}

impl ProcFile {
    /// `None` if there is no such file; kept open if `budget` has room (and then takes one from it).
    fn open(path: String, budget: &mut usize) -> Option<ProcFile> {
        let file = std::fs::File::open(&path).ok()?;
        Some(match budget.checked_sub(1) {
            Some(left) => {
                *budget = left;
                ProcFile::Kept(file)
            }
            None => ProcFile::Reopened(path),
        })
    }

    /// Whether the file is kept open (and so counts against a budget).
    fn is_kept(&self) -> bool {
        matches!(self, ProcFile::Kept(_))
    }

    /// `read` of the file's text now (a `stat` or `schedstat` line: tens to a few hundred bytes, 341 at most
    /// among 200 processes of the development machine). The kernel writes such a line whole, so a read that
    /// ends the line is the last (one call, not two); a buffer on the stack holds it, and a larger one is made
    /// only for a text that does not fit.
    fn read<T>(&self, read: impl FnOnce(&str) -> Option<T>) -> Option<T> {
        let mut small = [0u8; 1024];
        match self.read_into(&mut small)? {
            Ok(text) => read(text),
            Err(()) => {
                let mut large = vec![0u8; 1 << 16];
                read(self.read_into(&mut large)?.ok()?)
            }
        }
    }

    /// The file's first line (without reading the rest: `/proc/stat` on a large machine is long, its first
    /// line short), if it fits in 1 KB.
    fn read_first_line<T>(&self, read: impl FnOnce(&str) -> Option<T>) -> Option<T> {
        use std::os::unix::fs::FileExt as _;
        let ProcFile::Kept(file) = self else { return None };
        let mut buffer = [0u8; 1024];
        let filled = file.read_at(&mut buffer, 0).ok()?;
        let line = buffer[..filled].split(|&b| b == b'\n').next()?;
        read(std::str::from_utf8(line).ok()?)
    }

    /// The text, or `Err` if it does not fit in `buffer`; `None` if it cannot be read (the process is gone).
    fn read_into<'a>(&self, buffer: &'a mut [u8]) -> Option<Result<&'a str, ()>> {
        use std::os::unix::fs::FileExt as _;
        let reopened;
        let file = match self {
            ProcFile::Kept(file) => file,
            ProcFile::Reopened(path) => {
                reopened = std::fs::File::open(path).ok()?;
                &reopened
            }
        };
        let mut filled = 0;
        while filled == 0 || buffer[filled - 1] != b'\n' {
            if filled == buffer.len() {
                return Some(Err(()));
            }
            match file.read_at(&mut buffer[filled..], filled as u64) {
                Ok(0) => break,
                Ok(read) => filled += read,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        Some(Ok(std::str::from_utf8(&buffer[..filled]).ok()?))
    }
}

/// A `/proc` file and the process or thread it was opened for.
#[derive(Debug)]
struct Bound {
    id: u32,
    file: ProcFile,
}

/// The entry of `kept` for `id` if its file still reads (a kept file is bound to its process or thread: one
/// that no longer reads belonged to an earlier owner of the id), else `path`'s file opened anew within
/// `budget`; with what `read` made of it. A kept file reused counts against `budget` as a new one does.
fn kept_or_opened<T>(
    kept: &mut Vec<Bound>,
    id: u32,
    path: impl FnOnce() -> String,
    budget: &mut usize,
    read: impl Fn(&Bound) -> Option<T>,
) -> Option<(Bound, T)> {
    if let Some(at) = kept.iter().position(|entry| entry.id == id) {
        let entry = kept.swap_remove(at);
        if let Some(now) = read(&entry) {
            *budget = budget.saturating_sub(usize::from(entry.file.is_kept()));
            return Some((entry, now));
        }
    }
    let entry = Bound { id, file: ProcFile::open(path(), budget)? };
    let now = read(&entry)?;
    Some((entry, now))
}

/// The CPU clock of a process, kept open: every thread it has had (ended ones included) and the children it
/// has reaped. Its own threads' time is the kernel's exact figure (the process's CPU clock, in nanoseconds),
/// so that the time of a few threads, read from their own exact clocks, can be taken from it without the
/// rounding of clock ticks adding up; the reaped children's is in clock ticks (its `stat`).
#[derive(Debug)]
pub(in crate::runner) struct ProcessClock(Bound);

impl ProcessClock {
    /// `None` if there is no process `pid`. Kept open if `budget` has room (see [`ProcFile`]).
    pub(in crate::runner) fn open(pid: u32, budget: &mut usize) -> Option<ProcessClock> {
        Some(ProcessClock(Bound { id: pid, file: ProcFile::open(stat_path(pid), budget)? }))
    }

    /// Whether its file is kept open.
    #[cfg(test)]
    fn is_kept(&self) -> bool {
        self.0.file.is_kept()
    }

    /// The process's CPU time now, or `None` once it is gone.
    pub(in crate::runner) fn read(&self) -> Option<Duration> {
        process_time(&self.0)
    }
}

fn stat_path(pid: u32) -> String {
    format!("/proc/{pid}/stat")
}

/// The CPU time of the process `entry`'s `stat` file belongs to (see [`ProcessClock`]).
fn process_time(entry: &Bound) -> Option<Duration> {
    let ticks = clock_ticks_per_second();
    let own = process_clock(entry.id);
    entry.file.read(|stat| {
        let reaped = parse_reaped_cpu_time(stat, ticks)?;
        Some(own.or_else(|| parse_thread_cpu_time(stat, ticks))? + reaped)
    })
}

/// The CPU clocks of the processes a walk found, kept open until the next walk (see [`ProcFile`]).
#[derive(Debug, Default)]
pub(in crate::runner) struct ProcessClocks(Vec<Bound>);

impl ProcessClocks {
    /// The processes are now `pids`: a clock of the last walk stays where it still reads, a new process gets
    /// one within `budget`. Their CPU time now, each read once.
    pub(in crate::runner) fn found(&mut self, pids: Vec<u32>, budget: &mut usize) -> Duration {
        let mut kept = std::mem::take(&mut self.0);
        let mut total = Duration::ZERO;
        for pid in pids {
            if let Some((clock, now)) = kept_or_opened(&mut kept, pid, || stat_path(pid), budget, process_time) {
                total += now;
                self.0.push(clock);
            }
        }
        total
    }

    /// Their CPU time now (a process gone since the walk reads nothing).
    pub(in crate::runner) fn read(&self) -> Duration {
        self.0.iter().filter_map(process_time).sum()
    }
}

/// CPU time of process `pid` (see [`ProcessClock`]), or `None` once it is gone; for tests.
#[cfg(test)]
pub(in crate::runner) fn process_cpu_time(pid: u32) -> Option<Duration> {
    ProcessClock::open(pid, &mut 1)?.read()
}

/// The CPU clock of process `pid`'s own threads (all of them, ended ones included), exact.
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

/// The CPU clock of thread `tid` of process `pid`, kept open: exact (the scheduler's figure in `schedstat`)
/// where the kernel keeps it, else in clock ticks (its `stat`).
#[derive(Debug)]
pub(in crate::runner) struct ThreadClock {
    file: ProcFile,
    exact: bool,
}

impl ThreadClock {
    /// `None` if process `pid` has no thread `tid`; kept open (the runtime's own threads: a fixed few).
    pub(in crate::runner) fn open(pid: u32, tid: u32) -> Option<ThreadClock> {
        let kept = &mut 1;
        if let Some(file) = ProcFile::open(format!("/proc/{pid}/task/{tid}/schedstat"), kept) {
            return Some(ThreadClock { file, exact: true });
        }
        Some(ThreadClock { file: ProcFile::open(format!("/proc/{pid}/task/{tid}/stat"), kept)?, exact: false })
    }

    /// The thread's CPU time now, or `None` once it is gone.
    pub(in crate::runner) fn read(&self) -> Option<Duration> {
        if self.exact {
            self.file.read(parse_schedstat)
        } else {
            self.file.read(|stat| parse_thread_cpu_time(stat, clock_ticks_per_second()))
        }
    }
}

/// CPU time of thread `tid` of process `pid` (see [`ThreadClock`]), or `None` once it is gone; for tests.
#[cfg(test)]
pub(in crate::runner) fn thread_cpu_time(pid: u32, tid: u32) -> Option<Duration> {
    ThreadClock::open(pid, tid)?.read()
}

/// The first field of a `schedstat` line: nanoseconds spent on a CPU.
fn parse_schedstat(schedstat: &str) -> Option<Duration> {
    Some(Duration::from_nanos(schedstat.split_whitespace().next()?.parse().ok()?))
}

/// The CPU time every CPU of the machine has spent on anything but idling (and waiting for disks) since it
/// started: `/proc/stat`'s first line, in clock ticks, its file kept open for the whole grader process.
/// `None` where it cannot be read.
pub(in crate::runner) fn machine_busy_time() -> Option<Duration> {
    static STAT: OnceLock<Option<ProcFile>> = OnceLock::new();
    let file = STAT.get_or_init(|| ProcFile::open("/proc/stat".into(), &mut 1)).as_ref()?;
    file.read_first_line(|line| parse_machine_busy(line, clock_ticks_per_second()))
}

/// The busy time of `/proc/stat`'s aggregate line: every field but idle (4th) and iowait (5th), less guest
/// and guest_nice, which user and nice already count.
fn parse_machine_busy(line: &str, ticks_per_second: u64) -> Option<Duration> {
    let mut fields = line.split_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let ticks: Vec<u64> = fields.map(|field| field.parse().ok()).collect::<Option<_>>()?;
    let busy = ticks.iter().enumerate().filter(|&(i, _)| !matches!(i, 3 | 4 | 8 | 9)).map(|(_, t)| t).sum::<u64>();
    let nanos = u128::from(busy) * 1_000_000_000 / u128::from(ticks_per_second.max(1));
    Some(Duration::from_nanos(u64::try_from(nanos).ok()?))
}

/// How many CPUs the machine has online (those `/proc/stat`'s first line sums over).
pub(in crate::runner) fn online_cpus() -> u32 {
    static CPUS: OnceLock<u32> = OnceLock::new();
    // SAFETY: sysconf has no preconditions.
    *CPUS.get_or_init(|| u32::try_from(unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) }).unwrap_or(1).max(1))
}

/// The children of every thread of process `pid` (empty once it is gone, or where the kernel does not
/// list children); for tests.
#[cfg(test)]
pub(in crate::runner) fn children(pid: u32) -> Vec<u32> {
    Offspring::new(pid).list(&mut 0)
}

/// The children of every thread of process `pid`, each thread's `children` file kept open from one listing to
/// the next: a listing reads the process's threads (one directory) and one kept file per thread, opening only
/// a new thread's (a JVM has twenty threads, listed every few CPU readings).
#[derive(Debug)]
pub(in crate::runner) struct Offspring {
    pid: u32,
    /// Each thread's `children` file.
    threads: Vec<Bound>,
}

impl Offspring {
    pub(in crate::runner) fn new(pid: u32) -> Offspring {
        Offspring { pid, threads: Vec::new() }
    }

    pub(in crate::runner) fn pid(&self) -> u32 {
        self.pid
    }

    /// The children now: empty once the process is gone, or where the kernel does not list children. The
    /// files it keeps open count against `budget` (see [`ProcFile`]).
    pub(in crate::runner) fn list(&mut self, budget: &mut usize) -> Vec<u32> {
        let pid = self.pid;
        let mut kept = std::mem::take(&mut self.threads);
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
        let tids = tasks.filter_map(|task| task.ok()?.file_name().to_str()?.parse::<u32>().ok());
        let mut children = Vec::new();
        let read = |entry: &Bound| {
            entry
                .file
                .read(|list| Some(list.split_whitespace().filter_map(|c| c.parse::<u32>().ok()).collect::<Vec<_>>()))
        };
        for tid in tids {
            let path = || format!("/proc/{pid}/task/{tid}/children");
            if let Some((file, list)) = kept_or_opened(&mut kept, tid, path, budget, read) {
                children.extend(list);
                self.threads.push(file);
            }
        }
        children
    }
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
    let mut fields = after_name.split_whitespace().skip(range.start);
    let ticks = range.map(|_| fields.next()?.parse::<u64>().ok()).sum::<Option<u64>>()?;
    let nanos = u128::from(ticks) * 1_000_000_000 / u128::from(ticks_per_second.max(1));
    Some(Duration::from_nanos(u64::try_from(nanos).ok()?))
}

fn clock_ticks_per_second() -> u64 {
    static TICKS: OnceLock<u64> = OnceLock::new();
    // SAFETY: sysconf has no preconditions.
    *TICKS.get_or_init(|| u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).unwrap_or(100))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_is_busy_but_when_idle_or_waiting_for_disks() {
        let line = "cpu  100 20 30 4000 50 6 7 8 9 10";
        assert_eq!(parse_machine_busy(line, 100), Some(Duration::from_millis(1710)));
        assert_eq!(parse_machine_busy("cpu0 1 2 3 4 5 6 7 8", 100), None);
        let here = machine_busy_time().expect("/proc/stat reads");
        assert!(machine_busy_time().expect("again") >= here);
        assert!(online_cpus() >= 1);
    }

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
    fn kept_clocks_advance_and_end_with_their_process() {
        let mut child = std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn().unwrap();
        let process = ProcessClock::open(child.id(), &mut 1).unwrap();
        assert!(process.is_kept());
        let thread = ThreadClock::open(child.id(), child.id()).unwrap();
        let first = (process.read().unwrap(), thread.read().unwrap());
        let since = std::time::Instant::now();
        while thread.read().is_some_and(|cpu| cpu < first.1 + Duration::from_millis(50)) {
            assert!(since.elapsed() < Duration::from_secs(60), "the child never ran");
        }
        assert!(process.read().unwrap() >= first.0 + Duration::from_millis(50));
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!((process.read(), thread.read()), (None, None), "a reaped process has no clock");
    }

    #[test]
    fn a_process_lists_its_children() {
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        assert!(children(std::process::id()).contains(&child.id()));
        child.kill().unwrap();
        child.wait().unwrap();
    }

    #[test]
    fn kept_files_stay_within_their_budget_and_the_rest_are_reopened() {
        let mut child = std::process::Command::new("sleep").arg("5").spawn().unwrap();
        // a second thread of this process, so that one `children` file is kept and another reopened
        let (stop, parked) = std::sync::mpsc::channel::<()>();
        let helper = std::thread::spawn(move || parked.recv());
        let mut offspring = Offspring::new(std::process::id());
        for _ in 0..2 {
            let mut budget = 1;
            assert!(offspring.list(&mut budget).contains(&child.id()));
            assert_eq!(budget, 0);
            let kept = offspring.threads.iter().filter(|entry| entry.file.is_kept()).count();
            assert_eq!(kept, 1, "one file kept");
            assert!(offspring.threads.len() > kept, "the others reopened, and listed all the same");
        }
        drop(stop);
        helper.join().unwrap().unwrap_err();

        let mut clocks = ProcessClocks::default();
        let mut budget = 1;
        clocks.found(vec![child.id()], &mut budget);
        assert_eq!((clocks.0.len(), budget), (1, 0), "a new process gets a kept clock");
        let mut budget = 1;
        clocks.found(vec![child.id()], &mut budget);
        assert_eq!((clocks.0.len(), budget), (1, 0), "the clock is kept from walk to walk, within the budget");
        let reopened = ProcessClock::open(child.id(), &mut 0).unwrap();
        assert!(!reopened.is_kept() && reopened.read().is_some());
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(!offspring.list(&mut 1).contains(&child.id()));
        assert_eq!(reopened.read(), None, "a reopened clock of a reaped process reads nothing");
        assert_eq!(clocks.found(vec![child.id()], &mut 1), Duration::ZERO);
        assert!(clocks.0.is_empty(), "a clock that no longer reads is not kept, nor opened again");
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
        assert_eq!(parse_reaped_cpu_time("42 (x) R 1 42", 100), None);
    }
}
