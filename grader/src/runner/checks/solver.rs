//! Solver checks. They run in the `ref` world (the submission's Solver over the counting reference board),
//! except this project's end-to-end run of the Solver over the submission's own Board (the `own` world).

use corpus::Expected;
use npuzzle_harness::protocol::{Request, World};
use reference::Board;

use super::context::{mismatch, Ctx, TrialResult};
use crate::catalog::{EqualsUsage, SolveAspect, SolverTrial, SolverWhole};
use crate::judge::{self, Mismatch};
use crate::plan::Trial;
use crate::runner::ask::{self, Asked, SolveObservation};
use crate::runner::session::Fault;

const REF: World = World::Ref;

/// Runs one trial of a Solver check; `other` is the trial's partner (for two solvers at once).
pub fn trial(ctx: &mut Ctx<'_>, check: SolverTrial, trial: &Trial, other: &Trial) -> TrialResult {
    match check {
        SolverTrial::Solve(aspect) => solve(ctx, aspect, trial),
        SolverTrial::TwoSolvers => two_solvers(ctx, trial, other),
        SolverTrial::IsSolvable => is_solvable(ctx, trial),
        SolverTrial::UnsolvableMoves => unsolvable_moves(ctx, trial),
        SolverTrial::UnsolvableSolution => unsolvable_solution(ctx, trial),
        SolverTrial::CallOrder => call_order(ctx, trial),
        SolverTrial::EqualsUsage(usage) => equals_usage(ctx, usage, trial),
        SolverTrial::NoMutationAfterInsert => no_mutation_after_insert(ctx, trial),
        SolverTrial::UsesMinPq => uses_min_pq(ctx, trial),
    }
}

/// Runs a Solver check judged over the whole test.
pub fn whole(ctx: &mut Ctx<'_>, check: SolverWhole, trials: &[Trial]) -> TrialResult {
    match check {
        SolverWhole::NullBoard => null_board(ctx),
        SolverWhole::SameAnswersWhenRerun => same_answers_when_rerun(ctx, trials),
    }
}

/// Judges one solve against the trial's expected answer: moves() (the official "a" tests), solution()
/// step by step (the "b" tests), or both.
fn judge_solve(trial: &Trial, seen: &SolveObservation, aspect: SolveAspect) -> Asked<()> {
    let moves = aspect != SolveAspect::Solution;
    let solution = aspect != SolveAspect::Moves;
    match trial.expected {
        Expected::Unsolvable => {
            if (moves && seen.moves != -1) || (solution && seen.solution.is_some()) {
                return mismatch(
                    Mismatch::new("the board is unsolvable, but the Solver found otherwise")
                        .with(format!("isSolvable(): {} (expected false)", seen.solvable))
                        .with(format!("moves():      {} (expected -1)", seen.moves))
                        .with(format!("solution():   {} (expected null)", describe_solution(&seen.solution)))
                        .with_board("initial board", &trial.board),
                );
            }
            Ok(())
        }
        expected => {
            let moves_expected = match expected {
                Expected::Moves(m) => Some(m),
                _ => None,
            };
            if moves {
                if let Some(m) = moves_expected {
                    judge::same_value("moves()", i64::from(m), seen.moves)
                        .map_err(|mm| mm.with_board("initial board", &trial.board))?;
                }
            }
            if !solution {
                return Ok(());
            }
            let Some(boards) = &seen.solution else {
                return mismatch(
                    Mismatch::new("solution() returned null for a solvable board")
                        .with(format!("moves(): {}", seen.moves))
                        .with_board("initial board", &trial.board),
                );
            };
            // The solution is judged on its own length where the moves are known; moves() is the "a" test's.
            let length = moves_expected.map_or(seen.moves as i32, |m| m as i32);
            judge::solution_is_valid(&trial.board, moves_expected, length, boards)?;
            Ok(())
        }
    }
}

fn describe_solution(solution: &Option<Vec<Board>>) -> String {
    match solution {
        None => "null".into(),
        Some(boards) => format!("{} boards", boards.len()),
    }
}

/// moves() and/or solution() are right, the solution checked step by step. The official tests run over the
/// reference board; this project's end-to-end run (`Both`) over the submission's own.
fn solve(ctx: &mut Ctx<'_>, aspect: SolveAspect, trial: &Trial) -> TrialResult {
    let world = if aspect == SolveAspect::Both { World::Own } else { REF };
    let seen = ctx.solve(world, trial)?;
    judge_solve(trial, &seen, aspect)?;
    if aspect == SolveAspect::Both && seen.solvable != (trial.expected != Expected::Unsolvable) {
        return mismatch(
            Mismatch::new(format!("isSolvable() returned {}", seen.solvable)).with_board("board", &trial.board),
        );
    }
    Ok(vec![])
}

/// The Solver put its search nodes in the counting MinPQ: a solved puzzle with no insert() shows a queue of
/// its own, whose counts the timing tests cannot see.
fn uses_min_pq(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let seen = ctx.solve(REF, trial)?;
    if seen.moves > 0 && seen.required("pq_inserts")? == 0 {
        return mismatch(
            Mismatch::new("the Solver did not use the MinPQ it was given: it solved the puzzle with no insert()")
                .with("(use algs4's MinPQ; a java.util.PriorityQueue or std BinaryHeap is invisible to the counts)"),
        );
    }
    Ok(vec![])
}

/// Two solvers alive at once keep their own answers.
fn two_solvers(ctx: &mut Ctx<'_>, trial: &Trial, other: &Trial) -> TrialResult {
    let [a, b] = ask::build_all(ctx.session, REF, [&trial.board, &other.board])?;
    let cpu = ctx.solve_cpu();
    let sa = ask::handle_within(ctx.session, &Request::Solver(a), cpu)?;
    let sb = ask::handle_within(ctx.session, &Request::Solver(b), cpu)?;
    for (solver, t) in [(sb, other), (sa, trial)] {
        let seen = ask::observe(ctx.session, solver)?;
        judge_solve(t, &seen, SolveAspect::Moves).map_err(|p| {
            p.with_hint(&format!(
                "two Solver objects were alive at the same time ({} and {})",
                trial.label, other.label
            ))
        })?;
    }
    ask::release(ctx.session, vec![a, b, sa, sb]);
    Ok(vec![])
}

/// isSolvable() is right (the parity rule decides where the fixture does not say).
fn is_solvable(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let seen = ctx.solve(REF, trial)?;
    let expected = match trial.expected {
        Expected::Unsolvable => false,
        Expected::Moves(_) => true,
        Expected::Unknown => reference::oracle::is_solvable(&trial.board),
    };
    if seen.solvable != expected {
        return mismatch(
            Mismatch::new(format!("isSolvable() returned {}, expected {expected}", seen.solvable))
                .with_board("board", &trial.board),
        );
    }
    Ok(vec![])
}

fn unsolvable_expected(trial: &Trial) -> Asked<()> {
    if trial.expected != Expected::Unsolvable {
        return mismatch(Mismatch::new(format!(
            "fixture {} is not unsolvable (a fixture problem, not yours)",
            trial.label
        )));
    }
    Ok(())
}

/// moves() is −1 on unsolvable input.
fn unsolvable_moves(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    unsolvable_expected(trial)?;
    let seen = ctx.solve(REF, trial)?;
    judge::same_value("moves() on an unsolvable board", -1, seen.moves)
        .map_err(|m| m.with_board("board", &trial.board))?;
    Ok(vec![])
}

/// solution() is null on unsolvable input.
fn unsolvable_solution(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    unsolvable_expected(trial)?;
    let seen = ctx.solve(REF, trial)?;
    if let Some(boards) = &seen.solution {
        return mismatch(
            Mismatch::new(format!(
                "solution() on an unsolvable board returned {} boards instead of null",
                boards.len()
            ))
            .with_board("board", &trial.board),
        );
    }
    Ok(vec![])
}

/// Calling Solver methods in different orders gives the same answers.
fn call_order(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let b = ask::build(ctx.session, REF, &trial.board)?;
    let cpu = ctx.solve_cpu();
    let s = ask::handle_within(ctx.session, &Request::Solver(b), cpu)?;
    let first_solution = ask::solution(ctx.session, s)?;
    let first = ask::observe(ctx.session, s)?;
    let again = ask::observe(ctx.session, s)?;
    let seen = SolveObservation { solution: first_solution.clone(), ..first.clone() };
    judge_solve(trial, &seen, SolveAspect::Both).map_err(|p| p.with_hint("solution() was called before moves()"))?;
    for (name, later) in [("a second call", &first), ("a third call", &again)] {
        if later.solution != first_solution || later.moves != first.moves || later.solvable != first.solvable {
            return mismatch(
                Mismatch::new(format!("the Solver's answers changed on {name}"))
                    .with(format!(
                        "first:  moves() = {}, solution() = {}",
                        first.moves,
                        describe_solution(&first_solution)
                    ))
                    .with(format!(
                        "later:  moves() = {}, solution() = {}",
                        later.moves,
                        describe_solution(&later.solution)
                    ))
                    .with_board("initial board", &trial.board),
            );
        }
    }
    ask::release(ctx.session, vec![b, s]);
    Ok(vec![])
}

/// How the Solver calls equals, from the reference board's counters.
fn equals_usage(ctx: &mut Ctx<'_>, usage: EqualsUsage, trial: &Trial) -> TrialResult {
    let seen = ctx.solve(REF, trial)?;
    match usage {
        EqualsUsage::Called => {
            if seen.required("board_equals")? == 0 && seen.required("pq_del_mins")? > 1 {
                return mismatch(Mismatch::new("equals() was never called: the critical optimization is missing"));
            }
        }
        EqualsUsage::OnlyBoards => {
            let bad = seen.required("board_equals_non_board")?;
            if bad > 0 {
                return mismatch(Mismatch::new(format!(
                    "equals() was called {bad} times with an argument that is not a Board"
                )));
            }
        }
        EqualsUsage::OnlyGrandNeighbors => {
            let bad = seen.required("board_equals_not_grand_neighbor")?;
            let all = seen.required("board_equals")?;
            if bad > 0 {
                return mismatch(Mismatch::new(format!(
                    "{bad} of {all} equals() calls compared boards that are not neighbors of neighbors \
                     (the critical optimization compares a neighbor with the previous search node's board only)"
                )));
            }
        }
    }
    Ok(vec![])
}

/// The constructor rejects null with IllegalArgumentException.
fn null_board(ctx: &mut Ctx<'_>) -> TrialResult {
    match ctx.session.call(&Request::SolverNull(World::Own)) {
        // ValueError is Python's IllegalArgumentException (specs/protocol.md, "Python")
        Err(Fault::Exception { kind, .. }) if kind.ends_with("IllegalArgumentException") || kind == "ValueError" => {
            Ok(vec![])
        }
        Err(Fault::Exception { kind, message }) => {
            // Java names its exceptions with their package; Python's built-in ones have none
            let expected = if kind.contains('.') { "java.lang.IllegalArgumentException" } else { "ValueError" };
            mismatch(
                Mismatch::new(format!("new Solver(null) threw {kind}, expected {expected}"))
                    .with(format!("message: {message}")),
            )
        }
        Err(fault) => Err(fault.into()),
        Ok(_) => mismatch(Mismatch::new("new Solver(null) did not throw: expected java.lang.IllegalArgumentException")),
    }
}

/// No object's ordering changes after insertion into the MinPQ.
fn no_mutation_after_insert(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let seen = ctx.solve(REF, trial)?;
    let violations = seen.required("pq_heap_violations")?;
    if violations > 0 {
        return mismatch(
            Mismatch::new(format!(
                "the MinPQ was found out of heap order {violations} times: an item's priority changed after it was inserted"
            ))
            .with_board("initial board", &trial.board),
        );
    }
    Ok(vec![])
}

/// The same puzzles solved in a fresh process give the same moves and solutions.
fn same_answers_when_rerun(ctx: &mut Ctx<'_>, trials: &[Trial]) -> TrialResult {
    let mut fresh = (ctx.fresh_session)();
    let cpu = ctx.solve_cpu();
    for trial in trials {
        let first = ctx.solve(REF, trial)?;
        let again = ask::solve(&mut fresh, REF, &trial.board, cpu, false)?;
        if again.moves != first.moves || again.solution != first.solution {
            return mismatch(
                Mismatch::new(format!("{}: a fresh run gave a different answer", trial.label))
                    .with(format!(
                        "first run:  moves() = {}, solution() = {}",
                        first.moves,
                        describe_solution(&first.solution)
                    ))
                    .with(format!(
                        "fresh run:  moves() = {}, solution() = {}",
                        again.moves,
                        describe_solution(&again.solution)
                    )),
            );
        }
    }
    fresh.finish();
    Ok(vec![format!("{} puzzles solved again in a fresh process", trials.len())])
}
