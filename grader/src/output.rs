//! Writing the grader's own files (reports, gradebooks) and cache folders (a build, the bundle unpacked):
//! whole or not at all.
//!
//! A file is written to a temporary file beside it and renamed over its name, so a reader (or a crash
//! midway) never sees half a report, and a file that was there before is replaced in one step. A path that
//! names something other than a file (`/dev/null`, `/dev/stdout`, a named pipe) is written to as it is:
//! renamed over, a device would be replaced by a file, for every program on the machine. Callers write only
//! once every submission process of the run is gone, and to paths no sandbox shows.
//!
//! What goes to standard output (a report, the catalog, a policy) is written by [`to_stdout`], where a reader
//! that closed its end early (`| head`) is not a failure.
//!
//! A cache folder is named by a hash of what it holds, so it is written once and never replaced: it is
//! filled under a temporary name beside it ([`staging_dir`]) and renamed to its name once complete, with a
//! `done` file inside ([`publish_dir`]), so two graders filling it at once, or one killed midway, never leave
//! a half-written folder under that name.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `text` to standard output (see [`write_to_reader`]; `print!` would panic on a closed pipe).
pub fn to_stdout(text: &str) -> io::Result<()> {
    write_to_reader(&mut io::stdout().lock(), text.as_bytes())
}

/// Writes `bytes` to `out` whole and flushes it. A reader that has gone (`grader catalog | head`) has all it
/// wanted, as with any command-line tool: the closed pipe is not an error.
pub fn write_to_reader(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed to disk, then
/// renamed over `path`.
pub fn write_atomically(path: &Path, contents: impl AsRef<[u8]>) -> io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|target| !target.is_file() && !target.is_dir()) {
        return std::fs::OpenOptions::new().write(true).open(path)?.write_all(contents.as_ref());
    }
    let dir = folder_of(path);
    let mut file = tempfile::Builder::new().prefix(".grader-").suffix(".tmp").tempfile_in(dir)?;
    file.write_all(contents.as_ref())?;
    file.as_file().sync_all()?;
    // a report is for people to read: the permissions a plain write would have given
    std::fs::set_permissions(file.path(), std::os::unix::fs::PermissionsExt::from_mode(0o644))?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// The folder a file at `path` is written in: its parent, or `.` for a bare file name.
pub fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Whether the cache folder `dir` was published whole.
pub fn is_published(dir: &Path) -> bool {
    dir.join("done").is_file()
}

/// A fresh, empty folder beside `dir` (in the same filesystem) to fill before [`publish_dir`] gives it
/// `dir`'s name.
pub fn staging_dir(dir: &Path) -> io::Result<PathBuf> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let mut name = dir.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}-{n}", std::process::id()));
    let tmp = dir.with_file_name(name);
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    Ok(tmp)
}

/// Marks `staging` complete and renames it to `dir`. If another grader published `dir` first, keeps theirs
/// and removes `staging`. A folder of that name that is not complete (written by no `publish_dir`) is removed
/// and the error says to try again.
pub fn publish_dir(staging: &Path, dir: &Path) -> io::Result<()> {
    std::fs::write(staging.join("done"), b"")?;
    if std::fs::rename(staging, dir).is_err() {
        let _ = std::fs::remove_dir_all(staging);
        if !is_published(dir) {
            let _ = std::fs::remove_dir_all(dir);
            return Err(io::Error::other(format!(
                "an unfinished folder {} was in the way; it has been removed: try again",
                dir.display()
            )));
        }
    }
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

    #[test]
    fn a_folder_is_published_once_whole_and_the_first_publisher_wins() {
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().join("cache-1");
        let first = staging_dir(&dir).unwrap();
        let second = staging_dir(&dir).unwrap();
        assert_ne!(first, second, "two builders never share a staging folder");
        std::fs::write(first.join("a"), "first").unwrap();
        std::fs::write(second.join("a"), "second").unwrap();
        assert!(!is_published(&dir));
        publish_dir(&first, &dir).unwrap();
        publish_dir(&second, &dir).unwrap();
        assert!(is_published(&dir));
        assert_eq!(std::fs::read_to_string(dir.join("a")).unwrap(), "first");
        assert_eq!(std::fs::read_dir(work.path()).unwrap().count(), 1, "no staging folder stays");
    }

    #[test]
    fn an_unfinished_folder_in_the_way_is_removed_and_the_caller_told_to_retry() {
        let work = tempfile::tempdir().unwrap();
        let dir = work.path().join("cache-1");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("half"), "").unwrap();
        let staging = staging_dir(&dir).unwrap();
        let e = publish_dir(&staging, &dir).unwrap_err();
        assert!(e.to_string().contains("try again"), "{e}");
        assert!(!dir.exists() && !staging.exists());
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
