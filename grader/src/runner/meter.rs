//! What one grade's sessions share: the CPU time the submission's processes have used, against the grade's
//! budget (`limits.grade_cpu_seconds`), and how many times the machine stalled them (`runner::stall`).
//!
//! A grade runs its tests in one session and, for the re-run check, in fresh ones; each session charges
//! the meter with the whole CPU time of every process it ends (all threads, reaped children included), so
//! restarts and extra sessions cannot reset the budget. The grading run reads the meter between tests: past
//! the budget the remaining tests fail at once, and a stall during a test has it replayed.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

/// CPU spent and stalls seen by one grade's sessions.
#[derive(Debug, Default)]
pub struct Meter {
    budget: Option<Duration>,
    spent_micros: AtomicU64,
    stalls: AtomicU32,
}

impl Meter {
    /// A meter for a grade allowed `budget` of CPU time (`None`: no budget).
    pub fn new(budget: Option<Duration>) -> Meter {
        Meter { budget, ..Meter::default() }
    }

    /// The grade's CPU budget.
    pub fn budget(&self) -> Option<Duration> {
        self.budget
    }

    /// Adds the CPU time of a process that ended.
    pub fn charge(&self, cpu: Duration) {
        let micros = u64::try_from(cpu.as_micros()).unwrap_or(u64::MAX);
        self.spent_micros.fetch_add(micros, Ordering::Relaxed);
    }

    /// The CPU time of the processes ended so far.
    pub fn spent(&self) -> Duration {
        Duration::from_micros(self.spent_micros.load(Ordering::Relaxed))
    }

    /// What is left of the budget once `running` more is counted (a process still running); `None` without
    /// a budget.
    pub fn left(&self, running: Duration) -> Option<Duration> {
        Some(self.budget?.saturating_sub(self.spent() + running))
    }

    /// Marks the budget used up: the kernel ended a process at what was left of it (its CPU clock, read in
    /// clock ticks, may show a hair less).
    pub fn use_up(&self) {
        if let Some(budget) = self.budget {
            let micros = u64::try_from(budget.as_micros()).unwrap_or(u64::MAX);
            self.spent_micros.fetch_max(micros, Ordering::Relaxed);
        }
    }

    /// Counts a stall of the machine.
    pub fn stalled(&self) {
        self.stalls.fetch_add(1, Ordering::Relaxed);
    }

    /// The stalls counted so far.
    pub fn stalls(&self) -> u32 {
        self.stalls.load(Ordering::Relaxed)
    }

    /// What `attempt` returns, and whether the machine stalled the submission while it ran.
    pub fn watching<T>(&self, attempt: impl FnOnce() -> T) -> (T, bool) {
        let stalls = self.stalls();
        let result = attempt();
        (result, self.stalls() != stalls)
    }

    /// The line a test reads when the budget is used up.
    pub fn used_up(&self) -> String {
        let budget = self.budget.unwrap_or_default().as_secs_f64();
        format!(
            "timed out on the CPU budget of the whole grade: the submission's processes used more than {budget:.0} s \
             of CPU time in all (`limits.grade_cpu_seconds`), so its remaining tests are not run"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_counts_every_process_ended_and_the_one_running() {
        let meter = Meter::new(Some(Duration::from_secs(10)));
        meter.charge(Duration::from_secs(4));
        meter.charge(Duration::from_millis(4500));
        assert_eq!(meter.spent(), Duration::from_millis(8500));
        assert_eq!(meter.left(Duration::from_secs(1)), Some(Duration::from_millis(500)));
        assert_eq!(meter.left(Duration::from_secs(2)), Some(Duration::ZERO));
        assert_eq!(Meter::new(None).left(Duration::ZERO), None);
        assert!(meter.used_up().contains("more than 10 s of CPU time"), "{}", meter.used_up());
        meter.use_up();
        assert_eq!(meter.left(Duration::ZERO), Some(Duration::ZERO));
    }
}
