//! Building a Rust submission: the grader's own wrapper binary around the student's code, offline, in
//! three sandboxed cargo [`step`]s, so that no step that compiles a student's source
//! sees a source of the grader's:
//!
//! 1. **The API** (`link`, the API workspace): cargo builds the grader's `npuzzle` alone.
//! 2. **The student's crate** (`scratch`): `cargo rustc --lib` builds the student's `src/` as the library
//!    `student`, with `--extern npuzzle=` the rlib of step 1. Its view: the student's scratch crate and its
//!    own target directory (writable), that one rlib, the toolchain, and the vendored crates only when the
//!    policy let the student bring dependencies. No harness, no reference, nothing else of the grader's
//!    tree: a `#[path]` or an `include_str!` that names a grader file finds nothing there.
//! 3. **The link** (`link`, the link workspace): `cargo rustc --bin` builds the wrapper binary, which links
//!    the student's library (`--extern student=`) with `npuzzle-harness` and `reference`. Its view has the
//!    grader's crates and the student's compiled library, never the student's sources; the build checks
//!    that this step found step 1's `npuzzle` fresh, so both sides share one compiled `npuzzle`.
//!
//! The student's `Cargo.toml` is read only for its dependencies, so a crate copied anywhere builds, and
//! grades, exactly as one inside this repository.
//!
//! The grader's crates and their dependencies compile once per machine into one shared target directory
//! under the grader's work directory (`rust/target`, written by steps 1 and 3 alone, which run nothing of a
//! student's); a student's crate builds in a target directory of its own (`rust/ws-KEY/target`), which costs
//! nothing more since `npuzzle` comes compiled: each submission costs its own crate and a link. The
//! dependencies a policy may let a student bring, build scripts included, build there in step 2, and step 3
//! finds them there (`-L dependency=`); no other submission's build reads that directory.

use std::ffi::OsString;
use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use super::link::{self, ApiCrate};
use super::scratch::{Pinned, Scratch};
use super::step::{
    cpu_cap_line, run_step, step, stopped_at_cpu_cap, timed_out_log, BuildError, BuildLimits, Launch, Prepared,
};
use crate::policy::RustBuild;
use crate::runner::spec::ProcessSpec;
use crate::runner::tool::ToolOutput;

/// Builds the Cargo project at `dir` in release mode; `work` holds the workspaces and the caches.
pub fn build_cargo(dir: &Path, work: &Path, policy: &RustBuild, limits: &BuildLimits) -> Result<Prepared, BuildError> {
    let pinned = Pinned::locate(work).map_err(BuildError::GraderCrates)?;
    let scratch = match Scratch::read(dir, policy) {
        Ok(scratch) => scratch,
        Err(log) => return Ok(Prepared::CompileFailed { log }),
    };
    let cache = work.join("rust");
    let shared_target = cache.join("target");
    let api = build_api(&cache, &shared_target, &pinned, limits)?;
    let key = scratch.key(&api);
    let ws = cache.join(format!("ws-{key}"));
    // One grader at a time per workspace: two may grade the same submission at once (a batch, the tests).
    let _lock = lock(&cache.join(format!("ws-{key}.lock"))).map_err(scratch_error)?;
    let student = match build_student(&scratch, &key, &ws, &api, &pinned, limits)? {
        Built::Ok(student) => student,
        Built::Failed(log) => return Ok(Prepared::CompileFailed { log }),
    };
    match build_wrapper(&key, &ws, &shared_target, (&student, scratch.has_dependencies()), &api, &pinned, limits)? {
        Built::Ok(program) => Ok(Prepared::Ready(Box::new(Launch::native(program)))),
        Built::Failed(log) => Ok(Prepared::CompileFailed { log }),
    }
}

/// What a step that may fail by the student's doing built: its artifact, or the log the student reads.
enum Built {
    Ok(PathBuf),
    Failed(String),
}

/// Step 1: the grader's `npuzzle`, built in the API workspace into the shared target directory. Any failure
/// is the grader's.
fn build_api(
    cache: &Path,
    shared_target: &Path,
    pinned: &Pinned,
    limits: &BuildLimits,
) -> Result<ApiCrate, BuildError> {
    let ws = link::api_workspace(cache, pinned);
    std::fs::create_dir_all(&ws).map_err(scratch_error)?;
    let _lock = lock(&ws.with_extension("lock")).map_err(scratch_error)?;
    link::write_api_workspace(&ws, pinned).map_err(scratch_error)?;
    // The API package itself, not `-p npuzzle`: cargo reports (and uplifts) a package asked for by name at
    // `target/release/`, a file every location of the grader's crates shares; a dependency stays in `deps/`.
    let mut spec = cargo(&["build", "--lib"], &ws, shared_target, limits)?;
    for shown in pinned.view() {
        spec = spec.read_only(shown);
    }
    let output = run_step(&spec, limits, "cargo")?;
    let failed = |why: &str| BuildError::GraderCrates(format!("{why}\n{}", output.combined()));
    if output.timed_out {
        return Err(failed(&format!("npuzzle did not build within {} s", limits.wall.as_secs_f64())));
    }
    let rlib = artifact(&output, "npuzzle").and_then(|built| built.rlib());
    let rlib = rlib.ok_or_else(|| failed("npuzzle did not build"))?;
    ApiCrate::read(rlib).map_err(|e| failed(&format!("its rlib cannot be read: {e}")))
}

/// Step 2: the student's crate, as the library `student` compiled against `api`; its rlib.
fn build_student(
    scratch: &Scratch,
    key: &str,
    ws: &Path,
    api: &ApiCrate,
    pinned: &Pinned,
    limits: &BuildLimits,
) -> Result<Built, BuildError> {
    let crate_dir = ws.join("student");
    scratch.write(&crate_dir, key, pinned).map_err(scratch_error)?;
    let extern_npuzzle = extern_arg("npuzzle", &api.rlib);
    let mut spec = cargo(&["rustc", "--lib"], &crate_dir, &ws.join("target"), limits)?
        .args([OsString::from("--"), extern_npuzzle])
        .read_only(&api.rlib);
    if let Some(vendor) = pinned.vendor().filter(|_| scratch.has_dependencies()) {
        spec = spec.read_only(vendor);
    }
    let output = run_step(&spec, limits, "cargo")?;
    Ok(match artifact(&output, "student").and_then(|built| built.rlib()) {
        Some(rlib) if output.success() => Built::Ok(rlib),
        _ => {
            let mut log = student_log(&output, key, limits);
            if scratch.has_lib() {
                log.push_str(LIB_NOT_READ);
            }
            Built::Failed(log)
        }
    })
}

/// Step 3: the wrapper binary, built into the shared target directory (where step 1 left `npuzzle`), linking
/// the student's library (its rlib, and whether it has dependencies of its own) with the harness; the
/// executable.
fn build_wrapper(
    key: &str,
    ws: &Path,
    shared_target: &Path,
    (student, with_dependencies): (&Path, bool),
    api: &ApiCrate,
    pinned: &Pinned,
    limits: &BuildLimits,
) -> Result<Built, BuildError> {
    let link_dir = ws.join("link");
    let library = link::fingerprint(student).map_err(scratch_error)?;
    link::write_link_workspace(&link_dir, key, pinned, library).map_err(scratch_error)?;
    let binary = link::binary(key);
    let student_deps = student.parent().expect("an rlib is in a folder");
    let mut spec = cargo(&["rustc", "--bin", &binary], &link_dir, shared_target, limits)?
        .args([OsString::from("--"), extern_arg("student", student)])
        .read_only(student);
    // The student's own dependencies, compiled in step 2 beside their library.
    if with_dependencies {
        spec = spec.args([OsString::from("-L"), dependency_dir(student_deps)]).read_only(student_deps);
    }
    for shown in pinned.view() {
        spec = spec.read_only(shown);
    }
    let output = run_step(&spec, limits, "cargo")?;
    if !output.success() {
        return Ok(Built::Failed(student_log(&output, key, limits)));
    }
    let shared =
        artifact(&output, "npuzzle").is_some_and(|built| built.fresh && built.rlib().as_ref() == Some(&api.rlib));
    if !shared {
        return Err(BuildError::GraderCrates(format!(
            "the wrapper was not linked with the npuzzle the student's crate was compiled against ({}): did the \
             grader's crates change during the build? Grade again.",
            api.rlib.display()
        )));
    }
    Ok(match artifact(&output, &binary).and_then(|built| built.executable) {
        Some(program) => Built::Ok(program),
        None => Built::Failed("the grader's wrapper built no executable".into()),
    })
}

/// Whether cargo says a `rustc` it started was stopped by the kernel at the step's CPU cap: "process didn't
/// exit successfully: `rustc …` (signal: 24)" (`SIGXCPU`; cargo itself then ends with an error code).
fn lost_a_rustc_to_its_cpu_cap(output: &ToolOutput) -> bool {
    String::from_utf8_lossy(&output.stderr).contains(&format!("(signal: {})", libc::SIGXCPU))
}

/// What a student reads of a failed step: cargo's messages, their package named as they know it.
fn student_log(output: &ToolOutput, key: &str, limits: &BuildLimits) -> String {
    let log = match output.timed_out {
        true => timed_out_log(limits, output),
        false => {
            let stopped = stopped_at_cpu_cap(output) || lost_a_rustc_to_its_cpu_cap(output);
            let first = if stopped { cpu_cap_line(limits) } else { String::new() };
            first + &String::from_utf8_lossy(&output.stderr)
        }
    };
    let mut log = log.replace(&format!("student-{key}"), "student").replace(&link::binary(key), "submission");
    if log.contains("error: couldn't read `") {
        log.push_str(OUTSIDE_SRC);
    }
    log
}

/// What a student reads below a file the compiler could not read: a crate is built from its `src/` alone.
const OUTSIDE_SRC: &str = "\nnote: the grader compiles your crate with nothing but its own src/ in view: a file named \
    by `#[path]`, `include_str!` or `include_bytes!` must be inside src/ (a relative path from the file that names it)\n";

/// What a student whose crate has a `src/lib.rs` reads below a failed build: a `use` of their own library
/// crate from main.rs cannot resolve, and nothing else says why.
const LIB_NOT_READ: &str = "\nnote: the grader builds your crate from src/main.rs and the modules it declares \
    (`mod board; mod solver;`, as the starter does), as a library of its own: src/lib.rs is not read, so main.rs \
    cannot `use` your crate's library by its name; move the `mod` lines into main.rs\n";

/// `nice -n 10 cargo ARGS --release --offline --message-format=json-render-diagnostics --quiet --target-dir
/// TARGET` as a build step in `ws`: `ws` and `target` writable, `RUSTUP_HOME` and of `CARGO_HOME` its `bin/`
/// (the toolchain's proxies) and `registry/` (crates.io sources) read-only, never the rest (a
/// `credentials.toml`). Add what else the step sees.
///
/// At a lower CPU priority (`nice -n 10`): a build must not starve a submission being graded meanwhile (a
/// batch, the project's tests), whose wall-clock safety net would otherwise fire before its CPU limit.
fn cargo(args: &[&str], ws: &Path, target: &Path, limits: &BuildLimits) -> Result<ProcessSpec, BuildError> {
    std::fs::create_dir_all(target).map_err(|source| BuildError::Tool { tool: "cargo".into(), source })?;
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
        .args(args)
        .args(["--release", "--offline", "--message-format=json-render-diagnostics", "--quiet"])
        .args([std::ffi::OsStr::new("--target-dir"), target.as_os_str()])
        .env("CARGO_HOME", &cargo_home)
        .env("RUSTUP_HOME", &rustup_home)
        .env("CARGO_NET_OFFLINE", "true")
        .read_only(cargo_home.join("bin"))
        .read_only(cargo_home.join("registry"))
        .read_only(rustup_home)
        .writable(ws)
        .writable(target);
    if let Some(rustc) = rustc {
        spec = spec.env("RUSTC", rustc);
    }
    if let Some(toolchain) = std::env::var_os("RUSTUP_TOOLCHAIN") {
        spec = spec.env("RUSTUP_TOOLCHAIN", toolchain);
    }
    spec.cwd = Some(ws.to_owned());
    Ok(spec)
}

/// rustc's `--extern NAME=PATH`, one argument.
fn extern_arg(name: &str, rlib: &Path) -> OsString {
    let mut arg = OsString::from(format!("--extern={name}="));
    arg.push(rlib);
    arg
}

/// rustc's `dependency=DIR` for `-L`: where the crates a library depends on are found.
fn dependency_dir(dir: &Path) -> OsString {
    let mut arg = OsString::from("dependency=");
    arg.push(dir);
    arg
}

fn scratch_error(source: std::io::Error) -> BuildError {
    BuildError::Tool { tool: "the scratch workspace".into(), source }
}

/// An exclusive lock on `path`, held until the file is dropped.
fn lock(path: &Path) -> std::io::Result<File> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let file = File::options().create(true).truncate(false).write(true).open(path)?;
    // SAFETY: flock on a descriptor this function owns; no memory is passed.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(file)
}

/// What cargo reported building for one target (`compiler-artifact` in its JSON messages).
#[derive(Debug, PartialEq)]
struct Artifact {
    filenames: Vec<PathBuf>,
    executable: Option<PathBuf>,
    /// Whether cargo found it up to date (built by an earlier step or run).
    fresh: bool,
}

impl Artifact {
    fn rlib(&self) -> Option<PathBuf> {
        self.filenames.iter().find(|file| file.extension().is_some_and(|ext| ext == "rlib")).cloned()
    }
}

/// The artifact of the target named `name` in a step's JSON messages.
fn artifact(output: &ToolOutput, name: &str) -> Option<Artifact> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|msg| msg["reason"] == "compiler-artifact" && msg["target"]["name"] == name)
        .map(|msg| Artifact {
            filenames: msg["filenames"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|f| f.as_str())
                .map(PathBuf::from)
                .collect(),
            executable: msg["executable"].as_str().map(PathBuf::from),
            fresh: msg["fresh"].as_bool().unwrap_or(false),
        })
        .next_back()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::spec::Termination;

    fn output(stdout: &str, stderr: &str) -> ToolOutput {
        let (stdout, stderr) = (stdout.as_bytes().to_vec(), stderr.as_bytes().to_vec());
        ToolOutput { status: Termination::Code(101), stdout, stderr, timed_out: false }
    }

    #[test]
    fn artifacts_are_read_from_cargos_messages() {
        let json = r#"{"reason":"compiler-artifact","target":{"name":"npuzzle"},"filenames":["/t/deps/libnpuzzle-1.rmeta","/t/deps/libnpuzzle-1.rlib"],"executable":null,"fresh":true}
warning: not a message
{"reason":"build-finished","success":true}
{"reason":"compiler-artifact","target":{"name":"submission-k"},"filenames":["/t/submission-k"],"executable":"/t/submission-k","fresh":false}"#;
        let built = output(json, "");
        let npuzzle = artifact(&built, "npuzzle").unwrap();
        assert_eq!((npuzzle.rlib(), npuzzle.fresh), (Some(PathBuf::from("/t/deps/libnpuzzle-1.rlib")), true));
        let wrapper = artifact(&built, "submission-k").unwrap();
        assert_eq!((wrapper.executable, wrapper.fresh), (Some(PathBuf::from("/t/submission-k")), false));
        assert_eq!(wrapper.filenames.len(), 1);
        assert_eq!(artifact(&built, "student"), None);
    }

    /// A `rustc` the kernel stopped at the CPU cap: the log says why first; a `rustc` killed otherwise does not.
    #[test]
    fn a_rustc_stopped_at_the_cpu_cap_heads_the_log_with_why() {
        let lost = |signal: &str| {
            format!("error: could not compile `student-k` (lib)\nCaused by:\n  process didn't exit successfully: `rustc --crate-name student` ({signal})\n")
        };
        let log = student_log(&output("", &lost("signal: 24")), "k", &BuildLimits::default());
        assert!(log.starts_with("a process of the build used more than 120 s of CPU time and was stopped"), "{log}");
        assert!(log.ends_with("`rustc --crate-name student` (signal: 24)\n"), "cargo's words follow: {log}");
        let log = student_log(&output("", &lost("signal: 9, SIGKILL: kill")), "k", &BuildLimits::default());
        assert!(log.starts_with("error: could not compile `student`"), "{log}");
    }

    #[test]
    fn a_student_reads_their_package_by_its_name_and_why_a_file_outside_src_is_missing() {
        let stderr = "error: couldn't read `/x/reference/src/solver.rs`: No such file or directory (os error 2)\n\
                      error: could not compile `student-k` (lib) due to 1 previous error\n\
                      error: could not compile `submission-k` (bin \"submission-k\")\n";
        let log = student_log(&output("", stderr), "k", &BuildLimits::default());
        assert!(log.contains("could not compile `student` (lib)"), "{log}");
        assert!(log.contains("could not compile `submission` (bin \"submission\")"), "{log}");
        assert!(log.ends_with(OUTSIDE_SRC), "{log}");
        let plain = student_log(&output("", "error[E0308]: mismatched types\n"), "k", &BuildLimits::default());
        assert!(!plain.contains("in view"), "the note only where a file could not be read: {plain}");
    }
}
