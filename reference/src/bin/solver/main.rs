//! `solver`: the assignment's test client, and the toolkit's modes beyond it.
//!
//! - `solver FILE` — the assignment's output: the minimum number of moves and every board of a solution, or
//!   `No solution possible`. Square boards with the standard goal run the reference A* (`--stats` prints its
//!   operation counts to stderr); m-by-n boards and `--goal` run the toolkit's A*.
//! - `solver --moves FILE...` — an optimal move string per file (blank moves U, D, L, R).
//! - `solver --optimal FILE...` — IDA* (pattern databases on 4x4), one line per file, many files per process.
//! - `solver compare ...` — the four searches side by side.
//! - `solver completions SHELL`, `solver man` — a completion script and the manual page, from these definitions.
//!
//! The A* searches stop at a budget (`--max-boards`, by default sized to the memory the process may use) with
//! "gave up after N boards (about M GB); try --optimal" instead of being killed by the kernel.
//! Exit status: 0 solved or proved unsolvable, 1 gave up at the budget, 2 bad arguments or a malformed puzzle.
//! `main` only parses arguments and maps errors to exit codes; the modes are in `modes.rs`.

mod budget;
mod modes;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

/// Solves sliding puzzles: the 8-puzzle assignment's test client, m-by-n boards, any goal, move strings,
/// optimal 4x4 solutions, and the search algorithms side by side.
#[derive(Debug, Parser)]
#[command(name = "solver", version, args_conflicts_with_subcommands = true)]
#[command(after_help = "Puzzle files: `n` then n² tiles, or `m n` then m·n tiles, 0 for the blank \
(specs/puzzle-format.md).\nExit status: 0 solved or unsolvable, 1 gave up at the budget, 2 bad arguments or input.")]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

/// The modes that solve given files.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files (`-` for standard input); several with --moves or --optimal.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Print an optimal move string per file: the blank's moves as U, D, L, R on one line.
    #[arg(long)]
    moves: bool,
    /// Solve optimally with IDA* (additive pattern databases on 4x4 boards), one line per file.
    #[arg(long, conflicts_with = "moves")]
    optimal: bool,
    /// Solve towards this goal board instead of 1 … mn−1 with the blank last.
    #[arg(long, value_name = "GOAL")]
    goal: Option<PathBuf>,
    /// Print the search's counts to stderr: the reference's operation counts (square boards, standard
    /// goal), otherwise the toolkit A*'s expanded and generated positions.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Where --optimal keeps its pattern databases (default: $XDG_CACHE_HOME/npuzzle-solver, or
    /// ~/.cache/npuzzle-solver).
    #[arg(long, value_name = "DIR")]
    pdb_cache: Option<PathBuf>,
}

/// How much an A* or breadth-first search may store.
#[derive(Debug, Clone, Args)]
pub struct BudgetArgs {
    /// Give up after storing this many boards (default: about half the machine's memory); with --moves or
    /// --optimal, after expanding this many (default: no limit, IDA* needs no memory).
    #[arg(long, value_name = "N")]
    max_boards: Option<u64>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run breadth-first, bidirectional breadth-first, A* and IDA* on the same boards and print a table
    /// (algorithm | expanded | generated | length | time | peak memory).
    Compare(CompareArgs),
    /// Print a completion script for a shell (e.g. `solver completions bash > ~/.local/share/bash-completion/completions/solver`).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff).
    Man,
}

/// `solver compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The puzzle to compare on (or use --random).
    #[arg(value_name = "FILE", required_unless_present = "random", conflicts_with = "random")]
    file: Option<PathBuf>,
    /// The goal board (with FILE).
    #[arg(long, value_name = "GOAL")]
    goal: Option<PathBuf>,
    /// Compare on this many random solvable boards instead (totals over them).
    #[arg(long, value_name = "N")]
    random: Option<usize>,
    /// Seed for --random.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Board shape for --random, ROWSxCOLS.
    #[arg(long, default_value = "3x3", value_name = "MxN")]
    size: String,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// A failure with its exit status: 2 for bad input (the default), 1 for a budget reached.
#[derive(Debug)]
pub struct GaveUp(pub String);

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for GaveUp {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(Command::Compare(args)) => modes::compare(args),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(*shell, &mut Cli::command(), "solver", &mut std::io::stdout());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Man) => clap_mangen::Man::new(Cli::command())
            .render(&mut std::io::stdout())
            .map(|()| ExitCode::SUCCESS)
            .map_err(anyhow::Error::from),
        None => modes::solve(&cli.solve),
    };
    match result {
        Ok(code) => code,
        Err(error) => {
            eprintln!("solver: {error:#}");
            if error.downcast_ref::<GaveUp>().is_some() {
                ExitCode::from(1)
            } else {
                ExitCode::from(2)
            }
        }
    }
}
