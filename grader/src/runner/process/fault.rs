//! How a program fails to hold up its end of the conversation ([`ProcessFault`]), and the deadline it is
//! held to ([`Deadline`]): CPU time first, with a net for a program that waits on nothing, counted in the
//! time the machine left available to it ([`stall`](crate::runner::stall)). The
//! faults' Display is a lowercase sentence fragment for students; the session turns each into its own
//! words (`session::fault`).

use std::io;
use std::time::Duration;

use crate::runner::spec::Termination;
use crate::runner::stall::Cause;

/// How long [`SubmissionProcess::recv_line`](super::SubmissionProcess::recv_line) waits, counted from the last
/// exchange (the spawn, the last line sent or the last line received).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Deadline {
    /// CPU time the program may use before answering.
    pub cpu: Duration,
    /// The net for a program that waits on nothing, in *available* time: wall-clock time less what other
    /// processes kept it from running ([`stall::Watch`](crate::runner::stall::Watch)). On a quiet machine it
    /// is wall-clock time; on a busy one a hang still ends after it, and a program kept from running does not.
    pub wall: Duration,
    /// The whole CPU time (every thread, the runtime's too) at which the program has used up the CPU budget
    /// its test runs under ([`Meter::ceiling`](crate::runner::meter::Meter::ceiling)), if one is set.
    pub ceiling: Option<Duration>,
}

impl Deadline {
    /// `cpu` of CPU time and a net of `cpu × 5 + 2 s`: a program that computes reaches its CPU limit first,
    /// however busy the machine (the net counts its own CPU as available time).
    pub fn from_cpu(cpu: Duration) -> Self {
        Deadline { cpu, wall: cpu * 5 + Duration::from_secs(2), ceiling: None }
    }

    /// The same deadline under a budget the program's whole CPU time must stay below.
    pub fn with_ceiling(self, ceiling: Option<Duration>) -> Self {
        Deadline { ceiling, ..self }
    }

    /// The same CPU limit with another net.
    pub fn with_wall(self, wall: Duration) -> Self {
        Deadline { wall, ..self }
    }

    /// The deadline of `n` requests answered as one: `n` times the CPU and the net (the budget, if any, is
    /// the test's and stays).
    pub fn times(self, n: u32) -> Self {
        Deadline { cpu: self.cpu * n, wall: self.wall * n, ..self }
    }
}

/// Which part of a [`Deadline`] ran out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeoutKind {
    /// The program computed for too long.
    Cpu,
    /// The program used up the CPU budget its test runs under (the test's section's).
    Budget,
    /// The program waited for its net (in available time) while using little CPU, or the machine kept it
    /// from running for [`MACHINE_NET_FACTOR`](crate::runner::stall::MACHINE_NET_FACTOR) times the net.
    Wall,
}

/// How a program failed to hold up its end of the conversation. The Display
/// is a lowercase sentence fragment meant for students.
#[derive(Debug, thiserror::Error)]
pub enum ProcessFault {
    /// A [`Deadline`] ran out; the program has been killed.
    #[error("{}", describe_timeout(*.kind, *.cpu, *.wall, .limit))]
    Timeout {
        /// Which part ran out.
        kind: TimeoutKind,
        /// CPU time used since the last exchange.
        cpu: Duration,
        /// CPU time the runtime's garbage collector threads used meanwhile, which `cpu` leaves out
        /// (`SubmissionProcess::exclude_runtime_threads`; zero where none is named).
        collector: Duration,
        /// Wall-clock time since the last exchange.
        wall: Duration,
        /// The deadline that ran out.
        limit: Deadline,
        /// For the net, what kept the program from answering ([`stall`](crate::runner::stall)).
        cause: Option<Cause>,
    },
    /// The program ended before answering.
    #[error("the program ended before answering: {status}")]
    Exited {
        /// How it ended.
        status: Termination,
    },
    /// The program closed stdout but kept running; it has been killed.
    #[error("the program closed its standard output but kept running")]
    ClosedStdout,
    /// The program stopped reading its input while it was still being sent.
    #[error("the program stopped reading its standard input")]
    ClosedStdin,
    /// A stdout line exceeded [`ProcessLimits::max_line_bytes`](crate::runner::spec::ProcessLimits::max_line_bytes);
    /// the program has been killed.
    #[error("the program printed a line longer than {}", describe_bytes(*.limit))]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// The program did not exit after its input ended; it has been killed.
    #[error("the program did not exit within {} after its input ended", seconds(*.waited))]
    NoExit {
        /// How long the grader waited.
        waited: Duration,
    },
    /// Reading the program's output failed.
    #[error("reading the program's output failed: {0}")]
    Io(#[from] io::Error),
}

fn describe_timeout(kind: TimeoutKind, cpu: Duration, wall: Duration, limit: &Deadline) -> String {
    match kind {
        TimeoutKind::Cpu => format!(
            "the program used more than {} of CPU time without answering ({} elapsed)",
            seconds(limit.cpu),
            seconds(wall)
        ),
        TimeoutKind::Budget => {
            format!("the program used up the CPU budget of its tests ({} of CPU time in this request)", seconds(cpu))
        }
        TimeoutKind::Wall => format!(
            "the program did not answer within {} and used only {} of CPU time \
             (is it waiting for more input?)",
            seconds(wall),
            seconds(cpu)
        ),
    }
}

fn seconds(duration: Duration) -> String {
    format!("{:.2} s", duration.as_secs_f64())
}

/// A byte count in the largest binary unit that divides it (`16 MiB`, `3 KiB`, `1000 bytes`).
pub(crate) fn describe_bytes(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wall_cap_defaults_to_five_times_cpu_plus_two_seconds() {
        let deadline = Deadline::from_cpu(Duration::from_millis(500));
        assert_eq!(deadline.wall, Duration::from_millis(4500));
    }

    #[test]
    fn a_fault_is_said_with_its_limit_in_round_units() {
        let limit = Deadline::from_cpu(Duration::from_millis(300));
        let (cpu, wall) = (Duration::from_millis(310), Duration::from_millis(1250));
        let collector = Duration::ZERO;
        let timeout = |kind| ProcessFault::Timeout { kind, cpu, collector, wall, limit, cause: None }.to_string();
        assert_eq!(
            timeout(TimeoutKind::Cpu),
            "the program used more than 0.30 s of CPU time without answering (1.25 s elapsed)"
        );
        assert_eq!(
            timeout(TimeoutKind::Wall),
            "the program did not answer within 1.25 s and used only 0.31 s of CPU time (is it waiting for more input?)"
        );
        let too_long = |limit| ProcessFault::LineTooLong { limit }.to_string();
        assert_eq!(too_long(16 << 20), "the program printed a line longer than 16 MiB");
        assert_eq!(too_long(3 << 10), "the program printed a line longer than 3 KiB");
        assert_eq!(too_long(1000), "the program printed a line longer than 1000 bytes");
    }
}
