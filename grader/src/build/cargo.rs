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

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use super::scratch::{Pinned, Scratch};
use super::{BuildError, Launch, Prepared};
use crate::policy::RustBuild;

/// Builds the Cargo project at `dir` in release mode; `work` holds the scratch workspaces and the cache.
pub fn build_cargo(dir: &Path, work: &Path, policy: &RustBuild) -> Result<Prepared, BuildError> {
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
    let output = run_cargo(&ws, &target)?;
    if !output.status.success() {
        // The package's name carries the cache key; the student knows their crate as `student`.
        let log = String::from_utf8_lossy(&output.stderr).replace(&format!("student-{}", scratch.key), "student");
        return Ok(Prepared::CompileFailed { log });
    }
    match executable_built(&String::from_utf8_lossy(&output.stdout), &scratch.binary()) {
        Some(program) => Ok(Prepared::Ready(Launch { program, args: vec![], env: vec![], address_space_limit: true })),
        None => Ok(Prepared::CompileFailed { log: "the grader's wrapper built no executable".into() }),
    }
}

/// The one place the grader runs cargo: `cargo build --release --offline` of the scratch workspace `ws`.
///
/// At a lower CPU priority (nice 10): a build must not starve a submission being graded meanwhile (a batch,
/// the project's tests), whose wall-clock safety net would otherwise fire before its CPU limit.
fn run_cargo(ws: &Path, target: &Path) -> Result<Output, BuildError> {
    use std::os::unix::process::CommandExt;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(&cargo);
    // SAFETY: setpriority is async-signal-safe and touches no memory of the parent; its failure (a
    // priority the kernel refuses) leaves the build at normal priority, which is harmless.
    unsafe {
        command.pre_exec(|| {
            libc::setpriority(libc::PRIO_PROCESS, 0, 10);
            Ok(())
        });
    }
    command
        .args(["build", "--workspace", "--release", "--offline", "--message-format=json-render-diagnostics", "--quiet"])
        .arg("--target-dir")
        .arg(target)
        .current_dir(ws)
        .output()
        .map_err(|source| BuildError::Tool { tool: "cargo".into(), source })
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
