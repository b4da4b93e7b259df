//! Runs submission programs and talks to them: the platform process layer, the protocol session, typed
//! requests, and the check executors.

pub mod ask;
pub mod checks;
pub mod life;
pub mod meter;
mod pipes;
pub mod process;
pub mod reply;
pub mod sandbox;
pub mod session;
pub mod spec;
pub mod stall;
pub mod tool;
mod unix;
pub mod worlds;
