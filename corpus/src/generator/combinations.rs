//! Every correct Solver the model can write, on two corpora side by side: the check behind the bundled
//! puzzles' promise for the Solvers no strategy of [`STRATEGIES`] holds.
//!
//! The held strategies are the ways gallery entries and red-team passes were seen to write a Solver; a student
//! can mix them. A combination of the model's choices (how the queues are shared, how ties break, the
//! neighbors' order) that fails a different number of official and bundled puzzles is one the bundled puzzles
//! grade unlike the official ones: a candidate for a strategy of its own (`fixturegen combinations`).

use reference::Board;

use super::strategies::{simulate, Counts, Official, Queues, Ratios, Strategy, TieBreak, STRATEGIES};

/// Every combination of the model's choices for a correct Solver (manhattan priority, the critical
/// optimization, a cached priority): the queues, the tie-break, the neighbors' order.
pub fn correct_combinations() -> Vec<Strategy> {
    let queues = [Queues::Lockstep, Queues::LockstepTwinFirst, Queues::One, Queues::OneTwinFirst];
    let ties = [
        TieBreak::None,
        TieBreak::FewerLeft,
        TieBreak::MoreLeft,
        TieBreak::Hamming,
        TieBreak::HammingPriorityThenHamming,
        TieBreak::Newest,
    ];
    let mut out = Vec::new();
    for queues in queues {
        for tie in ties {
            for reversed_neighbors in [false, true] {
                let order = if reversed_neighbors { "reversed" } else { "in order" };
                let name: &'static str = Box::leak(format!("{queues:?}, {tie:?} ties, {order}").into_boxed_str());
                out.push(Strategy {
                    name,
                    queues,
                    tie,
                    reversed_neighbors,
                    official: Official::Unheld,
                    ..STRATEGIES[0]
                });
            }
        }
    }
    out
}

/// The puzzles (by number) on which `strategy` fails a table, its search stopped at `budget` × the
/// reference's inserts; `puzzles` with the reference strategy's counts on each.
pub fn failing_puzzles(strategy: &Strategy, puzzles: &[(u32, Board, Counts)], budget: f64) -> Vec<u32> {
    let mut failing = Vec::new();
    for (number, board, reference) in puzzles {
        let counts = simulate(board, strategy, |c| c.inserts as f64 > reference.inserts as f64 * budget);
        if Ratios::of(&counts, reference).verdict().fails_any() {
            failing.push(*number);
        }
    }
    failing
}

/// One line a combination: `same` or `DIFF` (failing puzzles counted on each side differ by more than one, the
/// promise's allowance), its name, and the puzzles it fails on each side.
pub fn table(official: &[(u32, Board)], bundled: &[(u32, Board)], budget: f64) -> String {
    // the reference's counts on each puzzle, once for all the combinations
    let with_reference = |puzzles: &[(u32, Board)]| -> Vec<(u32, Board, Counts)> {
        puzzles.iter().map(|(n, b)| (*n, b.clone(), simulate(b, &STRATEGIES[0], |_| false))).collect()
    };
    let (official, bundled) = (with_reference(official), with_reference(bundled));
    let mut text = String::new();
    for strategy in correct_combinations() {
        let (on_official, on_bundled) =
            (failing_puzzles(&strategy, &official, budget), failing_puzzles(&strategy, &bundled, budget));
        let mark = if on_official.len().abs_diff(on_bundled.len()) > 1 { "DIFF" } else { "same" };
        text.push_str(&format!("{mark} {:<58} official {on_official:?} bundled {on_bundled:?}\n", strategy.name));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::strategies::tests::board;

    #[test]
    fn the_combinations_are_distinct_and_hold_the_reference() {
        let all = correct_combinations();
        assert_eq!(all.len(), 48);
        let same_choices = |a: &Strategy, b: &Strategy| a == &Strategy { name: a.name, official: a.official, ..*b };
        assert!(all.iter().any(|s| same_choices(s, &STRATEGIES[0])));
        for (i, s) in all.iter().enumerate() {
            assert!(all[..i].iter().all(|t| !same_choices(t, s) && t.name != s.name), "{}", s.name);
        }
    }

    #[test]
    fn a_corpus_beside_itself_differs_nowhere_and_the_failing_puzzles_are_named() {
        let puzzles = [(4, board(&[8, 1, 3, 4, 0, 2, 7, 6, 5])), (9, board(&[5, 8, 7, 1, 4, 6, 3, 0, 2]))];
        let text = table(&puzzles, &puzzles, 3.0);
        assert_eq!(text.lines().count(), 48);
        assert!(text.lines().all(|line| line.starts_with("same ")), "{text}");
        let reference = text.lines().find(|l| l.contains("Lockstep, None ties, in order")).unwrap();
        assert!(reference.ends_with("official [] bundled []"), "{reference}");
    }
}
