//! The session's program across its processes ([`Lifecycle`]): one started on demand, ended when a fault
//! leaves it unusable, and replaced by a fresh one on the next request, until [`MAX_LOSSES_IN_A_ROW`] were
//! lost with no answer in between.
//!
//! Everything a process leaves when it ends is kept here: what it wrote to stderr ([`Output`]), its CPU time
//! (charged to the grade's [`Meter`], which may cap the next process's CPU at what is left of the grade's
//! budget) and its peak memory. A process fault becomes the session's [`Fault`] here too, since telling a
//! death apart needs the process's last words and limits: a stall of the machine, a kill by the memory group
//! or at the budget's limit, a runtime that said it ran out of memory.

use std::sync::Arc;
use std::time::Duration;

use super::fault::{self, process_fault, Fault};
use super::handshake::Handshake;
use super::output::Output;
use crate::runner::meter::Meter;
use crate::runner::process::{ProcessFault, ProcessLimits, ProcessSpec, SubmissionProcess, Termination, TimeoutKind};
use crate::runner::stall::Cause;

/// After this many processes lost in a row (no successful reply in between), the session stops restarting
/// the program: every later request fails at once, so a program that hangs on everything cannot cost a
/// wall-clock cap per test.
pub const MAX_LOSSES_IN_A_ROW: u32 = 3;

/// A session's state before a test, for [`Session::rewind`](super::Session::rewind).
#[derive(Debug)]
pub struct Checkpoint {
    output: Output,
    losses_in_a_row: u32,
}

/// The processes of one session, one at a time.
pub(super) struct Lifecycle {
    spec: ProcessSpec,
    process: Option<SubmissionProcess>,
    output: Output,
    starts: u32,
    /// Whether the program's `runtime_threads=` is believed.
    trusts_runtime_threads: bool,
    losses_in_a_row: u32,
    /// The grade's CPU and stalls, shared with the sessions it starts beside this one.
    meter: Arc<Meter>,
    /// The most memory one of its processes' sandboxes held at once (where a memory group measured it).
    peak_memory: Option<u64>,
    /// The CPU limit the running process got from what was left of the grade's budget, if the budget set it.
    budget_limit: Option<Duration>,
    /// The meter's allowance (its generation) the running process is held to, and the process's whole CPU
    /// time when that allowance began (zero if it started since).
    allowance_base: (u64, Duration),
}

impl Lifecycle {
    /// No process yet: the first starts with [`Lifecycle::start`].
    pub(super) fn new(spec: ProcessSpec, meter: Arc<Meter>) -> Lifecycle {
        Lifecycle {
            spec,
            process: None,
            output: Output::default(),
            starts: 0,
            trusts_runtime_threads: false,
            losses_in_a_row: 0,
            meter,
            peak_memory: None,
            budget_limit: None,
            allowance_base: (0, Duration::ZERO),
        }
    }

    /// Believes the threads the program names as its runtime's from now on.
    pub(super) fn trust_runtime_threads(&mut self) {
        self.trusts_runtime_threads = true;
    }

    pub(super) fn meter(&self) -> &Arc<Meter> {
        &self.meter
    }

    /// The limits its processes run under.
    pub(super) fn limits(&self) -> &ProcessLimits {
        &self.spec.limits
    }

    pub(super) fn process(&self) -> Option<&SubmissionProcess> {
        self.process.as_ref()
    }

    pub(super) fn process_mut(&mut self) -> Option<&mut SubmissionProcess> {
        self.process.as_mut()
    }

    pub(super) fn is_running(&self) -> bool {
        self.process.is_some()
    }

    /// How many processes it has started.
    pub(super) fn starts(&self) -> u32 {
        self.starts
    }

    /// The most memory one of its processes' sandboxes held at once.
    pub(super) fn peak_memory(&self) -> Option<u64> {
        self.peak_memory
    }

    /// Starts a fresh process (its handshake is the caller's), unless the session gave up on the program or
    /// the budget its test runs under is used up. The process's CPU limit is what is left of the grade's whole
    /// budget when less than its own: the kernel ends it there.
    pub(super) fn start(&mut self) -> Result<(), Fault> {
        if self.losses_in_a_row >= MAX_LOSSES_IN_A_ROW {
            return Err(Fault::GaveUp(format!(
                "the grader stopped restarting the submission after {MAX_LOSSES_IN_A_ROW} failures in a row (crashes, \
                 time-outs or garbage) with no answer in between"
            )));
        }
        let mut spec = self.spec.clone();
        self.budget_limit = None;
        if self.meter.ceiling(Duration::ZERO).is_some_and(|ceiling| ceiling.is_zero()) {
            return Err(Fault::Timeout(self.meter.used_up()));
        }
        if let Some(left) = self.meter.left(Duration::ZERO) {
            if left.is_zero() {
                return Err(Fault::Timeout(self.meter.used_up()));
            }
            // the kernel ends a process past what is left of the grade's budget
            if spec.limits.cpu.is_none_or(|cpu| left < cpu) {
                spec.limits.cpu = Some(left);
                self.budget_limit = Some(left);
            }
        }
        let process = SubmissionProcess::spawn(&spec)
            .map_err(|e| Fault::Startup(format!("failed to run `{}`: {e}", self.spec.program.display())))?;
        self.process = Some(process);
        self.allowance_base = (self.meter.generation(), Duration::ZERO);
        self.starts += 1;
        Ok(())
    }

    /// The whole CPU time at which the running process has used up its test's allowance
    /// ([`Meter::ceiling`]), if the test has one: its base is read once per allowance.
    pub(super) fn ceiling(&mut self) -> Option<Duration> {
        let generation = self.meter.generation();
        if generation == 0 {
            return None;
        }
        if self.allowance_base.0 != generation {
            let base = self.process.as_ref().map(|p| p.ended().cpu).unwrap_or_default();
            self.allowance_base = (generation, base);
        }
        self.meter.ceiling(self.allowance_base.1)
    }

    /// The running process answered its handshake: the runtime threads it names are left uncharged when the
    /// session trusts it to name them.
    pub(super) fn greeted(&mut self, handshake: &Handshake) {
        if let (true, Some(process)) = (self.trusts_runtime_threads, self.process.as_mut()) {
            process.exclude_runtime_threads(&handshake.runtime_threads);
        }
    }

    /// The program answered a request: the run of lost processes ends.
    pub(super) fn answered(&mut self) {
        self.losses_in_a_row = 0;
    }

    /// Kills the process after `fault` left it unusable. A stall is the machine's, so it does not count
    /// toward giving up on the program.
    pub(super) fn lose(&mut self, fault: &Fault) {
        if !matches!(fault, Fault::Stalled(_)) {
            self.losses_in_a_row += 1;
        }
        if let Some(mut process) = self.process.take() {
            process.kill();
            self.retire(process);
        }
    }

    /// Ends the process (after the caller's `bye`): waits a little for it to exit, then kills what is left.
    pub(super) fn end(&mut self) {
        if let Some(mut process) = self.process.take() {
            let _ = process.wait_exit(Duration::from_secs(2));
            process.kill();
            self.retire(process);
        }
    }

    /// Keeps what an ended process leaves: everything it wrote to stderr up to its exit (the capture thread
    /// may still be draining), its CPU time (charged to the grade) and its peak memory.
    fn retire(&mut self, mut process: SubmissionProcess) {
        self.output.append(&process.take_output());
        let ended = process.ended();
        self.meter.charge(ended.cpu);
        self.peak_memory = self.peak_memory.max(ended.peak_memory);
    }

    /// Keeps what the running process wrote to stderr so far.
    pub(super) fn collect_output(&mut self) {
        if let Some(process) = self.process.as_mut() {
            let captured = process.take_output();
            self.output.append(&captured);
        }
    }

    /// The stderr kept so far, and whether some was cut; the session keeps none of it after.
    pub(super) fn take_output(&mut self) -> (String, bool) {
        self.collect_output();
        std::mem::take(&mut self.output).into_text()
    }

    /// What a replay goes back to: the stderr kept so far and the run of lost processes.
    pub(super) fn checkpoint(&mut self) -> Checkpoint {
        self.collect_output();
        Checkpoint { output: self.output.clone(), losses_in_a_row: self.losses_in_a_row }
    }

    /// Goes back to `checkpoint` (the process already ended).
    pub(super) fn rewind(&mut self, checkpoint: Checkpoint) {
        self.output = checkpoint.output;
        self.losses_in_a_row = checkpoint.losses_in_a_row;
    }

    /// The session's fault for a process fault. A wait the machine stalled is [`Fault::Stalled`] (and counted
    /// on the meter). A program that died is read to its last words first: those of a runtime that ran out
    /// of memory, or a kill by its memory group, make the fault [`Fault::OutOfMemory`]; a kill past the
    /// grade's CPU budget says so.
    pub(super) fn classify(&mut self, fault: ProcessFault) -> Fault {
        match &fault {
            ProcessFault::Timeout { cause: Some(Cause::Machine(how)), .. } => {
                self.meter.stalled(how);
                return Fault::Stalled(how.clone());
            }
            ProcessFault::Timeout { kind: TimeoutKind::Budget, .. } => {
                self.meter.use_up_allowance();
                return Fault::Timeout(self.meter.used_up());
            }
            _ => {}
        }
        let ProcessFault::Exited { status } = fault else { return process_fault(fault) };
        let Some(process) = self.process.as_mut() else { return process_fault(fault) };
        let captured = process.take_output();
        let ended = process.ended();
        self.output.append(&captured);
        if ended.out_of_memory {
            return fault::killed_out_of_memory(&self.spec.limits);
        }
        if self.ended_by_budget(status, ended.cpu) {
            self.meter.use_up();
            return Fault::Timeout(self.meter.used_up());
        }
        let last_words = self.output.latest();
        fault::died_out_of_memory(status, &last_words, &self.spec.limits).unwrap_or_else(|| process_fault(fault))
    }

    /// Whether the kernel ended the process at the CPU limit the grade's budget gave it: `SIGXCPU` at the
    /// limit (rounded up to whole seconds), or `SIGKILL` a second later if the program ignored that.
    fn ended_by_budget(&self, status: Termination, cpu: Duration) -> bool {
        let Some(limit) = self.budget_limit else { return false };
        let reached = cpu + Duration::from_millis(100) >= limit;
        matches!(status, Termination::Signal(libc::SIGXCPU))
            || (reached && status == Termination::Signal(libc::SIGKILL))
    }
}

impl Drop for Lifecycle {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
            self.meter.charge(process.ended().cpu);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting() -> ProcessSpec {
        ProcessSpec::new("/bin/sh").args(["-c", "read l"])
    }

    #[test]
    fn a_stall_is_not_a_loss_and_losses_in_a_row_stop_the_restarts() {
        let mut life = Lifecycle::new(waiting(), Arc::new(Meter::new(None)));
        for _ in 0..MAX_LOSSES_IN_A_ROW {
            life.start().unwrap();
            life.lose(&Fault::Stalled("its threads waited for a CPU".into()));
        }
        let checkpoint = life.checkpoint();
        for _ in 0..MAX_LOSSES_IN_A_ROW {
            life.start().unwrap();
            assert!(life.is_running());
            life.lose(&Fault::Garbage("junk".into()));
            assert!(!life.is_running());
        }
        match life.start() {
            Err(Fault::GaveUp(why)) => {
                assert!(why.contains("stopped restarting the submission after 3 failures"), "{why}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(life.starts(), 2 * MAX_LOSSES_IN_A_ROW);
        life.rewind(checkpoint);
        life.start().expect("a replay forgets the losses of the attempt it replaces");
        life.lose(&Fault::Garbage("junk".into()));
        life.answered();
        assert_eq!(life.losses_in_a_row, 0);
    }

    #[test]
    fn nothing_starts_past_the_grades_cpu_budget() {
        let meter = Arc::new(Meter::new(Some(Duration::from_secs(1))));
        meter.charge(Duration::from_secs(1));
        let mut life = Lifecycle::new(waiting(), Arc::clone(&meter));
        assert_eq!(life.start(), Err(Fault::Timeout(meter.used_up())));
        assert_eq!(life.starts(), 0);
    }

    #[test]
    fn a_process_started_within_a_budget_gets_what_is_left_of_it_as_its_cpu_limit() {
        let meter = Arc::new(Meter::new(Some(Duration::from_secs(10))));
        meter.charge(Duration::from_secs(4));
        let mut life = Lifecycle::new(waiting(), meter);
        life.start().unwrap();
        assert_eq!(life.budget_limit, Some(Duration::from_secs(6)));
        assert!(life.ended_by_budget(Termination::Signal(libc::SIGXCPU), Duration::ZERO));
        assert!(life.ended_by_budget(Termination::Signal(libc::SIGKILL), Duration::from_millis(5950)));
        assert!(!life.ended_by_budget(Termination::Signal(libc::SIGKILL), Duration::from_secs(1)), "killed early");
        let mut unlimited = Lifecycle::new(waiting(), Arc::new(Meter::new(None)));
        unlimited.start().unwrap();
        assert!(!unlimited.ended_by_budget(Termination::Signal(libc::SIGXCPU), Duration::ZERO), "no budget set it");
    }
}
