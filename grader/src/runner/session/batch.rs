//! The two ways a batch of requests goes out ([`Session::call_each`](super::Session::call_each)), which the
//! program cannot tell apart: it sees the same requests in the same order either way.
//!
//! A [`Handle::Reply`] in a batch names the reply to an earlier request *of the batch* by its position. A
//! program that resolves references itself (it announced `refs`) gets the whole batch at once, its
//! references renumbered to request IDs ([`lines`]), and the replies are read as they come: a round trip
//! through two processes costs far more than answering a Board request, so pipelining is what makes a test
//! of a thousand trials fast. Any other program gets one request at a time ([`one_at_a_time`]), with its
//! references replaced by the handles the earlier answers hold; a reference to a reply that failed or has no
//! such handle fails its own request, unsent.
//!
//! A pipelined batch may also travel fused (`fusion`): [`lines`] writes each request as its [`Wire`] says.

use std::borrow::Cow;

use npuzzle_harness::protocol::{Handle, ReplyHandles, Request};

use super::fault::Fault;
use super::fusion::Wire;
use super::in_flight::{Answer, Ids};

/// Whether a batch's references are still relative to the batch or already resolved.
#[derive(Clone, Copy)]
pub(super) enum References {
    /// Positions in the batch, renumbered to request IDs as the batch goes out.
    Rebase,
    /// Already the program's own handles.
    Resolved,
}

/// The protocol lines of a batch sent with `ids`: the release riding ahead of it, if any, then each request
/// as `wire` says it travels (each alone when `wire` is empty).
pub(super) fn lines<'a>(
    release: Option<&'a Request>,
    requests: &'a [Request],
    wire: &'a [Wire],
    ids: Ids,
    references: References,
) -> impl Iterator<Item = String> + 'a {
    let release = release.zip(ids.release_id()).map(|(release, id)| release.encode(id));
    let travels = move |position: usize| wire.get(position).copied().unwrap_or(Wire::Alone);
    let sent = requests.iter().zip(ids.base..).enumerate().filter_map(move |(position, (request, id))| {
        let request = match (travels(position), request) {
            (Wire::Within, _) => return None,
            (Wire::NeighborsTexts { reads }, Request::Neighbors(h)) => Cow::Owned(Request::NeighborsTexts(*h, reads)),
            (Wire::Texts { reads }, _) => {
                let run = &requests[position..=position + reads as usize];
                let boards = run.iter().map(|read| match read {
                    Request::ToString(board) => *board,
                    other => unreachable!("the plan fuses reads alone into `texts`, not `{}`", other.verb()),
                });
                Cow::Owned(Request::Texts(boards.collect()))
            }
            _ => Cow::Borrowed(request),
        };
        Some(match references {
            References::Rebase => rebased(&request, ids.base).encode(id),
            References::Resolved => request.encode(id),
        })
    });
    release.into_iter().chain(sent)
}

/// `request` with its references renumbered from positions in a batch to request IDs (`base` is the ID of
/// the batch's first request).
fn rebased(request: &Request, base: u64) -> Cow<'_, Request> {
    // tiles and no handles, costly to copy; or a `texts` run, which the plan fuses of reads of boards by their
    // own handles alone
    if matches!(
        request,
        Request::Board { .. } | Request::BoardProbe { .. } | Request::MemoryBoard { .. } | Request::Texts(_)
    ) {
        return Cow::Borrowed(request);
    }
    let mut copy = request.clone();
    for handle in copy.handles_mut() {
        if let Handle::Reply { request, .. } = handle {
            *request += base;
        }
    }
    Cow::Owned(copy)
}

/// A conversation that answers one request at a time: the session, while a process runs.
pub(super) trait Exchange {
    /// Whether a process runs to ask.
    fn running(&self) -> bool;
    /// Sends `request` and waits for its reply.
    fn exchange(&mut self, request: &Request) -> Result<Answer, Fault>;
}

/// Asks `requests` of `conversation` one at a time, with references replaced by the handles the earlier
/// answers hold. Once the process is lost, every later request fails with the fault that lost it.
pub(super) fn one_at_a_time(conversation: &mut impl Exchange, requests: &[Request]) -> Vec<Result<Answer, Fault>> {
    let mut results: Vec<Result<Answer, Fault>> = Vec::with_capacity(requests.len());
    // The adapter's own table, keyed by position in the batch instead of request ID.
    let mut replies = ReplyHandles::default();
    for (position, request) in (0..).zip(requests) {
        if !conversation.running() {
            let lost = results.last().cloned().and_then(Result::err);
            results.push(Err(lost.unwrap_or_else(|| Fault::Crashed("the program ended".into()))));
            continue;
        }
        let mut request = request.clone();
        let substituted = request.handles_mut().into_iter().try_for_each(|h| replies.resolve(*h).map(|real| *h = real));
        match substituted {
            Ok(()) => {
                let result = conversation.exchange(&request);
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_pipelined_batch_renumbers_its_references_to_request_ids_after_the_release() {
        let release = Request::Release(vec![Handle::Board(5)]);
        let requests = [Request::Twin(Handle::Board(1)), Request::ToString(Handle::Reply { request: 0, index: 0 })];
        let ids = Ids { base: 8, release: true };
        let sent: Vec<String> = lines(Some(&release), &requests, &[], ids, References::Rebase).collect();
        assert_eq!(sent, ["7 release b5", "8 twin b1", "9 to_string @8.0"]);
        let resolved = [Request::ToString(Handle::Reply { request: 3, index: 1 })];
        let sent: Vec<String> =
            lines(None, &resolved, &[], Ids { base: 4, release: false }, References::Resolved).collect();
        assert_eq!(sent, ["4 to_string @3.1"], "a resolved reference is left as it is");
    }

    #[test]
    fn a_fused_request_goes_out_as_neighbors_texts_with_the_neighbors_requests_id() {
        let requests = super::super::fusion::sample_batch();
        let fusions = super::super::fusion::Fusions { neighbor_texts: true, texts: false };
        let wire = super::super::fusion::plan(&requests, fusions);
        let sent: Vec<String> =
            lines(None, &requests, &wire, Ids { base: 10, release: false }, References::Rebase).collect();
        assert_eq!(
            sent,
            [
                "10 board own 2 1 2 3 0",
                "11 neighbors_texts @10.0 2",
                "14 neighbors @12.0",
                "15 to_string @14.1",
                "16 neighbors_texts b3 1",
                "18 hamming b3"
            ]
        );
    }

    #[test]
    fn a_run_of_reads_goes_out_as_one_texts_request_with_the_first_reads_id() {
        let requests: Vec<Request> =
            [4, 9, 5].into_iter().map(|b| Request::ToString(Handle::Board(b))).chain([Request::Counters]).collect();
        let wire =
            super::super::fusion::plan(&requests, super::super::fusion::Fusions { neighbor_texts: false, texts: true });
        let sent: Vec<String> =
            lines(None, &requests, &wire, Ids { base: 20, release: false }, References::Rebase).collect();
        assert_eq!(sent, ["20 texts b4 b9 b5", "23 counters"]);
    }

    /// A program without `refs`, played by a script: what it was asked, and its answers in turn (`None`: the
    /// process is lost after that request).
    struct Scripted {
        asked: Vec<String>,
        answers: Vec<Option<Result<Answer, Fault>>>,
        running: bool,
    }

    impl Exchange for Scripted {
        fn running(&self) -> bool {
            self.running
        }

        fn exchange(&mut self, request: &Request) -> Result<Answer, Fault> {
            self.asked.push(request.encode(self.asked.len() as u64 + 1));
            match self.answers.remove(0) {
                Some(result) => result,
                None => {
                    self.running = false;
                    Err(Fault::Crashed("killed by signal 9 (SIGKILL)".into()))
                }
            }
        }
    }

    fn ok(values: &str) -> Option<Result<Answer, Fault>> {
        Some(Ok(Answer { values: values.into(), cpu: Duration::ZERO }))
    }

    #[test]
    fn one_at_a_time_substitutes_the_handles_earlier_answers_hold() {
        let mut program = Scripted { asked: Vec::new(), answers: vec![ok("b5"), ok("yes")], running: true };
        let requests = [
            Request::Twin(Handle::Board(1)),
            Request::ToString(Handle::Reply { request: 0, index: 0 }),
            Request::ToString(Handle::Reply { request: 0, index: 1 }),
        ];
        let results = one_at_a_time(&mut program, &requests);
        assert_eq!(program.asked, ["1 twin b1", "2 to_string b5"], "the unresolvable one is not sent");
        assert_eq!(results[1].as_ref().map(|a| a.values.as_str()), Ok("yes"));
        assert!(matches!(&results[2], Err(Fault::Protocol(why)) if why.contains("of request 0, which returned 1")));
    }

    #[test]
    fn one_at_a_time_fails_the_rest_with_the_fault_that_lost_the_process() {
        let mut program = Scripted { asked: Vec::new(), answers: vec![ok("b5"), None], running: true };
        let requests = [
            Request::Twin(Handle::Board(1)),
            Request::Counters,
            Request::ToString(Handle::Reply { request: 0, index: 0 }),
            Request::ToString(Handle::Reply { request: 1, index: 0 }),
        ];
        let results = one_at_a_time(&mut program, &requests);
        let lost = Err(Fault::Crashed("killed by signal 9 (SIGKILL)".into()));
        assert_eq!(results[1..], [lost.clone(), lost.clone(), lost], "{results:?}");
        assert_eq!(program.asked.len(), 2);
        let mut ended = Scripted { asked: Vec::new(), answers: Vec::new(), running: false };
        let results = one_at_a_time(&mut ended, &[Request::Counters]);
        assert_eq!(results, [Err(Fault::Crashed("the program ended".into()))]);
    }
}
