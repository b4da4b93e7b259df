//! **Grader side.** The boards a search expanded, for the counter `board_expanded` (specs/protocol.md;
//! the rule it serves: specs/search-bound.md): the distinct boards, by their tiles, that `neighbors()` was
//! called on as the first `neighbors()` call since the last `delMin()` (or since the counters were reset),
//! of the boards descended from one the grader built (the puzzle's initial board, and its twin).
//!
//! Each board is kept as a 64-bit hash of its tiles in an open-addressing table of plain integers. The
//! table is allocated from the system allocator directly, not through the counting allocator a submission
//! binary installs, so it never shows in the Solver's memory: it is the grader's evidence, not the student's
//! data. Two boards whose hashes collide count once, which can only lower the count (by about B²/2⁶⁴ boards
//! for B expansions: never in practice).

use std::alloc::{GlobalAlloc, Layout, System};

/// The expansions of one counting context (a thread's counters, or the other threads' together).
pub(crate) struct Expanded {
    /// `neighbors()` calls since the last `delMin()`: only the first of an interval can count.
    calls_in_interval: u64,
    table: HashTable,
}

impl Expanded {
    pub(crate) const fn new() -> Expanded {
        Expanded { calls_in_interval: 0, table: HashTable::EMPTY }
    }

    /// A `delMin()`: a new interval starts.
    pub(crate) fn interval_ends(&mut self) {
        self.calls_in_interval = 0;
    }

    /// One `neighbors()` call, on a board of `rooted` descent whose tiles `hash` hashes (only called for the
    /// interval's first call on a rooted board); whether it adds an expansion (a board not counted before).
    pub(crate) fn neighbors_called(&mut self, rooted: bool, hash: impl FnOnce() -> u64) -> bool {
        self.calls_in_interval += 1;
        rooted && self.calls_in_interval == 1 && self.table.insert(hash())
    }

    /// Forgets every board (the counters were reset); a large table is given back.
    pub(crate) fn clear(&mut self) {
        self.calls_in_interval = 0;
        self.table.clear();
    }
}

/// A set of non-zero 64-bit keys (0 marks a free slot; a key of 0 is stored as 1), linear probing, at most
/// half full.
struct HashTable {
    slots: *mut u64,
    capacity: usize,
    len: usize,
}

// SAFETY: the table owns its slots exclusively (no aliasing pointer is ever handed out), so moving it to
// another thread (inside the other threads' mutex) is sound.
unsafe impl Send for HashTable {}

/// Tables up to this many slots are kept (and zeroed) when cleared; larger ones are freed.
const KEPT_SLOTS: usize = 1 << 12;

impl HashTable {
    const EMPTY: HashTable = HashTable { slots: std::ptr::null_mut(), capacity: 0, len: 0 };

    /// Adds `key`; whether it was new.
    fn insert(&mut self, key: u64) -> bool {
        let key = key.max(1);
        if 2 * (self.len + 1) > self.capacity {
            self.grow();
        }
        let mask = self.capacity - 1;
        let mut at = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        loop {
            // SAFETY: `at` is masked below `capacity`, the number of slots allocated.
            let slot = unsafe { &mut *self.slots.add(at) };
            if *slot == key {
                return false;
            }
            if *slot == 0 {
                *slot = key;
                self.len += 1;
                return true;
            }
            at = (at + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, HashTable::with_capacity((self.capacity * 2).max(64)));
        for i in 0..old.capacity {
            // SAFETY: `i` is below the old table's capacity.
            let key = unsafe { *old.slots.add(i) };
            if key != 0 {
                self.insert(key);
            }
        }
    }

    fn with_capacity(capacity: usize) -> HashTable {
        let layout = Layout::array::<u64>(capacity).expect("a table of at most half the address space");
        // SAFETY: the layout has a non-zero size (capacity >= 64).
        let slots = unsafe { System.alloc_zeroed(layout) }.cast::<u64>();
        if slots.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        HashTable { slots, capacity, len: 0 }
    }

    fn clear(&mut self) {
        if self.capacity > KEPT_SLOTS {
            *self = HashTable::EMPTY;
        } else if self.len > 0 {
            // SAFETY: the table has `capacity` slots.
            unsafe { std::ptr::write_bytes(self.slots, 0, self.capacity) };
            self.len = 0;
        }
    }
}

impl Drop for HashTable {
    fn drop(&mut self) {
        if !self.slots.is_null() {
            let layout = Layout::array::<u64>(self.capacity).expect("the layout it was allocated with");
            // SAFETY: allocated by `with_capacity` with this very layout, and freed once.
            unsafe { System.dealloc(self.slots.cast(), layout) };
        }
    }
}

/// The hash the table keeps for a board: of its size and tiles (FNV-1a, then mixed).
pub(crate) fn tiles_hash(n: usize, tiles: impl Iterator<Item = usize>) -> u64 {
    let mut hash = 0xCBF2_9CE4_8422_2325u64 ^ n as u64;
    for tile in tiles {
        hash = (hash ^ tile as u64).wrapping_mul(0x0000_0100_0000_01B3);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    hash ^ (hash >> 33)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_first_call_of_an_interval_on_a_new_rooted_board_counts() {
        let mut e = Expanded::new();
        let key = |k: u64| move || k;
        assert!(e.neighbors_called(true, key(7)), "the first call before any delMin counts");
        assert!(!e.neighbors_called(true, key(8)), "a second call in the interval does not");
        e.interval_ends();
        assert!(!e.neighbors_called(true, key(7)), "a board counted before does not");
        e.interval_ends();
        assert!(!e.neighbors_called(false, key(9)), "a board the grader's did not lead to does not");
        e.interval_ends();
        assert!(e.neighbors_called(true, key(0)), "a hash of 0 is a board like any other");
        e.clear();
        assert!(e.neighbors_called(true, key(7)), "reset forgets");
    }

    #[test]
    fn the_table_grows_and_keeps_every_key() {
        let mut t = HashTable::EMPTY;
        for key in 1..=100_000u64 {
            assert!(t.insert(key.wrapping_mul(0x1234_5678_9ABC_DEF1)));
        }
        assert_eq!(t.len, 100_000);
        assert!((1..=100_000u64).all(|key| !t.insert(key.wrapping_mul(0x1234_5678_9ABC_DEF1))));
        t.clear();
        assert_eq!((t.len, t.capacity), (0, 0), "a large table is given back");
    }

    #[test]
    fn boards_hash_apart() {
        let a = tiles_hash(3, [1, 2, 3, 4, 5, 6, 7, 8, 0].into_iter());
        let b = tiles_hash(3, [1, 2, 3, 4, 5, 6, 7, 0, 8].into_iter());
        assert_ne!(a, b);
        assert_eq!(a, tiles_hash(3, [1, 2, 3, 4, 5, 6, 7, 8, 0].into_iter()));
    }
}
