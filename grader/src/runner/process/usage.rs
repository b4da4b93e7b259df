//! What the grader itself has used of the machine: its own CPU ([`CpuUsed`], whose differences tell where a
//! run's CPU went) and its own peak memory. Not the submission's: that is what
//! [`SubmissionProcess`](super::SubmissionProcess) counts, per sandbox, and the meter sums as each ends.

use std::time::Duration;

use crate::runner::unix;

/// CPU time used so far by the grader's own process (all its threads). Differences of two readings tell where
/// a run's CPU went; concurrent runs in one process (`grader batch`) share the figure.
#[derive(Debug, Clone, Copy)]
pub struct CpuUsed {
    /// The grader's own threads.
    pub grader: Duration,
}

impl CpuUsed {
    #[allow(missing_docs)]
    pub fn now() -> CpuUsed {
        CpuUsed { grader: unix::own_cpu() }
    }

    /// What was used between `earlier` and this reading.
    pub fn since(self, earlier: CpuUsed) -> CpuUsed {
        CpuUsed { grader: self.grader.saturating_sub(earlier.grader) }
    }
}

/// The most memory the grader's own process has held at once, in KiB (its peak resident set; the
/// submission's processes are not in it).
pub fn grader_peak_memory_kib() -> u64 {
    unix::own_peak_memory_kib()
}
