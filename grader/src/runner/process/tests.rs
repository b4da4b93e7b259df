//! End-to-end tests of [`super`] with real programs: `sh`, `cat`, `sleep`,
//! `yes`, `env` and `python3`. Wall-clock bounds are loose on purpose.

use std::collections::BTreeSet;
use std::path::PathBuf;

use rstest::rstest;

use super::*;
use crate::runner::unix::is_running;

fn sh(script: &str) -> ProcessSpec {
    ProcessSpec::new("/bin/sh").args(["-c", script])
}

fn start(spec: ProcessSpec) -> SubmissionProcess {
    SubmissionProcess::spawn(&spec).expect("the test program starts")
}

/// Generous: for replies that should come at once.
fn patient() -> Deadline {
    Deadline::from_cpu(Duration::from_secs(10)).with_wall(Duration::from_secs(30))
}

/// A small CPU budget with a wall cap far away, so only CPU can run out.
fn cpu_only(cpu_ms: u64) -> Deadline {
    Deadline::from_cpu(Duration::from_millis(cpu_ms)).with_wall(Duration::from_secs(60))
}

fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    let since = Instant::now();
    while !condition() {
        assert!(since.elapsed() < Duration::from_secs(10), "timed out waiting: {what}");
        thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn lines_round_trip_through_cat() {
    let mut cat = start(ProcessSpec::new("cat"));
    for line in ["hello", "3 1 2 0 4 5 6 7 8", ""] {
        cat.send_line(line).unwrap();
        assert_eq!(cat.recv_line(patient()).unwrap(), line);
    }
    assert_eq!(cat.wait_exit(Duration::from_secs(10)).unwrap(), Termination::Code(0));
}

#[test]
fn busy_loop_times_out_on_cpu_time() {
    let mut busy = start(sh("while :; do :; done"));
    let fault = busy.recv_line(cpu_only(300)).unwrap_err();
    let ProcessFault::Timeout { kind, cpu, .. } = fault else { panic!("{fault:?}") };
    assert_eq!(kind, TimeoutKind::Cpu);
    assert!(cpu >= Duration::from_millis(300) && cpu < Duration::from_secs(5), "{cpu:?}");
    assert!(busy.termination().is_some(), "a timed-out program is killed");
    assert!(fault.to_string().contains("more than 0.30 s of CPU time"), "{fault}");
}

#[test]
fn idle_program_ends_on_the_wall_cap() {
    let mut idle = start(ProcessSpec::new("sleep").args(["1000"]));
    let deadline = Deadline::from_cpu(Duration::from_millis(300)).with_wall(Duration::from_millis(500));
    let fault = idle.recv_line(deadline).unwrap_err();
    let ProcessFault::Timeout { kind, cpu, wall, .. } = fault else { panic!("{fault:?}") };
    assert_eq!(kind, TimeoutKind::Wall);
    assert!(wall >= Duration::from_millis(500) && cpu < Duration::from_millis(300));
    assert!(fault.to_string().contains("waiting for more input"), "{fault}");
}

#[test]
fn a_program_waiting_on_its_own_reaches_the_wall_cap_as_its_own_time_out() {
    let mut idle = start(ProcessSpec::new("sleep").args(["1000"]));
    let deadline = Deadline::from_cpu(Duration::from_millis(100)).with_wall(Duration::from_millis(600));
    let fault = idle.recv_line(deadline).unwrap_err();
    assert!(matches!(fault, ProcessFault::Timeout { cause: Some(stall::Cause::Program), .. }), "{fault:?}");
}

/// A program stopped from outside (here by the test, as a debugger or the machine's own job control would)
/// past its wall cap was stalled by the machine: it cannot stop itself (the sandbox refuses it), so the
/// stop is not its doing.
#[test]
fn a_program_stopped_from_outside_reaches_the_wall_cap_stalled_by_the_machine() {
    let mut stopped = start(ProcessSpec::new("sleep").args(["1000"]));
    // SAFETY: a signal to the sandbox's process group, which this test started.
    assert_eq!(unsafe { libc::killpg(stopped.pid() as libc::pid_t, libc::SIGSTOP) }, 0);
    let deadline = Deadline::from_cpu(Duration::from_millis(100)).with_wall(Duration::from_millis(600));
    let fault = stopped.recv_line(deadline).unwrap_err();
    let ProcessFault::Timeout { kind: TimeoutKind::Wall, cause: Some(cause), .. } = fault else { panic!("{fault:?}") };
    match sandbox::stops_are_refused() {
        true => {
            assert!(matches!(&cause, stall::Cause::Machine(how) if how.contains("stopped from outside")), "{cause:?}")
        }
        false => assert_eq!(cause, stall::Cause::Program),
    }
    assert!(stopped.termination().is_some(), "a stopped program is killed all the same");
}

/// Killed while it runs (as on a time-out), a program's CPU time still counts: a PID namespace torn down
/// with its program alive loses that program's time from the init's.
#[test]
fn the_whole_cpu_of_a_sandbox_is_known_once_it_ended() {
    let mut busy = start(sh("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo done"));
    assert_eq!(busy.recv_line(patient()).unwrap(), "done");
    busy.kill();
    assert!(busy.ended().cpu > Duration::from_millis(10), "{:?}", busy.ended());
}

#[test]
fn kill_leaves_no_grandchild() {
    let marker = "1000.0101";
    let mut parent = start(sh(&format!("setsid sleep {marker} & echo $!; wait")));
    parent.recv_line(patient()).unwrap();
    let grandchild = running_with_arg(marker).expect("the grandchild runs");
    assert_eq!(parent.kill(), Termination::Signal(libc::SIGKILL));
    eventually("the grandchild dies", || !is_running(grandchild));
}

/// A live process with `arg` among its arguments, in the grader's numbering (a sandbox numbers its own).
fn running_with_arg(arg: &str) -> Option<u32> {
    let since = Instant::now();
    while since.elapsed() < Duration::from_secs(10) {
        for entry in std::fs::read_dir("/proc").unwrap().filter_map(Result::ok) {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            if cmdline.split(|&b| b == 0).any(|a| a == arg.as_bytes()) && is_running(pid) {
                return Some(pid);
            }
        }
        thread::sleep(Duration::from_millis(10));
    }
    None
}

#[test]
fn dropping_kills_the_group_and_ends_the_stderr_thread() {
    let marker = "1000.0102";
    let mut flood = start(sh(&format!("sleep {marker} & echo $!; exec yes")));
    flood.recv_line(patient()).unwrap();
    let grandchild = running_with_arg(marker).expect("the grandchild runs");
    let leader = flood.pid();
    let drain = flood.stderr_drain.take().expect("a running program has its stderr drained");
    drop(flood);
    eventually("the group dies", || !is_running(grandchild) && !is_running(leader));
    eventually("the stderr thread ends", || drain.is_finished());
}

#[rstest]
#[case::crash("kill -SEGV $$", Termination::Signal(libc::SIGSEGV), "killed by signal 11 (SIGSEGV)")]
#[case::exit("exit 3", Termination::Code(3), "exited with status 3")]
fn an_early_end_is_reported_with_its_status(#[case] script: &str, #[case] expected: Termination, #[case] text: &str) {
    let fault = start(sh(script)).recv_line(patient()).unwrap_err();
    let ProcessFault::Exited { status } = fault else { panic!("{fault:?}") };
    assert_eq!(status, expected);
    assert_eq!(fault.to_string(), format!("the program ended before answering: {text}"));
}

#[test]
fn cpu_rlimit_is_a_backstop() {
    let limits = ProcessLimits { cpu: Some(Duration::from_secs(1)), ..ProcessLimits::default() };
    let mut busy = start(sh("while :; do :; done").limits(limits));
    let fault = busy.recv_line(cpu_only(60_000)).unwrap_err();
    let ProcessFault::Exited { status } = fault else { panic!("{fault:?}") };
    assert_eq!(status, Termination::Signal(libc::SIGXCPU));
}

#[test]
fn stderr_flood_is_bounded_and_keeps_draining() {
    let mut flood = start(sh("echo started; exec 3>&1; exec yes >&2"));
    assert_eq!(flood.recv_line(patient()).unwrap(), "started");
    // Only a program whose stderr keeps draining can burn CPU time here.
    let fault = flood.recv_line(cpu_only(300)).unwrap_err();
    assert!(matches!(fault, ProcessFault::Timeout { kind: TimeoutKind::Cpu, .. }), "{fault:?}");
    let output = flood.take_output();
    assert_eq!(output.text.len(), 64 << 10);
    assert!(output.text.starts_with("y\ny\n"));
    assert!(output.truncated && output.dropped_bytes > 0);
    assert_eq!(flood.take_output(), CapturedOutput::default(), "a take empties the capture");
}

#[test]
fn stderr_is_captured_whole_when_small() {
    let mut noisy = start(sh("echo 'Exception in thread main' >&2; exit 1"));
    assert!(noisy.recv_line(patient()).is_err());
    let output = noisy.take_output();
    assert_eq!(output.text, "Exception in thread main\n");
    assert!(!output.truncated);
}

#[test]
fn overlong_line_is_a_fault() {
    let mut long = start(sh("head -c 20000000 /dev/zero | tr '\\0' x; echo"));
    let fault = long.recv_line(patient()).unwrap_err();
    assert!(matches!(fault, ProcessFault::LineTooLong { limit } if limit == super::MAX_REPLY_BYTES), "{fault:?}");
    assert_eq!(fault.to_string(), "the program printed a line longer than 16 MiB");
}

#[test]
fn a_line_just_under_the_cap_is_a_line() {
    let mut long = start(sh("head -c 16777215 /dev/zero | tr '\\0' x; echo"));
    assert_eq!(long.recv_line(patient()).unwrap().len(), MAX_REPLY_BYTES - 1);
}

#[test]
fn an_unterminated_last_line_still_counts() {
    let mut terse = start(sh("printf abc"));
    assert_eq!(terse.recv_line(patient()).unwrap(), "abc");
    let fault = terse.recv_line(patient()).unwrap_err();
    assert!(matches!(fault, ProcessFault::Exited { status: Termination::Code(0) }), "{fault:?}");
}

#[test]
fn closing_stdout_while_running_is_a_fault() {
    let mut rude = start(sh("exec >&-; sleep 1000"));
    let fault = rude.recv_line(patient()).unwrap_err();
    assert!(matches!(fault, ProcessFault::ClosedStdout), "{fault:?}");
}

#[test]
fn environment_is_scrubbed() {
    let mut env = start(ProcessSpec::new("env").env("JAVA_HOME", "/opt/jdk"));
    let mut names = BTreeSet::new();
    while let Ok(line) = env.recv_line(patient()) {
        let (name, value) = line.split_once('=').unwrap();
        if name == "HOME" {
            assert_eq!(Path::new(value), env.workdir());
        }
        names.insert(name.to_owned());
    }
    assert_eq!(names, BTreeSet::from(["HOME", "JAVA_HOME", "LANG", "PATH", "TMPDIR"].map(String::from)));
}

#[test]
fn working_directory_is_a_fresh_temp_dir_removed_on_drop() {
    let mut pwd = start(sh("pwd; ls -A | wc -l"));
    let workdir = pwd.workdir().to_owned();
    let reported = PathBuf::from(pwd.recv_line(patient()).unwrap());
    assert_eq!(reported.canonicalize().unwrap(), workdir.canonicalize().unwrap());
    assert_eq!(pwd.recv_line(patient()).unwrap().trim(), "0");
    drop(pwd);
    assert!(!workdir.exists());
}

#[test]
fn address_space_limit_makes_big_allocations_fail() {
    let limits = ProcessLimits { address_space: Some(256 << 20), ..ProcessLimits::default() };
    let spec = ProcessSpec::new("/usr/bin/python3").args(["-c", "bytearray(500_000_000)"]).limits(limits);
    let mut greedy = start(spec);
    let status = greedy.wait_exit(Duration::from_secs(30)).unwrap();
    assert!(matches!(status, Termination::Code(code) if code != 0), "{status}");
    assert!(greedy.take_output().text.contains("MemoryError"));
}

#[test]
fn sending_never_blocks_on_a_program_that_does_not_read() {
    let mut deaf = start(ProcessSpec::new("sleep").args(["1000"]));
    let big = "1 ".repeat(1 << 20);
    for _ in 0..4 {
        deaf.send_line(&big).unwrap();
    }
    let fault = deaf.wait_exit(Duration::from_millis(200)).unwrap_err();
    assert!(matches!(fault, ProcessFault::NoExit { .. }), "{fault:?}");
    assert!(deaf.termination().is_some());
}

#[test]
fn sending_to_an_ended_program_reports_its_end() {
    let mut quitter = start(sh("exit 5"));
    eventually("the program exits", || quitter.poll_exit().is_some());
    let fault = quitter.send_line("hello").unwrap_err();
    assert!(matches!(fault, ProcessFault::Exited { status: Termination::Code(5) }), "{fault:?}");
}

#[test]
fn cpu_time_grows_while_the_program_computes() {
    let mut busy = start(sh("while :; do :; done"));
    eventually("cpu time grows", || busy.cpu_time() >= Duration::from_millis(100));
    busy.kill();
    let last = busy.cpu_time();
    assert!(last >= Duration::from_millis(100));
    assert_eq!(busy.cpu_time(), last, "a dead program's cpu time is final");
}

#[test]
fn a_live_child_process_is_charged_before_it_is_reaped() {
    // The shell waits for a busy child: only the child computes, and it is never reaped in time.
    let mut parent = start(sh("(while :; do :; done) & wait"));
    let fault = parent.recv_line(cpu_only(300)).unwrap_err();
    assert!(matches!(fault, ProcessFault::Timeout { kind: TimeoutKind::Cpu, .. }), "{fault:?}");
}

/// The sandbox's processes are walked again every few readings: a child started after a walk is charged,
/// with all its time so far, at most [`sandbox::READINGS_PER_WALK`] readings later.
#[test]
fn a_process_started_between_walks_is_found_within_a_few_readings() {
    let mut parent = start(sh("read go; (while :; do :; done) & wait"));
    let before = parent.cpu_time();
    parent.send_line("go").unwrap();
    parent.pump();
    let shell = parent.sandbox.program().unwrap();
    // the child's own clock, read directly: the shell never reaps it, so only a walk can find its time
    let child = || unix::children(shell).first().and_then(|&pid| unix::process_cpu_time(pid));
    eventually("the child computes", || child().is_some_and(|cpu| cpu >= Duration::from_millis(300)));
    let readings: Vec<Duration> = (0..sandbox::READINGS_PER_WALK).map(|_| parent.cpu_time()).collect();
    let last = *readings.last().unwrap();
    assert!(last >= before + Duration::from_millis(300), "the child's time is charged: {readings:?}");
}

/// A program with a helper thread that computes for `helper_ms` and ends, then prints that thread's id and
/// a second, spinning thread's id, and waits.
fn python_threads(helper_ms: u64) -> ProcessSpec {
    let script = format!(
        "import sys, threading, time\n\
         def work(seconds):\n    end = time.thread_time() + seconds\n    while time.thread_time() < end: pass\n\
         def spin():\n    while True: time.sleep(0)\n\
         helper = threading.Thread(target=work, args=({helper_ms} / 1000,)); helper.start(); helper.join()\n\
         spinner = threading.Thread(target=spin, daemon=True); spinner.start()\n\
         print(helper.native_id, spinner.native_id, flush=True)\n\
         sys.stdin.readline()\n"
    );
    ProcessSpec::new("/usr/bin/python3").args(["-c", &script])
}

#[test]
fn an_ended_thread_stays_charged_and_a_runtime_thread_is_not() {
    let mut program = start(python_threads(400));
    let ids = program.recv_line(patient()).unwrap();
    let spinner: u32 = ids.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(program.cpu_time() >= Duration::from_millis(400), "the ended helper's time: {:?}", program.cpu_time());
    program.exclude_runtime_threads(&[spinner]);
    let charged = program.cpu_time();
    let program_pid = program.sandbox.program().unwrap();
    let spinner_global = program.sandbox.thread(spinner).unwrap();
    let spun = unix::thread_cpu_time(program_pid, spinner_global).unwrap();
    eventually("the spinner computes", || {
        unix::thread_cpu_time(program_pid, spinner_global).is_some_and(|now| now >= spun + Duration::from_millis(300))
    });
    let later = program.cpu_time();
    assert!(later < charged + Duration::from_millis(150), "the spinner is left out: {charged:?} then {later:?}");
}

/// A wait that reaches the wall cap while the runtime's collector computes (a JVM's collector on a full heap,
/// here spinning threads named as the runtime's, one with the collector's name and one with a compiler's)
/// says how much the collector used, though none of it is charged, and leaves the compiler out of that.
#[rstest::rstest]
#[case::a_collector("GC Thread#0", true)]
#[case::a_compiler("C2 CompilerThre", false)]
fn a_wall_clock_time_out_counts_what_the_collectors_threads_used_meanwhile(#[case] name: &str, #[case] counted: bool) {
    // a thread that computes without a pause (`time.sleep(0)` sleeps the timer's slack: a third of a core),
    // named as the JVM names its threads before it is announced
    let script = format!(
        "import sys, threading\n\
         named = threading.Event()\n\
         def spin():\n    open('/proc/self/task/%d/comm' % threading.get_native_id(), 'w').write('{name}')\n    \
         named.set()\n    while True: pass\n\
         spinner = threading.Thread(target=spin, daemon=True); spinner.start(); named.wait()\n\
         print(spinner.native_id, flush=True)\n\
         sys.stdin.readline()\n"
    );
    let mut program = start(ProcessSpec::new("/usr/bin/python3").args(["-c", &script]));
    let spinner: u32 = program.recv_line(patient()).unwrap().parse().unwrap();
    program.exclude_runtime_threads(&[spinner]);
    let deadline = Deadline::from_cpu(Duration::from_millis(300)).with_wall(Duration::from_millis(800));
    let fault = program.recv_line(deadline).unwrap_err();
    let ProcessFault::Timeout { kind: TimeoutKind::Wall, cpu, collector, .. } = &fault else { panic!("{fault:?}") };
    let (cpu, collector) = (*cpu, *collector);
    assert!(cpu < Duration::from_millis(300), "the request's own time is small: {cpu:?}");
    match counted {
        true => assert!(collector * 2 >= deadline.wall, "the collector ran through the wait: {fault:?}"),
        false => assert_eq!(collector, Duration::ZERO, "a compiler is not the collector: {fault:?}"),
    }
}
