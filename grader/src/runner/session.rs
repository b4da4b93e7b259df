//! A conversation with one submission program, in the protocol of `specs/protocol.md`.
//!
//! The session owns the running process and replaces it when it dies: a timeout, a crash, or garbage on the
//! protocol channel fails the request in flight (returned as a [`Fault`]), the process group is killed, and
//! the next request starts a fresh process with a new handshake. Callers never see a dead process, only
//! faults attached to the requests that met them.
//!
//! Every reply is read through [`reply`](super::reply)'s bounds (text cut as it is read, a cap on the
//! replies read ahead of their checks), and every process the session ends is charged to the grade's
//! [`Meter`], which also counts the waits the machine stalled ([`Fault::Stalled`]).

use std::collections::{BTreeSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use npuzzle_harness::protocol::{Handle, Outcome, Reply, ReplyHandles, Request, VERSION};

pub use super::fault::Fault;
use super::fault::{is_capacity_overflow, process_fault, CAPACITY_OVERFLOW, DISK_FULL};
use super::meter::Meter;
use super::process::{self, CapturedOutput, Deadline, ProcessFault, ProcessSpec, SubmissionProcess};
use super::reply::{self, ReadAhead};
use super::stall::Cause;
use crate::clip::clip;

/// A successful reply: the verb-specific values and the CPU time the program reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The encoded values after `ok CPU`.
    pub values: String,
    /// CPU time the program spent on the request.
    pub cpu: Duration,
}

/// What the handshake told us about the program.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Handshake {
    /// The submission's language (`rust`, `java`, …).
    pub language: String,
    #[allow(missing_docs)]
    pub capabilities: BTreeSet<String>,
    /// The runtime's own threads (`runtime_threads=T1,T2,…`, Linux thread ids as the program sees them),
    /// whose CPU time is not charged to the student when the session trusts the program to name them.
    pub runtime_threads: Vec<u32>,
}

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
    spec: ProcessSpec,
    limits: SessionLimits,
    process: Option<SubmissionProcess>,
    next_id: u64,
    handshake: Option<Handshake>,
    output: Output,
    starts: u32,
    /// Whether the program's `runtime_threads=` is believed (see [`Session::trusting_runtime_threads`]).
    trusts_runtime_threads: bool,
    cpu_reported: Duration,
    /// Of `cpu_reported`, what the adapter reported for reading the counters (its own work, not the Solver's).
    cpu_counting: Duration,
    losses_in_a_row: u32,
    /// Handles to release with the next batch (see `ask::release`); dropped when the process is lost.
    pub(crate) pending_release: Vec<npuzzle_harness::protocol::Handle>,
    /// Batches sent and not yet redeemed, oldest first. Replies come back in the order requests went out, so
    /// reading the replies of one batch first reads (and keeps) those of every batch sent before it; each
    /// stays here until its own [`Sent`] redeems it (one never redeemed stays until the session ends).
    in_flight: VecDeque<InFlight>,
    next_ticket: u64,
    /// The grade's CPU and stalls, shared with the sessions it starts beside this one.
    meter: Arc<Meter>,
    /// The most memory one of its processes' sandboxes held at once (where a memory group measured it).
    peak_memory: Option<u64>,
    /// The CPU limit the running process got from what was left of the grade's budget, if the budget set it.
    budget_limit: Option<Duration>,
}

/// A batch sent with [`Session::send_each`]; [`Session::receive_each`] turns it into its results.
#[must_use = "a sent batch's results are read with `receive_each`"]
#[derive(Debug)]
pub struct Sent {
    ticket: u64,
    len: usize,
}

/// One batch on its way: the IDs its replies will carry, and the results read so far.
struct InFlight {
    ticket: u64,
    /// The ID of the batch's first request.
    base: u64,
    /// Whether a release rode along (as ID `base - 1`) and its reply is still to be read.
    release_unread: bool,
    len: usize,
    deadline: Deadline,
    /// The handshake's reply does not count as an answer that ends a run of lost processes.
    handshake: bool,
    /// Which requests are `to_string` (their answers are text, cut past any board's).
    texts: Vec<bool>,
    results: Vec<Result<Answer, Fault>>,
    /// The bytes its results hold ([`reply::weight`]).
    held: usize,
}

impl InFlight {
    fn is_complete(&self) -> bool {
        !self.release_unread && self.results.len() == self.len
    }

    /// A batch whose every request already has its result (answered, or failed before it could be sent).
    fn settled(ticket: u64, results: Vec<Result<Answer, Fault>>) -> InFlight {
        let len = results.len();
        InFlight {
            ticket,
            base: 0,
            release_unread: false,
            len,
            deadline: Deadline::from_cpu(Duration::ZERO),
            handshake: false,
            texts: Vec::new(),
            results,
            held: 0,
        }
    }
}

/// After this many processes lost in a row (no successful reply in between), the session stops restarting
/// the program: every later request fails at once, so a program that hangs on everything cannot cost a
/// wall-clock cap per test.
pub const MAX_LOSSES_IN_A_ROW: u32 = 3;

/// The most stderr text kept per session: half from the start, half the latest.
const OUTPUT_KEEP_BYTES: usize = 64 * 1024;
/// The longest garbage line quoted back.
const QUOTE_BYTES: usize = 120;
/// The longest handshake reply read (a language and a few capabilities).
const HELLO_BYTES: usize = 4 << 10;

impl Session {
    /// A session that will start `spec` on the first request, with a grade of its own (no CPU budget).
    pub fn new(spec: ProcessSpec, limits: SessionLimits) -> Session {
        Session::metered(spec, limits, Arc::new(Meter::new(None)))
    }

    /// A session charging `meter`, which the grade's other sessions share.
    pub fn metered(spec: ProcessSpec, limits: SessionLimits, meter: Arc<Meter>) -> Session {
        Session {
            spec,
            limits,
            process: None,
            next_id: 0,
            handshake: None,
            output: Output::default(),
            starts: 0,
            trusts_runtime_threads: false,
            cpu_reported: Duration::ZERO,
            cpu_counting: Duration::ZERO,
            losses_in_a_row: 0,
            pending_release: Vec::new(),
            in_flight: VecDeque::new(),
            next_ticket: 0,
            meter,
            peak_memory: None,
            budget_limit: None,
        }
    }

    /// This session believes the threads the program names as its runtime's (`runtime_threads=`) and does
    /// not charge their CPU time: only for an adapter that names them before any student code runs (the Java
    /// server). Any other program is charged the CPU of all its threads, whatever it announces.
    pub fn trusting_runtime_threads(mut self) -> Session {
        self.trusts_runtime_threads = true;
        self
    }

    /// The grade's meter.
    pub fn meter(&self) -> &Arc<Meter> {
        &self.meter
    }

    /// The CPU time of the running process so far, all its threads (zero when none runs): what the grade's
    /// meter is charged when it ends.
    pub fn running_cpu(&self) -> Duration {
        self.process.as_ref().map(|p| p.ended().cpu).unwrap_or_default()
    }

    /// The most memory the sandbox of one of this session's processes held at once, in bytes, where its
    /// memory group measured it (not deterministic: for the record only).
    pub fn peak_memory(&self) -> Option<u64> {
        self.peak_memory
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
        self.process.as_ref().map(SubmissionProcess::cpu_time)
    }

    /// How many processes this session has started (1 when nothing went wrong).
    pub fn starts(&self) -> u32 {
        self.starts
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
        self.collect_output();
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
    /// A [`Handle::Reply`] in `requests` names the reply to an earlier request *of this slice* by its position
    /// (`Handle::Reply { request: 2, index: 0 }` is the first handle `requests[2]` returned). When the program
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
        let ticket = self.ticket();
        let sent = Sent { ticket, len: requests.len() };
        if let Err(fault) = self.ensure_started() {
            self.in_flight.push_back(InFlight::settled(ticket, vec![Err(fault); requests.len()]));
            return sent;
        }
        let deadline = Deadline::from_cpu(cpu);
        if self.handshake.as_ref().is_some_and(|h| h.capabilities.contains(REFS)) {
            let batch = self.send(ticket, requests, deadline, References::Rebase);
            self.in_flight.push_back(batch);
        } else {
            let results = self.exchange_substituting(requests, deadline);
            self.collect_output();
            self.in_flight.push_back(InFlight::settled(ticket, results));
        }
        sent
    }

    /// Keeps batches in flight moving while the grader works on something else: writes what the program
    /// will take and reads what it has answered, without waiting for either.
    pub fn pump(&mut self) {
        if let Some(process) = self.process.as_mut() {
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
        let Some(at) = self.in_flight.iter().position(|batch| batch.ticket == sent.ticket) else {
            // A `Sent` is redeemed once, by value: only one from another session can get here.
            let bug = Fault::Protocol("a batch was redeemed by a session that did not send it (a grader bug)".into());
            return vec![Err(bug); sent.len];
        };
        self.collect_output();
        self.in_flight.remove(at).map(|batch| batch.results).unwrap_or_default()
    }

    /// One request at a time, with references replaced by the handles the earlier answers hold.
    fn exchange_substituting(&mut self, requests: &[Request], deadline: Deadline) -> Vec<Result<Answer, Fault>> {
        let mut results: Vec<Result<Answer, Fault>> = Vec::with_capacity(requests.len());
        // The adapter's own table, keyed by position in the batch instead of request ID.
        let mut replies = ReplyHandles::default();
        for (position, request) in (0..).zip(requests) {
            if self.process.is_none() {
                let lost = results.last().cloned().and_then(Result::err);
                results.push(Err(lost.unwrap_or_else(|| Fault::Crashed("the program ended".into()))));
                continue;
            }
            let mut request = request.clone();
            let substituted =
                request.handles_mut().into_iter().try_for_each(|h| replies.resolve(*h).map(|real| *h = real));
            match substituted {
                Ok(()) => {
                    let result = self.exchange(&request, deadline);
                    if let (Ok(answer), true) = (&result, request.returns_handles()) {
                        replies.record(position, &answer.values);
                    }
                    results.push(result);
                }
                Err(unresolved) => results.push(Err(Fault::Protocol(unresolved.0))),
            }
        }
        results
    }

    /// What the program wrote to stderr so far, and whether some was cut: the first 32 KiB and the latest
    /// 32 KiB, with a line between them saying how many bytes were left out.
    pub fn take_output(&mut self) -> (String, bool) {
        self.collect_output();
        std::mem::take(&mut self.output).into_text()
    }

    /// What a replay goes back to ([`Session::rewind`]): the stderr kept so far and the run of lost processes.
    pub fn checkpoint(&mut self) -> Checkpoint {
        self.collect_output();
        Checkpoint { output: self.output.clone(), losses_in_a_row: self.losses_in_a_row }
    }

    /// Ends the running process and goes back to `checkpoint`, for a test replayed from its first request in
    /// a fresh process: what the abandoned attempt wrote to stderr, and the processes it lost, are forgotten,
    /// so the replay's report is the one an unstalled run writes. Its CPU stays charged to the grade.
    pub fn rewind(&mut self, checkpoint: Checkpoint) {
        self.finish();
        self.output = checkpoint.output;
        self.losses_in_a_row = checkpoint.losses_in_a_row;
    }

    /// Ends the conversation politely (`bye`), then kills whatever is left.
    pub fn finish(&mut self) {
        self.settle();
        if self.process.is_some() {
            let _ = self.exchange(&Request::Bye, Deadline::from_cpu(Duration::from_secs(1)));
        }
        if let Some(mut process) = self.process.take() {
            let _ = process.wait_exit(Duration::from_secs(2));
            process.kill();
            self.retire(process);
        }
    }

    /// Keeps what an ended process leaves: everything it wrote to stderr up to its exit (the capture thread
    /// may still be draining), its CPU time (charged to the grade) and its peak memory.
    fn retire(&mut self, mut process: SubmissionProcess) {
        self.append_output(process.take_output());
        let ended = process.ended();
        self.meter.charge(ended.cpu);
        self.peak_memory = self.peak_memory.max(ended.peak_memory);
    }

    fn ensure_started(&mut self) -> Result<(), Fault> {
        if self.process.is_some() {
            return Ok(());
        }
        if self.losses_in_a_row >= MAX_LOSSES_IN_A_ROW {
            return Err(Fault::Crashed(format!(
                "the grader stopped restarting the submission after {MAX_LOSSES_IN_A_ROW} failures in a row with no answer in between"
            )));
        }
        // Handles released since the last process was lost belong to it: a new process must not see them
        // (and `hello` must be its first request).
        self.pending_release.clear();
        let mut spec = self.spec.clone();
        self.budget_limit = None;
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
        self.starts += 1;
        self.next_id = 0;
        let answer = self.exchange(&Request::Hello { version: VERSION }, Deadline::from_cpu(self.limits.startup));
        self.collect_output();
        let answer = answer.map_err(|fault| Fault::Startup(format!("the handshake failed: {}", fault.describe())))?;
        let handshake = parse_hello(&answer.values).map_err(Fault::Startup)?;
        if let (true, Some(process)) = (self.trusts_runtime_threads, self.process.as_mut()) {
            process.exclude_runtime_threads(&handshake.runtime_threads);
        }
        self.handshake = Some(handshake);
        Ok(())
    }

    /// One request, answered now (after the replies of any batch still in flight, which are kept).
    fn exchange(&mut self, request: &Request, deadline: Deadline) -> Result<Answer, Fault> {
        let ticket = self.ticket();
        let batch = self.send(ticket, std::slice::from_ref(request), deadline, References::Resolved);
        self.in_flight.push_back(batch);
        self.receive_through(ticket);
        let batch = self.in_flight.pop_back().expect("the batch just sent");
        batch.results.into_iter().next().expect("one result per request")
    }

    /// The next batch's ticket.
    fn ticket(&mut self) -> u64 {
        self.next_ticket += 1;
        self.next_ticket - 1
    }

    /// Sends `requests` back to back (after a batch of pending releases, if one is due); their replies are
    /// read by [`Session::receive_through`].
    fn send(&mut self, ticket: u64, requests: &[Request], deadline: Deadline, references: References) -> InFlight {
        // Released handles ride along with the very next batch: a board the grader is done with is not kept
        // alive in the program while later tests run (a 127-by-127 Board can be large).
        let release =
            (!self.pending_release.is_empty()).then(|| Request::Release(std::mem::take(&mut self.pending_release)));
        let first_id = self.next_id;
        let base = first_id + u64::from(release.is_some());
        self.next_id = base + requests.len() as u64;
        let Some(process) = self.process.as_mut() else {
            return InFlight::settled(ticket, vec![Err(Fault::Startup("no running process".into())); requests.len()]);
        };
        let lines =
            release.iter().map(|r| r.encode(first_id)).chain(requests.iter().zip(base..).map(|(request, id)| {
                match references {
                    References::Rebase => rebased(request, base).encode(id),
                    References::Resolved => request.encode(id),
                }
            }));
        let mut sent = Ok(());
        for line in lines {
            sent = process.send_line(&line);
            if sent.is_err() {
                break;
            }
        }
        if let Err(fault) = sent {
            // The program is gone or stopped reading, but replies to earlier batches may still wait in its
            // stdout: read them first, so a fault lands on the request that met it.
            self.receive_through(ticket.saturating_sub(1));
            let fault = self.classify(fault);
            let lost = if self.process.is_some() { self.lose_process(fault) } else { fault };
            return InFlight::settled(ticket, vec![Err(lost); requests.len()]);
        }
        let handshake = matches!(requests, [Request::Hello { .. }]);
        let release_unread = release.is_some();
        let texts = requests.iter().map(|request| matches!(request, Request::ToString(_))).collect();
        let len = requests.len();
        InFlight { ticket, base, release_unread, len, deadline, handshake, texts, results: Vec::new(), held: 0 }
    }

    /// The bytes of results the session holds for batches not yet redeemed.
    fn held(&self) -> usize {
        self.in_flight.iter().map(|batch| batch.held).sum()
    }

    /// Reads the replies of every batch still in flight (keeping them for whoever redeems them).
    fn settle(&mut self) {
        self.receive_through(u64::MAX);
    }

    /// Reads replies until every batch up to `ticket` has all its results. A fault that loses the process
    /// fails the rest of the batch it struck and every batch sent after it (see [`Session::lose_process`]).
    fn receive_through(&mut self, ticket: u64) {
        while let Some(at) = self.in_flight.iter().position(|batch| !batch.is_complete() && batch.ticket <= ticket) {
            let batch = &self.in_flight[at];
            let is_release = batch.release_unread;
            let id = if is_release { batch.base - 1 } else { batch.base + batch.results.len() as u64 };
            let (deadline, handshake) = (batch.deadline, batch.handshake);
            let text = !is_release && batch.texts.get(batch.results.len()).copied().unwrap_or(false);
            match self.receive(id, deadline, handshake, text) {
                Ok(_) if is_release => {
                    // The release riding along: best effort; its reply is read, so the batch's own come next.
                    self.in_flight[at].release_unread = false;
                }
                Ok((result, weight)) => {
                    let refused = self.limits.read_ahead.refuses(self.held(), weight);
                    let batch = &mut self.in_flight[at];
                    if let Some(why) = refused {
                        batch.results.push(Err(Fault::ReplyTooLong(why)));
                    } else {
                        batch.held += weight;
                        batch.results.push(result);
                    }
                }
                // `lose_process` has already failed every request still waiting; this makes sure the loop ends.
                Err(fault) => fail_waiting(&mut self.in_flight, &fault),
            }
        }
    }

    /// Reads the reply to request `id` (`text`: a `to_string`): the request's own result and the bytes it
    /// holds, or the fault that lost the process.
    fn receive(&mut self, id: u64, deadline: Deadline, handshake: bool, text: bool) -> Result<Received, Fault> {
        let Some(process) = self.process.as_mut() else {
            return Err(Fault::Startup("no running process".into()));
        };
        let line = match process.recv_line(deadline) {
            Ok(line) => line,
            Err(fault) => {
                let fault = self.classify(fault);
                return Err(self.lose_process(fault));
            }
        };
        match Reply::decode(&line) {
            Ok(reply) if reply.id == id => {
                drop(line);
                self.cpu_reported += Duration::from_micros(reply.cpu_micros);
                if !handshake {
                    self.losses_in_a_row = 0;
                }
                let reply = Reply { outcome: reply::kept(reply.outcome, text), ..reply };
                let weight = reply::weight(&reply.outcome);
                Ok((outcome_to_result(reply).map_err(|fault| self.explained(fault)), weight))
            }
            _ => Err(self.lose_process(Fault::Garbage(quote(&line)))),
        }
    }

    /// Kills the process after a fault that leaves it unusable; returns the fault for chaining. A stall is
    /// the machine's, so it does not count toward giving up on the program.
    fn lose_process(&mut self, fault: Fault) -> Fault {
        if !matches!(fault, Fault::Stalled(_)) {
            self.losses_in_a_row += 1;
        }
        self.pending_release.clear();
        // Every batch still waiting for replies went to this process: none will come.
        fail_waiting(&mut self.in_flight, &fault);
        if let Some(mut process) = self.process.take() {
            process.kill();
            self.retire(process);
        }
        fault
    }

    fn collect_output(&mut self) {
        if let Some(process) = self.process.as_mut() {
            let captured = process.take_output();
            self.append_output(captured);
        }
    }

    fn append_output(&mut self, captured: CapturedOutput) {
        self.output.append(&captured);
    }

    /// The session's fault for a process fault. A wait the machine stalled is [`Fault::Stalled`] (and counted
    /// on the meter). A program that died is read to its last words first: those of a runtime that ran out
    /// of memory, or a kill by its memory group, make the fault [`Fault::OutOfMemory`]; a kill past the
    /// grade's CPU budget says so.
    fn classify(&mut self, fault: ProcessFault) -> Fault {
        if let ProcessFault::Timeout { cause: Some(Cause::Machine(how)), .. } = &fault {
            self.meter.stalled();
            return Fault::Stalled(how.clone());
        }
        let ProcessFault::Exited { status } = fault else { return process_fault(fault) };
        let Some(process) = self.process.as_mut() else { return process_fault(fault) };
        let captured = process.take_output();
        let ended = process.ended();
        self.append_output(captured);
        if ended.out_of_memory {
            return Fault::OutOfMemory(format!("{} (the kernel ended it there)", self.group_memory_limit()));
        }
        if self.ended_by_budget(status, ended.cpu) {
            self.meter.use_up();
            return Fault::Timeout(self.meter.used_up());
        }
        let last_words = self.output.latest();
        match process::out_of_memory_message(status, &last_words) {
            Some(words) => {
                Fault::OutOfMemory(format!("{} ({})", self.memory_limit(), clip(words, reply::MESSAGE_KEEP)))
            }
            None => process_fault(fault),
        }
    }

    /// Whether the kernel ended the process at the CPU limit the grade's budget gave it: `SIGXCPU` at the
    /// limit (rounded up to whole seconds), or `SIGKILL` a second later if the program ignored that.
    fn ended_by_budget(&self, status: process::Termination, cpu: Duration) -> bool {
        let Some(limit) = self.budget_limit else { return false };
        let reached = cpu + Duration::from_millis(100) >= limit;
        matches!(status, process::Termination::Signal(libc::SIGXCPU))
            || (reached && status == process::Termination::Signal(libc::SIGKILL))
    }

    /// A fault with what the grader knows about it: a panic that is Rust's way of running out of memory is
    /// [`Fault::OutOfMemory`]; an exception of a write that hit the scratch directory's size or the file-size
    /// limit names that limit. Other faults are as they are.
    fn explained(&self, fault: Fault) -> Fault {
        match fault {
            Fault::Exception { kind, message } if DISK_FULL.iter().any(|words| message.contains(words)) => {
                let scratch = self.spec.limits.scratch.or(self.spec.limits.file_size).unwrap_or_default() >> 20;
                let message = format!(
                    "{message} (a submission may write at most {scratch} MB, in its working directory, and no \
                     file larger: `limits.scratch_mb`)"
                );
                Fault::Exception { kind, message }
            }
            Fault::Exception { kind, message } if kind == "panic" && is_capacity_overflow(&message) => {
                Fault::OutOfMemory(format!(
                    "{} (a collection asked for more than any machine has: {CAPACITY_OVERFLOW})",
                    self.memory_limit()
                ))
            }
            other => other,
        }
    }

    /// The memory limit in words, for an out-of-memory fault.
    fn memory_limit(&self) -> String {
        match self.spec.limits.address_space {
            Some(bytes) => format!("the limit is {} MB", bytes >> 20),
            None => "the limit is the one the runtime was started with".into(),
        }
    }

    /// The sandbox's memory limit in words, for a process its memory group killed.
    fn group_memory_limit(&self) -> String {
        match self.spec.limits.memory {
            Some(bytes) => {
                format!("the limit is {} MB for all its processes together, native memory included", bytes >> 20)
            }
            None => "the sandbox's memory limit".into(),
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
            self.meter.charge(process.ended().cpu);
        }
    }
}

/// A session's state before a test, for [`Session::rewind`].
#[derive(Debug)]
pub struct Checkpoint {
    output: Output,
    losses_in_a_row: u32,
}

/// A reply read: the request's own result, and the bytes it holds.
type Received = (Result<Answer, Fault>, usize);

/// The stderr a session keeps: the first half of [`OUTPUT_KEEP_BYTES`] from the start, the latest half from
/// the end, and how many bytes between them were left out. Which bytes are kept depends only on what the
/// program wrote, not on when the grader read it, so reports stay reproducible.
#[derive(Debug, Default, Clone)]
struct Output {
    head: String,
    tail: String,
    dropped: u64,
}

impl Output {
    const HALF: usize = OUTPUT_KEEP_BYTES / 2;

    fn append(&mut self, captured: &CapturedOutput) {
        self.push(&captured.text[..captured.cut_at]);
        self.dropped += captured.dropped_bytes;
        self.push(&captured.text[captured.cut_at..]);
    }

    fn push(&mut self, text: &str) {
        let room = Self::HALF.saturating_sub(self.head.len());
        let split = if text.len() <= room { text.len() } else { text.floor_char_boundary(room) };
        let (to_head, rest) = if self.tail.is_empty() && self.dropped == 0 { text.split_at(split) } else { ("", text) };
        self.head.push_str(to_head);
        if rest.is_empty() {
            return;
        }
        self.tail.push_str(rest);
        if self.tail.len() > Self::HALF {
            let cut = self.tail.ceil_char_boundary(self.tail.len() - Self::HALF);
            self.dropped += cut as u64;
            self.tail.drain(..cut);
        }
    }

    /// The last few KiB kept (where a program that died said why).
    fn latest(&self) -> String {
        const LATEST: usize = 4 << 10;
        let mut text = self.tail.clone();
        if text.len() < LATEST {
            let from = self.head.ceil_char_boundary(self.head.len().saturating_sub(LATEST - text.len()));
            text.insert_str(0, &self.head[from..]);
        }
        text
    }

    /// The text kept, and whether some was left out.
    fn into_text(self) -> (String, bool) {
        if self.dropped == 0 {
            return (self.head + &self.tail, false);
        }
        let gap = format!("\n… ({} bytes of standard error left out) …\n", self.dropped);
        (self.head + &gap + &self.tail, true)
    }
}

/// Fails every request of `batches` still waiting for its reply with `fault`.
fn fail_waiting(batches: &mut VecDeque<InFlight>, fault: &Fault) {
    for batch in batches.iter_mut().filter(|batch| !batch.is_complete()) {
        batch.release_unread = false;
        batch.results.resize(batch.len, Err(fault.clone()));
    }
}

fn outcome_to_result(reply: Reply) -> Result<Answer, Fault> {
    let cpu = Duration::from_micros(reply.cpu_micros);
    match reply.outcome {
        Outcome::Ok(values) => Ok(Answer { values, cpu }),
        Outcome::Exception { kind, message } => Err(Fault::Exception { kind, message }),
        Outcome::Unsupported(reason) => Err(Fault::Unsupported(reason)),
        Outcome::Protocol(reason) => Err(Fault::Protocol(reason)),
    }
}

/// The capability of adapters that resolve [`Handle::Reply`] references themselves.
pub const REFS: &str = "refs";

/// The capability naming the runtime's own threads (`runtime_threads=T1,T2,…`, Linux thread ids).
const RUNTIME_THREADS: &str = "runtime_threads=";

/// Whether a batch's references are still relative to the batch ([`Session::call_each`]) or already resolved.
#[derive(Clone, Copy)]
enum References {
    Rebase,
    Resolved,
}

/// `request` with its references renumbered from positions in a batch to request IDs (`base` is the ID of
/// the batch's first request).
fn rebased(request: &Request, base: u64) -> std::borrow::Cow<'_, Request> {
    if matches!(request, Request::Board { .. } | Request::BoardProbe { .. } | Request::MemoryBoard { .. }) {
        return std::borrow::Cow::Borrowed(request); // no handles, and costly to copy
    }
    let mut copy = request.clone();
    for handle in copy.handles_mut() {
        if let Handle::Reply { request, .. } = handle {
            *request += base;
        }
    }
    std::borrow::Cow::Owned(copy)
}

fn parse_hello(values: &str) -> Result<Handshake, String> {
    if values.len() > HELLO_BYTES {
        return Err(format!("the handshake's reply is longer than {HELLO_BYTES} bytes"));
    }
    let mut tokens = values.split(' ').filter(|t| !t.is_empty());
    let version = tokens.next().unwrap_or("");
    if version != VERSION.to_string() {
        return Err(format!("the program speaks protocol version `{version}`, the grader speaks {VERSION}"));
    }
    let language = tokens.next().ok_or("the handshake names no language")?.to_string();
    let capabilities: BTreeSet<String> = tokens.map(str::to_string).collect();
    let runtime_threads = capabilities
        .iter()
        .find_map(|c| c.strip_prefix(RUNTIME_THREADS))
        .map(|ids| ids.split(',').filter_map(|id| id.parse().ok()).collect())
        .unwrap_or_default();
    Ok(Handshake { language, capabilities, runtime_threads })
}

fn quote(line: &str) -> String {
    if line.len() <= QUOTE_BYTES {
        return line.to_string();
    }
    format!("{}… ({} bytes)", &line[..line.floor_char_boundary(QUOTE_BYTES)], line.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(body: &str) -> ProcessSpec {
        ProcessSpec::new("/bin/sh").args(["-c", body])
    }

    fn limits() -> SessionLimits {
        SessionLimits {
            startup: Duration::from_secs(5),
            request: Duration::from_millis(500),
            ..SessionLimits::default()
        }
    }

    const HELLO: &str = "read l; echo '0 ok 0 1 sh counters'; ";

    fn with_memory_limit(spec: ProcessSpec, mb: u64) -> ProcessSpec {
        let limits = process::ProcessLimits { address_space: Some(mb << 20), ..process::ProcessLimits::default() };
        spec.limits(limits)
    }

    #[test]
    fn an_allocation_failure_then_an_abort_is_out_of_memory_with_the_limit() {
        let body = format!("{HELLO} read l; echo 'memory allocation of 4294967296 bytes failed' >&2; kill -ABRT $$");
        let mut s = Session::new(with_memory_limit(script(&body), 1224), limits());
        let fault = s.call(&Request::Counters).unwrap_err();
        assert_eq!(
            fault.describe(),
            "ran out of memory: the limit is 1224 MB (memory allocation of 4294967296 bytes failed)"
        );
        assert!(s.take_output().0.contains("memory allocation of 4294967296 bytes failed"), "still shown");
    }

    #[test]
    fn the_same_words_then_another_crash_are_a_crash() {
        let body = format!("{HELLO} read l; echo 'memory allocation of 4294967296 bytes failed' >&2; kill -SEGV $$");
        let mut s = Session::new(with_memory_limit(script(&body), 1224), limits());
        let fault = s.call(&Request::Counters).unwrap_err();
        assert!(matches!(&fault, Fault::Crashed(what) if what.contains("SIGSEGV")), "{fault:?}");
    }

    #[test]
    fn a_capacity_overflow_panic_is_out_of_memory_and_other_panics_are_not() {
        let body = format!("{HELLO} read l; echo '1 err exception 0 panic capacity overflow (at library/alloc/src/raw_vec/mod.rs:28)'; read l; echo '2 err exception 0 panic capacity overflowing'");
        let mut s = Session::new(with_memory_limit(script(&body), 300), limits());
        let fault = s.call(&Request::Counters).unwrap_err();
        assert_eq!(
            fault.describe(),
            "ran out of memory: the limit is 300 MB (a collection asked for more than any machine has: capacity overflow)"
        );
        let other = Fault::Exception { kind: "panic".into(), message: "capacity overflowing".into() };
        assert_eq!(s.call(&Request::Counters), Err(other));
    }

    #[test]
    fn a_reply_longer_than_the_protocol_allows_is_reply_too_long() {
        let body = format!("{HELLO} read l; printf '1 ok 0 '; head -c 17000000 /dev/zero | tr '\\0' x; echo; read l");
        let mut s = Session::new(script(&body), SessionLimits { request: Duration::from_secs(5), ..limits() });
        let fault = s.call(&Request::Counters).unwrap_err();
        assert_eq!(
            fault.describe(),
            "reply too long: the program printed a line longer than 16 MiB, the protocol's limit for one reply \
             (a toString() or solution() that never ends?)"
        );
    }

    #[test]
    fn a_huge_exception_message_is_kept_by_its_start_and_end() {
        let body = format!(
            "{HELLO} read l; printf '1 err exception 0 Boom start'; head -c 5000000 /dev/zero | tr '\\0' m; \
             echo end; read l"
        );
        let mut s = Session::new(script(&body), SessionLimits { request: Duration::from_secs(5), ..limits() });
        let Err(Fault::Exception { kind, message }) = s.call(&Request::Counters) else { panic!("an exception") };
        assert_eq!(kind, "Boom");
        assert!(message.starts_with("start") && message.ends_with("mmend"), "{message:.40}");
        assert!(message.len() < reply::MESSAGE_KEEP + 64, "{}", message.len());
        assert!(message.contains(&format!("({} bytes left out)", 5_000_008 - reply::MESSAGE_KEEP)), "{message:.3000}");
    }

    #[test]
    fn a_write_past_the_scratch_space_names_its_limit() {
        let body = format!("{HELLO} read l; echo '1 err exception 0 OSError [Errno 28] No space left on device'");
        let mut s = Session::new(script(&body), limits());
        let Err(Fault::Exception { message, .. }) = s.call(&Request::Counters) else { panic!("an exception") };
        assert_eq!(
            message,
            "[Errno 28] No space left on device (a submission may write at most 64 MB, in its working directory, \
             and no file larger: `limits.scratch_mb`)"
        );
    }

    #[test]
    fn replies_read_ahead_past_the_budget_fail_with_reply_too_long() {
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; read c; \
                    for i in 1 2 3; do printf '%s ok 0 ' $i; head -c 600000 /dev/zero | tr '\\0' 7; echo; done; \
                    read d; echo '4 ok 0 small'";
        let limits = SessionLimits { read_ahead: ReadAhead { mib: 1 }, request: Duration::from_secs(5), ..limits() };
        let mut s = Session::new(script(body), limits);
        let results = s.call_each(&[Request::Counters, Request::Counters, Request::Counters]);
        assert_eq!(results[0].as_ref().map(|a| a.values.len()), Ok(600_000));
        for refused in &results[1..] {
            assert!(matches!(refused, Err(Fault::ReplyTooLong(why)) if why.contains("more than 1 MiB")), "{refused:?}");
        }
        assert_eq!(s.call(&Request::Counters).unwrap().values, "small", "the program is still the same one");
        assert_eq!(s.starts(), 1);
    }

    #[test]
    fn a_program_past_the_grades_cpu_budget_is_ended_and_told_so() {
        let meter = Arc::new(Meter::new(Some(Duration::from_secs(1))));
        let body = format!("{HELLO} read l; while :; do :; done");
        let limits = SessionLimits { request: Duration::from_secs(60), ..limits() };
        let mut s = Session::metered(script(&body), limits, Arc::clone(&meter));
        assert_eq!(s.call(&Request::Counters), Err(Fault::Timeout(meter.used_up())));
        assert!(meter.spent() >= Duration::from_secs(1), "{:?}", meter.spent());
        assert_eq!(s.call(&Request::Counters), Err(Fault::Timeout(meter.used_up())), "nothing starts past it");
        assert_eq!(s.starts(), 1);
    }

    #[test]
    fn kept_output_is_the_start_and_the_end_whenever_it_was_read() {
        let stream: String = (0..40_000).map(|i| format!("{i}\n")).collect();
        let whole = |chunks: &[usize]| {
            let mut output = Output::default();
            let mut at = 0;
            for &len in chunks {
                let capture = super::super::pipes::tests_support::capture(&stream.as_bytes()[at..at + len], 64 << 10);
                output.append(&capture);
                at += len;
            }
            output.into_text()
        };
        let len = stream.len();
        let (text, truncated) = whole(&[len]);
        assert!(truncated && text.starts_with("0\n1\n") && text.ends_with("39998\n39999\n"), "{}", &text[..40]);
        assert!(text.contains(&format!("({} bytes of standard error left out)", len - OUTPUT_KEEP_BYTES)), "{text}");
        assert_eq!(whole(&[10, 70_000, len - 70_010]), (text.clone(), true));
        assert_eq!(whole(&[40_000, 1, len - 40_001]), (text, true));
        assert_eq!(whole(&[100]), (stream[..100].to_string(), false));
    }

    #[test]
    fn handshake_reads_language_and_capabilities() {
        let mut s = Session::new(script(&format!("{HELLO} read l; echo '1 ok 7 5'")), limits());
        assert_eq!(s.handshake().unwrap().language, "sh");
        assert!(s.handshake().unwrap().capabilities.contains("counters"));
        let answer = s.call(&Request::Counters).unwrap();
        assert_eq!(answer, Answer { values: "5".into(), cpu: Duration::from_micros(7) });
    }

    #[test]
    fn garbage_fails_the_request_and_the_next_one_gets_a_fresh_process() {
        let mut s = Session::new(script(&format!("{HELLO} read l; echo 'hello there'; read l")), limits());
        assert_eq!(s.call(&Request::Counters), Err(Fault::Garbage("hello there".into())));
        assert_eq!(s.call(&Request::Counters), Err(Fault::Garbage("hello there".into())));
        assert_eq!(s.starts(), 2);
    }

    #[test]
    fn a_program_that_fails_every_time_is_given_up_on() {
        let mut s = Session::new(script(&format!("{HELLO} read l; echo junk")), limits());
        for _ in 0..MAX_LOSSES_IN_A_ROW {
            assert!(matches!(s.call(&Request::Counters), Err(Fault::Garbage(_))));
        }
        match s.call(&Request::Counters) {
            Err(Fault::Crashed(why)) => assert!(why.contains("stopped restarting"), "{why}"),
            other => panic!("{other:?}"),
        }
        assert_eq!(s.starts(), MAX_LOSSES_IN_A_ROW);
    }

    #[test]
    fn wrong_reply_id_is_garbage() {
        let mut s = Session::new(script(&format!("{HELLO} read l; echo '7 ok 0'")), limits());
        assert!(matches!(s.call(&Request::Counters), Err(Fault::Garbage(_))));
    }

    #[test]
    fn a_busy_loop_times_out_and_a_crash_is_reported() {
        let mut s = Session::new(script(&format!("{HELLO} read l; while :; do :; done")), limits());
        assert!(matches!(s.call(&Request::Counters), Err(Fault::Timeout(_))), "busy loop");
        let mut s = Session::new(script(&format!("{HELLO} read l; kill -SEGV $$")), limits());
        match s.call(&Request::Counters) {
            Err(Fault::Crashed(what)) => assert!(what.contains("SIGSEGV"), "{what}"),
            other => panic!("expected a crash, got {other:?}"),
        }
    }

    #[test]
    fn stderr_is_kept_and_exceptions_are_not_faults_of_the_process() {
        let body =
            format!("{HELLO} read l; echo debug >&2; echo '1 err exception 3 panic boom'; read l; echo '2 ok 0'");
        let mut s = Session::new(script(&body), limits());
        assert_eq!(s.call(&Request::Counters), Err(Fault::Exception { kind: "panic".into(), message: "boom".into() }));
        assert!(s.call(&Request::Counters).is_ok());
        assert_eq!(s.starts(), 1);
        s.finish();
        assert!(s.take_output().0.contains("debug"));
    }

    #[test]
    fn a_wrong_protocol_version_stops_at_startup() {
        let mut s = Session::new(script("read l; echo '0 ok 0 9 sh'"), limits());
        match s.call(&Request::Counters) {
            Err(Fault::Startup(why)) => assert!(why.contains("version `9`"), "{why}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn without_refs_the_session_substitutes_handles_and_sends_one_at_a_time() {
        let body = format!(
            "{HELLO} read l; echo '1 ok 0 b5'; read l; \
             if [ \"$l\" = '2 to_string b5' ]; then echo '2 ok 0 yes'; else echo \"2 err protocol 0 got $l\"; fi; \
             read l; echo \"3 err protocol 0 got $l\""
        );
        let mut s = Session::new(script(&body), limits());
        let requests = [
            Request::Twin(Handle::Board(1)),
            Request::ToString(Handle::Reply { request: 0, index: 0 }),
            Request::ToString(Handle::Reply { request: 0, index: 1 }),
        ];
        let results = s.call_each(&requests);
        assert_eq!(results[0].as_ref().unwrap().values, "b5");
        assert_eq!(results[1].as_ref().unwrap().values, "yes");
        match &results[2] {
            Err(Fault::Protocol(why)) => assert!(why.contains("of request 0, which returned 1"), "{why}"),
            other => panic!("a reference past the reply's handles is not sent: {other:?}"),
        }
    }

    #[test]
    fn with_refs_a_batch_is_pipelined_with_references_renumbered_to_request_ids() {
        // The program reads both requests before answering either: only a pipelined batch gets replies.
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; echo '1 ok 0 b5'; \
                    if [ \"$b\" = '2 to_string @1.0' ]; then echo '2 ok 0 yes'; else echo \"2 err protocol 0 $b\"; fi";
        let mut s = Session::new(script(body), limits());
        let requests = [Request::Twin(Handle::Board(1)), Request::ToString(Handle::Reply { request: 0, index: 0 })];
        let results = s.call_each(&requests);
        assert_eq!(results[1].as_ref().unwrap().values, "yes", "{results:?}");
    }

    #[test]
    fn batches_in_flight_keep_their_replies_when_a_call_comes_between() {
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; echo \"1 ok 0 $a\"; read b; echo \"2 ok 0 $b\"; \
                    read c; echo \"3 ok 0 $c\"";
        let mut s = Session::new(script(body), limits());
        let first = s.send_each(&[Request::Counters]);
        let second = s.send_each(&[Request::Api]);
        assert_eq!(s.call(&Request::CountersReset).unwrap().values, "3 counters_reset");
        assert_eq!(s.receive_each(first)[0].as_ref().unwrap().values, "1 counters");
        assert_eq!(s.receive_each(second)[0].as_ref().unwrap().values, "2 api");
    }

    #[test]
    fn a_lost_process_fails_every_batch_in_flight_and_batches_redeemed_out_of_order_keep_their_results() {
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; read c; echo '1 ok 0 x'; kill -KILL $$";
        let mut s = Session::new(script(body), limits());
        let first = s.send_each(&[Request::Counters, Request::Counters]);
        let second = s.send_each(&[Request::Counters]);
        let third = s.send_each(&[Request::Counters]);
        let results = s.receive_each(second);
        assert!(matches!(&results[..], [Err(Fault::Crashed(_))]), "{results:?}");
        let results = s.receive_each(first);
        assert!(matches!(&results[..], [Ok(answer), Err(Fault::Crashed(_))] if answer.values == "x"), "{results:?}");
        assert!(matches!(&s.receive_each(third)[..], [Err(Fault::Crashed(_))]));
    }

    /// A judge asking its own batch ([`Session::call_each`]) while the next group of a script is in flight
    /// (as `checks::scripted_test` does) leaves that group's replies to their owner.
    #[test]
    fn a_batch_asked_while_another_is_in_flight_leaves_it_its_replies() {
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; echo \"1 ok 0 $a\"; read b; echo \"2 ok 0 $b\"; \
                    read c; echo \"3 ok 0 $c\"";
        let mut s = Session::new(script(body), limits());
        let in_flight = s.send_each(&[Request::Counters]);
        let asked = s.call_each(&[Request::Api]);
        assert_eq!(asked[0].as_ref().unwrap().values, "2 api");
        let results = s.receive_each(in_flight);
        assert_eq!(results[0].as_ref().unwrap().values, "1 counters", "{results:?}");
        assert_eq!(s.call(&Request::CountersReset).unwrap().values, "3 counters_reset");
    }

    /// The same without `refs`: the batch is answered as it is sent, and its results wait for their owner.
    #[test]
    fn without_refs_a_batch_asked_between_a_send_and_its_receive_leaves_it_its_results() {
        let body = "read l; echo '0 ok 0 1 sh'; read a; echo \"1 ok 0 $a\"; read b; echo \"2 ok 0 $b\"";
        let mut s = Session::new(script(body), limits());
        let sent = s.send_each(&[Request::Counters]);
        assert_eq!(s.call_each(&[Request::Api])[0].as_ref().unwrap().values, "2 api");
        let results = s.receive_each(sent);
        assert_eq!(results[0].as_ref().unwrap().values, "1 counters", "{results:?}");
    }

    /// A batch that could not be sent (the program had exited) is settled at once, so the next process's
    /// handshake is not read as the reply to a release that rode along with it. (The pause makes the failed
    /// send likely; the assertion holds either way.)
    #[test]
    fn a_batch_that_cannot_be_sent_does_not_disturb_the_next_process() {
        let mut s = Session::new(script("read l; echo '0 ok 0 1 sh refs'; exit 0"), limits());
        s.handshake().unwrap();
        std::thread::sleep(Duration::from_millis(300));
        s.pending_release.extend((0..300).map(Handle::Board));
        let long: Vec<Request> = (0..5000).map(|_| Request::Counters).collect();
        let _abandoned = s.send_each(&long);
        assert!(s.handshake().is_ok());
    }

    /// A batch nobody redeemed (a test that stopped early) is read before the next call is sent: the crash it
    /// meets is its own, and the call goes to a fresh process.
    #[test]
    fn a_crash_in_an_abandoned_batch_does_not_fail_the_next_call() {
        let marker = tempfile::tempdir().unwrap();
        // the program runs as a uid of its own
        std::fs::set_permissions(marker.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
        let m = marker.path().join("started");
        let m = m.display();
        let body = format!(
            "if [ -e {m} ]; then read l; echo '0 ok 0 1 sh refs'; read a; id=${{a%% *}}; echo \"$id ok 0 fine\"; read z; \
             else touch {m}; read l; echo '0 ok 0 1 sh refs'; read a; read b; echo '1 ok 0 x'; kill -KILL $$; fi"
        );
        let mut s = Session::new(script(&body).writable(marker.path()), limits());
        let _abandoned = s.send_each(&[Request::Counters, Request::Counters]);
        assert_eq!(s.call(&Request::Api).unwrap().values, "fine");
    }

    /// Replies already in the pipe are read before a failed send loses the process. (The pause makes the
    /// failed send likely; the assertion holds either way.)
    #[test]
    fn a_failed_send_keeps_the_replies_already_written() {
        let mut s = Session::new(script("read l; echo '0 ok 0 1 sh refs'; read a; echo '1 ok 0 x'; exit 0"), limits());
        let first = s.send_each(&[Request::Counters]);
        std::thread::sleep(Duration::from_millis(300));
        let long: Vec<Request> = (0..5000).map(|_| Request::Counters).collect();
        let second = s.send_each(&long);
        assert_eq!(s.receive_each(first)[0].as_ref().unwrap().values, "x");
        assert!(s.receive_each(second).iter().all(Result::is_err));
    }

    #[test]
    fn a_released_handle_rides_along_with_the_next_request() {
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; \
                    if [ \"$a\" = '1 release b5' ]; then echo '1 ok 0'; else echo \"1 err protocol 0 $a\"; fi; \
                    echo \"2 ok 0 $b\"";
        let mut s = Session::new(script(body), limits());
        s.handshake().unwrap();
        s.pending_release.push(Handle::Board(5));
        assert_eq!(s.call(&Request::Counters).unwrap().values, "2 counters");
        assert!(s.pending_release.is_empty());
    }

    #[test]
    fn the_handshake_may_name_the_runtime_threads() {
        let hello = parse_hello("1 java refs runtime_threads=4242,17,x,9 memory").unwrap();
        assert_eq!(hello.runtime_threads, [4242, 17, 9]);
        assert!(hello.capabilities.contains("memory"));
        assert!(parse_hello("1 rust refs").unwrap().runtime_threads.is_empty());
        assert!(parse_hello("1 python request_thread=12").unwrap().runtime_threads.is_empty(), "no other token");
    }

    #[test]
    fn a_lost_process_fails_the_rest_of_the_batch() {
        let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; read c; echo '1 ok 0 b5'; kill -KILL $$";
        let mut s = Session::new(script(body), limits());
        let requests = [Request::Twin(Handle::Board(1)), Request::Counters, Request::Counters];
        let results = s.call_each(&requests);
        assert!(results[0].is_ok());
        assert!(matches!((&results[1], &results[2]), (Err(Fault::Crashed(_)), Err(Fault::Crashed(_)))), "{results:?}");
    }
}
