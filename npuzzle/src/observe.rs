//! Where [`MinPQ`](crate::MinPQ) reports its operations: an observer the grader's harness installs once, at
//! the start of its `main`, before any student code runs.
//!
//! Write-only from this crate: a queue calls the installed observer; nothing here returns it, resets it or
//! replaces it. A second [`install`] fails, so a submission cannot swap in its own observer after the
//! harness started, and the harness stops at once if its own install fails (someone got there first). A
//! submission can only add operations the way any caller does, by using a queue. Without an observer (the
//! student's own runs) queues count nothing.

use std::sync::OnceLock;

/// What the grader's harness learns from every [`MinPQ`](crate::MinPQ).
pub trait PqObserver: Sync {
    /// One `insert`.
    fn inserted(&self);
    /// One `del_min` that returned an item.
    fn del_min(&self);
    /// Whether the costlier checks are on (heap order, deep memory of an ending queue).
    fn checks_enabled(&self) -> bool;
    /// Runs one of the queue's own checks without charging the operations it causes (a student's `Ord` may
    /// call counted Board methods) to the student.
    fn uncounted(&self, check: &mut dyn FnMut() -> bool) -> bool;
    /// A queue was found out of heap order.
    fn heap_violation(&self);
    /// A queue ended holding `ending_size` items; `release` drops them, so the observer can measure the bytes
    /// freed.
    fn queue_ended(&self, ending_size: usize, release: &mut dyn FnMut());
}

static OBSERVER: OnceLock<&'static dyn PqObserver> = OnceLock::new();

/// Installs the observer; `Err` when one was already installed (it is never replaced).
#[allow(clippy::result_unit_err)]
pub fn install(observer: &'static dyn PqObserver) -> Result<(), ()> {
    OBSERVER.set(observer).map_err(|_| ())
}

/// Whether `observer` is the one installed (the harness checks that it is its own).
pub fn is_installed(observer: &'static dyn PqObserver) -> bool {
    OBSERVER.get().is_some_and(|o| std::ptr::addr_eq(*o as *const dyn PqObserver, observer as *const dyn PqObserver))
}

pub(crate) fn with(report: impl FnOnce(&dyn PqObserver)) {
    if let Some(observer) = OBSERVER.get() {
        report(*observer);
    }
}
