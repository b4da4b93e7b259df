//! Whether a program that did not answer had the chance to: a wait's wall-clock net is counted in
//! *available* time, the time the rest of the machine did not deny the program ([`Watch`]).
//!
//! A request is bounded by CPU time, which a busy machine does not inflate, and by a net for a program that
//! waits on nothing (a hang). On a shared machine a correct program can wait a long while for a CPU, so the
//! net must not run while the machine, not the program, holds it up. The watch closes a window every
//! [`WINDOW`] of a wait and credits the program with the window's length less what it was *denied*:
//!
//! - what it wanted: the longest time one of its threads spent runnable but not running (a thread's
//!   `schedstat` run-queue wait), and
//! - what others took: the CPU time processes outside its sandbox and outside this grader used in the window
//!   (the machine's busy time from `/proc/stat`, less the sandbox's and the grader's own), per CPU;
//!
//! denied = the smaller of the two. The second is evidence the program cannot produce: its own threads, however
//! many, crowd only each other, and their CPU counts as its own. So a program that hangs (sleeping, waiting
//! for input, deadlocked) reaches its net after the same available time, on a quiet machine or a busy one,
//! and a correct program is never timed out by other people's work: its own CPU decides ([`super::process`]'s
//! CPU deadline). Only if the wall clock passes [`MACHINE_NET_FACTOR`] times the net before the program
//! had the net's time available did the machine stall it ([`Cause::Machine`], with the CPU others used), or if
//! it was stopped from outside (`T`, `t`), which it cannot do to itself where the sandbox refuses the stopping
//! signals ([`super::sandbox`]'s seccomp layer). A program that lowered its own priority or narrowed its CPUs
//! waits on its own account.
//!
//! This module reads `/proc` and judges; it decides nothing about replays (the grading run does).

use std::fs;
use std::time::{Duration, Instant};

use super::unix;

/// How often a long wait's availability is settled: each window reads `/proc/stat`, the grader's own CPU and
/// the sandbox's threads once.
pub const WINDOW: Duration = Duration::from_millis(250);

/// How many times its net (counted in wall-clock time) a wait may last before the program, not having had
/// the net's time available, is taken to have been stalled by the machine.
pub const MACHINE_NET_FACTOR: u32 = 8;

/// The least CPU time a thread uses on average per turn on a CPU, in a window, for its run-queue waits to
/// count as wanted. A thread that computes keeps a CPU for a scheduler slice (milliseconds) unless woken
/// work preempts it; one that calls `sched_yield` in a loop, or wakes and parks again, gets many turns of
/// microseconds.
pub const MIN_SLICE: Duration = Duration::from_micros(200);

/// What ended a wait at its net.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// The machine kept the program from running; the detail says how (for the grader's log, not a report).
    Machine(String),
    /// The program was sleeping or waiting on its own.
    Program,
}

/// A wait's available time, settled window by window ([`Watch::tick`]), and its verdict at the net.
#[derive(Debug)]
pub struct Watch {
    init: u32,
    /// The wait's first moments, before the watch started: credited whole (most waits end within them, and
    /// cost no reading of `/proc`).
    head: Duration,
    started: Instant,
    /// The open window's starting readings.
    window: Readings,
    /// Time credited in closed windows.
    available: Duration,
    /// Time denied in closed windows, and the CPU others used meanwhile (for the machine's detail).
    denied: Duration,
    others: Duration,
}

/// What the machine, the grader and the sandbox had used at one moment, and the sandbox's threads.
#[derive(Debug)]
struct Readings {
    at: Instant,
    machine_busy: Option<Duration>,
    grader: Duration,
    program: Duration,
    threads: Sample,
}

impl Readings {
    fn now(init: u32, program: Duration) -> Readings {
        Readings {
            at: Instant::now(),
            machine_busy: unix::machine_busy_time(),
            grader: unix::own_cpu(),
            program,
            threads: sample(init),
        }
    }
}

impl Watch {
    /// Watches a wait of the sandbox whose init is `init` from now, `head` into it, with the sandbox's whole
    /// CPU time `program` (every thread, the runtime's too).
    pub fn start(init: u32, head: Duration, program: Duration) -> Watch {
        let window = Readings::now(init, program);
        let zero = Duration::ZERO;
        Watch { init, head, started: window.at, window, available: zero, denied: zero, others: zero }
    }

    /// Settles the open window if it has lasted [`WINDOW`]; `program` is the sandbox's whole CPU time now.
    pub fn tick(&mut self, program: Duration) {
        if self.window.at.elapsed() >= WINDOW {
            self.settle(program);
        }
    }

    fn settle(&mut self, program: Duration) {
        self.settle_with(Readings::now(self.init, program));
    }

    /// Closes the open window at the readings `next`, which open the next one.
    fn settle_with(&mut self, next: Readings) {
        let length = next.at.saturating_duration_since(self.window.at);
        let others = match (self.window.machine_busy, next.machine_busy) {
            (Some(before), Some(after)) => after
                .saturating_sub(before)
                .saturating_sub(next.program.saturating_sub(self.window.program))
                .saturating_sub(next.grader.saturating_sub(self.window.grader)),
            _ => Duration::ZERO,
        };
        let wanted = longest_run_queue_wait(&self.window.threads, &next.threads);
        let denied = denied(length, wanted, others, unix::online_cpus());
        self.available += length - denied;
        self.denied += denied;
        self.others += others;
        self.window = next;
    }

    /// The wall-clock time since the wait started.
    pub fn elapsed(&self) -> Duration {
        self.head + self.started.elapsed()
    }

    /// The time the program had available so far: the head and the closed windows' credit. The open window
    /// counts once it is settled ([`Watch::tick`]), at most [`WINDOW`] later: credited whole before that, a wait
    /// could pass its net on time the window's settling then took back, and (short of the net, long before
    /// the machine's) be blamed on the machine.
    pub fn available(&self) -> Duration {
        self.head + self.available
    }

    /// Whether the wait has reached its net `net` (in available time) or, unavailable, the machine's net
    /// ([`MACHINE_NET_FACTOR`] × `net` of wall-clock time); if so, why: `stops_are_external` says the sandbox
    /// refuses the signals a program could stop itself with.
    pub fn reached(&mut self, net: Duration, program: Duration, stops_are_external: bool) -> Option<Cause> {
        if self.available() < net && self.elapsed() < net * MACHINE_NET_FACTOR {
            return None;
        }
        // the threads' states now, for the verdict (settling only adds credit: the net stays reached)
        self.settle(program);
        let threads = &self.window.threads;
        let watched = if threads.program.is_empty() { &threads.init } else { &threads.program };
        if watched.iter().any(|t| matches!(t.state, 'T' | 't')) {
            return Some(match stops_are_external {
                true => Cause::Machine("it was stopped from outside its sandbox (SIGSTOP)".into()),
                false => Cause::Program,
            });
        }
        if self.available() >= net || slowed_itself(threads) {
            return Some(Cause::Program);
        }
        Some(Cause::Machine(format!(
            "in {:.1} s it had {:.1} s of a CPU available: other processes used {:.1} s of CPU while it waited for one",
            self.elapsed().as_secs_f64(),
            self.available().as_secs_f64(),
            self.others.as_secs_f64()
        )))
    }

    /// The time denied so far (for tests and the log).
    pub fn denied(&self) -> Duration {
        self.denied
    }
}

/// What of a window of `length` the machine denied a program that `wanted` a CPU that long, while other
/// processes used `others` of CPU time on a machine of `cpus` CPUs: the program cannot have been kept from
/// running longer than others held every CPU.
fn denied(length: Duration, wanted: Duration, others: Duration, cpus: u32) -> Duration {
    wanted.min(others / cpus.max(1)).min(length)
}

/// The longest time one thread of the program spent waiting on a run queue between two samples, among the
/// threads that used their turns ([`MIN_SLICE`]); a thread that started in between counts from zero.
fn longest_run_queue_wait(before: &Sample, after: &Sample) -> Duration {
    let waited = after.program.iter().filter_map(|thread| {
        let earlier = before.program.iter().find(|t| t.tid == thread.tid && t.pid == thread.pid);
        let since = |now: u64, then: fn(&Thread) -> u64| now.saturating_sub(earlier.map_or(0, then));
        let (ran, waited, turns) =
            (since(thread.run, |t| t.run), since(thread.wait, |t| t.wait), since(thread.turns, |t| t.turns));
        let used_its_turns = turns == 0 || ran / turns >= MIN_SLICE.as_nanos() as u64;
        used_its_turns.then_some(waited)
    });
    Duration::from_nanos(waited.max().unwrap_or(0))
}

/// What every thread of a sandbox had done at one moment.
#[derive(Debug, Clone)]
struct Sample {
    /// The init's own threads (the grader's copy: their priority and affinity are the sandbox's starting
    /// ones), then the program's and its descendants'.
    init: Vec<Thread>,
    program: Vec<Thread>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Thread {
    pid: u32,
    tid: u32,
    /// Nanoseconds on a CPU and waiting on a run queue, and turns on a CPU, since the thread started.
    run: u64,
    wait: u64,
    turns: u64,
    state: char,
    nice: i64,
    policy: u32,
}

/// Samples every thread of the processes below the sandbox's init `init` (and the init's own).
fn sample(init: u32) -> Sample {
    let init_threads = threads_of(init);
    let mut program = Vec::new();
    let mut pending: Vec<u32> = children_of(init, &init_threads);
    while let Some(pid) = pending.pop() {
        let threads = threads_of(pid);
        pending.extend(children_of(pid, &threads));
        program.extend(threads);
    }
    Sample { init: init_threads, program }
}

/// Whether a thread of the program lowered its own priority or scheduling class, or narrowed its CPUs,
/// below what the sandbox started with: waiting for a CPU is then its own doing.
fn slowed_itself(sample: &Sample) -> bool {
    let Some(start) = sample.init.first() else { return false };
    let start_cpus = allowed_cpus(start);
    sample.program.iter().any(|t| {
        t.nice > start.nice || t.policy != start.policy || (start_cpus.is_some() && allowed_cpus(t) != start_cpus)
    })
}

fn threads_of(pid: u32) -> Vec<Thread> {
    let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else { return Vec::new() };
    let tids = tasks.filter_map(Result::ok).filter_map(|task| task.file_name().to_str()?.parse::<u32>().ok());
    tids.filter_map(|tid| thread(pid, tid)).collect()
}

fn thread(pid: u32, tid: u32) -> Option<Thread> {
    let dir = format!("/proc/{pid}/task/{tid}");
    let (run, wait, turns) = parse_schedstat(&fs::read_to_string(format!("{dir}/schedstat")).ok()?)?;
    let (state, nice, policy) = parse_stat(&fs::read_to_string(format!("{dir}/stat")).ok()?)?;
    Some(Thread { pid, tid, run, wait, turns, state, nice, policy })
}

fn children_of(pid: u32, threads: &[Thread]) -> Vec<u32> {
    let children =
        threads.iter().filter_map(|t| fs::read_to_string(format!("/proc/{pid}/task/{}/children", t.tid)).ok());
    children.flat_map(|list| list.split_whitespace().filter_map(|c| c.parse().ok()).collect::<Vec<u32>>()).collect()
}

fn allowed_cpus(thread: &Thread) -> Option<String> {
    let status = fs::read_to_string(format!("/proc/{}/task/{}/status", thread.pid, thread.tid)).ok()?;
    let line = status.lines().find(|line| line.starts_with("Cpus_allowed:"))?;
    Some(line.split_whitespace().nth(1)?.to_string())
}

/// `run wait turns` of a `schedstat` file: nanoseconds on a CPU and waiting on a run queue, and turns on a CPU.
fn parse_schedstat(text: &str) -> Option<(u64, u64, u64)> {
    let mut fields = text.split_whitespace().map(|field| field.parse::<u64>().ok());
    Some((fields.next()??, fields.next()??, fields.next()??))
}

/// The state (field 3), nice value (field 19) and scheduling policy (field 41) of a thread's `stat`.
fn parse_stat(stat: &str) -> Option<(char, i64, u32)> {
    let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
    let state = fields.first()?.chars().next()?;
    Some((state, fields.get(16)?.parse().ok()?, fields.get(38)?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn thread(tid: u32, run_ms: u64, wait_ms: u64, turns: u64) -> Thread {
        Thread {
            pid: 2,
            tid,
            run: run_ms * 1_000_000,
            wait: wait_ms * 1_000_000,
            turns,
            state: 'R',
            nice: 0,
            policy: 0,
        }
    }

    fn sample(program: Vec<Thread>) -> Sample {
        Sample { init: vec![Thread { pid: 1, tid: 1, ..thread(1, 0, 0, 0) }], program }
    }

    #[test]
    fn a_program_is_denied_no_more_than_others_held_every_cpu() {
        // a hang: it wanted nothing, whatever the machine did
        assert_eq!(denied(MS(250), MS(0), MS(500), 2), MS(0));
        // its own threads crowded each other: no one else used the CPUs
        assert_eq!(denied(MS(250), MS(240), MS(0), 2), MS(0));
        // others held one CPU of two all the window: one was free for it
        assert_eq!(denied(MS(250), MS(240), MS(250), 2), MS(125));
        // others held both: it was kept from running as long as it wanted to run
        assert_eq!(denied(MS(250), MS(240), MS(500), 2), MS(240));
        assert_eq!(denied(MS(250), MS(900), MS(900), 2), MS(250));
    }

    #[test]
    fn only_a_thread_that_used_its_turns_wanted_a_cpu() {
        let before = sample(vec![thread(2, 100, 50, 10), thread(3, 0, 0, 0), thread(4, 10, 10, 5)]);
        let after = sample(vec![
            // computing: 5 turns of 8 ms, 200 ms on a run queue
            thread(2, 140, 250, 15),
            // yielding: 1,000 turns of 10 µs, always runnable
            thread(3, 10, 240, 1_000),
            // woken and parked again at once, many times
            thread(4, 11, 60, 400),
        ]);
        assert_eq!(longest_run_queue_wait(&before, &after), MS(200));
        // a thread that got no turn in the window waited for one
        let starved = sample(vec![thread(2, 100, 300, 10)]);
        assert_eq!(longest_run_queue_wait(&before, &starved), MS(250));
        // a thread that started in between counts from zero
        let new = sample(vec![thread(9, 50, 30, 5)]);
        assert_eq!(longest_run_queue_wait(&before, &new), MS(30));
    }

    #[test]
    fn a_program_that_lowered_its_own_priority_waits_on_its_own_account() {
        let niced = sample(vec![Thread { nice: 19, ..thread(2, 400, 5_050, 3) }]);
        assert!(slowed_itself(&niced));
        let idle_class = sample(vec![Thread { policy: 5, ..thread(2, 400, 5_050, 3) }]);
        assert!(slowed_itself(&idle_class));
        assert!(!slowed_itself(&sample(vec![thread(2, 400, 5_050, 3)])));
    }

    #[test]
    fn proc_files_are_read_field_by_field() {
        assert_eq!(parse_schedstat("213417258 1598823277 571\n"), Some((213_417_258, 1_598_823_277, 571)));
        assert_eq!(parse_schedstat("12 3"), None);
        let stat = "42 (a (b) c) R 1 42 42 0 -1 4194304 99 0 0 0 150 50 7 3 20 5 1 0 27479 3133440 100 1844 1 1 \
                    0 0 0 0 0 0 0 0 0 0 17 1 0 3 0 0 0";
        assert_eq!(parse_stat(stat), Some(('R', 5, 3)));
    }

    #[test]
    fn this_process_can_be_sampled() {
        let own = threads_of(std::process::id());
        assert!(own.iter().any(|t| t.run > 0 && t.turns > 0), "{own:?}");
        assert!(own.iter().all(|t| t.pid == std::process::id()));
    }

    /// A window counts once it is settled: a wait whose open window would carry it past its net, but whose
    /// settling takes that time back (its thread waited on a run queue while others held every CPU), is
    /// neither at its net nor, before [`MACHINE_NET_FACTOR`] times it, stalled by the machine. Crediting the
    /// open window whole blamed such waits on the machine at their net (issue 34's load test, a collector
    /// thrashing on a nearly full heap while the machine was busy: "in 33.6 s it had 11.9 s of a CPU
    /// available", against a net of 12 s and a machine's net of 96 s).
    #[test]
    fn a_wait_is_judged_on_settled_windows_only() {
        let net = Duration::from_secs(4);
        let now = Instant::now();
        let ago = |ms: u64| now.checked_sub(MS(ms)).expect("the machine has been up longer");
        let cpus = unix::online_cpus();
        let readings = |at: Instant, others: Duration, waited_ms: u64| Readings {
            at,
            machine_busy: Some(others),
            grader: Duration::ZERO,
            program: Duration::ZERO,
            threads: sample(vec![thread(2, 0, waited_ms, 0)]),
        };
        // 4.5 s into a wait, 2 s credited; the open window (2.5 s) would carry it past its net
        let mut watch = Watch {
            init: u32::MAX,
            head: Duration::ZERO,
            started: ago(4500),
            window: readings(ago(2500), Duration::ZERO, 0),
            available: MS(2000),
            denied: Duration::ZERO,
            others: Duration::ZERO,
        };
        assert_eq!(watch.reached(net, Duration::ZERO, true), None, "short of its net, long before the machine's");
        // settled: the thread waited on a run queue all the window while others held every CPU
        watch.settle_with(readings(now, MS(2500) * cpus, 2500));
        assert_eq!((watch.available(), watch.denied()), (MS(2000), MS(2500)));
        assert_eq!(watch.reached(net, Duration::ZERO, true), None);
        // past the machine's net and (the last window's 2 s of slack aside) short of its own: stalled
        watch.started = now.checked_sub(net * MACHINE_NET_FACTOR).expect("up for the machine's net");
        assert!(matches!(watch.reached(net, Duration::ZERO, true), Some(Cause::Machine(_))), "{watch:?}");
    }

    /// A sleeping process wants no CPU, so its wait is available whole however busy the machine is.
    #[test]
    fn a_sleeping_wait_is_available_whole_on_any_machine() {
        let mut sleeping = std::process::Command::new("sleep").arg("1000").spawn().expect("sleep runs");
        let mut watch = Watch::start(sleeping.id(), MS(300), Duration::ZERO);
        std::thread::sleep(WINDOW + MS(20));
        watch.tick(Duration::ZERO);
        assert_eq!(watch.denied(), Duration::ZERO, "{watch:?}");
        assert!(watch.available() >= MS(300) + WINDOW, "{watch:?}");
        assert!(watch.available() <= watch.elapsed() + MS(50), "{watch:?}");
        assert_eq!(watch.reached(Duration::from_secs(60), Duration::ZERO, true), None);
        assert_eq!(watch.reached(MS(500), Duration::ZERO, true), Some(Cause::Program));
        sleeping.kill().expect("sleep ends");
        sleeping.wait().expect("sleep is reaped");
    }
}
