//! **Grader side.** Per-thread operation counters fed by [`MinPQ`](crate::MinPQ) (through the observer this
//! module installs in `npuzzle`) and [`CountingBoard`](crate::instrument::counting_board::CountingBoard).
//!
//! No submission can name this module: a submission compiles against `npuzzle` alone, whose queues only
//! report to [`Observer`] and can neither read nor reset what it counts. Counts only grow between two
//! [`reset`]s, which only the harness calls (on the grader's `counters_reset` request).
//!
//! Counters are thread-local so two solvers graded on different threads never mix their counts, and are
//! updated in place so counting costs a few instructions on the solver's hot path.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::instrument::expanded::Expanded;

/// A snapshot of every counter since the last [`reset`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// `MinPQ::insert` calls, all queues together.
    pub pq_inserts: u64,
    /// `MinPQ::del_min` calls that returned an item, all queues together.
    pub pq_del_mins: u64,
    /// The largest number of items held by all queues together (summed over queues, as the official grader
    /// reports a two-queue solver's maximum size).
    pub pq_max_size: u64,
    /// Items held by all queues together right now (inserts minus delMins since the last reset).
    pub pq_live_size: u64,
    /// Items left in queues when they ended, summed over queues.
    pub pq_ending_size: u64,
    /// Bytes released when queues ended (their deep memory), summed; 0 without the counting allocator.
    pub pq_deep_bytes: u64,
    /// Queues found out of heap order: an item's ordering changed after it was inserted.
    pub pq_heap_violations: u64,
    /// Reference boards constructed (from tiles, as neighbors, as twins).
    pub board_constructed: u64,
    /// `equals` calls on reference boards.
    pub board_equals: u64,
    /// `equals` calls whose argument was not a neighbor of a neighbor of the receiver.
    pub board_equals_not_grand_neighbor: u64,
    /// `manhattan` calls, plus one per `is_goal` (which goes through manhattan, as in the official reference).
    pub board_manhattan: u64,
    /// `hamming` calls.
    pub board_hamming: u64,
    /// `toString` (Display) calls.
    pub board_to_string: u64,
    /// `neighbors` calls.
    pub board_neighbors: u64,
    /// Distinct boards expanded: `neighbors` called on them as the first call since the last `del_min`, of
    /// the boards descended from one the grader built (`instrument/expanded.rs`).
    pub board_expanded: u64,
    /// Distinct boards `neighbors` was called on (any call), of the boards descended from the grader's.
    pub board_neighbors_distinct: u64,
    /// `twin` calls.
    pub board_twin: u64,
    /// `is_goal` calls.
    pub board_is_goal: u64,
    /// `dimension` calls.
    pub board_dimension: u64,
}

const ZERO: Counts = Counts {
    pq_inserts: 0,
    pq_del_mins: 0,
    pq_max_size: 0,
    pq_live_size: 0,
    pq_ending_size: 0,
    pq_deep_bytes: 0,
    pq_heap_violations: 0,
    board_constructed: 0,
    board_equals: 0,
    board_equals_not_grand_neighbor: 0,
    board_manhattan: 0,
    board_hamming: 0,
    board_to_string: 0,
    board_neighbors: 0,
    board_expanded: 0,
    board_neighbors_distinct: 0,
    board_twin: 0,
    board_is_goal: 0,
    board_dimension: 0,
};

/// Set by the harness ([`count_other_threads`]): then operations on threads that did not turn counting on
/// for themselves (threads a submission spawns) are counted here rather than lost.
static OTHER_THREADS_COUNTED: AtomicBool = AtomicBool::new(false);
static OTHER_THREADS: Mutex<Tally> = Mutex::new(Tally::ZERO);

/// What one counting context keeps: its counts and the boards it saw expanded.
struct Tally {
    counts: Counts,
    expanded: Expanded,
}

impl Tally {
    const ZERO: Tally = Tally { counts: ZERO, expanded: Expanded::new() };

    fn clear(&mut self) {
        self.counts = ZERO;
        self.expanded.clear();
    }
}

thread_local! {
    static TALLY: RefCell<Tally> = const { RefCell::new(Tally::ZERO) };
    static ENABLED: Cell<bool> = const { Cell::new(false) };
    static PAUSED: Cell<bool> = const { Cell::new(false) };
}

/// Applies `change` to this thread's tally (unless counting is paused for the grader's own checks).
fn update_tally(change: impl FnOnce(&mut Tally)) {
    if PAUSED.with(Cell::get) {
        return;
    }
    if !ENABLED.with(Cell::get) && OTHER_THREADS_COUNTED.load(Ordering::Relaxed) {
        change(&mut OTHER_THREADS.lock().unwrap_or_else(PoisonError::into_inner));
        return;
    }
    TALLY.with_borrow_mut(change);
}

/// Applies `change` to this thread's counts (unless counting is paused for the grader's own checks).
pub(crate) fn update(change: impl FnOnce(&mut Counts)) {
    update_tally(|tally| change(&mut tally.counts));
}

/// From now on, counts of threads that did not call [`set_enabled`] are kept (see [`snapshot_all`]): a
/// submission that searches on a thread of its own is counted like one that does not. Only the harness
/// calls this; elsewhere (the grader's threads computing baselines) other threads' counts are their own.
pub fn count_other_threads() {
    OTHER_THREADS_COUNTED.store(true, Ordering::Relaxed);
}

/// What the harness reports: this thread's counts plus those of other threads (when counted), with the
/// ending size at least the items still queued, so a queue the submission leaked or kept (which never
/// reported its end) still shows what it held.
pub fn snapshot_all() -> Counts {
    let mut all = snapshot().plus(&OTHER_THREADS.lock().unwrap_or_else(PoisonError::into_inner).counts);
    all.pq_ending_size = all.pq_ending_size.max(all.pq_live_size);
    all
}

impl Counts {
    /// Both counts together (maximum sizes summed, as sizes of separate queues are).
    fn plus(&self, o: &Counts) -> Counts {
        Counts {
            pq_inserts: self.pq_inserts + o.pq_inserts,
            pq_del_mins: self.pq_del_mins + o.pq_del_mins,
            pq_max_size: self.pq_max_size + o.pq_max_size,
            pq_live_size: self.pq_live_size + o.pq_live_size,
            pq_ending_size: self.pq_ending_size + o.pq_ending_size,
            pq_deep_bytes: self.pq_deep_bytes + o.pq_deep_bytes,
            pq_heap_violations: self.pq_heap_violations + o.pq_heap_violations,
            board_constructed: self.board_constructed + o.board_constructed,
            board_equals: self.board_equals + o.board_equals,
            board_equals_not_grand_neighbor: self.board_equals_not_grand_neighbor + o.board_equals_not_grand_neighbor,
            board_manhattan: self.board_manhattan + o.board_manhattan,
            board_hamming: self.board_hamming + o.board_hamming,
            board_to_string: self.board_to_string + o.board_to_string,
            board_neighbors: self.board_neighbors + o.board_neighbors,
            board_expanded: self.board_expanded + o.board_expanded,
            board_neighbors_distinct: self.board_neighbors_distinct + o.board_neighbors_distinct,
            board_twin: self.board_twin + o.board_twin,
            board_is_goal: self.board_is_goal + o.board_is_goal,
            board_dimension: self.board_dimension + o.board_dimension,
        }
    }
}

/// This thread's counts since the last reset.
pub fn snapshot() -> Counts {
    TALLY.with_borrow(|t| t.counts)
}

/// Runs `check` without counting: the grader's own checks (such as re-verifying heap order, which compares
/// items and so may call `manhattan()` in a student's `Ord`) must never be charged to the student.
pub(crate) fn uncounted<T>(check: impl FnOnce() -> T) -> T {
    let was = PAUSED.with(|p| p.replace(true));
    let result = check();
    PAUSED.with(|p| p.set(was));
    result
}

/// Zeroes this thread's counts, and other threads' when they are counted (and makes sure queues report here).
pub fn reset() {
    install_observer();
    TALLY.with_borrow_mut(Tally::clear);
    if OTHER_THREADS_COUNTED.load(Ordering::Relaxed) {
        OTHER_THREADS.lock().unwrap_or_else(PoisonError::into_inner).clear();
    }
}

/// Turns on the checks that cost more than a counter increment (heap-order checks, deep memory of queues).
/// The submission harness enables them; the plain solver leaves them off.
pub fn set_enabled(on: bool) {
    install_observer();
    ENABLED.with(|e| e.set(on));
}

/// Whether the costlier checks are on for this thread.
pub fn enabled() -> bool {
    ENABLED.with(Cell::get)
}

pub(crate) fn record_insert() {
    update(|c| {
        c.pq_inserts += 1;
        c.pq_live_size += 1;
        c.pq_max_size = c.pq_max_size.max(c.pq_live_size);
    });
}

pub(crate) fn record_del_min() {
    update_tally(|t| {
        t.counts.pq_del_mins += 1;
        t.counts.pq_live_size = t.counts.pq_live_size.saturating_sub(1);
        t.expanded.interval_ends();
    });
}

/// One `neighbors()` call that built `made` boards, on a board of `rooted` descent (see
/// `instrument/expanded.rs`) whose tiles `hash` hashes.
pub(crate) fn record_neighbors(made: u64, rooted: bool, hash: impl FnOnce() -> u64) {
    update_tally(|t| {
        t.counts.board_neighbors += 1;
        t.counts.board_constructed += made;
        let added = t.expanded.neighbors_called(rooted, hash);
        t.counts.board_expanded += u64::from(added.expanded);
        t.counts.board_neighbors_distinct += u64::from(added.distinct);
    });
}

pub(crate) fn record_heap_violation() {
    update(|c| c.pq_heap_violations += 1);
}

pub(crate) fn record_queue_end(ending_size: usize, deep_bytes: usize) {
    update(|c| {
        c.pq_ending_size += ending_size as u64;
        c.pq_deep_bytes += deep_bytes as u64;
    });
}

/// The observer every [`MinPQ`](crate::MinPQ) reports to: this module's counters.
pub struct Observer;

/// The one observer; [`install_observer`] installs it.
pub static OBSERVER: Observer = Observer;

impl npuzzle::observe::PqObserver for Observer {
    fn inserted(&self) {
        record_insert();
    }
    fn del_min(&self) {
        record_del_min();
    }
    fn checks_enabled(&self) -> bool {
        enabled()
    }
    fn uncounted(&self, check: &mut dyn FnMut() -> bool) -> bool {
        uncounted(check)
    }
    fn heap_violation(&self) {
        record_heap_violation();
    }
    fn queue_ended(&self, ending_size: usize, release: &mut dyn FnMut()) {
        let before = crate::instrument::memory::live_bytes();
        release();
        let released = before.saturating_sub(crate::instrument::memory::live_bytes());
        record_queue_end(ending_size, released);
    }
}

/// Makes [`OBSERVER`] the observer of every queue in this process. False when another observer got there
/// first: then queues do not report here, and the harness refuses to serve.
pub fn install_observer() -> bool {
    let _ = npuzzle::observe::install(&OBSERVER);
    npuzzle::observe::is_installed(&OBSERVER)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heap_checks_are_not_charged_to_the_student() {
        use crate::instrument::counting_board::CountingBoard;
        use crate::{MinPQ, PuzzleBoard};
        /// A node whose ordering calls manhattan(), as a solver without caching does.
        struct Uncached(CountingBoard);
        impl PartialEq for Uncached {
            fn eq(&self, other: &Self) -> bool {
                self.cmp(other).is_eq()
            }
        }
        impl Eq for Uncached {}
        impl PartialOrd for Uncached {
            fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Uncached {
            fn cmp(&self, other: &Self) -> std::cmp::Ordering {
                self.0.manhattan().cmp(&other.0.manhattan())
            }
        }
        let boards = CountingBoard::from_tiles(&[vec![1, 2, 3], vec![4, 0, 5], vec![7, 8, 6]]).neighbors();
        let run = |enabled: bool| {
            set_enabled(enabled);
            reset();
            let mut pq = MinPQ::new();
            for b in boards.clone() {
                pq.insert(Uncached(b));
            }
            drop(pq);
            snapshot().board_manhattan
        };
        let without_checks = run(false);
        assert_eq!(run(true), without_checks);
        set_enabled(false);
    }
}
