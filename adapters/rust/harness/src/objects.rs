//! The harness's handle table: the boards and solvers the grader refers to by handle, in their two worlds.

use std::collections::HashMap;

use crate::protocol::Handle;
use reference::instrument::counting_board::CountingBoard;

/// One object the grader holds a handle to.
pub(crate) enum Object<B, S, R> {
    /// A board of the submission's own type.
    OwnBoard(B),
    /// A counting reference board.
    RefBoard(CountingBoard),
    /// The submission's Solver over its own Board.
    OwnSolver(S),
    /// The submission's Solver over the counting reference board.
    RefSolver(R),
}

/// Handles to objects, numbered in creation order (deterministic, so transcripts are reproducible).
pub(crate) struct Objects<B, S, R> {
    objects: HashMap<Handle, Object<B, S, R>>,
    next: u64,
}

impl<B, S, R> Objects<B, S, R> {
    pub(crate) fn new() -> Self {
        Objects { objects: HashMap::new(), next: 1 }
    }

    /// Stores an object and returns its new handle.
    pub(crate) fn add(&mut self, object: Object<B, S, R>) -> Handle {
        let n = self.next;
        self.next += 1;
        let handle = match object {
            Object::OwnBoard(_) | Object::RefBoard(_) => Handle::Board(n),
            Object::OwnSolver(_) | Object::RefSolver(_) => Handle::Solver(n),
        };
        self.objects.insert(handle, object);
        handle
    }

    /// The object behind a handle, or a protocol error naming it.
    pub(crate) fn get(&self, handle: Handle) -> Result<&Object<B, S, R>, String> {
        self.objects.get(&handle).ok_or_else(|| format!("unknown handle {handle}"))
    }

    /// Forgets a handle (the grader's `release`), dropping the object; a later use of it is a protocol error.
    pub(crate) fn remove(&mut self, handle: Handle) -> Result<(), String> {
        self.objects.remove(&handle).map(drop).ok_or_else(|| format!("unknown handle {handle}"))
    }
}
