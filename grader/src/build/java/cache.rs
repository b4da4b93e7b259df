//! The build directories a Java build leaves in the work directory, each named by a hash of what it is built
//! from (the adapter's sources and JDK; the student's files and the adapter's key), so a second grade of the
//! same inputs finds it built. Each is built in a staging directory beside it and published by a rename once
//! complete (a `done` file inside), so two grades building at once, or one killed midway, never leave a
//! half-built directory under the final name.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::error::{io_error, JavaBuildError};

/// A fresh directory next to `dir` to build into before publishing it under `dir`'s name.
pub(super) fn staging_dir(dir: &Path) -> Result<PathBuf, JavaBuildError> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = dir.with_file_name(name);
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp).map_err(io_error(format!("cannot create {}", tmp.display())))?;
    Ok(tmp)
}

/// Marks `tmp` complete and renames it to `dir`. If another build published `dir` first, keeps theirs.
pub(super) fn publish(tmp: &Path, dir: &Path) -> Result<(), JavaBuildError> {
    write_file(&tmp.join("done"), b"")?;
    if fs::rename(tmp, dir).is_err() {
        let _ = fs::remove_dir_all(tmp);
        if !dir.join("done").is_file() {
            // a stale, unfinished directory of that name (a build killed midway): replace it
            let _ = fs::remove_dir_all(dir);
            return Err(JavaBuildError::Io {
                what: format!("cannot publish the build in {} (retry)", dir.display()),
                source: io::Error::other("a stale build directory was in the way and has been removed"),
            });
        }
    }
    Ok(())
}

pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), JavaBuildError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io_error(format!("cannot create {}", parent.display())))?;
    }
    fs::write(path, bytes).map_err(io_error(format!("cannot write {}", path.display())))
}
