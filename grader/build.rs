//! Packs what the grader carries beside its code, so that a `grader` copied alone to another machine grades
//! (`grader/src/bundle.rs` unpacks it on first use):
//!
//! - **the bundled puzzles**: `fixtures/puzzles`, whatever it holds;
//! - **the crates a Rust submission is built against**: `npuzzle`, the harness and the reference (their
//!   folders, but for a `target/`), the workspace's manifest (its members narrowed to those three) and
//!   `Cargo.lock`, and `vendor/`, their dependencies as `cargo vendor` writes them (the harness and the
//!   reference without its command line, no dev-dependencies: what the grader's wrapper around a submission
//!   links), so that a build needs no registry, no network and no registry cache.
//!
//! Each is one gzipped tar in `OUT_DIR` with its entries in path order and no owner, time or mode beyond the
//! executable bit (the same files pack to the same bytes), and a key: a hash of the paths and contents,
//! which names the folder it is unpacked into (`GRADER_BUNDLE_*_KEY`). The script runs again when anything
//! it packs changes. Compressed because the vendored sources are 10 MB, mostly `libc`'s and `syn`'s, which
//! deflate to a sixth of that (the measures: BENCHMARKS.md, "What the grader carries").

use std::collections::hash_map::DefaultHasher;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufWriter, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The grader's crates a submission's wrapper is built from, as folders of the repository.
const CRATES: [&str; 3] = ["npuzzle", "adapters/rust/harness", "reference"];

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest_dir.parent().expect("the grader is a folder of the repository").to_path_buf();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let puzzles = root.join("fixtures/puzzles");
    for watched in [puzzles.clone(), root.join("Cargo.toml"), root.join("Cargo.lock")]
        .into_iter()
        .chain(CRATES.iter().map(|krate| root.join(krate)))
    {
        println!("cargo:rerun-if-changed={}", watched.display());
    }

    let mut puzzle_files = vec![];
    files_under(&puzzles, Path::new(""), &mut puzzle_files);
    if !puzzle_files.iter().any(|(name, _)| name.ends_with(".txt")) {
        fail(&format!("{} holds no puzzle file (*.txt): the grader bundles it", puzzles.display()));
    }
    pack("PUZZLES", &out.join("puzzles.tar.gz"), &entries(puzzle_files));

    let mut crate_files = vec![];
    for krate in CRATES {
        files_under(&root.join(krate), Path::new(krate), &mut crate_files);
    }
    let vendor = vendor(&root, &out);
    files_under(&vendor, Path::new("vendor"), &mut crate_files);
    let mut crate_entries = entries(crate_files);
    crate_entries.push(("Cargo.toml".into(), workspace_manifest(&root).into_bytes(), false));
    crate_entries.push(("Cargo.lock".into(), read(&root.join("Cargo.lock")), false));
    pack("RUST_CRATES", &out.join("rust-crates.tar.gz"), &crate_entries);
}

/// Each file as an entry: its path in the archive, its bytes, whether it is executable.
fn entries(files: Vec<(String, PathBuf)>) -> Vec<(String, Vec<u8>, bool)> {
    files
        .into_iter()
        .map(|(name, path)| {
            let executable = std::fs::metadata(&path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
            (name, read(&path), executable)
        })
        .collect()
}

/// The regular files under `dir`, as (path under `prefix`, path on disk), skipping a `target/` folder; a
/// symbolic link stops the build (the archive would hold what it points to, or nothing).
fn files_under(dir: &Path, prefix: &Path, found: &mut Vec<(String, PathBuf)>) {
    let listed = std::fs::read_dir(dir).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", dir.display())));
    for entry in listed {
        let entry = entry.unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", dir.display())));
        let kind = entry.file_type().unwrap_or_else(|e| fail(&format!("{}: {e}", entry.path().display())));
        let name = prefix.join(entry.file_name());
        if kind.is_dir() {
            if entry.file_name() != "target" {
                files_under(&entry.path(), &name, found);
            }
        } else if kind.is_file() {
            let name = name.to_str().unwrap_or_else(|| fail(&format!("{} is not UTF-8", name.display())));
            found.push((name.to_string(), entry.path()));
        } else {
            fail(&format!("{} is not a regular file: the grader bundles files only", entry.path().display()));
        }
    }
}

/// The repository's workspace manifest with its members narrowed to the grader's crates (which inherit
/// their edition, lints and dependency versions from it), as `gradescope/package.sh` wrote it before.
fn workspace_manifest(root: &Path) -> String {
    let text = String::from_utf8(read(&root.join("Cargo.toml"))).unwrap_or_else(|e| fail(&format!("Cargo.toml: {e}")));
    let members = format!("members = [{}]", CRATES.map(|krate| format!("\"{krate}\"")).join(", "));
    let mut narrowed = false;
    let lines: Vec<String> = text
        .lines()
        .filter(|line| !line.starts_with("exclude = "))
        .map(|line| match line.starts_with("members = ") {
            true => {
                narrowed = true;
                members.clone()
            }
            false => line.to_string(),
        })
        .collect();
    if !narrowed {
        fail("the workspace's Cargo.toml has no `members = [...]` line for the grader to narrow");
    }
    lines.join("\n") + "\n"
}

/// The crates.io dependencies of the grader's wrapper around a submission, vendored into `out/vendor` from
/// the local registry cache (offline: the grader's own build has just fetched them), at the versions
/// `Cargo.lock` pins. The probe is a crate shaped like that wrapper.
fn vendor(root: &Path, out: &Path) -> PathBuf {
    let probe = out.join("vendor-probe");
    let vendor = out.join("vendor");
    let harness = root.join("adapters/rust/harness");
    let manifest = format!(
        "[workspace]\n[package]\nname = \"vendor-probe\"\nversion = \"0.0.0\"\nedition = \"2021\"\n[lib]\n\
         path = \"lib.rs\"\n[dependencies]\nnpuzzle-harness = {{ path = \"{}\" }}\n",
        harness.display()
    );
    write(&probe.join("Cargo.toml"), manifest.as_bytes());
    write(&probe.join("lib.rs"), b"");
    write(&probe.join("Cargo.lock"), &read(&root.join("Cargo.lock")));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["vendor", "--offline", "--quiet", "--manifest-path"])
        .arg(probe.join("Cargo.toml"))
        .arg(&vendor)
        .output()
        .unwrap_or_else(|e| fail(&format!("cannot run cargo vendor: {e}")));
    if !output.status.success() {
        fail(&format!(
            "cargo vendor could not gather the dependencies the grader bundles for Rust submissions (from the \
             local registry cache, offline; a `cargo fetch` first fills it):\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    vendor
}

/// Writes `entries` as a gzipped tar at `path` and tells the crate its key (`GRADER_BUNDLE_{name}_KEY`).
fn pack(name: &str, path: &Path, entries: &[(String, Vec<u8>, bool)]) {
    let mut sorted: Vec<&(String, Vec<u8>, bool)> = entries.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    let mut hasher = DefaultHasher::new();
    let file = File::create(path).unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
    let mut tar =
        tar::Builder::new(flate2::write::GzEncoder::new(BufWriter::new(file), flate2::Compression::default()));
    for (entry, bytes, executable) in sorted {
        (entry, bytes, executable).hash(&mut hasher);
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(if *executable { 0o755 } else { 0o644 });
        header.set_mtime(0);
        tar.append_data(&mut header, entry, bytes.as_slice())
            .unwrap_or_else(|e| fail(&format!("cannot pack {entry}: {e}")));
    }
    let finished = tar.into_inner().and_then(|gz| gz.finish()).and_then(|mut file| file.flush());
    finished.unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
    println!("cargo:rustc-env=GRADER_BUNDLE_{name}_KEY={:016x}", hasher.finish());
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", path.display())))
}

fn write(path: &Path, bytes: &[u8]) {
    let written =
        std::fs::create_dir_all(path.parent().expect("a file in a folder")).and_then(|()| std::fs::write(path, bytes));
    written.unwrap_or_else(|e| fail(&format!("cannot write {}: {e}", path.display())));
}

/// Stops the build with what went wrong.
fn fail(message: &str) -> ! {
    panic!("grader/build.rs: {message}");
}
