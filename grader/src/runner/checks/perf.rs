//! Memory and timing checks. Their evidence is counts and bytes, which are deterministic; CPU time is only
//! compared against the policy's generous cap.

use fixtures::Expected;
use reference::protocol::{Request, World};
use reference::Board;

use super::{mismatch, Ctx, TrialResult};
use crate::catalog::TimingAspect;
use crate::judge::{self, Mismatch};
use crate::plan::Trial;
use crate::runner::ask::{self, Asked};
use crate::runner::session::Fault;

/// Board sizes of the memory test, as the official grader's.
pub const MEMORY_SIZES: &[usize] = &[2, 3, 4, 8, 12, 16, 20, 37, 72, 120];

/// Bytes of one Board for each size, against `a·n² + b·n + c`, with fits printed.
pub fn board_memory(ctx: &mut Ctx<'_>) -> TrialResult {
    if !ctx.has("memory") {
        return Err(Fault::Unsupported("the submission program cannot measure memory".into()).into());
    }
    let [a, b, c] = ctx.policy.thresholds.board_memory;
    let mut rows = vec![format!("{:>5} {:>12} {:>12} {:>12}", "n", "student", "reference", "limit")];
    let mut student = Vec::new();
    let mut reference = Vec::new();
    let mut over = None;
    for &n in MEMORY_SIZES {
        let board = Board::goal(n).map_err(|e| Mismatch::new(e.to_string()))?.twin();
        let bytes = ask::int(ctx.session, &Request::MemoryBoard { world: World::Own, tiles: ask::tiles_of(&board) })?;
        let limit = a * (n * n) as f64 + b * n as f64 + c;
        let ours = board.memory_bytes();
        rows.push(format!("{n:>5} {bytes:>12} {ours:>12} {limit:>12.0}"));
        student.push((n as f64, bytes as f64));
        reference.push((n as f64, ours as f64));
        if bytes as f64 > limit && over.is_none() {
            over = Some((n, bytes, limit));
        }
    }
    rows.push(fit_row("student", &student));
    rows.push(fit_row("reference", &reference));
    if let Some((n, bytes, limit)) = over {
        let mut m = Mismatch::new(format!(
            "one {n}-by-{n} Board uses {bytes} bytes, more than the limit {limit:.0} ({a}n^2 + {b}n + {c})"
        ));
        m.details.extend(rows);
        return mismatch(m);
    }
    Ok(rows)
}

fn fit_row(who: &str, points: &[(f64, f64)]) -> String {
    match judge::quadratic_fit(points) {
        Some((a, b, c, r2)) => format!("{who}: {a:.2} n^2 + {b:.2} n + {c:.2}   (R^2 = {r2:.3})"),
        None => format!("{who}: no fit"),
    }
}

/// Bytes retained by a Solver: it should keep about its solution's boards, not its search.
pub fn solver_memory(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let b = ask::build(ctx.session, World::Ref, &trial.board)?;
    let cpu = ctx.solve_cpu();
    let answer = ctx.session.call_within(&Request::MemorySolver(b), cpu)?;
    let mut parts = answer.values.split(' ');
    let solver = parts.next().and_then(|h| h.parse().ok());
    let bytes: Option<u64> = parts.next().and_then(|v| v.parse().ok());
    let (Some(solver), Some(bytes)) = (solver, bytes) else {
        return mismatch(Mismatch::new(format!("`memory_solver` answered `{}`", answer.values)));
    };
    let board_bytes = reference_board_bytes(ctx, &trial.board)?;
    let moves = match trial.expected {
        Expected::Moves(m) => u64::from(m),
        _ => 0,
    };
    // The solution's boards plus a generous allowance for the list that holds them.
    let budget = (moves + 1) * (board_bytes + 64) + 1024;
    ask::release(ctx.session, vec![b, solver]);
    let row =
        format!("{}: {bytes} bytes retained; the solution's {} boards take about {budget}", trial.label, moves + 1);
    let limit = ctx.policy.thresholds.memory_ratio;
    judge::within_ratio("memory retained by the Solver", bytes, budget, limit).map_err(|m| {
        m.with(row.clone()).with("(keep the solution, not the search: let the MinPQ and visited nodes go)")
    })?;
    Ok(vec![row])
}

/// Bytes a textbook search node adds to its board in the queue's deep memory: the node itself (board
/// reference, moves, cached priority, predecessor) and its slot in the queue's array. Measured on the gallery's
/// textbook solvers: about 34 bytes in Java (a 32-byte node and a 4-byte slot), 36 to 45 in Rust (`Rc` counts,
/// the fields, an 8-byte slot); 48 rounds the larger up.
pub const SEARCH_NODE_BYTES: u64 = 48;

/// MinPQ maximum and ending sizes, and the queues' deep memory, against the reference.
///
/// The deep memory of a textbook queue is its search nodes: those still queued and the dequeued ones they
/// reach through their predecessors. The reference's figure is therefore estimated from its own search
/// (nodes = ending size + delMins) at [`SEARCH_NODE_BYTES`] plus one reference board each, the board
/// measured by this program's own `memory_board`, so Java and Rust submissions are each held to their own
/// language's board size. A deep memory of 0 means the program could not measure it (the queue outlived the
/// solve, no counting MinPQ, or the Java walk gave up), and is reported, not judged.
pub fn queue_memory(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let seen = ctx.solve(World::Ref, trial)?;
    let reference = reference_counts(trial)?;
    let limit = ctx.policy.thresholds.memory_ratio;
    let max = seen.required("pq_max_size")?;
    let ending = seen.required("pq_ending_size")?;
    let sizes = format!(
        "{}: max size {max} (reference {}), ending size {ending} (reference {})",
        trial.label, reference.max_queue_size, reference.ending_size
    );
    judge::within_ratio("MinPQ maximum size", max, reference.max_queue_size, limit)
        .map_err(|m| m.with(sizes.clone()))?;
    judge::within_ratio("MinPQ ending size", ending, reference.ending_size.max(1), limit)
        .map_err(|m| m.with(sizes.clone()))?;
    if !ctx.has("memory") || max == 0 {
        return Ok(vec![sizes]);
    }
    let deep = seen.counter("pq_deep_bytes").unwrap_or(0);
    if deep == 0 {
        return Ok(vec![format!("{sizes}, deep memory not measured")]);
    }
    let nodes = reference.ending_size + reference.del_mins;
    let expected = nodes.saturating_mul(reference_board_bytes(ctx, &trial.board)?.saturating_add(SEARCH_NODE_BYTES));
    let row = format!("{sizes}, deep memory {deep} bytes (reference about {expected})");
    judge::within_ratio("MinPQ deep memory", deep, expected, limit).map_err(|m| {
        m.with(row.clone()).with("(a search node needs its board, moves, priority and predecessor; nothing more)")
    })?;
    Ok(vec![row])
}

/// Bytes of one reference board for `board`'s size, as this program measures them.
fn reference_board_bytes(ctx: &mut Ctx<'_>, board: &Board) -> Asked<u64> {
    let bytes = ask::int(ctx.session, &Request::MemoryBoard { world: World::Ref, tiles: ask::tiles_of(board) })?;
    Ok(u64::try_from(bytes).map_err(|_| Mismatch::new(format!("`memory_board` answered {bytes} bytes")))?)
}

fn reference_counts(trial: &Trial) -> Asked<fixtures::ReferenceCounts> {
    trial.reference.ok_or_else(|| {
        Fault::Protocol(format!(
            "no reference counts for {} (the reference did not finish within its budget)",
            trial.label
        ))
        .into()
    })
}

/// One aspect of a timing solve.
pub fn timing(ctx: &mut Ctx<'_>, aspect: TimingAspect, trial: &Trial) -> TrialResult {
    let seen = ctx.solve(World::Ref, trial)?;
    let ratio = ctx.policy.thresholds.count_ratio;
    match aspect {
        TimingAspect::CpuAndAnswer => {
            let limit = ctx.solve_cpu();
            if seen.cpu > limit {
                return mismatch(Mismatch::new(format!(
                    "the solve took {:.2} s of CPU, over the limit of {:.1} s",
                    seen.cpu.as_secs_f64(),
                    limit.as_secs_f64()
                )));
            }
            if let Expected::Moves(m) = trial.expected {
                judge::same_value("moves()", i64::from(m), seen.moves)?;
            }
            Ok(vec![])
        }
        TimingAspect::QueueCounts => {
            let reference = reference_counts(trial)?;
            let inserts = seen.required("pq_inserts")?;
            let del_mins = seen.required("pq_del_mins")?;
            let r1 = judge::within_ratio("MinPQ insert() calls", inserts, reference.inserts, ratio)?;
            let r2 = judge::within_ratio("MinPQ delMin() calls", del_mins, reference.del_mins, ratio)?;
            Ok(vec![format!(
                "insert() {inserts} ({}), delMin() {del_mins} ({})",
                judge::ratio_text(r1),
                judge::ratio_text(r2)
            )])
        }
        TimingAspect::ForbiddenCalls => {
            let hamming = seen.required("board_hamming")?;
            let to_string = seen.required("board_to_string")?;
            if hamming + to_string > 0 {
                return mismatch(Mismatch::new(format!(
                    "the Solver called hamming() {hamming} times and toString() {to_string} times; it should call neither"
                )));
            }
            Ok(vec![])
        }
        TimingAspect::BoardCounts => {
            let reference = reference_counts(trial)?;
            let built = seen.required("board_constructed")?;
            let equals = seen.required("board_equals")?;
            let manhattan = seen.required("board_manhattan")?;
            let r1 = judge::within_ratio("Board constructions", built, reference.boards_constructed, ratio)?;
            let r2 = judge::within_ratio("equals() calls", equals, reference.equals_calls, ratio)?;
            per_board(
                "manhattan() calls per board created",
                manhattan,
                built,
                ctx.policy.thresholds.manhattan_per_board_loose,
            )?;
            Ok(vec![format!(
                "constructor {built} ({}), equals() {equals} ({}), manhattan() {manhattan}",
                judge::ratio_text(r1),
                judge::ratio_text(r2)
            )])
        }
        TimingAspect::StrictManhattan => {
            let built = seen.required("board_constructed")?;
            let manhattan = seen.required("board_manhattan")?;
            let per = per_board(
                "manhattan() calls per board created",
                manhattan,
                built,
                ctx.policy.thresholds.manhattan_per_board_strict,
            )?;
            Ok(vec![format!("manhattan() {manhattan} for {built} boards ({per:.2} per board)")])
        }
    }
}

fn per_board(what: &str, calls: u64, boards: u64, limit: f64) -> Asked<f64> {
    let per = calls as f64 / boards.max(1) as f64;
    if per > limit {
        return mismatch(
            Mismatch::new(format!("{what}: {per:.2}, over the limit of {limit:.2}"))
                .with("(cache the priority, moves + manhattan, in the search node when it is created)"),
        );
    }
    Ok(per)
}
