//! The Board memory table (official "Memory Board"): one test per row, n = 2, 3, 4, 8, 12, 16, 20, 37, 72,
//! 120, and one verdict they share, on how the Board's bytes grow with n.
//!
//! Official reports pass every Board whose rows they print, up to the reference + 24 bytes at every n (above
//! the printed bound 4n^2 + 32n + 64 everywhere); no report fails a row for its size. So a row is not held to
//! a bound of its own: the least-squares line through the table's rows at even n ([`fitted`]: the official
//! fit lines come out exact only so), printed under the table as the Student line, must have n^2 and n
//! coefficients within the policy's (`thresholds.board_memory_growth`, official 4 and 32), each as printed,
//! the n^2 coefficient give or take 0.05 (a line bent by bytes a tile that change with n, as a Java `String`'s
//! do: [`CURVATURE_SLACK`](super::memory_model::CURVATURE_SLACK)); its constant is free (a Board's fixed
//! fields do not grow with n). A Board at most the reference + 24 bytes at every even row passes whatever its
//! line (the most official reports pass at every row; a Rust `Vec`'s spare capacity steps its bytes, and a line
//! through the steps can fail a Board below the reference: [`within_reference_margin`]). A row whose Board could not be built or
//! measured fails on its own, as officially (the trace replaces the rest of the table); the others are
//! judged on the line through the even rows that were measured, and fail with the reason when fewer than
//! three were. Each row measures the table again: a few requests of at most one 120-by-120 Board each; a
//! failing row says which bytes it judged, since a Board whose size varies from build to build shows other
//! bytes in the printed table.

use npuzzle_harness::protocol::{Request, World};
use reference::Board;

use super::context::{mismatch, Ctx, TrialResult};
use super::memory_model::{
    fitted, growth_within, most_above_reference, official_reference_board_bytes, within_reference_margin,
    BOARD_MARGIN_BYTES,
};
use crate::catalog::MEMORY_SIZES;
use crate::judge::{self, Mismatch};
use crate::plan::Trial;
use crate::runner::ask::{self, Asked, Failure};
use crate::runner::session::Fault;

/// One row of the Board memory table: its Board's bytes, judged by the line through the table's even rows.
/// The last row also prints the fitted lines of the submission and of the reference.
pub fn row(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    if !ctx.has("memory") {
        return Err(Fault::Unsupported("the submission program cannot measure memory".into()).into());
    }
    let n = trial.board.dimension();
    let bytes = own_board_bytes(ctx, &trial.board)?;
    let row = format!("{n:>5} {bytes:>11} {:>11}", official_reference_board_bytes(n));
    let mut points = Vec::new();
    let mut missing = Vec::new();
    for &size in MEMORY_SIZES.iter().filter(|&&size| fitted(size)) {
        let measured = if size == n { Ok(bytes) } else { other_row(ctx, size)? };
        match measured {
            Ok(bytes) => points.push((size as f64, bytes as f64)),
            Err(why) => missing.push(format!("n = {size} ({why})")),
        }
    }
    let Some((a, b, c, r2)) = judge::quadratic_fit(&points).filter(|_| points.len() >= 3) else {
        return mismatch(
            Mismatch::new(format!(
                "the Board's growth cannot be judged: its bytes were measured at {} of the even sizes its fitted \
                 line goes through, and it needs three",
                points.len()
            ))
            .with(format!("not measured: {}", missing.join(", ")))
            .with_row(row),
        );
    };
    let growth = ctx.policy.thresholds.board_memory_growth;
    if !growth_within(growth, a, b) && !within_reference_margin(&points) {
        let [most_a, most_b] = growth;
        // the bytes this row measured, which the table's other rows measured again
        let measured: Vec<String> = points.iter().map(|(n, bytes)| format!("{n} ({bytes})")).collect();
        let mut m = Mismatch::new(format!(
            "the Board's memory grows faster than {most_a} n^2 + {most_b} n: its fitted line is {}",
            line(a, b, c, r2)
        ))
        .with(format!(
            "(the least-squares line through the bytes this row measured at n = {}; its n^2 and n coefficients are \
             judged as printed, its constant is free)",
            measured.join(", ")
        ));
        // the row furthest above the reference: a Board within its margin at every row would have passed
        if let Some((worst, above)) = most_above_reference(&points) {
            m = m.with(format!(
                "(a Board at most the reference + {BOARD_MARGIN_BYTES} bytes at each of these rows passes whatever \
                 its line; this one is {above} bytes above the reference at n = {worst})"
            ));
        }
        if !missing.is_empty() {
            m = m.with(format!("(not measured: {})", missing.join(", ")));
        }
        return mismatch(m.with_row(row));
    }
    let mut rows = vec![row];
    if Some(&n) == MEMORY_SIZES.last() {
        let reference: Vec<(f64, f64)> = MEMORY_SIZES
            .iter()
            .filter(|&&size| fitted(size))
            .map(|&size| (size as f64, official_reference_board_bytes(size) as f64))
            .collect();
        rows.push(format!("{:<9} = {}", "Student", line(a, b, c, r2)));
        rows.push(fit_row("Reference", &reference));
    }
    Ok(rows)
}

/// The bytes of the table's Board of another size: `Err` with why when the submission's Board could not be
/// built or measured (that row fails on its own); a failure that is not the submission's stops this row too.
fn other_row(ctx: &mut Ctx<'_>, n: usize) -> Asked<Result<u64, String>> {
    let board = Board::goal(n).map_err(|e| Mismatch::new(e.to_string()))?.twin();
    match own_board_bytes(ctx, &board) {
        Ok(bytes) => Ok(Ok(bytes)),
        Err(Failure::Fault(fault @ (Fault::Stalled(_) | Fault::Protocol(_) | Fault::Unsupported(_)))) => {
            Err(fault.into())
        }
        Err(Failure::Fault(fault)) => Ok(Err(fault.describe())),
        Err(Failure::Wrong(m)) => Ok(Err(m.summary)),
    }
}

fn own_board_bytes(ctx: &mut Ctx<'_>, board: &Board) -> Asked<u64> {
    let bytes = ask::int(ctx.session, &Request::MemoryBoard { world: World::Own, tiles: ask::tiles_of(board) })?;
    Ok(u64::try_from(bytes).map_err(|_| Mismatch::new(format!("`memory_board` answered {bytes} bytes")))?)
}

/// A fitted line as the report prints it: `4.00 n^2 + 32.00 n + 48.00   (R^2 = 1.000)`.
fn line(a: f64, b: f64, c: f64, r2: f64) -> String {
    // a coefficient that prints as 0.00 is not negative
    let term = |x: f64| if x < -0.005 { format!("- {:.2}", -x) } else { format!("+ {:.2}", x.abs()) };
    format!("{a:.2} n^2 {} n {}   (R^2 = {r2:.3})", term(b), term(c))
}

fn fit_row(who: &str, points: &[(f64, f64)]) -> String {
    match judge::quadratic_fit(points) {
        Some((a, b, c, r2)) => format!("{who:<9} = {}", line(a, b, c, r2)),
        None => format!("{who:<9} = no fit"),
    }
}
