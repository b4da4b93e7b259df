//! What each `solver` mode does with its arguments: read the boards, run the search, print the answer.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use reference::instrument::baseline::{reference_baseline_within, stats_lines};
use reference::instrument::counters;
use reference::toolkit::compare::{compare as compare_all, random_pairs, render};
use reference::toolkit::search::{a_star, Limits, Outcome};
use reference::toolkit::{
    move_string, parse_grid, read_grid_file, Grid, ManhattanConflict, OptimalSolver, Shape, SolveError, Space,
};
use reference::Board;

use crate::budget::{self, TOOLKIT_BYTES_PER_BOARD};
use crate::{BudgetArgs, CompareArgs, GaveUp, SolveArgs};

/// A puzzle file, or standard input for `-`.
fn read_grid(path: &Path) -> Result<Grid> {
    if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes).context("failed to read standard input")?;
        return parse_grid(&String::from_utf8_lossy(&bytes)).context("invalid puzzle on standard input");
    }
    Ok(read_grid_file(path)?)
}

/// The goal: the file given, or the standard goal of the start's shape.
fn goal_for(start: &Grid, goal: Option<&Grid>) -> Result<Grid> {
    match goal {
        Some(goal) if goal.shape() != start.shape() => {
            bail!("the goal is {} but the puzzle is {}", goal.shape(), start.shape())
        }
        Some(goal) => Ok(goal.clone()),
        None => Ok(Grid::goal(start.shape())?),
    }
}

/// `solver [--moves | --optimal] [--goal GOAL] FILE...`.
pub fn solve(args: &SolveArgs) -> Result<ExitCode> {
    let goal = args.goal.as_deref().map(read_grid).transpose()?;
    if args.moves || args.optimal {
        return optimal(args, goal.as_ref());
    }
    let [file] = args.files.as_slice() else {
        bail!("several files need --moves or --optimal (the default mode prints one solution)");
    };
    let start = read_grid(file)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let square = start.shape().rows == start.shape().cols;
    if square && goal.is_none() {
        assignment_solve(&start, args, &mut out)?;
    } else {
        let goal = goal_for(&start, goal.as_ref())?;
        toolkit_solve(&start, &goal, args, &mut out)?;
    }
    out.flush().context("failed to write the solution")?;
    Ok(ExitCode::SUCCESS)
}

/// The assignment's client on a square board: the reference A*, stopped at the budget.
fn assignment_solve(start: &Grid, args: &SolveArgs, out: &mut impl Write) -> Result<()> {
    let n = start.shape().rows;
    let board = Board::from_row_major(n, start.tiles())?;
    let per_board = budget::reference_bytes_per_board(board.memory_bytes());
    let max_boards = args.budget.max_boards.unwrap_or_else(|| budget::memory_allowance() / per_board);
    // A lockstep step dequeues twice and stores about four boards.
    let Some(baseline) = reference_baseline_within(&board, (max_boards / 4).max(1)) else {
        let boards = counters::snapshot().pq_inserts;
        return Err(GaveUp(budget::gave_up(boards, per_board)).into());
    };
    match &baseline.solution {
        None => writeln!(out, "No solution possible")?,
        Some(path) => {
            writeln!(out, "Minimum number of moves = {}", baseline.moves)?;
            for board in path {
                write!(out, "{board}")?;
            }
        }
    }
    if args.stats {
        for (name, value) in stats_lines(&baseline.counts) {
            eprintln!("{name}: {value}");
        }
    }
    Ok(())
}

/// m-by-n boards and other goals: the toolkit's A* with Manhattan distance plus linear conflict.
fn toolkit_solve(start: &Grid, goal: &Grid, args: &SolveArgs, out: &mut impl Write) -> Result<()> {
    if !start.can_reach(goal) {
        writeln!(out, "No solution possible")?;
        return Ok(());
    }
    let space = Space::new(goal)?;
    let limits = toolkit_limits(&args.budget);
    let run = a_star(&space, space.state(start)?, &ManhattanConflict::new(&space), limits);
    if args.stats {
        eprintln!("expanded: {}\ngenerated: {}", run.stats.expanded, run.stats.generated);
    }
    let Outcome::Solved(moves) = run.outcome else {
        return Err(GaveUp(budget::gave_up(limits.max_states, TOOLKIT_BYTES_PER_BOARD)).into());
    };
    writeln!(out, "Minimum number of moves = {}", moves.len())?;
    let mut board = start.clone();
    write!(out, "{board}")?;
    for dir in moves {
        board = board.apply(dir).expect("a solution's moves stay on the board");
        write!(out, "{board}")?;
    }
    Ok(())
}

fn toolkit_limits(args: &BudgetArgs) -> Limits {
    let max_states = args.max_boards.unwrap_or_else(|| budget::memory_allowance() / TOOLKIT_BYTES_PER_BOARD);
    Limits { max_states }
}

/// `--moves` and `--optimal`: IDA* on each file in turn.
fn optimal(args: &SolveArgs, goal: Option<&Grid>) -> Result<ExitCode> {
    let started = Instant::now();
    let solver = OptimalSolver::new(Some(cache_dir(args)?)).with_notice(|line| eprintln!("solver: {line}"));
    let mut out = std::io::stdout().lock();
    let mut expanded = 0;
    // IDA* holds only its path, so memory needs no budget; --max-boards, if given, caps its expansions.
    let ida_limits = args.budget.max_boards.map_or(Limits::NONE, |max_states| Limits { max_states });
    for file in &args.files {
        let start = read_grid(file)?;
        let goal = goal_for(&start, goal)?;
        let (moves, stats) = match solver.solve(&start, &goal, ida_limits) {
            Ok(answer) => answer,
            Err(e @ SolveError::GaveUp { .. }) => return Err(GaveUp(format!("`{}`: {e}", file.display())).into()),
            Err(e) => return Err(e).with_context(|| format!("failed to solve `{}`", file.display())),
        };
        expanded += stats.expanded;
        let line = match (&moves, args.optimal) {
            (None, false) => "No solution possible".to_string(),
            (Some(m), false) => move_string(m),
            (None, true) => format!("{}: No solution possible", file.display()),
            (Some(m), true) => format!("{}: {} moves {}", file.display(), m.len(), move_string(m)),
        };
        writeln!(out, "{line}")?;
    }
    if args.optimal {
        let seconds = started.elapsed().as_secs_f64();
        eprintln!("solved {} puzzles in {seconds:.2} s, {expanded} positions expanded", args.files.len());
    }
    Ok(ExitCode::SUCCESS)
}

/// Where the pattern databases are cached: `--pdb-cache`, or the user's cache directory
/// (`$XDG_CACHE_HOME/npuzzle-solver`, `~/.cache/npuzzle-solver`), or the system's temporary directory where
/// neither can be written.
fn cache_dir(args: &SolveArgs) -> Result<PathBuf> {
    if let Some(dir) = &args.pdb_cache {
        std::fs::create_dir_all(dir).with_context(|| format!("failed to create the cache `{}`", dir.display()))?;
        return Ok(dir.clone());
    }
    let user = reference::toolkit::pdb::default_cache_dir();
    let writable = |dir: &Path| std::fs::create_dir_all(dir).is_ok() && tempfile_in(dir);
    Ok(user.filter(|d| writable(d)).unwrap_or_else(|| std::env::temp_dir().join("npuzzle-solver")))
}

/// Whether a file can be created in `dir`.
fn tempfile_in(dir: &Path) -> bool {
    let probe = dir.join(format!(".probe{}", std::process::id()));
    let ok = std::fs::write(&probe, b"").is_ok();
    let _ = std::fs::remove_file(&probe);
    ok
}

/// `solver compare`.
pub fn compare(args: &CompareArgs) -> Result<ExitCode> {
    let pairs = match (&args.file, args.random) {
        (Some(file), _) => {
            let start = read_grid(file)?;
            let goal = args.goal.as_deref().map(read_grid).transpose()?;
            let goal = goal_for(&start, goal.as_ref())?;
            if !start.can_reach(&goal) {
                println!("No solution possible");
                return Ok(ExitCode::SUCCESS);
            }
            vec![(start, goal)]
        }
        (None, Some(count)) => {
            if args.goal.is_some() {
                bail!("--goal goes with FILE; --random boards aim at the standard goal");
            }
            random_pairs(parse_shape(&args.size)?, count, args.seed)?
        }
        (None, None) => bail!("give a FILE or --random N"),
    };
    let rows = compare_all(&pairs, toolkit_limits(&args.budget))?;
    print!("{}", render(&rows));
    Ok(ExitCode::SUCCESS)
}

/// `3x4` → 3 rows, 4 columns.
fn parse_shape(text: &str) -> Result<Shape> {
    let parsed = text.split_once(['x', 'X']).and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    let Some((rows, cols)) = parsed else { bail!("--size `{text}` is not ROWSxCOLS (e.g. 3x3)") };
    Ok(Shape { rows, cols })
}
