//! A conversation with one submission program, in the protocol of `specs/protocol.md`.
//!
//! The session owns the running process and replaces it when it dies: a timeout, a crash, or garbage on the
//! protocol channel fails the request in flight (returned as a [`Fault`]), the process group is killed, and
//! the next request starts a fresh process with a new handshake. Callers never see a dead process, only
//! faults attached to the requests that met them.
//!
//! Every reply is read through [`reply`]'s bounds (text cut as it is read, a cap on the
//! replies read ahead of their checks), and every process the session ends is charged to the grade's
//! [`Meter`], which also counts the waits the machine stalled ([`Fault::Stalled`]).
//!
//! This file is the conversation: the calls, and the loop that writes batches and reads their replies. What
//! it relies on is one concept per file:
//!
//! - `lifecycle`: the processes one after another, restarts and the run of losses, what an ended one leaves
//!   (its stderr, CPU and memory), and a process fault told apart as the session's [`Fault`];
//! - `batch`: the two ways a batch goes out, pipelined with `refs` or one at a time with handles substituted;
//! - `fusion`: which requests of a pipelined batch travel as one (`neighbors_texts`, `texts`), and how;
//! - `in_flight`: the batches sent and not yet redeemed, their tickets and IDs (a release riding ahead as
//!   ID `base - 1`), and the cap on the replies read ahead;
//! - `output`: the head and tail of stderr kept, whenever it was read;
//! - `fault`: [`Fault`] in words, and the runtime messages read as out of memory or a full disk;
//! - `handshake`: what the program announces first ([`Handshake`]).

mod batch;
mod fault;
mod fusion;
mod handshake;
mod in_flight;
mod lifecycle;
mod output;
#[cfg(test)]
mod tests;

use std::sync::Arc;
use std::time::Duration;

use npuzzle_harness::protocol::{Reply, Request, NEIGHBOR_TEXTS, TEXTS, VERSION};

use self::batch::{Exchange, References};
pub use self::fault::Fault;
use self::fusion::Fusions;
use self::handshake::parse_hello;
pub use self::handshake::{Handshake, REFS};
use self::in_flight::{outcome_to_result, Awaited, Batch, InFlight, Received};
pub use self::in_flight::{Answer, Sent};
use self::lifecycle::Lifecycle;
pub use self::lifecycle::{Checkpoint, MAX_LOSSES_IN_A_ROW};
use super::meter::Meter;
use super::process::{Deadline, ProcessFault, ProcessSpec, SubmissionProcess};
use super::reply::{self, ReadAhead};

/// Time limits for requests, and the cap on replies read ahead.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    /// CPU allowed for the handshake (a JVM starting up needs more).
    pub startup: Duration,
    /// CPU allowed for any single request, unless the caller gives its own.
    pub request: Duration,
    /// The most bytes of replies held before the checks that read them do.
    pub read_ahead: ReadAhead,
}

impl SessionLimits {
    /// The session limits a policy's limits set.
    pub fn from_policy(limits: &crate::policy::Limits) -> SessionLimits {
        SessionLimits {
            startup: Duration::from_secs_f64(limits.startup_cpu_seconds),
            request: Duration::from_secs_f64(limits.request_cpu_seconds),
            read_ahead: ReadAhead { mib: limits.reply_buffer_mb as usize },
        }
    }
}

impl Default for SessionLimits {
    /// The default policy's limits.
    fn default() -> Self {
        SessionLimits::from_policy(&crate::policy::Limits::default())
    }
}

/// A conversation with a submission program, restarted on demand.
pub struct Session {
    /// Its processes, one after another.
    life: Lifecycle,
    limits: SessionLimits,
    handshake: Option<Handshake>,
    /// The CPU the program reported for its requests, and what requests that timed out had spent.
    cpu_reported: Duration,
    /// Of `cpu_reported`, what the adapter reported for reading the counters (its own work, not the Solver's).
    cpu_counting: Duration,
    /// Handles to release with the next batch (see `ask::release`); dropped when the process is lost.
    pub(crate) pending_release: Vec<npuzzle_harness::protocol::Handle>,
    /// Batches sent and not yet redeemed, oldest first.
    in_flight: InFlight,
    /// The boards the program may hold ([`Session::holding`]).
    holds: Holds,
}

/// The boards a session's program may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Holds {
    /// The student's, or the reference Board beside them (one program for both worlds).
    #[default]
    AnyBoard,
    /// The reference Board alone (the Java `ref` world's program, whose adapter turns away any other object a
    /// student's method returns as a board), whose `toString()` is the adapter's own: a pipelined run of reads
    /// of boards by their handles travels as one `texts` request (`fusion`), allowed one request's time, as
    /// the first read alone would be.
    ReferenceBoardsOnly,
}

impl Session {
    /// A session that will start `spec` on the first request, with a grade of its own (no CPU budget).
    pub fn new(spec: ProcessSpec, limits: SessionLimits) -> Session {
        Session::metered(spec, limits, Arc::new(Meter::new(None)))
    }

    /// A session charging `meter`, which the grade's other sessions share.
    pub fn metered(spec: ProcessSpec, limits: SessionLimits, meter: Arc<Meter>) -> Session {
        Session {
            life: Lifecycle::new(spec, meter),
            limits,
            handshake: None,
            cpu_reported: Duration::ZERO,
            cpu_counting: Duration::ZERO,
            pending_release: Vec::new(),
            in_flight: InFlight::default(),
            holds: Holds::default(),
        }
    }

    /// This session's program holds the boards `holds` says ([`Holds::AnyBoard`] unless told).
    pub fn holding(mut self, holds: Holds) -> Session {
        self.holds = holds;
        self
    }

    /// This session believes the threads the program names as its runtime's (`runtime_threads=`) and does
    /// not charge their CPU time: only for an adapter that names them before any student code runs (the Java
    /// server). Any other program is charged the CPU of all its threads, whatever it announces.
    pub fn trusting_runtime_threads(mut self) -> Session {
        self.life.trust_runtime_threads();
        self
    }

    /// The grade's meter.
    pub fn meter(&self) -> &Arc<Meter> {
        self.life.meter()
    }

    /// The CPU time of the running process so far, all its threads (zero when none runs): what the grade's
    /// meter is charged when it ends.
    pub fn running_cpu(&self) -> Duration {
        self.life.process().map(|p| p.ended().cpu).unwrap_or_default()
    }

    /// The most memory the sandbox of one of this session's processes held at once, in bytes, where its
    /// memory group measured it (not deterministic: for the record only).
    pub fn peak_memory(&self) -> Option<u64> {
        self.life.peak_memory()
    }

    /// Starts the program if needed and returns what its handshake announced.
    pub fn handshake(&mut self) -> Result<&Handshake, Fault> {
        self.ensure_started()?;
        self.handshake.as_ref().ok_or_else(|| Fault::Startup("no handshake".into()))
    }

    /// The CPU time the program reported for all requests so far (not deterministic: for benchmarks only).
    pub fn cpu_reported(&self) -> Duration {
        self.cpu_reported
    }

    /// Of [`Session::cpu_reported`], the CPU the adapter reported for answering `counters` (its deep-memory
    /// walk over the queues: the adapter's work, not the submission's; for benchmarks only).
    pub fn cpu_counting(&self) -> Duration {
        self.cpu_counting
    }

    /// Records what the adapter reported for answering a `counters` request (see [`Session::cpu_counting`]).
    pub fn add_counting(&mut self, cpu: Duration) {
        self.cpu_counting += cpu;
    }

    /// The CPU time the running program has been charged so far: what the deadlines count
    /// ([`SubmissionProcess::cpu_time`]). `None` when no process runs. Two readings compare only while
    /// [`Session::starts`] is unchanged (a fresh process starts a fresh clock).
    pub fn charged_cpu(&self) -> Option<Duration> {
        self.life.process().map(SubmissionProcess::cpu_time)
    }

    /// Whether the program runs: false before the first request and once it is lost (the next request then
    /// starts a fresh one, which knows none of the old one's handles).
    pub fn runs(&self) -> bool {
        self.life.is_running()
    }

    /// How many processes this session has started (1 when nothing went wrong).
    pub fn starts(&self) -> u32 {
        self.life.starts()
    }

    /// Sends one request with the default time limit and waits for its reply.
    pub fn call(&mut self, request: &Request) -> Result<Answer, Fault> {
        let limit = self.limits.request;
        self.call_within(request, limit)
    }

    /// Sends one request, allowing `cpu` of CPU time, and waits for its reply.
    pub fn call_within(&mut self, request: &Request, cpu: Duration) -> Result<Answer, Fault> {
        // Whatever a batch still in flight meets (a crash, a hang) is that batch's, not this call's.
        self.settle();
        self.ensure_started()?;
        let reply = self.exchange(request, Deadline::from_cpu(cpu));
        self.life.collect_output();
        reply
    }

    /// Sends `requests` together and returns every answer, or the fault of the first request that did not
    /// come back `ok` (see [`Session::call_each`]).
    pub fn call_all(&mut self, requests: &[Request]) -> Result<Vec<Answer>, Fault> {
        self.call_each(requests).into_iter().collect()
    }

    /// Sends a script of requests and returns one result per request, each within the default time limit
    /// (counted from the previous reply).
    ///
    /// A [`Handle::Reply`](npuzzle_harness::protocol::Handle::Reply) in `requests` names the reply to an
    /// earlier request *of this slice* by its position (`Handle::Reply { request: 2, index: 0 }` is the first
    /// handle `requests[2]` returned). When the program
    /// resolves references itself (it announced `refs`), the whole script goes out at once and the replies
    /// are read as they come: a round trip through two processes costs far more than answering a Board
    /// request, so this is what makes a test of a thousand trials fast. Otherwise the requests go one at a
    /// time and the session substitutes the handles. Either way the program sees the same requests in the
    /// same order. A reference to a reply that failed or has no such handle fails its own request (as a
    /// protocol error); a fault that loses the process fails every request after it.
    pub fn call_each(&mut self, requests: &[Request]) -> Vec<Result<Answer, Fault>> {
        let sent = self.send_each(requests);
        self.receive_each(sent)
    }

    /// The first half of [`Session::call_each`]: sends the script and returns at once, so the grader can work
    /// (judge an earlier batch) while the program answers this one. Batches may be redeemed in any order, and
    /// any other call meanwhile reads and keeps the replies of the batches before it.
    ///
    /// Without `refs` there is nothing to overlap: the requests go one at a time, here and now.
    pub fn send_each(&mut self, requests: &[Request]) -> Sent {
        let limit = self.limits.request;
        self.send_each_within(requests, limit)
    }

    /// [`Session::call_each`] with `cpu` allowed for each request (counted from the previous reply), as for
    /// the calls of a Solver's life, which share its budget.
    pub fn call_each_within(&mut self, requests: &[Request], cpu: Duration) -> Vec<Result<Answer, Fault>> {
        let sent = self.send_each_within(requests, cpu);
        self.receive_each(sent)
    }

    fn send_each_within(&mut self, requests: &[Request], cpu: Duration) -> Sent {
        let ticket = self.in_flight.ticket();
        let sent = Sent { ticket, len: requests.len() };
        if let Err(fault) = self.ensure_started() {
            self.in_flight.push(Batch::settled(ticket, vec![Err(fault); requests.len()]));
            return sent;
        }
        let deadline = Deadline::from_cpu(cpu);
        if self.handshake.as_ref().is_some_and(Handshake::resolves_references) {
            let batch = self.send(ticket, requests, deadline, References::Rebase);
            self.in_flight.push(batch);
        } else {
            let results = batch::one_at_a_time(&mut Exchanging { session: self, deadline }, requests);
            self.life.collect_output();
            self.in_flight.push(Batch::settled(ticket, results));
        }
        sent
    }

    /// Keeps batches in flight moving while the grader works on something else: writes what the program
    /// will take and reads what it has answered, without waiting for either.
    pub fn pump(&mut self) {
        if let Some(process) = self.life.process_mut() {
            process.pump();
        }
    }

    /// The results of a batch sent with [`Session::send_each`], one per request, reading its replies (and
    /// those of the batches sent before it) as they come.
    ///
    /// Batches may be redeemed in any order: the replies of batches sent earlier are read first (the program
    /// answers in order) and kept for whoever redeems them, so a judge may ask its own questions
    /// ([`Session::call_each`], [`Session::call`]) while later batches are in flight.
    pub fn receive_each(&mut self, sent: Sent) -> Vec<Result<Answer, Fault>> {
        self.receive_through(sent.ticket);
        self.life.collect_output();
        self.in_flight.redeem(sent.ticket).unwrap_or_else(|| {
            // A `Sent` is redeemed once, by value: only one from another session can get here.
            let bug = Fault::Protocol("a batch was redeemed by a session that did not send it (a grader bug)".into());
            vec![Err(bug); sent.len]
        })
    }

    /// What the program wrote to stderr so far, and whether some was cut: the first 32 KiB and the latest
    /// 32 KiB, with a line between them saying how many bytes were left out.
    pub fn take_output(&mut self) -> (String, bool) {
        self.life.take_output()
    }

    /// What a replay goes back to ([`Session::rewind`]): the stderr kept so far and the run of lost processes.
    pub fn checkpoint(&mut self) -> Checkpoint {
        self.life.checkpoint()
    }

    /// Ends the running process and goes back to `checkpoint`, for a test replayed from its first request in
    /// a fresh process: what the abandoned attempt wrote to stderr, and the processes it lost, are forgotten,
    /// so the replay's report is the one an unstalled run writes. Its CPU stays charged to the grade.
    pub fn rewind(&mut self, checkpoint: Checkpoint) {
        self.finish();
        self.life.rewind(checkpoint);
    }

    /// Ends the conversation politely (`bye`), then kills whatever is left.
    pub fn finish(&mut self) {
        self.settle();
        if self.life.is_running() {
            let _ = self.exchange(&Request::Bye, Deadline::from_cpu(Duration::from_secs(1)));
        }
        self.life.end();
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        if self.life.is_running() {
            return Ok(());
        }
        // Handles released since the last process was lost belong to it: a new process must not see them
        // (and `hello` must be its first request).
        self.pending_release.clear();
        self.life.start()?;
        self.in_flight.restart_ids();
        let answer = self.exchange(&Request::Hello { version: VERSION }, Deadline::from_cpu(self.limits.startup));
        self.life.collect_output();
        let answer = answer.map_err(|fault| {
            // a start runs the submission's own code too: a Java class's static initializer, a Python module's
            // top level
            let whose = if matches!(fault, Fault::Timeout(_)) {
                " (starting runs your static initializers or your modules' top-level code)"
            } else {
                ""
            };
            Fault::Startup(format!("the handshake failed: {}{whose}", fault.describe()))
        })?;
        let handshake = parse_hello(&answer.values).map_err(Fault::Startup)?;
        self.life.greeted(&handshake);
        self.handshake = Some(handshake);
        Ok(())
    }

    /// One request, answered now (after the replies of any batch still in flight, which are kept).
    fn exchange(&mut self, request: &Request, deadline: Deadline) -> Result<Answer, Fault> {
        let ticket = self.in_flight.ticket();
        let batch = self.send(ticket, std::slice::from_ref(request), deadline, References::Resolved);
        self.in_flight.push(batch);
        self.receive_through(ticket);
        self.in_flight.take_last().into_iter().next().expect("one result per request")
    }

    /// Sends `requests` back to back (after a batch of pending releases, if one is due); their replies are
    /// read by [`Session::receive_through`].
    fn send(&mut self, ticket: u64, requests: &[Request], deadline: Deadline, references: References) -> Batch {
        // Released handles ride along with the very next batch: a board the grader is done with is not kept
        // alive in the program while later tests run (a 127-by-127 Board can be large).
        let release =
            (!self.pending_release.is_empty()).then(|| Request::Release(std::mem::take(&mut self.pending_release)));
        let ids = self.in_flight.number(release.is_some(), requests.len());
        let pipelined = matches!(references, References::Rebase);
        let answers = |capability| pipelined && self.handshake.as_ref().is_some_and(|h| h.answers(capability));
        let fusions = Fusions {
            neighbor_texts: answers(NEIGHBOR_TEXTS),
            texts: self.holds == Holds::ReferenceBoardsOnly && answers(TEXTS),
        };
        let wire = if fusions != Fusions::default() { fusion::plan(requests, fusions) } else { Vec::new() };
        let Some(process) = self.life.process_mut() else {
            return Batch::settled(ticket, vec![Err(Fault::Startup("no running process".into())); requests.len()]);
        };
        let mut sent = Ok(());
        for line in batch::lines(release.as_ref(), requests, &wire, ids, references) {
            sent = process.send_line(&line);
            if sent.is_err() {
                break;
            }
        }
        if let Err(fault) = sent {
            // The program is gone or stopped reading, but replies to earlier batches may still wait in its
            // stdout: read them first, so a fault lands on the request that met it.
            self.receive_through(ticket.saturating_sub(1));
            let fault = self.life.classify(fault);
            let lost = if self.life.is_running() { self.lose_process(fault) } else { fault };
            return Batch::settled(ticket, vec![Err(lost); requests.len()]);
        }
        Batch::sent(ticket, ids, requests, wire, deadline)
    }

    /// Reads the replies of every batch still in flight (keeping them for whoever redeems them).
    fn settle(&mut self) {
        self.receive_through(u64::MAX);
    }

    /// Reads replies until every batch up to `ticket` has all its results. A fault that loses the process
    /// fails the rest of the batch it struck and every batch sent after it (see [`Session::lose_process`]).
    fn receive_through(&mut self, ticket: u64) {
        while let Some(awaited) = self.in_flight.awaited(ticket) {
            match self.receive(&awaited) {
                Ok(received) => {
                    for one in received {
                        self.in_flight.record(&awaited, one, self.limits.read_ahead);
                    }
                }
                // `lose_process` has already failed every request still waiting; this makes sure the loop ends.
                Err(fault) => self.in_flight.fail_waiting(&fault),
            }
        }
    }

    /// Reads the reply awaited: the request's own result and the bytes it holds (and those of the reads
    /// fused with it, in order), or the fault that lost the process.
    fn receive(&mut self, awaited: &Awaited) -> Result<Vec<Received>, Fault> {
        let Awaited { id, deadline, handshake, text, wire, .. } = *awaited;
        let deadline = deadline.with_ceiling(self.life.ceiling());
        let Some(process) = self.life.process_mut() else {
            return Err(Fault::Startup("no running process".into()));
        };
        let line = match process.recv_replies(deadline, 1 + wire.reads() as usize) {
            Ok(line) => line,
            Err(fault) => {
                if let ProcessFault::Timeout { cpu, .. } = &fault {
                    // spent inside the program by the request that ran out, which no reply will report
                    self.cpu_reported += *cpu;
                }
                let fault = self.life.classify(fault);
                return Err(self.lose_process(fault));
            }
        };
        match Reply::decode(&line) {
            Ok(reply) if reply.id == id => {
                let Some(replies) = fusion::split(reply, wire, text) else {
                    return Err(self.lose_process(fault::garbage(&line)));
                };
                drop(line);
                self.cpu_reported += Duration::from_micros(replies[0].0.cpu_micros);
                if !handshake {
                    self.life.answered();
                }
                Ok(replies.into_iter().map(|(reply, text)| self.kept(reply, text)).collect())
            }
            _ => Err(self.lose_process(fault::garbage(&line))),
        }
    }

    /// What the session keeps of `reply` (`text`: a `to_string`'s): its result, its text cut to the bounds,
    /// and the bytes it holds.
    fn kept(&self, reply: Reply, text: bool) -> Received {
        let reply = Reply { outcome: reply::kept(reply.outcome, text), ..reply };
        let weight = reply::weight(&reply.outcome);
        (outcome_to_result(reply).map_err(|fault| fault::explained(fault, self.life.limits())), weight)
    }

    /// Kills the process after a fault that leaves it unusable; returns the fault for chaining. Every request
    /// still waiting for a reply went to it and fails with the fault; the handles released to it go with it.
    fn lose_process(&mut self, fault: Fault) -> Fault {
        self.pending_release.clear();
        self.in_flight.fail_waiting(&fault);
        self.life.lose(&fault);
        fault
    }
}

/// The session answering one request at a time within `deadline` ([`batch::one_at_a_time`]).
struct Exchanging<'a> {
    session: &'a mut Session,
    deadline: Deadline,
}

impl Exchange for Exchanging<'_> {
    fn running(&self) -> bool {
        self.session.life.is_running()
    }

    fn exchange(&mut self, request: &Request) -> Result<Answer, Fault> {
        self.session.exchange(request, self.deadline)
    }
}
