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
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles");
    println!(
        "{:<20} {:>6} {:>10} {:>12} {:>9} {:>14}",
        "puzzle", "moves", "dequeued", "boards", "seconds", "boards/second"
    );
    for t in (30..=50).step_by(2).chain([45]) {
        let file = dir.join(format!("puzzle4x4-{t:02}.txt"));
        let Ok(board) = read_puzzle_file(&file) else { continue };
        let start = Instant::now();
        let plain = Solver::new(board.clone());
        let plain_seconds = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let baseline = reference_baseline(&board);
        let counting_seconds = start.elapsed().as_secs_f64();
        assert_eq!(plain.moves(), baseline.moves);
        let c = baseline.counts;
        println!(
            "{:<16} {:>6} {:>10} {:>10} {:>12.3} {:>12.3} {:>12.0}",
            format!("puzzle4x4-{t:02}"),
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
