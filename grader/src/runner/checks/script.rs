//! What a Board check author writes against: a trial's requests in a [`Script`], every one written before any
//! is answered, later requests naming the handles of earlier replies by position ([`At::handle`]), and a
//! [`Judge`] that reads the answers afterwards ([`Replies`]).
//!
//! How they travel is `pipeline`'s business: a test's trials are concatenated into scripts of a few thousand
//! requests and sent with [`Session::send_each`], which pipelines them when the adapter resolves references:
//! the program sees exactly the requests, in exactly the order, that trial-by-trial asking would send (except
//! a judge's rare direct question, below, which comes after the groups in flight), but the grader stops
//! paying a round trip per request, and judges one script's trials while the program answers the next.
//! Judging walks the trials in order and stops at the first failure. Where a judge finds the submission
//! strayed from what the script assumed (more than four neighbors, a neighbor count that moves the k-th
//! neighbor), it asks the rest directly through [`ask`] or [`Session::call_each`]: the session reads and keeps
//! the replies of the groups in flight first, for their own judges, so no Board, however wrong, can disturb
//! the groups around it (`checks::tests` drives every Board check with Boards that go wrong).

use npuzzle_harness::protocol::{decode_handle_lists, unescape, Handle, Request, World};
use reference::Board;

use super::context::{Ctx, TrialResult};
use crate::catalog::ValueMethod;
use crate::judge::Mismatch;
use crate::runner::ask::{self, Asked, Failure};
use crate::runner::session::{Answer, Fault, Session};

/// How many neighbors a script reads back speculatively when it cannot know how many there are (the
/// neighbors of a neighbor the submission chose): every legal board has at most four.
pub const NEIGHBOR_READS: usize = 4;

/// Requests written ahead of their answers.
#[derive(Debug, Default)]
pub struct Script {
    requests: Vec<Request>,
    tiles: usize,
}

/// The position of a request in a [`Script`].
#[derive(Debug, Clone, Copy)]
pub struct At(usize);

impl At {
    /// The (first) handle the request's reply will hold.
    pub fn handle(self) -> Handle {
        self.nth(0)
    }

    /// The `k`-th handle the request's reply will hold.
    pub fn nth(self, k: usize) -> Handle {
        Handle::Reply { request: self.0 as u64, index: k as u32 }
    }
}

/// A `neighbors()` request and the speculative reads of the boards it returns.
#[derive(Debug, Clone, Copy)]
pub struct NeighborsAt {
    call: At,
    reads: [At; NEIGHBOR_READS],
    /// How many of `reads` were written.
    read: usize,
}

impl NeighborsAt {
    /// The `k`-th neighbor's handle.
    pub fn nth(self, k: usize) -> Handle {
        self.call.nth(k)
    }
}

impl Script {
    #[allow(missing_docs)]
    pub fn new() -> Script {
        Script::default()
    }

    /// The requests so far.
    pub fn requests(&self) -> &[Request] {
        &self.requests
    }

    #[allow(missing_docs)]
    pub fn push(&mut self, request: Request) -> At {
        if let Request::Board { tiles, .. } | Request::BoardProbe { tiles, .. } = &request {
            self.tiles += tiles.tiles.len();
        }
        self.requests.push(request);
        At(self.requests.len() - 1)
    }

    /// A measure of the work in the script so far: its requests, plus its tiles by the hundred (a
    /// 127-by-127 board is 16,129 tiles to write, read and answer about).
    pub fn weight(&self) -> usize {
        self.requests.len() + self.tiles / 100
    }

    /// Builds `board` in the submission's own world.
    pub fn build(&mut self, board: &Board) -> At {
        self.push(Request::Board { world: World::Own, tiles: ask::tiles_of(board) })
    }

    /// `toString()` of a board.
    pub fn text(&mut self, h: Handle) -> At {
        self.push(Request::ToString(h))
    }

    /// `neighbors()` of a board of unknown position, the first [`NEIGHBOR_READS`] neighbors read back
    /// through `toString()` (a read past the submission's last neighbor is an expected protocol error).
    pub fn neighbors(&mut self, h: Handle) -> NeighborsAt {
        self.neighbors_reading(h, NEIGHBOR_READS)
    }

    /// `neighbors()` of `board`, reading back as many neighbors as it has.
    pub fn neighbors_of(&mut self, h: Handle, board: &Board) -> NeighborsAt {
        self.neighbors_reading(h, neighbor_count(board))
    }

    fn neighbors_reading(&mut self, h: Handle, count: usize) -> NeighborsAt {
        let call = self.push(Request::Neighbors(h));
        let mut reads = [call; NEIGHBOR_READS];
        for (k, read) in reads.iter_mut().enumerate().take(count) {
            *read = self.text(call.nth(k));
        }
        NeighborsAt { call, reads, read: count.min(NEIGHBOR_READS) }
    }
}

/// The request that calls value method `method` on board `h`.
pub fn value_request(method: ValueMethod, h: Handle) -> Request {
    match method {
        ValueMethod::Hamming => Request::Hamming(h),
        ValueMethod::Manhattan => Request::Manhattan(h),
        ValueMethod::Dimension => Request::Dimension(h),
        ValueMethod::IsGoal => Request::IsGoal(h),
    }
}

/// A value method's answer, checked to be an integer (or a boolean, for `isGoal()`), as text.
pub fn value_of(method: ValueMethod, request: &Request, answer: &Answer) -> Asked<String> {
    match method {
        ValueMethod::Hamming | ValueMethod::Manhattan | ValueMethod::Dimension => {
            Ok(ask::int_of(request, answer)?.to_string())
        }
        ValueMethod::IsGoal => Ok(ask::boolean_of(request, answer)?.to_string()),
    }
}

/// Value methods asked of one board, in order.
pub struct ValuesAt {
    /// Each method and where its request is.
    pub asked: Vec<(ValueMethod, At)>,
}

/// Writes value requests about board `h`.
pub fn ask_values(s: &mut Script, h: Handle, methods: &[ValueMethod]) -> ValuesAt {
    ValuesAt { asked: methods.iter().map(|&method| (method, s.push(value_request(method, h)))).collect() }
}

/// How many neighbors `board` has: 2, 3 or 4, by the blank's place (without building them).
pub fn neighbor_count(board: &Board) -> usize {
    let ((row, col), last) = (board.blank(), board.dimension() - 1);
    usize::from(row > 0) + usize::from(row < last) + usize::from(col > 0) + usize::from(col < last)
}

/// The answers to a script.
pub struct Replies<'a> {
    requests: &'a [Request],
    answers: &'a [Result<Answer, Fault>],
}

impl<'a> Replies<'a> {
    /// Pairs a script's requests with their answers.
    pub fn new(script: &'a Script, answers: &'a [Result<Answer, Fault>]) -> Replies<'a> {
        Replies { requests: &script.requests, answers }
    }

    /// The request at `at` and its answer, or the fault it met.
    pub fn answer(&self, at: At) -> Asked<(&Request, &Answer)> {
        match &self.answers[at.0] {
            Ok(answer) => Ok((&self.requests[at.0], answer)),
            Err(fault) => Err(Failure::Fault(fault.clone())),
        }
    }

    /// The answer at `at` as one handle.
    pub fn handle(&self, at: At) -> Asked<Handle> {
        let (request, answer) = self.answer(at)?;
        ask::handle_of(request, answer)
    }

    /// The answer at `at` as `COUNT HANDLE…`.
    pub fn handles(&self, at: At) -> Asked<Vec<Handle>> {
        let (request, answer) = self.answer(at)?;
        ask::handles_of(request, answer)
    }

    /// The answer at `at` as a boolean.
    pub fn boolean(&self, at: At) -> Asked<bool> {
        let (request, answer) = self.answer(at)?;
        ask::boolean_of(request, answer)
    }

    /// The answer at `at` as `toString()` text.
    pub fn text(&self, at: At) -> Asked<String> {
        Ok(unescape(&self.answer(at)?.1.values))
    }

    /// The answer at `at` to a value method, checked to be an integer (or a boolean, for `isGoal()`), as text.
    pub fn value(&self, method: ValueMethod, at: At) -> Asked<String> {
        let (request, answer) = self.answer(at)?;
        value_of(method, request, answer)
    }

    /// The answer at `at` as consecutive `COUNT HANDLE…` lists (`neighbors_after`, `neighbors_nested`).
    pub fn handle_lists(&self, at: At) -> Asked<Vec<Vec<Handle>>> {
        let (request, answer) = self.answer(at)?;
        decode_handle_lists(&answer.values)
            .map_err(|e| Failure::Wrong(Mismatch::new(format!("`{}` answered badly: {e}", request.verb()))))
    }

    /// The neighbors a script asked for, as their `toString()` texts (for checks that compare a board's
    /// answers with its own, whatever its toString() format); texts beyond the speculative reads are asked
    /// for directly.
    pub fn neighbor_texts(&self, session: &mut Session, at: NeighborsAt) -> Asked<Vec<(Handle, String)>> {
        let handles = self.handles(at.call)?;
        let mut found = Vec::with_capacity(handles.len());
        for (k, &h) in handles.iter().enumerate() {
            let text = match at.reads[..at.read].get(k) {
                Some(&read) => self.text(read)?,
                None => unescape(&session.call(&Request::ToString(h))?.values),
            };
            found.push((h, text));
        }
        Ok(found)
    }

    /// The answer at `at` read as a board.
    pub fn board(&self, at: At) -> Asked<Board> {
        ask::board_of(self.answer(at)?.1)
    }

    /// The neighbors a script asked for, with their boards; boards beyond the speculative reads are asked
    /// for directly.
    pub fn neighbors(&self, session: &mut Session, at: NeighborsAt) -> Asked<Vec<(Handle, Board)>> {
        let handles = self.handles(at.call)?;
        let mut found = Vec::with_capacity(handles.len());
        for (k, &h) in handles.iter().enumerate() {
            let board = match at.reads[..at.read].get(k) {
                Some(&read) => self.board(read)?,
                None => ask::read_board(session, h)?,
            };
            found.push((h, board));
        }
        Ok(found)
    }
}

/// Judges one trial from its replies (asking more of the session only where the submission strayed from
/// what the script assumed).
pub type Judge<'a> = Box<dyn FnOnce(&mut Ctx<'_>, &Replies<'_>) -> TrialResult + 'a>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbor_count_is_the_number_of_neighbors_at_every_blank_position() {
        for n in 2..=6 {
            for blank in 0..n * n {
                // The goal with the blank moved to `blank` (solvable or not: neighbors() does not care).
                let mut tiles: Vec<i64> = (1..(n * n) as i64).chain([0]).collect();
                tiles.swap(blank, n * n - 1);
                let board = Board::from_row_major(n, &tiles).unwrap();
                assert_eq!(neighbor_count(&board), board.neighbors().len(), "{board}");
            }
        }
    }
}
