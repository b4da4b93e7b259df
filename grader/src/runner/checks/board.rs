//! Board checks, on the submission's own Board. Each compares with the reference Board on the same tiles.
//!
//! Every check is one function per trial: the requests it writes up front into a [`Script`] and the
//! [`Judge`] of their replies, together (see `script`); `pipeline` sends a test's trials in groups and
//! judges them in order, out of the check's sight. A check whose requests depend on earlier answers (Board 10a,
//! 13 to 17, neighbors-iterable) writes none and asks in its judge. The `equals()` checks are `equals.rs`,
//! those that compare two boards' answers `consistency.rs`.

use npuzzle_harness::protocol::{Handle, Request};
use reference::Board;

use super::context::{mismatch, Ctx, TrialResult, Verdict};
use super::script::{
    ask_values, neighbor_count, value_of, value_request, At, Judge, NeighborsAt, Replies, Script, ValuesAt,
    NEIGHBOR_READS,
};
use super::{consistency, equals, pipeline};
use crate::catalog::{BoardCheck, ValueMethod, Walk};
use crate::judge::{self, Mismatch};
use crate::plan::{PlannedTest, Trial};
use crate::runner::ask::{self, Asked, Failure};
use crate::runner::session::Answer;

/// Runs a Board test: every trial's requests and judge (below), sent and judged by `pipeline`.
pub fn run(ctx: &mut Ctx<'_>, check: BoardCheck, test: &PlannedTest) -> Verdict {
    pipeline::run(ctx, &test.trials, |trial, partner, s| script(check, trial, partner, s))
}

/// Writes the requests of one trial of a Board check and returns its judge. `other` is the trial's partner
/// (for checks about two boards). A check whose requests depend on earlier answers writes none and asks in
/// its judge.
pub fn script<'a>(check: BoardCheck, trial: &'a Trial, other: &'a Trial, s: &mut Script) -> Judge<'a> {
    match check {
        BoardCheck::Value(method) => value(method, trial, s),
        BoardCheck::ToString => to_string(trial, s),
        BoardCheck::Neighbors => neighbors(trial, s),
        BoardCheck::NeighborsOfNeighbors => neighbors_of_neighbors(trial, s),
        BoardCheck::Twin => twin(trial, s),
        BoardCheck::TwoBoards => consistency::two_boards(trial, other, s),
        BoardCheck::Equals(property) => equals::equals(property, trial, other, s),
        BoardCheck::EqualsContract => Box::new(move |ctx, _| equals::contract(ctx, trial, other)),
        BoardCheck::ImmutableArray => consistency::immutable_array(trial, s),
        BoardCheck::ImmutableCallOrder => consistency::immutable_call_order(trial, s),
        BoardCheck::Kth(walk, method) => Box::new(move |ctx, _| kth(ctx, method, walk, trial)),
        BoardCheck::NeighborsLegal => neighbors_legal(trial, s),
        BoardCheck::TwinLegal => twin_legal(trial, s),
        BoardCheck::NeighborValues => neighbor_values(trial, s),
        BoardCheck::NeighborsIterable => Box::new(move |ctx, _| consistency::neighbors_iterable(ctx, trial, other)),
    }
}

/// The reference's answer to a value method, as text.
fn reference_value(method: ValueMethod, board: &Board) -> String {
    match method {
        ValueMethod::Hamming => board.hamming().to_string(),
        ValueMethod::Manhattan => board.manhattan().to_string(),
        ValueMethod::Dimension => board.dimension().to_string(),
        ValueMethod::IsGoal => board.is_goal().to_string(),
    }
}

/// Compares each answer with the reference's answer for `board`.
fn judge_values(r: &Replies<'_>, values: &ValuesAt, board: &Board) -> Asked<()> {
    values.asked.iter().try_for_each(|&(method, at)| judge_value(r, method, at, board))
}

/// Compares the answer to a value method with the reference's.
fn judge_value(r: &Replies<'_>, method: ValueMethod, at: At, board: &Board) -> Asked<()> {
    let (request, answer) = r.answer(at)?;
    judge_answer(method.method().call(), method, (request, answer), board, |m| m.with_board("board", board))
}

/// Compares one answer to a value method with the reference's answer for `board`. A wrong answer is named
/// `what` (the method's call, or which board it was asked of) and `shown` adds the board to its details.
fn judge_answer(
    what: &str,
    method: ValueMethod,
    (request, answer): (&Request, &Answer),
    board: &Board,
    shown: impl FnOnce(Mismatch) -> Mismatch,
) -> Asked<()> {
    let actual = value_of(method, request, answer)?;
    judge::same_value(what, reference_value(method, board), actual).map_err(|m| shown(m).into())
}

/// A numeric or boolean method on one board.
fn value<'a>(method: ValueMethod, trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let values = ask_values(s, b.handle(), &[method]);
    Box::new(move |ctx, r| {
        let h = r.handle(b)?;
        judge_values(r, &values, &trial.board)?;
        ask::release(ctx.session, vec![h]);
        Ok(vec![])
    })
}

/// `toString()` against the reference text.
fn to_string<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let text = s.text(b.handle());
    Box::new(move |ctx, r| {
        let h = r.handle(b)?;
        judge::to_string_matches(&trial.board, &r.text(text)?, ctx.policy.thresholds.strict_to_string)?;
        ask::release(ctx.session, vec![h]);
        Ok(vec![])
    })
}

/// `neighbors()` as a multiset of boards.
fn neighbors<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let found = s.neighbors_of(b.handle(), &trial.board);
    Box::new(move |ctx, r| {
        let h = r.handle(b)?;
        let found = r.neighbors(ctx.session, found)?;
        judge::neighbors_match(&trial.board, &boards_of(&found))?;
        release_all(ctx, h, found);
        Ok(vec![])
    })
}

fn boards_of(found: &[(Handle, Board)]) -> Vec<Board> {
    found.iter().map(|(_, b)| b.clone()).collect()
}

fn release_all(ctx: &mut Ctx<'_>, h: Handle, found: Vec<(Handle, Board)>) {
    let mut hs: Vec<Handle> = found.into_iter().map(|(h, _)| h).collect();
    hs.push(h);
    ask::release(ctx.session, hs);
}

/// `neighbors()` of every neighbor.
fn neighbors_of_neighbors<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let first = s.neighbors_of(b.handle(), &trial.board);
    let count = neighbor_count(&trial.board);
    let second: Vec<NeighborsAt> = (0..count).map(|k| s.neighbors(first.nth(k))).collect();
    Box::new(move |ctx, r| {
        let h = r.handle(b)?;
        let found = r.neighbors(ctx.session, first)?;
        judge::neighbors_match(&trial.board, &boards_of(&found))?;
        let mut made = Vec::new();
        for (k, (nh, nb)) in found.iter().enumerate() {
            let theirs = match second.get(k) {
                Some(&at) => r.neighbors(ctx.session, at)?,
                None => ask::neighbors(ctx.session, *nh)?,
            };
            judge::neighbors_match(nb, &boards_of(&theirs))
                .map_err(|m| m.with_board("the neighbor came from", &trial.board))?;
            made.extend(theirs.into_iter().map(|(h, _)| h));
        }
        ask::release(ctx.session, made);
        release_all(ctx, h, found);
        Ok(vec![])
    })
}

/// `twin()` is a legal twin and the original is unchanged.
fn twin<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let t = s.push(Request::Twin(b.handle()));
    let twin_text = s.text(t.handle());
    let after = s.text(b.handle());
    Box::new(move |ctx, r| {
        let (h, th) = (r.handle(b)?, r.handle(t)?);
        judge::twin_is_legal(&trial.board, &r.board(twin_text)?)?;
        unchanged(&r.board(after)?, &trial.board, "twin()")?;
        ask::release(ctx.session, vec![h, th]);
        Ok(vec![])
    })
}

/// Checks that a board read back as `now` is still `board` after `after` was called on it.
fn unchanged(now: &Board, board: &Board, after: &str) -> Asked<()> {
    if now != board {
        return mismatch(
            Mismatch::new(format!("the board changed after calling {after}"))
                .with_board("before", board)
                .with_board("after", now),
        );
    }
    Ok(())
}

/// Neighbors: the count the blank's position gives, no duplicates, each exactly one slide away.
fn neighbors_legal<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let found = s.neighbors_of(b.handle(), &trial.board);
    Box::new(move |ctx, r| {
        let board = &trial.board;
        let h = r.handle(b)?;
        let found = r.neighbors(ctx.session, found)?;
        let expected = neighbor_count(board);
        let (row, col) = board.blank();
        if found.len() != expected {
            return mismatch(
                Mismatch::new(format!(
                    "neighbors() returned {} boards; with the blank at row {row}, column {col} there are {expected}",
                    found.len()
                ))
                .with_board("board", board),
            );
        }
        for (i, (_, b)) in found.iter().enumerate() {
            if found[..i].iter().any(|(_, earlier)| earlier == b) {
                return mismatch(
                    Mismatch::new(format!("neighbors() returned the same board twice (board {})", i + 1))
                        .with_board("duplicate", b),
                );
            }
            if !judge::one_slide_apart(board, b) {
                return mismatch(
                    Mismatch::new(format!("board {} of neighbors() is not one slide away", i + 1))
                        .with_board("board", board)
                        .with_board("returned", b),
                );
            }
        }
        release_all(ctx, h, found);
        Ok(vec![])
    })
}

/// The twin is legal and the same on every call.
fn twin_legal<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let calls: Vec<(At, At)> = (0..3)
        .map(|_| {
            let t = s.push(Request::Twin(b.handle()));
            (t, s.text(t.handle()))
        })
        .collect();
    Box::new(move |ctx, r| {
        let mut handles = vec![r.handle(b)?];
        let mut twins = Vec::new();
        for &(t, text) in &calls {
            handles.push(r.handle(t)?);
            twins.push(r.board(text)?);
        }
        judge::twin_is_legal(&trial.board, &twins[0])?;
        if let Some(i) = twins.iter().position(|t| *t != twins[0]) {
            return mismatch(
                Mismatch::new(format!("twin() returned a different board on call {}", i + 1))
                    .with_board("first twin", &twins[0])
                    .with_board("later twin", &twins[i]),
            );
        }
        ask::release(ctx.session, handles);
        Ok(vec![])
    })
}

/// The value methods [`neighbor_values`] asks of every board.
const NEIGHBOR_VALUES: [ValueMethod; 3] = [ValueMethod::Hamming, ValueMethod::Manhattan, ValueMethod::IsGoal];

/// What [`neighbor_values`] asks about one neighbor: its values, its own neighbors, and the values of each of
/// those it may return (the board it came from is one of them, at a place only the submission knows).
struct NeighborStep {
    values: ValuesAt,
    second: NeighborsAt,
    back: Vec<ValuesAt>,
}

/// Each neighbor, and the board reached back from it, answers the value methods for its own tiles.
fn neighbor_values<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let b = s.build(&trial.board);
    let first = s.neighbors_of(b.handle(), &trial.board);
    let steps: Vec<NeighborStep> = (0..neighbor_count(&trial.board))
        .map(|k| {
            let values = ask_values(s, first.nth(k), &NEIGHBOR_VALUES);
            let second = s.neighbors(first.nth(k));
            let back = (0..NEIGHBOR_READS).map(|j| ask_values(s, second.nth(j), &NEIGHBOR_VALUES)).collect();
            NeighborStep { values, second, back }
        })
        .collect();
    Box::new(move |ctx, r| {
        let board = &trial.board;
        let h = r.handle(b)?;
        let found = r.neighbors(ctx.session, first)?;
        let mut made = Vec::new();
        for ((_, neighbor), step) in found.iter().zip(&steps) {
            judge_values(r, &step.values, neighbor).map_err(|p| match p {
                Failure::Wrong(m) => Failure::Wrong(m.with_board("the neighbor came from", board)),
                fault => fault,
            })?;
            let theirs = r.neighbors(ctx.session, step.second)?;
            made.extend(theirs.iter().map(|(h, _)| *h));
            let Some(j) = theirs.iter().position(|(_, back)| back == board) else {
                return mismatch(
                    Mismatch::new("neighbors() of a neighbor does not include the board it came from")
                        .with_board("board", board)
                        .with_board("neighbor", neighbor),
                );
            };
            let back = match step.back.get(j) {
                Some(values) => judge_values(r, values, board),
                None => judge_values_directly(ctx, theirs[j].0, board),
            };
            back.map_err(|p| p.with_hint("the board reached back through neighbors() of its neighbor"))?;
        }
        ask::release(ctx.session, made);
        release_all(ctx, h, found);
        Ok(vec![])
    })
}

/// Asks board `h` the value methods of [`neighbor_values`] one by one and compares with the reference's
/// answers for `board` (for a board beyond a script's speculative reads).
fn judge_values_directly(ctx: &mut Ctx<'_>, h: Handle, board: &Board) -> Asked<()> {
    for method in NEIGHBOR_VALUES {
        let request = value_request(method, h);
        let answer = ctx.session.call(&request)?;
        judge_answer(method.method().call(), method, (&request, &answer), board, |m| m.with_board("board", board))?;
    }
    Ok(())
}

/// Official tests 13 to 17: a value method of the board reached from the trial's board by `trial.steps`
/// random neighbor steps or twin() calls, judged against the reference on the tiles that board shows through
/// toString(). The steps are drawn from the trial's label, so every run takes the same walk; a board with
/// fewer neighbors than expected simply offers fewer choices.
fn kth(ctx: &mut Ctx<'_>, method: ValueMethod, walk: Walk, trial: &Trial) -> TrialResult {
    let mut rng = corpus::rng::Rng::new(corpus::rng::StableHash::of(&trial.label));
    let mut h = ask::build(ctx.session, npuzzle_harness::protocol::World::Own, &trial.board)?;
    let mut board = trial.board.clone();
    let mut made = vec![h];
    for step in 1..=trial.steps {
        match walk {
            Walk::Twin => {
                let request = Request::Twin(h);
                let answer = ctx.session.call(&request)?;
                h = ask::handle_of(&request, &answer)?;
                made.push(h);
                board = ask::read_board(ctx.session, h)?;
            }
            Walk::Neighbor => {
                let found = ask::neighbors(ctx.session, h)?;
                made.extend(found.iter().map(|(nh, _)| *nh));
                if found.is_empty() {
                    return mismatch(
                        Mismatch::new(format!("neighbors() returned no boards (step {step} of {})", trial.steps))
                            .with_board("board", &board),
                    );
                }
                (h, board) = found[rng.below(found.len() as u64) as usize].clone();
            }
        }
    }
    let request = value_request(method, h);
    let answer = ctx.session.call(&request)?;
    let what = format!("{} of the {}", method.method().call(), trial.label);
    judge_answer(&what, method, (&request, &answer), &board, |m| {
        m.with_board("board (as its toString() shows it)", &board)
            .with("(the board's tiles are read back through toString(), as the official test does)")
    })?;
    ask::release(ctx.session, made);
    Ok(vec![])
}
