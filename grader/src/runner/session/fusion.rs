//! Which requests of a pipelined batch travel **fused** ([`plan`]), and their one reply split back
//! ([`split_reply`]). Where a `neighbors` request is followed by a `to_string` of each board it returns, in
//! order (what a Board check's script writes for every `neighbors()` it reads back), a program that announced
//! `neighbor_texts` gets one `neighbors_texts` request in their place, and its reply is split back into the
//! results each would have had. The student's code sees the same calls in the same order, and the checks the
//! same results; a Java grade's `own` world is sent 167,000 requests instead of 281,000, so both processes
//! spend less on the protocol around the calls (BENCHMARKS.md: worth most to Rust and Python, whose Board
//! tests cost 19% and 12% less).

use npuzzle_harness::protocol::{decode_handles, decode_neighbor_texts, unresolved, Handle, Outcome, Reply, Request};

/// How the request at one position of a batch travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Wire {
    /// As itself.
    Alone,
    /// A `neighbors` request fused with the `to_string` reads of its first `reads` boards that follow it:
    /// one `neighbors_texts` request with the `neighbors` request's ID.
    Fused {
        /// How many positions after this one it answers.
        reads: u32,
    },
    /// A `to_string` read answered by the fused request before it; never sent.
    Within,
}

/// The most reads one fused request carries (a legal board has at most four neighbors; a script reads no
/// more).
const MOST_READS: u32 = 16;

/// How each request of a batch travels to a program that answers `neighbors_texts`: every `neighbors` request
/// followed directly by `to_string` of its replies' handles 0, 1, … (references relative to the batch) is
/// fused with those reads.
pub(super) fn plan(requests: &[Request]) -> Vec<Wire> {
    let mut wire = vec![Wire::Alone; requests.len()];
    let mut position = 0;
    while position < requests.len() {
        let reads = match requests[position] {
            Request::Neighbors(_) => requests[position + 1..]
                .iter()
                .zip(0..MOST_READS)
                .take_while(|(read, index)| {
                    **read == Request::ToString(Handle::Reply { request: position as u64, index: *index })
                })
                .count(),
            _ => 0,
        };
        if reads > 0 {
            wire[position] = Wire::Fused { reads: reads as u32 };
            wire[position + 1..=position + reads].fill(Wire::Within);
        }
        position += 1 + reads;
    }
    wire
}

/// The reply to a `neighbors_texts` request fused from a `neighbors` request and `reads` reads of its boards
/// ([`Wire::Fused`]), split into the replies each would have had, each with whether it is text: the
/// `neighbors` reply (the handles, and the CPU of every call), then each read's (a read past the boards
/// returned, or of a `neighbors` that failed, is the protocol error the program would have answered to
/// its reference, [`unresolved`]). `None` when the reply does not hold the texts asked for: garbage.
pub(super) fn split_reply(reply: Reply, reads: u32) -> Option<Vec<(Reply, bool)>> {
    let id = reply.id;
    let unread = |index: u32, returned: Option<usize>| {
        let outcome = Outcome::Protocol(unresolved(id, index, returned).0);
        (Reply { id, cpu_micros: 0, outcome }, true)
    };
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
        Some(outcome) => (Reply { id, cpu_micros: 0, outcome }, true),
        None => unread(index, Some(count)),
    });
    Some(std::iter::once((listed, false)).chain(reads).collect())
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

    #[test]
    fn a_neighbors_request_and_the_reads_of_its_boards_travel_fused() {
        let requests = sample_batch();
        let wire = plan(&requests);
        use Wire::*;
        assert_eq!(
            wire,
            [Alone, Fused { reads: 2 }, Within, Within, Alone, Alone, Fused { reads: 1 }, Within, Alone],
            "reads out of order, or of another request's boards, travel alone"
        );
        assert_eq!(plan(&requests[4..6]), [Alone, Alone], "nothing to fuse");
    }
}
