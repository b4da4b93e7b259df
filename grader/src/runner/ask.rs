//! Typed requests: the protocol's verbs as functions that return board handles, numbers, text and boards.
//!
//! Every function returns a [`Failure`] on anything but the expected answer, so check executors can use `?`
//! and leave the verdict (failed, not applicable, error) to one place.

use std::time::Duration;

use npuzzle_harness::protocol::{decode_handles, unescape, Handle, Request, Tiles, World};
use reference::Board;

use super::session::{Answer, Fault, Session};
use crate::judge::{board_from_text, Mismatch};

/// Why a step of a check got no right answer: the session's [`Fault`] (no usable answer) or a [`Mismatch`]
/// (a wrong one). `runner::checks` turns it into the test's verdict (failed, not applicable, error).
#[derive(Debug, Clone)]
pub enum Failure {
    /// The request did not come back `ok`.
    Fault(Fault),
    #[allow(missing_docs)]
    Wrong(Mismatch),
}

impl From<Fault> for Failure {
    fn from(fault: Fault) -> Failure {
        Failure::Fault(fault)
    }
}

impl From<Mismatch> for Failure {
    fn from(m: Mismatch) -> Failure {
        Failure::Wrong(m)
    }
}

impl Failure {
    /// Adds a parenthesized hint to a wrong answer (faults are left as they are).
    pub fn with_hint(self, hint: &str) -> Failure {
        match self {
            Failure::Wrong(m) => Failure::Wrong(m.with(format!("({hint})"))),
            other => other,
        }
    }
}

/// The result of a check step.
pub type Asked<T> = Result<T, Failure>;

fn wrong<T>(summary: impl Into<String>) -> Asked<T> {
    Err(Failure::Wrong(Mismatch::new(summary)))
}

/// The request's tiles.
pub fn tiles_of(board: &Board) -> Tiles {
    Tiles { n: board.dimension(), tiles: board.tiles().map(|t| t as u32).collect() }
}

/// Builds `board` in `world`.
pub fn build(s: &mut Session, world: World, board: &Board) -> Asked<Handle> {
    handle(s, &Request::Board { world, tiles: tiles_of(board) })
}

/// Builds several boards in `world` with one batch.
pub fn build_all<const N: usize>(s: &mut Session, world: World, boards: [&Board; N]) -> Asked<[Handle; N]> {
    let requests = boards.map(|b| Request::Board { world, tiles: tiles_of(b) });
    let answers = s.call_all(&requests)?;
    let handles = requests.iter().zip(&answers).map(|(request, answer)| handle_of(request, answer));
    let handles = handles.collect::<Asked<Vec<Handle>>>()?;
    Ok(handles.try_into().expect("`call_all` answers every request"))
}

/// Sends a request whose answer is one handle.
fn handle(s: &mut Session, request: &Request) -> Asked<Handle> {
    let answer = s.call(request)?;
    handle_of(request, &answer)
}

/// Reads `answer` to `request` as one handle.
pub fn handle_of(request: &Request, answer: &Answer) -> Asked<Handle> {
    let values = &answer.values;
    values.trim().parse().or_else(|_| wrong(format!("`{}` answered `{values}`, not a handle", request.verb())))
}

/// Sends a request whose answer is an integer.
pub fn int(s: &mut Session, request: &Request) -> Asked<i64> {
    int_of(request, &s.call(request)?)
}

/// Reads `answer` to `request` as an integer.
pub fn int_of(request: &Request, answer: &Answer) -> Asked<i64> {
    let values = &answer.values;
    values.trim().parse().or_else(|_| wrong(format!("`{}` answered `{values}`, not an integer", request.verb())))
}

/// Reads `answer` to `request` as a boolean.
pub fn boolean_of(request: &Request, answer: &Answer) -> Asked<bool> {
    match answer.values.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => wrong(format!("`{}` answered `{other}`, not true or false", request.verb())),
    }
}

/// `toString()` of a board.
fn text(s: &mut Session, h: Handle) -> Asked<String> {
    Ok(unescape(&s.call(&Request::ToString(h))?.values))
}

/// Reads a board back through its `toString()`.
pub fn read_board(s: &mut Session, h: Handle) -> Asked<Board> {
    board_of_text(&text(s, h)?)
}

/// The `toString()` requests that read boards `hs` back.
pub fn text_requests(hs: &[Handle]) -> Vec<Request> {
    hs.iter().map(|&h| Request::ToString(h)).collect()
}

/// Reads several boards back through their `toString()`, with one batch.
pub fn read_boards(s: &mut Session, hs: &[Handle]) -> Asked<Vec<Board>> {
    boards_of(s.call_each(&text_requests(hs)))
}

/// The boards the answers to [`text_requests`] give, or the first failure among them.
fn boards_of(answers: Vec<Result<Answer, Fault>>) -> Asked<Vec<Board>> {
    let answers: Vec<Answer> = answers.into_iter().collect::<Result<_, _>>()?;
    answers.iter().map(board_of).collect()
}

/// Reads a `toString()` answer as a board.
pub fn board_of(answer: &Answer) -> Asked<Board> {
    board_of_text(&unescape(&answer.values))
}

/// Reads a board from its `toString()` text; a text that is not a board is a wrong answer.
fn board_of_text(text: &str) -> Asked<Board> {
    board_from_text(text)
        .map_err(|why| Failure::Wrong(Mismatch::new(why).with(format!("toString() gave: {:?}", clip(text)))))
}

fn clip(text: &str) -> &str {
    &text[..text.floor_char_boundary(200)]
}

/// Sends a request whose answer is `COUNT HANDLE…`.
fn handles(s: &mut Session, request: &Request) -> Asked<Vec<Handle>> {
    handles_of(request, &s.call(request)?)
}

/// Reads `answer` to `request` as `COUNT HANDLE…`.
pub fn handles_of(request: &Request, answer: &Answer) -> Asked<Vec<Handle>> {
    decode_handles(&answer.values).or_else(|e| wrong(format!("`{}` answered badly: {e}", request.verb())))
}

/// `neighbors()` read back as boards, with their handles.
pub fn neighbors(s: &mut Session, h: Handle) -> Asked<Vec<(Handle, Board)>> {
    let hs = handles(s, &Request::Neighbors(h))?;
    with_boards(s, hs)
}

/// Pairs handles with their boards, read back with one batch.
fn with_boards(s: &mut Session, hs: Vec<Handle>) -> Asked<Vec<(Handle, Board)>> {
    let boards = read_boards(s, &hs)?;
    Ok(hs.into_iter().zip(boards).collect())
}

/// Forgets handles, in batches: the handles are queued, and a `release` rides along with a later request
/// once enough have gathered (no round trip of its own). Best effort: a failure here never fails a check.
pub fn release(s: &mut Session, hs: Vec<Handle>) {
    s.pending_release.extend(hs);
}

/// `solution()` read back as boards (handles released).
pub fn solution(s: &mut Session, solver: Handle) -> Asked<Option<Vec<Board>>> {
    let request = Request::Solution(solver);
    let answer = s.call(&request)?;
    solution_of(s, &request, &answer)
}

/// Reads `answer` to a `solution` request as boards (handles released).
pub fn solution_of(s: &mut Session, request: &Request, answer: &Answer) -> Asked<Option<Vec<Board>>> {
    solution_boards(s, solution_handles(request, answer), None)
}

/// The boards' handles in `answer` to a `solution` request; `None` for null.
pub fn solution_handles(request: &Request, answer: &Answer) -> Asked<Option<Vec<Handle>>> {
    if answer.values.trim() == "none" {
        return Ok(None);
    }
    handles_of(request, answer).map(Some)
}

/// A solution's boards from its `handles` ([`solution_handles`]), read back through `toString()`: `texts` are
/// the answers to [`text_requests`] of them when those were sent already, else they are asked now. The
/// handles are then released.
pub fn solution_boards(
    s: &mut Session,
    handles: Asked<Option<Vec<Handle>>>,
    texts: Option<Vec<Result<Answer, Fault>>>,
) -> Asked<Option<Vec<Board>>> {
    let Some(hs) = handles? else { return Ok(None) };
    let texts = texts.unwrap_or_else(|| s.call_each(&text_requests(&hs)));
    let boards = boards_of(texts);
    release(s, hs);
    boards.map(Some)
}

/// Sends a request whose answer is one handle, allowing `cpu` (for Solver construction).
pub fn handle_within(s: &mut Session, request: &Request, cpu: Duration) -> Asked<Handle> {
    handle_of(request, &s.call_within(request, cpu)?)
}
