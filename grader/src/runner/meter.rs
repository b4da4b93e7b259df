//! What one grade's sessions share: the CPU time the submission's processes have used, what the test
//! running may still use of its section's budget ([`Allowance`], set by the grading run before each test),
//! and how many times the machine stalled them (`runner::stall`).
//!
//! A grade runs its tests in one or two sessions and, for the re-run check, in fresh ones; each session
//! charges the meter with the whole CPU time of every process it ends (all threads, reaped children
//! included), so restarts and extra sessions cannot reset a budget. The grading run keeps each section's
//! budget (`limits.section_cpu_seconds`) and gives every test what is left of its own; a session holds its
//! running process to that allowance while it waits for replies ([`Meter::ceiling`]), and past it the
//! request fails with the allowance's line. The grade's whole budget, the sections' together, is the CPU
//! limit the kernel sets on each process it starts ([`Meter::left`]): a last stop, never the first.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// CPU spent and stalls seen by one grade's sessions, and what the test running may still spend.
#[derive(Debug, Default)]
pub struct Meter {
    /// The whole grade's budget (every section's together).
    budget: Option<Duration>,
    spent_micros: AtomicU64,
    /// What the watch saw at each stall of the machine (`stall::Cause::Machine`'s detail), in order.
    stalls: Mutex<Vec<String>>,
    allowance: Mutex<Option<Allowance>>,
}

/// What the test running may still use of its section's CPU budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allowance {
    /// The CPU time left when the test started.
    pub left: Duration,
    /// The line every test the budget stops reads.
    pub used_up: String,
    /// The ended processes' CPU time when the test started.
    spent_at: Duration,
    /// Which test's allowance this is (a session's process takes its base reading once per allowance).
    generation: u64,
}

impl Meter {
    /// A meter for a grade allowed `budget` of CPU time in all (`None`: no budget).
    pub fn new(budget: Option<Duration>) -> Meter {
        Meter { budget, ..Meter::default() }
    }

    /// The grade's whole CPU budget.
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

    /// What is left of the grade's whole budget once `running` more is counted (a process still running);
    /// `None` without a budget.
    pub fn left(&self, running: Duration) -> Option<Duration> {
        Some(self.budget?.saturating_sub(self.spent() + running))
    }

    /// Gives the test about to run `left` of CPU time (what its section's budget has left), and the line its
    /// requests read once it is used up.
    pub fn allow(&self, left: Duration, used_up: String) {
        let mut allowance = self.allowance.lock().unwrap_or_else(|e| e.into_inner());
        let generation = allowance.as_ref().map_or(1, |a| a.generation + 1);
        *allowance = Some(Allowance { left, used_up, spent_at: self.spent(), generation });
    }

    /// The test running has no allowance of its own (a build step, a test with no budget).
    pub fn unlimited(&self) {
        *self.allowance.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }

    /// The allowance of the test running, if any.
    pub fn allowance(&self) -> Option<Allowance> {
        self.allowance.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The whole CPU time a running process may reach before the test's allowance is used up, given the
    /// `base` it had when the allowance began (zero for a process started since): what processes that ended
    /// since then used counts against it too. `None` without an allowance.
    pub fn ceiling(&self, base: Duration) -> Option<Duration> {
        let allowance = self.allowance.lock().unwrap_or_else(|e| e.into_inner());
        let allowance = allowance.as_ref()?;
        let ended_since = self.spent().saturating_sub(allowance.spent_at);
        Some(base + allowance.left.saturating_sub(ended_since))
    }

    /// Which allowance is current (0: none), so a session takes its process's base reading once per test.
    pub fn generation(&self) -> u64 {
        self.allowance.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map_or(0, |a| a.generation)
    }

    /// The test's allowance was used up: nothing more of it is left.
    pub fn use_up_allowance(&self) {
        if let Some(allowance) = self.allowance.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            allowance.left = Duration::ZERO;
        }
    }

    /// Marks the grade's whole budget used up: the kernel ended a process at what was left of it (its CPU
    /// clock, read in clock ticks, may show a hair less). The test's allowance goes with it.
    pub fn use_up(&self) {
        if let Some(budget) = self.budget {
            let micros = u64::try_from(budget.as_micros()).unwrap_or(u64::MAX);
            self.spent_micros.fetch_max(micros, Ordering::Relaxed);
        }
        self.use_up_allowance();
    }

    /// Counts a stall of the machine; `how` is what the watch saw.
    pub fn stalled(&self, how: &str) {
        self.stalls.lock().unwrap_or_else(|e| e.into_inner()).push(how.to_string());
    }

    /// What `attempt` returns, and if the machine stalled the submission while it ran, what the watch saw
    /// (the latest stall's).
    pub fn watching<T>(&self, attempt: impl FnOnce() -> T) -> (T, Option<String>) {
        let stalls = || self.stalls.lock().unwrap_or_else(|e| e.into_inner());
        let before = stalls().len();
        let result = attempt();
        let stalls = stalls();
        (result, stalls.get(before..).and_then(<[String]>::last).cloned())
    }

    /// The line a request reads when the budget it runs under is used up: its test's allowance, else the
    /// whole grade's.
    pub fn used_up(&self) -> String {
        if let Some(allowance) = self.allowance() {
            return allowance.used_up;
        }
        let budget = self.budget.unwrap_or_default().as_secs_f64();
        format!(
            "timed out on the CPU budget of the whole grade: the submission's processes used more than {budget:.0} s \
             of CPU time in all, so its remaining tests are not run"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An attempt sees the stalls that happened while it ran, by what the watch saw of the latest.
    #[test]
    fn watching_tells_an_attempt_the_stalls_of_its_own_time() {
        let meter = Meter::default();
        meter.stalled("before");
        assert_eq!(meter.watching(|| 7), (7, None));
        let ((), stalled) = meter.watching(|| {
            meter.stalled("first");
            meter.stalled("second");
        });
        assert_eq!(stalled.as_deref(), Some("second"));
    }

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

    #[test]
    fn a_tests_allowance_counts_its_running_process_and_those_ended_since_it_began() {
        let meter = Meter::new(Some(Duration::from_secs(100)));
        meter.charge(Duration::from_secs(7));
        assert_eq!((meter.ceiling(Duration::ZERO), meter.generation()), (None, 0));
        meter.allow(Duration::from_secs(5), "used up".into());
        assert_eq!(meter.generation(), 1);
        // a process that had used 2 s when the test began may reach 7 s
        assert_eq!(meter.ceiling(Duration::from_secs(2)), Some(Duration::from_secs(7)));
        // a process that ended meanwhile after 3 s leaves 2 s to the next
        meter.charge(Duration::from_secs(3));
        assert_eq!(meter.ceiling(Duration::ZERO), Some(Duration::from_secs(2)));
        assert_eq!(meter.used_up(), "used up");
        meter.use_up_allowance();
        assert_eq!(meter.ceiling(Duration::from_secs(2)), Some(Duration::from_secs(2)));
        meter.allow(Duration::from_secs(1), "next".into());
        assert_eq!(meter.generation(), 2);
        meter.unlimited();
        assert_eq!(meter.ceiling(Duration::ZERO), None);
        assert!(meter.used_up().contains("whole grade"));
    }
}
