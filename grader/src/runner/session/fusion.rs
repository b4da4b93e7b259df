//! Which requests of a pipelined batch travel **fused** ([`plan`]), what a fused request is allowed
//! ([`Wire::deadline`]), and its one reply split back ([`split`]). Two fusions, each for a program that
//! announced it:
//!
//! - `neighbor_texts`: where a `neighbors` request is followed by a `to_string` of each board it returns, in
//!   order (what a Board check's script writes for every `neighbors()` it reads back), one `neighbors_texts`
//!   request goes in their place. A Java grade's `own` world is sent 167,000 requests instead of 281,000, so
//!   both processes spend less on the protocol around the calls (BENCHMARKS.md: worth most to Rust and
//!   Python, whose Board tests cost 19% and 12% less).
//! - `texts`: a run of `to_string` requests of boards by their own handles travels as one `texts` request,
//!   in a session whose every board is the reference Board ([`Fusions::texts`]: the Java `ref` world's
//!   program, which holds nothing else), whose `toString()` is the adapter's own: the run is allowed one
//!   request's time, as the first read alone would be. A life reads its solution's boards so (45,000 of the
//!   70,000 requests of a Java grade's `ref` world).
//!
//! The student's code sees the same calls in the same order, and the checks the same results.

use npuzzle_harness::protocol::{
    decode_handles, decode_neighbor_texts, decode_texts, unresolved, Handle, Outcome, Reply, Request,
};

use crate::runner::process::Deadline;

/// How the request at one position of a batch travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Wire {
    /// As itself.
    Alone,
    /// A `neighbors` request fused with the `to_string` reads of its first `reads` boards that follow it:
    /// one `neighbors_texts` request with the `neighbors` request's ID.
    NeighborsTexts {
        /// How many positions after this one it answers.
        reads: u32,
    },
    /// A `to_string` read of a board by its own handle fused with the `reads` such reads that follow it: one
    /// `texts` request with this one's ID.
    Texts {
        /// How many positions after this one it answers.
        reads: u32,
    },
    /// A `to_string` read answered by the fused request before it; never sent.
    Within,
}

impl Wire {
    /// How many reads after its own position a request travelling so answers too.
    pub(super) fn reads(self) -> u32 {
        match self {
            Wire::NeighborsTexts { reads } | Wire::Texts { reads } => reads,
            Wire::Alone | Wire::Within => 0,
        }
    }

    /// What a request travelling so is allowed, from `one` request's allowance: a `neighbors_texts` request the
    /// limits of every request it stands for; a `texts` run one request's, as its first read alone (module doc).
    pub(super) fn deadline(self, one: Deadline) -> Deadline {
        match self {
            Wire::NeighborsTexts { reads } => one.times(reads + 1),
            Wire::Alone | Wire::Texts { .. } | Wire::Within => one,
        }
    }
}

/// Which fusions a batch's program answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Fusions {
    /// `neighbors_texts`: a `neighbors` request with the reads of its boards.
    pub(super) neighbor_texts: bool,
    /// `texts`: a run of reads of boards by their handles (only where every board is the reference Board).
    pub(super) texts: bool,
}

/// The most reads one fused request carries (a legal board has at most four neighbors; a script reads no
/// more).
const MOST_READS: u32 = 16;

/// The most reads one `texts` request carries (a life reads a solution of up to a few dozen boards at once).
const MOST_TEXTS: u32 = 64;

/// How each request of a batch travels to a program that answers `fusions`: every `neighbors` request
/// followed directly by `to_string` of its replies' handles 0, 1, … (references relative to the batch) is
/// fused with those reads; every run of two or more `to_string` requests of boards by their own handles is one
/// `texts` request.
pub(super) fn plan(requests: &[Request], fusions: Fusions) -> Vec<Wire> {
    let mut wire = vec![Wire::Alone; requests.len()];
    let mut position = 0;
    while position < requests.len() {
        let reads = match requests[position] {
            Request::Neighbors(_) if fusions.neighbor_texts => requests[position + 1..]
                .iter()
                .zip(0..MOST_READS)
                .take_while(|(read, index)| {
                    **read == Request::ToString(Handle::Reply { request: position as u64, index: *index })
                })
                .count(),
            _ => 0,
        };
        if reads > 0 {
            wire[position] = Wire::NeighborsTexts { reads: reads as u32 };
            wire[position + 1..=position + reads].fill(Wire::Within);
            position += 1 + reads;
            continue;
        }
        let run = if fusions.texts {
            requests[position..]
                .iter()
                .take(MOST_TEXTS as usize)
                .take_while(|read| matches!(read, Request::ToString(Handle::Board(_))))
                .count()
        } else {
            0
        };
        if run > 1 {
            wire[position] = Wire::Texts { reads: run as u32 - 1 };
            wire[position + 1..position + run].fill(Wire::Within);
        }
        position += run.max(1);
    }
    wire
}

/// The reply to a request that travelled as `wire`, split into the replies of the requests it stands for, each
/// with whether it is text (a request alone: its own, text when `text`). `None` when a fused reply does not
/// hold what its reads asked for: garbage.
pub(super) fn split(reply: Reply, wire: Wire, text: bool) -> Option<Vec<(Reply, bool)>> {
    match wire {
        Wire::NeighborsTexts { reads } => split_neighbors_texts(reply, reads),
        Wire::Texts { reads } => split_texts(reply, reads),
        Wire::Alone | Wire::Within => Some(vec![(reply, text)]),
    }
}

/// The reply to a `neighbors_texts` request fused from a `neighbors` request and `reads` reads of its boards
/// ([`Wire::NeighborsTexts`]), split into the replies each would have had, each with whether it is text: the
/// `neighbors` reply (the handles, and the CPU of every call), then each read's (a read past the boards
/// returned, or of a `neighbors` that failed, is the protocol error the program would have answered to
/// its reference, [`unresolved`]). `None` when the reply does not hold the texts asked for: garbage.
fn split_neighbors_texts(reply: Reply, reads: u32) -> Option<Vec<(Reply, bool)>> {
    let id = reply.id;
    let unread = |index: u32, returned: Option<usize>| read(id, Outcome::Protocol(unresolved(id, index, returned).0));
    let Outcome::Ok(values) = &reply.outcome else {
        let reads = (0..reads).map(|index| unread(index, None));
        return Some(std::iter::once((reply, false)).chain(reads).collect());
    };
    let (handles, texts) = decode_neighbor_texts(values).ok()?;
    let count = decode_handles(handles).ok()?.len();
    if texts.len() != count.min(reads as usize) {
        return None;
    }
    let listed = Reply { id, cpu_micros: reply.cpu_micros, outcome: Outcome::Ok(handles.to_string()) };
    let mut texts = texts.into_iter();
    let reads = (0..reads).map(|index| match texts.next() {
        Some(outcome) => read(id, outcome),
        None => unread(index, Some(count)),
    });
    Some(std::iter::once((listed, false)).chain(reads).collect())
}

/// The reply to a `texts` request fused from `reads + 1` reads ([`Wire::Texts`]), split into the replies each
/// would have had (text, all of them: the CPU of every read on the first). A reply that is not `ok` (the
/// program could not take the request) is every read's. `None` when the reply does not hold one text a read:
/// garbage.
fn split_texts(reply: Reply, reads: u32) -> Option<Vec<(Reply, bool)>> {
    let Reply { id, cpu_micros, outcome } = reply;
    let count = reads as usize + 1;
    let outcomes = match &outcome {
        Outcome::Ok(values) => decode_texts(values).ok().filter(|texts| texts.len() == count)?,
        _ => vec![outcome; count],
    };
    let mut split: Vec<_> = outcomes.into_iter().map(|outcome| read(id, outcome)).collect();
    split[0].0.cpu_micros = cpu_micros;
    Some(split)
}

/// A read's reply split from a fused one: text, its CPU on the reply before it.
fn read(id: u64, outcome: Outcome) -> (Reply, bool) {
    (Reply { id, cpu_micros: 0, outcome }, true)
}

#[cfg(test)]
/// A batch with two `neighbors` requests each followed by reads of its boards in order, and one whose
/// read is of another board.
pub(super) fn sample_batch() -> Vec<Request> {
    let read = |request: u64, index: u32| Request::ToString(Handle::Reply { request, index });
    vec![
        Request::Board {
            world: npuzzle_harness::protocol::World::Own,
            tiles: npuzzle_harness::protocol::Tiles { n: 2, tiles: vec![1, 2, 3, 0] },
        },
        Request::Neighbors(Handle::Reply { request: 0, index: 0 }),
        read(1, 0),
        read(1, 1),
        Request::Neighbors(Handle::Reply { request: 2, index: 0 }),
        read(4, 1),
        Request::Neighbors(Handle::Board(3)),
        read(6, 0),
        Request::Hamming(Handle::Board(3)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const NEIGHBOR_TEXTS: Fusions = Fusions { neighbor_texts: true, texts: false };
    const TEXTS: Fusions = Fusions { neighbor_texts: false, texts: true };

    #[test]
    fn a_neighbors_request_and_the_reads_of_its_boards_travel_fused() {
        let requests = sample_batch();
        let wire = plan(&requests, NEIGHBOR_TEXTS);
        use Wire::*;
        assert_eq!(
            wire,
            [
                Alone,
                NeighborsTexts { reads: 2 },
                Within,
                Within,
                Alone,
                Alone,
                NeighborsTexts { reads: 1 },
                Within,
                Alone
            ],
            "reads out of order, or of another request's boards, travel alone"
        );
        assert_eq!(plan(&requests[4..6], NEIGHBOR_TEXTS), [Alone, Alone], "nothing to fuse");
        assert_eq!(plan(&requests, Fusions::default()), [Alone; 9], "a program that announced neither");
    }

    #[test]
    fn a_run_of_reads_of_boards_by_their_handles_travels_as_one_texts_request() {
        let read = |b: u64| Request::ToString(Handle::Board(b));
        let requests = [
            Request::Counters,
            read(4),
            read(5),
            read(6),
            Request::ToString(Handle::Reply { request: 0, index: 0 }),
            read(7),
            Request::Hamming(Handle::Board(7)),
            read(8),
            read(9),
        ];
        use Wire::*;
        assert_eq!(
            plan(&requests, TEXTS),
            [Alone, Texts { reads: 2 }, Within, Within, Alone, Alone, Alone, Texts { reads: 1 }, Within],
            "a reference, or a read alone, travels as itself"
        );
        assert_eq!(plan(&requests, NEIGHBOR_TEXTS), [Alone; 9], "a program without `texts`");
        let long: Vec<Request> = (0..MOST_TEXTS as u64 + 3).map(read).collect();
        let wire = plan(&long, TEXTS);
        assert_eq!((wire[0], wire[MOST_TEXTS as usize]), (Texts { reads: MOST_TEXTS - 1 }, Texts { reads: 2 }));
        let fused = sample_batch();
        assert_eq!(plan(&fused, Fusions { neighbor_texts: true, texts: true }), plan(&fused, NEIGHBOR_TEXTS));
    }

    #[test]
    fn a_texts_reply_comes_back_apart_with_its_cpu_on_the_first_read() {
        let reply = |outcome| Reply { id: 7, cpu_micros: 30, outcome };
        let values = npuzzle_harness::protocol::encode_texts(&[
            Outcome::Ok("2\\n 1 2 \\n".into()),
            Outcome::Exception { kind: "java.lang.IllegalStateException".into(), message: "no".into() },
            Outcome::Protocol("b9 is not a board".into()),
        ]);
        let apart = split_texts(reply(Outcome::Ok(values)), 2).unwrap();
        let outcomes: Vec<_> = apart.iter().map(|(r, text)| (r.id, r.cpu_micros, r.outcome.clone(), *text)).collect();
        assert_eq!(
            outcomes,
            [
                (7, 30, Outcome::Ok("2\\n 1 2 \\n".into()), true),
                (
                    7,
                    0,
                    Outcome::Exception { kind: "java.lang.IllegalStateException".into(), message: "no".into() },
                    true
                ),
                (7, 0, Outcome::Protocol("b9 is not a board".into()), true),
            ]
        );
        let values = npuzzle_harness::protocol::encode_texts(&[Outcome::Ok("x".into())]);
        assert_eq!(split_texts(reply(Outcome::Ok(values)), 2), None, "fewer texts than reads: garbage");
        assert_eq!(split_texts(reply(Outcome::Ok("1 b3\t=x\t=y".into())), 1), None, "handles: garbage");
        let refused = split_texts(reply(Outcome::Protocol("bad".into())), 1).unwrap();
        assert!(refused.iter().all(|(r, _)| r.outcome == Outcome::Protocol("bad".into())), "{refused:?}");
    }
}
