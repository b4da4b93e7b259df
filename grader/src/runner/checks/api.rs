//! The API check: no public constructors or methods beyond the assignment's (the adapter lists them).

use npuzzle_harness::protocol::Request;

use super::context::{mismatch, Ctx, TrialResult};
use crate::judge::Mismatch;

/// No public members beyond the assignment's API.
pub fn surface(ctx: &mut Ctx<'_>) -> TrialResult {
    let answer = ctx.session.call(&Request::Api)?;
    let mut tokens = answer.values.split(' ').filter(|t| !t.is_empty());
    let count: usize = tokens.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    let extra: Vec<&str> = tokens.take(count).collect();
    if extra.is_empty() {
        return Ok(vec![]);
    }
    let mut m = Mismatch::new(format!("{} public members beyond the assignment's API", extra.len()));
    m.details.extend(extra.iter().map(|e| format!("public {e}")));
    m.details.push("(make helpers private; the official grader rejects extra public methods)".into());
    mismatch(m)
}
