//! The machine the grader runs on, as a build sizes what it starts: the memory it gives its processes
//! ([`machine_memory_mb`]), which bounds the heap a JVM is given (`policy::Limits::java_heap_mb_on`). Its own
//! file because the grade asks it before any build, whatever the language.

use std::fs;

/// The memory the grader's machine gives its processes, in MB: the physical memory, or the control group's
/// limit where that is lower (a container). `None` when neither can be read.
pub fn machine_memory_mb() -> Option<u64> {
    // SAFETY: sysconf only reads system configuration.
    let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    let physical = (pages > 0 && page_size > 0).then(|| (pages as u64).saturating_mul(page_size as u64));
    let cgroup = ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"]
        .iter()
        .filter_map(|path| fs::read_to_string(path).ok())
        .find_map(|text| cgroup_limit(&text));
    [physical, cgroup].into_iter().flatten().min().map(|bytes| bytes >> 20)
}

/// A control group's memory limit in bytes (`max`, or a value too large to be a real limit, is none).
fn cgroup_limit(text: &str) -> Option<u64> {
    text.trim().parse::<u64>().ok().filter(|&bytes| bytes < 1 << 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_has_memory_and_a_container_limit_may_lower_it() {
        assert!(machine_memory_mb().is_some_and(|mb| mb > 0));
        assert_eq!(cgroup_limit("max\n"), None);
        assert_eq!(cgroup_limit("9223372036854771712\n"), None);
        assert_eq!(cgroup_limit("2147483648\n"), Some(2 << 30));
    }
}
