//! What a zip entry is called, as unzip tools read it: Info-ZIP's Unicode Path extra field (0x7075) when the
//! entry has one, else the name's bytes as UTF-8 when they are valid UTF-8 (whether or not the archiver set
//! the UTF-8 flag: Info-ZIP and most Linux and macOS archivers write UTF-8 without it), else as IBM code page
//! 437, the zip format's original encoding (Windows' built-in archiver). The `zip` crate applies the extra
//! field (checking its CRC) and hands over the bytes; it decodes every name without the flag as CP437, which
//! turns `Lösung.java` from a Linux zip into `L├╢sung.java`, so the decoding is done here.
//!
//! And where such a name may go: inside the target folder only ([`enclosed`]).

use std::path::{Component, Path, PathBuf};

/// The characters of bytes 0x80 to 0xFF in code page 437 (the lower half is ASCII), as Python's `cp437`
/// codec and the Unicode Consortium's mapping table (VENDORS/MICSFT/PC/CP437.TXT) give them.
const CP437_HIGH: [char; 128] = [
    'Ç', 'ü', 'é', 'â', 'ä', 'à', 'å', 'ç', 'ê', 'ë', 'è', 'ï', 'î', 'ì', 'Ä', 'Å', //
    'É', 'æ', 'Æ', 'ô', 'ö', 'ò', 'û', 'ù', 'ÿ', 'Ö', 'Ü', '¢', '£', '¥', '₧', 'ƒ', //
    'á', 'í', 'ó', 'ú', 'ñ', 'Ñ', 'ª', 'º', '¿', '⌐', '¬', '½', '¼', '¡', '«', '»', //
    '░', '▒', '▓', '│', '┤', '╡', '╢', '╖', '╕', '╣', '║', '╗', '╝', '╜', '╛', '┐', //
    '└', '┴', '┬', '├', '─', '┼', '╞', '╟', '╚', '╔', '╩', '╦', '╠', '═', '╬', '╧', //
    '╨', '╤', '╥', '╙', '╘', '╒', '╓', '╫', '╪', '┘', '┌', '█', '▄', '▌', '▐', '▀', //
    'α', 'ß', 'Γ', 'π', 'Σ', 'σ', 'µ', 'τ', 'Φ', 'Θ', 'Ω', 'δ', '∞', 'φ', 'ε', '∩', //
    '≡', '±', '≥', '≤', '⌠', '⌡', '÷', '≈', '°', '∙', '·', '√', 'ⁿ', '²', '■', '\u{a0}',
];

/// An entry's name from its raw bytes (`ZipFile::name_raw`, which already holds the Unicode Path extra
/// field's name when the entry has one): UTF-8 when the bytes are valid UTF-8, else code page 437.
pub(super) fn decode(raw: &[u8]) -> String {
    match std::str::from_utf8(raw) {
        Ok(name) => name.to_string(),
        Err(_) => {
            raw.iter().map(|&b| if b < 0x80 { char::from(b) } else { CP437_HIGH[usize::from(b - 0x80)] }).collect()
        }
    }
}

/// The relative path an entry named `name` unpacks to, or `None` when it would leave the target folder (an
/// absolute path, a `..` that climbs out) or cannot be a file name (a NUL). A backslash separates folders
/// too, as Windows archivers sometimes write it; `.` and empty parts are dropped.
pub(super) fn enclosed(name: &str) -> Option<PathBuf> {
    if name.contains('\0') || name.starts_with(['/', '\\']) {
        return None;
    }
    let mut path = PathBuf::new();
    for part in name.split(['/', '\\']) {
        match Path::new(part).components().next() {
            None | Some(Component::CurDir) => {}
            Some(Component::ParentDir) => {
                if !path.pop() {
                    return None;
                }
            }
            Some(Component::Normal(_)) => path.push(part),
            Some(Component::RootDir | Component::Prefix(_)) => return None,
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[test]
    fn the_lower_half_is_ascii_and_the_upper_half_is_code_page_437() {
        let all: Vec<u8> = (0x80..=0xFF).collect();
        let decoded = decode(&all);
        assert_eq!(decoded.chars().count(), 128);
        assert!(decoded.starts_with("ÇüéâäàåçêëèïîìÄÅ") && decoded.ends_with("√ⁿ²■\u{a0}"), "{decoded}");
        assert_eq!(decode(b"L\x94sung.java"), "Lösung.java", "0x94 is ö in CP437");
        assert_eq!(decode("Lösung.java".as_bytes()), "Lösung.java", "valid UTF-8 stays UTF-8");
    }

    #[rstest]
    #[case("Board.java", Some("Board.java"))]
    #[case("hw/./src//Board.java", Some("hw/src/Board.java"))]
    #[case("hw\\Board.java", Some("hw/Board.java"))]
    #[case("hw/../Board.java", Some("Board.java"))]
    #[case("../escaped.txt", None)]
    #[case("hw/../../escaped.txt", None)]
    #[case("/etc/passwd", None)]
    #[case("\\windows\\x", None)]
    #[case("a\0b", None)]
    fn a_name_stays_inside_its_folder(#[case] name: &str, #[case] expected: Option<&str>) {
        assert_eq!(enclosed(name), expected.map(PathBuf::from));
    }
}
