//! **Grader side.** The boards a search expanded, for the counters `board_expanded` and
//! `board_neighbors_distinct` (specs/protocol.md; the rule they serve: specs/search-bound.md). Both count
//! distinct boards, by their tiles, of the boards descended from one the grader built (the puzzle's initial
//! board, and its twin), on which `neighbors()` was called: `board_neighbors_distinct` any call,
//! `board_expanded` only the first `neighbors()` call since the last `delMin()` (or since the counters were
//! reset), the expansions of a search on the MinPQ, each after the `delMin()` that removed its board.
//!
//! Each board is kept as a 63-bit hash of its tiles, with a bit saying whether it counted as expanded, in an
//! open-addressing table of plain integers. The table is allocated from the system allocator directly, not
//! through the counting allocator a submission binary installs, so it never shows in the Solver's memory: it
//! is the grader's evidence, not the student's data. Two boards whose hashes collide count once, which can
//! only lower the counts (by about B²/2⁶³ boards for B boards: never in practice).

use std::alloc::{GlobalAlloc, Layout, System};

/// The expansions of one counting context (a thread's counters, or the other threads' together).
pub(crate) struct Expanded {
    /// `neighbors()` calls since the last `delMin()`: only the first of an interval is an expansion.
    calls_in_interval: u64,
    table: HashTable,
}

/// What one `neighbors()` call added: a board not seen before, and a board expanded for the first time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Added {
    /// A board no call saw before.
    pub distinct: bool,
    /// A board expanded for the first time.
    pub expanded: bool,
}

impl Expanded {
    pub(crate) const fn new() -> Expanded {
        Expanded { calls_in_interval: 0, table: HashTable::EMPTY }
    }

    /// A `delMin()`: a new interval starts.
    pub(crate) fn interval_ends(&mut self) {
        self.calls_in_interval = 0;
    }

    /// One `neighbors()` call, on a board of `rooted` descent whose tiles `hash` hashes (only called for a
    /// rooted board): what it adds to the two counts.
    pub(crate) fn neighbors_called(&mut self, rooted: bool, hash: impl FnOnce() -> u64) -> Added {
        self.calls_in_interval += 1;
        if !rooted {
            return Added { distinct: false, expanded: false };
        }
        self.table.note(hash(), self.calls_in_interval == 1)
    }

    /// Forgets every board (the counters were reset); a large table is given back.
    pub(crate) fn clear(&mut self) {
        self.calls_in_interval = 0;
        self.table.clear();
    }
}

/// A map from 63-bit keys to one bit: a slot holds the hash with its low bit replaced by the bit (a hash of
/// 0 or 1 is kept as 2, so 0 marks a free slot); linear probing, at most half full.
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

    /// Notes the board of tiles hash `hash`, expanded if `expanded`: whether it is new, and whether it is
    /// newly expanded.
    fn note(&mut self, hash: u64, expanded: bool) -> Added {
        let tagged = (hash & !1).max(2);
        let bit = u64::from(expanded);
        if 2 * (self.len + 1) > self.capacity {
            self.grow();
        }
        let mask = self.capacity - 1;
        let mut at = (tagged.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        loop {
            // SAFETY: `at` is masked below `capacity`, the number of slots allocated.
            let slot = unsafe { &mut *self.slots.add(at) };
            if *slot == 0 {
                *slot = tagged | bit;
                self.len += 1;
                return Added { distinct: true, expanded };
            }
            if *slot & !1 == tagged {
                let newly = expanded && *slot & 1 == 0;
                *slot |= bit;
                return Added { distinct: false, expanded: newly };
            }
            at = (at + 1) & mask;
        }
    }

    /// Puts a slot's value back as it was (growing: no slot is found twice).
    fn put(&mut self, value: u64) {
        let mask = self.capacity - 1;
        let mut at = ((value & !1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & mask;
        // SAFETY: `at` is masked below `capacity`, the number of slots allocated.
        while unsafe { *self.slots.add(at) } != 0 {
            at = (at + 1) & mask;
        }
        // SAFETY: as above.
        unsafe { *self.slots.add(at) = value };
        self.len += 1;
    }

    fn grow(&mut self) {
        let old = std::mem::replace(self, HashTable::with_capacity((self.capacity * 2).max(64)));
        for i in 0..old.capacity {
            // SAFETY: `i` is below the old table's capacity.
            let value = unsafe { *old.slots.add(i) };
            if value != 0 {
                self.put(value);
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
    fn the_first_call_of_an_interval_on_a_new_rooted_board_is_an_expansion() {
        let mut e = Expanded::new();
        let key = |k: u64| move || k;
        let added = |distinct, expanded| Added { distinct, expanded };
        assert_eq!(e.neighbors_called(true, key(7)), added(true, true), "the first call before any delMin");
        assert_eq!(e.neighbors_called(true, key(8)), added(true, false), "a second call in the interval");
        e.interval_ends();
        assert_eq!(e.neighbors_called(true, key(7)), added(false, false), "a board expanded before");
        e.interval_ends();
        assert_eq!(e.neighbors_called(true, key(8)), added(false, true), "seen before, expanded now");
        e.interval_ends();
        assert_eq!(e.neighbors_called(false, key(9)), added(false, false), "a board not of the grader's");
        e.interval_ends();
        assert_eq!(e.neighbors_called(true, key(0)), added(true, true), "a hash of 0 is a board like any other");
        e.clear();
        assert_eq!(e.neighbors_called(true, key(7)), added(true, true), "reset forgets");
    }

    #[test]
    fn the_table_grows_and_keeps_every_key_and_bit() {
        let mut t = HashTable::EMPTY;
        let key = |k: u64| k.wrapping_mul(0x1234_5678_9ABC_DEF1);
        for k in 1..=100_000u64 {
            assert_eq!(t.note(key(k), k % 2 == 0), Added { distinct: true, expanded: k % 2 == 0 });
        }
        assert_eq!(t.len, 100_000);
        for k in 1..=100_000u64 {
            assert_eq!(t.note(key(k), true), Added { distinct: false, expanded: k % 2 == 1 });
        }
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
