//! A conversation with one submission program, in the protocol of `specs/protocol.md`.
//!
//! The session owns the running process and replaces it when it dies: a timeout, a crash, or garbage on the
//! protocol channel fails the request in flight (returned as a [`Fault`]), the process group is killed, and
//! the next request starts a fresh process with a new handshake. Callers never see a dead process, only
//! faults attached to the requests that met them.

use std::collections::BTreeSet;
use std::time::Duration;

use reference::protocol::{Outcome, Reply, Request, VERSION};

use super::process::{Deadline, ProcessFault, ProcessSpec, SubmissionProcess, TimeoutKind};

/// Why a request did not come back `ok`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// The submission's code threw or panicked.
    Exception {
        /// The exception type (`panic` in Rust).
        kind: String,
        /// Its message.
        message: String,
    },
    /// The submission's language cannot express the request.
    Unsupported(String),
    /// The adapter rejected the request as malformed: the grader's or the adapter's fault.
    Protocol(String),
    /// The program ran out of time on this request.
    Timeout(String),
    /// The program ended (crashed, exited, closed its output).
    Crashed(String),
    /// The program wrote something that is not a reply to this request.
    Garbage(String),
    /// The program could not be started or did not complete the handshake.
    Startup(String),
}

impl Fault {
    /// A one-line, student-readable description.
    pub fn describe(&self) -> String {
        match self {
            Fault::Exception { kind, message } if message.is_empty() => format!("threw {kind}"),
            Fault::Exception { kind, message } => format!("threw {kind}: {message}"),
            Fault::Unsupported(reason) => format!("not expressible in this language: {reason}"),
            Fault::Protocol(reason) => format!("protocol error (a grader or adapter fault, not yours): {reason}"),
            Fault::Timeout(what) => what.clone(),
            Fault::Crashed(what) => format!("crashed: {what}"),
            Fault::Garbage(line) => format!("garbage on the protocol channel: `{line}`"),
            Fault::Startup(what) => format!("could not start the submission: {what}"),
        }
    }
}

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
    /// Announced capabilities.
    pub capabilities: BTreeSet<String>,
}

/// Time limits for requests.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    /// CPU allowed for the handshake (a JVM starting up needs more).
    pub startup: Duration,
    /// CPU allowed for any single request, unless the caller gives its own.
    pub request: Duration,
}

/// A conversation with a submission program, restarted on demand.
pub struct Session {
    spec: ProcessSpec,
    limits: SessionLimits,
    process: Option<SubmissionProcess>,
    next_id: u64,
    handshake: Option<Handshake>,
    output: String,
    output_truncated: bool,
    starts: u32,
    cpu_reported: Duration,
    losses_in_a_row: u32,
    /// Handles to release with the next batch (see `ask::release`); dropped when the process is lost.
    pub(crate) pending_release: Vec<reference::protocol::Handle>,
}

/// After this many processes lost in a row (no successful reply in between), the session stops restarting
/// the program: every later request fails at once, so a program that hangs on everything cannot cost a
/// wall-clock cap per test.
pub const MAX_LOSSES_IN_A_ROW: u32 = 3;

/// The most stderr text kept per session before it is cut.
const OUTPUT_KEEP_BYTES: usize = 64 * 1024;
/// The longest garbage line quoted back.
const QUOTE_BYTES: usize = 120;

impl Session {
    /// A session that will start `spec` on the first request.
    pub fn new(spec: ProcessSpec, limits: SessionLimits) -> Session {
        Session {
            spec,
            limits,
            process: None,
            next_id: 0,
            handshake: None,
            output: String::new(),
            output_truncated: false,
            starts: 0,
            cpu_reported: Duration::ZERO,
            losses_in_a_row: 0,
            pending_release: Vec::new(),
        }
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
        self.ensure_started()?;
        let reply = self.exchange(request, Deadline::from_cpu(cpu));
        self.collect_output();
        reply
    }

    /// Everything the program wrote to stderr so far (bounded), and whether some was cut.
    pub fn take_output(&mut self) -> (String, bool) {
        self.collect_output();
        let truncated = std::mem::take(&mut self.output_truncated);
        (std::mem::take(&mut self.output), truncated)
    }

    /// Ends the conversation politely (`bye`), then kills whatever is left.
    pub fn finish(&mut self) {
        if self.process.is_some() {
            let _ = self.exchange(&Request::Bye, Deadline::from_cpu(Duration::from_secs(1)));
        }
        if let Some(mut process) = self.process.take() {
            let _ = process.wait_exit(Duration::from_secs(2));
        }
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
        let process = SubmissionProcess::spawn(&self.spec)
            .map_err(|e| Fault::Startup(format!("failed to run `{}`: {e}", self.spec.program.display())))?;
        self.process = Some(process);
        self.starts += 1;
        self.next_id = 0;
        let answer = self.exchange(&Request::Hello { version: VERSION }, Deadline::from_cpu(self.limits.startup));
        self.collect_output();
        let answer = answer.map_err(|fault| Fault::Startup(format!("the handshake failed: {}", fault.describe())))?;
        let handshake = parse_hello(&answer.values).map_err(Fault::Startup)?;
        self.handshake = Some(handshake);
        Ok(())
    }

    fn exchange(&mut self, request: &Request, deadline: Deadline) -> Result<Answer, Fault> {
        let id = self.next_id;
        self.next_id += 1;
        let process = self.process.as_mut().ok_or_else(|| Fault::Startup("no running process".into()))?;
        let received = process.send_line(&request.encode(id)).and_then(|()| process.recv_line(deadline));
        let line = match received {
            Ok(line) => line,
            Err(fault) => return Err(self.lose_process(process_fault(fault))),
        };
        match Reply::decode(&line) {
            Ok(reply) if reply.id == id => {
                self.cpu_reported += Duration::from_micros(reply.cpu_micros);
                if !matches!(request, Request::Hello { .. }) {
                    self.losses_in_a_row = 0;
                }
                Ok(outcome_to_result(reply)?)
            }
            _ => Err(self.lose_process(Fault::Garbage(quote(&line)))),
        }
    }

    /// Kills the process after a fault that leaves it unusable; returns the fault for chaining.
    fn lose_process(&mut self, fault: Fault) -> Fault {
        self.losses_in_a_row += 1;
        self.pending_release.clear();
        if let Some(mut process) = self.process.take() {
            process.kill();
            self.append_output(process.take_output());
        }
        fault
    }

    fn collect_output(&mut self) {
        if let Some(process) = self.process.as_mut() {
            let captured = process.take_output();
            self.append_output(captured);
        }
    }

    fn append_output(&mut self, captured: super::process::CapturedOutput) {
        self.output_truncated |= captured.truncated;
        let room = OUTPUT_KEEP_BYTES.saturating_sub(self.output.len());
        if captured.text.len() > room {
            self.output_truncated = true;
            let mut cut = room;
            while !captured.text.is_char_boundary(cut) {
                cut -= 1;
            }
            self.output.push_str(&captured.text[..cut]);
        } else {
            self.output.push_str(&captured.text);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
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

fn process_fault(fault: ProcessFault) -> Fault {
    match fault {
        // Built from the limit alone: the measured times vary from run to run, and reports must not.
        ProcessFault::Timeout { kind: TimeoutKind::Cpu, limit, .. } => Fault::Timeout(format!(
            "timed out: the program used more than {:.2} s of CPU time without answering",
            limit.cpu.as_secs_f64()
        )),
        ProcessFault::Timeout { kind: TimeoutKind::Wall, limit, .. } => {
            Fault::Timeout(format!("timed out: the program did not answer within {:.2} s", limit.wall.as_secs_f64()))
        }
        ProcessFault::LineTooLong { .. } => Fault::Garbage(fault.to_string()),
        other => Fault::Crashed(other.to_string()),
    }
}

fn parse_hello(values: &str) -> Result<Handshake, String> {
    let mut tokens = values.split(' ').filter(|t| !t.is_empty());
    let version = tokens.next().unwrap_or("");
    if version != VERSION.to_string() {
        return Err(format!("the program speaks protocol version `{version}`, the grader speaks {VERSION}"));
    }
    let language = tokens.next().ok_or("the handshake names no language")?.to_string();
    Ok(Handshake { language, capabilities: tokens.map(str::to_string).collect() })
}

fn quote(line: &str) -> String {
    if line.len() <= QUOTE_BYTES {
        return line.to_string();
    }
    let mut cut = QUOTE_BYTES;
    while !line.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}… ({} bytes)", &line[..cut], line.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(body: &str) -> ProcessSpec {
        ProcessSpec::new("/bin/sh").args(["-c", body])
    }

    fn limits() -> SessionLimits {
        SessionLimits { startup: Duration::from_secs(5), request: Duration::from_millis(500) }
    }

    const HELLO: &str = "read l; echo '0 ok 0 1 sh counters'; ";

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
}
