//! One `grader batch` at a time in an output folder: two runs writing reports and gradebooks into the same
//! folder interleave them (a CLI red-team pass ran a second batch, with another seed and `--only`, into a
//! folder the first was still filling: both exited 0, and the gradebook's run said seed 7 and 27 tests
//! while three students' reports said seed 1 and 2 tests). The lock is an advisory `flock` on a file in the
//! folder, released by the kernel when the run ends however it ends, so a killed run never leaves it held.

use std::fs::File;
use std::os::fd::AsRawFd;
use std::path::Path;

/// The lock file's name inside the output folder.
pub const LOCK_FILE: &str = ".grader-batch.lock";

/// The output folder's lock, held while this value lives.
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
}

/// Takes `dir`'s lock (creating the folder and the file if need be), or says why not.
///
/// # Errors
/// Another run holds it (what to do is in the message), or the folder or file cannot be made.
pub fn lock(dir: &Path) -> anyhow::Result<OutputLock> {
    std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("failed to create `{}`: {e}", dir.display()))?;
    let path = dir.join(LOCK_FILE);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| anyhow::anyhow!("failed to open `{}`: {e}", path.display()))?;
    // SAFETY: flock(2) on a descriptor this function owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = std::io::Error::last_os_error();
        if error.raw_os_error() == Some(libc::EWOULDBLOCK) {
            anyhow::bail!(
                "another `grader batch` is writing into `{}`: wait for it to finish, or give this run an \
                 --output-dir of its own",
                dir.display()
            );
        }
        anyhow::bail!("failed to lock `{}`: {error}", path.display());
    }
    Ok(OutputLock { _file: file })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_is_refused_while_the_first_holds_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("grades");
        let first = lock(&out).unwrap();
        let refused = lock(&out).unwrap_err().to_string();
        assert!(refused.starts_with("another `grader batch` is writing into"), "{refused}");
        drop(first);
        assert!(lock(&out).is_ok(), "free once the first run ends");
    }
}
