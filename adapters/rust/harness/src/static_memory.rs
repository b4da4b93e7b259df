//! Memory a Solver keeps in the program's static storage: its crate's `static` items with interior mutability
//! (a `Mutex`, an atomic, a `thread_local!`), which live in the executable's writable sections (`.data`,
//! `.bss`, their thread-local twins), not on the heap. The counting allocator never sees them, so a Solver
//! could keep its whole search in a `static Mutex<[[u32; 4]; N]>` (safe code) and weigh a few bytes.
//!
//! The second reading of a Solver's memory counts them, beside the heap bytes the process holds beyond its
//! start, as the Java adapter's counts a static array a class initializer made: by what the student's crate
//! declares ([`declared_by_student`]: the sizes of its symbols in writable sections, read from the
//! executable's symbol table; deterministic, whatever pages were touched), or, in an executable without a
//! symbol table, by what of the static storage became resident since the start ([`resident_bytes`],
//! page-grained). An honest crate declares a few bytes of such state, or touches a page or two: far inside the
//! second reading's margin (64 KiB), which is what it is judged against, never the Solver's own figure.
//! Immutable statics and `const` tables are read-only data, never counted.

use std::fs;

/// Bytes of the executable's static storage resident now: its writable mappings of the executable's file and
/// the anonymous mapping that follows the last of them (the rest of `.bss`). 0 when `/proc` cannot be read.
pub fn resident_bytes() -> u64 {
    let (Ok(exe), Ok(smaps)) = (fs::read_link("/proc/self/exe"), fs::read_to_string("/proc/self/smaps")) else {
        return 0;
    };
    resident_in(&smaps, &exe.to_string_lossy())
}

/// The bytes of writable static storage the student's crate (compiled as `student`) declares, from the
/// executable's symbol table; `None` when the executable cannot be read or has no symbol table.
pub fn declared_by_student() -> Option<u64> {
    declared_in(&fs::read("/proc/self/exe").ok()?, is_students)
}

/// Whether a symbol is an item of the student's crate: `student::…`, mangled the legacy way
/// (`_ZN7student…`) or the v0 way (`_R…C…7student…`). A student's crate can name no symbol itself
/// (`#[no_mangle]` is `unsafe_code`, which the grader forbids there).
fn is_students(name: &[u8]) -> bool {
    name.starts_with(b"_ZN7student") || (name.starts_with(b"_R") && name.windows(8).any(|w| w == b"7student"))
}

/// The sizes of the data symbols (objects and thread-locals) that `wanted` accepts in the writable allocated
/// sections of the little-endian ELF64 image `elf`; `None` when it is not one or has no symbol table.
fn declared_in(elf: &[u8], wanted: impl Fn(&[u8]) -> bool) -> Option<u64> {
    const SHT_SYMTAB: u32 = 2;
    const SHF_WRITE_ALLOC: u64 = 0x3;
    const STT_OBJECT: u8 = 1;
    const STT_TLS: u8 = 6;
    let u16_at = |at: usize| Some(u16::from_le_bytes(elf.get(at..at + 2)?.try_into().ok()?));
    let u32_at = |at: usize| Some(u32::from_le_bytes(elf.get(at..at + 4)?.try_into().ok()?));
    let u64_at = |at: usize| Some(u64::from_le_bytes(elf.get(at..at + 8)?.try_into().ok()?));
    if elf.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let (sections, entry, count) = (u64_at(0x28)? as usize, u16_at(0x3a)? as usize, u16_at(0x3c)? as usize);
    let section = |k: usize| sections.checked_add(k.checked_mul(entry)?);
    let flags_of = |k: usize| u64_at(section(k)? + 8);
    let symtab = (0..count).find(|&k| section(k).and_then(|at| u32_at(at + 4)) == Some(SHT_SYMTAB))?;
    let at = section(symtab)?;
    let (offset, size, strtab) = (u64_at(at + 24)? as usize, u64_at(at + 32)? as usize, u32_at(at + 40)? as usize);
    let strings = u64_at(section(strtab)? + 24)? as usize;
    let mut total = 0;
    for symbol in (offset..offset.checked_add(size)?).step_by(24) {
        let (name, info, index) = (u32_at(symbol)? as usize, *elf.get(symbol + 4)?, u16_at(symbol + 6)? as usize);
        if !matches!(info & 0xf, STT_OBJECT | STT_TLS) || index == 0 || index >= count {
            continue;
        }
        if flags_of(index)? & SHF_WRITE_ALLOC != SHF_WRITE_ALLOC {
            continue;
        }
        let start = strings.checked_add(name)?;
        let end = start + elf.get(start..)?.iter().position(|&b| b == 0)?;
        if wanted(&elf[start..end]) {
            total += u64_at(symbol + 16)?;
        }
    }
    Some(total)
}

/// [`resident_bytes`] of an `smaps` text whose executable is `exe`.
fn resident_in(smaps: &str, exe: &str) -> u64 {
    let mut total_kb = 0;
    // whether the mapping being read counts, and where the last counted one ended
    let (mut counting, mut end_of_exe) = (false, None::<u64>);
    for line in smaps.lines() {
        if let Some(mapping) = Mapping::parse(line) {
            let follows = end_of_exe == Some(mapping.start) && mapping.path.is_empty();
            counting = mapping.writable && (mapping.path == exe || follows);
            end_of_exe = if counting { Some(mapping.end) } else { None };
        } else if let Some(kb) = line.strip_prefix("Rss:").filter(|_| counting) {
            total_kb += kb.trim().trim_end_matches("kB").trim().parse::<u64>().unwrap_or(0);
        }
    }
    total_kb * 1024
}

/// The header line of a mapping in `smaps`: `start-end perms offset dev inode [path]`.
struct Mapping<'a> {
    start: u64,
    end: u64,
    writable: bool,
    path: &'a str,
}

impl<'a> Mapping<'a> {
    fn parse(line: &'a str) -> Option<Mapping<'a>> {
        let mut fields = line.splitn(6, ' ');
        let (start, end) = fields.next()?.split_once('-')?;
        let perms = fields.next()?;
        let (_offset, _dev, _inode) = (fields.next()?, fields.next()?, fields.next()?);
        if perms.len() != 4 {
            return None;
        }
        Some(Mapping {
            start: u64::from_str_radix(start, 16).ok()?,
            end: u64::from_str_radix(end, 16).ok()?,
            writable: perms.as_bytes()[1] == b'w',
            path: fields.next().unwrap_or("").trim(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMAPS: &str = "\
55d0a0000000-55d0a0010000 r--p 00000000 fd:01 42    /sub/bin
Rss:                  64 kB
55d0a0010000-55d0a0020000 rw-p 00010000 fd:01 42    /sub/bin
Rss:                   8 kB
Private_Dirty:         8 kB
55d0a0020000-55d0a8020000 rw-p 00000000 00:00 0 
Rss:                 512 kB
55d0b0000000-55d0b0100000 rw-p 00000000 00:00 0                          [heap]
Rss:                1024 kB
7f0000000000-7f0000100000 rw-p 00000000 00:00 0 
Rss:                2048 kB
";

    #[test]
    fn the_executables_writable_mappings_and_the_bss_after_them_count() {
        assert_eq!(resident_in(SMAPS, "/sub/bin"), (8 + 512) * 1024, "not the heap, not another mapping");
        assert_eq!(resident_in(SMAPS, "/other"), 0);
    }

    #[test]
    fn this_process_has_static_storage_resident() {
        assert!(resident_bytes() > 0);
    }

    /// A writable static of this test binary's own crate, whose size its symbol table must give.
    static KEPT: std::sync::Mutex<[u8; 100_000]> = std::sync::Mutex::new([0; 100_000]);

    #[test]
    fn a_crates_writable_statics_are_summed_from_the_symbol_table() {
        let elf = fs::read("/proc/self/exe").unwrap();
        let ours =
            |name: &[u8]| name.windows(13).any(|w| w == b"static_memory") && name.windows(4).any(|w| w == b"KEPT");
        let kept = declared_in(&elf, ours).expect("a symbol table");
        assert!((100_000..100_100).contains(&kept), "{kept}");
        assert_eq!(*KEPT.lock().unwrap().first().unwrap(), 0);
        assert_eq!(declared_in(b"not an executable", ours), None);
        assert!(is_students(b"_ZN7student6solver5ARENA17h52bfd8f5e688a3a0E"));
        assert!(!is_students(b"_ZN27hostile_static_arena_search6solver5ARENA17h52bfd8f5e688a3a0E"));
    }
}
