//! **Student side.** The assignment's test client, what `cargo run --release -- puzzle04.txt` runs for a
//! submission: for each puzzle file, the minimum number of moves and the boards of a solution, or "No
//! solution possible".
//!
//! It runs the student's Solver over the student's Board and counts nothing; grading happens in the grader.

use std::process::ExitCode;

use crate::{PuzzleBoard, PuzzleSolver, Submission};

/// Solves every puzzle file named on the command line with the submission's Solver over its Board.
pub fn run<S: Submission>() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: cargo run --release -- PUZZLE_FILE...  (the grader builds this crate its own way)");
        return ExitCode::from(2);
    }
    let mut status = ExitCode::SUCCESS;
    for file in &files {
        match std::fs::read_to_string(file).map_err(|e| e.to_string()).and_then(|text| parse_tiles(&text)) {
            Ok(tiles) => print!("{}", solve_and_describe::<S::Board, S::OwnSolver>(&tiles)),
            Err(e) => {
                eprintln!("{file}: {e}");
                status = ExitCode::from(2);
            }
        }
    }
    status
}

/// The test client's output for one puzzle.
pub fn solve_and_describe<B: PuzzleBoard, S: PuzzleSolver<B>>(tiles: &[Vec<u32>]) -> String {
    let solver = S::new(B::from_tiles(tiles));
    match solver.solution() {
        None => "No solution possible\n".to_string(),
        Some(boards) => {
            let mut text = format!("Minimum number of moves = {}\n", solver.moves());
            for board in boards {
                text.push_str(&format!("{board}\n"));
            }
            text
        }
    }
}

/// Reads the assignment's puzzle format: `n`, then n² tiles, whitespace-separated, 0 for the blank.
///
/// ```
/// let tiles = npuzzle::client::parse_tiles("2\n1 2\n3 0\n").unwrap();
/// assert_eq!(tiles, vec![vec![1, 2], vec![3, 0]]);
/// assert!(npuzzle::client::parse_tiles("2\n1 2 3\n").is_err());
/// ```
pub fn parse_tiles(text: &str) -> Result<Vec<Vec<u32>>, String> {
    let mut numbers =
        text.split_ascii_whitespace().map(|t| t.parse::<u32>().map_err(|_| format!("not a number: `{t}`")));
    let n = numbers.next().ok_or("empty puzzle file")?? as usize;
    if !(2..128).contains(&n) {
        return Err(format!("dimension {n} is not between 2 and 127"));
    }
    let tiles: Vec<u32> = numbers.collect::<Result<_, _>>()?;
    let mut sorted = tiles.clone();
    sorted.sort_unstable();
    if tiles.len() != n * n || sorted.iter().enumerate().any(|(i, &t)| t as usize != i) {
        return Err(format!("expected a permutation of 0..{} after the dimension", n * n));
    }
    Ok(tiles.chunks(n).map(<[u32]>::to_vec).collect())
}
