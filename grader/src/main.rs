//! `grader`: parse the arguments, run, map the result to a documented exit code (see `cli`).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = grader::cli::Cli::parse();
    match grader::cli::run(cli) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("grader: {error:#}");
            ExitCode::from(2)
        }
    }
}
