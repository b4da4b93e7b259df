//! The harness's integration tests, one binary (STYLE.md): each module drives a real submission built on the
//! harness.

mod rescue;
mod texts;
