//! The four searches side by side — breadth-first, bidirectional breadth-first, A* and IDA* — over the one
//! [`State`] type, each counting the same things the same way so `solver compare` can put them in a table.
//!
//! - *expanded*: positions whose successors were generated; *generated*: successors produced (duplicates
//!   included); *peak memory*: the largest size of the search's own structures (closed sets, frontiers,
//!   queue, path), estimated from their lengths and capacities so it is the same on every run.
//! - Every search stops when it holds more than [`Limits::max_states`] positions (IDA*, which holds only
//!   its path, when it has expanded that many) and says so, instead of running the machine out of memory.
//! - The caller checks solvability first ([`Grid::can_reach`](super::Grid::can_reach)); on an unsolvable
//!   pair the searches would only end at the budget (or, on small boards, by exhausting the space).
//!
//! The A* here is the toolkit's, with a binary heap, a closed set and reopening, not the assignment's
//! [`Solver`](crate::Solver), whose exact counts the grader depends on.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::mem::size_of;

use super::grid::Dir;
use super::heuristic::Heuristic;
use super::space::{mark, mark_depth, path_to, Marks, Space, State};

/// How much a search may hold before it gives up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Positions stored (or, for IDA*, expanded) before giving up.
    pub max_states: u64,
}

impl Limits {
    /// Search until the goal is found or the space is exhausted, however much memory that takes.
    pub const NONE: Limits = Limits { max_states: u64::MAX };
}

/// What a search counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Positions expanded.
    pub expanded: u64,
    /// Successors generated.
    pub generated: u64,
    /// Largest estimated size of the search's structures, in bytes.
    pub peak_bytes: u64,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// An optimal list of blank moves.
    Solved(Vec<Dir>),
    /// The space was exhausted without reaching the goal.
    Unreachable,
    /// The budget ran out.
    GaveUp,
}

/// A search's outcome and counts.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)]
pub struct Run {
    pub outcome: Outcome,
    pub stats: Stats,
}

fn solved(moves: Vec<Dir>, stats: Stats) -> Run {
    Run { outcome: Outcome::Solved(moves), stats }
}

/// Breadth-first search from `start`, goal-tested as positions are generated.
pub fn breadth_first(space: &Space, start: State, limits: Limits) -> Run {
    let mut stats = Stats::default();
    if space.is_goal(&start) {
        return solved(Vec::new(), stats);
    }
    let mut marks = Marks::new(space);
    marks.set(space, &start, mark(0, Dir::Up));
    let (mut frontier, mut stored, mut depth) = (vec![start], 1u64, 0u32);
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for s in &frontier {
            stats.expanded += 1;
            for dir in Dir::ALL {
                let Some(n) = space.successor(s, dir) else { continue };
                stats.generated += 1;
                if marks.get(space, &n).is_some() {
                    continue;
                }
                marks.set(space, &n, mark(depth + 1, dir));
                if space.is_goal(&n) {
                    return solved(path_to(space, &marks, &n), stats);
                }
                next.push(n);
                stored += 1;
            }
            let held = marks.bytes() + (frontier.capacity() + next.capacity()) * size_of::<State>();
            stats.peak_bytes = stats.peak_bytes.max(held as u64);
            if stored > limits.max_states {
                return Run { outcome: Outcome::GaveUp, stats };
            }
        }
        frontier = next;
        depth += 1;
    }
    Run { outcome: Outcome::Unreachable, stats }
}

/// One side of the bidirectional search.
struct Side {
    marks: Marks,
    frontier: Vec<State>,
    depth: u32,
}

/// Bidirectional breadth-first search: whole layers, always of the side with the smaller frontier; the
/// first layer that meets the other side's closed set yields the shortest join (the minimum over that layer
/// of depth here + 1 + depth there), which is optimal.
pub fn bidirectional(space: &Space, start: State, limits: Limits) -> Run {
    let mut stats = Stats::default();
    if space.is_goal(&start) {
        return solved(Vec::new(), stats);
    }
    let side = |root: State| {
        let mut marks = Marks::new(space);
        marks.set(space, &root, mark(0, Dir::Up));
        Side { marks, frontier: vec![root], depth: 0 }
    };
    let mut sides = [side(start), side(space.goal())];
    let mut stored = 2u64;
    while !sides[0].frontier.is_empty() && !sides[1].frontier.is_empty() {
        let k = usize::from(sides[1].frontier.len() < sides[0].frontier.len());
        let [a, b] = &mut sides;
        let (this, other) = if k == 0 { (a, &*b) } else { (b, &*a) };
        let mut best: Option<(u32, State)> = None;
        let mut next = Vec::new();
        for s in &this.frontier {
            stats.expanded += 1;
            for dir in Dir::ALL {
                let Some(n) = space.successor(s, dir) else { continue };
                stats.generated += 1;
                if this.marks.get(space, &n).is_some() {
                    continue;
                }
                this.marks.set(space, &n, mark(this.depth + 1, dir));
                if let Some(m) = other.marks.get(space, &n) {
                    let length = this.depth + 1 + mark_depth(m);
                    if best.is_none_or(|(l, _)| length < l) {
                        best = Some((length, n));
                    }
                }
                next.push(n);
                stored += 1;
            }
        }
        this.frontier = next;
        this.depth += 1;
        let held = this.marks.bytes()
            + other.marks.bytes()
            + (this.frontier.len() + other.frontier.len()) * size_of::<State>();
        stats.peak_bytes = stats.peak_bytes.max(held as u64);
        if let Some((_, meet)) = best {
            return solved(join(space, &sides, &meet), stats);
        }
        if stored > limits.max_states {
            return Run { outcome: Outcome::GaveUp, stats };
        }
    }
    Run { outcome: Outcome::Unreachable, stats }
}

/// The path through the meeting position: the start side's moves to it, then the goal side's moves from the
/// goal to it, reversed and undone.
fn join(space: &Space, sides: &[Side; 2], meet: &State) -> Vec<Dir> {
    let mut moves = path_to(space, &sides[0].marks, meet);
    let back = path_to(space, &sides[1].marks, meet);
    moves.extend(back.iter().rev().map(|d| d.reverse()));
    moves
}

/// An A* queue entry: lowest `f` first, then lowest `h` (deeper first), then first pushed.
struct Entry {
    f: u32,
    h: u32,
    seq: u64,
    g: u32,
    state: State,
}

impl Entry {
    fn key(&self) -> (u32, u32, u64) {
        (self.f, self.h, self.seq)
    }
}
impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

/// A* with a binary heap and a closed set holding each position's best depth; a position reached again by a
/// shorter path is queued again (reopening), so an admissible heuristic is enough for optimality.
pub fn a_star<H: Heuristic>(space: &Space, start: State, h: &H, limits: Limits) -> Run {
    let mut stats = Stats::default();
    let mut marks = Marks::new(space);
    let mut queue = BinaryHeap::new();
    let mut seq = 0u64;
    marks.set(space, &start, mark(0, Dir::Up));
    let h0 = h.value(&h.start(&start));
    queue.push(Entry { f: h0, h: h0, seq, g: 0, state: start });
    let mut stored = 1u64;
    while let Some(Entry { g, state, .. }) = queue.pop() {
        if marks.get(space, &state).is_some_and(|m| mark_depth(m) < g) {
            continue; // reached again more cheaply since this entry was queued
        }
        if space.is_goal(&state) {
            return solved(path_to(space, &marks, &state), stats);
        }
        stats.expanded += 1;
        for dir in Dir::ALL {
            let Some(n) = space.successor(&state, dir) else { continue };
            stats.generated += 1;
            if marks.get(space, &n).is_some_and(|m| mark_depth(m) <= g + 1) {
                continue;
            }
            marks.set(space, &n, mark(g + 1, dir));
            let hn = h.value(&h.start(&n));
            seq += 1;
            queue.push(Entry { f: g + 1 + hn, h: hn, seq, g: g + 1, state: n });
            stored += 1;
        }
        let held = marks.bytes() + queue.capacity() * size_of::<Entry>();
        stats.peak_bytes = stats.peak_bytes.max(held as u64);
        if stored > limits.max_states {
            return Run { outcome: Outcome::GaveUp, stats };
        }
    }
    Run { outcome: Outcome::Unreachable, stats }
}

/// Iterative-deepening A*: depth-first passes bounded by `f = g + h`, each next bound the smallest `f` that
/// exceeded the last. Children are tried in the order U, D, L, R and a move is never undone at once, so the
/// path found is the first optimal one in that order (lexicographically least, U < D < L < R): the
/// documented tie-break of move strings.
pub fn ida_star<H: Heuristic>(space: &Space, start: State, h: &H, limits: Limits) -> Run {
    let mut search = Ida { space, h, path: Vec::new(), stats: Stats::default(), limits, next_bound: u32::MAX };
    let memo = h.start(&start);
    let mut bound = h.value(&memo);
    loop {
        search.next_bound = u32::MAX;
        let pass = search.dfs(start, memo, 0, bound, None);
        // The path's moves and one memo per level (the recursion's frames hold them), at the deepest point.
        let per_level = size_of::<Dir>() + size_of::<State>() + size_of::<H::Memo>();
        search.stats.peak_bytes = (search.path.capacity() * per_level) as u64;
        match pass {
            Pass::Found => return solved(search.path, search.stats),
            Pass::OutOfBudget => return Run { outcome: Outcome::GaveUp, stats: search.stats },
            Pass::NotFound if search.next_bound == u32::MAX => {
                return Run { outcome: Outcome::Unreachable, stats: search.stats }
            }
            Pass::NotFound => bound = search.next_bound,
        }
    }
}

enum Pass {
    Found,
    NotFound,
    OutOfBudget,
}

struct Ida<'a, H: Heuristic> {
    space: &'a Space,
    h: &'a H,
    path: Vec<Dir>,
    stats: Stats,
    limits: Limits,
    next_bound: u32,
}

impl<H: Heuristic> Ida<'_, H> {
    fn dfs(&mut self, s: State, memo: H::Memo, g: u32, bound: u32, last: Option<Dir>) -> Pass {
        let f = g + self.h.value(&memo);
        if f > bound {
            self.next_bound = self.next_bound.min(f);
            return Pass::NotFound;
        }
        if self.space.is_goal(&s) {
            return Pass::Found;
        }
        if self.stats.expanded >= self.limits.max_states {
            return Pass::OutOfBudget;
        }
        self.stats.expanded += 1;
        let from = s.blank();
        for dir in Dir::ALL {
            if let Some(to) = self.space.step(from, dir) {
                self.h.prefetch(&memo, &s, from, to);
            }
        }
        for dir in Dir::ALL {
            if last == Some(dir.reverse()) {
                continue;
            }
            let Some(to) = self.space.step(from, dir) else { continue };
            self.stats.generated += 1;
            let next = s.slide(to);
            let child = self.h.after(&memo, &next, from, to);
            self.path.push(dir);
            match self.dfs(next, child, g + 1, bound, Some(dir)) {
                Pass::NotFound => {}
                done => return done,
            }
            self.path.pop();
        }
        Pass::NotFound
    }
}
