//! Writing the grader's own files (reports, gradebooks): whole or not at all.
//!
//! A file is written to a temporary file beside it and renamed over its name, so a reader (or a crash
//! midway) never sees half a report, and a file that was there before is replaced in one step. A path that
//! names something other than a file (`/dev/null`, `/dev/stdout`, a named pipe) is written to as it is:
//! renamed over, a device would be replaced by a file, for every program on the machine. Callers write only
//! once every submission process of the run is gone, and to paths no sandbox shows.

use std::io::{self, Write};
use std::path::Path;

/// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed to disk, then
/// renamed over `path`.
pub fn write_atomically(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|target| !target.is_file() && !target.is_dir()) {
        return std::fs::OpenOptions::new().write(true).open(path)?.write_all(contents.as_ref());
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut file = tempfile::Builder::new().prefix(".grader-").suffix(".tmp").tempfile_in(dir)?;
    file.write_all(contents.as_ref())?;
    file.as_file().sync_all()?;
    // a report is for people to read: the permissions a plain write would have given
    std::fs::set_permissions(file.path(), std::os::unix::fs::PermissionsExt::from_mode(0o644))?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        std::fs::write(&path, "old and longer").unwrap();
        write_atomically(&path, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    /// `--format json=/dev/null` once replaced the machine's /dev/null with a file (as root, the rename
    /// succeeds).
    #[test]
    fn a_device_is_written_to_not_replaced() {
        use std::os::unix::fs::FileTypeExt as _;
        let null = Path::new("/dev/null");
        if !std::fs::metadata(null).is_ok_and(|m| m.file_type().is_char_device()) {
            eprintln!("skipped: /dev/null is not a character device on this machine");
            return;
        }
        write_atomically(null, "a report nobody keeps").unwrap();
        assert!(std::fs::metadata(null).unwrap().file_type().is_char_device(), "/dev/null is still a device");
    }
}
