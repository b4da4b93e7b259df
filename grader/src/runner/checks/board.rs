//! Board checks, on the submission's own Board. Each compares with the reference Board on the same tiles.

use reference::protocol::{Handle, Request, Tiles, World};
use reference::Board;

use super::{mismatch, Ctx, TrialResult};
use crate::catalog::{EqualsProperty, Method};
use crate::judge::{self, Mismatch};
use crate::plan::Trial;
use crate::runner::ask::{self, Asked};

const OWN: World = World::Own;

fn value_request(method: Method, h: Handle) -> Request {
    match method {
        Method::Hamming => Request::Hamming(h),
        Method::Manhattan => Request::Manhattan(h),
        Method::Dimension => Request::Dimension(h),
        Method::IsGoal => Request::IsGoal(h),
    }
}

fn method_name(method: Method) -> &'static str {
    match method {
        Method::Hamming => "hamming()",
        Method::Manhattan => "manhattan()",
        Method::Dimension => "dimension()",
        Method::IsGoal => "isGoal()",
    }
}

/// The reference's answer, as text.
fn reference_value(method: Method, board: &Board) -> String {
    match method {
        Method::Hamming => board.hamming().to_string(),
        Method::Manhattan => board.manhattan().to_string(),
        Method::Dimension => board.dimension().to_string(),
        Method::IsGoal => board.is_goal().to_string(),
    }
}

/// Asks one method and compares it with the reference.
fn ask_value(ctx: &mut Ctx<'_>, method: Method, h: Handle, board: &Board) -> Asked<()> {
    let request = value_request(method, h);
    let actual = match method {
        Method::IsGoal => ask::boolean(ctx.session, &request)?.to_string(),
        _ => ask::int(ctx.session, &request)?.to_string(),
    };
    judge::same_value(method_name(method), reference_value(method, board), actual)
        .map_err(|m| m.with_board("board", board).into())
}

/// A numeric or boolean method on one board.
pub fn value(ctx: &mut Ctx<'_>, method: Method, trial: &Trial) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    ask_value(ctx, method, h, &trial.board)?;
    ask::release(ctx.session, vec![h]);
    Ok(vec![])
}

/// `toString()` against the reference text.
pub fn to_string(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    let text = ask::text(ctx.session, h)?;
    judge::to_string_matches(&trial.board, &text, ctx.policy.thresholds.strict_to_string)?;
    ask::release(ctx.session, vec![h]);
    Ok(vec![])
}

/// `neighbors()` as a multiset of boards.
pub fn neighbors(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    let found = ask::neighbors(ctx.session, h)?;
    let boards: Vec<Board> = found.iter().map(|(_, b)| b.clone()).collect();
    judge::neighbors_match(&trial.board, &boards)?;
    release_all(ctx, h, found);
    Ok(vec![])
}

/// `neighbors()` of every neighbor.
pub fn neighbors_of_neighbors(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    let found = ask::neighbors(ctx.session, h)?;
    let boards: Vec<Board> = found.iter().map(|(_, b)| b.clone()).collect();
    judge::neighbors_match(&trial.board, &boards)?;
    for (nh, nb) in &found {
        let second = ask::neighbors(ctx.session, *nh)?;
        let second_boards: Vec<Board> = second.iter().map(|(_, b)| b.clone()).collect();
        judge::neighbors_match(nb, &second_boards).map_err(|m| m.with_board("the neighbor came from", &trial.board))?;
        ask::release(ctx.session, second.into_iter().map(|(h, _)| h).collect());
    }
    release_all(ctx, h, found);
    Ok(vec![])
}

fn release_all(ctx: &mut Ctx<'_>, h: Handle, found: Vec<(Handle, Board)>) {
    let mut hs: Vec<Handle> = found.into_iter().map(|(h, _)| h).collect();
    hs.push(h);
    ask::release(ctx.session, hs);
}

/// `twin()` is a legal twin and the original is unchanged.
pub fn twin(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    let t = ask::handle(ctx.session, &Request::Twin(h))?;
    let twin = ask::read_board(ctx.session, t)?;
    judge::twin_is_legal(&trial.board, &twin)?;
    unchanged(ctx, h, &trial.board, "twin()")?;
    ask::release(ctx.session, vec![h, t]);
    Ok(vec![])
}

/// Checks that a board still reads as `board` after `after` was called on it.
fn unchanged(ctx: &mut Ctx<'_>, h: Handle, board: &Board, after: &str) -> Asked<()> {
    let now = ask::read_board(ctx.session, h)?;
    if &now != board {
        return mismatch(
            Mismatch::new(format!("the board changed after calling {after}"))
                .with_board("before", board)
                .with_board("after", &now),
        );
    }
    Ok(())
}

/// Two boards alive at once keep their own answers.
pub fn two_boards(ctx: &mut Ctx<'_>, trial: &Trial, other: &Trial) -> TrialResult {
    let a = ask::build(ctx.session, OWN, &trial.board)?;
    let b = ask::build(ctx.session, OWN, &other.board)?;
    for method in [Method::Hamming, Method::Manhattan, Method::Dimension] {
        ask_value(ctx, method, a, &trial.board)?;
        ask_value(ctx, method, b, &other.board)?;
    }
    for (h, board) in [(a, &trial.board), (b, &other.board)] {
        let text = ask::text(ctx.session, h)?;
        judge::to_string_matches(board, &text, false)?;
    }
    ask::release(ctx.session, vec![a, b]);
    Ok(vec![])
}

fn ask_equals(
    ctx: &mut Ctx<'_>,
    request: Request,
    expected: bool,
    what: &str,
    a: &Board,
    b: Option<&Board>,
) -> Asked<()> {
    let actual = ask::boolean(ctx.session, &request)?;
    if actual == expected {
        return Ok(());
    }
    let mut m = Mismatch::new(format!("{what} returned {actual}, expected {expected}")).with_board("a", a);
    if let Some(b) = b {
        m = m.with_board("b", b);
    }
    mismatch(m)
}

/// One property of `equals()`.
pub fn equals(ctx: &mut Ctx<'_>, property: EqualsProperty, trial: &Trial, other: &Trial) -> TrialResult {
    use EqualsProperty as P;
    let board = &trial.board;
    let a = ask::build(ctx.session, OWN, board)?;
    let mut made = vec![a];
    match property {
        P::Reflexive => ask_equals(ctx, Request::Equals(a, a), true, "a.equals(a)", board, None)?,
        P::Symmetric | P::Transitive | P::AsObject => {
            let b = ask::build(ctx.session, OWN, board)?;
            let c = ask::build(ctx.session, OWN, board)?;
            made.extend([b, c]);
            let (same, different) = (board, &board.twin());
            let d = ask::build(ctx.session, OWN, different)?;
            made.push(d);
            match property {
                P::Symmetric => {
                    ask_equals(ctx, Request::Equals(a, b), true, "a.equals(b) for equal boards", same, Some(same))?;
                    ask_equals(ctx, Request::Equals(b, a), true, "b.equals(a) for equal boards", same, Some(same))?;
                    ask_equals(
                        ctx,
                        Request::Equals(a, d),
                        false,
                        "a.equals(b) for different boards",
                        same,
                        Some(different),
                    )?;
                    ask_equals(
                        ctx,
                        Request::Equals(d, a),
                        false,
                        "b.equals(a) for different boards",
                        different,
                        Some(same),
                    )?;
                }
                P::Transitive => {
                    ask_equals(ctx, Request::Equals(a, b), true, "a.equals(b)", same, Some(same))?;
                    ask_equals(ctx, Request::Equals(b, c), true, "b.equals(c)", same, Some(same))?;
                    ask_equals(
                        ctx,
                        Request::Equals(a, c),
                        true,
                        "a.equals(c) after a.equals(b) and b.equals(c)",
                        same,
                        Some(same),
                    )?;
                }
                _ => {
                    ask_equals(
                        ctx,
                        Request::EqualsAsObject(a, b),
                        true,
                        "a.equals((Object) b) for equal boards",
                        same,
                        Some(same),
                    )?;
                    ask_equals(
                        ctx,
                        Request::EqualsAsObject(a, d),
                        false,
                        "a.equals((Object) b) for different boards",
                        same,
                        Some(different),
                    )?;
                }
            }
        }
        P::Null => ask_equals(ctx, Request::EqualsNull(a), false, "a.equals(null)", board, None)?,
        P::Foreign => ask_equals(ctx, Request::EqualsForeign(a), false, "a.equals(a String)", board, None)?,
        P::Uncastable => {
            ask_equals(ctx, Request::EqualsUncastable(a), false, "a.equals(an object of another class)", board, None)?
        }
        P::Random => {
            // Half the pairs (by the board's own manhattan parity) compare equal tiles, the rest two random boards.
            let same_tiles = board.manhattan().is_multiple_of(2) || other.board == *board;
            let b_board = if same_tiles { board.clone() } else { other.board.clone() };
            let b = ask::build(ctx.session, OWN, &b_board)?;
            made.push(b);
            let expected = b_board == *board;
            ask_equals(ctx, Request::Equals(a, b), expected, "a.equals(b)", board, Some(&b_board))?;
        }
        P::DifferentSizes => {
            let n = board.dimension();
            let other_n = if n == 2 { 3 } else { n - 1 };
            let goal_a = Board::goal(n).map_err(|e| Mismatch::new(e.to_string()))?;
            let goal_b = Board::goal(other_n).map_err(|e| Mismatch::new(e.to_string()))?;
            let (ga, gb) = (ask::build(ctx.session, OWN, &goal_a)?, ask::build(ctx.session, OWN, &goal_b)?);
            made.extend([ga, gb]);
            ask_equals(
                ctx,
                Request::Equals(ga, gb),
                false,
                "a.equals(b) for boards of different sizes",
                &goal_a,
                Some(&goal_b),
            )?;
            ask_equals(
                ctx,
                Request::Equals(gb, ga),
                false,
                "b.equals(a) for boards of different sizes",
                &goal_b,
                Some(&goal_a),
            )?;
            if let Some(longer) = extended(board) {
                // Same row-major tiles as far as the smaller board goes: catches an equals that compares
                // only the tiles both boards have.
                let lb = ask::build(ctx.session, OWN, &longer)?;
                made.push(lb);
                let what = "a.equals(b) for boards of different sizes with the same leading tiles";
                ask_equals(ctx, Request::Equals(a, lb), false, what, board, Some(&longer))?;
                ask_equals(ctx, Request::Equals(lb, a), false, what, &longer, Some(board))?;
            }
        }
    }
    ask::release(ctx.session, made);
    Ok(vec![])
}

/// The (n+1)-by-(n+1) board whose row-major tiles start with `board`'s, followed by n²..(n+1)²−1.
fn extended(board: &Board) -> Option<Board> {
    let n = board.dimension();
    let rest = (n * n) as i64..((n + 1) * (n + 1)) as i64;
    let tiles: Vec<i64> = board.tiles().map(|t| t as i64).chain(rest).collect();
    Board::from_row_major(n + 1, &tiles).ok()
}

/// Changing the caller's array after construction must not change the board.
pub fn immutable_array(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let board = &trial.board;
    let tiles = Tiles { n: board.dimension(), tiles: board.tiles().map(|t| t as u32).collect() };
    let h = ask::handle(ctx.session, &Request::BoardProbe { world: OWN, tiles })?;
    for method in [Method::Hamming, Method::Manhattan, Method::IsGoal] {
        ask_value(ctx, method, h, board)
            .map_err(|p| p.with_hint("the board was built from an array that the caller then changed"))?;
    }
    unchanged(ctx, h, board, "the caller changed the array it was built from")?;
    ask::release(ctx.session, vec![h]);
    Ok(vec![])
}

/// Calling methods in different orders gives the same answers and leaves the board unchanged.
pub fn immutable_call_order(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let board = &trial.board;
    let h = ask::build(ctx.session, OWN, board)?;
    let found = ask::neighbors(ctx.session, h)?;
    unchanged(ctx, h, board, "neighbors()")?;
    let t = ask::handle(ctx.session, &Request::Twin(h))?;
    unchanged(ctx, h, board, "twin()")?;
    for method in
        [Method::Manhattan, Method::Hamming, Method::IsGoal, Method::Dimension, Method::Hamming, Method::Manhattan]
    {
        ask_value(ctx, method, h, board)?;
    }
    let again = ask::neighbors(ctx.session, h)?;
    let boards: Vec<Board> = again.iter().map(|(_, b)| b.clone()).collect();
    judge::neighbors_match(board, &boards).map_err(|m| m.with("(neighbors() called a second time)"))?;
    let mut hs: Vec<Handle> = found.into_iter().chain(again).map(|(h, _)| h).collect();
    hs.extend([h, t]);
    ask::release(ctx.session, hs);
    Ok(vec![])
}

/// dimension, hamming, manhattan of the k-th neighbor and of the twin.
pub fn kth_neighbor_and_twin(ctx: &mut Ctx<'_>, trial: &Trial, k: usize) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    let found = ask::neighbors(ctx.session, h)?;
    let t = ask::handle(ctx.session, &Request::Twin(h))?;
    let twin = ask::read_board(ctx.session, t)?;
    let mut targets = vec![(t, twin, "the twin")];
    if let Some((nh, nb)) = found.get(k % found.len().max(1)) {
        targets.push((*nh, nb.clone(), "a neighbor"));
    }
    for (handle, board, which) in &targets {
        for method in [Method::Dimension, Method::Hamming, Method::Manhattan] {
            ask_value(ctx, method, *handle, board)
                .map_err(|p| p.with_hint(&format!("asked of {which} of the board")))?;
        }
    }
    release_all(ctx, h, found);
    ask::release(ctx.session, vec![t]);
    Ok(vec![])
}

/// Neighbors: the count the blank's position gives, no duplicates, each exactly one slide away.
pub fn neighbors_legal(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let board = &trial.board;
    let h = ask::build(ctx.session, OWN, board)?;
    let found = ask::neighbors(ctx.session, h)?;
    let expected = board.neighbors().len();
    let (r, c) = board.blank();
    if found.len() != expected {
        return mismatch(
            Mismatch::new(format!(
                "neighbors() returned {} boards; with the blank at row {r}, column {c} there are {expected}",
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
}

/// The twin is legal and the same on every call.
pub fn twin_legal(ctx: &mut Ctx<'_>, trial: &Trial) -> TrialResult {
    let h = ask::build(ctx.session, OWN, &trial.board)?;
    let mut twins = Vec::new();
    let mut handles = vec![h];
    for _ in 0..3 {
        let t = ask::handle(ctx.session, &Request::Twin(h))?;
        handles.push(t);
        twins.push(ask::read_board(ctx.session, t)?);
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
}
