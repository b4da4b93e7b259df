//! What every build shares, below the builders that use it: a build step's description and limits
//! ([`step`], [`BuildLimits`]), what a build yields ([`Prepared`], [`Launch`] and its [`MemoryBound`],
//! [`BuildError`]), and the rule that no link in a submission is followed ([`link_refused`]). It uses nothing
//! of `cargo`, `java`, `python`, `scratch` or the module above them, so `build/` has no cycle.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::policy;
use crate::runner::spec::{Identity, ProcessLimits, ProcessSpec, Termination};
use crate::runner::tool::{self, ToolOutput};

/// The limits of every build step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildLimits {
    /// Wall-clock time of one step.
    pub wall: Duration,
    /// CPU time of any one process of a step.
    pub cpu: Duration,
    /// Memory of one step's sandbox, in MB.
    pub memory_mb: u64,
    /// Processes and threads of one step's sandbox.
    pub processes: u64,
    /// Disk of one step, in MB: its scratch directory (a tmpfs), and the largest file it may write anywhere
    /// (its output directory included).
    pub disk_mb: u64,
}

impl BuildLimits {
    /// The policy's build limits.
    pub fn from_policy(limits: &policy::Limits) -> BuildLimits {
        BuildLimits {
            wall: Duration::from_secs_f64(limits.build_seconds),
            cpu: Duration::from_secs_f64(limits.build_cpu_seconds),
            memory_mb: limits.build_memory_mb,
            processes: limits.build_processes,
            disk_mb: limits.build_disk_mb,
        }
    }
}

impl Default for BuildLimits {
    fn default() -> Self {
        BuildLimits::from_policy(&policy::Limits::default())
    }
}

/// A build step running `program`: sandboxed as root without capabilities, with `limits`' memory, process
/// and disk caps, and its CPU cap for each of its processes (`RLIMIT_CPU`, which a process's children
/// inherit, each with a clock of its own). Add its arguments, environment, working directory and the paths
/// it reads ([`ProcessSpec::read_only`]) and writes ([`ProcessSpec::writable`]), then [`run_step`] it.
pub fn step(program: impl Into<PathBuf>, limits: &BuildLimits) -> ProcessSpec {
    let limits = ProcessLimits {
        cpu: Some(limits.cpu),
        processes: Some(limits.processes),
        memory: Some(limits.memory_mb << 20),
        scratch: Some(limits.disk_mb << 20),
        file_size: Some(limits.disk_mb << 20),
        ..ProcessLimits::default()
    };
    let mut spec = ProcessSpec::new(program).limits(limits);
    spec.identity = Identity::CaplessRoot;
    spec
}

/// Runs a build step to its end (or its time limit). `tool` names it in errors.
pub fn run_step(spec: &ProcessSpec, limits: &BuildLimits, tool: &str) -> Result<ToolOutput, BuildError> {
    tool::run_to_end(spec, limits.wall).map_err(|source| BuildError::Tool { tool: tool.into(), source })
}

/// What a student reads when a build step ran out of time, before its output.
pub fn timed_out_log(limits: &BuildLimits, output: &ToolOutput) -> String {
    format!(
        "the build did not finish within {} s and was stopped with everything it started (does a build \
         script wait for something, or leave a process behind?)\n{}",
        limits.wall.as_secs_f64(),
        output.combined()
    )
}

/// Whether the kernel stopped the step's own process at its CPU cap (`SIGXCPU`): javac's JVM, the Python
/// check. A process the step started and lost so is the step's to tell (cargo's words: `build::cargo`).
pub fn stopped_at_cpu_cap(output: &ToolOutput) -> bool {
    output.status == Termination::Signal(libc::SIGXCPU)
}

/// What a student reads first when a process of a build step used up its CPU cap and was stopped.
pub fn cpu_cap_line(limits: &BuildLimits) -> String {
    format!(
        "a process of the build used more than {} s of CPU time and was stopped (a constant evaluated at compile \
         time, or a build script, that does not end?)\n",
        limits.cpu.as_secs_f64()
    )
}

/// How to start a prepared submission: the process to run, and what only the build knows about it.
#[derive(Debug, Clone)]
pub struct Launch {
    /// The program (the submission's executable, the built wrapper, `java` or `python3`), its arguments, its
    /// environment beyond the sandbox's own few, and what it reads besides itself and the system directories
    /// (its view's read-only paths). Its limits, identity and working directory are the defaults: `grade`
    /// sets the policy's limits.
    pub process: ProcessSpec,
    /// How its memory is bounded.
    pub memory: MemoryBound,
    /// What the build changed in the submission that the student should know (a `package` line removed),
    /// shown at the top of the report.
    pub notes: Vec<String>,
}

impl Launch {
    /// A native program run as it is: no arguments, no environment of its own, under the address-space
    /// limit, reading nothing beyond itself.
    pub fn native(program: PathBuf) -> Launch {
        Launch { process: ProcessSpec::new(program), memory: MemoryBound::AddressSpace, notes: vec![] }
    }
}

/// The launches of a submission whose two worlds run in processes of their own (the Java adapter: the `own`
/// process never holds the reference Board, see `build::java`). Each names the runtime's own threads in its
/// handshake before any student code runs, so the grader believes its `runtime_threads=`.
#[derive(Debug, Clone)]
pub struct WorldLaunches {
    /// Serves the `own` world: the submission's Board and Solver.
    pub own: Launch,
    /// Serves the `ref` world: the reference Board under the submission's Solver.
    pub reference: Launch,
    /// Serves the re-run check's fresh `ref` processes (the same program, sized for the correctness tests'
    /// small searches).
    pub reference_rerun: Launch,
}

/// How a launched program's memory is bounded (`grade` turns it into limits with the policy's figures).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemoryBound {
    /// A native program: an address-space limit of the policy's memory and its slack, and a memory control
    /// group as large.
    AddressSpace,
    /// A runtime with a heap of its own (the JVM, the Python server): a memory control group of the heap and a
    /// margin for the runtime's own memory, and no address-space limit (the JVM reserves far more than it
    /// uses up front; the Python server caps its own).
    Heap {
        /// How the runtime fits an address-space limit after all (the JVM, its reservations bounded), for a
        /// machine where no memory control group bounds its native memory.
        fit: Option<AddressSpaceFit>,
    },
}

/// What a runtime needs to run under an address-space limit: options that bound what it reserves up front,
/// and how much address space those reservations take beyond its heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressSpaceFit {
    /// Arguments placed before the runtime's own.
    pub args: Vec<OsString>,
    /// Environment variables.
    pub env: Vec<(OsString, OsString)>,
    /// Address space its reservations take beyond the heap, in MB.
    pub reserved_mb: u64,
}

/// The result of preparing a submission.
#[derive(Debug, Clone)]
pub enum Prepared {
    /// One program serves both worlds. (The launches are boxed: a process description takes a few hundred
    /// bytes, which a `CompileFailed` need not carry.)
    Ready(Box<Launch>),
    /// A program for each world.
    PerWorld(Box<WorldLaunches>),
    /// The submission did not compile; the log is shown to the student.
    CompileFailed {
        /// The compiler's output, or why nothing was compiled (a missing or linked file).
        log: String,
    },
}

/// Why a submission could not even be looked at (the grader's or the user's problem, not the student's).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// Nothing usable at the path.
    #[error(
        "`{0}` is not a submission: expected an executable file, a Cargo project directory, a folder with \
         Board.java and Solver.java, or a folder with board.py and solver.py"
    )]
    NotASubmission(PathBuf),
    /// A tool the build needs is missing or failed to start.
    #[error("failed to run {tool}: {source} (is it installed and on PATH?)")]
    Tool {
        /// What was run, as the student's log names it (`cargo`, `the scratch workspace`).
        tool: String,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The grader's own Rust crates did not build, or not as one (its installation, not the student's code).
    #[error("failed to build the grader's own Rust crates (npuzzle, the harness, the reference): {0}")]
    GraderCrates(String),
    /// The Java build failed for a reason other than the student's code.
    #[error("failed to prepare the Java adapter: {0}")]
    Java(String),
    /// The Python interpreter is missing or too old, or the adapter could not be written.
    #[error("failed to prepare the Python adapter: {0}")]
    Python(String),
}

/// What a student reads when `shown` (a file of their submission, at `path`) is a symbolic link. The grader
/// reads a submission's files as itself, so it follows no link: one could reach the answers, or another
/// student's folder. `None` when `path` is not a link.
pub fn link_refused(path: &Path, shown: &str) -> Option<String> {
    let link = std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink());
    link.then(|| {
        format!(
            "{shown} is a symbolic link: the grader reads only regular files of a submission (copy the file \
             itself, e.g. with `cp -L`)"
        )
    })
}

/// The memory a submission's runtime is given, and how large the searches it will be asked for are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heap {
    /// The memory limit a JVM is started with (`-Xmx`), and a Python server's address space, in MB.
    pub mb: u64,
    /// The most boards the reference built in one solve the plan asks for (0 where unknown): a JVM's young
    /// generation is sized for it (`jvm`).
    pub largest_solve: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process of a build step that computes without end is stopped at the CPU cap, and the student reads
    /// why; its parent, which waited, goes on with a clock of its own (cargo, which reports the `rustc` it
    /// lost, or the step's shell here).
    #[test]
    fn a_build_process_that_computes_without_end_is_stopped_at_its_cpu_cap() {
        let limits = BuildLimits { cpu: Duration::from_secs(1), ..BuildLimits::default() };
        let script = "sh -c 'while :; do :; done'; echo \"the loop ended by $(kill -l $?)\"";
        let spec = step("/bin/sh", &limits).args(["-c", script]);
        let output = run_step(&spec, &limits, "sh").unwrap();
        assert!(!output.timed_out && output.status == Termination::Code(0), "{output:?}");
        assert_eq!(String::from_utf8_lossy(&output.stdout), "the loop ended by XCPU\n");
        assert!(!stopped_at_cpu_cap(&output), "the step's own process ended normally");
        let alone = run_step(&step("/bin/sh", &limits).args(["-c", "while :; do :; done"]), &limits, "sh").unwrap();
        assert!(stopped_at_cpu_cap(&alone) && !alone.timed_out, "{alone:?}");
        assert_eq!(
            cpu_cap_line(&limits),
            "a process of the build used more than 1 s of CPU time and was stopped (a constant evaluated at compile \
             time, or a build script, that does not end?)\n"
        );
    }

    /// A build step writes no file past `disk_mb`, in its writable target directory or its scratch: the write
    /// fails (`EFBIG`, or the tmpfs full) and the file stops at the limit.
    #[test]
    fn a_build_step_writes_no_file_past_its_disk_limit() {
        let target = tempfile::tempdir().unwrap();
        let limits = BuildLimits { disk_mb: 1, ..BuildLimits::default() };
        let script = "trap '' XFSZ; for dir in \"$0\" \"$HOME\"; do head -c 3000000 /dev/zero > \"$dir/big\" \
                      2>/dev/null; echo $?; done; wc -c < \"$0/big\"";
        let spec = step("/bin/sh", &limits).args(["-c", script]).args([target.path()]).writable(target.path());
        let output = run_step(&spec, &limits, "sh").unwrap();
        let shown = String::from_utf8_lossy(&output.stdout);
        assert_eq!(shown.split_whitespace().collect::<Vec<_>>(), ["1", "1", "1048576"], "{output:?}");
    }
}
