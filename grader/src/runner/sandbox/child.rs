//! The two processes a sandbox starts, and everything they do before the submission's program runs.
//!
//! The grader `clone`s a child into new namespaces. That child is the sandbox's init (pid 1 of its PID
//! namespace): it joins the control groups, builds the filesystem view and pivots into it, mounts a
//! private `/proc`, then starts the program as its own child (pid 2), which lowers its limits, drops to the
//! sandbox's identity, installs its seccomp filter (`seccomp.rs`) and `exec`s. The init stays behind, never `exec`s, reaps every orphan, and when the
//! program ends writes the program's wait status to the status pipe and exits, which makes the kernel kill
//! whatever else is left in the namespace, `setsid` or not. The program is not pid 1 itself because the
//! kernel shields a namespace's init from signals it has no handler for (a crash's `SIGABRT`, `SIGXCPU` at
//! the CPU limit), which would change how a submission is seen to end.
//!
//! Both run in a copy of a multi-threaded process, so between `clone` and `exec` they only make system
//! calls on memory prepared before the `clone` ([`Plan`]): no allocation, no locks. `rustix` makes the
//! mount, credential and `prctl` calls (it issues raw system calls, without libc's state); `libc` the few
//! that rustix leaves out (`clone`, `execve`, `dup2`, `_exit`). This file owns the sandbox's `unsafe`.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;

use rustix::mount::{self, MountFlags, MountPropagationFlags, UnmountFlags};
use rustix::thread::{self as rthread, CapabilitySet, CapabilitySets};

/// The type of a resource number for `getrlimit`/`setrlimit`.
#[cfg(target_env = "gnu")]
pub(super) type Resource = libc::__rlimit_resource_t;
#[cfg(not(target_env = "gnu"))]
pub(super) type Resource = libc::c_int;

/// One step of building the view, with paths already under the new root.
#[derive(Debug)]
pub(super) enum Step {
    /// `mkdir`; an existing directory is fine.
    Dir(CString),
    /// An empty file to bind a file onto.
    File(CString),
    /// A symbolic link `at` → `target`.
    Symlink { target: CString, at: CString },
    /// A bind mount, read-only unless `writable`, never honouring set-uid bits or devices but for `dev`.
    Bind { source: CString, at: CString, writable: bool, dev: bool },
    /// A fresh tmpfs with these options.
    Tmpfs { at: CString, options: CString },
    /// The PID namespace's own `/proc`.
    Proc(CString),
}

/// Who the program becomes before `exec`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Become {
    /// This uid and gid, with no supplementary groups (and so no capabilities).
    User(u32),
    /// The same uid, with every capability dropped.
    CaplessSelf,
    /// Nothing changes (the grader is not root).
    Unchanged,
}

/// Everything the two processes need, prepared before the `clone`.
#[derive(Debug)]
pub(super) struct Plan {
    pub program: CString,
    pub argv: Vec<CString>,
    pub envp: Vec<CString>,
    pub cwd: CString,
    /// Where the new root is built (an existing empty directory) and the steps that build it; `None`
    /// without a mount namespace.
    pub root: Option<(CString, Vec<Step>)>,
    /// `(resource, limit)` pairs applied to the program.
    pub rlimits: Vec<(Resource, u64)>,
    pub become_: Become,
    /// `cgroup.procs` files the init writes itself into.
    pub cgroup_procs: Vec<RawFd>,
    /// The seccomp filter the program runs under, if the kernel takes one.
    pub seccomp: Option<Vec<libc::sock_filter>>,
    pub die_with_parent: bool,
    /// stdin (or `/dev/null` when `None`), stdout and stderr for the program.
    pub stdio: [Option<RawFd>; 3],
    /// The write end of the error pipe (close-on-exec): a failing step writes `[step, errno]` to it.
    pub error_pipe: RawFd,
    /// The write end of the status pipe: the init writes the program's wait status to it.
    pub status_pipe: RawFd,
    /// Address ranges of the grader's command line and environment, which the init (a copy of the grader
    /// that never `exec`s) blanks so that its `/proc/1/cmdline` and `environ` tell nothing.
    pub blank: [(usize, usize); 2],
}

/// Where a child failed, reported through the error pipe.
pub(super) const FAILED_STEPS: &[&str] = &[
    "joining the control group",
    "starting a new session",
    "arming the parent-death signal",
    "making mounts private",
    "mounting the new root",
    "building the filesystem view",
    "making the new root read-only",
    "pivoting into the new root",
    "starting the program under the init",
    "redirecting standard streams",
    "lowering resource limits",
    "dropping privileges",
    "entering the working directory",
    "starting the program",
    "installing the seccomp filter",
];

/// `clone`s the init with `flags` (namespace flags; `SIGCHLD` is added) and returns its pid.
pub(super) fn clone_init(flags: libc::c_int, plan: &Plan) -> io::Result<u32> {
    let argv = pointers(&plan.argv);
    let envp = pointers(&plan.envp);
    // SAFETY: a clone without CLONE_VM or a new stack behaves like fork: the child gets a copy of this
    // address space and returns 0 here. It then runs `init`, which only makes system calls on `plan`,
    // `argv` and `envp` (allocated above) and never returns.
    let pid = unsafe { libc::syscall(libc::SYS_clone, libc::c_long::from(flags | libc::SIGCHLD), 0, 0, 0, 0) };
    match pid {
        -1 => Err(io::Error::last_os_error()),
        0 => init(plan, &argv, &envp),
        pid => Ok(pid as u32),
    }
}

/// Whether the kernel takes `filter` as a seccomp filter: clones a child that installs it and exits.
pub(super) fn probe_filter(filter: &[libc::sock_filter]) -> bool {
    // SAFETY: as in `clone_init`; the child only makes system calls on `filter`, allocated before.
    let pid = unsafe { libc::syscall(libc::SYS_clone, libc::c_long::from(libc::SIGCHLD), 0, 0, 0, 0) };
    match pid {
        -1 => false,
        0 => {
            // SAFETY: a plain prctl without pointers, then `_exit`.
            let privileged = unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) } != 0;
            let installed = !privileged && install_filter(filter).is_ok();
            // SAFETY: `_exit` is always safe to call.
            unsafe { libc::_exit(if installed { 0 } else { 1 }) }
        }
        pid => {
            let mut status = 0;
            // SAFETY: `status` is a valid out-pointer.
            unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
        }
    }
}

/// Installs `filter` as this thread's seccomp filter (`no_new_privs` must be set).
fn install_filter(filter: &[libc::sock_filter]) -> io::Result<()> {
    let program = libc::sock_fprog { len: filter.len() as libc::c_ushort, filter: filter.as_ptr().cast_mut() };
    let mode = libc::c_ulong::from(libc::SECCOMP_MODE_FILTER);
    // SAFETY: `program` points at `filter`, which outlives the call; the kernel copies the program.
    errno_result(unsafe { libc::prctl(libc::PR_SET_SECCOMP, mode, &program as *const libc::sock_fprog) } == 0)
}

/// Whether the kernel lets this process create the namespaces in `flags`: clones a child that exits at once.
pub(super) fn probe(flags: libc::c_int) -> io::Result<()> {
    // SAFETY: as in `clone_init`; the child only calls `_exit`.
    let pid = unsafe { libc::syscall(libc::SYS_clone, libc::c_long::from(flags | libc::SIGCHLD), 0, 0, 0, 0) };
    match pid {
        -1 => Err(io::Error::last_os_error()),
        // SAFETY: `_exit` is always safe to call.
        0 => unsafe { libc::_exit(0) },
        pid => {
            let mut status = 0;
            // SAFETY: `status` is a valid out-pointer.
            unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
            Ok(())
        }
    }
}

fn pointers(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings.iter().map(|s| s.as_ptr()).chain(std::iter::once(std::ptr::null())).collect()
}

/// Reports a failed step and exits; only in a child.
fn fail(plan: &Plan, step: usize, error: io::Error) -> ! {
    let errno = error.raw_os_error().unwrap_or(0);
    let report = [step as i32, errno];
    // SAFETY: writes 8 bytes from a live array, then exits without running any destructor.
    unsafe {
        libc::write(plan.error_pipe, report.as_ptr().cast(), std::mem::size_of_val(&report));
        libc::_exit(127)
    }
}

fn check(plan: &Plan, step: usize, result: io::Result<()>) {
    if let Err(error) = result {
        fail(plan, step, error);
    }
}

fn errno_result(ok: bool) -> io::Result<()> {
    if ok {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The sandbox's init: sets up the namespace, starts the program, reaps, reports, exits.
fn init(plan: &Plan, argv: &[*const libc::c_char], envp: &[*const libc::c_char]) -> ! {
    for &(start, end) in &plan.blank {
        if start != 0 && end > start {
            // SAFETY: the range is this process's own argument or environment area (from /proc/self/stat,
            // inherited from the grader by the clone), mapped and writable; nothing reads it afterwards.
            unsafe { std::ptr::write_bytes(start as *mut u8, 0, end - start) };
        }
    }
    for &fd in &plan.cgroup_procs {
        // SAFETY: writes two bytes from a static string.
        check(plan, 0, errno_result(unsafe { libc::write(fd, b"0\n".as_ptr().cast(), 2) } == 2));
    }
    // SAFETY: plain system calls without pointers.
    check(plan, 1, errno_result(unsafe { libc::setsid() } != -1));
    if plan.die_with_parent {
        // SAFETY: as above.
        check(plan, 2, errno_result(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) } == 0));
    }
    if let Some((root, steps)) = &plan.root {
        enter_view(plan, root, steps);
    }
    // SAFETY: a fork-like clone, as in `clone_init`; the child only runs `program`.
    let program = unsafe { libc::syscall(libc::SYS_clone, libc::c_long::from(libc::SIGCHLD), 0, 0, 0, 0) };
    match program {
        -1 => fail(plan, 8, io::Error::last_os_error()),
        0 => run_program(plan, argv, envp),
        pid => reap(plan, pid as libc::pid_t),
    }
}

/// Makes mounts private, builds the new root, pivots into it.
fn enter_view(plan: &Plan, root: &CString, steps: &[Step]) {
    check(
        plan,
        3,
        mount::mount_change(c"/", MountPropagationFlags::PRIVATE | MountPropagationFlags::REC).map_err(Into::into),
    );
    let quiet = MountFlags::NOSUID | MountFlags::NODEV;
    check(plan, 4, mount::mount(c"tmpfs", root.as_c_str(), c"tmpfs", quiet, c"size=1m,mode=0755").map_err(Into::into));
    for step in steps {
        check(plan, 5, do_step(step));
    }
    check(
        plan,
        6,
        mount::mount_remount(root.as_c_str(), MountFlags::BIND | MountFlags::RDONLY | quiet, c"").map_err(Into::into),
    );
    let pivoted = rustix::process::chdir(root.as_c_str())
        .and_then(|()| rustix::process::pivot_root(c".", c"."))
        .and_then(|()| mount::unmount(c".", UnmountFlags::DETACH))
        .and_then(|()| rustix::process::chdir(c"/"));
    check(plan, 7, pivoted.map_err(Into::into));
}

fn do_step(step: &Step) -> io::Result<()> {
    let quiet = MountFlags::NOSUID | MountFlags::NODEV;
    match step {
        Step::Dir(path) => {
            // SAFETY: `path` is a valid C string.
            let made = unsafe { libc::mkdir(path.as_ptr(), 0o755) } == 0;
            if made || io::Error::last_os_error().raw_os_error() == Some(libc::EEXIST) {
                return Ok(());
            }
            Err(io::Error::last_os_error())
        }
        Step::File(path) => {
            // SAFETY: `path` is a valid C string; the descriptor is closed at once.
            let fd = unsafe { libc::open(path.as_ptr(), libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC, 0o644) };
            if fd < 0 {
                let error = io::Error::last_os_error();
                return if error.raw_os_error() == Some(libc::EEXIST) { Ok(()) } else { Err(error) };
            }
            // SAFETY: `fd` was just opened.
            unsafe { libc::close(fd) };
            Ok(())
        }
        Step::Symlink { target, at } => {
            // SAFETY: both are valid C strings.
            errno_result(unsafe { libc::symlink(target.as_ptr(), at.as_ptr()) } == 0)
        }
        Step::Bind { source, at, writable, dev } => {
            mount::mount_bind(source.as_c_str(), at.as_c_str())?;
            let mut flags = MountFlags::BIND | MountFlags::NOSUID;
            if !dev {
                flags |= MountFlags::NODEV;
            }
            if !writable {
                flags |= MountFlags::RDONLY;
            }
            Ok(mount::mount_remount(at.as_c_str(), flags, c"")?)
        }
        Step::Tmpfs { at, options } => Ok(mount::mount(c"tmpfs", at.as_c_str(), c"tmpfs", quiet, options.as_c_str())?),
        Step::Proc(at) => Ok(mount::mount(c"proc", at.as_c_str(), c"proc", quiet | MountFlags::NOEXEC, c"hidepid=2")?),
    }
}

/// The init's life after starting the program: reap until the program ends, report its status, exit.
fn reap(plan: &Plan, program: libc::pid_t) -> ! {
    // SAFETY: closes every descriptor but the status pipe: the init's copies of the program's streams (so
    // they close when the program and its descendants are gone), of the error pipe (so the grader sees
    // end-of-file once the program has `exec`ed), and of whatever the grader had open, such as its end of
    // the program's stdin (which must close when the grader closes it).
    unsafe {
        let keep = plan.status_pipe as u32;
        if keep > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, keep - 1, 0u32);
        }
        libc::syscall(libc::SYS_close_range, keep + 1, u32::MAX, 0u32);
    }
    loop {
        let mut status = 0;
        // SAFETY: `status` is a valid out-pointer.
        let pid = unsafe { libc::waitpid(-1, &mut status, 0) };
        if pid == program || (pid == -1 && io::Error::last_os_error().raw_os_error() != Some(libc::EINTR)) {
            // SAFETY: writes four bytes from a live integer, then exits; the kernel then kills the rest
            // of the namespace.
            unsafe {
                if pid == program {
                    libc::write(plan.status_pipe, (&status as *const libc::c_int).cast(), 4);
                }
                libc::_exit(0)
            }
        }
    }
}

/// The program's side: streams, limits, identity, working directory, `exec`.
fn run_program(plan: &Plan, argv: &[*const libc::c_char], envp: &[*const libc::c_char]) -> ! {
    check(plan, 9, redirect(plan));
    for &(resource, limit) in &plan.rlimits {
        check(plan, 10, lower_limit(resource, limit));
    }
    check(plan, 11, become_(plan.become_));
    check(plan, 12, rustix::process::chdir(plan.cwd.as_c_str()).map_err(Into::into));
    if let Some(filter) = &plan.seccomp {
        check(plan, 14, install_filter(filter));
    }
    // SAFETY: resets the signal state a Rust process leaves (SIGPIPE ignored) to the defaults a program
    // expects, then `exec`s with null-terminated arrays of valid C strings.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &empty, std::ptr::null_mut());
        libc::execve(plan.program.as_ptr(), argv.as_ptr(), envp.as_ptr());
    }
    fail(plan, 13, io::Error::last_os_error())
}

fn redirect(plan: &Plan) -> io::Result<()> {
    for (target, fd) in plan.stdio.iter().enumerate() {
        let fd = match fd {
            Some(fd) => *fd,
            // SAFETY: a static C string.
            None => unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDWR) },
        };
        // SAFETY: plain system calls on descriptors.
        errno_result(fd >= 0 && unsafe { libc::dup2(fd, target as RawFd) } >= 0)?;
    }
    // SAFETY: closes (at exec) every descriptor but the three streams and the error pipe, which is
    // close-on-exec already; the status pipe is the init's alone.
    unsafe {
        libc::close(plan.status_pipe);
        libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, libc::CLOSE_RANGE_CLOEXEC);
    }
    Ok(())
}

fn lower_limit(resource: Resource, limit: u64) -> io::Result<()> {
    let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: `current` is a valid, writable rlimit.
    errno_result(unsafe { libc::getrlimit(resource, &mut current) } == 0)?;
    // Past the soft CPU limit the kernel sends SIGXCPU; past the hard one, SIGKILL.
    let (soft, hard) = if resource == libc::RLIMIT_CPU as Resource { (limit, limit + 1) } else { (limit, limit) };
    let hard = hard.min(current.rlim_max);
    let wanted = libc::rlimit { rlim_cur: soft.min(hard), rlim_max: hard };
    // SAFETY: `wanted` is a valid rlimit.
    errno_result(unsafe { libc::setrlimit(resource, &wanted) } == 0)
}

fn become_(who: Become) -> io::Result<()> {
    match who {
        Become::Unchanged => {}
        Become::User(id) => {
            rthread::set_thread_groups(&[])?;
            let gid = rustix::process::Gid::from_raw(id);
            rthread::set_thread_res_gid(gid, gid, gid)?;
            let uid = rustix::process::Uid::from_raw(id);
            rthread::set_thread_res_uid(uid, uid, uid)?;
        }
        Become::CaplessSelf => {
            for capability in 0..64 {
                // SAFETY: a plain prctl; capabilities past the kernel's last one fail with EINVAL, ignored.
                unsafe { libc::prctl(libc::PR_CAPBSET_DROP, capability, 0, 0, 0) };
            }
            let none = CapabilitySet::empty();
            rthread::set_capabilities(None, CapabilitySets { effective: none, permitted: none, inheritable: none })?;
        }
    }
    rthread::set_no_new_privs(true)?;
    Ok(())
}
