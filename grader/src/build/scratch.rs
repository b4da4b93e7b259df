//! The scratch workspace a Rust submission is built in: what is copied from the student, what the grader
//! writes around it, and which of the student's declared dependencies are refused.
//!
//! Only the student's `src/` is copied, and none of it through a symbolic link. Their `Cargo.toml` is read
//! for its `[dependencies]` and nothing else
//! (no `build.rs`, no `[patch]`, no `[profile]`, no `.cargo/config`): the grader writes the manifest itself,
//! with `npuzzle` pointing at the grader's own copy whatever the student named. The student's package is the
//! workspace's root, so compiler messages and panic locations read `src/solver.rs` wherever the student's
//! folder was. Both packages are named after the key: Cargo names a workspace member's artifacts after its
//! path *relative to the workspace*, the same for every scratch workspace, so in the shared target directory
//! only the package name keeps one submission's library from being taken for another's.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::policy::RustBuild;

/// Crates a submission may not depend on: the answer key and the grader's harness.
const GRADER_CRATES: [&str; 3] = ["reference", "npuzzle-harness", "npuzzle_harness"];
/// The most bytes of `src/` copied; a larger folder does not compile.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// The grader's own crates: the directory that holds `adapters/rust/npuzzle`, `adapters/rust/harness`,
/// `reference/` and the `Cargo.lock` that pins their dependencies (this repository, or `rust/` in the
/// Gradescope zip), with `vendor/` when the dependencies are vendored.
#[derive(Debug, Clone)]
pub struct Pinned {
    #[allow(missing_docs)]
    pub root: PathBuf,
}

impl Pinned {
    /// `GRADER_RUST_CRATES` when set; else `rust/` next to the grader's `bin/` (the Gradescope zip); else the
    /// repository the grader was built from.
    pub fn locate() -> Pinned {
        let candidates = std::env::var_os("GRADER_RUST_CRATES")
            .map(PathBuf::from)
            .into_iter()
            .chain(std::env::current_exe().ok().and_then(|exe| Some(exe.parent()?.parent()?.join("rust"))));
        for root in candidates {
            if root.join("adapters/rust/npuzzle/Cargo.toml").is_file() {
                return Pinned { root };
            }
        }
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        Pinned { root: repository.canonicalize().unwrap_or(repository) }
    }

    /// What a build of a scratch workspace must see of the pinned crates: the workspace manifest they
    /// inherit from, the adapters, the reference the harness links, and `vendor/` where it exists.
    pub fn view(&self) -> Vec<PathBuf> {
        ["Cargo.toml", "Cargo.lock", "adapters/rust", "reference", "vendor"]
            .iter()
            .map(|part| self.root.join(part))
            .filter(|path| path.exists())
            .collect()
    }

    fn npuzzle(&self) -> PathBuf {
        self.root.join("adapters/rust/npuzzle")
    }
    fn harness(&self) -> PathBuf {
        self.root.join("adapters/rust/harness")
    }
}

/// A submission ready to be written out: its sources, the dependencies it keeps, and the cache key.
#[derive(Debug)]
pub struct Scratch {
    /// `src/` files: path relative to `src/`, contents.
    files: BTreeMap<PathBuf, Vec<u8>>,
    /// Extra dependencies the policy let through, as TOML `name = value` lines.
    extra: Vec<String>,
    /// A hash of everything above and of the grader's crates' location.
    pub key: String,
}

impl Scratch {
    /// Reads the student's crate at `dir`. `Err` is the message a student sees in place of compiler output.
    pub fn read(dir: &Path, policy: &RustBuild, pinned: &Pinned) -> Result<Scratch, String> {
        let extra = dependencies(dir, policy)?;
        let src = dir.join("src");
        if !src.join("main.rs").is_file() {
            return Err("the crate has no src/main.rs: it needs one, with `npuzzle::submission_main!(…)`".into());
        }
        let mut files = BTreeMap::new();
        let mut total = 0;
        for entry in walkdir::WalkDir::new(&src).follow_links(false) {
            let entry = entry.map_err(|e| format!("failed to read src/: {e}"))?;
            let shown = Path::new("src").join(entry.path().strip_prefix(&src).expect("under src"));
            if let Some(log) = super::step::link_refused(entry.path(), &shown.display().to_string()) {
                return Err(log);
            }
            if !entry.file_type().is_file() {
                continue;
            }
            let bytes =
                std::fs::read(entry.path()).map_err(|e| format!("failed to read {}: {e}", entry.path().display()))?;
            total += bytes.len() as u64;
            if total > MAX_SOURCE_BYTES {
                return Err(format!("src/ holds more than {} MB", MAX_SOURCE_BYTES >> 20));
            }
            files.insert(entry.path().strip_prefix(&src).expect("under src").to_path_buf(), bytes);
        }
        if !String::from_utf8_lossy(&files[Path::new("main.rs")]).contains("submission_main!") {
            return Err("src/main.rs does not call `npuzzle::submission_main!(board::Board, solver::Solver);`, \
                        which names your types for the grader"
                .into());
        }
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&files, &extra, policy.allow_unsafe, &pinned.root).hash(&mut hasher);
        Ok(Scratch { files, extra, key: format!("{:016x}", hasher.finish()) })
    }

    /// Whether the build keeps a target directory of its own: dependencies a student chose may run build
    /// scripts, which must not touch what other submissions link.
    pub fn needs_own_target(&self) -> bool {
        !self.extra.is_empty()
    }

    /// The wrapper's binary name (unique per key, so builds sharing a target directory never overwrite each
    /// other's executable).
    pub fn binary(&self) -> String {
        format!("submission-{}", self.key)
    }

    /// Writes the workspace into `ws`, touching only files whose contents changed (Cargo decides what to
    /// rebuild from modification times).
    pub fn write(&self, ws: &Path, policy: &RustBuild, pinned: &Pinned) -> std::io::Result<()> {
        for (path, bytes) in &self.files {
            write_if_changed(&ws.join("src").join(path), bytes)?;
        }
        write_if_changed(&ws.join("Cargo.toml"), self.student_manifest(policy, pinned).as_bytes())?;
        write_if_changed(&ws.join("wrapper/Cargo.toml"), self.wrapper_manifest(pinned).as_bytes())?;
        write_if_changed(&ws.join("wrapper/src/main.rs"), WRAPPER_MAIN.as_bytes())?;
        if !ws.join("Cargo.lock").exists() {
            if let Ok(lock) = std::fs::read(pinned.root.join("Cargo.lock")) {
                write_if_changed(&ws.join("Cargo.lock"), &lock)?;
            }
        }
        let vendor = pinned.root.join("vendor");
        if vendor.is_dir() {
            let config = format!(
                "[source.crates-io]\nreplace-with = \"vendored\"\n\n[source.vendored]\ndirectory = {}\n",
                toml_string(&vendor)
            );
            write_if_changed(&ws.join(".cargo/config.toml"), config.as_bytes())?;
        }
        Ok(())
    }

    fn student_manifest(&self, policy: &RustBuild, pinned: &Pinned) -> String {
        let mut text = format!(
            "# Written by the grader: the student's src/ built as a library against the grader's npuzzle.\n\
             [package]\nname = \"student-{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
             autobins = false\nautoexamples = false\nautotests = false\nautobenches = false\nbuild = false\n\n\
             [lib]\nname = \"student\"\npath = \"src/main.rs\"\n\n[dependencies]\nnpuzzle = {{ path = {} }}\n",
            self.key,
            toml_string(&pinned.npuzzle())
        );
        for line in &self.extra {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("\n[lints.rust]\ndead_code = \"allow\"\n");
        if !policy.allow_unsafe {
            text.push_str("unsafe_code = \"forbid\"\n");
        }
        text.push_str("\n[workspace]\nmembers = [\"wrapper\"]\nresolver = \"2\"\n\n[profile.release]\ndebug = 1\n");
        text
    }

    fn wrapper_manifest(&self, pinned: &Pinned) -> String {
        format!(
            "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [[bin]]\nname = \"{}\"\npath = \"src/main.rs\"\n\n[dependencies]\nstudent = {{ path = \"..\", package = \"student-{}\" }}\n\
             npuzzle-harness = {{ path = {} }}\nreference = {{ path = {}, default-features = false }}\n",
            self.binary(),
            self.binary(),
            self.key,
            toml_string(&pinned.harness()),
            toml_string(&pinned.root.join("reference")),
        )
    }
}

/// The wrapper's `main`: the grader's harness around the student's library.
const WRAPPER_MAIN: &str = "//! Written by the grader: the harness serving the student's types.\n\
#[global_allocator]\n\
static ALLOCATOR: reference::instrument::memory::CountingAllocator = reference::instrument::memory::CountingAllocator;\n\n\
fn main() -> std::process::ExitCode {\n    npuzzle_harness::serve_submission::<student::__NpuzzleSubmission>()\n}\n";

/// The student's `[dependencies]` the grader keeps (beyond `npuzzle`, which it always supplies), as TOML
/// lines; `Err` names what the policy refuses.
fn dependencies(dir: &Path, policy: &RustBuild) -> Result<Vec<String>, String> {
    let text =
        std::fs::read_to_string(dir.join("Cargo.toml")).map_err(|e| format!("failed to read Cargo.toml: {e}"))?;
    let manifest: toml::Table = text.parse().map_err(|e| format!("Cargo.toml is not valid TOML: {e}"))?;
    let Some(declared) = manifest.get("dependencies").and_then(toml::Value::as_table) else {
        return Ok(vec![]);
    };
    let mut kept = vec![];
    for (name, spec) in declared {
        let package = spec.get("package").and_then(toml::Value::as_str).unwrap_or(name);
        if package == "npuzzle" {
            continue;
        }
        if GRADER_CRATES.contains(&package) {
            return Err(format!(
                "Cargo.toml depends on `{package}`, which is the grader's own crate: a submission depends on \
                 `npuzzle` alone (the Board/Solver traits and MinPQ). Remove `{name}` from [dependencies]."
            ));
        }
        if !policy.allow_dependencies {
            return Err(format!(
                "Cargo.toml depends on `{package}`: the grading policy allows no dependencies beyond `npuzzle` \
                 (ask your instructor; the policy key is rust.allow_dependencies). Remove `{name}` from \
                 [dependencies]."
            ));
        }
        if spec.get("path").is_some() || spec.get("git").is_some() {
            return Err(format!(
                "Cargo.toml takes `{name}` from a path or git: only crates.io dependencies are allowed"
            ));
        }
        kept.push(format!("{} = {}", toml_string(Path::new(name)), spec));
    }
    Ok(kept)
}

fn toml_string(path: &Path) -> String {
    toml::Value::String(path.to_string_lossy().into_owned()).to_string()
}

fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let temp = path.with_extension("grader-tmp");
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_with(manifest: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "npuzzle::submission_main!(B, S);\n").unwrap();
        dir
    }

    #[test]
    fn the_api_crate_is_always_the_graders_and_the_rest_is_refused_by_default() {
        let pinned = Pinned::locate();
        let ok = crate_with("[package]\nname='x'\n[dependencies]\nnpuzzle = { path = '/nowhere' }\n");
        assert!(Scratch::read(ok.path(), &RustBuild::default(), &pinned).is_ok());
        let answer_key = crate_with("[dependencies]\nreference = { path = '../reference' }\n");
        let e = Scratch::read(answer_key.path(), &RustBuild::default(), &pinned).unwrap_err();
        assert!(e.contains("`reference`, which is the grader's own crate"), "{e}");
        let renamed = crate_with("[dependencies]\nkey = { path = 'r', package = 'npuzzle-harness' }\n");
        let e = Scratch::read(renamed.path(), &RustBuild::default(), &pinned).unwrap_err();
        assert!(e.contains("`npuzzle-harness`"), "{e}");
        let extra = crate_with("[dependencies]\nrand = \"0.8\"\n");
        let e = Scratch::read(extra.path(), &RustBuild::default(), &pinned).unwrap_err();
        assert!(e.contains("rust.allow_dependencies"), "{e}");
        let allowed = RustBuild { allow_dependencies: true, ..RustBuild::default() };
        let kept = Scratch::read(extra.path(), &allowed, &pinned).unwrap();
        assert!(kept.needs_own_target());
    }

    #[test]
    fn a_linked_source_file_is_refused_by_name() {
        let linked = crate_with("[package]\nname='x'\n");
        std::os::unix::fs::symlink("/etc/hostname", linked.path().join("src/board.rs")).unwrap();
        let e = Scratch::read(linked.path(), &RustBuild::default(), &Pinned::locate()).unwrap_err();
        assert!(e.starts_with("src/board.rs is a symbolic link"), "{e}");
    }

    #[test]
    fn the_key_follows_the_sources() {
        let pinned = Pinned::locate();
        let a = crate_with("[package]\nname='a'\n");
        let b = crate_with("[package]\nname='b'\n");
        let key = |d: &Path| Scratch::read(d, &RustBuild::default(), &pinned).unwrap().key;
        assert_eq!(key(a.path()), key(b.path()), "only src/ and the kept dependencies count");
        std::fs::write(b.path().join("src/board.rs"), "// more").unwrap();
        assert_ne!(key(a.path()), key(b.path()));
    }
}
