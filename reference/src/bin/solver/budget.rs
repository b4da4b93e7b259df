//! The default budget: how many boards an A* may store before `solver` gives up, sized to the memory the
//! process may really use.
//!
//! The assignment's A* keeps every board it makes; on the hardest 4x4 puzzles that is tens of gigabytes and
//! the kernel kills the process (or an allocation fails under an address-space limit). The memory is the
//! least of the machine's (`MemTotal` in `/proc/meminfo`), the control group's the process runs in (cgroup
//! v2 `memory.max`, v1 `memory.limit_in_bytes`, of its group and every group above it) and its own
//! `RLIMIT_AS` and `RLIMIT_DATA`; half of that, divided by the bytes a stored board costs, leaves room for
//! everything else. 16 GB is assumed where none can be read.

use std::path::{Path, PathBuf};

/// Bytes a stored board costs the reference A*: its search node, queue entry and the board itself
/// (measured: 166 MB for 2.47 million boards of a 4x4 search, about 67 bytes each).
pub fn reference_bytes_per_board(board_bytes: usize) -> u64 {
    35 + board_bytes as u64
}

/// Bytes a stored position costs the toolkit's searches (hash-map entry plus queue entry, with slack).
pub const TOOLKIT_BYTES_PER_BOARD: u64 = 128;

/// The memory the default budget may use: half of what the process may use.
pub fn memory_allowance() -> u64 {
    let limits = [machine_memory(), cgroup_memory(), rlimit(libc::RLIMIT_AS), rlimit(libc::RLIMIT_DATA)];
    limits.into_iter().flatten().min().unwrap_or(16 << 30) / 2
}

/// The machine's memory (`MemTotal`).
fn machine_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

/// The smallest memory limit of the process's control group and those above it, v2 or v1.
fn cgroup_memory() -> Option<u64> {
    let membership = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let root = Path::new("/sys/fs/cgroup");
    groups(&membership, root).into_iter().filter_map(|file| limit(&std::fs::read_to_string(file).ok()?)).min()
}

/// The limit files of every group from the process's own up to the hierarchy's root, for each hierarchy in
/// `/proc/self/cgroup` (`0::/a/b` for v2, `N:memory:/a/b` for v1's memory controller) under `root`.
fn groups(membership: &str, root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for line in membership.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) = (fields.next(), fields.next(), fields.next()) else { continue };
        let (base, file) = match controllers {
            "" => (root.to_path_buf(), "memory.max"),
            c if c.split(',').any(|c| c == "memory") => (root.join("memory"), "memory.limit_in_bytes"),
            _ => continue,
        };
        let mut group = base.join(path.trim_start_matches('/'));
        loop {
            files.push(group.join(file));
            if group == base || !group.pop() || !group.starts_with(&base) {
                break;
            }
        }
    }
    files
}

/// A limit file's value in bytes (`max`, or a value too large to be a real limit, is none).
fn limit(text: &str) -> Option<u64> {
    text.trim().parse::<u64>().ok().filter(|&bytes| bytes < 1 << 60)
}

/// The soft limit of `resource`, if there is one.
fn rlimit(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes one rlimit into the struct it is given, which lives on this stack.
    let ok = unsafe { libc::getrlimit(resource, &mut limit) } == 0;
    (ok && limit.rlim_cur != libc::RLIM_INFINITY).then_some(limit.rlim_cur)
}

/// The message when a search stops at its budget.
pub fn gave_up(boards: u64, bytes_per_board: u64) -> String {
    let about = reference::toolkit::compare::human_bytes(boards.saturating_mul(bytes_per_board));
    format!("gave up after {boards} boards (about {about}); try --optimal")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_up_to_the_root_is_read_in_both_versions() {
        let root = Path::new("/cg");
        let names = |membership: &str| -> Vec<String> {
            groups(membership, root).iter().map(|p| p.display().to_string()).collect()
        };
        assert_eq!(
            names("0::/user.slice/a\n"),
            ["/cg/user.slice/a/memory.max", "/cg/user.slice/memory.max", "/cg/memory.max"]
        );
        assert_eq!(
            names("5:cpu,cpuacct:/x\n4:memory:/docker/1\n"),
            [
                "/cg/memory/docker/1/memory.limit_in_bytes",
                "/cg/memory/docker/memory.limit_in_bytes",
                "/cg/memory/memory.limit_in_bytes"
            ]
        );
        assert_eq!(names("0::/\n"), ["/cg/memory.max"]);
        assert_eq!(limit("max\n"), None);
        assert_eq!(limit("9223372036854771712\n"), None);
        assert_eq!(limit("536870912\n"), Some(512 << 20));
    }

    #[test]
    fn the_allowance_is_at_most_half_the_machine() {
        assert!(memory_allowance() <= machine_memory().unwrap_or(16 << 30) / 2);
    }
}
