//! Typed requests: the protocol's verbs as functions that return board handles, numbers, text and boards.
//!
//! Every function returns a [`Problem`] on anything but the expected answer, so check executors can use `?`
//! and leave the verdict (failed, not applicable, error) to one place.

use std::time::Duration;

use reference::protocol::{decode_counters, decode_handles, unescape, Handle, Request, Tiles, World};
use reference::Board;

use super::session::{Fault, Session};
use crate::judge::{board_from_text, Mismatch};

/// Why a check could not pass: the submission's fault or a wrong answer.
#[derive(Debug, Clone)]
pub enum Problem {
    /// The request did not come back `ok`.
    Fault(Fault),
    /// The answer was wrong.
    Wrong(Mismatch),
}

impl From<Fault> for Problem {
    fn from(fault: Fault) -> Problem {
        Problem::Fault(fault)
    }
}

impl From<Mismatch> for Problem {
    fn from(m: Mismatch) -> Problem {
        Problem::Wrong(m)
    }
}

impl Problem {
    /// Adds a parenthesized hint to a wrong answer (faults are left as they are).
    pub fn with_hint(self, hint: &str) -> Problem {
        match self {
            Problem::Wrong(m) => Problem::Wrong(m.with(format!("({hint})"))),
            other => other,
        }
    }
}

/// The result of a check step.
pub type Asked<T> = Result<T, Problem>;

fn wrong<T>(summary: impl Into<String>) -> Asked<T> {
    Err(Problem::Wrong(Mismatch::new(summary)))
}

/// The request's tiles.
pub fn tiles_of(board: &Board) -> Tiles {
    Tiles { n: board.dimension(), tiles: board.tiles().map(|t| t as u32).collect() }
}

/// Builds `board` in `world`.
pub fn build(s: &mut Session, world: World, board: &Board) -> Asked<Handle> {
    handle(s, &Request::Board { world, tiles: tiles_of(board) })
}

/// Sends a request whose answer is one handle.
pub fn handle(s: &mut Session, request: &Request) -> Asked<Handle> {
    let answer = s.call(request)?;
    parse_handle(request, &answer.values)
}

fn parse_handle(request: &Request, values: &str) -> Asked<Handle> {
    values.trim().parse().or_else(|_| wrong(format!("`{}` answered `{values}`, not a handle", request.verb())))
}

/// Sends a request whose answer is an integer.
pub fn int(s: &mut Session, request: &Request) -> Asked<i64> {
    let answer = s.call(request)?;
    answer
        .values
        .trim()
        .parse()
        .or_else(|_| wrong(format!("`{}` answered `{}`, not an integer", request.verb(), answer.values)))
}

/// Sends a request whose answer is a boolean.
pub fn boolean(s: &mut Session, request: &Request) -> Asked<bool> {
    let answer = s.call(request)?;
    match answer.values.trim() {
        "true" => Ok(true),
        "false" => Ok(false),
        other => wrong(format!("`{}` answered `{other}`, not true or false", request.verb())),
    }
}

/// `toString()` of a board.
pub fn text(s: &mut Session, h: Handle) -> Asked<String> {
    Ok(unescape(&s.call(&Request::ToString(h))?.values))
}

/// Reads a board back through its `toString()`.
pub fn read_board(s: &mut Session, h: Handle) -> Asked<Board> {
    let text = text(s, h)?;
    board_from_text(&text)
        .map_err(|why| Problem::Wrong(Mismatch::new(why).with(format!("toString() gave: {:?}", clip(&text)))))
}

fn clip(text: &str) -> &str {
    &text[..text.floor_char_boundary(200)]
}

/// Sends a request whose answer is `COUNT HANDLE…`.
pub fn handles(s: &mut Session, request: &Request) -> Asked<Vec<Handle>> {
    let answer = s.call(request)?;
    decode_handles(&answer.values).or_else(|e| wrong(format!("`{}` answered badly: {e}", request.verb())))
}

/// `neighbors()` read back as boards, with their handles.
pub fn neighbors(s: &mut Session, h: Handle) -> Asked<Vec<(Handle, Board)>> {
    let hs = handles(s, &Request::Neighbors(h))?;
    hs.into_iter().map(|n| Ok((n, read_board(s, n)?))).collect()
}

/// Forgets handles, in batches: the handles are queued and released with one request once enough have
/// gathered, saving a round trip per trial. Best effort: a failure here never fails a check.
pub fn release(s: &mut Session, hs: Vec<Handle>) {
    const BATCH: usize = 256;
    s.pending_release.extend(hs);
    if s.pending_release.len() >= BATCH {
        let batch = std::mem::take(&mut s.pending_release);
        let _ = s.call(&Request::Release(batch));
    }
}

/// What a Solver answered for one board.
#[derive(Debug, Clone)]
pub struct SolveObservation {
    /// moves().
    pub moves: i64,
    /// isSolvable().
    pub solvable: bool,
    /// solution(), read back as boards; `None` for null.
    pub solution: Option<Vec<Board>>,
    /// Counters read right after construction (empty without the capability).
    pub counters: Vec<(String, u64)>,
    /// CPU time of the construction.
    pub cpu: Duration,
}

impl SolveObservation {
    /// A counter's value, if the adapter reported it.
    pub fn counter(&self, name: &str) -> Option<u64> {
        self.counters.iter().find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    /// A counter the check cannot do without: its absence makes the check not applicable.
    pub fn required(&self, name: &str) -> Asked<u64> {
        self.counter(name).ok_or_else(|| Fault::Unsupported(format!("the adapter does not report `{name}`")).into())
    }
}

/// Constructs a Solver for `board` in `world` within `cpu`, then asks moves, isSolvable and solution (counters
/// are read first, so reading the solution never shows up in them).
pub fn solve(s: &mut Session, world: World, board: &Board, cpu: Duration, counters: bool) -> Asked<SolveObservation> {
    let b = build(s, world, board)?;
    if counters {
        s.call(&Request::CountersReset)?;
    }
    let request = Request::Solver(b);
    let answer = s.call_within(&request, cpu)?;
    let solver = parse_handle(&request, &answer.values)?;
    let counters = if counters { read_counters(s)? } else { vec![] };
    let moves = int(s, &Request::Moves(solver))?;
    let solvable = boolean(s, &Request::IsSolvable(solver))?;
    let solution = solution(s, solver)?;
    release(s, vec![b, solver]);
    Ok(SolveObservation { moves, solvable, solution, counters, cpu: answer.cpu })
}

/// `solution()` read back as boards (handles released).
pub fn solution(s: &mut Session, solver: Handle) -> Asked<Option<Vec<Board>>> {
    let answer = s.call(&Request::Solution(solver))?;
    if answer.values.trim() == "none" {
        return Ok(None);
    }
    let hs = decode_handles(&answer.values).or_else(|e| wrong(format!("`solution` answered badly: {e}")))?;
    let boards = hs.iter().map(|&h| read_board(s, h)).collect::<Asked<Vec<_>>>();
    release(s, hs);
    boards.map(Some)
}

/// The adapter's counters.
pub fn read_counters(s: &mut Session) -> Asked<Vec<(String, u64)>> {
    let answer = s.call(&Request::Counters)?;
    decode_counters(&answer.values).or_else(|e| wrong(format!("`counters` answered badly: {e}")))
}

/// Sends a request whose answer is one handle, allowing `cpu` (for Solver construction).
pub fn handle_within(s: &mut Session, request: &Request, cpu: Duration) -> Asked<Handle> {
    let answer = s.call_within(request, cpu)?;
    parse_handle(request, &answer.values)
}
