//! What the corpus holds: every file's name and recipe ([`plan`]), the seed and the budgets the recipes are
//! built under, and the generator's error. Below the builder, the writer and the checker, which all read it.

use crate::loader::CorpusError;
use crate::names::OFFICIAL_TIMING;

/// The seed every fixture is derived from (mixed with the fixture's name).
pub const SEED: u64 = 0x8_9E7A_2019;

/// The reference solver's step budget (lockstep steps: one on the board, one on its twin) when recording
/// its counts.
pub const REFERENCE_MAX_STEPS: u64 = 260_000;

/// The most boards the reference solver may construct on a 4-by-4 or 5-by-5 fixture, so that the grader's
/// timing section (and the 4-by-4 series) stays fast for the reference and for students alike.
pub const MAX_REFERENCE_BOARDS: u64 = 1_500_000;

/// The widest gap between a 4-by-4 candidate's distance and its manhattan value: a cheap filter that skips
/// boards the reference A* would need millions of nodes for, before running anything.
pub const MAX_GAP_4X4: u32 = 12;

/// The same for 5-by-5 candidates, tighter: beyond it both the reference and IDA* slow down sharply.
pub const MAX_GAP_5X5: u32 = 8;

/// The widest gap allowed for an n-by-n walk fixture.
pub fn max_gap(n: usize) -> u32 {
    if n >= 5 {
        MAX_GAP_5X5
    } else {
        MAX_GAP_4X4
    }
}

/// Candidates tried per 4-by-4 or 5-by-5 fixture before giving up.
pub const MAX_ATTEMPTS: u64 = 20_000;

/// IDA* node budget per candidate (candidates within [`max_gap`] need far fewer).
pub const IDA_NODE_BUDGET: u64 = 20_000_000;

/// How a fixture's board is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recipe {
    /// The n-by-n goal board.
    Goal {
        /// n, for an n-by-n board.
        n: usize,
    },
    /// Uniform over the boards exactly `moves` from the goal, by the exact table (n = 2, 3).
    Layer {
        /// n, for an n-by-n board.
        n: usize,
        /// Moves from the goal.
        moves: u32,
    },
    /// The first seeded candidate (a random walk) whose IDA* distance is `moves`, within [`max_gap`], on
    /// which the reference finishes with at most [`MAX_REFERENCE_BOARDS`] boards (n = 4, 5).
    Walk {
        /// n, for an n-by-n board.
        n: usize,
        /// Moves from the goal.
        moves: u32,
    },
    /// The `index`-th distinct unsolvable board of a seeded stream (uniform for n = 2, 3; for n = 4 a walk
    /// of 20 moves with its first two tiles exchanged, so the reference's twin search finishes quickly).
    Unsolvable {
        /// n, for an n-by-n board.
        n: usize,
        /// 1-based index among the series' unsolvable boards.
        index: u32,
    },
    /// Korf's 15-puzzle instance `id` (1..=100), mapped to the blank-last goal.
    Korf {
        /// Korf's instance number.
        id: u32,
    },
    /// A timing puzzle `puzzleT`: the first seeded candidate exactly `moves` from the goal (uniform over its
    /// layer for n = 3; for n = 4, 5 a random walk as for [`Recipe::Walk`], within its limits) on which the
    /// model of students' Solver strategies gives each strategy its verdict on the official `puzzleT`
    /// (`selection`).
    Timing {
        /// n, for an n-by-n board.
        n: usize,
        /// Moves from the goal (T).
        moves: u32,
    },
    /// A memory puzzle of a big board: the first seeded random walk of exactly `moves` slides whose
    /// manhattan distance is `moves` (so the walk is a shortest solution, reversed: a proof that needs no
    /// search) and on which the model's strategies pass the memory row as officially (`selection`).
    Straight {
        /// n, for an n-by-n board.
        n: usize,
        /// Moves from the goal, and the walk's length.
        moves: u32,
    },
}

/// One file of the corpus.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// The file's name without `.txt`, as `puzzles.toml` keys it; its board's randomness comes from it.
    pub name: String,
    /// How its board is made.
    pub recipe: Recipe,
    /// Whether it is one of the timing section's puzzles.
    pub timing: bool,
}

/// Korf instances used as the hard 4-by-4 boards (60, 61, 64 and 66 moves, each solved by IDA* in well under
/// a second), as `puzzle4x4-hard1..4`.
pub const HARD_KORF_IDS: [u32; 4] = [33, 66, 43, 17];

/// The official memory puzzles of big boards: `puzzle10` is 9-by-9 and `puzzle15` 8-by-8 (OFFICIAL-TESTS.md
/// section 4), as (T, n).
pub const BIG_MEMORY_PUZZLES: [(u32, usize); 2] = [(10, 9), (15, 8)];

/// The size of the official timing puzzle `puzzleT`: 3-by-3 up to 31, 5-by-5 for 41 and 44, else 4-by-4.
pub fn timing_size(t: u32) -> usize {
    match t {
        ..=31 => 3,
        41 | 44 => 5,
        _ => 4,
    }
}

/// Every file of the corpus, in name order.
pub fn plan() -> Vec<Spec> {
    let spec = |name: String, recipe, timing| Spec { name, recipe, timing };
    let mut specs = vec![spec("puzzle00".into(), Recipe::Goal { n: 10 }, false)];
    for t in 1..=50 {
        let timing = OFFICIAL_TIMING.contains(&t);
        let big = BIG_MEMORY_PUZZLES.iter().find(|&&(m, _)| m == t);
        let recipe = match (timing, big, t) {
            (true, _, _) => Recipe::Timing { n: timing_size(t), moves: t },
            (_, Some(&(_, n)), _) => Recipe::Straight { n, moves: t },
            (_, _, ..=31) => Recipe::Layer { n: 3, moves: t },
            (_, _, 41 | 44 | 50) => Recipe::Walk { n: 5, moves: t },
            _ => Recipe::Walk { n: 4, moves: t },
        };
        specs.push(spec(format!("puzzle{t:02}"), recipe, timing));
    }
    for t in 0..=6 {
        specs.push(spec(format!("puzzle2x2-{t:02}"), Recipe::Layer { n: 2, moves: t }, false));
    }
    for t in 0..=31 {
        specs.push(spec(format!("puzzle3x3-{t:02}"), Recipe::Layer { n: 3, moves: t }, false));
    }
    for t in 0..=50 {
        specs.push(spec(format!("puzzle4x4-{t:02}"), Recipe::Walk { n: 4, moves: t }, false));
    }
    for index in 1..=3 {
        specs.push(spec(format!("puzzle2x2-unsolvable{index}"), Recipe::Unsolvable { n: 2, index }, false));
    }
    for index in 1..=2 {
        specs.push(spec(format!("puzzle3x3-unsolvable{index}"), Recipe::Unsolvable { n: 3, index }, false));
    }
    specs.push(spec("puzzle4x4-unsolvable".into(), Recipe::Unsolvable { n: 4, index: 1 }, false));
    for (i, id) in HARD_KORF_IDS.into_iter().enumerate() {
        specs.push(spec(format!("puzzle4x4-hard{}", i + 1), Recipe::Korf { id }, false));
    }
    specs.sort_by(|a, b| a.name.cmp(&b.name));
    specs
}

/// Why generating or checking could not run (drift found by a check is a report, not an error).
#[derive(Debug, thiserror::Error)]
pub enum GeneratorError {
    /// A file could not be written or read.
    #[error("failed to write `{}`: {source}", path.display())]
    Io {
        /// The file that could not be written or read.
        path: std::path::PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// No seeded candidate met a fixture's requirements.
    #[error("no candidate for `{name}` within {MAX_ATTEMPTS} attempts")]
    NoCandidate {
        /// The fixture's name.
        name: String,
    },
    /// The reference solver disagrees with the independent oracle.
    #[error("`{name}`: {detail}")]
    Disagreement {
        /// The fixture's name.
        name: String,
        /// What differs.
        detail: String,
    },
    /// The directory could not be loaded for checking.
    #[error(transparent)]
    Corpus(#[from] CorpusError),
}
