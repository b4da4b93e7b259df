//! Unpacking a student's archive defensively: entries whose names leave the target folder (`../`, absolute
//! paths) and symbolic links are refused one by one and listed; sizes are capped (per file, per archive, and
//! the number of entries), and a zip that breaks a cap is refused whole. Names are read as unzip tools read
//! them ([`zip_names`](super::zip_names)): the Unicode Path extra field, else UTF-8, else code page 437.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::zip_names::{decode, enclosed};
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
        let name = decode(entry.name_raw());
        let shown = if label.is_empty() { name.clone() } else { format!("{label}: {name}") };
        let Some(relative) = enclosed(&name) else {
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
                "`{name}` unpacks to {} bytes, more than the {} bytes allowed",
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
            return Err(format!("`{name}` unpacks to more than the {} bytes allowed", caps.file_bytes));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// CRC-32 (IEEE), bit by bit: what a zip stores for each entry's bytes and the Unicode Path field's name.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
            }
        }
        !crc
    }

    /// One stored entry of a hand-made zip: the name's raw bytes, the general-purpose flags (bit 11: UTF-8),
    /// and the Info-ZIP Unicode Path (0x7075) name, if any.
    struct Entry<'a> {
        raw: &'a [u8],
        flags: u16,
        unicode_path: Option<&'a str>,
    }

    /// A zip written byte by byte (APPNOTE 4.3): the `zip` crate's writer sets the UTF-8 flag for any name
    /// that is not ASCII and reserves the Unicode Path field, so the archives other tools write are made here.
    fn zip_of(entries: &[Entry<'_>]) -> Vec<u8> {
        let (mut out, mut central) = (Vec::new(), Vec::new());
        let u16s = |v: &mut Vec<u8>, xs: &[u16]| xs.iter().for_each(|x| v.extend(x.to_le_bytes()));
        for entry in entries {
            let data = b"class Board {}";
            let extra = entry.unicode_path.map_or(Vec::new(), |name| {
                let mut field = vec![0x75, 0x70];
                field.extend(u16::try_from(5 + name.len()).unwrap().to_le_bytes());
                field.push(1);
                field.extend(crc32(entry.raw).to_le_bytes());
                field.extend(name.as_bytes());
                field
            });
            let (name_len, extra_len) = (entry.raw.len() as u16, extra.len() as u16);
            let offset = out.len() as u32;
            out.extend(0x0403_4b50u32.to_le_bytes());
            u16s(&mut out, &[20, entry.flags, 0, 0, 0x21]);
            for v in [crc32(data), data.len() as u32, data.len() as u32] {
                out.extend(v.to_le_bytes());
            }
            u16s(&mut out, &[name_len, extra_len]);
            out.extend(entry.raw);
            out.extend(&extra);
            out.extend(data);
            central.extend(0x0201_4b50u32.to_le_bytes());
            u16s(&mut central, &[(3 << 8) | 20, 20, entry.flags, 0, 0, 0x21]);
            for v in [crc32(data), data.len() as u32, data.len() as u32] {
                central.extend(v.to_le_bytes());
            }
            u16s(&mut central, &[name_len, extra_len, 0, 0, 0]);
            central.extend((0o100644u32 << 16).to_le_bytes());
            central.extend(offset.to_le_bytes());
            central.extend(entry.raw);
            central.extend(&extra);
        }
        let (at, size, count) = (out.len() as u32, central.len() as u32, entries.len() as u16);
        out.extend(central);
        out.extend(0x0605_4b50u32.to_le_bytes());
        u16s(&mut out, &[0, 0, count, count]);
        out.extend(size.to_le_bytes());
        out.extend(at.to_le_bytes());
        out.extend(0u16.to_le_bytes());
        out
    }

    fn unpacked(entries: &[Entry<'_>]) -> Vec<String> {
        let dir = tempfile::tempdir().unwrap();
        let zip = dir.path().join("names.zip");
        std::fs::write(&zip, zip_of(entries)).unwrap();
        let target = dir.path().join("out");
        let mut skipped = Vec::new();
        unzip(&zip, &target, Caps::default(), "", &mut skipped).unwrap();
        assert!(skipped.is_empty(), "{skipped:?}");
        let mut names: Vec<String> = walkdir::WalkDir::new(&target)
            .min_depth(1)
            .into_iter()
            .map(|e| e.unwrap().path().strip_prefix(&target).unwrap().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    /// Info-ZIP's Unicode Path extra field names the entry, whatever its header's bytes say.
    #[test]
    fn the_unicode_path_field_comes_first() {
        let entry = Entry { raw: b"L_sung/Board.java", flags: 0, unicode_path: Some("Lösung/Board.java") };
        assert_eq!(unpacked(&[entry]), ["Lösung", "Lösung/Board.java"]);
    }

    /// A name in UTF-8 without the UTF-8 flag (Info-ZIP on Linux, macOS's archiver) is read as UTF-8, not as
    /// CP437 (which would give `L├╢sung`); with the flag, likewise.
    #[test]
    fn utf8_bytes_are_utf8_with_or_without_the_flag() {
        let unflagged = Entry { raw: "Lösung/Board.java".as_bytes(), flags: 0, unicode_path: None };
        let flagged = Entry { raw: "Ærlig/Board.java".as_bytes(), flags: 1 << 11, unicode_path: None };
        assert_eq!(unpacked(&[unflagged, flagged]), ["Lösung", "Lösung/Board.java", "Ærlig", "Ærlig/Board.java"]);
    }

    /// Bytes that are not UTF-8 are code page 437 (Windows' built-in archiver): 0x94 is `ö`, 0x81 `ü`.
    #[test]
    fn other_bytes_are_code_page_437() {
        let entry = Entry { raw: b"L\x94sung \x81ber/Board.java", flags: 0, unicode_path: None };
        assert_eq!(unpacked(&[entry]), ["Lösung über", "Lösung über/Board.java"]);
    }
}
