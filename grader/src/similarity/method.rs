//! The method's parameters and the default threshold: the numbers `fixtures/similarity/`'s test set chose
//! (`testset.rs`, specs/similarity.md), in one place below every part that uses them.

/// The score, in percent, at and above which a pair is shown: between the highest pair of independently
/// written solutions and the lowest disguised copy of the test set (specs/similarity.md).
pub const DEFAULT_THRESHOLD: f64 = 50.0;

/// The method's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Method {
    /// Tokens in a k-gram: no shared run shorter than this makes a fingerprint match (the noise threshold).
    pub k: usize,
    /// K-grams in a winnowing window: every shared run of `k + w - 1` tokens or more matches.
    pub w: usize,
    /// Fingerprints in the shortest fragment that counts.
    pub min_fragment: usize,
    /// The share of the class's submissions (of one language) a fingerprint must be in to be common.
    pub common_share: f64,
    /// And the fewest submissions it must be in to be common, in a small class.
    pub common_at_least: usize,
    /// The most times one hash counts in one submission.
    pub max_repeats: usize,
    /// The fewest own fingerprints a submission needs to be compared.
    pub min_own: usize,
    /// The most corpus entries listed per class submission.
    pub corpus_matches: usize,
}

impl Method {
    /// The grader's method.
    pub const DEFAULT: Method = Method {
        k: 12,
        w: 8,
        min_fragment: 3,
        common_share: 0.4,
        common_at_least: 5,
        max_repeats: 4,
        min_own: 10,
        corpus_matches: 3,
    };
}
