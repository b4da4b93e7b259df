//! Memory and timing checks: one row of an official table each. Their evidence is counts and bytes, which
//! are deterministic; CPU time is only compared against the policy's generous cap.
//!
//! Every ratio-judged cell follows the official rule ([`judge::Cell`]): the submission's value over 1.75 × the
//! reference's, failing once the printed ratio exceeds 1.0.

use corpus::Expected;
use npuzzle_harness::protocol::{Request, World};
use reference::Board;

use super::board_memory;
use super::context::{each_trial, mismatch, Ctx, TrialResult, Verdict};
use super::memory_model::{kept_beyond_margin, reference_queue_bytes, reference_solver_bytes, KEPT_MARGIN_BYTES};
use super::search_bound::{claimed, within_search_bound};
use crate::catalog::{Measure, SolverCall, TimingAspect};
use crate::evidence::Evidence;
use crate::judge::{self, Cell, Mismatch};
use crate::plan::{PlannedTest, Trial};
use crate::runner::ask::{self, Asked};
use crate::runner::life::{Life, SolverBytes};
use crate::runner::session::Fault;

/// Runs a memory or timing test, row (trial) by row. A timing row's counts are drawn whatever its verdict
/// (from the cached solve: no request is sent).
pub fn run(ctx: &mut Ctx<'_>, check: Measure, test: &PlannedTest) -> Verdict {
    let mut verdict = each_trial(ctx, test, |ctx, trial, _| row(ctx, check, trial));
    if let (Measure::Timing(aspect), [trial]) = (check, test.trials.as_slice()) {
        verdict.evidence = verdict.evidence.or_else(|| counts(ctx, aspect, trial));
    }
    verdict
}

/// Runs one row (trial) of a memory or timing table.
fn row(ctx: &mut Ctx<'_>, check: Measure, trial: &Trial) -> TrialResult {
    match check {
        Measure::BoardMemory => board_memory::row(ctx, trial),
        Measure::SolverMemory => solver_memory(ctx, trial),
        Measure::QueueMemory => queue_memory(ctx, trial),
        Measure::Timing(aspect) => timing(ctx, aspect, trial),
    }
}

/// The column headings of each table, as the text report prints them above its rows.
pub fn columns(check: Measure) -> &'static str {
    match check {
        Measure::BoardMemory => "    n     student   reference",
        Measure::SolverMemory => "filename        moves    n     student",
        Measure::QueueMemory => "filename        moves    n   deep memory     max size  ending size",
        Measure::Timing(TimingAspect::CpuAndAnswer) => "filename        moves    n",
        Measure::Timing(TimingAspect::QueueCounts) => "filename        moves    n     insert()     delMin()",
        Measure::Timing(TimingAspect::ForbiddenCalls) => "filename        moves    n    hamming()   toString()",
        Measure::Timing(TimingAspect::BoardCounts | TimingAspect::StrictBoardCounts) => {
            "filename        moves    n      Board()     equals()  manhattan()"
        }
    }
}

/// The first columns of a puzzle row: file, moves, n.
fn puzzle_columns(trial: &Trial) -> String {
    let moves = match trial.expected {
        Expected::Moves(m) => m.to_string(),
        Expected::Unsolvable => "-1".into(),
        Expected::Unknown => "?".into(),
    };
    format!("{:<14} {moves:>6} {:>4}", trial.label, trial.board.dimension())
}

/// Memory Solver 1: the deep memory of a Solver after construction, against the official reference's, which
/// keeps the goal's search node and its chain: 24 + (moves + 1) × (40 + one reference board), the board as
/// this program measures it (so each language is held to its own board size; in Java the official 96 bytes at
/// 3-by-3).
///
/// A Solver that searches lazily (on its first moves()) would look small after construction, so where the
/// adapter measures memory, the Solver's methods are then all called (`memory_retained`) and it is measured
/// again, less what only its returned solution holds: the larger figure is judged.
///
/// The deep figure weighs what is reachable from the Solver (and its static fields' growth); a Solver can keep
/// memory elsewhere. So where the adapter gives it, a second reading is judged too
/// ([`Kept`](crate::runner::life::Kept)): what the whole process keeps beyond what it held before the
/// submission's code ran. Its part off the runtime's heap (a direct buffer), which no honest Solver has,
/// counts in full with the deep figure; the whole fails the row only beyond a margin no honest Solver reaches
/// ([`kept_beyond_margin`]).
fn solver_memory(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    if !ctx.has("memory") {
        return Err(Fault::Unsupported("the submission program cannot measure memory".into()).into());
    }
    let seen = ctx.life(World::Ref, trial, Measure::SolverMemory.calls().unwrap_or(&[]));
    let Some(SolverBytes { constructed, after_calls, kept }) = seen.solver_bytes else {
        // never constructed: its failure is every answer
        seen.moves()?;
        return Err(Fault::Protocol("the Solver's life was not weighed (a grader bug)".into()).into());
    };
    // A failure after the constructor (a method that did not return in time) leaves the figure after
    // construction to judge.
    let deep = constructed.max(after_calls.unwrap_or(0));
    let off_heap = kept.map_or(0, |k| k.off_heap);
    let bytes = deep + off_heap;
    let moves = match trial.expected {
        Expected::Moves(m) => u64::from(m),
        _ => 0,
    };
    let reference = reference_solver_bytes(moves, reference_board_bytes(ctx, &trial.board)?);
    let factor = ctx.policy.thresholds.memory_ratio;
    let cell = Cell::new(bytes, reference, factor);
    let row = format!("{} {:>11}", puzzle_columns(trial), cell.text());
    // a Solver that searched where the counts do not see could keep its search there too
    within_search_bound(&seen, trial).map_err(|m| m.with_row(row.clone()))?;
    let hint = "(keep the solution, not the search: let the MinPQ and visited nodes go)";
    judge::cells_pass(&[("memory of the Solver", cell, reference)], factor).map_err(|m| {
        let m = if deep > constructed {
            m.with(format!(
                "(measured once moves(), isSolvable() and solution() had been called: {constructed} bytes right \
                 after the constructor, {deep} after; the search a Solver keeps counts whenever it runs)"
            ))
        } else {
            m
        };
        let m = if off_heap > 0 {
            m.with(format!(
                "(of which {off_heap} bytes of native memory in direct or mapped buffers, which the process holds \
                 beyond what it held before your code first ran: memory kept off the heap counts too)"
            ))
        } else {
            m
        };
        m.with_row(row.clone()).with(hint)
    })?;
    let bound = factor * reference as f64;
    if let Some(kept) = kept.filter(|k| kept_beyond_margin(k.bytes, bound, bytes)) {
        return mismatch(
            Mismatch::new(format!(
                "the Solver's life kept more than {} outside the objects reachable from it (after a full \
                 collection)",
                more_than(kept.bytes - bytes)
            ))
            .with(format!(
                "(the whole process held that much beyond the {bytes} bytes reachable from the Solver and its static \
                 fields, against what it held before your code first ran: memory kept by a Timer, a thread, a \
                 static array or off the heap counts too)"
            ))
            .with(format!(
                "(a row fails on this reading more than {} KiB over its bound of {bound:.0} bytes, a margin no \
                 honest Solver reaches)",
                KEPT_MARGIN_BYTES >> 10
            ))
            .with_row(row)
            .with(hint),
        );
    }
    Ok(vec![row])
}

/// Bytes for a message as the power of two below them (`64 KiB`, `256 KiB`, `2 MiB`): the second reading
/// varies by a few kilobytes from run to run (the whole process's heap), and a report must read the same every
/// time, quiet or busy. Two significant digits moved with it (`73 KB` in one run, `74 KB` in the next); a
/// power of two moves only when the reading lies within those few kilobytes of one.
fn more_than(bytes: u64) -> String {
    let power = if bytes == 0 { 0 } else { 63 - bytes.leading_zeros() };
    crate::runner::process::describe_bytes(1usize << power)
}

/// Memory Solver 2: the MinPQs' deep memory, maximum size and ending size (summed over queues), each against
/// 1.75 × the reference's two-queue search.
///
/// A queue's deep memory is everything it reaches: its array, its search nodes, those still queued and the
/// dequeued ones they reach through their predecessors, their boards (and, through a node's outer Solver,
/// whatever that holds). The reference's figure is the canonical search's in the official model
/// ([`reference_queue_bytes`]), with one reference board per node. A deep memory of 0 means the program could
/// not measure it (no counting MinPQ, or no `memory` capability): it is printed as `-` and not judged. A
/// figure the adapter's walk stopped short of (`pq_deep_cut`) is a lower bound: judged when it fails, a failure
/// of its own when it passes (no honest search reaches the Java walk's limits, 3,500,000 objects or 200 MB).
fn queue_memory(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let seen = ctx.life(World::Ref, trial, Measure::QueueMemory.calls().unwrap_or(&[]));
    let reference = reference_counts(trial)?;
    let factor = ctx.policy.thresholds.memory_ratio;
    if claimed(&seen, trial) > 0 && seen.required("pq_inserts")? == 0 {
        // A queue of its own (std's BinaryHeap) would otherwise show sizes of 0 and pass every cell.
        return mismatch(
            Mismatch::new("the Solver did not use algs4's MinPQ: it solved the puzzle with no insert()")
                .with("(the assignment requires algs4's MinPQ; its sizes are what this test measures)")
                .with_row(puzzle_columns(trial)),
        );
    }
    within_search_bound(&seen, trial).map_err(|m| m.with_row(puzzle_columns(trial)))?;
    let max = Cell::new(seen.required("pq_max_size")?, reference.max_queue_size, factor);
    let ending = Cell::new(seen.required("pq_ending_size")?, reference.ending_size.max(1), factor);
    let deep_bytes = if ctx.has("memory") { seen.counter("pq_deep_bytes").unwrap_or(0) } else { 0 };
    let mut cells = vec![("max size", max, reference.max_queue_size), ("ending size", ending, reference.ending_size)];
    let deep_text = if deep_bytes == 0 {
        "-".to_string()
    } else {
        let expected = reference_queue_bytes(&reference, reference_board_bytes(ctx, &trial.board)?);
        let deep = Cell::new(deep_bytes, expected, factor);
        cells.insert(0, (DEEP_MEMORY, deep, expected));
        deep.text()
    };
    let row = format!("{} {deep_text:>13} {:>12} {:>12}", puzzle_columns(trial), max.text(), ending.text());
    let cut = deep_bytes > 0 && seen.counter("pq_deep_cut").unwrap_or(0) > 0;
    queue_row(&cells, factor, cut.then_some(deep_bytes)).map_err(|m| m.with_row(row.clone()))?;
    Ok(vec![row])
}

/// The MinPQ row's cell of the queues' deep memory (the others are their sizes).
const DEEP_MEMORY: &str = "deep memory";

/// A MinPQ row's cells judged. `cut` is the deep figure when the adapter's walk stopped short of everything
/// the queues reach (`pq_deep_cut`): a lower bound, judged when it fails already, and otherwise a failure of
/// its own, for it judges nothing (no honest search reaches the walk's limits).
fn queue_row(cells: &[(&str, Cell, u64)], factor: f64, cut: Option<u64>) -> Result<(), Mismatch> {
    // Queues holding more nodes than the reference's search are the search's doing; deep memory alone, the
    // node's. (A red-team Solver breaking ties first in, first out failed the sizes and was told about fields.)
    let sizes_fail = cells.iter().any(|(what, cell, _)| *what != DEEP_MEMORY && cell.fails());
    let advice = match sizes_fail {
        true => {
            "(the queues held more search nodes than the reference's search: usual causes are ties broken first in, \
             first out (a key of priority then insertion order), no critical optimization, or one queue searching \
             the twin too far)"
        }
        false => "(a search node needs its board, moves, priority and predecessor; nothing more)",
    };
    let lower_bound = |bytes: u64| {
        format!(
            "(the adapter's walk of what the queues reach stopped at its limit, having counted {bytes} bytes: the \
             deep memory is at least that)"
        )
    };
    judge::cells_pass(cells, factor).map_err(|m| match cut {
        Some(bytes) => m.with(lower_bound(bytes)).with(advice),
        None => m.with(advice),
    })?;
    match cut {
        None => Ok(()),
        Some(bytes) => Err(Mismatch::new(format!(
            "the queues reach more than the deep-memory walk visits: {bytes} bytes counted when it stopped, a \
             lower bound that cannot be judged"
        ))
        .with(lower_bound(bytes))
        .with(advice)),
    }
}

/// Bytes of one reference board for `board`'s size, as this program measures them.
fn reference_board_bytes(ctx: &mut Ctx<'_>, board: &Board) -> Asked<u64> {
    let bytes = ask::int(ctx.session, &Request::MemoryBoard { world: World::Ref, tiles: ask::tiles_of(board) })?;
    Ok(u64::try_from(bytes).map_err(|_| Mismatch::new(format!("`memory_board` answered {bytes} bytes")))?)
}

fn reference_counts(trial: &Trial) -> Asked<corpus::ReferenceCounts> {
    trial.reference.ok_or_else(|| {
        Fault::Protocol(format!(
            "no reference counts for {} (the reference did not finish within its budget)",
            trial.label
        ))
        .into()
    })
}

/// One row of a timing table, judged from the puzzle's single life.
fn timing(ctx: &mut Ctx<'_>, aspect: TimingAspect, trial: &Trial) -> TrialResult {
    let calls = Measure::Timing(aspect).calls().unwrap_or(&[]);
    let seen = ctx.life(World::Ref, trial, calls);
    let factor = ctx.policy.thresholds.count_ratio;
    let head = puzzle_columns(trial);
    match aspect {
        TimingAspect::CpuAndAnswer => {
            let moves = seen.moves()?;
            within_cpu(&seen, ctx.solve_cpu()).map_err(|m| m.with_row(head.clone()))?;
            if let Expected::Moves(m) = trial.expected {
                judge::same_value("moves()", i64::from(m), moves).map_err(|m| m.with_row(head.clone()))?;
            }
            Ok(vec![head])
        }
        TimingAspect::QueueCounts => {
            let reference = reference_counts(trial)?;
            let inserts = seen.required("pq_inserts")?;
            let del_mins = seen.required("pq_del_mins")?;
            let row = format!("{head} {inserts:>12} {del_mins:>12}");
            if inserts == 0 && claimed(&seen, trial) > 0 {
                return mismatch(
                    Mismatch::new("the Solver did not use algs4's MinPQ: no insert() at all")
                        .with("(the assignment requires algs4's MinPQ; its operations are what this test counts)")
                        .with_row(row),
                );
            }
            within_search_bound(&seen, trial).map_err(|m| m.with_row(row))?;
            table_row(ctx, trial, calls, &seen, head, &count_cells(aspect, &seen, &reference, factor)?, factor)
        }
        TimingAspect::ForbiddenCalls => {
            let hamming = seen.required("board_hamming")?;
            let to_string = seen.required("board_to_string")?;
            let row = format!("{head} {hamming:>12} {to_string:>12}");
            within_search_bound(&seen, trial).map_err(|m| m.with_row(row.clone()))?;
            if to_string > 0 {
                return mismatch(
                    Mismatch::new(format!("the Solver called toString() {to_string} times; it should not call it"))
                        .with_row(row),
                );
            }
            Ok(vec![row])
        }
        TimingAspect::BoardCounts | TimingAspect::StrictBoardCounts => {
            let reference = reference_counts(trial)?;
            let constructed = seen.required("board_constructed")?;
            if constructed == 0 && claimed(&seen, trial) > 0 {
                return mismatch(
                    Mismatch::new("the Solver did not build boards through the Board API: no Board() at all").with(
                        "(a solved puzzle needs neighbors(); boards made some other way are invisible to the counts)",
                    ),
                );
            }
            within_search_bound(&seen, trial).map_err(|m| m.with_row(head.clone()))?;
            let manhattan = seen.required("board_manhattan")?;
            let cells = count_cells(aspect, &seen, &reference, factor)?;
            if aspect == TimingAspect::StrictBoardCounts {
                let hint = manhattan_hint(manhattan, seen.required("pq_inserts")? + seen.required("pq_del_mins")?);
                table_row(ctx, trial, calls, &seen, head, &cells, factor).map_err(|p| p.with_hint(hint))
            } else {
                // 4a prints manhattan() but does not judge it.
                let mut rows = table_row(ctx, trial, calls, &seen, head, &cells, factor)?;
                rows[0] = format!("{} {manhattan:>12}", rows[0]);
                Ok(rows)
            }
        }
    }
}

/// What a failing Timing 4b row advises, given the Solver's manhattan() calls and its own insert() + delMin():
/// a Solver that caches the priority calls manhattan() about once a node it creates and once a goal test,
/// so its calls follow its search's size, and a search larger than the reference's fails 4b too (a single
/// queue searching the twin too far); only well beyond one call an operation is the priority recomputed.
fn manhattan_hint(manhattan: u64, own_operations: u64) -> &'static str {
    match manhattan as f64 <= 1.25 * own_operations as f64 {
        true => {
            "manhattan() is called about once a search node, as with a cached priority: the search made more \
             nodes than the reference's (Timing 2 and 4a count them)"
        }
        false => "cache the priority, moves + manhattan, in the search node when it is created",
    }
}

/// The CPU a Solver's whole life was charged (constructor and every method), within `limit`.
fn within_cpu(life: &Life, limit: std::time::Duration) -> Result<(), Mismatch> {
    let Some(cpu) = life.cpu else {
        // The program was lost after moves() answered: a later call never returned.
        return match life.counters() {
            Err(crate::runner::ask::Failure::Wrong(m)) => Err(m),
            _ => Ok(()),
        };
    };
    if cpu <= limit {
        return Ok(());
    }
    Err(Mismatch::new(format!(
        "the solve took {:.2} s of CPU, over the limit of {:.1} s",
        cpu.as_secs_f64(),
        limit.as_secs_f64()
    ))
    .with(format!(
        "(the CPU of the Solver's whole life: its constructor, then {})",
        life.order.iter().map(|c| c.name()).collect::<Vec<_>>().join(", ")
    )))
}

/// A count cell: its label in the table, and the counter it reads ([`count_cells`], and [`where_from`] for
/// the lines its operations came from).
type CountCell = (&'static str, &'static str);
const INSERTS: CountCell = ("insert()", "pq_inserts");
const DEL_MINS: CountCell = ("delMin()", "pq_del_mins");
const BOARDS: CountCell = ("Board()", "board_constructed");
const EQUALS: CountCell = ("equals()", "board_equals");
const MANHATTANS: CountCell = ("manhattan()", "board_manhattan");

/// The judged cells of a count row: the submission's count, judged against the reference's, and the
/// reference's count. Empty for rows that judge no count.
fn count_cells(
    aspect: TimingAspect,
    seen: &Life,
    reference: &corpus::ReferenceCounts,
    factor: f64,
) -> Asked<Vec<(&'static str, Cell, u64)>> {
    let cell = |(what, counter): CountCell, reference| -> Asked<(&'static str, Cell, u64)> {
        Ok((what, Cell::new(seen.required(counter)?, reference, factor), reference))
    };
    Ok(match aspect {
        TimingAspect::QueueCounts => {
            vec![cell(INSERTS, reference.inserts)?, cell(DEL_MINS, reference.del_mins)?]
        }
        TimingAspect::BoardCounts | TimingAspect::StrictBoardCounts => {
            // Board() counts the initial board the grader builds, as the official count does.
            let built = seen.required(BOARDS.1)? + 1;
            let reference_built = reference.boards_constructed + 1;
            let mut cells = vec![
                (BOARDS.0, Cell::new(built, reference_built, factor), reference_built),
                cell(EQUALS, reference.equals_calls)?,
            ];
            if aspect == TimingAspect::StrictBoardCounts {
                cells.push(cell(MANHATTANS, reference.inserts + reference.del_mins)?);
            }
            cells
        }
        TimingAspect::CpuAndAnswer | TimingAspect::ForbiddenCalls => vec![],
    })
}

/// A count row's counts as evidence, whatever its verdict: from the puzzle's cached solve (no request is
/// sent). `None` for rows that judge no count or whose solve failed.
fn counts(ctx: &mut Ctx<'_>, aspect: TimingAspect, trial: &Trial) -> Option<Evidence> {
    let seen = ctx.life(World::Ref, trial, Measure::Timing(aspect).calls().unwrap_or(&[]));
    let reference = trial.reference?;
    let factor = ctx.policy.thresholds.count_ratio;
    let cells = count_cells(aspect, &seen, &reference, factor).ok()?;
    (!cells.is_empty()).then(|| judge::counts(&cells, factor))
}

/// A row of judged cells: the row (failing cells with their ratios) and, when a cell fails, a mismatch that
/// names it and, where the adapter samples call sites, the lines of the student's code its count comes from
/// (from the trial's life lived again while sampling, [`Ctx::sampled_life`]: asked only when a cell fails).
/// `seen` is the judged life the cells were read from.
fn table_row(
    ctx: &mut Ctx<'_>,
    trial: &Trial,
    calls: &[SolverCall],
    seen: &Life,
    head: String,
    cells: &[(&str, Cell, u64)],
    factor: f64,
) -> TrialResult {
    let row = cells.iter().fold(head, |row, (_, cell, _)| format!("{row} {:>12}", cell.text()));
    judge::cells_pass(cells, factor).map_err(|mut m| {
        if let Some(sampled) = ctx.sampled_life(World::Ref, trial, calls) {
            for (what, _, _) in cells.iter().filter(|(_, cell, _)| cell.fails()) {
                m.details.extend(where_from(what, seen, &sampled));
            }
        }
        m.with_row(row.clone())
    })?;
    Ok(vec![row])
}

/// The most sampled lines of the student's code that a count cell's operations came from: "81% of Board()
/// calls: Solver.java:42", or nothing where the adapter does not sample. The sites come from the puzzle
/// solved again; a second solve that counted otherwise than the `judged` one would not explain it, so it says
/// so instead of naming lines.
fn where_from(what: &str, judged: &Life, sampled: &Life) -> Option<String> {
    let &(_, counter) = [INSERTS, DEL_MINS, BOARDS, EQUALS, MANHATTANS].iter().find(|(label, _)| *label == what)?;
    let (judged, again) = (judged.counter(counter)?, sampled.counter(counter)?);
    if again != judged {
        return Some(format!(
            "(solved again to find where its {what} calls come from, the Solver made {again} of them, not {judged}: \
             its lines would not explain this count, so none are shown)"
        ));
    }
    let sites = sampled.sites_of(counter);
    let shown: Vec<String> =
        sites.iter().take(3).map(|(site, share)| format!("{:.0}% at {site}", share * 100.0)).collect();
    let more = if sites.len() > 3 { format!(", {} more lines", sites.len() - 3) } else { String::new() };
    (!shown.is_empty())
        .then(|| format!("{what} calls come from: {}{more} (one call in {SAMPLING_PERIOD} sampled)", shown.join(", ")))
}

/// The adapters sample every this-many-th operation of each counter (specs/protocol.md, `call_sites`).
const SAMPLING_PERIOD: u32 = 128;

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(deep: u64, reference: u64) -> Vec<(&'static str, Cell, u64)> {
        vec![(DEEP_MEMORY, Cell::new(deep, reference, 1.75), reference), ("max size", Cell::new(10, 10, 1.75), 10)]
    }

    /// A row failing on the queues' sizes is the search's doing; one failing on deep memory alone, the node's.
    #[test]
    fn a_queue_row_advises_by_the_cell_that_failed() {
        let advice = |cells: &[(&str, Cell, u64)]| queue_row(cells, 1.75, None).unwrap_err().details.join(" ");
        assert!(advice(&cells(3_000, 1_000)).contains("nothing more"));
        let sizes = [(DEEP_MEMORY, Cell::new(1_000, 1_000, 1.75), 1_000), ("max size", Cell::new(20, 10, 1.75), 10)];
        assert!(advice(&sizes).contains("first in, first out"));
    }

    /// Timing 4b's advice: a Solver calling manhattan() about once an operation caches its priority already.
    #[test]
    fn timing_4b_advises_caching_only_beyond_a_call_an_operation() {
        assert!(manhattan_hint(1_200, 1_000).contains("more nodes"));
        assert!(manhattan_hint(1_300, 1_000).contains("cache the priority"));
    }

    #[test]
    fn a_deep_figure_the_walk_stopped_short_of_never_passes() {
        assert!(queue_row(&cells(1_000, 1_000), 1.75, None).is_ok());
        let failing = queue_row(&cells(3_000, 1_000), 1.75, None).unwrap_err();
        assert!(failing.summary.starts_with("deep memory: 3000 is 1.7x"), "{failing:?}");
        // a lower bound that already fails is judged, and says it is one
        let bound = queue_row(&cells(3_000, 1_000), 1.75, Some(3_000)).unwrap_err();
        assert!(bound.summary.starts_with("deep memory: 3000 is 1.7x"), "{bound:?}");
        assert!(bound.details.iter().any(|d| d.contains("at least that")), "{bound:?}");
        // one that would pass judges nothing
        let unjudged = queue_row(&cells(1_000, 1_000), 1.75, Some(1_000)).unwrap_err();
        assert!(unjudged.summary.contains("a lower bound that cannot be judged"), "{unjudged:?}");
    }

    #[test]
    fn kept_bytes_read_as_the_power_of_two_below_them() {
        let read: Vec<String> =
            [73_000, 74_900, 412_300, 1_048_576, 2_430_000, 32_030_256, 5 << 30, 700].map(super::more_than).to_vec();
        assert_eq!(read, ["64 KiB", "64 KiB", "256 KiB", "1 MiB", "2 MiB", "16 MiB", "4 GiB", "512 bytes"]);
    }
}
