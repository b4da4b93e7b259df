//! Two submissions' shared fingerprints grown into fragments, and the pair's score.
//!
//! A submission's *own* fingerprints are those a comparison counts: not the base's (the starter code), not
//! common to much of the class, and no hash more than [`super::Method::max_repeats`] times. Numbered in
//! order (file by file, position by position), two submissions' own fingerprints with the same hash are a
//! match; a match whose fingerprints both follow those of an earlier match, in the same files, extends that
//! match's fragment (as Dolos grows its fragments), so a copied stretch of code is one fragment and an
//! inserted statement splits it in two. Fragments of fewer than [`super::Method::min_fragment`]
//! fingerprints are coincidences of a few tokens, and are dropped.
//!
//! The score is the share of the smaller submission's own fingerprints that lie in fragments: each
//! fragment pairs fingerprints one to one, so both sides cover as many, and the smaller side's share is
//! the larger of the two shares, which is what is computed (so the score is the same either way round).

use std::collections::HashMap;

use super::winnow::Print;

/// The fingerprints of a submission a comparison counts, numbered, and its hashes sorted for matching.
#[derive(Debug)]
pub struct Own<'a> {
    /// The fingerprints, in order.
    pub prints: Vec<&'a Print>,
    /// `(hash, number)` for each, sorted.
    pub by_hash: Vec<(u64, u32)>,
}

impl<'a> Own<'a> {
    /// The fingerprints of `all` that `counts` accepts, no hash more than `max_repeats` times.
    pub fn new(all: &'a [Print], counts: impl Fn(u64) -> bool, max_repeats: usize) -> Own<'a> {
        let mut seen: HashMap<u64, usize> = HashMap::new();
        let prints: Vec<&Print> = all
            .iter()
            .filter(|p| counts(p.hash))
            .filter(|p| {
                let times = seen.entry(p.hash).or_insert(0);
                *times += 1;
                *times <= max_repeats
            })
            .collect();
        let mut by_hash: Vec<(u64, u32)> = prints.iter().enumerate().map(|(i, p)| (p.hash, i as u32)).collect();
        by_hash.sort_unstable();
        Own { prints, by_hash }
    }

    /// Each hash once, with how many times it is among these fingerprints.
    pub fn distinct(&self) -> impl Iterator<Item = (u64, u16)> + '_ {
        self.by_hash.chunk_by(|a, b| a.0 == b.0).map(|run| (run[0].0, run.len() as u16))
    }
}

/// Where a fragment is in one submission: its file, its first and last line, its fingerprints' numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// The file's index in its submission.
    pub file: u16,
    #[allow(missing_docs)]
    pub first_line: u32,
    #[allow(missing_docs)]
    pub last_line: u32,
}

/// One stretch of code two submissions share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fragment {
    /// Where it is in the first submission.
    pub a: Span,
    /// Where it is in the second.
    pub b: Span,
    /// How many fingerprints it holds.
    pub prints: u32,
}

/// What two submissions share: their fragments, and how many of each one's own fingerprints they cover.
#[derive(Debug, Clone, PartialEq)]
pub struct Shared {
    /// In order of position in the first submission.
    pub fragments: Vec<Fragment>,
    /// The first submission's own fingerprints in a fragment, and how many it has.
    pub a: (u32, u32),
    /// The second's.
    pub b: (u32, u32),
}

impl Shared {
    /// The share of the smaller submission covered (0 to 1): the larger of the two shares.
    pub fn score(&self) -> f64 {
        let share = |(covered, own): (u32, u32)| if own == 0 { 0.0 } else { f64::from(covered) / f64::from(own) };
        share(self.a).max(share(self.b))
    }
}

/// The fragments `a` and `b` share, of at least `min_fragment` fingerprints each.
pub fn shared(a: &Own<'_>, b: &Own<'_>, min_fragment: usize) -> Shared {
    let mut matches: Vec<(u32, u32)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.by_hash.len() && j < b.by_hash.len() {
        let (ha, hb) = (a.by_hash[i].0, b.by_hash[j].0);
        if ha < hb {
            i += 1;
        } else if hb < ha {
            j += 1;
        } else {
            let end_a = i + a.by_hash[i..].iter().take_while(|(h, _)| *h == ha).count();
            let end_b = j + b.by_hash[j..].iter().take_while(|(h, _)| *h == hb).count();
            for &(_, x) in &a.by_hash[i..end_a] {
                matches.extend(b.by_hash[j..end_b].iter().map(|&(_, y)| (x, y)));
            }
            (i, j) = (end_a, end_b);
        }
    }
    matches.sort_unstable();
    // fragments as (first match, length); `open` finds a fragment by its last match
    let mut fragments: Vec<((u32, u32), u32)> = Vec::new();
    let mut open: HashMap<(u32, u32), usize> = HashMap::new();
    for &(x, y) in &matches {
        let follows = x > 0
            && y > 0
            && a.prints[x as usize].file == a.prints[x as usize - 1].file
            && b.prints[y as usize].file == b.prints[y as usize - 1].file;
        match follows.then(|| open.remove(&(x - 1, y - 1))).flatten() {
            Some(index) => {
                fragments[index].1 += 1;
                open.insert((x, y), index);
            }
            None => {
                open.insert((x, y), fragments.len());
                fragments.push(((x, y), 1));
            }
        }
    }
    fragments.retain(|(_, length)| *length as usize >= min_fragment.max(1));
    let mut covered_a = vec![false; a.prints.len()];
    let mut covered_b = vec![false; b.prints.len()];
    let span = |own: &Own<'_>, first: u32, length: u32| {
        let (start, end) = (own.prints[first as usize], own.prints[(first + length - 1) as usize]);
        Span { file: start.file, first_line: start.first_line, last_line: end.last_line }
    };
    let fragments: Vec<Fragment> = fragments
        .iter()
        .map(|&((x, y), length)| {
            covered_a[x as usize..(x + length) as usize].fill(true);
            covered_b[y as usize..(y + length) as usize].fill(true);
            Fragment { a: span(a, x, length), b: span(b, y, length), prints: length }
        })
        .collect();
    let count = |covered: &[bool]| covered.iter().filter(|c| **c).count() as u32;
    Shared { fragments, a: (count(&covered_a), a.prints.len() as u32), b: (count(&covered_b), b.prints.len() as u32) }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::similarity::tokens::{tokens, Language};
    use crate::similarity::winnow::winnow;

    /// Fingerprints of one file with these hashes, one per line.
    fn prints(hashes: &[u64]) -> Vec<Print> {
        hashes
            .iter()
            .enumerate()
            .map(|(i, &hash)| Print {
                hash,
                file: 0,
                at: i as u32 * 3,
                first_line: i as u32 + 1,
                last_line: i as u32 + 2,
            })
            .collect()
    }

    fn own(all: &[Print]) -> Own<'_> {
        Own::new(all, |_| true, 4)
    }

    #[test]
    fn a_copied_stretch_is_one_fragment_and_an_insertion_splits_it() {
        let a = prints(&[1, 2, 3, 4, 5, 6, 7, 8]);
        let b = prints(&[9, 1, 2, 3, 40, 41, 4, 5, 6, 7, 8]);
        let found = shared(&own(&a), &own(&b), 2);
        let spans: Vec<(u32, u32, u32, u32)> =
            found.fragments.iter().map(|f| (f.a.first_line, f.a.last_line, f.b.first_line, f.b.last_line)).collect();
        assert_eq!(spans, [(1, 4, 2, 5), (4, 9, 7, 12)]);
        assert_eq!((found.a, found.b), ((8, 8), (8, 11)));
        assert_eq!(found.score(), 1.0, "the smaller is covered whole");
    }

    #[test]
    fn short_fragments_are_coincidences_and_files_bound_fragments() {
        let a = prints(&[1, 2, 50, 3, 60, 4, 5, 6]);
        let b = prints(&[3, 70, 1, 2, 80, 4, 5, 6]);
        let found = shared(&own(&a), &own(&b), 3);
        assert_eq!(found.fragments.len(), 1, "{found:?}");
        assert_eq!(found.a, (3, 8));
        let mut split = b.clone();
        split[6].file = 1;
        split[7].file = 1;
        assert!(shared(&own(&a), &own(&split), 3).fragments.is_empty(), "a fragment stays in one file");
    }

    #[test]
    fn repeats_are_capped_and_excluded_hashes_do_not_count() {
        let a = prints(&[7; 40]);
        let kept = Own::new(&a, |_| true, 4);
        assert_eq!(kept.prints.len(), 4);
        assert_eq!(kept.distinct().collect::<Vec<_>>(), [(7, 4)]);
        let base = prints(&[1, 2, 3, 4, 5, 6]);
        let without_base = Own::new(&base, |h| h > 2, 4);
        assert_eq!(without_base.prints.len(), 4);
        let found = shared(&without_base, &without_base, 2);
        assert_eq!(found.a, (4, 4));
        assert_eq!(found.fragments[0].a.first_line, 3, "numbered after the exclusion: one fragment");
    }

    /// Java-like source from a few words: keywords, punctuation, and identifiers from `names`.
    fn source(words: &[(u8, u8)], names: &[String]) -> String {
        const FIXED: [&str; 12] = ["int", "for", "(", ")", "{", "}", ";", "=", "+", "<", "return", "if"];
        words
            .iter()
            .map(|&(kind, pick)| match kind % 3 {
                0 => names[usize::from(pick) % names.len()].clone(),
                _ => FIXED[usize::from(pick) % FIXED.len()].to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn own_of(prints: &[Print]) -> Own<'_> {
        Own::new(prints, |_| true, 4)
    }

    proptest! {
        /// The score is the same either way round.
        #[test]
        fn the_score_is_symmetric(a in proptest::collection::vec(0u64..24, 0..300), b in proptest::collection::vec(0u64..24, 0..300)) {
            let (pa, pb) = (prints(&a), prints(&b));
            let (x, y) = (shared(&own_of(&pa), &own_of(&pb), 3), shared(&own_of(&pb), &own_of(&pa), 3));
            prop_assert_eq!(x.score(), y.score());
            prop_assert_eq!((x.a, x.b), (y.b, y.a));
            prop_assert!((0.0..=1.0).contains(&x.score()));
        }

        /// A file compared with itself scores 1 (when it has a fragment's worth of fingerprints).
        #[test]
        fn a_file_against_itself_scores_one(words in proptest::collection::vec((0u8..3, 0u8..255), 40..400)) {
            let names: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
            let stream = tokens(Language::Java, &source(&words, &names));
            let all = winnow(&stream, 12, 8, 0);
            let own = own_of(&all);
            prop_assume!(own.prints.len() >= 3);
            prop_assert_eq!(shared(&own, &own, 3).score(), 1.0);
        }

        /// Renaming identifiers changes no fingerprint.
        #[test]
        fn renaming_identifiers_changes_no_fingerprint(
            words in proptest::collection::vec((0u8..3, 0u8..255), 0..300),
            renamed in proptest::collection::vec("[a-zA-Z_][a-zA-Z0-9_]{0,12}", 20),
        ) {
            prop_assume!(renamed.iter().all(|n| !crate::similarity::tokens::java::KEYWORDS.contains(&n.as_str())));
            let names: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
            let before = winnow(&tokens(Language::Java, &source(&words, &names)), 12, 8, 0);
            let after = winnow(&tokens(Language::Java, &source(&words, &renamed)), 12, 8, 0);
            prop_assert_eq!(before, after);
        }
    }
}
