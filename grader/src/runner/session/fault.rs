//! Why a request did not come back `ok` ([`Fault`]), in words a student reads: the session's one name for
//! failure, and how what went wrong becomes one. Every time-out names the limit that ended it, but one: a
//! wait the JVM's garbage collector took, which names both, since which comes first is the machine's
//! ([`collecting`]). The words are built from the limits alone, never from how long anything took, so
//! reports stay reproducible.
//!
//! This is also where the grader reads a runtime's own words (string matching, kept here in one place): a
//! program that died saying it ran out of memory ([`out_of_memory_message`]), a panic that is Rust's way of
//! running out of memory, an exception of a write past the scratch space ([`explained`]). Each is told to
//! the student with the limit the sandbox set ([`ProcessLimits`]), so a report says what to change.

use std::time::Duration;

use crate::clip::clip;
use crate::runner::process::{Deadline, ProcessFault, ProcessLimits, Termination, TimeoutKind};
use crate::runner::reply::MESSAGE_KEEP;

/// Why a request did not come back `ok`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The submission's code threw or panicked.
    Exception {
        /// The exception type (`panic` in Rust).
        kind: String,
        #[allow(missing_docs)]
        message: String,
    },
    /// The submission's language cannot express the request.
    Unsupported(String),
    /// The adapter rejected the request as malformed: the grader's or the adapter's fault.
    Protocol(String),
    /// The program ran out of time on this request (the text names the limit that ended it).
    Timeout(String),
    /// The machine kept the program from answering (its threads waited for a CPU, or were stopped from
    /// outside): not the submission's doing. The grading run replays the test; the detail says how.
    Stalled(String),
    /// The program ended (crashed, exited, closed its output).
    Crashed(String),
    /// The session gave up on the program: it failed (crashed, timed out, spoke garbage) too many times in a
    /// row to be started again, so what remains is not run.
    GaveUp(String),
    /// The program wrote something that is not a reply to this request.
    Garbage(String),
    /// The program wrote a line longer than the protocol allows (`specs/protocol.md`).
    ReplyTooLong(String),
    /// The program ran out of memory: its runtime said so (the detail names the limit and the words).
    OutOfMemory(String),
    /// The program could not be started or did not complete the handshake.
    Startup(String),
}

impl Fault {
    /// A one-line, student-readable description.
    pub fn describe(&self) -> String {
        match self {
            Fault::Exception { kind, message } if kind == OUT_OF_MEMORY => format!("ran out of memory: {message}"),
            Fault::Exception { kind, message } if message.is_empty() => format!("threw {kind}"),
            Fault::Exception { kind, message } => format!("threw {kind}: {message}"),
            Fault::Unsupported(reason) => format!("not expressible in this language: {reason}"),
            Fault::Protocol(reason) => format!("protocol error (a grader or adapter fault, not yours): {reason}"),
            Fault::Timeout(what) => what.clone(),
            Fault::Stalled(how) => {
                format!("stalled by the machine, not by the submission ({how}): a grader problem, not yours")
            }
            Fault::Crashed(what) => format!("crashed: {what}"),
            Fault::GaveUp(what) => format!("not run: {what}"),
            Fault::Garbage(line) => format!("garbage on the protocol channel: `{line}`"),
            Fault::ReplyTooLong(what) => format!("reply too long: {what}"),
            Fault::OutOfMemory(what) => format!("ran out of memory: {what}"),
            Fault::Startup(what) => format!("could not start the submission: {what}"),
        }
    }
}

/// The exception a JVM throws when its heap (or another memory area) is exhausted; the Java adapter's message
/// names the kind of memory and the heap, as in `Java heap space (heap 2048 MB)`.
const OUT_OF_MEMORY: &str = "java.lang.OutOfMemoryError";

/// The panic of a Rust collection asked for more than `isize::MAX` bytes: out of memory on any machine.
const CAPACITY_OVERFLOW: &str = "capacity overflow";

/// Whether a panic's message (as the Rust harness sends it: the message, then ` (at FILE:LINE)` when the
/// location is known) is the standard library's capacity overflow.
fn is_capacity_overflow(message: &str) -> bool {
    message.strip_prefix(CAPACITY_OVERFLOW).is_some_and(|rest| rest.is_empty() || rest.starts_with(" (at "))
}

/// The words by which runtimes report a write past a full file system (the scratch directory's tmpfs) or
/// past the file-size limit (`RLIMIT_FSIZE`): `ENOSPC` and `EFBIG`.
const DISK_FULL: [&str; 2] = ["No space left on device", "File too large"];

/// The fault a process fault is, a wait the machine stalled aside (the session makes that [`Fault::Stalled`]).
pub(super) fn process_fault(fault: ProcessFault) -> Fault {
    match fault {
        // Built from the limits alone, so a report does not depend on how busy the machine was: a wait the
        // machine stalled never gets here (it is [`Fault::Stalled`], and the test is replayed).
        ProcessFault::Timeout { kind: TimeoutKind::Cpu | TimeoutKind::Wall, cpu, collector, limit, .. }
            if collecting(cpu, collector, &limit) =>
        {
            Fault::Timeout(format!(
                "timed out: the program did not answer within its limits ({:.2} s of CPU time, {:.0} s of \
                 wall-clock time), its Java runtime's garbage collector busy all the while, on a heap that was \
                 nearly full (the Solver holds more than the heap does: too many search nodes, or nodes and boards \
                 that keep too much)",
                limit.cpu.as_secs_f64(),
                limit.wall.as_secs_f64()
            ))
        }
        ProcessFault::Timeout { kind: TimeoutKind::Cpu, limit, .. } => Fault::Timeout(format!(
            "timed out on its CPU limit: the program used more than {:.2} s of CPU time without answering",
            limit.cpu.as_secs_f64()
        )),
        ProcessFault::Timeout { kind: TimeoutKind::Wall, limit, .. } => Fault::Timeout(format!(
            "timed out on its wall-clock limit: the program did not answer within {:.0} s and was not computing \
             (it was waiting: for input, on a lock or a sleep, or deadlocked)",
            limit.wall.as_secs_f64()
        )),
        ProcessFault::LineTooLong { .. } => Fault::ReplyTooLong(format!(
            "{}, the protocol's limit for one reply (a toString() or solution() that never ends?)",
            fault
        )),
        other => Fault::Crashed(other.to_string()),
    }
}

/// Whether a wait that timed out went to the JVM's garbage collector: its collector threads used at least
/// [`COLLECTOR_SHARE`] times the CPU of the program's charged threads during it, and at least half the CPU
/// limit (a program asleep or deadlocked uses next to none of either). On a nearly full heap the collector
/// runs without end and stops the request thread for each collection: on a quiet machine that thread reaches
/// the CPU limit first, beside other work the wall-clock net comes first, so the words name neither alone.
/// Both figures are the same process's CPU time, which a busy machine stretches alike, so the rule is the
/// code's, not the machine's; the JIT compilers, busy at a program's start, are not counted. It only says
/// why the program's own time-out came, so it gives a submission no way to blame the grader.
fn collecting(cpu: Duration, collector: Duration, limit: &Deadline) -> bool {
    collector >= cpu * COLLECTOR_SHARE && collector * 2 >= limit.cpu
}

/// How many times the program's own CPU its collector must use in a wait for the time-out to be the
/// collector's. Measured far from it on either side (`java/no-critical-optimization`'s MinPQ memory row on
/// puzzle30, a 1 s limit, quietly): a heap it fills at once (300 or 700 MB) had 13 to 28 times the request
/// thread's CPU in its collector when the net ended it; a heap large enough for a while (1.2 or 2 GB), where
/// the collector copies a search that keeps hundreds of thousands of nodes alive, 1.3 to 1.4 times when the
/// CPU limit ended it, a time-out of the search, not of the heap.
const COLLECTOR_SHARE: u32 = 4;

/// The longest garbage line quoted back.
const QUOTE_BYTES: usize = 120;

/// The fault of a line that is not the reply the session waited for, quoting its start.
pub(super) fn garbage(line: &str) -> Fault {
    if line.len() <= QUOTE_BYTES {
        return Fault::Garbage(line.to_string());
    }
    Fault::Garbage(format!("{}… ({} bytes)", &line[..line.floor_char_boundary(QUOTE_BYTES)], line.len()))
}

/// The line of `stderr_tail` (the last of a program's standard error) by which its runtime said it ran out of
/// memory, when the program then ended as that runtime ends on it: Rust's `memory allocation of N bytes
/// failed` or C++'s `std::bad_alloc`, then `SIGABRT`. Words alone are not enough (a program may print
/// anything, then crash for another reason), so only the last few lines count, and only with that ending.
fn out_of_memory_message(status: Termination, stderr_tail: &str) -> Option<&str> {
    let says_so = |line: &&str| {
        let rust = line.strip_prefix("memory allocation of ").and_then(|rest| rest.strip_suffix(" bytes failed"));
        rust.is_some_and(|bytes| bytes.parse::<u64>().is_ok())
            || line.starts_with("terminate called after throwing an instance of 'std::bad_alloc'")
    };
    let mut last_lines = stderr_tail.lines().rev().map(str::trim).filter(|line| !line.is_empty()).take(4);
    match status {
        Termination::Signal(libc::SIGABRT) => last_lines.find(says_so),
        _ => None,
    }
}

/// The fault of a program that exited (`status`) after writing `last_words` (the end of its stderr): out of
/// memory when its runtime said so as it died ([`out_of_memory_message`]), `None` when the exit is a crash.
pub(super) fn died_out_of_memory(status: Termination, last_words: &str, limits: &ProcessLimits) -> Option<Fault> {
    let words = out_of_memory_message(status, last_words)?;
    Some(Fault::OutOfMemory(format!("{} ({})", memory_limit(limits), clip(words, MESSAGE_KEEP))))
}

/// The fault of a program its sandbox's memory group killed.
pub(super) fn killed_out_of_memory(limits: &ProcessLimits) -> Fault {
    Fault::OutOfMemory(format!("{} (the kernel ended it there)", group_memory_limit(limits)))
}

/// A fault with what the grader knows about it: a panic that is Rust's way of running out of memory is
/// [`Fault::OutOfMemory`]; an exception of a write that hit the scratch directory's size or the file-size
/// limit names that limit. Other faults are as they are.
pub(super) fn explained(fault: Fault, limits: &ProcessLimits) -> Fault {
    match fault {
        Fault::Exception { kind, message } if DISK_FULL.iter().any(|words| message.contains(words)) => {
            let scratch = limits.scratch.or(limits.file_size).unwrap_or_default() >> 20;
            let message = format!(
                "{message} (a submission may write at most {scratch} MB, in its working directory, and no \
                 file larger: `limits.scratch_mb`)"
            );
            Fault::Exception { kind, message }
        }
        Fault::Exception { kind, message } if kind == "panic" && is_capacity_overflow(&message) => Fault::OutOfMemory(
            format!("{} (a collection asked for more than any machine has: {CAPACITY_OVERFLOW})", memory_limit(limits)),
        ),
        other => other,
    }
}

/// The memory limit in words, for an out-of-memory fault.
fn memory_limit(limits: &ProcessLimits) -> String {
    match limits.address_space {
        Some(bytes) => format!("the limit is {} MB", bytes >> 20),
        None => "the limit is the one the runtime was started with".into(),
    }
}

/// The sandbox's memory limit in words, for a process its memory group killed.
fn group_memory_limit(limits: &ProcessLimits) -> String {
    match limits.memory {
        Some(bytes) => {
            format!("the limit is {} MB for all its processes together, native memory included", bytes >> 20)
        }
        None => "the sandbox's memory limit".into(),
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[test]
    fn every_time_out_names_the_limit_that_ended_it_whatever_the_time_it_took() {
        let timeout = |kind, took| {
            let limit = Deadline::from_cpu(Duration::from_secs(2));
            let collector = Duration::ZERO;
            process_fault(ProcessFault::Timeout { kind, cpu: took, collector, wall: took * 7, limit, cause: None })
                .describe()
        };
        let cpu = "timed out on its CPU limit: the program used more than 2.00 s of CPU time without answering";
        assert_eq!(timeout(TimeoutKind::Cpu, Duration::from_millis(2010)), cpu);
        assert_eq!(timeout(TimeoutKind::Cpu, Duration::from_millis(2900)), cpu);
        assert_eq!(
            timeout(TimeoutKind::Wall, Duration::from_millis(30)),
            "timed out on its wall-clock limit: the program did not answer within 12 s and was not computing (it \
             was waiting: for input, on a lock or a sleep, or deadlocked)"
        );
    }

    /// What a time-out says, given which limit ended it, the program's CPU and its collector's (in ms) during
    /// the wait, under a 2 s limit.
    fn said(kind: TimeoutKind, cpu_ms: u64, collector_ms: u64) -> String {
        let limit = Deadline::from_cpu(Duration::from_secs(2));
        let (cpu, collector) = (Duration::from_millis(cpu_ms), Duration::from_millis(collector_ms));
        process_fault(ProcessFault::Timeout { kind, cpu, collector, wall: limit.wall, limit, cause: None }).describe()
    }

    const COLLECTING: &str = "timed out: the program did not answer within its limits (2.00 s of CPU time, 12 s \
                              of wall-clock time), its Java runtime's garbage collector busy all the while";

    #[rstest]
    #[case::a_deadlock(TimeoutKind::Wall, 40, 0, false)]
    #[case::asleep_after_a_collection(TimeoutKind::Wall, 40, 900, false)]
    #[case::a_collector_without_end(TimeoutKind::Wall, 40, 6_000, true)]
    #[case::two_collector_threads_at_the_net(TimeoutKind::Wall, 1_900, 20_000, true)]
    #[case::two_collector_threads_at_the_cpu_limit(TimeoutKind::Cpu, 2_010, 9_000, true)]
    #[case::a_loop_that_collects_now_and_then(TimeoutKind::Cpu, 2_010, 300, false)]
    #[case::a_search_that_keeps_much_alive(TimeoutKind::Cpu, 2_010, 2_900, false)]
    #[case::a_search_copied_twice_its_time(TimeoutKind::Cpu, 2_010, 6_000, false)]
    fn a_time_out_the_collector_took_says_so_whichever_limit_came_first(
        #[case] kind: TimeoutKind,
        #[case] cpu_ms: u64,
        #[case] collector_ms: u64,
        #[case] collecting: bool,
    ) {
        let text = said(kind, cpu_ms, collector_ms);
        assert_eq!(text.starts_with(COLLECTING), collecting, "{text}");
        if collecting {
            assert!(text.ends_with("nodes and boards that keep too much)"), "{text}");
        } else if kind == TimeoutKind::Wall {
            assert!(text.contains("within 12 s and was not computing"), "{text}");
        } else {
            assert!(text.starts_with("timed out on its CPU limit: the program used more than 2.00 s"), "{text}");
        }
    }

    #[test]
    fn a_collector_time_out_reads_the_same_whichever_limit_ended_it() {
        assert_eq!(said(TimeoutKind::Cpu, 2_010, 14_000), said(TimeoutKind::Wall, 1_700, 44_000));
    }

    #[test]
    fn out_of_memory_is_said_in_words() {
        let oom = Fault::Exception { kind: OUT_OF_MEMORY.into(), message: "Java heap space (heap 2048 MB)".into() };
        assert_eq!(oom.describe(), "ran out of memory: Java heap space (heap 2048 MB)");
    }

    const RUST_OOM: &str = "memory allocation of 4294967296 bytes failed";
    const BAD_ALLOC: &str =
        "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc";

    #[rstest]
    #[case::rust_abort(Termination::Signal(libc::SIGABRT), RUST_OOM, Some(RUST_OOM))]
    #[case::rust_abort_after_prints(
        Termination::Signal(libc::SIGABRT),
        "debug: n = 4\nmemory allocation of 8 bytes failed\n",
        Some("memory allocation of 8 bytes failed")
    )]
    #[case::cpp_bad_alloc(
        Termination::Signal(libc::SIGABRT),
        BAD_ALLOC,
        Some("terminate called after throwing an instance of 'std::bad_alloc'")
    )]
    #[case::words_then_a_segfault(Termination::Signal(libc::SIGSEGV), RUST_OOM, None)]
    #[case::words_then_an_exit(Termination::Code(1), RUST_OOM, None)]
    #[case::words_then_a_kill(Termination::Signal(libc::SIGKILL), RUST_OOM, None)]
    #[case::an_abort_for_another_reason(Termination::Signal(libc::SIGABRT), "assertion failed: n > 1", None)]
    #[case::words_long_before_the_abort(
        Termination::Signal(libc::SIGABRT),
        "memory allocation of 8 bytes failed\n1\n2\n3\n4\n",
        None
    )]
    #[case::not_a_number_of_bytes(Termination::Signal(libc::SIGABRT), "memory allocation of many bytes failed", None)]
    #[case::nothing_said(Termination::Signal(libc::SIGABRT), "", None)]
    fn out_of_memory_needs_the_runtimes_words_and_its_ending(
        #[case] status: Termination,
        #[case] tail: &str,
        #[case] expected: Option<&str>,
    ) {
        assert_eq!(out_of_memory_message(status, tail), expected);
    }

    fn limited(address_space_mb: u64, scratch_mb: u64) -> ProcessLimits {
        ProcessLimits {
            address_space: Some(address_space_mb << 20),
            scratch: Some(scratch_mb << 20),
            ..ProcessLimits::default()
        }
    }

    #[test]
    fn a_death_is_out_of_memory_only_with_the_runtimes_words_and_names_the_limit() {
        let limits = limited(1224, 64);
        let abort = Termination::Signal(libc::SIGABRT);
        assert_eq!(
            died_out_of_memory(abort, "n = 4\nmemory allocation of 8 bytes failed\n", &limits).map(|f| f.describe()),
            Some("ran out of memory: the limit is 1224 MB (memory allocation of 8 bytes failed)".into())
        );
        assert_eq!(died_out_of_memory(Termination::Signal(libc::SIGSEGV), RUST_OOM, &limits), None);
        let unlimited = ProcessLimits::default();
        assert_eq!(
            killed_out_of_memory(&unlimited).describe(),
            "ran out of memory: the sandbox's memory limit (the kernel ended it there)"
        );
    }

    #[rstest]
    #[case::disk_full("OSError", "[Errno 28] No space left on device")]
    #[case::file_too_large("java.io.IOException", "File too large")]
    fn a_full_disk_or_a_file_too_large_names_the_scratch_limit(#[case] kind: &str, #[case] message: &str) {
        let fault = Fault::Exception { kind: kind.into(), message: message.into() };
        let seen = explained(fault, &limited(300, 64));
        let expected = format!(
            "{message} (a submission may write at most 64 MB, in its working directory, and no file larger: \
             `limits.scratch_mb`)"
        );
        assert_eq!(seen, Fault::Exception { kind: kind.into(), message: expected });
    }

    #[rstest]
    #[case::bare("capacity overflow", true)]
    #[case::located("capacity overflow (at library/alloc/src/raw_vec/mod.rs:28)", true)]
    #[case::longer_word("capacity overflowing", false)]
    #[case::quoted("my capacity overflow", false)]
    fn only_the_standard_librarys_capacity_overflow_is_out_of_memory(#[case] message: &str, #[case] oom: bool) {
        let panic = Fault::Exception { kind: "panic".into(), message: message.into() };
        let seen = explained(panic.clone(), &limited(300, 64));
        assert_eq!(matches!(seen, Fault::OutOfMemory(_)), oom, "{seen:?}");
        if !oom {
            assert_eq!(seen, panic);
        }
        let thrown = Fault::Exception { kind: "RuntimeException".into(), message: message.into() };
        assert_eq!(explained(thrown.clone(), &limited(300, 64)), thrown, "only a panic");
    }

    #[test]
    fn garbage_is_quoted_by_its_start_and_its_length() {
        assert_eq!(garbage("hello there"), Fault::Garbage("hello there".into()));
        let long = "é".repeat(100);
        let Fault::Garbage(quoted) = garbage(&long) else { panic!("garbage") };
        assert!(quoted.starts_with(&"é".repeat(60)) && quoted.ends_with("… (200 bytes)"), "{quoted}");
    }
}
