//! A Solver's life: its constructor, then each of its methods once, in the order a test asks for them, and
//! only then its operation counts.
//!
//! Counts and CPU time are the grade's evidence, and a Solver may put its work off until one of its methods is
//! first called (a search run lazily by moves()). Counts read right after the constructor would charge such a
//! Solver for a token search. So every Solver a test judges lives its whole life before the counters are
//! read: constructor, moves(), solution(), isSolvable(), one CPU budget for all of it.
//!
//! A test is judged on the calls its official counterpart makes ([`SolverCall`], written in the catalog):
//! they come first, in the test's order. The other methods follow only to charge work done lazily; their
//! answers, exceptions and time-outs never fail a test that does not call them (only the counts, which a
//! life whose later call never returned cannot give). The grader reads the solution's boards (through
//! toString()) after the counters, so its own reading is never charged.
//!
//! A life can also measure the Solver's deep memory ([`Asks::solver_memory`]): right after the constructor
//! (`memory_solver` builds it) and once its methods have all been called (`memory_retained`, after the
//! counters). So a puzzle's counts, queues and Solver memory come from one Solver, the first of that puzzle
//! in its process when the run lives the judged lives first (`grade::run`).

use std::time::Duration;

use npuzzle_harness::protocol::{decode_call_sites, decode_counters, CallSites, Handle, Request, World};
use reference::Board;

use super::ask::{self, Asked, Failure};
use super::session::{Answer, Fault, Session};
use crate::catalog::SolverCall;
use crate::judge::Mismatch;

/// The least CPU the calls after the constructor may use, however much of the budget the constructor took:
/// a method that returns a stored answer needs microseconds, but the CPU clock ticks in 10 ms.
const LEAST_FOR_CALLS: Duration = Duration::from_millis(100);

/// Whether a life's operations are counted, and whether reading the counters also measures the queues' deep
/// memory (an adapter announcing `counters_deep` walks the queues only when asked: `counters deep`; only the
/// queue-memory test needs it, and the walk can visit over a million objects).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Counted {
    /// Not counted (the own world, the re-run check).
    #[default]
    No,
    /// The operation counts.
    Counts,
    /// The counts and the queues' deep memory.
    WithDeepMemory,
}

/// What a life asks of the adapter besides the Solver's answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Asks {
    /// Whether its operations are counted (and the queues' deep memory measured).
    pub counting: Counted,
    /// Whether the adapter samples where the counted operations come from (`counters_reset sites`, then
    /// `call_sites`); only a counted life samples.
    pub sampled: bool,
    /// Whether the Solver's deep memory is measured after its constructor and after its calls (the adapter
    /// must announce `memory`).
    pub solver_memory: bool,
    /// Whether the queues' heap order is checked (`counters_reset heap`, to an adapter announcing
    /// `counters_heap`); only a counted life that is not sampled asks.
    pub heap_order: bool,
}

/// A Solver's deep memory, as a life measured it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolverBytes {
    /// Right after the constructor returned.
    pub constructed: u64,
    /// Once moves(), isSolvable() and solution() had all been called, less what only the returned solution
    /// holds; `None` when that measurement failed (a method that never returned).
    pub after_calls: Option<u64>,
    /// The second reading, taken with `after_calls`, where the adapter reports one.
    pub kept: Option<Kept>,
}

/// The second reading of a Solver's memory (`memory_retained`'s second and third values): what the whole
/// process held once the Solver's methods had all been called, beyond what it held before any of the
/// submission's code ran (after a full collection where the runtime collects), wherever it is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kept {
    /// Every byte held beyond that baseline, native buffers included.
    pub bytes: u64,
    /// The part of it held off the runtime's heap (Java's direct and mapped buffers).
    pub off_heap: u64,
}

impl SolverBytes {
    /// Reads `memory_retained`'s reply (`BYTES [KEPT OFF_HEAP]`) into `after_calls` and `kept`; a reply that
    /// does not read leaves both unknown.
    fn after_calls_from(&mut self, reply: &str) {
        let values: Vec<Option<u64>> = reply.split_whitespace().map(|v| v.parse().ok()).collect();
        match values.as_slice() {
            [Some(bytes)] => self.after_calls = Some(*bytes),
            [Some(bytes), Some(kept), Some(off_heap)] if off_heap <= kept => {
                self.after_calls = Some(*bytes);
                self.kept = Some(Kept { bytes: *kept, off_heap: *off_heap });
            }
            _ => {}
        }
    }
}

/// What one Solver answered over its life, and what it was charged.
#[derive(Debug, Clone)]
pub struct Life {
    /// The order its methods were called in: the test's own calls first.
    pub order: [SolverCall; 3],
    moves: Asked<i64>,
    solvable: Asked<bool>,
    solution: Asked<Option<Vec<Board>>>,
    counters: Asked<Vec<(String, u64)>>,
    /// Where in the student's code the counted operations came from, sampled (`call_sites`), when the
    /// adapter samples and the life was counted.
    sites: Option<CallSites>,
    /// The Solver's deep memory, when the life measured it.
    pub solver_bytes: Option<SolverBytes>,
    /// CPU charged from the constructor's start to the last call's end; `None` when it could not be
    /// measured (the program was lost on the way).
    pub cpu: Option<Duration>,
}

impl Life {
    /// Builds `board` in `world`, constructs a Solver for it within `budget` of CPU, calls its methods in the
    /// order `calls` then [`SolverCall::REST`] give (within what is left of `budget`), and reads the counters
    /// (zeroed after the grader built the board), where they came from and the Solver's memory as `asks`
    /// says. What the adapter spends measuring (counters, call sites, memory walks) is not the Solver's CPU.
    pub fn live(
        s: &mut Session,
        world: World,
        board: &Board,
        calls: &[SolverCall],
        budget: Duration,
        asks: Asks,
    ) -> Life {
        let counted = asks.counting != Counted::No;
        let sampled = counted && asks.sampled;
        let order = SolverCall::life(calls);
        let reset = match (sampled, asks.heap_order) {
            (true, _) => Request::CountersResetSites,
            (false, true) => Request::CountersResetHeap,
            (false, false) => Request::CountersReset,
        };
        let built =
            if counted { built_with_counters_zeroed(s, world, board, reset) } else { ask::build(s, world, board) };
        let b = match built {
            Ok(b) => b,
            Err(failure) => return Life::unborn(order, failure),
        };
        let starts = s.starts();
        let before = s.charged_cpu();
        let constructed = construct(s, b, budget, asks.solver_memory);
        let (solver, constructed_bytes, measuring) = match constructed {
            Ok(constructed) => constructed,
            Err(failure) => {
                ask::release(s, vec![b]);
                return Life::unborn(order, failure);
            }
        };
        let spent = elapsed(s, starts, before).unwrap_or(budget);
        let mut requests: Vec<Request> = order.iter().map(|call| call.request(solver)).collect();
        let mut answers = s.call_each_within(&requests, budget.saturating_sub(spent).max(LEAST_FOR_CALLS));
        let cpu = elapsed(s, starts, before);
        // The grader's own readings after the calls: the counts (a walk over the queues' deep memory when
        // asked), where they came from, the Solver's memory. They are the adapter's work, not the Solver's,
        // so they have the session's own limit for a request, never what the Solver left of its budget (a
        // constructor that took 1.95 s of 2 s left 0.1 s, and a `counters` over a large search could pass it:
        // its counts, and the boards of its solution, were lost for the grader's reading). Asked only of the
        // program that answered the calls: a new one would count nothing of this Solver's.
        let mut readings: Vec<Request> = Vec::new();
        match asks.counting {
            Counted::No => {}
            Counted::Counts => readings.push(Request::Counters),
            Counted::WithDeepMemory => readings.push(Request::CountersDeep),
        }
        if sampled {
            readings.push(Request::CallSites);
        }
        if asks.solver_memory {
            readings.push(Request::MemoryRetained(solver));
        }
        // The solution's boards: their handles decoded once, here, and read back (toString()) in the batch of
        // the readings, after them: the grader's own calls, never charged, and one round trip a life fewer.
        let handles = solution_answer(&order, &requests, &answers)
            .map_or_else(|| Err(not_called()), |(request, answer)| ask::solution_handles(request, answer));
        let reads = match &handles {
            Ok(Some(hs)) => ask::text_requests(hs),
            _ => Vec::new(),
        };
        let mut texts = None;
        match first_loss(&answers) {
            None if readings.is_empty() && reads.is_empty() => {}
            None if s.runs() && s.starts() == starts => {
                let mut read = s.call_each(&[readings.as_slice(), reads.as_slice()].concat());
                texts = Some(read.split_off(readings.len()));
                answers.extend(read);
            }
            lost => {
                let fault = lost.map_or_else(|| Fault::Crashed("the program ended".into()), |(_, fault)| fault);
                answers.extend(readings.iter().map(|_| Err(fault.clone())));
            }
        }
        requests.extend(readings);
        // the first request of the whole script that lost the program: the solution's boards were in it
        let lost = first_loss(&answers);
        // The adapter's own work is not the Solver's: walking the Solver after its constructor, and the
        // sampling itself while the Solver ran, come off the life's CPU; the readings came after it was
        // measured (their CPU is the adapter's counting, for the timings' summary).
        let reading: Duration =
            answers.iter().skip(order.len()).filter_map(|a| a.as_ref().ok()).map(|a| a.cpu).sum::<Duration>();
        // `memory_retained` came last (one answer a request: the reads' answers are in `texts`)
        debug_assert_eq!(answers.len(), requests.len());
        let after_calls = match asks.solver_memory {
            true => answers.pop().and_then(Result::ok),
            false => None,
        };
        let solution = SolutionRead { handles, texts };
        let mut life = Life::from_answers(s, order, &requests, answers, lost, counted, solution);
        life.solver_bytes = constructed_bytes.map(|constructed| {
            let mut bytes = SolverBytes { constructed, after_calls: None, kept: None };
            if let Some(answer) = &after_calls {
                bytes.after_calls_from(&answer.values);
            }
            bytes
        });
        let sampling = Duration::from_nanos(life.sites.as_ref().map_or(0, |s| s.sampling_cpu_ns));
        s.add_counting(reading + measuring + sampling);
        life.cpu = cpu.map(|cpu| cpu.saturating_sub(measuring + sampling));
        ask::release(s, vec![b, solver]);
        life
    }

    /// A life whose Solver was never constructed (or whose board was not built): every answer is `failure`.
    fn unborn(order: [SolverCall; 3], failure: Failure) -> Life {
        Life {
            order,
            moves: Err(failure.clone()),
            solvable: Err(failure.clone()),
            solution: Err(failure.clone()),
            counters: Err(failure),
            sites: None,
            solver_bytes: None,
            cpu: None,
        }
    }

    /// Reads the answers to the calls (in `order`) and to `counters`, then the solution's boards (`read`)
    /// unless `lost` (the position of the request that lost the program, and how) says they went with it.
    /// The life's CPU is the caller's to set.
    fn from_answers(
        s: &mut Session,
        order: [SolverCall; 3],
        requests: &[Request],
        answers: Vec<Result<Answer, Fault>>,
        lost: Option<(usize, Fault)>,
        counted: bool,
        read: SolutionRead,
    ) -> Life {
        let mut life = Life {
            order,
            moves: Err(not_called()),
            solvable: Err(not_called()),
            solution: Err(not_called()),
            counters: Err(Fault::Unsupported("the adapter does not report counters".into()).into()),
            sites: None,
            solver_bytes: None,
            cpu: None,
        };
        // the call that lost the program, if one did (the readings after the calls go only to the program
        // that answered them all)
        let lost_by_a_call = lost.as_ref().and_then(|(at, fault)| order.get(*at).map(|call| (*call, fault)));
        let mut answers = answers.into_iter();
        let mut solution = Err(not_called());
        for (call, request) in order.iter().zip(requests) {
            let answer = answers.next().unwrap_or_else(|| Err(Fault::Crashed("no reply".into())));
            match call {
                SolverCall::Moves => life.moves = answer.map_err(Failure::from).and_then(|a| ask::int_of(request, &a)),
                SolverCall::IsSolvable => {
                    life.solvable = answer.map_err(Failure::from).and_then(|a| ask::boolean_of(request, &a))
                }
                SolverCall::Solution => solution = answer.map(drop).map_err(Failure::from),
            }
        }
        if counted {
            let answer = answers.next().unwrap_or_else(|| Err(Fault::Crashed("no reply".into())));
            life.counters = match lost_by_a_call {
                Some((call, fault)) => Err(uncounted(call, calls_before(&order, call), fault)),
                None => answer.map_err(Failure::from).and_then(|a| {
                    decode_counters(&a.values)
                        .map_err(|e| Failure::Wrong(Mismatch::new(format!("`counters` answered badly: {e}"))))
                }),
            };
            // Where the operations came from: an aid to the message, never a verdict of its own.
            let sites = answers.next().and_then(Result::ok).and_then(|a| decode_call_sites(&a.values).ok());
            life.sites = sites.filter(|_| life.counters.is_ok());
        }
        // The solution's boards, read after the counters (the grader's toString() calls are its own). Not
        // once the program is lost: the boards' handles were its own, and asking a new process for them
        // would be a request the grader got wrong (or, were the numbers reused, another board's text).
        life.solution = solution.and_then(|()| match &lost {
            Some((at, fault)) => Err(unread(requests[*at].verb(), fault)),
            None => ask::solution_boards(s, read.handles, read.texts),
        });
        life
    }

    /// moves(), as the Solver answered it.
    pub fn moves(&self) -> Asked<i64> {
        self.moves.clone()
    }

    /// isSolvable(), as the Solver answered it.
    pub fn is_solvable(&self) -> Asked<bool> {
        self.solvable.clone()
    }

    /// solution(), read back as boards; `None` for null.
    pub fn solution(&self) -> Asked<Option<Vec<Board>>> {
        self.solution.clone()
    }

    /// What a method answered, for a message, whether or not the test judges it: the value, or what went
    /// wrong.
    pub fn shown(&self, call: SolverCall) -> String {
        let fault = |f: &Failure| match f {
            Failure::Fault(fault) => fault.describe(),
            Failure::Wrong(m) => m.summary.clone(),
        };
        match call {
            SolverCall::Moves => self.moves.as_ref().map_or_else(fault, i64::to_string),
            SolverCall::IsSolvable => self.solvable.as_ref().map_or_else(fault, bool::to_string),
            SolverCall::Solution => self.solution.as_ref().map_or_else(fault, |s| match s {
                None => "null".into(),
                Some(boards) => format!("{} boards", boards.len()),
            }),
        }
    }

    /// The counters after the whole life, or why there are none: the Solver was not constructed, a method
    /// called after the test's own never returned (so its work went uncounted), or the adapter does not
    /// count.
    pub fn counters(&self) -> Asked<&[(String, u64)]> {
        self.counters.as_deref().map_err(Clone::clone)
    }

    /// A counter's value, if the adapter reported it (and the life was counted).
    pub fn counter(&self, name: &str) -> Option<u64> {
        self.counters.as_ref().ok()?.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// The student's lines a counter's operations came from, most sampled first, each with its share of the
    /// samples; empty when the adapter does not sample.
    pub fn sites_of(&self, counter: &str) -> Vec<(String, f64)> {
        let Some(sites) = &self.sites else { return vec![] };
        let mut mine: Vec<_> = sites.sites.iter().filter(|s| s.counter == counter).collect();
        let total: u64 = mine.iter().map(|s| s.samples).sum();
        mine.sort_by(|a, b| b.samples.cmp(&a.samples).then_with(|| a.site.cmp(&b.site)));
        mine.into_iter().map(|s| (s.site.clone(), s.samples as f64 / total as f64)).collect()
    }

    /// A counter the check cannot do without: its absence makes the check not applicable; a life that could
    /// not be counted fails it.
    pub fn required(&self, name: &str) -> Asked<u64> {
        let counters = self.counters()?;
        counters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| Fault::Unsupported(format!("the adapter does not report `{name}`")).into())
    }
}

impl SolverCall {
    /// The request that makes this call on `solver`.
    fn request(self, solver: Handle) -> Request {
        match self {
            SolverCall::Moves => Request::Moves(solver),
            SolverCall::IsSolvable => Request::IsSolvable(solver),
            SolverCall::Solution => Request::Solution(solver),
        }
    }
}

/// Constructs the Solver for board `b` within `budget`: its handle and, when `measured` (`memory_solver`), its
/// deep memory right after the constructor and the CPU the adapter spent measuring it (the reply's third
/// value, in microseconds; an adapter whose measurement costs nothing may leave it out).
fn construct(s: &mut Session, b: Handle, budget: Duration, measured: bool) -> Asked<(Handle, Option<u64>, Duration)> {
    let request = if measured { Request::MemorySolver(b) } else { Request::Solver(b) };
    let answer = s.call_within(&request, budget)?;
    if !measured {
        return Ok((ask::handle_of(&request, &answer)?, None, Duration::ZERO));
    }
    let mut values = answer.values.split_whitespace();
    let handle = values.next().and_then(|h| h.parse().ok());
    let bytes = values.next().and_then(|b| b.parse().ok());
    let measuring = values.next().map(|us| us.parse::<u64>().ok());
    match (handle, bytes, measuring) {
        (Some(handle), Some(bytes), None | Some(Some(_))) => {
            let micros = measuring.flatten().unwrap_or(0);
            Ok((handle, Some(bytes), Duration::from_micros(micros).min(answer.cpu)))
        }
        _ => Err(Failure::Wrong(Mismatch::new(format!("`memory_solver` answered `{}`", answer.values)))),
    }
}

/// Builds `board`, then zeroes the counters with `reset` (which also says whether the adapter samples call
/// sites or checks heap order until the next reset), with one batch: the grader's own construction is not
/// counted.
fn built_with_counters_zeroed(s: &mut Session, world: World, board: &Board, reset: Request) -> Asked<Handle> {
    let build = Request::Board { world, tiles: ask::tiles_of(board) };
    let answers = s.call_all(&[build.clone(), reset])?;
    ask::handle_of(&build, &answers[0])
}

/// A life's solution, as far as it was read with the readings: the handles its answer named (`None` for
/// null), and the answers to the `toString()` requests of those handles once they were made.
struct SolutionRead {
    handles: Asked<Option<Vec<Handle>>>,
    texts: Option<Vec<Result<Answer, Fault>>>,
}

/// The `solution` call's request and answer, if the life called it and it answered.
fn solution_answer<'a>(
    order: &[SolverCall; 3],
    requests: &'a [Request],
    answers: &'a [Result<Answer, Fault>],
) -> Option<(&'a Request, &'a Answer)> {
    let at = order.iter().position(|call| *call == SolverCall::Solution)?;
    Some((requests.get(at)?, answers.get(at)?.as_ref().ok()?))
}

/// CPU charged to the program since `before`, if it is still the process that was running then.
fn elapsed(s: &Session, starts: u32, before: Option<Duration>) -> Option<Duration> {
    let (now, before) = (s.charged_cpu()?, before?);
    (s.starts() == starts).then(|| now.saturating_sub(before))
}

/// The first of `answers` whose fault lost the program, with its position.
fn first_loss(answers: &[Result<Answer, Fault>]) -> Option<(usize, Fault)> {
    answers.iter().enumerate().find_map(|(at, answer)| match answer {
        Err(fault) if loses_the_program(fault) => Some((at, fault.clone())),
        _ => None,
    })
}

/// Whether a fault ends the program (the session starts a fresh one): the calls after it were never made.
fn loses_the_program(fault: &Fault) -> bool {
    !matches!(fault, Fault::Exception { .. } | Fault::Unsupported(_) | Fault::Protocol(_))
}

/// The calls made before `call` in `order`.
fn calls_before(order: &[SolverCall; 3], call: SolverCall) -> Vec<SolverCall> {
    order.iter().copied().take_while(|c| *c != call).collect()
}

/// Why a solution() that answered cannot be judged: its boards were in the program, which the request `verb`
/// (a method called after it in the same life, which shares one CPU budget with the constructor, or the
/// grader's reading of the counts or memory after them) lost before they were read.
fn unread(verb: &str, fault: &Fault) -> Failure {
    let what = match verb {
        "moves" => "moves(), called after it,".to_string(),
        "is_solvable" => "isSolvable(), called after it,".to_string(),
        "solution" => "solution() itself".to_string(),
        other => format!("the program, asked `{other}` after the Solver's methods,"),
    };
    Failure::Wrong(
        Mismatch::new(format!(
            "solution() answered, but its boards could not be read: {what} did not return: {}",
            fault.describe()
        ))
        .with("(the constructor and every method share one CPU limit; every method of a Solver must return promptly once the constructor has found the solution)"),
    )
}

/// Why a life's counts are missing: `call`, made after `before` so that work put off until then is counted
/// too, never returned.
fn uncounted(call: SolverCall, before: Vec<SolverCall>, fault: &Fault) -> Failure {
    let after = if before.is_empty() {
        "right after the constructor".to_string()
    } else {
        format!("after {}", before.iter().map(|c| c.name()).collect::<Vec<_>>().join(" and "))
    };
    Failure::Wrong(
        Mismatch::new(format!(
            "the Solver's work could not be counted: {}, called {after} so that work a Solver puts off is counted \
             too, did not return: {}",
            call.name(),
            fault.describe()
        ))
        .with("(every method of a Solver must return promptly once the constructor has found the solution)"),
    )
}

/// A method the life never called: only a test that judges a call it did not list can see this (a grader
/// bug).
fn not_called() -> Failure {
    Fault::Protocol("the test judged a Solver method it does not call (a grader bug)".into()).into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::process::ProcessSpec;
    use crate::runner::session::SessionLimits;

    /// A program that answers the handshake, then the lines of `replies` in turn, one per request.
    fn program(replies: &[&str]) -> Session {
        let mut body = String::from("read l; echo '0 ok 0 1 sh counters'; ");
        for reply in replies {
            body.push_str(&format!("read l; {reply}; "));
        }
        body.push_str("while read l; do :; done");
        let limits = SessionLimits {
            startup: Duration::from_secs(5),
            request: Duration::from_secs(5),
            ..SessionLimits::default()
        };
        Session::new(ProcessSpec::new("/bin/sh").args(["-c", &body]), limits)
    }

    fn board() -> Board {
        Board::from_row_major(2, &[1, 2, 0, 3]).unwrap()
    }

    /// The life of [`board`]'s Solver in the `ref` world, counted (and its call sites sampled if `sampled`).
    fn counted_life(s: &mut Session, calls: &[SolverCall], budget: Duration, sampled: bool) -> Life {
        Life::live(
            s,
            World::Ref,
            &board(),
            calls,
            budget,
            Asks { counting: Counted::Counts, sampled, ..Asks::default() },
        )
    }

    #[test]
    fn the_tests_own_calls_come_first_and_the_counts_come_after_every_method() {
        let mut s = program(&[
            "echo '1 ok 0 b1'",
            "echo '2 ok 0'",
            "echo '3 ok 0 s2'",
            "echo '4 ok 0 true'",
            "echo '5 ok 0 1'",
            "echo '6 err exception 0 java.lang.NullPointerException oops'",
            "echo '7 ok 0 pq_inserts=5 pq_del_mins=2'",
        ]);
        let life = counted_life(&mut s, &[SolverCall::IsSolvable], Duration::from_secs(2), false);
        assert_eq!(life.order, [SolverCall::IsSolvable, SolverCall::Moves, SolverCall::Solution]);
        assert!(matches!(life.is_solvable(), Ok(true)));
        assert!(matches!(life.moves(), Ok(1)));
        assert!(matches!(life.solution(), Err(Failure::Fault(Fault::Exception { .. }))));
        assert_eq!(life.required("pq_inserts").ok(), Some(5), "the counts are read after every method");
        assert_eq!(life.shown(SolverCall::Solution), "threw java.lang.NullPointerException: oops");
        assert!(life.cpu.is_some());
    }

    /// The reset that starts a counted life says what the adapter does until the next one: a sampled life asks
    /// for call sites, a judged life that a heap-order test reads asks for the queues' checks, any other for
    /// neither. The program answers the reset only if it is the one expected; otherwise the life is unborn.
    #[rstest::rstest]
    #[case::plain(false, false, "counters_reset")]
    #[case::heap_order(false, true, "counters_reset heap")]
    #[case::sampled(true, false, "counters_reset sites")]
    fn the_reset_asks_for_what_the_life_reads(#[case] sampled: bool, #[case] heap_order: bool, #[case] reset: &str) {
        let expected = format!("case \"$l\" in '2 {reset}') echo '2 ok 0';; *) echo \"2 err protocol got $l\";; esac");
        let mut s = program(&[
            "echo '1 ok 0 b1'",
            &expected,
            "echo '3 ok 0 s2'",
            "echo '4 ok 0 1'",
            "echo '5 ok 0 true'",
            "echo '6 ok 0 none'",
            "echo '7 ok 0 pq_inserts=5 pq_heap_violations=0'",
            "echo '8 ok 0'",
        ]);
        let asks = Asks { counting: Counted::Counts, sampled, heap_order, ..Asks::default() };
        let life = Life::live(&mut s, World::Ref, &board(), &[], Duration::from_secs(2), asks);
        assert_eq!(life.required("pq_heap_violations").ok(), Some(0), "{reset}: {:?}", life.counters());
    }

    #[test]
    fn a_later_call_that_never_returns_fails_the_counts_but_not_the_tests_own_calls() {
        let mut s = program(&[
            "echo '1 ok 0 b1'",
            "echo '2 ok 0'",
            "echo '3 ok 0 s2'",
            "echo '4 ok 0 12'",
            "while :; do :; done",
        ]);
        let life = counted_life(&mut s, &[SolverCall::Moves], Duration::from_millis(300), false);
        assert!(matches!(life.moves(), Ok(12)));
        assert!(matches!(life.solution(), Err(Failure::Fault(Fault::Timeout(_)))));
        let Err(Failure::Wrong(why)) = life.counters() else { panic!("{:?}", life.counters()) };
        assert!(why.summary.contains("solution(), called after moves()"), "{}", why.summary);
        assert!(why.summary.contains("did not return: timed out"), "{}", why.summary);
        assert_eq!(life.cpu, None, "the program was lost on the way");
    }

    /// The boards of a solution() that answered live in the program: once a later request of the same life has
    /// lost it, a method called after it or the grader's reading of the counts (seen when that reading had
    /// what the constructor left of the CPU limit: a Solver without the critical optimization, its next test
    /// then "a grader or adapter fault: unknown handle b406"), they are not asked of a new process, whose
    /// handles are not the old one's.
    #[rstest::rstest]
    #[case::by_a_later_call(
        &["echo '4 ok 0 2 b3 b4'", "while :; do :; done"],
        &[SolverCall::Solution],
        "solution() answered, but its boards could not be read: moves(), called after it, did not return: timed out"
    )]
    #[case::by_the_counts(
        &["echo '4 ok 0 2'", "echo '5 ok 0 2 b3 b4'", "echo '6 ok 0 true'", "exit 3"],
        &[SolverCall::Moves],
        "solution() answered, but its boards could not be read: the program, asked `counters` after the Solver's methods,"
    )]
    fn a_solution_whose_program_was_lost_is_not_read_from_a_new_one(
        #[case] after_the_constructor: &[&str],
        #[case] calls: &[SolverCall],
        #[case] said: &str,
    ) {
        let replies = [&["echo '1 ok 0 b1'", "echo '2 ok 0'", "echo '3 ok 0 s2'"][..], after_the_constructor].concat();
        let mut s = program(&replies);
        let life = counted_life(&mut s, calls, Duration::from_millis(300), false);
        let Err(Failure::Wrong(why)) = life.solution() else { panic!("{:?}", life.solution()) };
        assert!(why.summary.starts_with(said), "{}", why.summary);
        assert_eq!(s.starts(), 1, "no new process was started to read the lost boards");
    }

    /// The solution's boards are read back (`toString()`) in the batch of the counts, after them: one round
    /// trip a life, not two. The program here counts 5 only if the two reads were already waiting when it
    /// read `counters`, 1 if it had to answer `counters` alone first.
    #[test]
    fn the_solutions_boards_are_read_in_the_batch_of_the_counts_after_them() {
        let script = "read l; echo '0 ok 0 1 sh counters refs'; \
            read l; echo '1 ok 0 b1'; read l; echo '2 ok 0'; read l; echo '3 ok 0 s2'; \
            read l; echo '4 ok 0 1'; read l; echo '5 ok 0 2 b3 b4'; read l; echo '6 ok 0 true'; \
            read l; if read -t 2 first && read -t 2 second; then echo '7 ok 0 pq_inserts=5'; \
            else echo '7 ok 0 pq_inserts=1'; read first; read second; fi; \
            case \"$first $second\" in '8 to_string b3 9 to_string b4') ;; *) exit 9 ;; esac; \
            echo '8 ok 0 2\\n 1  2 \\n 0  3 \\n'; echo '9 ok 0 2\\n 1  2 \\n 3  0 \\n'; \
            while read l; do :; done";
        let limits = SessionLimits { request: Duration::from_secs(5), ..SessionLimits::default() };
        let mut s = Session::new(ProcessSpec::new("bash").args(["-c", script]), limits);
        let life = counted_life(&mut s, &[SolverCall::Moves], Duration::from_secs(2), false);
        assert_eq!(life.required("pq_inserts").ok(), Some(5), "the reads went with the counts");
        let solved = Board::from_row_major(2, &[1, 2, 3, 0]).unwrap();
        assert_eq!(life.solution().unwrap(), Some(vec![board(), solved]));
        assert_eq!(s.starts(), 1);
    }

    /// A program that resolves references gets the reads of the solution's boards in the batch of the counts;
    /// if reading the counts loses it, the reads were never answered, and the solution says which request
    /// lost the program, as when the reads came in a batch of their own (no new process is asked).
    #[test]
    fn a_program_lost_reading_the_counts_leaves_the_solution_unread_though_the_reads_were_sent() {
        let script = "read l; echo '0 ok 0 1 sh counters refs'; \
            read l; echo '1 ok 0 b1'; read l; echo '2 ok 0'; read l; echo '3 ok 0 s2'; \
            read l; echo '4 ok 0 1'; read l; echo '5 ok 0 2 b3 b4'; read l; echo '6 ok 0 true'; \
            read l; exit 3";
        let limits = SessionLimits { request: Duration::from_secs(5), ..SessionLimits::default() };
        let mut s = Session::new(ProcessSpec::new("bash").args(["-c", script]), limits);
        let life = counted_life(&mut s, &[SolverCall::Moves], Duration::from_secs(2), false);
        let Err(Failure::Wrong(why)) = life.solution() else { panic!("{:?}", life.solution()) };
        let said = "solution() answered, but its boards could not be read: the program, asked `counters` after the \
                    Solver's methods,";
        assert!(why.summary.starts_with(said), "{}", why.summary);
        assert!(matches!(life.moves(), Ok(1)));
        assert_eq!(s.starts(), 1, "no new process was started to read the lost boards");
    }

    /// The grader's readings after the calls are the adapter's work: they have the session's limit for a
    /// request, not what the constructor left of the Solver's (here nothing: it took the whole budget).
    #[test]
    fn the_counts_are_read_within_the_requests_limit_not_the_solvers_leftover() {
        // 0.3 s of CPU (a shell's loop over `date`, its children counted), then the reply
        let busy_then = |reply: &str| {
            format!("end=$(($(date +%s%N) + 300000000)); while [ $(date +%s%N) -lt $end ]; do :; done; echo '{reply}'")
        };
        let (constructor, counters) = (busy_then("3 ok 0 s2"), busy_then("7 ok 0 pq_inserts=5"));
        let mut s = program(&[
            "echo '1 ok 0 b1'",
            "echo '2 ok 0'",
            &constructor,
            "echo '4 ok 0 2'",
            "echo '5 ok 0 none'",
            "echo '6 ok 0 true'",
            &counters,
        ]);
        let life = counted_life(&mut s, &[SolverCall::Moves], Duration::from_millis(400), false);
        assert!(matches!(life.moves(), Ok(2)));
        assert_eq!(life.required("pq_inserts").ok(), Some(5), "{:?}", life.counters());
    }

    #[test]
    fn a_constructor_that_throws_is_every_answer() {
        let mut s = program(&["echo '1 ok 0 b1'", "echo '2 ok 0'", "echo '3 err exception 0 panic no'"]);
        let life = counted_life(&mut s, &[], Duration::from_secs(2), false);
        for answer in [life.moves().err(), life.is_solvable().err(), life.counters().err()] {
            assert!(matches!(answer, Some(Failure::Fault(Fault::Exception { .. }))), "{answer:?}");
        }
    }

    #[test]
    fn sampled_call_sites_come_after_the_counts_most_sampled_first() {
        let mut s = program(&[
            "echo '1 ok 0 b1'",
            "echo '2 ok 0'",
            "echo '3 ok 0 s2'",
            "echo '4 ok 0 3'",
            "echo '5 ok 0 none'",
            "echo '6 ok 0 false'",
            "echo '7 ok 0 pq_inserts=300'",
            "echo '8 ok 0 sampling_cpu_ns=5 pq_inserts@Solver.java:9=1 pq_inserts@Solver.java:40=2'",
        ]);
        let life = counted_life(&mut s, &[SolverCall::Moves], Duration::from_secs(2), true);
        assert_eq!(life.required("pq_inserts").ok(), Some(300));
        let sites = life.sites_of("pq_inserts");
        assert_eq!(
            sites.iter().map(|(site, _)| site.as_str()).collect::<Vec<_>>(),
            ["Solver.java:40", "Solver.java:9"]
        );
        assert!((sites[0].1 - 2.0 / 3.0).abs() < 1e-9, "{sites:?}");
        assert!(life.sites_of("board_equals").is_empty());
    }

    #[test]
    fn a_measured_life_weighs_the_solver_after_its_constructor_and_after_its_calls_and_charges_neither_walk() {
        let mut s = program(&[
            "echo '1 ok 0 b1'",
            "echo '2 ok 0'",
            "echo '3 ok 5000 s2 1520 4000'",
            "echo '4 ok 0 3'",
            "echo '5 ok 0 none'",
            "echo '6 ok 0 true'",
            "echo '7 ok 0 pq_inserts=4'",
            "echo '8 ok 700 1640'",
        ]);
        let asks = Asks { counting: Counted::Counts, solver_memory: true, ..Asks::default() };
        let life = Life::live(&mut s, World::Ref, &board(), &[], Duration::from_secs(2), asks);
        assert_eq!(life.solver_bytes, Some(SolverBytes { constructed: 1520, after_calls: Some(1640), kept: None }));
        assert_eq!(life.required("pq_inserts").ok(), Some(4), "the counts come before `memory_retained`");
        assert!(matches!(life.moves(), Ok(3)));
    }

    #[test]
    fn memory_retained_answers_the_deep_size_then_the_second_reading_and_its_part_off_the_heap() {
        let read = |reply: &str| {
            let mut bytes = SolverBytes { constructed: 10, after_calls: None, kept: None };
            bytes.after_calls_from(reply);
            (bytes.after_calls, bytes.kept)
        };
        assert_eq!(read("1640"), (Some(1640), None), "an adapter without a second reading");
        assert_eq!(read("1640 90000 4096"), (Some(1640), Some(Kept { bytes: 90000, off_heap: 4096 })));
        for garbled in ["", "lots", "1640 90000", "1640 90000 -1", "1640 4096 90000", "1640 1 2 3"] {
            assert_eq!(read(garbled), (None, None), "`{garbled}`");
        }
    }

    #[test]
    fn a_measured_life_whose_memory_answer_is_not_a_handle_and_bytes_is_unborn() {
        let mut s = program(&["echo '1 ok 0 b1'", "echo '2 ok 0'", "echo '3 ok 0 s2 lots'"]);
        let asks = Asks { counting: Counted::Counts, solver_memory: true, ..Asks::default() };
        let life = Life::live(&mut s, World::Ref, &board(), &[], Duration::from_secs(2), asks);
        let Err(Failure::Wrong(why)) = life.moves() else { panic!("{:?}", life.moves()) };
        assert!(why.summary.contains("`memory_solver` answered `s2 lots`"), "{}", why.summary);
        assert_eq!(life.solver_bytes, None);
    }
}
