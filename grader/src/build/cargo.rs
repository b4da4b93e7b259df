//! Building a Rust submission: the grader's own wrapper binary around the student's code, in a scratch
//! workspace the grader controls (`scratch`), offline.
//!
//! The student's `src/` becomes a library that depends on the grader's `npuzzle` alone (the student crate
//! cannot name the harness, its counters or the answer key); a wrapper binary the grader writes links that
//! library with `npuzzle-harness`. The student's `Cargo.toml` is read only for its dependencies, so a crate
//! copied anywhere builds, and grades, exactly as one inside this repository.
//!
//! Builds share one target directory under the grader's work directory (`rust/target`), so the grader's
//! crates and their dependencies compile once per machine and each submission costs only its own crate and
//! a link. Sharing is safe because nothing a student controls runs at build time: no `build.rs`, no
//! dependencies of their choosing (no build scripts, no proc macros), and every submission's artifacts are
//! named after its own package path and key. When the policy lets a submission bring dependencies, it gets a
//! target directory of its own instead (slower: everything compiles again), since their build scripts could
//! otherwise tamper with what other submissions link.
//!
//! cargo runs as one sandboxed build [`step`](super::step::step): it sees the scratch workspace and the target
//! directory (writable), the grader's pinned crates (`npuzzle`, the harness, the reference they link, and
//! the vendored sources where the Gradescope zip has them) and the toolchain, read-only, and nothing else
//! of the grader's: not the fixtures, so not even an `include_str!` of an absolute path reaches the answers.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use super::scratch::{Pinned, Scratch};
use super::step::{run_step, step, timed_out_log, BuildError, BuildLimits, Launch, Prepared};
use crate::policy::RustBuild;
use crate::runner::tool::ToolOutput;

/// Builds the Cargo project at `dir` in release mode; `work` holds the scratch workspaces and the cache.
pub fn build_cargo(dir: &Path, work: &Path, policy: &RustBuild, limits: &BuildLimits) -> Result<Prepared, BuildError> {
    let pinned = Pinned::locate();
    let scratch = match Scratch::read(dir, policy, &pinned) {
        Ok(scratch) => scratch,
        Err(log) => return Ok(Prepared::CompileFailed { log }),
    };
    let cache = work.join("rust");
    let ws = cache.join(format!("ws-{}", scratch.key));
    let target = if scratch.needs_own_target() { ws.join("target") } else { cache.join("target") };
    let tool = |source| BuildError::Tool { tool: "the scratch workspace".into(), source };
    std::fs::create_dir_all(&ws).map_err(tool)?;
    // One grader at a time per workspace: two may grade the same submission at once (a batch, the tests).
    let _lock = lock(&cache.join(format!("ws-{}.lock", scratch.key))).map_err(tool)?;
    scratch.write(&ws, policy, &pinned).map_err(tool)?;
    let output = run_cargo(&ws, &target, &pinned, limits)?;
    if output.timed_out {
        return Ok(Prepared::CompileFailed { log: timed_out_log(limits, &output) });
    }
    if !output.success() {
        // The package's name carries the cache key; the student knows their crate as `student`.
        let log = String::from_utf8_lossy(&output.stderr).replace(&format!("student-{}", scratch.key), "student");
        return Ok(Prepared::CompileFailed { log });
    }
    match executable_built(&String::from_utf8_lossy(&output.stdout), &scratch.binary()) {
        Some(program) => Ok(Prepared::Ready(Launch {
            program,
            args: vec![],
            env: vec![],
            address_space_limit: true,
            read_only: vec![],
            address_space_fit: None,
        })),
        None => Ok(Prepared::CompileFailed { log: "the grader's wrapper built no executable".into() }),
    }
}

/// The one place the grader runs cargo: `cargo build --release --offline` of the scratch workspace `ws`, in
/// the sandbox, under the policy's build limits.
///
/// At a lower CPU priority (`nice -n 10`): a build must not starve a submission being graded meanwhile (a
/// batch, the project's tests), whose wall-clock safety net would otherwise fire before its CPU limit.
fn run_cargo(ws: &Path, target: &Path, pinned: &Pinned, limits: &BuildLimits) -> Result<ToolOutput, BuildError> {
    let tool = |source| BuildError::Tool { tool: "cargo".into(), source };
    std::fs::create_dir_all(target).map_err(tool)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    // cargo finds rustc on PATH, which in the sandbox may not hold the toolchain's proxies (an empty
    // CARGO_HOME, as on Gradescope): name the rustc beside this cargo when there is one.
    let rustc = std::env::var_os("RUSTC")
        .map(PathBuf::from)
        .or_else(|| Path::new(&cargo).parent().map(|dir| dir.join("rustc")).filter(|rustc| rustc.is_file()));
    let home = std::env::var_os("HOME").map(PathBuf::from).unwrap_or_default();
    let cargo_home = std::env::var_os("CARGO_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".cargo"));
    let rustup_home = std::env::var_os("RUSTUP_HOME").map(PathBuf::from).unwrap_or_else(|| home.join(".rustup"));
    let mut spec = step(PathBuf::from("/usr/bin/nice"), limits)
        .args(["-n".into(), "10".into(), cargo])
        .args(["build", "--workspace", "--release", "--offline", "--message-format=json-render-diagnostics", "--quiet"])
        .args([std::ffi::OsStr::new("--target-dir"), target.as_os_str()])
        .env("CARGO_HOME", &cargo_home)
        .env("RUSTUP_HOME", &rustup_home)
        .env("CARGO_NET_OFFLINE", "true")
        .read_only(cargo_home)
        .read_only(rustup_home)
        .writable(ws)
        .writable(target);
    for shown in pinned.view() {
        spec = spec.read_only(shown);
    }
    if let Some(rustc) = rustc {
        spec = spec.env("RUSTC", rustc);
    }
    if let Some(toolchain) = std::env::var_os("RUSTUP_TOOLCHAIN") {
        spec = spec.env("RUSTUP_TOOLCHAIN", toolchain);
    }
    spec.cwd = Some(ws.to_owned());
    run_step(&spec, limits, "cargo")
}

/// An exclusive lock on `path`, held until the file is dropped.
fn lock(path: &Path) -> std::io::Result<File> {
    let file = File::options().create(true).truncate(false).write(true).open(path)?;
    // SAFETY: flock on a descriptor this function owns; no memory is passed.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(file)
}

/// The executable named `binary` in cargo's JSON messages.
fn executable_built(json_lines: &str, binary: &str) -> Option<PathBuf> {
    json_lines
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact" && msg["target"]["name"] == binary)
        .find_map(|msg| msg["executable"].as_str().map(PathBuf::from))
}
