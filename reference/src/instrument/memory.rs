//! Live heap bytes, from a counting global allocator that a submission binary installs.
//!
//! The harness macro installs [`CountingAllocator`] as the submission's `#[global_allocator]`; libraries and
//! the grader never do, and then [`live_bytes`] stays 0 and memory checks report that they cannot measure.
//! Counting requested sizes (not the allocator's rounded sizes) keeps the figures identical on every
//! machine.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);

/// A global allocator that forwards to the system allocator and counts live and peak bytes.
pub struct CountingAllocator;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; counting has no effect on
// the memory handed out.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's obligations.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            added(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's obligations.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            added(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded with the caller's obligations.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded with the caller's obligations.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            LIVE.fetch_sub(layout.size(), Relaxed);
            added(new_size);
        }
        new
    }
}

fn added(bytes: usize) {
    INSTALLED.store(true, Relaxed);
    let live = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(live, Relaxed);
}

/// Heap bytes currently allocated through the counting allocator (0 when it is not installed).
pub fn live_bytes() -> usize {
    LIVE.load(Relaxed)
}

/// The highest [`live_bytes`] since the last [`reset_peak`].
pub fn peak_bytes() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak measurement from the current live bytes.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}

/// Whether the counting allocator is this program's global allocator.
pub fn is_installed() -> bool {
    INSTALLED.load(Relaxed)
}

/// Runs `build` and returns its value with the heap bytes it still holds afterwards (stack size included),
/// i.e. the memory retained by the value — the figure the memory tests compare.
pub fn retained_by<T>(build: impl FnOnce() -> T) -> (T, usize) {
    let before = live_bytes();
    let value = build();
    let retained = live_bytes().saturating_sub(before) + std::mem::size_of::<T>();
    (value, retained)
}
