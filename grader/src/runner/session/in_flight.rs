//! The session's in-flight bookkeeping ([`InFlight`]): the batches sent and not yet redeemed, oldest first,
//! and which reply the session must read next.
//!
//! A program answers in the order the requests went out, so reading the replies of one batch first reads
//! (and keeps) those of every batch sent before it; each batch stays here until its own [`Sent`] ticket
//! redeems it, in any order (one never redeemed stays until the session ends). The rules kept here:
//!
//! - **IDs**: each process numbers its requests from 0 (the handshake). A release of handles rides ahead of
//!   the next batch ([`Ids`]) and takes the ID before the batch's first, `base - 1`; its reply is read (and
//!   ignored: a release is best effort) before the batch's own.
//! - **Read-ahead**: the results held for batches not yet redeemed weigh at most the policy's
//!   [`ReadAhead`]; a reply past it fails its own request ("reply too long") instead of being kept.
//! - **Loss**: a process lost fails every request still waiting for a reply, in every batch, with the fault
//!   that lost it ([`InFlight::fail_waiting`]); no reply will come from it.

use std::collections::VecDeque;
use std::time::Duration;

use npuzzle_harness::protocol::{Outcome, Reply, Request};

use super::fault::Fault;
use super::fusion::Wire;
use crate::runner::process::Deadline;
use crate::runner::reply::ReadAhead;

/// A successful reply: the verb-specific values and the CPU time the program reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The encoded values after `ok CPU`.
    pub values: String,
    /// CPU time the program spent on the request.
    pub cpu: Duration,
}

/// A reply read: the request's own result, and the bytes it holds.
pub(super) type Received = (Result<Answer, Fault>, usize);

/// The request's result a reply carries.
pub(super) fn outcome_to_result(reply: Reply) -> Result<Answer, Fault> {
    let cpu = Duration::from_micros(reply.cpu_micros);
    match reply.outcome {
        Outcome::Ok(values) => Ok(Answer { values, cpu }),
        Outcome::Exception { kind, message } => Err(Fault::Exception { kind, message }),
        Outcome::Unsupported(reason) => Err(Fault::Unsupported(reason)),
        Outcome::Protocol(reason) => Err(Fault::Protocol(reason)),
    }
}

/// A batch sent with [`Session::send_each`](super::Session::send_each);
/// [`Session::receive_each`](super::Session::receive_each) turns it into its results.
#[must_use = "a sent batch's results are read with `receive_each`"]
#[derive(Debug)]
pub struct Sent {
    pub(super) ticket: u64,
    pub(super) len: usize,
}

/// The IDs a batch goes out with: its first request's (`base`), and whether a release rides ahead of it (as
/// ID `base - 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ids {
    pub(super) base: u64,
    pub(super) release: bool,
}

impl Ids {
    /// The ID of the release riding ahead, if one does.
    pub(super) fn release_id(self) -> Option<u64> {
        self.release.then(|| self.base - 1)
    }
}

/// The reply the session must read next: the one to request `id` of the batch at `at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Awaited {
    at: usize,
    /// The ID the reply must carry.
    pub(super) id: u64,
    pub(super) deadline: Deadline,
    /// The handshake's reply does not count as an answer that ends a run of lost processes.
    pub(super) handshake: bool,
    /// Whether the request is `to_string` (its answer is text, cut past any board's).
    pub(super) text: bool,
    /// How the request travels: alone, or fused with the reads after it (its deadline is the fusion's).
    pub(super) wire: Wire,
    /// Whether the reply is the release's riding ahead of the batch.
    release: bool,
}

/// One batch on its way: the IDs its replies will carry, and the results read so far.
pub(super) struct Batch {
    ticket: u64,
    ids: Ids,
    /// Whether the reply to a release riding along is still to be read.
    release_unread: bool,
    len: usize,
    deadline: Deadline,
    handshake: bool,
    /// Which requests are `to_string`.
    texts: Vec<bool>,
    /// How each request travels (empty: each alone).
    wire: Vec<Wire>,
    results: Vec<Result<Answer, Fault>>,
    /// The bytes its results hold ([`reply::weight`](crate::runner::reply::weight)).
    held: usize,
}

impl Batch {
    /// A batch whose every request already has its result (answered, or failed before it could be sent).
    pub(super) fn settled(ticket: u64, results: Vec<Result<Answer, Fault>>) -> Batch {
        let len = results.len();
        Batch {
            ticket,
            ids: Ids { base: 0, release: false },
            release_unread: false,
            len,
            deadline: Deadline::from_cpu(Duration::ZERO),
            handshake: false,
            texts: Vec::new(),
            wire: Vec::new(),
            results,
            held: 0,
        }
    }

    /// A batch of `requests` written to the program with `ids`, travelling as `wire` says (each alone when it
    /// is empty), each reply awaited within `deadline`.
    pub(super) fn sent(ticket: u64, ids: Ids, requests: &[Request], wire: Vec<Wire>, deadline: Deadline) -> Batch {
        Batch {
            ticket,
            ids,
            release_unread: ids.release,
            len: requests.len(),
            deadline,
            handshake: matches!(requests, [Request::Hello { .. }]),
            texts: requests.iter().map(|request| matches!(request, Request::ToString(_))).collect(),
            wire,
            results: Vec::new(),
            held: 0,
        }
    }

    fn is_complete(&self) -> bool {
        !self.release_unread && self.results.len() == self.len
    }
}

/// The batches sent and not yet redeemed, oldest first, with the tickets and IDs of the next.
#[derive(Default)]
pub(super) struct InFlight {
    batches: VecDeque<Batch>,
    next_ticket: u64,
    /// The ID of the running process's next request.
    next_id: u64,
}

impl InFlight {
    /// The next batch's ticket.
    pub(super) fn ticket(&mut self) -> u64 {
        self.next_ticket += 1;
        self.next_ticket - 1
    }

    /// A fresh process numbers its requests from 0 again.
    pub(super) fn restart_ids(&mut self) {
        self.next_id = 0;
    }

    /// The IDs of the next batch of `len` requests, after a release when one rides ahead of it.
    pub(super) fn number(&mut self, release: bool, len: usize) -> Ids {
        let ids = Ids { base: self.next_id + u64::from(release), release };
        self.next_id = ids.base + len as u64;
        ids
    }

    /// Keeps `batch` until it is redeemed.
    pub(super) fn push(&mut self, batch: Batch) {
        self.batches.push_back(batch);
    }

    /// The reply to read next for the batches up to `ticket`, or `None` when each has all its results.
    pub(super) fn awaited(&self, ticket: u64) -> Option<Awaited> {
        let at = self.batches.iter().position(|batch| !batch.is_complete() && batch.ticket <= ticket)?;
        let batch = &self.batches[at];
        let release = batch.release_unread;
        let next = batch.results.len();
        let wire = if release { Wire::Alone } else { batch.wire.get(next).copied().unwrap_or(Wire::Alone) };
        Some(Awaited {
            at,
            id: if release { batch.ids.base - 1 } else { batch.ids.base + next as u64 },
            deadline: wire.deadline(batch.deadline),
            handshake: batch.handshake,
            text: !release && batch.texts.get(next).copied().unwrap_or(false),
            wire,
            release,
        })
    }

    /// Records the reply read for `awaited`: the release's is only marked read (best effort); a request's
    /// result is kept, unless keeping it would pass `read_ahead`.
    pub(super) fn record(&mut self, awaited: &Awaited, (result, weight): Received, read_ahead: ReadAhead) {
        if awaited.release {
            self.batches[awaited.at].release_unread = false;
            return;
        }
        let refused = read_ahead.refuses(self.held(), weight);
        let batch = &mut self.batches[awaited.at];
        if let Some(why) = refused {
            batch.results.push(Err(Fault::ReplyTooLong(why)));
        } else {
            batch.held += weight;
            batch.results.push(result);
        }
    }

    /// Fails every request still waiting for its reply with `fault`.
    pub(super) fn fail_waiting(&mut self, fault: &Fault) {
        for batch in self.batches.iter_mut().filter(|batch| !batch.is_complete()) {
            batch.release_unread = false;
            batch.results.resize(batch.len, Err(fault.clone()));
        }
    }

    /// The results of the batch with `ticket`, which leaves the books; `None` if there is none.
    pub(super) fn redeem(&mut self, ticket: u64) -> Option<Vec<Result<Answer, Fault>>> {
        let at = self.batches.iter().position(|batch| batch.ticket == ticket)?;
        self.batches.remove(at).map(|batch| batch.results)
    }

    /// The results of the batch pushed last, which leaves the books.
    pub(super) fn take_last(&mut self) -> Vec<Result<Answer, Fault>> {
        self.batches.pop_back().expect("the batch just sent").results
    }

    /// The bytes of results held for batches not yet redeemed.
    fn held(&self) -> usize {
        self.batches.iter().map(|batch| batch.held).sum()
    }
}

#[cfg(test)]
mod tests {
    use npuzzle_harness::protocol::Handle;

    use super::*;

    fn within() -> Deadline {
        Deadline::from_cpu(Duration::from_secs(1))
    }

    fn answer(values: &str) -> Received {
        (Ok(Answer { values: values.into(), cpu: Duration::ZERO }), values.len())
    }

    /// Sends `requests` (with a release ahead when `release`) as the next batch and returns its ticket.
    fn send(books: &mut InFlight, release: bool, requests: &[Request]) -> u64 {
        let ticket = books.ticket();
        let ids = books.number(release, requests.len());
        books.push(Batch::sent(ticket, ids, requests, Vec::new(), within()));
        ticket
    }

    /// Reads replies, each answering with its own ID, until the batches up to `ticket` are complete.
    fn read_through(books: &mut InFlight, ticket: u64) -> Vec<(u64, bool)> {
        let mut read = Vec::new();
        while let Some(awaited) = books.awaited(ticket) {
            read.push((awaited.id, awaited.release));
            books.record(&awaited, answer(&awaited.id.to_string()), ReadAhead { mib: 1 });
        }
        read
    }

    #[test]
    fn a_release_rides_ahead_of_its_batch_as_the_id_before_the_first() {
        let mut books = InFlight::default();
        assert_eq!(books.number(false, 1), Ids { base: 0, release: false }, "the handshake is 0");
        let ids = books.number(true, 2);
        assert_eq!((ids, ids.release_id()), (Ids { base: 2, release: true }, Some(1)));
        assert_eq!(books.number(false, 3).base, 4);
        books.restart_ids();
        assert_eq!(books.number(true, 1), Ids { base: 1, release: true }, "a fresh process starts at 0");
    }

    #[test]
    fn replies_are_awaited_in_the_order_sent_with_the_release_first() {
        let mut books = InFlight::default();
        let first = send(&mut books, false, &[Request::Counters, Request::ToString(Handle::Board(1))]);
        let second = send(&mut books, true, &[Request::Api]);
        assert_eq!(books.awaited(first).map(|a| (a.id, a.text)), Some((0, false)));
        assert_eq!(read_through(&mut books, second), [(0, false), (1, false), (2, true), (3, false)]);
        let values =
            |results: Vec<Result<Answer, Fault>>| results.into_iter().map(|r| r.unwrap().values).collect::<Vec<_>>();
        assert_eq!(values(books.redeem(second).unwrap()), ["3"], "the release's reply is not a result");
        assert_eq!(values(books.redeem(first).unwrap()), ["0", "1"], "redeemed out of order");
        assert!(books.redeem(first).is_none(), "once");
    }

    #[test]
    fn the_texts_are_the_to_string_requests_awaited() {
        let mut books = InFlight::default();
        let to_string = Request::ToString(Handle::Board(1));
        let ticket = send(&mut books, false, &[Request::Counters, to_string]);
        let awaited = books.awaited(ticket).unwrap();
        assert!(!awaited.text);
        books.record(&awaited, answer("x"), ReadAhead { mib: 1 });
        assert!(books.awaited(ticket).unwrap().text);
    }

    #[test]
    fn a_fused_request_is_awaited_with_the_limits_of_the_requests_it_stands_for_and_answers_them_all() {
        let mut books = InFlight::default();
        let requests = [Request::Neighbors(Handle::Board(1)), Request::Counters, Request::Counters, Request::Api];
        let wire = vec![Wire::NeighborsTexts { reads: 2 }, Wire::Within, Wire::Within, Wire::Alone];
        let ticket = books.ticket();
        let ids = books.number(false, requests.len());
        books.push(Batch::sent(ticket, ids, &requests, wire, within()));
        let fused = books.awaited(ticket).unwrap();
        assert_eq!((fused.id, fused.wire.reads(), fused.deadline.cpu), (0, 2, within().cpu * 3));
        for values in ["2 b2 b3", "x", "y"] {
            books.record(&fused, answer(values), ReadAhead { mib: 1 });
        }
        let next = books.awaited(ticket).unwrap();
        assert_eq!((next.id, next.wire, next.deadline), (3, Wire::Alone, within()), "the next request on the wire");
    }

    #[test]
    fn a_texts_request_is_awaited_with_one_requests_limits_and_answers_its_reads() {
        let mut books = InFlight::default();
        let read = Request::ToString(Handle::Board(1));
        let requests = [read.clone(), read.clone(), read, Request::Api];
        let wire = vec![Wire::Texts { reads: 2 }, Wire::Within, Wire::Within, Wire::Alone];
        let ticket = books.ticket();
        let ids = books.number(false, requests.len());
        books.push(Batch::sent(ticket, ids, &requests, wire, within()));
        let texts = books.awaited(ticket).unwrap();
        assert_eq!((texts.id, texts.wire, texts.text, texts.deadline), (0, Wire::Texts { reads: 2 }, true, within()));
        for values in ["x", "y", "z"] {
            books.record(&texts, answer(values), ReadAhead { mib: 1 });
        }
        let next = books.awaited(ticket).unwrap();
        assert_eq!((next.id, next.wire), (3, Wire::Alone), "the next request on the wire");
    }

    #[test]
    fn replies_past_the_read_ahead_fail_their_own_requests_until_a_batch_is_redeemed() {
        let mut books = InFlight::default();
        let first = send(&mut books, false, &[Request::Counters, Request::Counters]);
        let second = send(&mut books, false, &[Request::Counters]);
        let big = |books: &mut InFlight| {
            let awaited = books.awaited(second).unwrap();
            books.record(&awaited, answer(&"7".repeat(700_000)), ReadAhead { mib: 1 });
        };
        big(&mut books);
        big(&mut books);
        let results = books.redeem(first).unwrap();
        assert!(results[0].is_ok());
        assert!(matches!(&results[1], Err(Fault::ReplyTooLong(why)) if why.contains("more than 1 MiB")), "{results:?}");
        big(&mut books);
        assert!(books.redeem(second).unwrap()[0].is_ok(), "the first batch's bytes were let go");
    }

    #[test]
    fn a_loss_fails_every_request_still_waiting_and_keeps_what_was_read() {
        let mut books = InFlight::default();
        let first = send(&mut books, false, &[Request::Counters, Request::Counters]);
        let second = send(&mut books, true, &[Request::Counters]);
        let settled = books.ticket();
        books.push(Batch::settled(settled, vec![Err(Fault::Startup("no running process".into()))]));
        let awaited = books.awaited(first).unwrap();
        books.record(&awaited, answer("x"), ReadAhead { mib: 1 });
        let lost = Fault::Crashed("killed by signal 9 (SIGKILL)".into());
        books.fail_waiting(&lost);
        assert_eq!(books.awaited(u64::MAX), None);
        assert_eq!(books.redeem(second).unwrap(), [Err(lost.clone())]);
        assert_eq!(books.redeem(first).unwrap(), [answer("x").0, Err(lost)]);
        assert_eq!(books.take_last(), [Err(Fault::Startup("no running process".into()))], "already settled");
    }
}
