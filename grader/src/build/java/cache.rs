//! The build directories a Java build leaves in the work directory, each named by a hash of what it is built
//! from (the adapter's sources and JDK; the student's files and the adapter's key), so a second grade of the
//! same inputs finds it built. Each is built in a staging directory beside it and published by a rename once
//! complete (`output::publish_dir`), so two grades building at once, or one killed midway, never leave a
//! half-built directory under the final name.

use std::fs;
use std::path::{Path, PathBuf};

use super::error::{io_error, JavaBuildError};
use crate::output;

/// A fresh directory next to `dir` to build into before publishing it under `dir`'s name.
pub(super) fn staging_dir(dir: &Path) -> Result<PathBuf, JavaBuildError> {
    output::staging_dir(dir).map_err(io_error(format!("cannot create a directory beside {}", dir.display())))
}

/// Marks `tmp` complete and renames it to `dir`. If another build published `dir` first, keeps theirs.
pub(super) fn publish(tmp: &Path, dir: &Path) -> Result<(), JavaBuildError> {
    output::publish_dir(tmp, dir).map_err(io_error(format!("cannot publish the build in {}", dir.display())))
}

pub(super) fn write_file(path: &Path, bytes: &[u8]) -> Result<(), JavaBuildError> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(io_error(format!("cannot create {}", parent.display())))?;
    }
    fs::write(path, bytes).map_err(io_error(format!("cannot write {}", path.display())))
}
