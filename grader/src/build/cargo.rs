//! Building a Rust submission: `cargo build --release` in its directory, then the one binary it produced.
//!
//! Cargo's JSON messages name the executable, so a crate named anything, inside a workspace or not, is found
//! without guessing paths. Compiler errors come back as the rendered diagnostics a student would see.
//!
//! The build is one sandboxed [`step`](super::step) ([`cargo_step`] says what it sees): offline, the
//! crate's workspace and this grader's own source tree (for a `reference` path dependency) read-only, the
//! toolchain (`CARGO_HOME`, `RUSTUP_HOME`) read-only, the target directory writable.

use std::path::{Path, PathBuf};

use super::{BuildError, BuildLimits, Launch, Prepared};
use crate::runner::process::ProcessSpec;

/// Builds the Cargo project at `dir` in release mode.
pub fn build_cargo(dir: &Path, limits: &BuildLimits) -> Result<Prepared, BuildError> {
    let dir = std::fs::canonicalize(dir)
        .map_err(|source| BuildError::Tool { tool: format!("cargo (cannot resolve {})", dir.display()), source })?;
    let spec = cargo_step(&dir, limits, ["build", "--release", "--message-format=json-render-diagnostics", "--quiet"])
        .map_err(|source| BuildError::Tool { tool: "cargo".into(), source })?;
    let output = super::run_step(&spec, limits, "cargo")?;
    if output.timed_out {
        return Ok(Prepared::CompileFailed { log: super::timed_out_log(limits, &output) });
    }
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.success() {
        return Ok(Prepared::CompileFailed { log: String::from_utf8_lossy(&output.stderr).into_owned() });
    }
    let executables = executables_built(&stdout, &dir);
    match executables.as_slice() {
        [program] => Ok(Prepared::Ready(Launch {
            program: program.clone(),
            args: vec![],
            env: vec![],
            address_space_limit: true,
            read_only: vec![],
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

/// The sandboxed `cargo ARGS` for the crate at `dir` (canonical): the one way this grader runs cargo.
///
/// It sees, read-only, the crate's workspace (the nearest ancestor whose `Cargo.toml` has a `[workspace]`
/// table, or the crate), this grader's source tree when it exists (a submission's `reference` path
/// dependency), `CARGO_HOME` and `RUSTUP_HOME`; writable, the target directory (`CARGO_TARGET_DIR` or the
/// workspace's `target/`, made if missing). It runs offline.
pub fn cargo_step<I, S>(dir: &Path, limits: &BuildLimits, args: I) -> std::io::Result<ProcessSpec>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let workspace = workspace_root(dir);
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace.join("target"));
    std::fs::create_dir_all(&target)?;
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let cargo_home = std::env::var_os("CARGO_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".cargo"));
    let rustup_home = std::env::var_os("RUSTUP_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".rustup"));
    let mut spec = super::step(PathBuf::from(cargo), limits)
        .args(args)
        .env("CARGO_HOME", &cargo_home)
        .env("RUSTUP_HOME", &rustup_home)
        .env("CARGO_NET_OFFLINE", "true")
        .env("CARGO_TARGET_DIR", &target)
        .read_only(dir)
        .read_only(&workspace)
        .read_only(cargo_home)
        .read_only(rustup_home)
        .writable(target);
    if let Some(toolchain) = std::env::var_os("RUSTUP_TOOLCHAIN") {
        spec = spec.env("RUSTUP_TOOLCHAIN", toolchain);
    }
    let grader_source = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if grader_source.join("reference").is_dir() {
        spec = spec.read_only(grader_source);
    }
    spec.cwd = Some(dir.to_owned());
    Ok(spec)
}

/// The nearest ancestor of `dir` (itself included) whose manifest declares a workspace, else `dir`.
fn workspace_root(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|candidate| {
            std::fs::read_to_string(candidate.join("Cargo.toml"))
                .ok()
                .and_then(|text| text.parse::<toml::Table>().ok())
                .is_some_and(|manifest| manifest.contains_key("workspace"))
        })
        .unwrap_or(dir)
        .to_owned()
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
