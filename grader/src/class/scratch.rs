//! A batch's scratch folder (the class unpacked, the students' folders) in the grader's work directory, and
//! what an interrupted batch left there. A batch ended by Ctrl-C or a scheduler's SIGTERM dies without
//! removing its scratch, and the documented way on is to run it again (`interrupt`), under another process
//! id: each interruption left a whole unpacked class behind. So each batch holds an advisory `flock` on a
//! lock file beside its scratch for as long as it runs, which the kernel releases however the run ends, and
//! every batch first removes the scratch of any run whose lock it can take: that run is over. A live batch's
//! scratch (in this PID namespace or another sharing the work directory) is never touched, since its lock
//! is held; a folder with no lock file beside it (an older grader's) is left as it is.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// The prefix of a batch's scratch folder and of its lock file (`class-PID`, `class-PID.lock`).
const PREFIX: &str = "class-";
/// The lock file's suffix.
const LOCK_SUFFIX: &str = ".lock";

/// This batch's scratch folder, removed (with its lock file) when dropped; its lock held until then.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
    lock_path: PathBuf,
    _lock: Option<File>,
}

impl Scratch {
    /// Where this batch works: `work_dir/class-PID`, empty. Ended runs' scratch folders are removed first.
    pub fn claim(work_dir: &Path) -> Scratch {
        let _ = std::fs::create_dir_all(work_dir);
        sweep(work_dir);
        let dir = work_dir.join(format!("{PREFIX}{}", std::process::id()));
        let lock_path = work_dir.join(format!("{PREFIX}{}{LOCK_SUFFIX}", std::process::id()));
        // Locked before the folder is made, so no sweep sees the folder unlocked.
        let lock = try_lock(&lock_path, true);
        let _ = std::fs::remove_dir_all(&dir);
        Scratch { dir, lock_path, _lock: lock }
    }

    /// The scratch folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        let _ = std::fs::remove_file(&self.lock_path);
    }
}

/// Removes the scratch folder and lock file of every batch in `work_dir` whose lock no process holds.
fn sweep(work_dir: &Path) {
    let Ok(entries) = std::fs::read_dir(work_dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(id) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)?.strip_suffix(LOCK_SUFFIX)) else {
            continue;
        };
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let lock_path = entry.path();
        if let Some(_ended) = try_lock(&lock_path, false) {
            let _ = std::fs::remove_dir_all(work_dir.join(format!("{PREFIX}{id}")));
            let _ = std::fs::remove_file(&lock_path);
        }
    }
}

/// The file at `path` opened (made, if `create`) and locked for this process alone, or `None` if another
/// process holds its lock or it cannot be opened.
fn try_lock(path: &Path, create: bool) -> Option<File> {
    let file = File::options().create(create).truncate(false).write(true).open(path).ok()?;
    // SAFETY: flock(2) on a descriptor this function owns.
    (unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0).then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn an_ended_run(work: &Path, pid: u32) -> PathBuf {
        let dir = work.join(format!("class-{pid}"));
        std::fs::create_dir_all(dir.join("class/alice")).unwrap();
        std::fs::write(work.join(format!("class-{pid}.lock")), "").unwrap();
        dir
    }

    #[test]
    fn an_ended_runs_scratch_is_removed_and_a_live_ones_is_not() {
        let work = tempfile::tempdir().unwrap();
        let ended = an_ended_run(work.path(), 4_000_001);
        let live = an_ended_run(work.path(), 4_000_002);
        let held = try_lock(&work.path().join("class-4000002.lock"), false).expect("the live run's lock");
        let older = work.path().join("class-17");
        std::fs::create_dir_all(&older).unwrap();
        let scratch = Scratch::claim(work.path());
        assert!(!ended.exists() && !work.path().join("class-4000001.lock").exists(), "the ended run's is gone");
        assert!(live.join("class/alice").is_dir(), "a live run's scratch stays");
        assert!(older.is_dir(), "a folder with no lock file beside it is left");
        assert_eq!(scratch.path(), work.path().join(format!("class-{}", std::process::id())));
        std::fs::create_dir_all(scratch.path().join("class")).unwrap();
        // another batch starting now leaves this one's scratch alone
        sweep(work.path());
        assert!(scratch.path().join("class").is_dir(), "this run's lock is held");
        let (dir, lock) = (scratch.path().to_path_buf(), scratch.lock_path.clone());
        drop(scratch);
        assert!(!dir.exists() && !lock.exists(), "removed at the end");
        drop(held);
        sweep(work.path());
        assert!(!live.exists(), "once its run ends, the next sweep removes it");
    }
}
