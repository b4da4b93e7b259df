//! The floor under a Rust grade's cost: the grade's own Board and Solver calls made again by a plain program,
//! with no grader, protocol, sandbox or counting allocator (issue 36; `scripts/replay/floor.py` runs it).
//!
//! The calls come from the grade's transcripts (`scripts/replay/calls.py` documents the stream: big-endian
//! 32-bit words, one record per call). One process serves both worlds, as the harness does: `own` is the
//! student's Board and Solver, `ref` their Solver over the counting reference board. Each result is kept in
//! its slot until the grade released it, so the program holds what the graded one held. A call that panics
//! is caught and the replay goes on, as the harness would.

use std::panic::{self, AssertUnwindSafe};

use npuzzle::{PuzzleBoard, PuzzleSolver};
use reference::instrument::counting_board::CountingBoard;

/// What a replay did.
#[derive(Debug, Default)]
pub struct Replayed {
    /// The calls made.
    pub calls: u64,
    /// A sum of what the calls returned, so that none can be optimized away.
    pub sink: u64,
}

enum Slot<B, S, R> {
    Empty,
    OwnBoard(B),
    RefBoard(CountingBoard),
    OwnSolver(S),
    RefSolver(R),
}

/// Replays `calls` (the words of a calls file): `B` is the student's Board, `S` their Solver over it, `R` their
/// Solver over the counting reference board.
pub fn replay<B, S, R>(calls: &[i32]) -> Replayed
where
    B: PuzzleBoard,
    S: PuzzleSolver<B>,
    R: PuzzleSolver<CountingBoard>,
{
    let mut replay = Replay::<B, S, R> { calls, at: 0, slots: Vec::new(), done: Replayed::default() };
    let quiet = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    while replay.at < calls.len() {
        let op = replay.next();
        if op == 0 {
            replay.slots.clear();
            continue;
        }
        replay.done.calls += 1;
        replay.call(op);
    }
    panic::set_hook(quiet);
    replay.done
}

struct Replay<'c, B, S, R> {
    calls: &'c [i32],
    at: usize,
    slots: Vec<Slot<B, S, R>>,
    done: Replayed,
}

impl<B, S, R> Replay<'_, B, S, R>
where
    B: PuzzleBoard,
    S: PuzzleSolver<B>,
    R: PuzzleSolver<CountingBoard>,
{
    fn next(&mut self) -> i32 {
        self.at += 1;
        self.calls[self.at - 1]
    }

    fn slot(&self, index: i32) -> &Slot<B, S, R> {
        self.slots.get(index as usize).unwrap_or(&Slot::Empty)
    }

    /// Keeps what a call made in the slots its record lists (a count, -1 when the grade's call failed).
    fn fill(&mut self, made: Vec<Slot<B, S, R>>) {
        let count = self.next();
        let mut made = made.into_iter();
        for _ in 0..count.max(0) {
            let index = self.next() as usize;
            if index >= self.slots.len() {
                self.slots.resize_with(index + 1, || Slot::Empty);
            }
            self.slots[index] = made.next().unwrap_or(Slot::Empty);
        }
    }

    fn call(&mut self, op: i32) {
        match op {
            1 | 2 | 25 => {
                let (world, n) = (self.next(), self.next() as usize);
                let rows: Vec<Vec<u32>> = (0..n).map(|_| (0..n).map(|_| self.next() as u32).collect()).collect();
                let made = caught(|| match world {
                    0 => Slot::OwnBoard(B::from_tiles(&rows)),
                    _ => Slot::RefBoard(CountingBoard::from_board(reference::Board::from_tiles(&rows))),
                });
                if op != 25 {
                    self.fill(made.into_iter().collect());
                }
            }
            17 => {
                let count = self.next();
                for _ in 0..count {
                    let index = self.next() as usize;
                    if let Some(slot) = self.slots.get_mut(index) {
                        *slot = Slot::Empty;
                    }
                }
            }
            26 => reference::instrument::counters::reset(),
            19 => {
                // solver_null: the harness answers it `unsupported` (a Rust Board cannot be null)
                self.next();
                self.fill(Vec::new());
            }
            _ => {
                let a = self.next();
                let b = if matches!(op, 8 | 9 | 14) { self.next() } else { -1 };
                let made = caught(|| self.run(op, a, b)).unwrap_or_default();
                if matches!(op, 13 | 14 | 15 | 16 | 18 | 22 | 23) {
                    self.fill(made);
                }
            }
        }
    }

    fn run(&mut self, op: i32, a: i32, b: i32) -> Vec<Slot<B, S, R>> {
        let mut sink = 0u64;
        let made = match (op, self.slot(a), self.slot(b)) {
            (8 | 9, Slot::OwnBoard(x), Slot::OwnBoard(y)) => equal(x, y, &mut sink),
            (8 | 9, Slot::RefBoard(x), Slot::RefBoard(y)) => equal(x, y, &mut sink),
            (14, Slot::OwnBoard(x), Slot::OwnBoard(y)) => both_neighbors(x, y, Slot::OwnBoard),
            (14, Slot::RefBoard(x), Slot::RefBoard(y)) => both_neighbors(x, y, Slot::RefBoard),
            (_, Slot::OwnBoard(x), _) => {
                board_call(x, op, &mut sink, Slot::OwnBoard, |x| Slot::OwnSolver(S::new(x.clone())))
            }
            (_, Slot::RefBoard(x), _) => {
                board_call(x, op, &mut sink, Slot::RefBoard, |x| Slot::RefSolver(R::new(x.clone())))
            }
            (_, Slot::OwnSolver(s), _) => solver_call(s, op, &mut sink, Slot::OwnBoard),
            (_, Slot::RefSolver(s), _) => solver_call(s, op, &mut sink, Slot::RefBoard),
            (_, Slot::Empty, _) => Vec::new(),
        };
        self.done.sink = self.done.sink.wrapping_add(sink);
        made
    }
}

fn equal<T: PuzzleBoard, B, S, R>(x: &T, y: &T, sink: &mut u64) -> Vec<Slot<B, S, R>> {
    *sink += u64::from(x == y);
    Vec::new()
}

/// `neighbors_after`: both calls return before either result is used.
fn both_neighbors<T: PuzzleBoard, B, S, R>(x: &T, y: &T, wrap: impl Fn(T) -> Slot<B, S, R>) -> Vec<Slot<B, S, R>> {
    let (first, second) = (x.neighbors(), y.neighbors());
    first.into_iter().chain(second).map(wrap).collect()
}

fn board_call<T: PuzzleBoard, B, S, R>(
    x: &T,
    op: i32,
    sink: &mut u64,
    wrap: impl Fn(T) -> Slot<B, S, R>,
    solve: impl Fn(&T) -> Slot<B, S, R>,
) -> Vec<Slot<B, S, R>> {
    match op {
        3 => *sink += x.dimension() as u64,
        4 => *sink += u64::from(x.hamming()),
        5 => *sink += u64::from(x.manhattan()),
        6 => *sink += u64::from(x.is_goal()),
        7 => *sink += x.to_string().len() as u64,
        13 => return x.neighbors().into_iter().map(wrap).collect(),
        16 => return vec![wrap(x.twin())],
        18 | 23 => return vec![solve(x)],
        _ => {}
    }
    Vec::new()
}

fn solver_call<T: PuzzleBoard, V: PuzzleSolver<T>, B, S, R>(
    s: &V,
    op: i32,
    sink: &mut u64,
    wrap: impl Fn(T) -> Slot<B, S, R>,
) -> Vec<Slot<B, S, R>> {
    match op {
        20 => *sink += u64::from(s.is_solvable()),
        21 => *sink = sink.wrapping_add(s.moves() as u64),
        22 => return s.solution().unwrap_or_default().into_iter().map(wrap).collect(),
        24 => {
            *sink = sink.wrapping_add(s.moves() as u64);
            *sink += u64::from(s.is_solvable());
            *sink += s.solution().map_or(0, |path| path.len() as u64);
        }
        _ => {}
    }
    Vec::new()
}

fn caught<T>(call: impl FnOnce() -> T) -> Option<T> {
    panic::catch_unwind(AssertUnwindSafe(call)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    type Own = reference::Board;

    fn replayed(calls: &[i32]) -> Replayed {
        replay::<Own, reference::Solver<Own>, reference::Solver<CountingBoard>>(calls)
    }

    #[test]
    fn a_replay_makes_each_call_on_the_objects_earlier_calls_made_in_either_world() {
        // [[1, 2], [0, 3]]: hamming 1, one move; built in each world, solved in each
        let calls = [
            1, 0, 2, 1, 2, 0, 3, 1, 0, // board own -> slot 0
            4, 0, // hamming 0: +1
            13, 0, 2, 1, 2, // neighbors 0 -> slots 1, 2
            18, 0, 1, 3, // solver 0 -> slot 3
            21, 3, // moves 3: +1
            22, 3, 2, 4, 5, // solution 3 -> slots 4, 5
            5, 5, // manhattan of the goal: +0
            1, 1, 2, 1, 2, 0, 3, 1, 6, // board ref -> slot 6
            18, 6, 1, 7, // solver 6 (the ref world's Solver) -> slot 7
            21, 7, // moves 7: +1
            17, 1, 0, // release 0
            4, 0,  // hamming of a released board: nothing to call
            26, // counters_reset
            0,  // the transcript's end: every slot dropped
            21, 3, // moves of a dropped solver: nothing
        ];
        let done = replayed(&calls);
        assert_eq!(done.sink, 3);
        assert_eq!(done.calls, 14);
    }
}
