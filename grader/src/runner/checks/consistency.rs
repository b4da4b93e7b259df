//! Board checks that compare a board with itself: its answers now against its own answers earlier, never
//! against the reference's. Official Board 9 (a second board is built), 11 (the caller changes the array)
//! and 12 (methods called in another order) are immutability tests: a Board whose answers are wrong but
//! consistent passes them officially (OFFICIAL-TESTS.md section 9), and its wrong value is the business of
//! that method's own test. The same holds for this project's check that neighbors() results stay valid.
//!
//! `toString()` is compared as text, byte for byte with its own earlier text, so a format the official tests
//! reject (4a) does not fail these.

use std::collections::HashMap;

use npuzzle_harness::protocol::{unescape, Handle, Request, World};
use reference::Board;

use super::context::{Ctx, TrialResult};
use super::script::{ask_values, At, Judge, Replies, Script, ValuesAt};
use crate::catalog::ValueMethod;
use crate::judge::{self, Mismatch};
use crate::plan::Trial;
use crate::runner::ask::{self, Asked, Failure};

/// The value methods whose answers official Board 9 reads of the first board (with `equals()`).
const TWO_BOARDS_VALUES: [ValueMethod; 3] = [ValueMethod::Hamming, ValueMethod::Manhattan, ValueMethod::IsGoal];

/// The value methods Board 11 compares (with `toString()`).
const ARRAY_VALUES: [ValueMethod; 3] = [ValueMethod::Hamming, ValueMethod::Manhattan, ValueMethod::IsGoal];

/// Compares each later answer with the same method's earlier answer.
fn values_unchanged(
    r: &Replies<'_>,
    summary: &str,
    labels: [&str; 2],
    before: &ValuesAt,
    after: &ValuesAt,
) -> Asked<()> {
    for (&(method, was), &(_, now)) in before.asked.iter().zip(&after.asked) {
        let (was, now) = (r.value(method, was)?, r.value(method, now)?);
        judge::answer_unchanged(&format!("{} {summary}", method.method().call()), labels, &was, &now)?;
    }
    Ok(())
}

/// The later of two answers to the same methods asked in another order, paired by method.
fn in_order_of(first: &ValuesAt, later: &ValuesAt) -> ValuesAt {
    let at = |method| later.asked.iter().find(|(m, _)| *m == method).map(|&(_, at)| at);
    ValuesAt { asked: first.asked.iter().filter_map(|&(method, _)| at(method).map(|at| (method, at))).collect() }
}

/// Official test 9: once a second board exists, the first answers hamming(), manhattan(), isGoal() and
/// equals() (with a board of its own tiles, built before the second) as it did before. Its dimension(),
/// toString(), neighbors() and twin() are not asked once the second board exists (section 9.2: a Board
/// whose dimension and number format are static fields passes officially).
pub fn two_boards<'a>(trial: &'a Trial, other: &'a Trial, s: &mut Script) -> Judge<'a> {
    let a = s.build(&trial.board);
    let same = s.build(&trial.board);
    let before = (ask_values(s, a.handle(), &TWO_BOARDS_VALUES), s.push(Request::Equals(a.handle(), same.handle())));
    let b = s.build(&other.board);
    let after = (ask_values(s, a.handle(), &TWO_BOARDS_VALUES), s.push(Request::Equals(a.handle(), same.handle())));
    Box::new(move |ctx, r| {
        let hs = vec![r.handle(a)?, r.handle(same)?, r.handle(b)?];
        let labels = ["before board b was built", "after"];
        let show = |m: Mismatch| m.with_board("board a", &trial.board).with_board("board b", &other.board);
        values_unchanged(r, "of board a changed once board b was built", labels, &before.0, &after.0)
            .map_err(|p| shown(p, show))?;
        let (was, now) = (r.boolean(before.1)?.to_string(), r.boolean(after.1)?.to_string());
        let summary = "a.equals(c), c a board of a's tiles, changed once board b was built";
        judge::answer_unchanged(summary, labels, &was, &now).map_err(show)?;
        ask::release(ctx.session, hs);
        Ok(vec![])
    })
}

/// Applies `show` to a wrong answer (faults pass unchanged).
fn shown(failure: Failure, show: impl FnOnce(Mismatch) -> Mismatch) -> Failure {
    match failure {
        Failure::Wrong(m) => Failure::Wrong(show(m)),
        fault => fault,
    }
}

/// Official test 11: a board built from an array the caller then changes answers toString(), hamming(),
/// manhattan() and isGoal() exactly as a board built just before from the same tiles, whose array nobody
/// changed.
pub fn immutable_array<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let board = &trial.board;
    let untouched = s.build(board);
    let before = (s.text(untouched.handle()), ask_values(s, untouched.handle(), &ARRAY_VALUES));
    let probe = s.push(Request::BoardProbe { world: World::Own, tiles: ask::tiles_of(board) });
    let after = (s.text(probe.handle()), ask_values(s, probe.handle(), &ARRAY_VALUES));
    Box::new(move |ctx, r| {
        let hs = vec![r.handle(untouched)?, r.handle(probe)?];
        let labels = ["a board whose array nobody changed", "the board whose array the caller changed"];
        let summary = "the board changed when the caller changed the array it was built from";
        judge::text_unchanged(
            &format!("{summary}: its toString() differs"),
            labels,
            &r.text(before.0)?,
            &r.text(after.0)?,
        )
        .map_err(|m| m.with_board("the tiles it was built from", board))?;
        values_unchanged(r, &format!("differs: {summary}"), labels, &before.1, &after.1)
            .map_err(|p| shown(p, |m| m.with_board("the tiles it was built from", board)))?;
        ask::release(ctx.session, hs);
        Ok(vec![])
    })
}

/// Official test 12: toString() after neighbors() and after twin() is what it was, dimension(), hamming(),
/// manhattan() and isGoal() asked again in another order answer as before, and neighbors() asked again gives
/// the same boards (as texts).
pub fn immutable_call_order<'a>(trial: &'a Trial, s: &mut Script) -> Judge<'a> {
    let board = &trial.board;
    let b = s.build(board);
    let text = s.text(b.handle());
    let first = ask_values(
        s,
        b.handle(),
        &[ValueMethod::Dimension, ValueMethod::Hamming, ValueMethod::Manhattan, ValueMethod::IsGoal],
    );
    let neighbors = s.neighbors_of(b.handle(), board);
    let after_neighbors = s.text(b.handle());
    let t = s.push(Request::Twin(b.handle()));
    let after_twin = s.text(b.handle());
    let again = ask_values(
        s,
        b.handle(),
        &[ValueMethod::IsGoal, ValueMethod::Manhattan, ValueMethod::Hamming, ValueMethod::Dimension],
    );
    let neighbors_again = s.neighbors_of(b.handle(), board);
    Box::new(move |ctx, r| {
        let h = r.handle(b)?;
        let text = r.text(text)?;
        let found = r.neighbor_texts(ctx.session, neighbors)?;
        for (after, call) in [(after_neighbors, "neighbors()"), (after_twin, "twin()")] {
            let summary = format!("the board changed after calling {call}: its toString() differs");
            judge::text_unchanged(&summary, ["before", "after"], &text, &r.text(after)?)?;
        }
        let th = r.handle(t)?;
        let labels = ["asked first", "asked again after neighbors() and twin(), in another order"];
        values_unchanged(r, "gave another answer when asked again", labels, &first, &in_order_of(&first, &again))?;
        let again = r.neighbor_texts(ctx.session, neighbors_again)?;
        let (first_texts, again_texts) = (texts_of(&found), texts_of(&again));
        let summary = "neighbors() called a second time gave other boards (compared as their toString() texts)";
        judge::same_texts(summary, ["the first call", "the second call"], &first_texts, &again_texts)?;
        let mut hs: Vec<Handle> = found.into_iter().chain(again).map(|(h, _)| h).collect();
        hs.extend([h, th]);
        ask::release(ctx.session, hs);
        Ok(vec![])
    })
}

fn texts_of(found: &[(Handle, String)]) -> Vec<String> {
    found.iter().map(|(_, text)| text.clone()).collect()
}

/// This project's check that what neighbors() returns stays valid: iterated only after neighbors() was called
/// on another board and on the same board (`neighbors_after`), and in two nested loops (`neighbors_nested`),
/// it yields the boards it yields when iterated at once (the plain `neighbors`, which the adapter copies as it
/// returns). Asked trial by trial: which texts to read depends on how many boards each iteration yielded.
pub fn neighbors_iterable(ctx: &mut Ctx<'_>, trial: &Trial, other: &Trial) -> TrialResult {
    let asked = ask_iterations(ctx, &trial.board, &other.board)?;
    let all: Vec<Handle> = asked.lists.iter().flatten().copied().collect();
    let read = ctx.session.call_all(&ask::text_requests(&all))?;
    let texts: HashMap<Handle, String> =
        all.iter().zip(&read).map(|(&h, answer)| (h, unescape(&answer.values))).collect();
    let text_of = |list: &[Handle]| list.iter().map(|h| texts[h].clone()).collect::<Vec<String>>();
    let [a_once, b_once] = [&asked.lists[0], &asked.lists[1]].map(|list| text_of(list));
    for (k, later) in asked.lists.iter().enumerate().skip(2) {
        let (at_once, what) = match k {
            2 => (&a_once, "of board a, iterated only after neighbors() was called on another board b,".to_string()),
            3 => (&b_once, "of board b, iterated after that (b's result was held meanwhile),".to_string()),
            4 => (&a_once, "of board a, iterated only after neighbors() was called on board a again,".to_string()),
            5 => (&a_once, "of board a called that second time, iterated after the first result,".to_string()),
            6 => (&a_once, "of board a iterated in two nested loops: the outer loop".to_string()),
            _ => (
                &a_once,
                format!("of board a iterated in two nested loops: the inner loop, at step {} of the outer,", k - 6),
            ),
        };
        let summary = format!("neighbors() {what} yielded other boards than when iterated at once");
        judge::same_texts(&summary, ["iterated at once", "this iteration"], at_once, &text_of(later)).map_err(|m| {
            let m = m.with_board("board a", &trial.board);
            if k <= 3 {
                m.with_board("board b", &other.board)
            } else {
                m
            }
        })?;
    }
    ask::release(ctx.session, asked.built.into_iter().chain(all).collect());
    Ok(vec![])
}

/// The boards each iteration of [`neighbors_iterable`] yielded.
struct Iterations {
    /// Boards a and b.
    built: [Handle; 2],
    /// a's and b's neighbors iterated at once; a's then b's iterated after both calls; a's two results iterated
    /// after both calls; a's outer loop, then each inner loop.
    lists: Vec<Vec<Handle>>,
}

/// Builds boards a and b and asks every iteration of [`neighbors_iterable`], in one batch.
fn ask_iterations(ctx: &mut Ctx<'_>, a: &Board, b: &Board) -> Asked<Iterations> {
    let mut s = Script::new();
    let (a, b) = (s.build(a), s.build(b));
    let at_once = [s.push(Request::Neighbors(a.handle())), s.push(Request::Neighbors(b.handle()))];
    let after_other = s.push(Request::NeighborsAfter(a.handle(), b.handle()));
    let after_same = s.push(Request::NeighborsAfter(a.handle(), a.handle()));
    let nested = s.push(Request::NeighborsNested(a.handle()));
    let answers = ctx.session.call_each(s.requests());
    let r = Replies::new(&s, &answers);
    let built = [r.handle(a)?, r.handle(b)?];
    let mut lists = vec![r.handles(at_once[0])?, r.handles(at_once[1])?];
    lists.extend(lists_of(&r, after_other, |_| 2)?);
    lists.extend(lists_of(&r, after_same, |_| 2)?);
    lists.extend(lists_of(&r, nested, |lists| 1 + lists.first().map_or(0, Vec::len))?);
    Ok(Iterations { built, lists })
}

/// The answer at `at` as `COUNT HANDLE…` lists, as many as `expected` says the lists call for.
fn lists_of(r: &Replies<'_>, at: At, expected: impl Fn(&[Vec<Handle>]) -> usize) -> Asked<Vec<Vec<Handle>>> {
    let lists = r.handle_lists(at)?;
    let want = expected(&lists);
    if lists.len() != want {
        let summary =
            format!("`{}` answered {} lists of boards; {want} were expected", r.answer(at)?.0.verb(), lists.len());
        return Err(Failure::Wrong(Mismatch::new(summary)));
    }
    Ok(lists)
}
