//! Preparing a Python submission: the student's `board.py` and `solver.py` behind our adapter
//! (`adapters/python/`), and the `python3` command line that starts the protocol server over them.
//!
//! The adapter's sources are embedded in the grader binary and written once per source version into
//! `WORK/python-adapter-HASH/`. Nothing of the student's is copied: the server loads their files from the
//! submission folder (without writing bytecode there). Preparing checks the interpreter (Python 3.8 or later,
//! [`MINIMUM_VERSION`]) and compiles both files, so that a syntax error is the student's compilation result,
//! as javac's errors are for Java; only a missing or too old interpreter is the grader's error.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::step::{
    cpu_cap_line, link_refused, run_step, step, stopped_at_cpu_cap, timed_out_log, BuildLimits, Launch, MemoryBound,
    Prepared,
};
use crate::output;
use crate::runner::sandbox::is_executable;
use crate::runner::spec::{ProcessSpec, Termination};
use crate::runner::tool::ask_host;

use corpus::rng::StableHash;

/// Adapter sources written into the adapter directory: file name, text.
const ADAPTER_SOURCES: &[(&str, &str)] = &[
    ("server.py", include_str!("../../../adapters/python/server.py")),
    ("npuzzle_protocol.py", include_str!("../../../adapters/python/npuzzle_protocol.py")),
    ("npuzzle_student.py", include_str!("../../../adapters/python/npuzzle_student.py")),
    ("npuzzle_seal.py", include_str!("../../../adapters/python/npuzzle_seal.py")),
    ("npuzzle_counters.py", include_str!("../../../adapters/python/npuzzle_counters.py")),
    ("npuzzle_heapq.py", include_str!("../../../adapters/python/npuzzle_heapq.py")),
    ("algs4.py", include_str!("../../../adapters/python/algs4.py")),
    ("reference_board.py", include_str!("../../../adapters/python/reference_board.py")),
];

/// The files a Python submission consists of.
const STUDENT_FILES: [&str; 2] = ["board.py", "solver.py"];

/// The oldest Python the adapter runs on (`threading.get_native_id` is 3.8's).
pub const MINIMUM_VERSION: (u32, u32) = (3, 8);

/// Checks the interpreter's version and compiles the files named on its command line. Exit status 3 with
/// `version X.Y` on stdout: too old; 1: a file does not compile (the errors on stdout, and after a syntax
/// error the interpreter's version: a student who wrote Python 3.12's f-strings on their laptop reads why 3.11
/// refuses them); 0: ready.
const CHECK_SCRIPT: &str = r#"
import os, sys, traceback
if sys.version_info[:2] < (MAJOR, MINOR):
    print("version %d.%d" % sys.version_info[:2])
    sys.exit(3)
failed = syntax = False
for path in sys.argv[1:]:
    try:
        with open(path, "rb") as f:
            compile(f.read(), os.path.basename(path), "exec")
    except (SyntaxError, ValueError) as e:
        print("".join(traceback.format_exception_only(type(e), e)), end="")
        failed = True
        syntax = syntax or isinstance(e, SyntaxError)
if syntax:
    print("(compiled by Python %d.%d.%d: syntax that a later Python added is an error here)" % sys.version_info[:3])
sys.exit(1 if failed else 0)
"#;

/// The least address space the Python server is started with, in MB: the interpreter and the adapter take
/// about 35 MB, the request thread's stack (`STACK_BYTES` in `server.py`) reserves 64 MB, and at 90 MB it
/// cannot start (BENCHMARKS.md, "The thrashing row's heap, and a Solver that fills its memory"). 128 leaves the
/// student's code room to run; the policy's own floor (`java_heap_mb`, 64) is a JVM's.
pub const PYTHON_MIN_ADDRESS_SPACE_MB: u64 = 128;

/// Why a Python submission could not be prepared, for a reason that is not the student's.
#[derive(Debug, thiserror::Error)]
pub enum PythonBuildError {
    /// No `python3` on `PATH`.
    #[error("`python3` was not found on PATH: install Python {}.{} or later", MINIMUM_VERSION.0, MINIMUM_VERSION.1)]
    NotFound,
    /// The interpreter is older than [`MINIMUM_VERSION`].
    #[error("{program} is Python {found}; the Python adapter needs {}.{} or later", MINIMUM_VERSION.0, MINIMUM_VERSION.1)]
    TooOld {
        /// The interpreter's path.
        program: String,
        /// Its version, `MAJOR.MINOR`.
        found: String,
    },
    /// The policy's memory for a Python submission is less than the interpreter needs to start.
    #[error(
        "the policy gives a Python submission an address space of {0} MB (`limits.java_heap_mb`), and the \
         interpreter with its request thread's 64 MB stack takes about 100 MB before any student code runs: set \
         `limits.java_heap_mb` to {PYTHON_MIN_ADDRESS_SPACE_MB} or more (0 sizes it from the machine)"
    )]
    AddressSpaceTooSmall(u64),
    /// Running the interpreter, or writing the adapter's files, failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done, as the error message starts.
        what: String,
        /// The operating system's error, or the interpreter's output when it failed.
        source: io::Error,
    },
}

/// Prepares a Python submission folder (board.py + solver.py) and the adapter in `work`. The server caps
/// its own address space at `memory_mb` (the policy's JVM heap, sized from the machine: a Python search
/// holds its boards as objects of a few hundred bytes, closer to the JVM's needs than to a native
/// program's). Checking the files is a sandboxed build step under `limits`. Ready, it is the interpreter with
/// the server script and `--submission DIR`, a fixed hash seed (a student's sets and dicts of strings iterate
/// in the same order on every run), and the interpreter's installation, the adapter and the student's folder
/// to show read-only; no address-space limit from outside (the server sets its own).
pub fn build_python(
    submission: &Path,
    work: &Path,
    memory_mb: u64,
    limits: &BuildLimits,
) -> Result<Prepared, PythonBuildError> {
    if memory_mb < PYTHON_MIN_ADDRESS_SPACE_MB {
        return Err(PythonBuildError::AddressSpaceTooSmall(memory_mb));
    }
    let (python, installation) = find_python().ok_or(PythonBuildError::NotFound)?;
    // the sandboxes show paths at their own names, where a `..` cannot climb out of a folder they do not show
    let submission = fs::canonicalize(submission)
        .or_else(|_| std::path::absolute(submission))
        .unwrap_or_else(|_| submission.to_path_buf());
    for name in STUDENT_FILES {
        if let Some(log) = link_refused(&submission.join(name), name) {
            return Ok(Prepared::CompileFailed { log });
        }
        if !submission.join(name).is_file() {
            return Ok(Prepared::CompileFailed {
                log: format!("{name} is missing: a Python submission is the two files board.py and solver.py"),
            });
        }
    }
    let script =
        CHECK_SCRIPT.replace("MAJOR", &MINIMUM_VERSION.0.to_string()).replace("MINOR", &MINIMUM_VERSION.1.to_string());
    let mut check = step(&python, limits)
        .args(["-I", "-B", "-c", &script])
        .args(STUDENT_FILES.map(|name| submission.join(name)))
        .read_only(&submission);
    for dir in &installation {
        check = check.read_only(dir);
    }
    let output = run_step(&check, limits, "python3").map_err(|e| PythonBuildError::Io {
        what: format!("failed to run {}", python.display()),
        source: io::Error::other(e.to_string()),
    })?;
    if output.timed_out {
        return Ok(Prepared::CompileFailed { log: timed_out_log(limits, &output) });
    }
    if stopped_at_cpu_cap(&output) {
        return Ok(Prepared::CompileFailed { log: cpu_cap_line(limits) + &output.combined() });
    }
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    match output.status {
        Termination::Code(0) => {}
        Termination::Code(1) => return Ok(Prepared::CompileFailed { log: stdout }),
        Termination::Code(3) => {
            let found = stdout.trim().trim_start_matches("version ").to_string();
            return Err(PythonBuildError::TooOld { program: python.display().to_string(), found });
        }
        status => {
            let log = format!("{stdout}{}", String::from_utf8_lossy(&output.stderr));
            return Err(PythonBuildError::Io {
                what: format!("{} failed to check the submission ({status})", python.display()),
                source: io::Error::other(log.trim().to_string()),
            });
        }
    }
    let adapter = write_adapter(work)?;
    let args = vec![
        // no user site-packages, no bytecode written next to the student's files, UTF-8 everywhere
        "-s".into(),
        "-B".into(),
        "-X".into(),
        "utf8".into(),
        adapter.join("server.py").into_os_string(),
        "--submission".into(),
        submission.clone().into_os_string(),
        "--address-space-mb".into(),
        memory_mb.to_string().into(),
    ];
    // what the sandbox shows, read-only: the interpreter's installation, the adapter and the student's folder
    // One malloc arena: glibc reserves 64 MB of address space for each arena a thread contending for the
    // lock makes, so whether the server's threads met at a malloc decided what was left under its cap (at
    // the least cap, 128 MB, the request thread's 64 MB stack then could not be had: a start that failed now
    // and then). The interpreter's lock serializes its threads' allocations anyway.
    let mut process = ProcessSpec::new(python)
        .args(args)
        .env("PYTHONHASHSEED", "0")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .env("MALLOC_ARENA_MAX", "1");
    process.view.read_only = installation;
    process.view.read_only.extend([adapter, submission]);
    // the server caps its own address space: it fits one already
    Ok(Prepared::Ready(Box::new(Launch { process, memory: MemoryBound::Heap { fit: None }, notes: vec![] })))
}

/// Writes the embedded adapter into `work/python-adapter-HASH/` unless it is there already (written beside
/// it and renamed into place, so that two graders never see a half-written adapter).
fn write_adapter(work: &Path) -> Result<PathBuf, PythonBuildError> {
    let io_error = |what: String| move |source| PythonBuildError::Io { what, source };
    let mut hash = StableHash::default();
    for (name, text) in ADAPTER_SOURCES {
        hash.write_chunk(name.as_bytes());
        hash.write_chunk(text.as_bytes());
    }
    fs::create_dir_all(work).map_err(io_error(format!("cannot create the work directory {}", work.display())))?;
    let work = fs::canonicalize(work).map_err(io_error(format!("cannot resolve {}", work.display())))?;
    let dir = work.join(format!("python-adapter-{:016x}", hash.finish()));
    if output::is_published(&dir) {
        return Ok(dir);
    }
    let tmp =
        output::staging_dir(&dir).map_err(io_error(format!("cannot create a folder beside {}", dir.display())))?;
    for (name, text) in ADAPTER_SOURCES {
        fs::write(tmp.join(name), text).map_err(io_error(format!("cannot write {}", tmp.join(name).display())))?;
    }
    output::publish_dir(&tmp, &dir)
        .map_err(io_error(format!("cannot publish the Python adapter in {}", dir.display())))?;
    Ok(dir)
}

/// The first `python3` on `PATH`, as the interpreter itself (`sys.executable`: a version manager's shim
/// would need the manager inside the sandbox), with the directories its installation lives in
/// (`sys.base_prefix`, `sys.prefix`, the executable's folder).
fn find_python() -> Option<(PathBuf, Vec<PathBuf>)> {
    let path = std::env::var_os("PATH")?;
    let first = std::env::split_paths(&path)
        .map(|dir| dir.join("python3"))
        .find(|candidate| is_executable(candidate))
        .map(|candidate| std::path::absolute(&candidate).unwrap_or(candidate))?;
    let script = "import sys; print(sys.executable); print(sys.base_prefix); print(sys.prefix)";
    let asked = ask_host(&first, &["-I", "-c", script], Duration::from_secs(60)).ok().filter(|output| output.success());
    let Some(output) = asked else {
        return Some((first.clone(), first.parent().map(Path::to_path_buf).into_iter().collect()));
    };
    let lines: Vec<PathBuf> =
        String::from_utf8_lossy(&output.stdout).lines().filter(|l| !l.is_empty()).map(PathBuf::from).collect();
    let executable = lines.first().cloned().filter(|p| p.is_absolute()).unwrap_or(first);
    let mut installation: Vec<PathBuf> = lines.iter().skip(1).cloned().collect();
    installation.extend(executable.parent().map(Path::to_path_buf));
    installation.sort();
    installation.dedup();
    Some((executable, installation))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod outbox_tests;

#[cfg(test)]
mod unusual_tests;

#[cfg(test)]
mod exhaustion_tests;
