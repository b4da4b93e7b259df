//! Control groups (version 1) for one sandbox: a `pids` group capping its processes and threads together,
//! and a `memory` group capping the memory of all its processes, native memory and the pages of its tmpfs
//! mounts included. Each is made under the grader's own group of that controller (`/proc/self/cgroup`) and
//! removed once the sandbox's processes are gone; before that, [`Groups::memory_record`] reads whether the
//! kernel killed a process for passing the limit, and the peak.
//!
//! A unified (version 2) hierarchy is not used yet: its groups need controllers delegated to the grader's
//! own group, which a machine rarely sets up; the sandbox then reports the layer as missing.

use std::fs;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const MOUNT: &str = "/sys/fs/cgroup";

/// The groups of one sandbox; dropping removes them (after the processes in them are gone).
#[derive(Debug)]
pub(crate) struct Groups {
    dirs: Vec<PathBuf>,
    procs: Vec<OwnedFd>,
    memory: Option<PathBuf>,
}

impl Groups {
    /// Makes the groups: `pids.max = processes` and, if asked, `memory.limit_in_bytes = memory`.
    pub(crate) fn create(processes: Option<u64>, memory: Option<u64>) -> io::Result<Groups> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = format!("npuzzle-sandbox-{}-{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
        let mut groups = Groups { dirs: Vec::new(), procs: Vec::new(), memory: None };
        if let Some(max) = processes {
            groups.add("pids", &name, &[("pids.max", max)])?;
        }
        if let Some(bytes) = memory {
            // swap counts too where the kernel accounts it, so a build cannot page its way past the limit
            let dir = groups.add("memory", &name, &[("memory.limit_in_bytes", bytes)])?;
            let _ = fs::write(dir.join("memory.memsw.limit_in_bytes"), bytes.to_string());
            groups.memory = Some(dir);
        }
        Ok(groups)
    }

    /// Whether the kernel killed a process of the memory group for passing its limit (`oom_kill` of
    /// `memory.oom_control`), and the most memory the group held at once; `(false, None)` without one.
    pub(crate) fn memory_record(&self) -> (bool, Option<u64>) {
        let Some(dir) = &self.memory else { return (false, None) };
        let control = fs::read_to_string(dir.join("memory.oom_control")).unwrap_or_default();
        let peak = fs::read_to_string(dir.join("memory.max_usage_in_bytes")).ok().and_then(|t| t.trim().parse().ok());
        (oom_kills(&control) > 0, peak)
    }

    fn add(&mut self, controller: &str, name: &str, limits: &[(&str, u64)]) -> io::Result<PathBuf> {
        let dir = own_group(controller)?.join(name);
        fs::create_dir(&dir)?;
        self.dirs.push(dir.clone());
        for (file, value) in limits {
            fs::write(dir.join(file), value.to_string())?;
        }
        self.procs.push(fs::OpenOptions::new().write(true).open(dir.join("cgroup.procs"))?.into());
        Ok(dir)
    }

    /// The `cgroup.procs` files a process writes itself into.
    pub(crate) fn procs(&self) -> Vec<RawFd> {
        self.procs.iter().map(AsRawFd::as_raw_fd).collect()
    }

    /// Whether version 1 controllers are mounted where this module looks.
    pub(crate) fn available(controller: &str) -> bool {
        own_group(controller).is_ok_and(|dir| dir.is_dir())
    }
}

impl Drop for Groups {
    fn drop(&mut self) {
        self.procs.clear();
        // A group can be removed once its last task has been released, a moment after it was reaped.
        let since = Instant::now();
        for dir in &self.dirs {
            while fs::remove_dir(dir).is_err() && dir.exists() && since.elapsed() < Duration::from_secs(2) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
}

/// The grader's own group of `controller` in the version 1 hierarchy.
fn own_group(controller: &str) -> io::Result<PathBuf> {
    let table = fs::read_to_string("/proc/self/cgroup")?;
    let path = group_of(&table, controller)
        .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, format!("no {controller} control group")))?;
    Ok(Path::new(MOUNT).join(controller).join(path.trim_start_matches('/')))
}

/// The `oom_kill` count of a `memory.oom_control` file (0 where the kernel does not report it).
fn oom_kills(control: &str) -> u64 {
    control.lines().find_map(|line| line.strip_prefix("oom_kill ")?.trim().parse().ok()).unwrap_or(0)
}

/// The path of `controller`'s group in a `/proc/PID/cgroup` table (`ID:CONTROLLERS:PATH` lines).
fn group_of<'a>(table: &'a str, controller: &str) -> Option<&'a str> {
    table.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let (_, controllers, path) = (fields.next()?, fields.next()?, fields.next()?);
        controllers.split(',').any(|c| c == controller).then_some(path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controllers_group_is_found_in_the_table() {
        let table = "9:name=systemd:/\n8:pids:/\n4:memory:/api/f4\n2:cpu,cpuacct:/x\n0::/\n";
        assert_eq!(group_of(table, "memory"), Some("/api/f4"));
        assert_eq!(group_of(table, "cpuacct"), Some("/x"));
        assert_eq!(group_of(table, "pids"), Some("/"));
        assert_eq!(group_of(table, "blkio"), None);
    }

    #[test]
    fn the_kills_of_a_memory_group_are_read_from_its_oom_control() {
        assert_eq!(oom_kills("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"), 2);
        assert_eq!(oom_kills("oom_kill_disable 0\nunder_oom 0\n"), 0);
    }
}
