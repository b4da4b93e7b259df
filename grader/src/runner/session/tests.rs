//! End-to-end tests of the [`Session`](super::Session) with real programs (`sh` scripts that speak the
//! protocol): what each of its parts does once a process is behind it. Grouped by the part they exercise:
//! faults told apart, read-ahead and budget, the lifecycle's restarts, the two batch modes, and batches in
//! flight. Wall-clock bounds are loose on purpose.

use std::sync::Arc;
use std::time::Duration;

use npuzzle_harness::protocol::{Handle, Request};

use super::*;
use crate::runner::process::ProcessLimits;
use crate::runner::reply;

fn script(body: &str) -> ProcessSpec {
    ProcessSpec::new("/bin/sh").args(["-c", body])
}

fn limits() -> SessionLimits {
    SessionLimits { startup: Duration::from_secs(5), request: Duration::from_millis(500), ..SessionLimits::default() }
}

const HELLO: &str = "read l; echo '0 ok 0 1 sh counters'; ";

fn with_memory_limit(spec: ProcessSpec, mb: u64) -> ProcessSpec {
    let limits = ProcessLimits { address_space: Some(mb << 20), ..ProcessLimits::default() };
    spec.limits(limits)
}

// Faults told apart: `fault`, and `lifecycle` reading a death.

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

// The cap on replies read ahead (`in_flight`) and the grade's CPU budget (`lifecycle`).

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

/// A test's allowance (what its section's budget has left) ends a request that computes past it, well
/// before the request's own CPU limit, with the allowance's line; the next request starts a fresh process
/// that fails at once.
#[test]
fn a_request_past_its_tests_allowance_is_ended_with_the_allowances_line() {
    let meter = Arc::new(Meter::new(Some(Duration::from_secs(100))));
    let body = format!("{HELLO} read l; while :; do :; done");
    let limits = SessionLimits { request: Duration::from_secs(60), ..limits() };
    let mut s = Session::metered(script(&body), limits, Arc::clone(&meter));
    s.handshake().unwrap();
    meter.allow(Duration::from_millis(400), "the section's budget is used up".into());
    assert_eq!(s.call(&Request::Counters), Err(Fault::Timeout("the section's budget is used up".into())));
    assert!(meter.spent() >= Duration::from_millis(400), "{:?}", meter.spent());
    assert!(meter.spent() < Duration::from_secs(30), "ended at the allowance, not the request's limit");
    assert_eq!(meter.allowance().map(|a| a.left), Some(Duration::ZERO));
    assert_eq!(s.call(&Request::Counters), Err(Fault::Timeout("the section's budget is used up".into())));
    assert_eq!(s.starts(), 1, "nothing starts past it");
}

// The lifecycle: the handshake, restarts after garbage or a crash, giving up, stderr kept.

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
        Err(Fault::GaveUp(why)) => assert!(why.contains("stopped restarting"), "{why}"),
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
    // no reply reports what the request spent: the CPU it timed out on is counted as the program's
    assert!(s.cpu_reported() > limits().request, "{:?}", s.cpu_reported());
    let mut s = Session::new(script(&format!("{HELLO} read l; kill -SEGV $$")), limits());
    match s.call(&Request::Counters) {
        Err(Fault::Crashed(what)) => assert!(what.contains("SIGSEGV"), "{what}"),
        other => panic!("expected a crash, got {other:?}"),
    }
}

#[test]
fn stderr_is_kept_and_exceptions_are_not_faults_of_the_process() {
    let body = format!("{HELLO} read l; echo debug >&2; echo '1 err exception 3 panic boom'; read l; echo '2 ok 0'");
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

/// A start that spends its budget without answering (a Java static initializer, a Python module's top level
/// that loops) names where a start's time goes.
#[test]
fn a_start_that_runs_out_of_cpu_names_the_code_a_start_runs() {
    let limits = SessionLimits { startup: Duration::from_millis(300), ..limits() };
    let mut s = Session::new(script("read l; while :; do :; done"), limits);
    match s.call(&Request::Counters) {
        Err(Fault::Startup(why)) => assert!(
            why.starts_with("the handshake failed: timed out on its CPU limit")
                && why.ends_with("(starting runs your static initializers or your modules' top-level code)"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
}

// The two batch modes (`batch`).

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

/// A `neighbors` request and the reads of the boards it returns, in a script.
fn neighbors_and_reads(reads: u32) -> Vec<Request> {
    let mut requests = vec![Request::Neighbors(Handle::Board(1))];
    requests.extend((0..reads).map(|index| Request::ToString(Handle::Reply { request: 0, index })));
    requests.push(Request::Hamming(Handle::Reply { request: 0, index: 1 }));
    requests
}

/// A program announcing `capabilities` that writes `replies` (a `printf` format) when the first two lines of
/// the batch it is sent are `first` and `second`, and a protocol error naming them when they are not.
fn answering_two_lines(capabilities: &str, first: &str, second: &str, replies: &str) -> ProcessSpec {
    script(&format!(
        "read l; echo '0 ok 0 1 sh {capabilities}'; read a; read b; \
         if [ \"$a\" = '{first}' ] && [ \"$b\" = '{second}' ]; then printf '{replies}'; \
         else echo \"1 err protocol 0 $a / $b\"; fi"
    ))
}

#[test]
fn with_neighbor_texts_a_neighbors_request_and_its_reads_travel_as_one_and_come_back_apart() {
    // Three reads of a board with two neighbors, the second text throwing: the reply holds two outcomes.
    let replies = "1 ok 7 2 b2 b3\\t=x\\\\ny\\t!Boom it\\\\nbroke\\n5 ok 0 4\\n";
    let program = answering_two_lines("refs neighbor_texts", "1 neighbors_texts b1 3", "5 hamming @1.1", replies);
    let mut s = Session::new(program, limits());
    let results = s.call_each(&neighbors_and_reads(3));
    assert_eq!(results[0], Ok(Answer { values: "2 b2 b3".into(), cpu: Duration::from_micros(7) }), "{results:?}");
    assert_eq!(results[1].as_ref().map(|a| a.values.as_str()), Ok("x\\ny"), "the text as a `to_string` holds it");
    assert_eq!(results[2], Err(Fault::Exception { kind: "Boom".into(), message: "it\nbroke".into() }));
    assert!(
        matches!(&results[3], Err(Fault::Protocol(why)) if why == "@1.2 refers to handle 2 of request 1, which returned 2")
    );
    assert_eq!(results[4].as_ref().map(|a| a.values.as_str()), Ok("4"));
    assert_eq!(s.cpu_reported(), Duration::from_micros(7));
}

#[test]
fn a_fused_neighbors_that_threw_fails_its_reads_as_their_references_would() {
    let body = "read l; echo '0 ok 0 1 sh refs neighbor_texts'; read a; read b; \
                echo '1 err exception 0 Boom no'; echo '4 err protocol 0 @1.1 refers to nothing'";
    let mut s = Session::new(script(body), limits());
    let results = s.call_each(&neighbors_and_reads(2));
    assert_eq!(results[0], Err(Fault::Exception { kind: "Boom".into(), message: "no".into() }));
    for read in &results[1..3] {
        assert!(matches!(read, Err(Fault::Protocol(why)) if why.contains("which returned no handles")), "{read:?}");
    }
}

#[test]
fn a_fused_reply_without_the_texts_asked_for_is_garbage_and_a_fault_fails_every_read() {
    let body = "read l; echo '0 ok 0 1 sh refs neighbor_texts'; read a; read b; echo '1 ok 0 2 b2 b3'";
    let mut s = Session::new(script(body), limits());
    let results = s.call_each(&neighbors_and_reads(2));
    assert!(results.iter().all(|r| matches!(r, Err(Fault::Garbage(_)))), "{results:?}");
    let body = "read l; echo '0 ok 0 1 sh refs neighbor_texts'; read a; read b; kill -KILL $$";
    let mut s = Session::new(script(body), limits());
    let results = s.call_each(&neighbors_and_reads(2));
    assert!(results.iter().all(|r| matches!(r, Err(Fault::Crashed(_)))), "{results:?}");
}

#[test]
fn a_fused_reply_may_be_as_long_as_the_replies_it_stands_for() {
    // Two texts of 9 MB: past one reply's 16 MiB together, within the three replies' the line stands for;
    // each is cut as a `to_string` reply's text is.
    let body = "read l; echo '0 ok 0 1 sh refs neighbor_texts'; read a; read b; \
                printf '1 ok 0 2 b2 b3\\t='; head -c 9000000 /dev/zero | tr '\\0' x; \
                printf '\\t='; head -c 9000000 /dev/zero | tr '\\0' y; echo; echo '4 ok 0 1'";
    let mut s = Session::new(script(body), SessionLimits { request: Duration::from_secs(5), ..limits() });
    let results = s.call_each(&neighbors_and_reads(2));
    for (read, tile) in results[1..3].iter().zip(['x', 'y']) {
        let text = &read.as_ref().unwrap().values;
        assert!(text.len() <= reply::text_keep() + 64 && text.starts_with(tile), "{:.80}", text);
        assert!(text.contains("bytes left out"), "{:.80}", text);
    }
    assert_eq!(results[3].as_ref().map(|a| a.values.as_str()), Ok("1"));
}

/// Reads of three boards by their handles, then a hamming().
fn reads_of_boards() -> Vec<Request> {
    let mut requests: Vec<Request> = (1..=3).map(|b| Request::ToString(Handle::Board(b))).collect();
    requests.push(Request::Hamming(Handle::Board(1)));
    requests
}

#[test]
fn holding_reference_boards_only_a_run_of_reads_travels_as_one_texts_request_and_comes_back_apart() {
    let replies = "1 ok 9 \\t=x\\\\ny\\t!Boom it\\\\nbroke\\t?b3 is not a board\\n4 ok 0 4\\n";
    let program = answering_two_lines("refs texts", "1 texts b1 b2 b3", "4 hamming b1", replies);
    let mut s = Session::new(program, limits()).holding(Holds::ReferenceBoardsOnly);
    let results = s.call_each(&reads_of_boards());
    assert_eq!(results[0], Ok(Answer { values: "x\\ny".into(), cpu: Duration::from_micros(9) }), "{results:?}");
    assert_eq!(results[1], Err(Fault::Exception { kind: "Boom".into(), message: "it\nbroke".into() }));
    assert!(matches!(&results[2], Err(Fault::Protocol(why)) if why == "b3 is not a board"), "{results:?}");
    assert_eq!(results[3].as_ref().map(|a| a.values.as_str()), Ok("4"));
    assert_eq!(s.cpu_reported(), Duration::from_micros(9));
}

#[test]
fn reads_travel_as_themselves_unless_the_session_holds_reference_boards_only() {
    // the program announces `texts`, but its boards may be the student's (whose reads keep a limit each)
    let body = "read l; echo '0 ok 0 1 sh refs texts'; read a; read b; read c; read d; \
                if [ \"$a $b\" = '1 to_string b1 2 to_string b2' ]; then \
                echo '1 ok 0 x'; echo '2 ok 0 y'; echo '3 ok 0 z'; echo '4 ok 0 4'; \
                else echo \"1 err protocol 0 $a\"; fi";
    let mut s = Session::new(script(body), limits());
    let results = s.call_each(&reads_of_boards());
    let values: Vec<_> = results.iter().map(|r| r.as_ref().map(|a| a.values.as_str())).collect();
    assert_eq!(values, [Ok("x"), Ok("y"), Ok("z"), Ok("4")]);
}

#[test]
fn without_neighbor_texts_the_reads_travel_as_themselves() {
    let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; read c; \
                if [ \"$a $b\" = '1 neighbors b1 2 to_string @1.0' ]; then echo '1 ok 0 1 b2'; echo '2 ok 0 t'; \
                echo '3 ok 0 2'; else echo \"1 err protocol 0 $a\"; fi";
    let mut s = Session::new(script(body), limits());
    let results = s.call_each(&neighbors_and_reads(1));
    assert_eq!(results[1].as_ref().map(|a| a.values.as_str()), Ok("t"), "{results:?}");
}

// Batches in flight (`in_flight`): redeemed in any order, kept across calls, failed together.

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
/// (as `checks::pipeline::run` does) leaves that group's replies to their owner.
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
fn a_lost_process_fails_the_rest_of_the_batch() {
    let body = "read l; echo '0 ok 0 1 sh refs'; read a; read b; read c; echo '1 ok 0 b5'; kill -KILL $$";
    let mut s = Session::new(script(body), limits());
    let requests = [Request::Twin(Handle::Board(1)), Request::Counters, Request::Counters];
    let results = s.call_each(&requests);
    assert!(results[0].is_ok());
    assert!(matches!((&results[1], &results[2]), (Err(Fault::Crashed(_)), Err(Fault::Crashed(_)))), "{results:?}");
}
