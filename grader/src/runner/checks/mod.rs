//! Check executors, and the one place that runs a planned test: [`run`] matches the [`Check`] section and
//! hands each kind to its section's executor module, whose own exhaustive match names every kind of its
//! section and how it runs (the Board checks as scripts, through `pipeline`; the others trial by trial or
//! once over the whole test, through `context`). Executors ask the submission through [`ask`](super::ask),
//! leave every comparison to [`judge`](crate::judge), and share only `context` (below them all).
//!
//! A check runs its trials in order and stops at the first failure ("failed on trial k of N"), as the
//! official grader does. Solves are cached per world and board, so the timing, memory and equals-usage
//! tests of one puzzle are judged from a single solve.

mod api;
mod board;
mod board_memory;
mod consistency;
mod context;
mod equals;
mod memory_model;
mod perf;
mod pipeline;
mod script;
mod search_bound;
mod solver;
#[cfg(test)]
mod tests;

pub use context::{Ctx, Lives, Measured, Verdict};

use crate::catalog::Check;
use crate::plan::PlannedTest;

/// Runs a planned test: the build's verdict is the build step's (passed, if a session runs at all); every
/// other check goes to the executor of its section, which decides how its trials run.
pub fn run(ctx: &mut Ctx<'_>, test: &PlannedTest) -> Verdict {
    match test.item.check {
        Check::Build => Verdict::passed(vec![]),
        Check::ApiSurface => context::whole(api::surface(ctx)),
        Check::Board(check) => board::run(ctx, check, test),
        Check::Solver(check) => solver::run(ctx, check, test),
        Check::Measure(check) => perf::run(ctx, check, test),
    }
}

/// The column headings of a table test's rows (memory and timing tables), if the check has any.
pub fn columns(check: Check) -> Option<&'static str> {
    match check {
        Check::Measure(measure) => Some(perf::columns(measure)),
        Check::Build | Check::ApiSurface | Check::Board(_) | Check::Solver(_) => None,
    }
}
