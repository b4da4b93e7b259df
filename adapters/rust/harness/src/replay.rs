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

/// The operation codes of a calls file, as `scripts/replay/calls.py` (`OPS`, `END`) writes them.
mod op {
    /// The world a board from tiles is built in (`WORLDS`): `own`; any other is `ref`.
    pub const WORLD_OWN: i32 = 0;
    pub const END: i32 = 0;
    pub const BOARD: i32 = 1;
    pub const BOARD_PROBE: i32 = 2;
    pub const DIMENSION: i32 = 3;
    pub const HAMMING: i32 = 4;
    pub const MANHATTAN: i32 = 5;
    pub const IS_GOAL: i32 = 6;
    pub const TO_STRING: i32 = 7;
    pub const EQUALS: i32 = 8;
    pub const EQUALS_AS_OBJECT: i32 = 9;
    pub const NEIGHBORS: i32 = 13;
    pub const NEIGHBORS_AFTER: i32 = 14;
    pub const NEIGHBORS_NESTED: i32 = 15;
    pub const TWIN: i32 = 16;
    pub const RELEASE: i32 = 17;
    pub const SOLVER: i32 = 18;
    pub const SOLVER_NULL: i32 = 19;
    pub const IS_SOLVABLE: i32 = 20;
    pub const MOVES: i32 = 21;
    pub const SOLUTION: i32 = 22;
    pub const MEMORY_SOLVER: i32 = 23;
    pub const MEMORY_RETAINED: i32 = 24;
    pub const MEMORY_BOARD: i32 = 25;
    pub const COUNTERS_RESET: i32 = 26;
}

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
        if op == op::END {
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
            op::BOARD | op::BOARD_PROBE | op::MEMORY_BOARD => {
                let (world, n) = (self.next(), self.next() as usize);
                let rows: Vec<Vec<u32>> = (0..n).map(|_| (0..n).map(|_| self.next() as u32).collect()).collect();
                let made = caught(|| match world {
                    op::WORLD_OWN => Slot::OwnBoard(B::from_tiles(&rows)),
                    _ => Slot::RefBoard(CountingBoard::from_board(reference::Board::from_tiles(&rows))),
                });
                if op != op::MEMORY_BOARD {
                    self.fill(made.into_iter().collect());
                }
            }
            op::RELEASE => {
                let count = self.next();
                for _ in 0..count {
                    let index = self.next() as usize;
                    if let Some(slot) = self.slots.get_mut(index) {
                        *slot = Slot::Empty;
                    }
                }
            }
            op::COUNTERS_RESET => reference::instrument::counters::reset(),
            op::SOLVER_NULL => {
                // solver_null: the harness answers it `unsupported` (a Rust Board cannot be null)
                self.next();
                self.fill(Vec::new());
            }
            _ => {
                let a = self.next();
                let b = if matches!(op, op::EQUALS | op::EQUALS_AS_OBJECT | op::NEIGHBORS_AFTER) {
                    self.next()
                } else {
                    -1
                };
                let made = caught(|| self.run(op, a, b)).unwrap_or_default();
                let makes_objects = matches!(
                    op,
                    op::NEIGHBORS
                        | op::NEIGHBORS_AFTER
                        | op::NEIGHBORS_NESTED
                        | op::TWIN
                        | op::SOLVER
                        | op::SOLUTION
                        | op::MEMORY_SOLVER
                );
                if makes_objects {
                    self.fill(made);
                }
            }
        }
    }

    fn run(&mut self, op: i32, a: i32, b: i32) -> Vec<Slot<B, S, R>> {
        let mut sink = 0u64;
        let made = match (op, self.slot(a), self.slot(b)) {
            (op::EQUALS | op::EQUALS_AS_OBJECT, Slot::OwnBoard(x), Slot::OwnBoard(y)) => equal(x, y, &mut sink),
            (op::EQUALS | op::EQUALS_AS_OBJECT, Slot::RefBoard(x), Slot::RefBoard(y)) => equal(x, y, &mut sink),
            (op::NEIGHBORS_AFTER, Slot::OwnBoard(x), Slot::OwnBoard(y)) => both_neighbors(x, y, Slot::OwnBoard),
            (op::NEIGHBORS_AFTER, Slot::RefBoard(x), Slot::RefBoard(y)) => both_neighbors(x, y, Slot::RefBoard),
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
        op::DIMENSION => *sink += x.dimension() as u64,
        op::HAMMING => *sink += u64::from(x.hamming()),
        op::MANHATTAN => *sink += u64::from(x.manhattan()),
        op::IS_GOAL => *sink += u64::from(x.is_goal()),
        op::TO_STRING => *sink += x.to_string().len() as u64,
        op::NEIGHBORS => return x.neighbors().into_iter().map(wrap).collect(),
        op::TWIN => return vec![wrap(x.twin())],
        op::SOLVER | op::MEMORY_SOLVER => return vec![solve(x)],
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
        op::IS_SOLVABLE => *sink += u64::from(s.is_solvable()),
        op::MOVES => *sink = sink.wrapping_add(s.moves() as u64),
        op::SOLUTION => return s.solution().unwrap_or_default().into_iter().map(wrap).collect(),
        op::MEMORY_RETAINED => {
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
