//! Why a request did not come back `ok` ([`Fault`]), in words a student reads: the session's one name for
//! failure, and how a process's failure ([`ProcessFault`]) becomes one. Every time-out names the limit that
//! ended it; the words are built from the limits alone, never from how long anything took, so reports stay
//! reproducible.

use super::process::{ProcessFault, TimeoutKind};

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
            Fault::Garbage(line) => format!("garbage on the protocol channel: `{line}`"),
            Fault::ReplyTooLong(what) => format!("reply too long: {what}"),
            Fault::OutOfMemory(what) => format!("ran out of memory: {what}"),
            Fault::Startup(what) => format!("could not start the submission: {what}"),
        }
    }
}

/// The exception a JVM throws when its heap (or another memory area) is exhausted; the Java adapter's message
/// names the kind of memory and the heap, as in `Java heap space (heap 2048 MB)`.
pub(super) const OUT_OF_MEMORY: &str = "java.lang.OutOfMemoryError";

/// The panic of a Rust collection asked for more than `isize::MAX` bytes: out of memory on any machine.
pub(super) const CAPACITY_OVERFLOW: &str = "capacity overflow";

/// Whether a panic's message (as the Rust harness sends it: the message, then ` (at FILE:LINE)` when the
/// location is known) is the standard library's capacity overflow.
pub(super) fn is_capacity_overflow(message: &str) -> bool {
    message.strip_prefix(CAPACITY_OVERFLOW).is_some_and(|rest| rest.is_empty() || rest.starts_with(" (at "))
}

/// The words by which runtimes report a write past a full file system (the scratch directory's tmpfs) or
/// past the file-size limit (`RLIMIT_FSIZE`): `ENOSPC` and `EFBIG`.
pub(super) const DISK_FULL: [&str; 2] = ["No space left on device", "File too large"];

/// The fault a process fault is, a wait the machine stalled aside (the session makes that [`Fault::Stalled`]).
pub(super) fn process_fault(fault: ProcessFault) -> Fault {
    match fault {
        // Built from the limits alone, so a report does not depend on how busy the machine was: a wait the
        // machine stalled never gets here (it is [`Fault::Stalled`], and the test is replayed).
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::runner::process::Deadline;

    #[test]
    fn every_time_out_names_the_limit_that_ended_it_whatever_the_time_it_took() {
        let timeout = |kind, took| {
            let limit = Deadline::from_cpu(Duration::from_secs(2));
            process_fault(ProcessFault::Timeout { kind, cpu: took, wall: took * 7, limit, cause: None }).describe()
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

    #[test]
    fn out_of_memory_is_said_in_words() {
        let oom = Fault::Exception { kind: OUT_OF_MEMORY.into(), message: "Java heap space (heap 2048 MB)".into() };
        assert_eq!(oom.describe(), "ran out of memory: Java heap space (heap 2048 MB)");
    }
}
