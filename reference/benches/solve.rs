//! `make bench`: the reference solver on 4-by-4 puzzles of 30-50 moves, and the bytes of one Board.
//!
//! Counts are deterministic and carry the comparison; times are printed for the record (BENCHMARKS.md) and
//! never asserted. A plain program rather than criterion: each solve is long enough to time on its own, and
//! the counts per puzzle are the point.

use std::path::Path;
use std::time::Instant;

use reference::instrument::baseline::reference_baseline;
use reference::{read_puzzle_file, Board};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles");
    println!(
        "{:<20} {:>6} {:>10} {:>12} {:>9} {:>14}",
        "puzzle", "moves", "dequeued", "boards", "seconds", "boards/second"
    );
    for t in (30..=50).step_by(2).chain([45, 46]) {
        let file = dir.join(format!("puzzle4x4-{t:02}.txt"));
        let Ok(board) = read_puzzle_file(&file) else { continue };
        let start = Instant::now();
        let baseline = reference_baseline(&board);
        let seconds = start.elapsed().as_secs_f64();
        let c = baseline.counts;
        println!(
            "{:<20} {:>6} {:>10} {:>12} {:>9.3} {:>14.0}",
            format!("puzzle4x4-{t:02}"),
            baseline.moves,
            c.pq_del_mins,
            c.board_constructed,
            seconds,
            c.board_constructed as f64 / seconds
        );
    }
    println!("\n{:>5} {:>8} {:>14} {:>16}", "n", "bytes", "n^2 + 32", "4n^2 + 32n + 64");
    for n in [2usize, 3, 4, 8, 12, 16, 20, 37, 72, 120] {
        let board = Board::goal(n).expect("valid size");
        println!("{n:>5} {:>8} {:>14} {:>16}", board.memory_bytes(), n * n + 32, 4 * n * n + 32 * n + 64);
    }
}
