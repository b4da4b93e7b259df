//! The reference's answer and counts on a puzzle file whose metadata does not give them (the official files,
//! bare): the reference solver over the counting board, within [`REFERENCE_BUDGET`], once per board per run,
//! and kept in the grader's work directory (`kept.rs`) so the next grade on the same machine reads them. On
//! the official data set those searches cost 2-2.5 s of the grader's CPU, which every grade paid before.
//!
//! The folder's name holds the budget and a fingerprint of the reference itself (its counts on two small
//! boards), so counts kept by a grader whose reference searched differently are not read by another.

use std::path::Path;
use std::sync::OnceLock;

use corpus::metadata::tiles_fingerprint;
use corpus::rng::StableHash;
use corpus::{Expected, Puzzle, ReferenceCounts};
use reference::instrument::baseline::{reference_baseline, reference_baseline_within};
use reference::Board;

use super::kept::{Kept, KeptText};

/// Lockstep steps the reference may take when deriving a missing expected answer or baseline (the
/// hardest official timing puzzle, puzzle45, takes about 1.2 million).
const REFERENCE_BUDGET: u64 = 4_000_000;

/// The reference's moves (−1: unsolvable) and counts on a board, or `None` past the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run(Option<(i32, ReferenceCounts)>);

/// The reference's runs on the plan's puzzle files.
pub(super) struct ReferenceRuns {
    kept: Kept<Run>,
}

impl ReferenceRuns {
    /// Runs kept under `work_dir` (none kept without one).
    pub(super) fn new(work_dir: Option<&Path>) -> ReferenceRuns {
        let folder = work_dir.map(|_| format!("reference-counts-v1-{REFERENCE_BUDGET}-{}", fingerprint()));
        ReferenceRuns { kept: Kept::new(work_dir, folder.as_deref().unwrap_or_default()) }
    }

    /// The expected answer (the puzzle's own where it has one, else the reference's) and the reference's
    /// counts, `None` where the reference ran out of budget.
    pub(super) fn of(&mut self, puzzle: &Puzzle) -> (Expected, Option<ReferenceCounts>) {
        let known = puzzle.expected();
        let key = tiles_fingerprint(&puzzle.board);
        let Run(run) = self.kept.get_or_compute(key, &puzzle.board, || compute(&puzzle.board));
        match run {
            None => (known, None),
            Some((moves, counts)) => {
                let expected = match (known, moves) {
                    (Expected::Unknown, -1) => Expected::Unsolvable,
                    (Expected::Unknown, m) => Expected::Moves(m as u32),
                    (known, _) => known,
                };
                (expected, Some(counts))
            }
        }
    }
}

fn compute(board: &Board) -> Run {
    Run(reference_baseline_within(board, REFERENCE_BUDGET).map(|b| (b.moves, ReferenceCounts::from(b.counts))))
}

/// A kept run: `none`, or the moves and the seven counts.
impl KeptText for Run {
    fn to_text(self) -> String {
        match self.0 {
            None => "none".into(),
            Some((moves, c)) => format!(
                "{moves} {} {} {} {} {} {} {}",
                c.inserts,
                c.del_mins,
                c.max_queue_size,
                c.ending_size,
                c.boards_constructed,
                c.equals_calls,
                c.manhattan_calls
            ),
        }
    }

    fn from_text(text: &str) -> Option<Run> {
        if text == "none" {
            return Some(Run(None));
        }
        let words: Vec<&str> = text.split(' ').collect();
        let [moves, numbers @ ..] = words.as_slice() else { return None };
        let n: Vec<u64> = numbers.iter().map(|w| w.parse().ok()).collect::<Option<_>>()?;
        let [inserts, del_mins, max_queue_size, ending_size, boards_constructed, equals_calls, manhattan_calls] = n[..]
        else {
            return None;
        };
        let counts = ReferenceCounts {
            inserts,
            del_mins,
            max_queue_size,
            ending_size,
            boards_constructed,
            equals_calls,
            manhattan_calls,
        };
        Some(Run(Some((moves.parse().ok()?, counts))))
    }
}

/// The reference's counts on two small boards (a 3-by-3 of 20 moves, a 4-by-4 of 12), hashed: what changes
/// when the reference searches differently. About a millisecond, once per process.
fn fingerprint() -> &'static str {
    static FINGERPRINT: OnceLock<String> = OnceLock::new();
    FINGERPRINT.get_or_init(|| {
        let mut hash = StableHash::default();
        for tiles in ["3\n7 2 1\n3 4 6\n0 5 8\n", "4\n1 2 3 4\n5 6 0 8\n9 10 7 11\n13 14 15 12\n"] {
            let board = reference::parse_puzzle(tiles).expect("a valid board");
            let baseline = reference_baseline(&board);
            hash.write(Run(Some((baseline.moves, baseline.counts.into()))).to_text().as_bytes());
        }
        format!("{:016x}", hash.finish())
    })
}

#[cfg(test)]
mod tests {
    use super::super::kept::{bare_puzzle as puzzle, board_line};
    use super::*;

    /// The one file a run kept, and its folder.
    fn kept_file(work: &Path) -> std::path::PathBuf {
        let folder = std::fs::read_dir(work).unwrap().next().unwrap().unwrap().path();
        assert!(folder.file_name().unwrap().to_string_lossy().starts_with("reference-counts-v1-4000000-"));
        let files: Vec<_> = std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1);
        files[0].clone()
    }

    #[test]
    fn a_run_is_computed_once_kept_by_the_boards_content_and_read_back_the_same() {
        let work = tempfile::tempdir().unwrap();
        let p = puzzle("3\n 7  2  1\n 3  4  6\n 0  5  8\n", "puzzle20");
        let first = ReferenceRuns::new(Some(work.path())).of(&p);
        assert_eq!(first.0, Expected::Moves(20));
        let file = kept_file(work.path());
        // a later run reads the file (one that says otherwise is believed, as long as it holds the board) ...
        let text = std::fs::read_to_string(&file).unwrap();
        let (board, kept) = text.split_once('\n').unwrap();
        assert_eq!(Run::from_text(kept.trim_end()), Some(Run(Some((20, first.1.unwrap())))));
        std::fs::write(&file, format!("{board}\n20 1 2 3 4 5 6 7\n")).unwrap();
        assert_eq!(ReferenceRuns::new(Some(work.path())).of(&p).1.unwrap().inserts, 1);
        // ... and computes again over a file that holds another board or cannot be read
        for bad in ["3 1 2 3 4 5 6 7 8 0\n20 1 2 3 4 5 6 7\n".to_string(), format!("{board}\n20 1 2\n")] {
            std::fs::write(&file, bad).unwrap();
            assert_eq!(ReferenceRuns::new(Some(work.path())).of(&p), first);
        }
    }

    #[test]
    fn an_unsolvable_board_reads_back_unsolvable_and_a_run_past_the_budget_reads_back_as_none() {
        let work = tempfile::tempdir().unwrap();
        let unsolvable = puzzle("2\n 1 2\n 0 3\n", "a").board.twin();
        let p = Puzzle { board: unsolvable, ..puzzle("2\n 1 2\n 0 3\n", "a") };
        let (expected, counts) = ReferenceRuns::new(Some(work.path())).of(&p);
        assert_eq!(expected, Expected::Unsolvable);
        assert!(counts.is_some());
        assert_eq!(ReferenceRuns::new(Some(work.path())).of(&p), (expected, counts), "read back");
        // a run past the budget is kept as `none`: no counts, and only the answer the file itself gives
        let work = tempfile::tempdir().unwrap();
        let p = puzzle("3\n 7  2  1\n 3  4  6\n 0  5  8\n", "a");
        assert_eq!(ReferenceRuns::new(Some(work.path())).of(&p).0, Expected::Moves(20), "the reference's answer");
        std::fs::write(kept_file(work.path()), format!("{}\nnone\n", board_line(&p.board))).unwrap();
        assert_eq!(ReferenceRuns::new(Some(work.path())).of(&p), (Expected::Unknown, None));
        assert_eq!(Run(None).to_text(), "none");
    }
}
