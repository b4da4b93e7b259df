//! The sandbox every submission process runs in, builds included: what it sees, who it is, what it may
//! use, and that nothing it starts outlives it.
//!
//! # Layers
//! - **Filesystem view** (a mount namespace): a read-only tmpfs root holding read-only binds of the system's
//!   toolchain directories (`/usr`, `/bin`, `/lib*`, and of `/etc` what the linker, name lookups and the
//!   JDK read: never `/etc/shadow`), the few devices a program uses, a private
//!   `/proc`, a small `/tmp`, the paths of the spec's [`View`](super::spec::View) (read-only or writable) and the process's
//!   fresh scratch directory (writable: its working directory, `HOME` and `TMPDIR`; a tmpfs of the spec's
//!   `scratch` size, mounted at the host directory's path, so nothing it writes reaches the host's disk and
//!   its pages count against the memory group). Nothing else of the
//!   grader's: no fixtures, no policy, no report paths, no other student's folder. Paths keep their names,
//!   so a command line needs no rewriting. No bind honours set-uid bits.
//! - **PID namespace**: the sandbox's own init (see `child.rs`) starts the program and, when it ends, exits,
//!   and the kernel kills every process left in the namespace, `setsid` or not; the grader reaps only the
//!   init. Its `/proc` shows the sandbox's processes alone, so no grader command line can be read.
//! - **Network, IPC and UTS namespaces**: no interface but a down loopback.
//! - **Identity**: a run becomes an unprivileged uid of its own (when the grader is root), so
//!   `RLIMIT_NPROC` counts this sandbox's processes and threads alone; a build stays root (it writes
//!   root-owned caches) without any capability, its process count left to the `pids` control group,
//!   except without a mount namespace, where it becomes one unprivileged build uid owning what it writes.
//! - **Limits**: the spec's rlimits (address space, CPU, file size, no core files, `RLIMIT_NPROC`), a
//!   `pids` control group where `RLIMIT_NPROC` cannot count the sandbox alone (builds, or a grader that is
//!   not root) and a `memory` one when the spec asks (see `cgroup.rs`).
//! - **System calls**: a seccomp filter refuses the signals that would stop a process (`seccomp.rs`), so a
//!   stopped program was stopped from outside.
//!
//! The grader probes the kernel once per run; a layer it refuses is named on stderr once and the sandbox
//! goes on without it (without namespaces a program still runs in its own session, with its rlimits).
//!
//! # Files
//! This file starts a sandbox and is the grader's handle on it (`Sandbox`: kill, exit, CPU, memory). The
//! layers the kernel allows are probed in `layers.rs`, the filesystem view is planned in `view.rs`, who the
//! program becomes in `identity.rs`; `child.rs` is the init that carries it all out, with `cgroup.rs` and
//! `seccomp.rs`.
//!
//! # Cost
//! One more `clone` than a plain spawn (the init), about forty mount calls (44 for a Rust run, counted with
//! `strace -f -e trace=mount`: binds and their read-only remounts), and the namespaces' creation;
//! all of it once per process start, none per request.

mod cgroup;
mod child;
mod identity;
mod layers;
mod seccomp;
mod view;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};

use self::cgroup::Groups;
use self::child::{Become, Plan, Resource};
use self::identity::{give_tree, identity};
pub(super) use self::layers::stops_are_refused;
use self::layers::{layers, missing, NAMESPACES};
pub use self::layers::{memory_groups, WITHOUT_CGROUPS};
use self::view::{c_string, root_plan};
use super::spec::{Identity, ProcessSpec, Termination};
use super::unix;

/// A started sandbox: its init (the process the grader reaps), the program's pid if it still runs, and the
/// grader's ends of the program's streams.
#[derive(Debug)]
pub(super) struct Started {
    pub sandbox: Sandbox,
    pub stdin: Option<OwnedFd>,
    pub stdout: OwnedFd,
    pub stderr: OwnedFd,
}

/// The grader's handle on a sandbox's processes.
#[derive(Debug)]
pub(super) struct Sandbox {
    init: u32,
    program: Option<u32>,
    status: OwnedFd,
    groups: Option<Groups>,
    /// How the program ended, once known.
    ended: Option<Termination>,
    /// The init's CPU clock, kept open (`None` if it could not be opened: the sandbox's CPU is then unknown).
    init_clock: Option<unix::ProcessClock>,
    /// The sandbox's processes below its init as the last walk found them.
    processes: std::cell::RefCell<Walked>,
}

/// What the last walk of a sandbox's processes found, kept open for the readings until the next.
#[derive(Debug, Default)]
struct Walked {
    /// The CPU clocks of the processes below the init.
    clocks: unix::ProcessClocks,
    /// The children lists of the init and of every process below it.
    offspring: Vec<unix::Offspring>,
    /// CPU readings since the sandbox started.
    readings: u32,
}

/// How many CPU-time readings reuse one walk of the sandbox's processes: a walk reads a file per thread of
/// each (a JVM has twenty), a reading one file per process (`unix::ProcessClocks`; the files stay open). A
/// process started since the last walk is found by the next, at most this many polls later.
pub(super) const READINGS_PER_WALK: u32 = 5;

/// How many `/proc` files a sandbox keeps open between walks (its processes' clocks and their threads'
/// children lists): a JVM needs about twenty-five. Past it, a file is opened again at each reading, so a
/// program of many threads or processes cannot use up the grader's file descriptors.
const KEPT_FILES: usize = 64;

impl Sandbox {
    /// The init's pid, which is also the sandbox's process group and session.
    pub(super) fn pid(&self) -> u32 {
        self.init
    }

    /// The program's pid in the grader's namespace, if it was still running when the sandbox started.
    pub(super) fn program(&self) -> Option<u32> {
        self.program
    }

    /// Kills every process of the sandbox: its init, whose end takes its PID namespace down; without one,
    /// the session and a group the program may have made its own.
    pub(super) fn kill(&self) {
        let _ = unix::kill_group(self.init);
        // With a PID namespace the program's pid may already belong to another process: leave it alone.
        if let (Some(program), false) = (self.program, layers().namespaces) {
            let _ = unix::kill_group(program);
        }
    }

    /// How the program ended, once the init has (without reaping it); `block` waits for that.
    pub(super) fn peek_exit(&mut self, block: bool) -> io::Result<Option<Termination>> {
        if self.ended.is_some() {
            return Ok(self.ended);
        }
        let Some(init) = unix::peek_exit(self.init, block)? else { return Ok(None) };
        let mut status = [0u8; 4];
        let mut pipe = fs::File::from(self.status.try_clone()?);
        self.ended = Some(match pipe.read(&mut status) {
            Ok(4) => decode(i32::from_ne_bytes(status)),
            // killed before the program ended (the grader's kill, or it died with the grader)
            _ => init,
        });
        Ok(self.ended)
    }

    /// Reaps the init; every other process of the sandbox is gone once it is.
    pub(super) fn reap(&mut self) {
        unix::reap(self.init);
        self.groups = None;
    }

    /// CPU time used by every process of the sandbox: its init and every live descendant, each with the
    /// threads it has had (ended ones included) and the children it has reaped. The program's processes are
    /// found from the init down (every [`READINGS_PER_WALK`] readings), never by a name or an id they could
    /// choose. Each process is read after the one that may reap it: one reaped meanwhile is missed until the
    /// next reading (its time is then in its parent's), never counted twice.
    pub(super) fn cpu_time(&self) -> Option<std::time::Duration> {
        let init = self.init_clock.as_ref()?.read()?;
        let walked = &mut *self.processes.borrow_mut();
        let walk = walked.readings.is_multiple_of(READINGS_PER_WALK);
        walked.readings += 1;
        let below = if walk {
            let mut budget = KEPT_FILES;
            let pids = descendants(self.init, &mut walked.offspring, &mut budget);
            walked.clocks.found(pids, &mut budget)
        } else {
            walked.clocks.read()
        };
        Some(init + below)
    }

    /// Whether the kernel killed a process of the sandbox for passing its memory limit, and the peak memory
    /// of its processes, while its memory group lasts (until [`Sandbox::reap`]).
    pub(super) fn memory_record(&self) -> (bool, Option<u64>) {
        self.groups.as_ref().map_or((false, None), Groups::memory_record)
    }

    /// The grader's name for the program's thread `tid`, as the program knows it (its namespace's number).
    pub(super) fn thread(&self, tid: u32) -> Option<u32> {
        let program = self.program?;
        if !layers().namespaces {
            return Some(tid);
        }
        unix::global_tid(program, tid)
    }
}

/// Every live descendant of `init`, each after its parent. `offspring` holds the children lists of the last
/// walk (kept open, within `budget`) and, after, those of this one.
fn descendants(init: u32, offspring: &mut Vec<unix::Offspring>, budget: &mut usize) -> Vec<u32> {
    let mut kept = std::mem::take(offspring);
    let mut children_of = |pid: u32| {
        let at = kept.iter().position(|listed| listed.pid() == pid);
        let mut listed = at.map_or_else(|| unix::Offspring::new(pid), |at| kept.swap_remove(at));
        let children = listed.list(budget);
        offspring.push(listed);
        children
    };
    let mut found = children_of(init);
    let mut next = 0;
    // a bound far above `limits.processes`, in case the kernel lists something odd
    while next < found.len() && found.len() < 4096 {
        let below = children_of(found[next]);
        found.extend(below);
        next += 1;
    }
    found
}

fn decode(status: i32) -> Termination {
    if libc::WIFEXITED(status) {
        Termination::Code(libc::WEXITSTATUS(status))
    } else {
        Termination::Signal(libc::WTERMSIG(status))
    }
}

/// Starts `spec` in a new sandbox whose scratch directory is `scratch` (existing, empty), with its stdin
/// piped from the grader (or `/dev/null`), stdout and stderr piped to the grader.
pub(super) fn start(spec: &ProcessSpec, scratch: &Path, piped_stdin: bool) -> io::Result<Started> {
    let layers = layers();
    let program = resolve(&spec.program)?;
    let become_ = identity(layers.root, layers.namespaces, spec.identity);
    if let Become::User(uid) = become_ {
        rustix::fs::chown(scratch, Some(rustix::fs::Uid::from_raw(uid)), Some(rustix::fs::Gid::from_raw(uid)))?;
    }
    // A build owns what it writes: a cache written by the build uid (no namespaces) and later by a capless
    // root (namespaces), or the other way round, changes hands once.
    let builder = match become_ {
        Become::User(uid) => Some(uid),
        Become::CaplessSelf => Some(0),
        Become::Unchanged => None,
    };
    if let (Some(uid), Identity::CaplessRoot) = (builder, spec.identity) {
        for path in &spec.view.writable {
            if std::os::unix::fs::MetadataExt::uid(&fs::symlink_metadata(path)?) != uid {
                give_tree(path, uid)?;
            }
        }
    }
    let limits = &spec.limits;
    // A uid of its own makes RLIMIT_NPROC the process limit; a control group only where it cannot be (joining
    // a cgroup v1 group costs a few milliseconds, and a session may restart many times).
    let by_group = !matches!(become_, Become::User(_));
    let processes = limits.processes.filter(|_| layers.pids && by_group);
    let groups = match (processes, layers.memory.then_some(limits.memory).flatten()) {
        (None, None) => None,
        (processes, memory) => Groups::create(processes, memory)
            .map_err(|e| {
                static SAID: std::sync::Once = std::sync::Once::new();
                SAID.call_once(|| missing("control groups", &format!("creating one failed: {e}")));
            })
            .ok(),
    };
    let stdin = piped_stdin.then(pipe).transpose()?.map(|(read, write)| (write, read));
    let (stdout, stdout_child) = pipe()?;
    let (stderr, stderr_child) = pipe()?;
    let (error, error_child) = pipe()?;
    let (status, status_child) = pipe()?;
    let cwd = spec.cwd.clone().unwrap_or_else(|| scratch.to_owned());
    let plan = Plan {
        program: c_string(program.as_os_str())?,
        argv: std::iter::once(spec.program.as_os_str())
            .chain(spec.args.iter().map(OsString::as_os_str))
            .map(c_string)
            .collect::<io::Result<_>>()?,
        envp: environment(spec, scratch).iter().map(c_string).collect::<io::Result<_>>()?,
        cwd: c_string(cwd.as_os_str())?,
        root: if layers.namespaces { Some(root_plan(spec, &program, scratch, become_)?) } else { None },
        rlimits: rlimits(spec, become_),
        become_,
        cgroup_procs: groups.as_ref().map(Groups::procs).unwrap_or_default(),
        seccomp: layers.seccomp.clone(),
        die_with_parent: limits.die_with_grader,
        stdio: [
            stdin.as_ref().map(|(_, child)| child.as_raw_fd()),
            Some(stdout_child.as_raw_fd()),
            Some(stderr_child.as_raw_fd()),
        ],
        error_pipe: error_child.as_raw_fd(),
        status_pipe: status_child.as_raw_fd(),
        blank: *unix::argument_and_environment_areas(),
    };
    let flags = if layers.namespaces { NAMESPACES } else { 0 };
    let init = child::clone_init(flags, &plan)?;
    drop((plan, stdout_child, stderr_child, error_child, status_child));
    let stdin = stdin.map(|(grader, _child)| grader);
    let init_clock = unix::ProcessClock::open(init, &mut 1);
    let mut sandbox =
        Sandbox { init, program: None, status, groups, ended: None, init_clock, processes: Default::default() };
    if let Some(failure) = read_failure(error) {
        sandbox.kill();
        sandbox.reap();
        return Err(failure);
    }
    rustix::io::ioctl_fionbio(&sandbox.status, true)?;
    sandbox.program = unix::first_child(init);
    Ok(Started { sandbox, stdin, stdout, stderr })
}

/// `(read end, write end)`, both close-on-exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    Ok((read, write))
}

/// What the error pipe brought before it closed: nothing once the program `exec`ed.
fn read_failure(error: OwnedFd) -> Option<io::Error> {
    let mut report = [0u8; 8];
    let mut file = fs::File::from(error);
    let mut got = 0;
    while got < report.len() {
        match file.read(&mut report[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Some(e),
        }
    }
    if got < report.len() {
        return None;
    }
    let step = i32::from_ne_bytes(report[..4].try_into().unwrap_or_default()) as usize;
    let errno = io::Error::from_raw_os_error(i32::from_ne_bytes(report[4..].try_into().unwrap_or_default()));
    let what = child::FAILED_STEPS.get(step).copied().unwrap_or("starting");
    Some(io::Error::new(errno.kind(), format!("sandbox: {what} failed: {errno}")))
}

/// Whether `path` is a file with an execute bit set: what a `PATH` lookup accepts.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata().map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0).unwrap_or(false)
}

/// `program` as an absolute path: a bare name is looked up on `PATH`, a relative path from the grader's
/// directory.
fn resolve(program: &Path) -> io::Result<PathBuf> {
    if program.components().count() == 1 && !program.is_absolute() {
        let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
        return std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| is_executable(candidate))
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::NotFound,
                    format!("failed to start `{}`: not found on PATH", program.display()),
                )
            });
    }
    let absolute = std::path::absolute(program)?;
    if !absolute.exists() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("failed to start `{}`: no such file", program.display()),
        ));
    }
    Ok(absolute)
}

fn environment(spec: &ProcessSpec, scratch: &Path) -> Vec<OsString> {
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    let pair = |key: &str, value: &OsStr| {
        let mut entry = OsString::from(key);
        entry.push("=");
        entry.push(value);
        entry
    };
    let mut env = vec![
        pair("PATH", &path),
        pair("HOME", scratch.as_os_str()),
        pair("TMPDIR", scratch.as_os_str()),
        pair("LANG", OsStr::new("C.UTF-8")),
    ];
    env.extend(spec.env.iter().map(|(key, value)| pair(&key.to_string_lossy(), value)));
    env
}

fn rlimits(spec: &ProcessSpec, become_: Become) -> Vec<(Resource, u64)> {
    let limits = &spec.limits;
    let mut list = vec![(libc::RLIMIT_CORE as Resource, 0)];
    if let Some(bytes) = limits.address_space {
        list.push((libc::RLIMIT_AS as Resource, bytes));
    }
    if let Some(cpu) = limits.cpu {
        let seconds = cpu.as_secs() + u64::from(cpu.subsec_nanos() > 0);
        list.push((libc::RLIMIT_CPU as Resource, seconds.max(1)));
    }
    if let Some(bytes) = limits.file_size {
        list.push((libc::RLIMIT_FSIZE as Resource, bytes));
    }
    // RLIMIT_NPROC counts every process of the uid: meaningful only for a uid of the sandbox's own
    if let (Some(processes), Become::User(_)) = (limits.processes, become_) {
        list.push((libc::RLIMIT_NPROC as Resource, processes));
    }
    list
}

#[cfg(test)]
mod tests {
    use super::identity::FIRST_UID;
    use super::*;

    /// What `script` prints in a sandbox as `identity` (its stderr follows its stdout).
    fn sandboxed(script: &str, identity: Identity) -> String {
        let mut spec = ProcessSpec::new("/bin/sh").args(["-c", script]);
        spec.identity = identity;
        let scratch = tempfile::Builder::new().prefix("sandbox-test-").tempdir().unwrap();
        let mut started = start(&spec, scratch.path(), false).unwrap();
        let mut seen = String::new();
        fs::File::from(started.stdout).read_to_string(&mut seen).unwrap();
        fs::File::from(started.stderr).read_to_string(&mut seen).unwrap();
        let status = started.sandbox.peek_exit(true).unwrap();
        started.sandbox.kill();
        started.sandbox.reap();
        assert_eq!(status, Some(Termination::Code(0)), "{seen}");
        seen
    }

    #[test]
    fn a_sandbox_sees_the_system_and_its_scratch_directory_and_nothing_else() {
        let seen =
            sandboxed("ls /; echo; ls /tmp | wc -l; ls /etc/shadow /root /work 2>&1 | wc -l", Identity::Unprivileged);
        let (root, rest) = seen.split_once("\n\n").unwrap();
        let root: Vec<&str> = root.lines().filter(|entry| !entry.starts_with("lib")).collect();
        assert_eq!(root, ["bin", "dev", "etc", "proc", "sbin", "tmp", "usr"]);
        assert_eq!(rest, "1\n3\n", "/tmp holds the scratch directory alone; the rest is missing");
    }

    #[test]
    fn a_build_stays_root_without_capabilities_and_cannot_read_shadow_passwords() {
        let seen =
            sandboxed("id -u; grep CapEff /proc/self/status; cat /etc/shadow 2>&1 | wc -l", Identity::CaplessRoot);
        assert_eq!(seen, "0\nCapEff:\t0000000000000000\n1\n");
    }

    #[test]
    fn a_run_is_an_unprivileged_uid_that_sees_only_its_own_processes() {
        let script =
            "id -u; ls /proc | grep -cx 1; cat /proc/1/cmdline >/dev/null 2>&1 && echo readable || echo hidden";
        let seen = sandboxed(script, Identity::Unprivileged);
        let lines: Vec<&str> = seen.lines().collect();
        if layers().root {
            assert!(lines[0].parse::<u32>().unwrap() >= FIRST_UID, "{seen}");
        }
        // the init, pid 1, keeps the grader's credentials: hidden
        assert_eq!(lines[1..], ["0", "hidden"], "{seen}");
    }

    #[test]
    fn the_scratch_directory_is_a_tmpfs_of_its_own_size() {
        if !layers().namespaces {
            return;
        }
        let mut spec = ProcessSpec::new("/bin/sh")
            .args(["-c", "head -c 3000000 /dev/zero > \"$HOME/big\" 2>/dev/null; echo $?; stat -f -c %T \"$HOME\""]);
        spec.limits.scratch = Some(1 << 20);
        spec.limits.file_size = None;
        let scratch = tempfile::Builder::new().prefix("sandbox-test-").tempdir().unwrap();
        let mut started = start(&spec, scratch.path(), false).unwrap();
        let mut seen = String::new();
        fs::File::from(started.stdout).read_to_string(&mut seen).unwrap();
        started.sandbox.peek_exit(true).unwrap();
        started.sandbox.kill();
        started.sandbox.reap();
        assert_eq!(seen, "1\ntmpfs\n", "the write stops at the scratch's size");
        assert_eq!(fs::read_dir(scratch.path()).unwrap().count(), 0, "nothing reached the host's directory");
    }

    #[test]
    fn a_program_cannot_stop_itself() {
        if !stops_are_refused() {
            return;
        }
        let seen = sandboxed("kill -STOP $$ 2>/dev/null; echo $?; kill -CONT $$; echo $?", Identity::Unprivileged);
        assert_eq!(seen, "1\n0\n", "SIGSTOP is refused, other signals are not");
    }

    /// A program that made a user and mount namespace could mount a terminal of its own and stop itself by
    /// job control (the seccomp module's doc): namespaces and mounts are refused, with `EPERM`.
    #[test]
    fn a_program_cannot_make_a_namespace() {
        if !stops_are_refused() {
            return;
        }
        // each call's errno (0: it succeeded); a clone's child leaves at once
        let probe = r#"
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
unshare, clone, setns = {"x86_64": (272, 56, 308), "aarch64": (97, 220, 268)}[os.uname().machine]
def errno(result):
    return 0 if result != -1 else ctypes.get_errno()
print(errno(libc.syscall(unshare, 0x10000000)))
child = libc.syscall(clone, 0x10000000 | 17, 0, 0, 0, 0)
if child == 0:
    os._exit(0)
if child > 0:
    os.waitpid(child, 0)
print(errno(child))
print(errno(libc.syscall(setns, -1, 0)))
"#;
        let seen =
            sandboxed(&format!("unshare -U true 2>/dev/null; echo $?; python3 -c '{probe}'"), Identity::Unprivileged);
        assert_eq!(seen, "1\n1\n1\n1\n", "unshare(1), then unshare(2), clone and setns: EPERM each");
    }

    #[test]
    fn a_program_past_its_memory_group_is_killed_and_the_sandbox_says_so() {
        if !layers().memory {
            return;
        }
        let hog = "x=$(head -c 150000000 /dev/zero | tr '\\0' x); echo ${#x}";
        let mut spec = ProcessSpec::new("/bin/sh").args(["-c", hog]);
        spec.limits.memory = Some(64 << 20);
        let scratch = tempfile::Builder::new().prefix("sandbox-test-").tempdir().unwrap();
        let mut started = start(&spec, scratch.path(), false).unwrap();
        let mut seen = String::new();
        fs::File::from(started.stdout).read_to_string(&mut seen).unwrap();
        let status = started.sandbox.peek_exit(true).unwrap();
        let (killed, peak) = started.sandbox.memory_record();
        started.sandbox.kill();
        started.sandbox.reap();
        assert_eq!((status, killed, seen.as_str()), (Some(Termination::Signal(libc::SIGKILL)), true, ""));
        assert!(peak.is_some_and(|bytes| bytes > 60 << 20), "{peak:?}");
    }
}
