//! Unpacking a student's archive defensively: entries whose names leave the target folder (`../`, absolute
//! paths) and symbolic links are refused one by one and listed; sizes are capped (per file, per archive, and
//! the number of entries), and a zip that breaks a cap is refused whole.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::{Caps, Skipped};

/// Where an unpacked archive's content really is: inside its one folder when it holds nothing else.
pub fn single_folder(dir: &Path) -> PathBuf {
    let entries: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(read) => read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.file_name().is_some_and(|n| n != "__MACOSX" && !n.to_string_lossy().starts_with('.')))
            .collect(),
        Err(_) => return dir.to_path_buf(),
    };
    match entries.as_slice() {
        [only] if only.is_dir() => single_folder(only),
        _ => dir.to_path_buf(),
    }
}

/// Unpacks `zip` into `target` within `caps`; entries refused one by one are added to `skipped` (named
/// `label: entry`), a broken cap or an unreadable archive is the error.
pub fn unzip(zip: &Path, target: &Path, caps: Caps, label: &str, skipped: &mut Vec<Skipped>) -> Result<(), String> {
    let file = std::fs::File::open(zip).map_err(|e| e.to_string())?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| format!("not a readable zip ({e})"))?;
    if archive.len() > caps.entries {
        return Err(format!("{} entries, more than the {} allowed", archive.len(), caps.entries));
    }
    std::fs::create_dir_all(target).map_err(|e| e.to_string())?;
    let mut total = 0u64;
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).map_err(|e| format!("entry {i} is unreadable ({e})"))?;
        let shown = if label.is_empty() { entry.name().to_string() } else { format!("{label}: {}", entry.name()) };
        let Some(relative) = entry.enclosed_name() else {
            skipped.push(Skipped { entry: shown, reason: "its path leaves the archive's folder".into() });
            continue;
        };
        if entry.is_symlink() {
            skipped.push(Skipped { entry: shown, reason: "a symbolic link".into() });
            continue;
        }
        let path = target.join(relative);
        if entry.is_dir() {
            std::fs::create_dir_all(&path).map_err(|e| e.to_string())?;
            continue;
        }
        if entry.size() > caps.file_bytes {
            return Err(format!(
                "`{}` unpacks to {} bytes, more than the {} bytes allowed",
                entry.name(),
                entry.size(),
                caps.file_bytes
            ));
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        // The declared size may lie: read one byte past the cap to know.
        let mut bytes = Vec::new();
        (&mut entry).take(caps.file_bytes + 1).read_to_end(&mut bytes).map_err(|e| format!("`{}`: {e}", shown))?;
        if bytes.len() as u64 > caps.file_bytes {
            return Err(format!("`{}` unpacks to more than the {} bytes allowed", entry.name(), caps.file_bytes));
        }
        total += bytes.len() as u64;
        if total > caps.archive_bytes {
            return Err(format!("it unpacks to more than the {} bytes allowed", caps.archive_bytes));
        }
        std::fs::write(&path, &bytes).map_err(|e| e.to_string())?;
        #[cfg(unix)]
        if entry.unix_mode().is_some_and(|mode| mode & 0o111 != 0) {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755));
        }
    }
    Ok(())
}
