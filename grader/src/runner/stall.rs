//! Why a program did not answer before its wall-clock net: the machine, or the program itself.
//!
//! A request is bounded by CPU time, which a busy machine does not inflate, and by a wall-clock net for a
//! program that waits on nothing. On a loaded machine a correct program can reach the net while it waits
//! for a CPU, and a grade must not depend on that. So when a wait passes half its net, the grader samples
//! what every thread of the sandbox has done (`/proc/PID/task/TID/schedstat`: time run, time waited on a
//! run queue), and when the net is reached it compares ([`classify`]):
//!
//! - threads **stopped** (`T`, `t`) were stopped from outside: the sandbox refuses the signals a program
//!   could stop itself with ([`super::sandbox`]'s seccomp layer; without it, a stop is the program's own);
//! - threads that were **runnable but not running** for most of the window, while the sandbox's own threads
//!   ran for less than half of it (they did not keep the CPUs busy themselves) and none had lowered its own
//!   priority or CPU affinity, were stalled by the machine;
//! - anything else (**sleeping**, waiting for input or a lock, deadlocked, in disk or memory waits) is the
//!   program's own wall-clock time-out.
//!
//! Only the first two are [`Cause::Machine`]; nothing a program does alone on an idle machine can make one.
//! This module reads `/proc` and judges; it decides nothing about replays (the grading run does).

use std::fs;
use std::time::{Duration, Instant};

/// What ended a wait at the wall-clock net.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cause {
    /// The machine kept the program from running; the detail says how (for the grader's log, not a report).
    Machine(String),
    /// The program was sleeping or waiting on its own.
    Program,
}

/// What every thread of a sandbox had done at one moment.
#[derive(Debug, Clone)]
pub struct Sample {
    at: Instant,
    /// The init's own threads (the grader's copy: their priority and affinity are the sandbox's starting
    /// ones), then the program's and its descendants'.
    init: Vec<Thread>,
    program: Vec<Thread>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Thread {
    pid: u32,
    tid: u32,
    /// Nanoseconds on a CPU and waiting on a run queue, since the thread started.
    run: u64,
    wait: u64,
    state: char,
    nice: i64,
    policy: u32,
}

/// Samples every thread of the processes below the sandbox's init `init` (and the init's own).
pub fn sample(init: u32) -> Sample {
    let at = Instant::now();
    let init_threads = threads_of(init);
    let mut program = Vec::new();
    let mut pending: Vec<u32> = children_of(init, &init_threads);
    while let Some(pid) = pending.pop() {
        let threads = threads_of(pid);
        pending.extend(children_of(pid, &threads));
        program.extend(threads);
    }
    Sample { at, init: init_threads, program }
}

/// Why the wait between `before` and `after` reached its net; `stops_are_external` says the sandbox refuses
/// the signals a program could stop itself with.
pub fn classify(before: &Sample, after: &Sample, stops_are_external: bool) -> Cause {
    let window = after.at.saturating_duration_since(before.at);
    let watched = if after.program.is_empty() { &after.init } else { &after.program };
    if watched.iter().any(|t| matches!(t.state, 'T' | 't')) {
        return match stops_are_external {
            true => Cause::Machine("it was stopped from outside its sandbox (SIGSTOP)".into()),
            false => Cause::Program,
        };
    }
    let (mut ran, mut waited) = (0u64, 0u64);
    for thread in &after.program {
        let earlier = before.program.iter().find(|t| t.tid == thread.tid && t.pid == thread.pid);
        ran += thread.run.saturating_sub(earlier.map_or(0, |t| t.run));
        waited += thread.wait.saturating_sub(earlier.map_or(0, |t| t.wait));
    }
    let (ran, waited) = (Duration::from_nanos(ran), Duration::from_nanos(waited));
    let starved = waited * 2 >= window && ran * 2 < window;
    if starved && !slowed_itself(after) {
        return Cause::Machine(format!(
            "its threads waited {:.1} s for a CPU and ran {:.1} s in {:.1} s",
            waited.as_secs_f64(),
            ran.as_secs_f64(),
            window.as_secs_f64()
        ));
    }
    Cause::Program
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
    let (run, wait) = parse_schedstat(&fs::read_to_string(format!("{dir}/schedstat")).ok()?)?;
    let (state, nice, policy) = parse_stat(&fs::read_to_string(format!("{dir}/stat")).ok()?)?;
    Some(Thread { pid, tid, run, wait, state, nice, policy })
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

/// `run wait slices` of a `schedstat` file: nanoseconds on a CPU and waiting on a run queue.
fn parse_schedstat(text: &str) -> Option<(u64, u64)> {
    let mut fields = text.split_whitespace().map(|field| field.parse::<u64>().ok());
    Some((fields.next()??, fields.next()??))
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

    fn thread(tid: u32, run_ms: u64, wait_ms: u64, state: char) -> Thread {
        Thread { pid: 2, tid, run: run_ms * 1_000_000, wait: wait_ms * 1_000_000, state, nice: 0, policy: 0 }
    }

    fn sample(at: Instant, program: Vec<Thread>) -> Sample {
        let init = vec![Thread { pid: 1, tid: 1, ..thread(1, 0, 0, 'S') }];
        Sample { at, init, program }
    }

    fn cause(before: Vec<Thread>, after: Vec<Thread>, window_ms: u64) -> Cause {
        let start = Instant::now();
        classify(&sample(start, before), &sample(start + Duration::from_millis(window_ms), after), true)
    }

    #[test]
    fn a_thread_that_waited_for_a_cpu_most_of_the_window_was_stalled_by_the_machine() {
        let stalled = cause(vec![thread(2, 100, 50, 'R')], vec![thread(2, 400, 5_050, 'R')], 6_000);
        assert!(matches!(&stalled, Cause::Machine(how) if how.contains("waited 5.0 s for a CPU and ran 0.3 s")));
    }

    #[test]
    fn sleeping_waiting_or_busy_on_its_own_is_the_programs_time_out() {
        // sleeping, as a program waiting for input or deadlocked is
        assert_eq!(cause(vec![thread(2, 100, 5, 'S')], vec![thread(2, 101, 6, 'S')], 6_000), Cause::Program);
        // in an uninterruptible wait (disk, memory)
        assert_eq!(cause(vec![thread(2, 100, 5, 'D')], vec![thread(2, 101, 6, 'D')], 6_000), Cause::Program);
        // its own threads kept the CPUs busy, so one of them waited behind the others
        let crowded = vec![thread(2, 0, 0, 'R'), thread(3, 0, 0, 'R'), thread(4, 0, 0, 'R')];
        let after = vec![thread(2, 4_000, 2_000, 'R'), thread(3, 4_000, 2_000, 'R'), thread(4, 4_000, 2_000, 'R')];
        assert_eq!(cause(crowded, after, 6_000), Cause::Program);
    }

    #[test]
    fn a_program_that_lowered_its_own_priority_waits_on_its_own_account() {
        let niced = Thread { nice: 19, ..thread(2, 400, 5_050, 'R') };
        assert_eq!(cause(vec![thread(2, 100, 50, 'R')], vec![niced], 6_000), Cause::Program);
        let idle_class = Thread { policy: 5, ..thread(2, 400, 5_050, 'R') };
        assert_eq!(cause(vec![thread(2, 100, 50, 'R')], vec![idle_class], 6_000), Cause::Program);
    }

    #[test]
    fn a_stopped_program_was_stopped_from_outside_only_where_it_cannot_stop_itself() {
        let stopped = || (vec![thread(2, 100, 5, 'S')], vec![thread(2, 100, 5, 'T'), thread(3, 0, 0, 'S')]);
        let (before, after) = stopped();
        assert!(matches!(cause(before, after, 6_000), Cause::Machine(how) if how.contains("stopped from outside")));
        let (before, after) = stopped();
        let start = Instant::now();
        let later = sample(start + Duration::from_secs(6), after);
        assert_eq!(classify(&sample(start, before), &later, false), Cause::Program);
    }

    #[test]
    fn proc_files_are_read_field_by_field() {
        assert_eq!(parse_schedstat("213417258 1598823277 571\n"), Some((213_417_258, 1_598_823_277)));
        assert_eq!(parse_schedstat("12"), None);
        let stat = "42 (a (b) c) R 1 42 42 0 -1 4194304 99 0 0 0 150 50 7 3 20 5 1 0 27479 3133440 100 1844 1 1 \
                    0 0 0 0 0 0 0 0 0 0 17 1 0 3 0 0 0";
        assert_eq!(parse_stat(stat), Some(('R', 5, 3)));
    }

    #[test]
    fn this_process_can_be_sampled() {
        let own = threads_of(std::process::id());
        assert!(own.iter().any(|t| t.run > 0), "{own:?}");
        assert!(own.iter().all(|t| t.pid == std::process::id()));
    }
}
