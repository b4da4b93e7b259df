//! The plan: catalog items resolved into concrete tests, each with its boards and expected answers.
//!
//! Everything random comes from the seed, with one stream per test id (so adding a test never changes the
//! boards of another), which is what makes two runs with the same seed byte-identical. Expected answers come
//! from fixture metadata, then from the file name, then from the reference solver (within a budget); the
//! reference's operation counts likewise come from metadata or are computed here (`plan/reference_runs.rs`),
//! and so does the search bound of the files whose tests judge it (`plan/bounds.rs`); both are kept in the
//! work directory, so a data set without metadata is searched once per machine, not once per grade.
//!
//! An item whose inputs are rows of an official table (memory sizes and puzzles, timing puzzles) becomes one
//! test per row. A file an official test needs and the fixture directory lacks is listed in
//! [`PlannedTest::missing`]; a test left with no input at all is reported as the grader's problem.

mod bounds;
mod kept;
mod reference_runs;

use std::path::Path;

use corpus::rng::{Rng, StableHash};
use corpus::sampler;
use corpus::{Corpus, Expected, Puzzle, ReferenceCounts};
use reference::Board;

use crate::catalog::{Draw, Inputs, Item, MEMORY_PUZZLES, MEMORY_SIZES, TIMING_PUZZLES};

/// One board a test asks about, with what is known of it.
#[derive(Debug, Clone)]
pub struct Trial {
    /// How the report names it: a file name, or `random 4-by-4 board`.
    pub label: String,
    #[allow(missing_docs)]
    pub board: Board,
    /// The expected answer, where known.
    pub expected: Expected,
    /// The reference solver's counts on this board, where known.
    pub reference: Option<ReferenceCounts>,
    /// The board's search bound (`specs/search-bound.md`), where known: of a puzzle file's board, where the
    /// metadata records it or where the test judges it.
    pub bound: Option<u64>,
    /// The board asked about with this one, for checks about two boards at once.
    pub partner: Option<Box<Trial>>,
    /// Steps from `board` to the board asked about (k-th neighbor and k-th twin tests).
    pub steps: u32,
    /// Whether the board was drawn at random: its label does not say which board it is, so a failure that
    /// shows no board (a time-out, an exception) shows it.
    pub drawn: bool,
}

impl Trial {
    fn new(label: String, board: Board, expected: Expected) -> Trial {
        Trial { label, board, expected, reference: None, bound: None, partner: None, steps: 0, drawn: false }
    }

    /// A trial of a board drawn at random.
    fn drawn(label: String, board: Board, expected: Expected) -> Trial {
        Trial { drawn: true, ..Trial::new(label, board, expected) }
    }
}

/// One test to run: an item and its trials.
#[derive(Debug, Clone)]
pub struct PlannedTest {
    /// The test id: the item's id, or `id/row` for a row of an official table.
    pub id: String,
    #[allow(missing_docs)]
    pub item: Item,
    /// The title shown.
    pub title: String,
    /// The row of an official table this test is (`puzzle20`, `n=12`), if it is one.
    pub row: Option<String>,
    /// Its boards, in order.
    pub trials: Vec<Trial>,
    /// Input rows shown in the report (file names, or a summary of the random boards).
    pub inputs: Vec<String>,
    /// Inputs the fixture directory lacks; a test with none of its inputs is an error.
    pub missing: Vec<String>,
}

impl PlannedTest {
    fn new(item: &Item, trials: Vec<Trial>, inputs: Vec<String>, missing: Vec<String>) -> PlannedTest {
        PlannedTest { id: item.id.into(), item: *item, title: item.title.into(), row: None, trials, inputs, missing }
    }

    fn row(item: &Item, row: &str, trials: Vec<Trial>, inputs: Vec<String>, missing: Vec<String>) -> PlannedTest {
        PlannedTest {
            id: crate::catalog::row_id(item.id, row),
            row: Some(row.into()),
            ..PlannedTest::new(item, trials, inputs, missing)
        }
    }
}

/// Builds the plan for `items`, with every random trial count multiplied by `trials_scale` (at least one).
/// Search bounds the fixtures' metadata lacks are computed and kept under `work_dir`, where there is one.
pub fn plan(
    items: &[Item],
    corpus: &Corpus,
    seed: u64,
    trials_scale: f64,
    work_dir: Option<&Path>,
) -> Vec<PlannedTest> {
    let baselines = Baselines {
        reference: reference_runs::ReferenceRuns::new(work_dir),
        bounds: bounds::SearchBounds::new(work_dir),
    };
    let mut planner = Planner { corpus, baselines, scale: trials_scale };
    let mut tests = Vec::new();
    for item in items {
        // One stream per test id, from a hash that never changes between Rust versions or machines.
        let mut rng = Rng::new(seed ^ StableHash::of(item.id));
        match item.inputs {
            Inputs::TimingPuzzles => tests.extend(planner.file_rows(item, &TIMING_PUZZLES)),
            Inputs::MemoryPuzzles => tests.extend(planner.file_rows(item, &MEMORY_PUZZLES)),
            Inputs::MemorySizes => tests.extend(MEMORY_SIZES.iter().map(|&n| {
                let board = Board::goal(n).expect("memory sizes are valid").twin();
                let trial = Trial::new(format!("{n}-by-{n} board"), board, Expected::Unknown);
                PlannedTest::row(item, &format!("n={n}"), vec![trial], vec![format!("n = {n}")], vec![])
            })),
            inputs => tests.push(planner.resolve(item, inputs, &mut rng)),
        }
    }
    tests
}

struct Planner<'a> {
    corpus: &'a Corpus,
    baselines: Baselines,
    scale: f64,
}

impl Planner<'_> {
    fn scaled(&self, trials: usize) -> usize {
        ((trials as f64 * self.scale).round() as usize).max(1)
    }

    /// One test per named file, in the given order.
    fn file_rows(&mut self, item: &Item, names: &[&str]) -> Vec<PlannedTest> {
        names
            .iter()
            .map(|&name| {
                let file = format!("{name}.txt");
                match self.corpus.get(name) {
                    Some(puzzle) => {
                        let trial = self.baselines.file_trial(puzzle, item.check.judges_search_bound());
                        PlannedTest::row(item, name, vec![trial], vec![file], vec![])
                    }
                    None => PlannedTest::row(item, name, vec![], vec![], vec![file]),
                }
            })
            .collect()
    }

    /// Fixture files by name for `item`: the trials found and the names missing.
    fn files(&mut self, item: &Item, names: &[&str]) -> (Vec<Trial>, Vec<String>) {
        let mut trials = Vec::new();
        let mut missing = Vec::new();
        for &name in names {
            match self.corpus.get(name) {
                Some(puzzle) => trials.push(self.baselines.file_trial(puzzle, item.check.judges_search_bound())),
                None => missing.push(format!("{name}.txt")),
            }
        }
        (trials, missing)
    }

    fn resolve(&mut self, item: &Item, inputs: Inputs, rng: &mut Rng) -> PlannedTest {
        let mut shown = Vec::new();
        let (mut trials, mut missing) = (Vec::new(), Vec::new());
        let mut add_files = |planner: &mut Self, names: &[&str], shown: &mut Vec<String>| {
            let (found, lacking) = planner.files(item, names);
            shown.extend(found.iter().map(|t| t.label.clone()));
            trials.extend(found);
            missing.extend(lacking);
        };
        match inputs {
            Inputs::None | Inputs::TimingPuzzles | Inputs::MemoryPuzzles | Inputs::MemorySizes => {}
            Inputs::Boards { files, random, draw } => {
                add_files(self, files, &mut shown);
                for &(n, count) in random {
                    let count = self.scaled(count);
                    shown.push(format!("{count} random {n}-by-{n} boards{}", draw_words(draw)));
                    trials.extend((0..count).map(|_| random_trial(n, draw, rng)));
                }
            }
            Inputs::PuzzleRange(from, to) => {
                let names: Vec<String> = (from..=to).map(|t| format!("puzzle{t:02}")).collect();
                add_files(self, &names.iter().map(String::as_str).collect::<Vec<_>>(), &mut shown);
            }
            Inputs::Series { prefix, last } => {
                let names: Vec<String> = (0..=last).map(|t| format!("{prefix}{t:02}")).collect();
                add_files(self, &names.iter().map(String::as_str).collect::<Vec<_>>(), &mut shown);
            }
            Inputs::Pairs { sizes, trials: count } => {
                for &(m, n) in sizes {
                    let count = self.scaled(count);
                    shown.push(format!(
                        "{count} random pairs of {} {m}-by-{m} and {} {n}-by-{n} board",
                        article(m),
                        article(n)
                    ));
                    trials.extend((0..count).map(|_| {
                        let mut first = random_trial(m, Draw::Any, rng);
                        first.partner = Some(Box::new(random_trial(n, Draw::Any, rng)));
                        first
                    }));
                }
            }
            Inputs::FilePairs(pairs) => {
                for &(a, b) in pairs {
                    let (mut found, lacking) = self.files(item, &[a, b]);
                    missing.extend(lacking);
                    if found.len() == 2 {
                        let second = found.pop().expect("two");
                        let mut first = found.pop().expect("two");
                        shown.push(format!("{} and {}", first.label, second.label));
                        first.partner = Some(Box::new(second));
                        trials.push(first);
                    }
                }
            }
            Inputs::Goals(sizes) => {
                shown.extend(sizes.iter().map(|n| format!("{n}-by-{n} goal board")));
                for &n in sizes {
                    if let Ok(goal) = Board::goal(n) {
                        trials.push(Trial::new(format!("{n}-by-{n} goal board"), goal, Expected::Moves(0)));
                    }
                }
            }
            Inputs::Kth(steps) => {
                // The catalog's tests pin that exactly the checks that walk have k-th inputs.
                let step = item.check.walk().expect("a k-th test's check walks").word();
                for &(name, k) in steps {
                    let (found, lacking) = self.files(item, &[name]);
                    missing.extend(lacking);
                    for mut trial in found {
                        trial.label = format!("{} {step} of {}", ordinal(k), trial.label);
                        trial.steps = k;
                        shown.push(trial.label.clone());
                        trials.push(trial);
                    }
                }
            }
            Inputs::ExactlyK { from, to, trials: count } => {
                let count = self.scaled(count);
                for k in from..=to {
                    shown.push(format!("{count} random 3-by-3 boards that are exactly {k} moves from the goal"));
                    trials.extend((0..count).map(|_| {
                        let board = sampler::exactly_k_moves_3x3(k, rng);
                        Trial::drawn(format!("random 3-by-3 board {k} moves from the goal"), board, Expected::Moves(k))
                    }));
                }
            }
            Inputs::WithinK { sizes, k } => {
                for &(n, count) in sizes {
                    let count = self.scaled(count);
                    shown.push(format!("{count} random {n}-by-{n} boards that are <= {k} moves from the goal"));
                    trials.extend((0..count).map(|_| {
                        let (board, moves) = sampler::within_k_moves(n, k, rng);
                        let label = format!("random {n}-by-{n} board {moves} moves from the goal");
                        Trial::drawn(label, board, Expected::Moves(moves))
                    }));
                }
            }
        }
        if let Some(listed) = item.check.inputs_shown() {
            shown = listed;
        }
        PlannedTest::new(item, trials, shown, missing)
    }
}

fn draw_words(draw: Draw) -> &'static str {
    match draw {
        Draw::Any => "",
        Draw::Solvable => " (solvable)",
        Draw::Unsolvable => " (unsolvable)",
    }
}

/// A seeded random board with what is known of it: unsolvable boards are marked so, others are left to the
/// reference.
fn random_trial(n: usize, draw: Draw, rng: &mut Rng) -> Trial {
    let board = match draw {
        Draw::Any => sampler::random_any(n, rng),
        Draw::Solvable => sampler::random_solvable(n, rng),
        // A twin flips solvability.
        Draw::Unsolvable => sampler::random_solvable(n, rng).twin(),
    };
    let expected = if reference::oracle::is_solvable(&board) { Expected::Unknown } else { Expected::Unsolvable };
    Trial::drawn(format!("random {n}-by-{n} board"), board, expected)
}

/// `0th`, `1st`, `2nd`, `13th`, … (as the official inputs name the k-th neighbor).
fn ordinal(k: u32) -> String {
    let suffix = match (k % 10, k % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{k}{suffix}")
}

/// Expected answers, reference counts and search bounds for fixture files, computed at most once per board
/// per run and kept in the work directory.
struct Baselines {
    reference: reference_runs::ReferenceRuns,
    bounds: bounds::SearchBounds,
}

impl Baselines {
    /// The trial of a puzzle file; with its search bound where the metadata records it or `bound` asks for it.
    fn file_trial(&mut self, puzzle: &Puzzle, bound: bool) -> Trial {
        let (expected, reference) = match (&puzzle.meta, puzzle.expected()) {
            (Some(meta), expected) if meta.reference.is_some() => (expected, meta.reference),
            _ => self.reference.of(puzzle),
        };
        let recorded = puzzle.meta.as_ref().and_then(|meta| meta.bound);
        let bound = if bound { self.bounds.of(puzzle, expected) } else { recorded };
        Trial { reference, bound, ..Trial::new(format!("{}.txt", puzzle.name), puzzle.board.clone(), expected) }
    }
}

/// "a" or "an" before a number read aloud (an 8-by-8, an 11-by-11, an 18-by-18; a 3-by-3).
fn article(n: usize) -> &'static str {
    let spoken_vowel = n == 8 || n == 11 || n == 18 || (80..90).contains(&n) || (800..900).contains(&n);
    if spoken_vowel {
        "an"
    } else {
        "a"
    }
}

/// The whole catalog planned on the bundled corpus, with few random trials (for tests).
#[cfg(test)]
pub(crate) fn planned_catalog() -> Vec<PlannedTest> {
    let corpus = Corpus::load(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles"))
        .expect("the bundled corpus loads");
    plan(&crate::catalog::all(), &corpus, 1, 0.01, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_streams_of_test_ids_are_pinned() {
        // Pinned: changing the hash would change every seeded board of every report.
        assert_eq!(StableHash::of("board-1a"), 0x46a0_24eb_e000_9bc8);
        assert_ne!(StableHash::of("board-1a"), StableHash::of("board-1b"));
    }

    #[test]
    fn ordinals_read_as_the_official_inputs() {
        let words: Vec<String> = [0, 1, 2, 3, 11, 13, 21].into_iter().map(ordinal).collect();
        assert_eq!(words, ["0th", "1st", "2nd", "3rd", "11th", "13th", "21st"]);
    }

    #[test]
    fn rows_of_official_tables_are_tests_of_their_own() {
        let tests = planned_catalog();
        let timing_2: Vec<&str> =
            tests.iter().filter(|t| t.item.id == "timing-2").filter_map(|t| t.row.as_deref()).collect();
        assert_eq!(timing_2, TIMING_PUZZLES);
        let board_memory = tests.iter().filter(|t| t.item.id == "memory-board").count();
        assert_eq!(board_memory, MEMORY_SIZES.len());
        assert!(tests.iter().all(|t| t.missing.is_empty()), "the bundled corpus has every official input");
        let ids: Vec<&str> = tests.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, crate::catalog::test_ids(&crate::catalog::all()), "the catalog lists the tests planned");
    }

    /// What the catalog says of a test's inputs reaches the report: a k-th test's walk names its trials
    /// (`13th neighbor`, `13th twin`), and official 10a lists the equals contract's items, not its boards.
    #[test]
    fn inputs_are_listed_as_the_catalog_names_them() {
        let tests = planned_catalog();
        let kth = tests.iter().find(|t| t.id == "board-13").expect("board-13");
        assert_eq!(kth.inputs[3], "13th neighbor of puzzle27.txt");
        assert_eq!(kth.trials[3].steps, 13);
        let twin = tests.iter().find(|t| t.id == "board-16").expect("board-16");
        assert_eq!(twin.inputs[3], "13th twin of puzzle27.txt");
        let contract = tests.iter().find(|t| t.id == "board-10a").expect("board-10a");
        assert_eq!(contract.inputs[3], "argument is null");
        assert_eq!(contract.inputs.len(), crate::catalog::EqualsProperty::CONTRACT.len());
    }
}
