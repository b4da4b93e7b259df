//! `solver`: the assignment's test client. Reads a puzzle file (or `-` for standard input) and prints the
//! minimum number of moves and every board of a solution, or `No solution possible`.
//!
//! `--stats` also prints the reference search's operation counts to stderr, one `name: value` per line.
//! Exit status: 0 solved or proved unsolvable, 2 bad arguments or a malformed puzzle.

use std::io::{Read, Write};
use std::process::ExitCode;

use reference::instrument::baseline::{reference_baseline, stats_lines};
use reference::{parse_puzzle, read_puzzle_file, Board};

const USAGE: &str = "usage: solver [--stats] FILE   (FILE may be `-` for standard input)";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("solver: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let (stats, files): (Vec<_>, Vec<_>) = args.iter().partition(|a| *a == "--stats");
    if files.iter().any(|f| f.starts_with("--")) || files.len() != 1 {
        return Err(USAGE.into());
    }
    let board = read_board(files[0])?;
    let baseline = reference_baseline(&board);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = match &baseline.solution {
        None => writeln!(out, "No solution possible"),
        Some(path) => write_solution(&mut out, baseline.moves, path),
    };
    written.and_then(|()| out.flush()).map_err(|e| format!("failed to write the solution: {e}"))?;
    if !stats.is_empty() {
        for (name, value) in stats_lines(&baseline.counts) {
            eprintln!("{name}: {value}");
        }
    }
    Ok(())
}

fn read_board(file: &str) -> Result<Board, String> {
    if file == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("failed to read standard input: {e}"))?;
        parse_puzzle(&String::from_utf8_lossy(&bytes)).map_err(|e| format!("invalid puzzle on standard input: {e}"))
    } else {
        read_puzzle_file(std::path::Path::new(file)).map_err(|e| e.to_string())
    }
}

fn write_solution(out: &mut impl Write, moves: i32, path: &[Board]) -> std::io::Result<()> {
    writeln!(out, "Minimum number of moves = {moves}")?;
    for board in path {
        write!(out, "{board}")?;
    }
    Ok(())
}
