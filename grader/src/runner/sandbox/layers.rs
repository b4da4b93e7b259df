//! The layers of the sandbox this kernel allows ([`Layers`]), probed once per run: namespaces (the
//! filesystem view, PID, network), an unprivileged uid (the grader is root), the `pids` and `memory` control
//! groups, and the seccomp filter. A layer the kernel refuses is named on stderr once, and every sandbox goes
//! on without it; the rest of the grader asks what holds ([`memory_groups`], [`stops_are_refused`]) instead
//! of assuming it.

use std::sync::OnceLock;

use super::cgroup::Groups;
use super::{child, seccomp};

/// What the kernel allowed, found once per run.
#[derive(Debug)]
pub(super) struct Layers {
    pub(super) namespaces: bool,
    pub(super) root: bool,
    pub(super) pids: bool,
    pub(super) memory: bool,
    /// The seccomp filter, when the kernel takes it.
    pub(super) seccomp: Option<Vec<libc::sock_filter>>,
}

pub(super) fn layers() -> &'static Layers {
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
pub(in crate::runner) fn stops_are_refused() -> bool {
    layers().seccomp.is_some()
}

pub(super) fn missing(layer: &str, why: &str) {
    eprintln!("grader: sandbox: no {layer}: {why}; submissions run without it");
}

pub(super) const NAMESPACES: libc::c_int =
    libc::CLONE_NEWNS | libc::CLONE_NEWPID | libc::CLONE_NEWNET | libc::CLONE_NEWIPC | libc::CLONE_NEWUTS;
