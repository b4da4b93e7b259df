//! A class compared: every pair of its submissions of one language, and every submission against a corpus
//! of known solutions, through an index of fingerprints rather than every pair in full.
//!
//! Per language: fingerprints of the base (the starter code) are left out of every submission; a
//! fingerprint in a large share of the class's submissions ([`Method::common_share`], and at least
//! [`Method::common_at_least`] of them) is *common* (the assignment's signatures, the textbook's MinPQ
//! calls, the loops every Board has) and left out too, as MOSS and Dolos leave them out. What is left are
//! each submission's own fingerprints ([`Own`]). An inverted index (hash → submissions) gives, for each
//! submission, every other that shares a fingerprint with it, and how many of each side's own fingerprints
//! those shared hashes are: a bound on the pair's score. Only a pair whose bound reaches the threshold is
//! compared in full ([`shared`]): fragments grown, the score computed. The corpus is indexed alike, with
//! the class's common fingerprints (never the corpus's own frequencies: a corpus of public solutions holds
//! forks of one solution by the dozen, and what they share is what is worth finding).

use std::collections::{HashMap, HashSet};

use super::fingerprints::Fingerprints;
use super::fragments::{shared, Own, Shared};
use super::method::Method;
use super::tokens::Language;

/// The base's fingerprints, by language: left out of every submission.
#[derive(Debug, Clone, Default)]
pub struct Base {
    /// The hashes of the base's fingerprints of each language.
    pub hashes: HashMap<Language, HashSet<u64>>,
}

/// A pair of submissions whose score reaches the threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    /// The class submission (for a pair of the class, the earlier of the two).
    pub a: usize,
    /// The other: a class submission, or a corpus entry.
    pub b: usize,
    /// What they share.
    pub shared: Shared,
}

/// A class's comparison.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Pairs within the class, highest score first (then by the submissions' order).
    pub class: Vec<Pair>,
    /// Class submissions against corpus entries, highest score first; at most
    /// [`Method::corpus_matches`] per class submission.
    pub corpus: Vec<Pair>,
    /// Per language, how many fingerprints were common, and in how many submissions a fingerprint had to
    /// be to count as common.
    pub common: Vec<(Language, usize, usize)>,
    /// Class submissions not compared, with why (too little code of their own).
    pub left_out: Vec<(usize, String)>,
}

/// Compares the class's submissions with each other and with the corpus's; pairs scoring at least
/// `threshold` (0 to 1) are kept.
pub fn compare(
    class: &[&Fingerprints],
    corpus: &[&Fingerprints],
    base: &Base,
    method: &Method,
    threshold: f64,
) -> Comparison {
    let mut comparison = Comparison::default();
    for language in Language::ALL {
        let members: Vec<usize> = (0..class.len()).filter(|&i| class[i].language == Some(language)).collect();
        if members.is_empty() {
            continue;
        }
        let empty = HashSet::new();
        let base = base.hashes.get(&language).unwrap_or(&empty);
        let (common, at_least) = common_hashes(members.iter().map(|&i| class[i]), base, method, members.len());
        comparison.common.push((language, common.len(), at_least));
        let counts = |h: u64| !base.contains(&h) && !common.contains(&h);
        let own: Vec<Own<'_>> =
            members.iter().map(|&i| Own::new(&class[i].prints, counts, method.max_repeats)).collect();
        let entries: Vec<usize> = (0..corpus.len()).filter(|&e| corpus[e].language == Some(language)).collect();
        let known: Vec<Own<'_>> =
            entries.iter().map(|&e| Own::new(&corpus[e].prints, counts, method.max_repeats)).collect();
        for (m, own) in own.iter().enumerate() {
            if !class[members[m]].prints.is_empty() && own.prints.len() < method.min_own {
                let why = format!(
                    "too little code of its own to compare: {} fingerprints beside the starter's and the class's common ones (at least {} needed)",
                    own.prints.len(),
                    method.min_own
                );
                comparison.left_out.push((members[m], why));
            }
        }
        let index = Index::of(&own, method.min_own);
        for (m, a) in own.iter().enumerate() {
            for (other, shared) in index.pairs(a, m + 1, method, threshold) {
                comparison.class.push(Pair { a: members[m], b: members[other], shared });
            }
        }
        let known_index = Index::of(&known, method.min_own);
        for (m, a) in own.iter().enumerate() {
            let mut found: Vec<Pair> = known_index
                .pairs(a, 0, method, threshold)
                .into_iter()
                .map(|(entry, shared)| Pair { a: members[m], b: entries[entry], shared })
                .collect();
            rank(&mut found);
            found.truncate(method.corpus_matches);
            comparison.corpus.extend(found);
        }
    }
    rank(&mut comparison.class);
    rank(&mut comparison.corpus);
    comparison.left_out.sort_by_key(|(i, _)| *i);
    comparison
}

/// Highest score first, then by the submissions' order.
fn rank(pairs: &mut [Pair]) {
    pairs.sort_by(|x, y| y.shared.score().total_cmp(&x.shared.score()).then((x.a, x.b).cmp(&(y.a, y.b))));
}

/// The hashes in at least `max(common_at_least, common_share × n)` of the `n` class submissions (base ones
/// aside), and that number.
fn common_hashes<'a>(
    members: impl Iterator<Item = &'a Fingerprints>,
    base: &HashSet<u64>,
    method: &Method,
    n: usize,
) -> (HashSet<u64>, usize) {
    let at_least = method.common_at_least.max((method.common_share * n as f64).ceil() as usize);
    let mut holders: HashMap<u64, usize> = HashMap::new();
    for prints in members {
        let mut hashes: Vec<u64> = prints.prints.iter().map(|p| p.hash).filter(|h| !base.contains(h)).collect();
        hashes.sort_unstable();
        hashes.dedup();
        for hash in hashes {
            *holders.entry(hash).or_insert(0) += 1;
        }
    }
    (holders.into_iter().filter(|&(_, n)| n >= at_least).map(|(h, _)| h).collect(), at_least)
}

/// An inverted index of submissions' own fingerprints: for each hash, the submissions holding it (by their
/// number) and how many times each does.
struct Index<'a, 'b> {
    own: &'b [Own<'a>],
    postings: HashMap<u64, Vec<(u32, u16)>>,
    min_own: usize,
}

impl<'a, 'b> Index<'a, 'b> {
    fn of(own: &'b [Own<'a>], min_own: usize) -> Index<'a, 'b> {
        let mut postings: HashMap<u64, Vec<(u32, u16)>> = HashMap::new();
        for (number, submission) in own.iter().enumerate() {
            if submission.prints.len() < min_own {
                continue;
            }
            for (hash, times) in submission.distinct() {
                postings.entry(hash).or_default().push((number as u32, times));
            }
        }
        Index { own, postings, min_own }
    }

    /// The indexed submissions numbered `from` and above that `a` shares enough with to reach `threshold`,
    /// each with what they share.
    fn pairs(&self, a: &Own<'_>, from: usize, method: &Method, threshold: f64) -> Vec<(usize, Shared)> {
        if a.prints.len() < self.min_own {
            return Vec::new();
        }
        // per indexed submission: a's fingerprints whose hash it holds, and its own whose hash a holds
        let mut mine = vec![0u32; self.own.len()];
        let mut theirs = vec![0u32; self.own.len()];
        let mut touched = Vec::new();
        for (hash, times) in a.distinct() {
            for &(other, their_times) in self.postings.get(&hash).map_or(&[][..], Vec::as_slice) {
                let other = other as usize;
                if other < from {
                    continue;
                }
                if mine[other] == 0 {
                    touched.push(other);
                }
                mine[other] += u32::from(times);
                theirs[other] += u32::from(their_times);
            }
        }
        touched.sort_unstable();
        let share = |count: u32, own: usize| f64::from(count) / own.max(1) as f64;
        touched
            .into_iter()
            .filter(|&other| {
                share(mine[other], a.prints.len()).max(share(theirs[other], self.own[other].prints.len())) >= threshold
            })
            .map(|other| (other, shared(a, &self.own[other], method.min_fragment)))
            .filter(|(_, shared)| shared.score() >= threshold && !shared.fragments.is_empty())
            .collect()
    }
}
