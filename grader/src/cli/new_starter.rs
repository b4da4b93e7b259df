//! `grader new LANGUAGE DIR`: the command around [`crate::starter`], which owns what a starter holds.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

/// Arguments of `grader new`.
#[derive(Debug, clap::Args)]
pub struct NewArgs {
    /// The submission's language.
    #[arg(value_enum)]
    pub language: crate::starter::Language,
    /// Where to write it (a new or empty folder).
    pub dir: PathBuf,
}

/// Writes the starter and says on standard error what was written and how to run it.
pub fn run(args: &NewArgs) -> Result<ExitCode> {
    let written = crate::starter::write(args.language, &args.dir)?;
    eprintln!("{written}");
    Ok(ExitCode::SUCCESS)
}
