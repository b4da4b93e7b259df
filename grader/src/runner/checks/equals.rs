//! The `equals()` checks: each property of Java's equals contract (reflexive, symmetric, transitive, with an
//! `Object`, `null`, a foreign or uncastable argument, random pairs, boards of different sizes) as the boards
//! it builds and the questions it asks of them ([`EqualsQuestion`]), each judged against the answer the
//! reference gives. A scripted check asks one property ([`equals`]); official test 10a asks every property
//! the submission's language can express, each as its own batch ([`contract`]).

use npuzzle_harness::protocol::Request;
use reference::{Board, BoardError};

use super::context::{mismatch, Ctx, TrialResult};
use super::script::{At, Judge, Replies, Script};
use crate::catalog::EqualsProperty;
use crate::judge::Mismatch;
use crate::plan::Trial;
use crate::runner::ask::{self, Asked};

/// One `equals()` question: which boards (indexes into the boards built for the trial), asked how, and the
/// answer the reference gives.
struct EqualsQuestion {
    form: EqualsForm,
    a: usize,
    b: usize,
    expected: bool,
    what: &'static str,
}

/// How `equals()` is called.
#[derive(Clone, Copy)]
enum EqualsForm {
    Board,
    AsObject,
    Null,
    Foreign,
    Uncastable,
}

impl EqualsQuestion {
    fn new(a: usize, b: usize, expected: bool, what: &'static str) -> Self {
        EqualsQuestion { form: EqualsForm::Board, a, b, expected, what }
    }

    fn of_one(form: EqualsForm, expected: bool, what: &'static str) -> Self {
        EqualsQuestion { form, a: 0, b: 0, expected, what }
    }

    fn request(&self, built: &[At]) -> Request {
        let (a, b) = (built[self.a].handle(), built[self.b].handle());
        match self.form {
            EqualsForm::Board => Request::Equals(a, b),
            EqualsForm::AsObject => Request::EqualsAsObject(a, b),
            EqualsForm::Null => Request::EqualsNull(a),
            EqualsForm::Foreign => Request::EqualsForeign(a),
            EqualsForm::Uncastable => Request::EqualsUncastable(a),
        }
    }

    /// Whether the question is about two boards (the report then shows both).
    fn has_argument_board(&self) -> bool {
        matches!(self.form, EqualsForm::Board | EqualsForm::AsObject)
    }
}

/// The boards a property's questions are about (the first is the trial's board) and the questions.
fn equals_questions(
    property: EqualsProperty,
    board: &Board,
    other: &Board,
) -> Result<(Vec<Board>, Vec<EqualsQuestion>), BoardError> {
    use EqualsForm as F;
    use EqualsProperty as P;
    type Q = EqualsQuestion;
    Ok(match property {
        P::Reflexive => (vec![board.clone()], vec![Q::new(0, 0, true, "a.equals(a)")]),
        P::Symmetric => (
            // a, b: equal tiles; d: different tiles.
            vec![board.clone(), board.clone(), board.twin()],
            vec![
                Q::new(0, 1, true, "a.equals(b) for equal boards"),
                Q::new(1, 0, true, "b.equals(a) for equal boards"),
                Q::new(0, 2, false, "a.equals(b) for different boards"),
                Q::new(2, 0, false, "b.equals(a) for different boards"),
            ],
        ),
        P::Transitive => (
            vec![board.clone(), board.clone(), board.clone()],
            vec![
                Q::new(0, 1, true, "a.equals(b)"),
                Q::new(1, 2, true, "b.equals(c)"),
                Q::new(0, 2, true, "a.equals(c) after a.equals(b) and b.equals(c)"),
            ],
        ),
        P::AsObject => (
            vec![board.clone(), board.clone(), board.twin()],
            vec![
                Q { form: F::AsObject, ..Q::new(0, 1, true, "a.equals((Object) b) for equal boards") },
                Q { form: F::AsObject, ..Q::new(0, 2, false, "a.equals((Object) b) for different boards") },
            ],
        ),
        P::Null => (vec![board.clone()], vec![Q::of_one(F::Null, false, "a.equals(null)")]),
        P::Foreign => (vec![board.clone()], vec![Q::of_one(F::Foreign, false, "a.equals(a String)")]),
        P::Uncastable => {
            (vec![board.clone()], vec![Q::of_one(F::Uncastable, false, "a.equals(an object of another class)")])
        }
        P::Random => {
            // Half the pairs (by the board's own manhattan parity) compare equal tiles, the rest two random boards.
            let same_tiles = board.manhattan().is_multiple_of(2) || other == board;
            let b = if same_tiles { board.clone() } else { other.clone() };
            let expected = b == *board;
            (vec![board.clone(), b], vec![Q::new(0, 1, expected, "a.equals(b)")])
        }
        P::DifferentSizes => {
            let mut boards = vec![board.clone(), other.clone()];
            let mut questions = vec![
                Q::new(0, 1, board == other, "a.equals(b) for boards of different sizes"),
                Q::new(1, 0, board == other, "b.equals(a) for boards of different sizes"),
            ];
            if let Some(longer) = extended(board) {
                // Same row-major tiles as far as the smaller board goes: catches an equals that compares
                // only the tiles both boards have.
                boards.push(longer);
                let what = "a.equals(b) for boards of different sizes with the same leading tiles";
                questions.extend([Q::new(0, 2, false, what), Q::new(2, 0, false, what)]);
            }
            (boards, questions)
        }
    })
}

/// One property of `equals()`: the boards are built, then the questions asked.
pub(super) fn equals<'a>(property: EqualsProperty, trial: &'a Trial, other: &'a Trial, s: &mut Script) -> Judge<'a> {
    let (boards, questions) = match equals_questions(property, &trial.board, &other.board) {
        Ok(planned) => planned,
        Err(e) => return Box::new(move |_, _| mismatch(Mismatch::new(e.to_string()))),
    };
    let built: Vec<At> = boards.iter().map(|board| s.build(board)).collect();
    let asked: Vec<At> = questions.iter().map(|q| s.push(q.request(&built))).collect();
    Box::new(move |ctx, r| {
        let hs = built.iter().map(|&at| r.handle(at)).collect::<Asked<Vec<_>>>()?;
        for (question, &at) in questions.iter().zip(&asked) {
            let actual = r.boolean(at)?;
            if actual != question.expected {
                let mut m =
                    Mismatch::new(format!("{} returned {actual}, expected {}", question.what, question.expected))
                        .with_board("a", &boards[question.a]);
                if question.has_argument_board() {
                    m = m.with_board("b", &boards[question.b]);
                }
                return mismatch(m);
            }
        }
        ask::release(ctx.session, hs);
        Ok(vec![])
    })
}

/// The (n+1)-by-(n+1) board whose row-major tiles start with `board`'s, followed by n²..(n+1)²−1.
fn extended(board: &Board) -> Option<Board> {
    let n = board.dimension();
    let rest = (n * n) as i64..((n + 1) * (n + 1)) as i64;
    let tiles: Vec<i64> = board.tiles().map(|t| t as i64).chain(rest).collect();
    Board::from_row_major(n + 1, &tiles).ok()
}

/// Official test 10a: every item of Java's equals contract (`partner`: the trial's other board) that the
/// submission's language can express, each asked as its own batch (a Rust Board has no null or foreign
/// arguments; those items are left out).
pub(super) fn contract(ctx: &mut Ctx<'_>, trial: &Trial, partner: &Trial) -> TrialResult {
    for (property, what, needs) in EqualsProperty::CONTRACT {
        if needs.is_some_and(|capability| !ctx.has(capability)) {
            continue;
        }
        let mut s = Script::new();
        let judge = equals(property, trial, partner, &mut s);
        let answers = ctx.session.call_each(s.requests());
        judge(ctx, &Replies::new(&s, &answers)).map_err(|p| p.with_hint(&format!("equals(): {what}")))?;
    }
    Ok(vec![])
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    /// Every question expects the reference's answer: `equals` of the boards it names, and false for an
    /// argument that is not a Board.
    #[rstest]
    #[case::reflexive(EqualsProperty::Reflexive)]
    #[case::symmetric(EqualsProperty::Symmetric)]
    #[case::transitive(EqualsProperty::Transitive)]
    #[case::null(EqualsProperty::Null)]
    #[case::foreign(EqualsProperty::Foreign)]
    #[case::uncastable(EqualsProperty::Uncastable)]
    #[case::as_object(EqualsProperty::AsObject)]
    #[case::random(EqualsProperty::Random)]
    #[case::different_sizes(EqualsProperty::DifferentSizes)]
    fn every_question_expects_the_references_answer(#[case] property: EqualsProperty) {
        let board = Board::new(&[[1, 2, 3], [4, 0, 6], [7, 5, 8]]).unwrap();
        let partners = [Board::new(&[[0, 1], [3, 2]]).unwrap(), board.clone(), board.twin()];
        for other in &partners {
            let (boards, questions) = equals_questions(property, &board, other).unwrap();
            assert_eq!(boards[0], board, "the first board is the trial's");
            for q in &questions {
                let reference = q.has_argument_board() && boards[q.a] == boards[q.b];
                assert_eq!(q.expected, reference, "{}: {:?} and {:?}", q.what, boards[q.a], boards[q.b]);
            }
        }
    }

    #[test]
    fn boards_of_different_sizes_include_one_with_the_same_leading_tiles() {
        let board = Board::new(&[[1, 2], [3, 0]]).unwrap();
        let longer = extended(&board).unwrap();
        assert_eq!(longer.tiles().take(4).collect::<Vec<_>>(), board.tiles().collect::<Vec<_>>());
        assert_eq!(longer.dimension(), 3);
        let (boards, _) = equals_questions(EqualsProperty::DifferentSizes, &board, &Board::goal(4).unwrap()).unwrap();
        assert_eq!(boards.len(), 3);
    }
}
