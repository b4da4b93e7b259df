//! Who a sandbox's program becomes ([`identity`]): a run, an unprivileged uid of its own (from
//! [`FIRST_UID`] on, distinct across concurrent graders), so `RLIMIT_NPROC` counts its processes alone; a
//! build, root without capabilities, or the one build uid where there is no mount namespace, owning what it
//! writes ([`give_tree`]).

use std::fs;
use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};

use super::child::Become;
use crate::runner::spec::Identity;

/// Where unprivileged uids start; each sandbox takes the next one.
pub(super) const FIRST_UID: u32 = 1_500_000_000;

/// Who a sandbox's program becomes. A run: a uid of its own. A build: root without capabilities, which
/// writes root-owned caches and sees only its view; but where there is no mount namespace (a container
/// without `CAP_SYS_ADMIN`, as on Gradescope) it would see every file, and as root read them all (an
/// `include_str!` of the fixtures), so it becomes [`BUILD_UID`] and owns what it writes instead.
pub(super) fn identity(root: bool, namespaces: bool, wanted: Identity) -> Become {
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
pub(super) fn give_tree(path: &Path, uid: u32) -> io::Result<()> {
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

    #[test]
    fn every_sandbox_has_a_uid_of_its_own() {
        assert_ne!(next_uid(), next_uid());
    }
}
