//! The grader's side of a Rust build: the workspaces in which it compiles its own crates, in steps that
//! compile no student source and whose view holds none.
//!
//! - **The API workspace** (`rust/api-ROOT/`, one per location of the grader's crates) builds `npuzzle`
//!   alone into the shared target directory. That rlib ([`ApiCrate`]) is what the student's crate is compiled
//!   against (`--extern npuzzle=`, in a step that sees it and the student's crate alone), and its contents
//!   are part of every submission's cache key.
//! - **The link workspace** (`rust/ws-KEY/link/`) is the wrapper binary: its `main` (the harness serving the
//!   student's types, under the counting allocator) depends on `npuzzle-harness` and `reference`, and the
//!   student's compiled library comes in as `--extern student=`. Built in the same target directory with the
//!   same profile and flags as the API workspace, cargo finds `npuzzle` fresh there, so the student's library
//!   and the harness share one compiled `npuzzle` (`cargo` checks that it does).
//!
//! Both pass `--remap-path-prefix` for the grader's crates: a compiler message or panic location that names
//! a file of `npuzzle` or the harness reads `/grader/npuzzle/src/api.rs`, never the directory
//! the grader's crates are in.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use super::scratch::{toml_string, write_cargo_files, write_if_changed, Pinned, WORKSPACE_TAIL};

/// The grader's compiled `npuzzle`: the one rlib both the student's crate and the wrapper are built with.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ApiCrate {
    /// The rlib, in the shared target directory.
    pub rlib: PathBuf,
    /// A hash of its contents: a rebuilt `npuzzle` makes every submission a new build.
    pub fingerprint: u64,
}

impl ApiCrate {
    /// The rlib at `rlib`, read to fingerprint it.
    pub fn read(rlib: PathBuf) -> std::io::Result<ApiCrate> {
        let fingerprint = fingerprint(&rlib)?;
        Ok(ApiCrate { rlib, fingerprint })
    }
}

/// A hash of a file's contents.
pub fn fingerprint(path: &Path) -> std::io::Result<u64> {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    std::fs::read(path)?.hash(&mut hasher);
    Ok(hasher.finish())
}

/// The API workspace of the grader's crates at `pinned`, under the build cache `cache`.
pub fn api_workspace(cache: &Path, pinned: &Pinned) -> PathBuf {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    pinned.root.hash(&mut hasher);
    cache.join(format!("api-{:016x}", hasher.finish()))
}

/// Writes the API workspace into `ws`: a package of no code that depends on `npuzzle`.
pub fn write_api_workspace(ws: &Path, pinned: &Pinned) -> std::io::Result<()> {
    let manifest = format!(
        "# Written by the grader: builds its npuzzle, which students' crates are compiled against.\n\
         [package]\nname = \"npuzzle-api\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"lib.rs\"\n\n[dependencies]\nnpuzzle = {{ path = {} }}\n{WORKSPACE_TAIL}",
        toml_string(&pinned.npuzzle())
    );
    write_if_changed(&ws.join("Cargo.toml"), manifest.as_bytes())?;
    write_if_changed(&ws.join("lib.rs"), b"")?;
    write_cargo_files(ws, pinned, pinned.vendor().as_deref(), &pinned.remap_flags())
}

/// The wrapper's binary name (unique per key, so builds sharing a target directory never overwrite each
/// other's executable).
pub fn binary(key: &str) -> String {
    format!("submission-{key}")
}

/// Writes the link workspace for the submission `key` into `ws`. `student` is the fingerprint of the
/// student's compiled library, written into the wrapper's source: cargo does not track a library passed
/// with `--extern`, but relinks when the source changes.
pub fn write_link_workspace(ws: &Path, key: &str, pinned: &Pinned, student: u64) -> std::io::Result<()> {
    let manifest = format!(
        "# Written by the grader: its harness around a student's compiled library (passed as --extern student=).\n\
         [package]\nname = \"{bin}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
         autobins = false\nautoexamples = false\nautotests = false\nautobenches = false\nbuild = false\n\n\
         [[bin]]\nname = \"{bin}\"\npath = \"wrapper/src/main.rs\"\n\n[dependencies]\n\
         npuzzle-harness = {{ path = {harness} }}\nreference = {{ path = {reference}, default-features = false }}\n\
         {WORKSPACE_TAIL}",
        bin = binary(key),
        harness = toml_string(&pinned.root.join("adapters/rust/harness")),
        reference = toml_string(&pinned.root.join("reference")),
    );
    write_if_changed(&ws.join("Cargo.toml"), manifest.as_bytes())?;
    let main = format!("{WRAPPER_MAIN}// The student's library: {student:016x}\n");
    write_if_changed(&ws.join("wrapper/src/main.rs"), main.as_bytes())?;
    write_cargo_files(ws, pinned, pinned.vendor().as_deref(), &pinned.remap_flags())
}

/// The wrapper's `main`: the grader's harness around the student's library.
const WRAPPER_MAIN: &str = "//! Written by the grader: the harness serving the student's types.\n\
#[global_allocator]\n\
static ALLOCATOR: reference::instrument::memory::CountingAllocator = reference::instrument::memory::CountingAllocator;\n\n\
fn main() -> std::process::ExitCode {\n    npuzzle_harness::serve_submission::<student::__NpuzzleSubmission>()\n}\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grader_workspaces_name_no_student_source_and_remap_the_graders_paths() {
        let pinned = Pinned::repository();
        let dir = tempfile::tempdir().unwrap();
        let (api, link) = (dir.path().join("api"), dir.path().join("link"));
        write_api_workspace(&api, &pinned).unwrap();
        write_link_workspace(&link, "k", &pinned, 7).unwrap();
        for ws in [&api, &link] {
            let manifest: toml::Table = std::fs::read_to_string(ws.join("Cargo.toml")).unwrap().parse().unwrap();
            let dependencies = manifest["dependencies"].as_table().unwrap();
            assert!(!dependencies.keys().any(|name| name.starts_with("student")), "{manifest}");
            let profile = &manifest["profile"]["release"];
            assert_eq!(profile["codegen-units"].as_integer(), Some(1), "one profile for all builds");
            assert!(profile.get("debug").is_none(), "{profile}");
            let config = std::fs::read_to_string(ws.join(".cargo/config.toml")).unwrap();
            assert!(config.contains(&format!("{}=/grader", pinned.root.display())), "{config}");
        }
        let main = std::fs::read_to_string(link.join("wrapper/src/main.rs")).unwrap();
        assert!(main.contains("serve_submission::<student::__NpuzzleSubmission>"), "{main}");
        assert!(main.ends_with("0000000000000007\n"), "a rebuilt student library relinks: {main}");
    }

    #[test]
    fn each_location_of_the_graders_crates_has_its_api_workspace() {
        let cache = Path::new("/cache");
        let here = api_workspace(cache, &Pinned { root: "/a".into() });
        assert_ne!(here, api_workspace(cache, &Pinned { root: "/b".into() }));
        assert_eq!(here, api_workspace(cache, &Pinned { root: "/a".into() }));
        assert!(here.starts_with(cache));
    }
}
