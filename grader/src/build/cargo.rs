//! Building a Rust submission: `cargo build --release` in its directory, then the one binary it produced.
//!
//! Cargo's JSON messages name the executable, so a crate named anything, inside a workspace or not, is found
//! without guessing paths. Compiler errors come back as the rendered diagnostics a student would see.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{BuildError, Launch, Prepared};

/// Builds the Cargo project at `dir` in release mode.
pub fn build_cargo(dir: &Path) -> Result<Prepared, BuildError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(&cargo)
        .args(["build", "--release", "--message-format=json-render-diagnostics", "--quiet"])
        .current_dir(dir)
        .output()
        .map_err(|source| BuildError::Tool { tool: "cargo".into(), source })?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Ok(Prepared::CompileFailed { log: String::from_utf8_lossy(&output.stderr).into_owned() });
    }
    let executables = executables_built(&stdout, dir);
    match executables.as_slice() {
        [program] => Ok(Prepared::Ready(Launch {
            program: program.clone(),
            args: vec![],
            env: vec![],
            address_space_limit: true,
        })),
        [] => Ok(Prepared::CompileFailed { log: "the crate built no executable: it needs a src/main.rs".into() }),
        many => Ok(Prepared::CompileFailed {
            log: format!(
                "the crate built {} executables ({}); a submission must build exactly one",
                many.len(),
                many.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
            ),
        }),
    }
}

/// Executables of the package in `dir` listed in cargo's JSON messages.
fn executables_built(json_lines: &str, dir: &Path) -> Vec<PathBuf> {
    let manifest = std::fs::canonicalize(dir.join("Cargo.toml")).unwrap_or_else(|_| dir.join("Cargo.toml"));
    let mut found: Vec<PathBuf> = json_lines
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact")
        .filter(|msg| msg["manifest_path"].as_str().map(Path::new) == Some(manifest.as_path()))
        .filter_map(|msg| msg["executable"].as_str().map(PathBuf::from))
        .collect();
    found.dedup();
    found
}
