//! What an installed `grader` tells a shell and `man` about itself, generated from the clap definitions so
//! it never drifts from `--help`: completion scripts (`clap_complete`) and manual pages (`clap_mangen`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::output::write_to_reader;

/// Arguments of `grader completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `grader man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write grader.1 and a page per command (grader-grade.1, …) into this directory.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// `grader completions SHELL`: the script on standard output.
pub fn run_completions(command: clap::Command, args: &CompletionsArgs) -> Result<ExitCode> {
    completions(command, args.shell, &mut std::io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

/// `grader man [--dir DIR]`: the main page on standard output, or every page into DIR.
pub fn run_man(command: clap::Command, args: &ManArgs) -> Result<ExitCode> {
    match &args.dir {
        Some(dir) => write_pages(command, dir)?,
        None => page(command, &mut std::io::stdout().lock())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// Writes `command`'s completion script for `shell`. Made whole first: `clap_complete` panics when a write
/// fails, and a reader that stops early (`grader completions bash | grep -q _grader`) fails the next write.
pub fn completions(mut command: clap::Command, shell: clap_complete::Shell, out: &mut dyn Write) -> Result<()> {
    let name = command.get_name().to_string();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, name, &mut script);
    write_to_reader(out, &script).context("failed to write the completion script")
}

/// Writes `command`'s manual page (section 1).
pub fn page(command: clap::Command, out: &mut dyn Write) -> Result<()> {
    let mut text = Vec::new();
    clap_mangen::Man::new(command).render(&mut text).context("failed to render the manual page")?;
    write_to_reader(out, &text).context("failed to write the manual page")
}

/// Writes `NAME.1` and a page per subcommand (`NAME-SUB.1`) into `dir`, creating it.
pub fn write_pages(command: clap::Command, dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("failed to create `{}`", dir.display()))?;
    let name = command.get_name().to_string();
    let command = command.bin_name(&name);
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let page_name = format!("{name}-{}", sub.get_name());
        let sub = sub.clone().name(page_name.clone()).bin_name(format!("{name} {}", sub.get_name()));
        write_page(sub, &dir.join(format!("{page_name}.1")))?;
    }
    write_page(command, &dir.join(format!("{name}.1")))
}

fn write_page(command: clap::Command, path: &Path) -> Result<()> {
    let mut bytes = Vec::new();
    page(command, &mut bytes)?;
    crate::output::write_atomically(path, bytes).with_context(|| format!("failed to write `{}`", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that has gone: every write fails as a closed pipe does.
    struct Gone;

    impl Write for Gone {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_reader_that_stops_early_is_no_failure_and_no_panic() {
        let command = || clap::Command::new("grader").subcommand(clap::Command::new("grade"));
        completions(command(), clap_complete::Shell::Bash, &mut Gone).unwrap();
        page(command(), &mut Gone).unwrap();
    }
}
