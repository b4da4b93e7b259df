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
//! # Cost
//! One more `clone` than a plain spawn (the init), about twenty mount calls, and the namespaces' creation;
//! all of it once per process start, none per request.

mod cgroup;
mod child;
mod seccomp;

use std::ffi::{CString, OsStr, OsString};
use std::fs;
use std::io::{self, Read};
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use self::cgroup::Groups;
use self::child::{Become, Plan, Resource, Step};
use super::spec::{Identity, ProcessSpec, Termination};
use super::unix;

/// The system directories every sandbox sees read-only (a symbolic link among them is copied as one).
const SYSTEM: &[&str] = &["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/// What of `/etc` a sandbox sees: what the dynamic linker, name lookups and the JDK read (a JDK's
/// `/etc/java-*` directories too). Not the rest: a build runs as root, which could read `/etc/shadow` or
/// a credentials file there.
const ETC: &[&str] = &[
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "passwd",
    "group",
    "nsswitch.conf",
    "host.conf",
    "hosts",
    "localtime",
    "timezone",
    "alternatives",
    "os-release",
    "mime.types",
];
/// Devices bound into `/dev`.
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom"];
/// Where unprivileged uids start; each sandbox takes the next one.
const FIRST_UID: u32 = 1_500_000_000;

/// What the kernel allowed, found once per run.
#[derive(Debug)]
struct Layers {
    namespaces: bool,
    root: bool,
    pids: bool,
    memory: bool,
    /// The seccomp filter, when the kernel takes it.
    seccomp: Option<Vec<libc::sock_filter>>,
}

fn layers() -> &'static Layers {
    static LAYERS: OnceLock<Layers> = OnceLock::new();
    LAYERS.get_or_init(|| {
        let root = rustix::process::geteuid().is_root();
        let namespaces = child::probe(NAMESPACES);
        if let Err(e) = &namespaces {
            missing("namespaces (filesystem view, PID, network)", &e.to_string());
        }
        if !root {
            missing("an unprivileged uid and RLIMIT_NPROC", "the grader does not run as root");
        }
        // An instructor (or a test) can see what holds where the kernel refuses control groups.
        let refused = std::env::var_os(WITHOUT_CGROUPS).is_some();
        let (pids, memory) = (!refused && Groups::available("pids"), !refused && Groups::available("memory"));
        let why = |controller: &str| match refused {
            true => format!("turned off by {WITHOUT_CGROUPS}"),
            false => format!("no cgroup v1 `{controller}` controller"),
        };
        if !pids {
            missing("the pids control group (process limit of builds)", &why("pids"));
        }
        if !memory {
            missing("the memory control group (memory limits)", &why("memory"));
        }
        let seccomp = seccomp::program().filter(|filter| child::probe_filter(filter));
        if seccomp.is_none() {
            missing("seccomp filter (a stopped submission counts as its own time-out)", "the kernel refused it");
        }
        Layers { namespaces: namespaces.is_ok(), root, pids, memory, seccomp }
    })
}

/// The variable that makes the sandbox run without control groups, as on a machine that refuses them.
pub const WITHOUT_CGROUPS: &str = "GRADER_SANDBOX_WITHOUT_CGROUPS";

/// Whether every sandbox's memory is bounded by a memory control group (else a runtime without an
/// address-space limit of its own needs one).
pub fn memory_groups() -> bool {
    layers().memory
}

/// Whether sandboxed programs cannot stop themselves (the seccomp layer holds), so a stopped one was stopped
/// from outside.
pub(super) fn stops_are_refused() -> bool {
    layers().seccomp.is_some()
}

fn missing(layer: &str, why: &str) {
    eprintln!("grader: sandbox: no {layer}: {why}; submissions run without it");
}

const NAMESPACES: libc::c_int =
    libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWNET | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;

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
    /// The sandbox's processes below its init as the last walk found them, and the readings since.
    processes: std::cell::RefCell<(Vec<u32>, u32)>,
}

/// How many CPU-time readings reuse one walk of the sandbox's processes: a walk reads a file per thread of
/// each (a JVM has twenty), a reading a file per process. A process started since the last walk is found by
/// the next, at most this many polls later.
pub(super) const READINGS_PER_WALK: u32 = 5;

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
        let mut total = unix::process_cpu_time(self.init)?;
        let mut processes = self.processes.borrow_mut();
        if processes.1.is_multiple_of(READINGS_PER_WALK) {
            processes.0 = descendants(self.init);
        }
        processes.1 += 1;
        total += processes.0.iter().filter_map(|&pid| unix::process_cpu_time(pid)).sum::<std::time::Duration>();
        Some(total)
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

/// Every live descendant of `init`, each after its parent.
fn descendants(init: u32) -> Vec<u32> {
    let mut found = unix::children(init);
    let mut next = 0;
    // a bound far above `limits.processes`, in case the kernel lists something odd
    while next < found.len() && found.len() < 4096 {
        let below = unix::children(found[next]);
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
    let mut sandbox = Sandbox { init, program: None, status, groups, ended: None, processes: Default::default() };
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

/// Who a sandbox's program becomes. A run: a uid of its own. A build: root without capabilities, which
/// writes root-owned caches and sees only its view; but where there is no mount namespace (a container
/// without `CAP_SYS_ADMIN`, as on Gradescope) it would see every file, and as root read them all (an
/// `include_str!` of the fixtures), so it becomes [`BUILD_UID`] and owns what it writes instead.
fn identity(root: bool, namespaces: bool, wanted: Identity) -> Become {
    match (root, wanted) {
        (false, _) => Become::Unchanged,
        (true, Identity::Unprivileged) => Become::User(next_uid()),
        (true, Identity::CaplessRoot) if !namespaces => Become::User(BUILD_UID),
        (true, Identity::CaplessRoot) => Become::CaplessSelf,
    }
}

/// The one uid of builds where there is no mount namespace, below the runs' ([`FIRST_UID`]).
const BUILD_UID: u32 = FIRST_UID - 1;

/// Makes `uid` own the tree at `path` (a build's writable directory that another builder owns), changing
/// only what it does not own yet.
fn give_tree(path: &Path, uid: u32) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::symlink_metadata(path)?;
    if meta.uid() != uid {
        std::os::unix::fs::lchown(path, Some(uid), Some(uid))?;
    }
    if meta.is_dir() {
        for entry in fs::read_dir(path)? {
            give_tree(&entry?.path(), uid)?;
        }
    }
    Ok(())
}

fn next_uid() -> u32 {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    // distinct across concurrent graders (by pid) and across this grader's sandboxes (by counter)
    let slot = (std::process::id() % 50_000) * 10_000 + NEXT.fetch_add(1, Ordering::Relaxed) % 10_000;
    FIRST_UID + slot % 500_000_000
}

fn c_string(text: impl AsRef<OsStr>) -> io::Result<CString> {
    CString::new(text.as_ref().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a path or argument contains a NUL byte"))
}

/// The directory every sandbox's root is mounted on (in its own mount namespace, so all can share it).
fn root_dir() -> io::Result<&'static Path> {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    if let Some(root) = ROOT.get() {
        return Ok(root);
    }
    let dir = std::env::temp_dir().join(format!("npuzzle-sandbox-root-{}", rustix::process::geteuid().as_raw()));
    fs::create_dir_all(&dir)?;
    Ok(ROOT.get_or_init(|| dir))
}

/// The steps that build the view of `spec` under the root directory, for a program that becomes `who`.
fn root_plan(spec: &ProcessSpec, program: &Path, scratch: &Path, who: Become) -> io::Result<(CString, Vec<Step>)> {
    let root = root_dir()?;
    let mut view = ViewBuilder { root, steps: Vec::new(), made: Vec::new() };
    for dir in SYSTEM {
        view.system(Path::new(dir))?;
    }
    view.dir(Path::new("/etc"))?;
    for entry in etc_entries() {
        view.system(entry)?;
    }
    view.dir(Path::new("/dev"))?;
    for device in DEVICES {
        let path = Path::new("/dev").join(device);
        if path.exists() {
            view.bind(&path, true, true)?;
        }
    }
    for (name, target) in [
        ("fd", "/proc/self/fd"),
        ("stdin", "/proc/self/fd/0"),
        ("stdout", "/proc/self/fd/1"),
        ("stderr", "/proc/self/fd/2"),
    ] {
        view.steps.push(Step::Symlink { target: c_string(target)?, at: view.inside(&Path::new("/dev").join(name))? });
    }
    view.dir(Path::new("/proc"))?;
    // hidepid=2: a process sees only the processes of its own uid (and never its init, which keeps the
    // grader's credentials); the init's command line is blanked as well
    view.steps.push(Step::Proc(view.inside(Path::new("/proc"))?));
    view.dir(Path::new("/tmp"))?;
    view.steps.push(Step::Tmpfs { at: view.inside(Path::new("/tmp"))?, options: c_string("size=16m,mode=1777")? });
    let mut binds: Vec<(PathBuf, bool)> = Vec::new();
    binds.push((program.to_owned(), false));
    binds.extend(spec.view.read_only.iter().map(|p| (p.clone(), false)));
    binds.extend(spec.view.writable.iter().map(|p| (p.clone(), true)));
    if let Some(cwd) = &spec.cwd {
        binds.push((cwd.clone(), false));
    }
    let mut binds: Vec<(PathBuf, bool)> =
        binds.into_iter().filter_map(|(path, writable)| Some((fs::canonicalize(&path).ok()?, writable))).collect();
    binds.sort();
    let mut kept: Vec<(PathBuf, bool)> = Vec::new();
    for (path, writable) in binds {
        // a path inside another of the same kind is visible already
        if !kept.iter().any(|(outer, w)| *w == writable && path.starts_with(outer)) {
            kept.push((path, writable));
        }
    }
    for (path, writable) in &kept {
        if *writable || !SYSTEM.iter().any(|dir| path.starts_with(dir)) {
            view.bind(path, *writable, false)?;
        }
    }
    // the scratch directory last, over whatever holds its path: a tmpfs of its own, owned by the program
    let scratch = fs::canonicalize(scratch)?;
    view.dir(&scratch)?;
    let owner = match who {
        Become::User(uid) => format!(",uid={uid},gid={uid}"),
        Become::CaplessSelf | Become::Unchanged => String::new(),
    };
    let size = spec.limits.scratch.map(|bytes| format!(",size={bytes}")).unwrap_or_default();
    view.steps.push(Step::Tmpfs { at: view.inside(&scratch)?, options: c_string(format!("mode=0700{owner}{size}"))? });
    Ok((c_string(root.as_os_str())?, view.steps))
}

/// The `/etc` entries a sandbox sees ([`ETC`] and `java*`), those that exist, found once.
fn etc_entries() -> &'static [PathBuf] {
    static ENTRIES: OnceLock<Vec<PathBuf>> = OnceLock::new();
    ENTRIES.get_or_init(find_etc_entries)
}

fn find_etc_entries() -> Vec<PathBuf> {
    let java = fs::read_dir("/etc")
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.file_name().as_bytes().starts_with(b"java"))
                .map(|entry| entry.path())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let mut entries: Vec<PathBuf> = ETC.iter().map(|name| Path::new("/etc").join(name)).chain(java).collect();
    entries.retain(|entry| fs::symlink_metadata(entry).is_ok());
    entries.sort();
    entries.dedup();
    entries
}

/// Collects the steps of a view, creating each mount point's parents once.
struct ViewBuilder<'a> {
    root: &'a Path,
    steps: Vec<Step>,
    made: Vec<PathBuf>,
}

impl ViewBuilder<'_> {
    fn inside(&self, path: &Path) -> io::Result<CString> {
        c_string(self.root.join(path.strip_prefix("/").unwrap_or(path)).as_os_str())
    }

    fn dir(&mut self, path: &Path) -> io::Result<()> {
        for ancestor in path.ancestors().collect::<Vec<_>>().into_iter().rev().skip(1) {
            if !self.made.iter().any(|made| made == ancestor) {
                self.steps.push(Step::Dir(self.inside(ancestor)?));
                self.made.push(ancestor.to_owned());
            }
        }
        Ok(())
    }

    fn system(&mut self, path: &Path) -> io::Result<()> {
        match fs::symlink_metadata(path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(path)?;
                self.steps.push(Step::Symlink { target: c_string(target.as_os_str())?, at: self.inside(path)? });
                Ok(())
            }
            Ok(_) => self.bind(path, false, false),
            Err(_) => Ok(()),
        }
    }

    fn bind(&mut self, path: &Path, writable: bool, dev: bool) -> io::Result<()> {
        if let Some(parent) = path.parent() {
            self.dir(parent)?;
        }
        let at = self.inside(path)?;
        if path.is_dir() {
            self.steps.push(Step::Dir(at.clone()));
            self.made.push(path.to_owned());
        } else {
            self.steps.push(Step::File(at.clone()));
        }
        self.steps.push(Step::Bind { source: c_string(path.as_os_str())?, at, writable, dev });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without a mount namespace a build sees every file: it must not do so as root.
    #[test]
    fn a_build_without_namespaces_becomes_the_build_uid() {
        assert!(matches!(identity(true, true, Identity::CaplessRoot), Become::CaplessSelf));
        assert!(matches!(identity(true, false, Identity::CaplessRoot), Become::User(BUILD_UID)));
        assert!(matches!(identity(true, false, Identity::Unprivileged), Become::User(uid) if uid >= FIRST_UID));
        assert!(matches!(identity(false, false, Identity::CaplessRoot), Become::Unchanged));
    }

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

    #[test]
    fn every_sandbox_has_a_uid_of_its_own() {
        assert_ne!(next_uid(), next_uid());
    }
}
