//! Solver checks. They run in the `ref` world (the submission's Solver over the counting reference board),
//! except this project's end-to-end run of the Solver over the submission's own Board (the `own` world).

use corpus::Expected;
use npuzzle_harness::protocol::{Handle, Request, World};
use reference::Board;

use super::context::{each_trial, mismatch, whole, Ctx, TrialResult, Verdict};
use super::search_bound::{claimed, within_search_bound};
use crate::catalog::{EqualsUsage, SolveAspect, SolverCall, SolverCheck};
use crate::judge::{self, Mismatch};
use crate::plan::{PlannedTest, Trial};
use crate::runner::ask::{self, Asked, Failure};
use crate::runner::life::{Asks, Life};
use crate::runner::session::Fault;

const REF: World = World::Ref;

/// Runs a Solver test: trial by trial (`other` is a trial's partner, for two solvers at once), or once over
/// the whole test.
pub fn run(ctx: &mut Ctx<'_>, check: SolverCheck, test: &PlannedTest) -> Verdict {
    match check {
        SolverCheck::Solve(aspect) => each_trial(ctx, test, |ctx, trial, _| solve(ctx, aspect, trial)),
        SolverCheck::TwoSolvers | SolverCheck::TwoSolversEveryAnswer => {
            each_trial(ctx, test, |ctx, trial, other| two_solvers(ctx, check, trial, other))
        }
        SolverCheck::IsSolvable => each_trial(ctx, test, |ctx, trial, _| is_solvable(ctx, trial)),
        SolverCheck::UnsolvableMoves => each_trial(ctx, test, |ctx, trial, _| unsolvable_moves(ctx, trial)),
        SolverCheck::UnsolvableSolution => each_trial(ctx, test, |ctx, trial, _| unsolvable_solution(ctx, trial)),
        SolverCheck::CallOrder => each_trial(ctx, test, |ctx, trial, _| call_order(ctx, trial)),
        SolverCheck::EqualsUsage(usage) => each_trial(ctx, test, |ctx, trial, _| equals_usage(ctx, usage, trial)),
        SolverCheck::NoMutationAfterInsert => {
            each_trial(ctx, test, |ctx, trial, _| no_mutation_after_insert(ctx, trial))
        }
        SolverCheck::UsesMinPq => each_trial(ctx, test, |ctx, trial, _| uses_min_pq(ctx, trial)),
        SolverCheck::NullBoard => whole(null_board(ctx)),
        SolverCheck::SameAnswersWhenRerun => whole(same_answers_when_rerun(ctx, &test.trials)),
    }
}

/// Judges one life against the trial's expected answer on the calls the test makes: moves() (the official
/// "a" tests), solution() step by step after moves() (the "b" tests), or all three (this project's own
/// end-to-end run). A "b" test calls moves() too (an exception there fails it), but judges the solution on
/// its own: a wrong moves() value is the "a" test's to fail.
fn judge_solve(trial: &Trial, life: &Life, aspect: SolveAspect) -> Asked<()> {
    let judges_moves = aspect != SolveAspect::Solution;
    let judges_solution = aspect != SolveAspect::Moves;
    let moves = life.moves()?;
    let solution = if judges_solution { Some(life.solution()?) } else { None };
    match trial.expected {
        Expected::Unsolvable => {
            if (judges_moves && moves != -1) || solution.as_ref().is_some_and(Option::is_some) {
                return mismatch(
                    Mismatch::new("the board is unsolvable, but the Solver found otherwise")
                        .with(format!("isSolvable(): {} (expected false)", life.shown(SolverCall::IsSolvable)))
                        .with(format!("moves():      {moves} (expected -1)"))
                        .with(format!("solution():   {} (expected null)", life.shown(SolverCall::Solution)))
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
            if let Some(m) = moves_expected.filter(|_| judges_moves) {
                judge::same_value("moves()", i64::from(m), moves)
                    .map_err(|mm| mm.with_board("initial board", &trial.board))?;
            }
            let Some(solution) = solution else { return Ok(()) };
            let Some(boards) = solution else {
                return mismatch(
                    Mismatch::new("solution() returned null for a solvable board")
                        .with(format!("moves(): {moves}"))
                        .with_board("initial board", &trial.board),
                );
            };
            // The solution is judged on its own length where the moves are known; moves() is the "a" test's.
            let length = moves_expected.map_or(moves as i32, |m| m as i32);
            judge::solution_is_valid(&trial.board, moves_expected, length, &boards)?;
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
    let life = ctx.life(world, trial, SolverCheck::Solve(aspect).calls());
    judge_solve(trial, &life, aspect)?;
    if aspect == SolveAspect::Both {
        let solvable = life.is_solvable()?;
        if solvable != (trial.expected != Expected::Unsolvable) {
            return mismatch(
                Mismatch::new(format!("isSolvable() returned {solvable}")).with_board("board", &trial.board),
            );
        }
    }
    Ok(vec![])
}

/// The Solver put its search nodes in the counting MinPQ: a solved puzzle with no insert() shows a queue of
/// its own, whose counts the timing tests cannot see, and one with fewer delMin()s than moves a search done
/// somewhere the counts cannot see.
fn uses_min_pq(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let life = ctx.life(REF, trial, SolverCheck::UsesMinPq.calls());
    if life.required("pq_inserts")? == 0 && claimed(&life, trial) > 0 {
        return mismatch(
            Mismatch::new("the Solver did not use algs4's MinPQ: it solved the puzzle with no insert()")
                .with("(use algs4's MinPQ, or heapq in Python; a java.util.PriorityQueue, Rust's std BinaryHeap or a list kept sorted with bisect is invisible to the counts)"),
        );
    }
    within_search_bound(&life, trial)?;
    Ok(vec![])
}

/// Two solvers alive at once keep their own answers: both are constructed, then each is asked the test's
/// calls (official Solver 5: moves() only), the second one first.
fn two_solvers(ctx: &mut Ctx<'_>, check: SolverCheck, trial: &Trial, other: &Trial) -> TrialResult {
    let [a, b] = ask::build_all(ctx.session, REF, [&trial.board, &other.board])?;
    let cpu = ctx.solve_cpu();
    let sa = ask::handle_within(ctx.session, &Request::Solver(a), cpu)?;
    let sb = ask::handle_within(ctx.session, &Request::Solver(b), cpu)?;
    for (solver, t, beside) in [(sb, other, trial), (sa, trial, other)] {
        let judged = if check.calls() == [SolverCall::Moves] {
            let moves = ask::int(ctx.session, &Request::Moves(solver))?;
            match t.expected {
                Expected::Moves(m) => judge::same_value("moves()", i64::from(m), moves)
                    .map_err(|mm| Failure::from(mm.with_board("initial board", &t.board))),
                Expected::Unsolvable => judge::same_value("moves()", -1, moves)
                    .map_err(|mm| Failure::from(mm.with_board("initial board", &t.board))),
                Expected::Unknown => Ok(()),
            }
        } else {
            answers(ctx.session, solver).and_then(|answers| judge_answers(t, &answers))
        };
        // the trial's context names both boards; this says which Solver answered
        judged.map_err(|failure| {
            failure.with_hint(&format!(
                "two Solver objects were alive at the same time: this one's board is {}, the other's {}",
                t.label, beside.label
            ))
        })?;
    }
    ask::release(ctx.session, vec![a, b, sa, sb]);
    Ok(vec![])
}

/// isSolvable() is right (the parity rule decides where the fixture does not say).
fn is_solvable(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let solvable = ctx.life(REF, trial, SolverCheck::IsSolvable.calls()).is_solvable()?;
    let expected = match trial.expected {
        Expected::Unsolvable => false,
        Expected::Moves(_) => true,
        Expected::Unknown => reference::oracle::is_solvable(&trial.board),
    };
    if solvable != expected {
        return mismatch(
            Mismatch::new(format!("isSolvable() returned {solvable}, expected {expected}"))
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
    let moves = ctx.life(REF, trial, SolverCheck::UnsolvableMoves.calls()).moves()?;
    judge::same_value("moves() on an unsolvable board", -1, moves).map_err(|m| m.with_board("board", &trial.board))?;
    Ok(vec![])
}

/// solution() is null on unsolvable input.
fn unsolvable_solution(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    unsolvable_expected(trial)?;
    let solution = ctx.life(REF, trial, SolverCheck::UnsolvableSolution.calls()).solution()?;
    if let Some(boards) = &solution {
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

/// The answers of one round of calls: moves(), isSolvable(), solution().
#[derive(PartialEq)]
struct Answers {
    moves: i64,
    solvable: bool,
    solution: Option<Vec<Board>>,
}

/// moves(), isSolvable() and solution() of an existing solver, in that order (one batch for the first two).
fn answers(s: &mut crate::runner::session::Session, solver: Handle) -> Asked<Answers> {
    let requests = [Request::Moves(solver), Request::IsSolvable(solver)];
    let replies = s.call_all(&requests)?;
    let moves = ask::int_of(&requests[0], &replies[0])?;
    let solvable = ask::boolean_of(&requests[1], &replies[1])?;
    Ok(Answers { moves, solvable, solution: ask::solution(s, solver)? })
}

/// Calling Solver methods in different orders gives the same answers: solution() first, then moves(),
/// isSolvable() and solution() twice over.
fn call_order(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let b = ask::build(ctx.session, REF, &trial.board)?;
    let cpu = ctx.solve_cpu();
    let s = ask::handle_within(ctx.session, &Request::Solver(b), cpu)?;
    let first_solution = ask::solution(ctx.session, s)?;
    let first = answers(ctx.session, s)?;
    let again = answers(ctx.session, s)?;
    judge_answers(trial, &Answers { solution: first_solution.clone(), ..first })
        .map_err(|p| p.with_hint("solution() was called before moves()"))?;
    for (name, later) in [("a second call", &first), ("a third call", &again)] {
        if later.solution != first_solution || later.moves != first.moves || later.solvable != first.solvable {
            let said = |answers: &Answers, solution: &Option<Vec<Board>>| {
                format!(
                    "moves() = {}, isSolvable() = {}, solution() = {}",
                    answers.moves,
                    answers.solvable,
                    describe_solution(solution)
                )
            };
            let mut changed = Mismatch::new(format!("the Solver's answers changed on {name}"))
                .with("(calls: solution(), then moves(), isSolvable(), solution(), twice over)")
                .with(format!("first:  {}", said(&first, &first_solution)))
                .with(format!("later:  {}", said(later, &later.solution)));
            // boards as many but not the same: the first that differs, both ways
            if let (Some(a), Some(b)) = (&first_solution, &later.solution) {
                if let Some(k) = (0..a.len().min(b.len())).find(|&k| a[k] != b[k]) {
                    changed = changed
                        .with(format!("solution()'s board {k} (0 is the initial board) differs:"))
                        .with_board("first", &a[k])
                        .with_board("later", &b[k]);
                }
            }
            return mismatch(changed.with_board("initial board", &trial.board));
        }
    }
    ask::release(ctx.session, vec![b, s]);
    Ok(vec![])
}

/// Judges one round of answers as the end-to-end solve is judged (moves, solution step by step, isSolvable).
fn judge_answers(trial: &Trial, answers: &Answers) -> Asked<()> {
    match trial.expected {
        Expected::Unsolvable => {
            if answers.moves != -1 || answers.solution.is_some() || answers.solvable {
                return mismatch(
                    Mismatch::new("the board is unsolvable, but the Solver found otherwise")
                        .with(format!("isSolvable(): {} (expected false)", answers.solvable))
                        .with(format!("moves():      {} (expected -1)", answers.moves))
                        .with(format!("solution():   {} (expected null)", describe_solution(&answers.solution)))
                        .with_board("initial board", &trial.board),
                );
            }
        }
        expected => {
            let moves_expected = match expected {
                Expected::Moves(m) => Some(m),
                _ => None,
            };
            if let Some(m) = moves_expected {
                judge::same_value("moves()", i64::from(m), answers.moves)
                    .map_err(|mm| mm.with_board("initial board", &trial.board))?;
            }
            let Some(boards) = &answers.solution else {
                return mismatch(
                    Mismatch::new("solution() returned null for a solvable board")
                        .with(format!("moves(): {}", answers.moves))
                        .with_board("initial board", &trial.board),
                );
            };
            let length = moves_expected.map_or(answers.moves as i32, |m| m as i32);
            judge::solution_is_valid(&trial.board, moves_expected, length, boards)?;
        }
    }
    Ok(())
}

/// How the Solver calls equals, from the reference board's counters.
fn equals_usage(ctx: &mut Ctx<'_>, usage: EqualsUsage, trial: &Trial) -> TrialResult {
    let seen = ctx.life(REF, trial, SolverCheck::EqualsUsage(usage).calls());
    within_search_bound(&seen, trial)?;
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
    let python = ctx.session.handshake().is_ok_and(|h| h.language == "python");
    let (call, expected) = if python {
        ("Solver(None)", "ValueError")
    } else {
        ("new Solver(null)", "java.lang.IllegalArgumentException")
    };
    match ctx.session.call(&Request::SolverNull(REF)) {
        Err(Fault::Exception { kind, .. }) if is_argument_error(&kind) => Ok(vec![]),
        Err(Fault::Exception { kind, message }) => mismatch(
            Mismatch::new(format!("{call} threw {kind}, expected {expected}")).with(format!("message: {message}")),
        ),
        Err(fault) => Err(fault.into()),
        Ok(_) => mismatch(Mismatch::new(format!("{call} did not throw: expected {expected}"))),
    }
}

/// Whether an exception's kind is the language's argument error, which Solver 11 asks for: Java's
/// IllegalArgumentException, Python's ValueError (specs/protocol.md, "Python"), or a subclass of either, which
/// the adapters name `Name(BASE)` (`Solver$InvalidBoard(java.lang.IllegalArgumentException)`,
/// `solver.InvalidBoardError(ValueError)`) and which the official grader's `catch (IllegalArgumentException
/// e)`, or Python's `except ValueError`, catches.
fn is_argument_error(kind: &str) -> bool {
    let base = kind.strip_suffix(')').and_then(|k| k.rsplit_once('(')).map_or(kind, |(_, base)| base);
    base.ends_with("IllegalArgumentException") || base == "ValueError"
}

/// No object's ordering changes after insertion into the MinPQ.
fn no_mutation_after_insert(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let seen = ctx.life(REF, trial, SolverCheck::NoMutationAfterInsert.calls());
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
    let calls = SolverCheck::SameAnswersWhenRerun.calls();
    for trial in trials {
        let first = ctx.life(REF, trial, calls);
        let again = Life::live(&mut fresh, REF, &trial.board, calls, cpu, Asks::default());
        let (first_moves, first_solution) = (first.moves()?, first.solution()?);
        let (again_moves, again_solution) = (again.moves()?, again.solution()?);
        if again_moves != first_moves || again_solution != first_solution {
            return mismatch(
                Mismatch::new(format!("{}: a fresh run gave a different answer", trial.label))
                    .with(format!(
                        "first run:  moves() = {first_moves}, solution() = {}",
                        describe_solution(&first_solution)
                    ))
                    .with(format!(
                        "fresh run:  moves() = {again_moves}, solution() = {}",
                        describe_solution(&again_solution)
                    )),
            );
        }
    }
    fresh.finish();
    Ok(vec![format!("{} puzzles solved again in a fresh process", trials.len())])
}

#[cfg(test)]
mod tests {
    use super::is_argument_error;

    #[test]
    fn the_argument_error_and_its_subclasses_as_the_adapters_name_them() {
        for kind in [
            "java.lang.IllegalArgumentException",
            "Solver$InvalidBoard(java.lang.IllegalArgumentException)",
            "ValueError",
            "solver.InvalidBoardError(ValueError)",
        ] {
            assert!(is_argument_error(kind), "{kind}");
        }
        for kind in ["java.lang.NullPointerException", "AttributeError", "solver.ValueErrors", "panic"] {
            assert!(!is_argument_error(kind), "{kind}");
        }
    }
}
