//! `make bench`: the reference solver on 4-by-4 puzzles of 30-50 moves, and the bytes of one Board.
//!
//! Counts are deterministic and carry the comparison; times are printed for the record (BENCHMARKS.md) and
//! never asserted. A plain program rather than criterion: each solve is long enough to time on its own, and
//! the counts per puzzle are the point.

use std::path::Path;
use std::time::Instant;

use reference::instrument::baseline::reference_baseline;
use reference::{read_puzzle_file, Board, PuzzleSolver, Solver};

fn main() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles");
    let hard = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/puzzles");
    println!(
        "{:<22} {:>6} {:>10} {:>10} {:>9} {:>9} {:>13}",
        "puzzle", "moves", "dequeued", "boards", "plain s", "count s", "plain boards/s"
    );
    let files = (30..=50)
        .step_by(2)
        .chain([45])
        .map(|t| fixtures.join(format!("puzzle4x4-{t:02}.txt")))
        // About 3.7 million boards: the size of the assignment's hardest timing puzzles.
        .chain([hard.join("puzzle4x4-46-hard.txt")]);
    for file in files {
        let Ok(board) = read_puzzle_file(&file) else { continue };
        let start = Instant::now();
        let plain = Solver::new(board.clone());
        let plain_seconds = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let baseline = reference_baseline(&board);
        let counting_seconds = start.elapsed().as_secs_f64();
        assert_eq!(plain.moves(), baseline.moves);
        let c = baseline.counts;
        let name = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        println!(
            "{name:<22} {:>6} {:>10} {:>10} {:>9.3} {:>9.3} {:>13.0}",
            baseline.moves,
            c.pq_del_mins,
            c.board_constructed,
            plain_seconds,
            counting_seconds,
            c.board_constructed as f64 / plain_seconds
        );
    }
    println!("\n{:>5} {:>8} {:>14} {:>16}", "n", "bytes", "n^2 + 32", "4n^2 + 32n + 64");
    for n in [2usize, 3, 4, 8, 12, 16, 20, 37, 72, 120] {
        let board = Board::goal(n).expect("valid size");
        println!("{n:>5} {:>8} {:>14} {:>16}", board.memory_bytes(), n * n + 32, 4 * n * n + 32 * n + 64);
    }
}
