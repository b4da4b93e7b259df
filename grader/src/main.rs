//! `grader`: parse the arguments, run, map the result to a documented exit code (see `cli`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let (cli, matches) = grader::cli::parse();
    match grader::cli::run(cli, &matches) {
        Ok(code) => code,
        Err(error) => {
            eprintln!("grader: {}", grader::error_text::error_text(&error));
            ExitCode::from(2)
        }
    }
}
