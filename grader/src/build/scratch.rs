//! The student's crate as the grader builds it: what is copied from the student, the manifest the grader
//! writes around it, and which of the student's declared dependencies are refused. Also where the grader's
//! own crates are ([`Pinned`]) and the files every cargo workspace of the grader's shares.
//!
//! Only the student's `src/` is copied, and none of it through a symbolic link. Their `Cargo.toml` is read
//! for its `[dependencies]` and its `edition` (a crate `cargo new` writes today is in 2024) and nothing else
//! (no `build.rs`, no `[patch]`, no `[profile]`, no `.cargo/config`): the grader writes the manifest itself.
//! It names no `npuzzle` at all: the build passes the grader's compiled `npuzzle` to rustc
//! (`--extern npuzzle=`, see `cargo`), so the student's crate is compiled with no grader source in view. The
//! student's package is its workspace's root, so compiler messages and panic locations read `src/solver.rs`
//! wherever the student's folder was. It is named after the key, so its library is never taken for another
//! submission's.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use crate::policy::RustBuild;

/// Crates a submission may not depend on: the answer key and the grader's harness.
const GRADER_CRATES: [&str; 3] = ["reference", "npuzzle-harness", "npuzzle_harness"];
/// The most bytes of `src/` copied; a larger folder does not compile.
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Where every message of a grader-side build places the grader's crates (`Pinned::remap_flags`).
pub const REMAPPED_ROOT: &str = "/grader";

/// The grader's own crates: the directory that holds `npuzzle/`, `adapters/rust/harness/`,
/// `reference/` and the `Cargo.lock` that pins their dependencies, with `vendor/` when the dependencies are
/// vendored (as they are in the copy inside the grader, `bundle::RUST_CRATES`).
#[derive(Debug, Clone)]
pub struct Pinned {
    #[allow(missing_docs)]
    pub root: PathBuf,
}

impl Pinned {
    /// `GRADER_RUST_CRATES` when set; else the crates inside the grader, unpacked into the work directory
    /// `work` on first use. `Err` says what is wrong and what to do.
    pub fn locate(work: &Path) -> Result<Pinned, String> {
        if let Some(root) = std::env::var_os("GRADER_RUST_CRATES").filter(|root| !root.is_empty()) {
            let root = PathBuf::from(root);
            if !root.join("npuzzle/Cargo.toml").is_file() {
                return Err(format!(
                    "GRADER_RUST_CRATES is `{}`, which holds no npuzzle/Cargo.toml: point it at a copy of the \
                     grader's crates (npuzzle/, adapters/rust/harness/, reference/, their Cargo.toml and \
                     Cargo.lock, vendor/), or unset it to build against the crates inside the grader",
                    root.display()
                ));
            }
            return Ok(Pinned { root: std::path::absolute(&root).unwrap_or(root) });
        }
        crate::bundle::RUST_CRATES.unpacked(work).map(|root| Pinned { root }).map_err(|e| e.to_string())
    }

    /// This repository's crates, for tests that write manifests and build nothing.
    #[cfg(test)]
    pub fn repository() -> Pinned {
        Pinned { root: Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().expect("the repository") }
    }

    /// What a build of the grader's own crates must see of them (never a step that compiles a student's
    /// source): the workspace manifest they inherit from, the adapters, the reference the harness links, and
    /// `vendor/` where it exists.
    pub fn view(&self) -> Vec<PathBuf> {
        ["Cargo.toml", "Cargo.lock", "npuzzle", "adapters/rust", "reference", "vendor"]
            .iter()
            .map(|part| self.root.join(part))
            .filter(|path| path.exists())
            .collect()
    }

    /// The vendored dependencies, where the grader ships them (the copy inside the grader).
    pub fn vendor(&self) -> Option<PathBuf> {
        Some(self.root.join("vendor")).filter(|vendor| vendor.is_dir())
    }

    /// The rustc flags of every build that compiles these crates or their vendored dependencies: their
    /// directory remapped to `/grader`. A dependency a student's crate shares with the wrapper (`itoa`, under
    /// `vendor/`) must be compiled with the same flags on both sides, or the link finds two versions of it.
    pub fn remap_flags(&self) -> Vec<String> {
        vec![format!("--remap-path-prefix={}={REMAPPED_ROOT}", self.root.display())]
    }

    /// The API crate students compile against.
    pub fn npuzzle(&self) -> PathBuf {
        self.root.join("npuzzle")
    }
}

/// A student's crate as read: its sources and the dependencies it keeps.
#[derive(Debug)]
pub struct Scratch {
    /// `src/` files: path relative to `src/`, contents.
    files: BTreeMap<PathBuf, Vec<u8>>,
    /// Extra dependencies the policy let through, as TOML `name = value` lines.
    extra: Vec<String>,
    /// The Rust edition the student's `Cargo.toml` declares (2021 where it declares none).
    edition: &'static str,
    /// Whether `unsafe` code compiles (the policy's `rust.allow_unsafe`).
    allow_unsafe: bool,
}

impl Scratch {
    /// Reads the student's crate at `dir`. `Err` is the message a student sees in place of compiler output.
    pub fn read(dir: &Path, policy: &RustBuild) -> Result<Scratch, String> {
        let manifest = manifest(dir)?;
        let extra = dependencies(&manifest, policy)?;
        let edition = edition(&manifest)?;
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
        Ok(Scratch { files, extra, edition, allow_unsafe: policy.allow_unsafe })
    }

    /// The cache key: a hash of the sources, the kept dependencies, the policy's `unsafe` rule and `api`
    /// (what the grader builds the crate against: its `npuzzle`, as built).
    pub fn key(&self, api: &impl Hash) -> String {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&self.files, &self.extra, self.edition, self.allow_unsafe, api).hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    }

    /// Whether the crate has a `src/lib.rs`, which the grader does not build (it builds `main.rs` and the
    /// modules it declares, as the library `student`).
    pub fn has_lib(&self) -> bool {
        self.files.contains_key(Path::new("lib.rs"))
    }

    /// Whether the crate brings dependencies (crates.io ones the policy let through). Their build scripts run
    /// at build time, and their sources must be in the build's view.
    pub fn has_dependencies(&self) -> bool {
        !self.extra.is_empty()
    }

    /// Writes the crate into `dir` as package `student-KEY` (library `student`), touching only files whose
    /// contents changed (Cargo decides what to rebuild from modification times).
    pub fn write(&self, dir: &Path, key: &str, pinned: &Pinned) -> std::io::Result<()> {
        for (path, bytes) in &self.files {
            write_if_changed(&dir.join("src").join(path), bytes)?;
        }
        write_if_changed(&dir.join("Cargo.toml"), self.manifest(key).as_bytes())?;
        let vendor = pinned.vendor().filter(|_| self.has_dependencies());
        let flags = if vendor.is_some() { pinned.remap_flags() } else { vec![] };
        write_cargo_files(dir, pinned, vendor.as_deref(), &flags)
    }

    fn manifest(&self, key: &str) -> String {
        let mut text = format!(
            "# Written by the grader: the student's src/ built as a library; `npuzzle` is the grader's, passed to\n\
             # rustc as an already compiled crate.\n\
             [package]\nname = \"student-{key}\"\nversion = \"0.0.0\"\nedition = \"{edition}\"\npublish = false\n\
             autobins = false\nautoexamples = false\nautotests = false\nautobenches = false\nbuild = false\n\n\
             [lib]\nname = \"student\"\npath = \"src/main.rs\"\n\n[dependencies]\n",
            edition = self.edition
        );
        for line in &self.extra {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str("\n[lints.rust]\ndead_code = \"allow\"\n");
        if !self.allow_unsafe {
            text.push_str("unsafe_code = \"forbid\"\n");
        }
        text.push_str(WORKSPACE_TAIL);
        text
    }
}

/// The end of every manifest the grader writes: a workspace of its own, and the release profile every build
/// shares (the wrapper links crates built in different workspaces, which must agree on it).
///
/// One codegen unit and no debug information: each submission compiles the harness anew (it is generic over
/// the student's types, so the wrapper crate is where it is optimized), and on one codegen unit that takes
/// about 35% less CPU (a gallery entry's build 1.9-2.4 s to 1.3-1.5 s, BENCHMARKS.md) for code as fast;
/// nothing reads a submission's debug information (a panic's location is in the message without it).
pub const WORKSPACE_TAIL: &str = "\n[workspace]\nresolver = \"2\"\n\n[profile.release]\ncodegen-units = 1\n";

/// Writes what a workspace of the grader's holds besides its manifest and sources: the pinned `Cargo.lock`
/// (once: cargo may prune it) and `.cargo/config.toml`, which takes crates from `vendor` when given and
/// passes `rustflags` to every rustc.
pub fn write_cargo_files(
    ws: &Path,
    pinned: &Pinned,
    vendor: Option<&Path>,
    rustflags: &[String],
) -> std::io::Result<()> {
    if !ws.join("Cargo.lock").exists() {
        if let Ok(lock) = std::fs::read(pinned.root.join("Cargo.lock")) {
            write_if_changed(&ws.join("Cargo.lock"), &lock)?;
        }
    }
    let mut config = String::new();
    if let Some(vendor) = vendor {
        config.push_str(&format!(
            "[source.crates-io]\nreplace-with = \"vendored\"\n\n[source.vendored]\ndirectory = {}\n\n",
            toml_string(vendor)
        ));
    }
    if !rustflags.is_empty() {
        let flags: toml::Value = rustflags.to_vec().into();
        config.push_str(&format!("[build]\nrustflags = {flags}\n"));
    }
    write_if_changed(&ws.join(".cargo/config.toml"), config.as_bytes())
}

/// The student's `Cargo.toml`, read.
fn manifest(dir: &Path) -> Result<toml::Table, String> {
    let text =
        std::fs::read_to_string(dir.join("Cargo.toml")).map_err(|e| format!("failed to read Cargo.toml: {e}"))?;
    text.parse().map_err(|e| format!("Cargo.toml is not valid TOML: {e}"))
}

/// The editions the grader's compiler builds.
const EDITIONS: [&str; 4] = ["2015", "2018", "2021", "2024"];

/// The edition the manifest's `[package]` declares: the crate is built in it, as `cargo build` builds it on
/// the student's machine. A manifest that declares none is built in 2021, as the grader always built it.
fn edition(manifest: &toml::Table) -> Result<&'static str, String> {
    let Some(declared) = manifest.get("package").and_then(|p| p.get("edition")) else {
        return Ok("2021");
    };
    let text = declared.as_str().map_or_else(|| declared.to_string(), str::to_string);
    EDITIONS.into_iter().find(|&e| e == text).ok_or_else(|| {
        format!(
            "Cargo.toml declares edition {text}, which the grader's Rust compiler does not build: use one of {}",
            EDITIONS.join(", ")
        )
    })
}

/// The student's `[dependencies]` the grader keeps (beyond `npuzzle`, which it always supplies), as TOML
/// lines; `Err` names what the policy refuses.
fn dependencies(manifest: &toml::Table, policy: &RustBuild) -> Result<Vec<String>, String> {
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

/// `path` as a TOML string.
pub fn toml_string(path: &Path) -> String {
    toml::Value::String(path.to_string_lossy().into_owned()).to_string()
}

/// Writes `bytes` to `path` unless it holds them already (its modification time then stays), through a
/// temporary file renamed over it.
pub fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
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
        let ok = crate_with("[package]\nname='x'\n[dependencies]\nnpuzzle = { path = '/nowhere' }\n");
        let read = Scratch::read(ok.path(), &RustBuild::default()).unwrap();
        assert!(!read.has_dependencies(), "npuzzle is not a dependency: the grader passes its own");
        let manifest: toml::Table = read.manifest("k").parse().unwrap();
        assert_eq!(manifest["dependencies"].as_table().map(toml::Table::len), Some(0), "{manifest}");
        let answer_key = crate_with("[dependencies]\nreference = { path = '../reference' }\n");
        let e = Scratch::read(answer_key.path(), &RustBuild::default()).unwrap_err();
        assert!(e.contains("`reference`, which is the grader's own crate"), "{e}");
        let renamed = crate_with("[dependencies]\nkey = { path = 'r', package = 'npuzzle-harness' }\n");
        let e = Scratch::read(renamed.path(), &RustBuild::default()).unwrap_err();
        assert!(e.contains("`npuzzle-harness`"), "{e}");
        let extra = crate_with("[dependencies]\nrand = \"0.8\"\n");
        let e = Scratch::read(extra.path(), &RustBuild::default()).unwrap_err();
        assert!(e.contains("rust.allow_dependencies"), "{e}");
        let allowed = RustBuild { allow_dependencies: true, ..RustBuild::default() };
        let kept = Scratch::read(extra.path(), &allowed).unwrap();
        assert!(kept.has_dependencies());
        assert!(kept.manifest("k").contains("\"rand\" = \"0.8\""), "{}", kept.manifest("k"));
    }

    /// A crate is built in the edition its manifest declares (2024: what `cargo new` writes today), 2021 where
    /// it declares none; one the compiler does not build is refused with the ones it does; the key follows it.
    #[test]
    fn the_crate_is_built_in_its_declared_edition() {
        let read = |manifest: &str| Scratch::read(crate_with(manifest).path(), &RustBuild::default());
        let edition = |manifest: &str| {
            let built: toml::Table = read(manifest).unwrap().manifest("k").parse().unwrap();
            built["package"]["edition"].as_str().unwrap().to_string()
        };
        assert_eq!(edition("[package]\nname='x'\nedition = \"2024\"\n"), "2024");
        assert_eq!(edition("[package]\nname='x'\nedition = \"2018\"\n"), "2018");
        assert_eq!(edition("[package]\nname='x'\n"), "2021");
        let e = read("[package]\nname='x'\nedition = \"2027\"\n").unwrap_err();
        assert_eq!(
            e,
            "Cargo.toml declares edition 2027, which the grader's Rust compiler does not build: use one of 2015, \
             2018, 2021, 2024"
        );
        let key = |manifest: &str| read(manifest).unwrap().key(&1u64);
        assert_ne!(key("[package]\nedition = \"2021\"\n"), key("[package]\nedition = \"2024\"\n"));
    }

    #[test]
    fn a_linked_source_file_is_refused_by_name() {
        let linked = crate_with("[package]\nname='x'\n");
        std::os::unix::fs::symlink("/etc/hostname", linked.path().join("src/board.rs")).unwrap();
        let e = Scratch::read(linked.path(), &RustBuild::default()).unwrap_err();
        assert!(e.starts_with("src/board.rs is a symbolic link"), "{e}");
    }

    #[test]
    fn the_key_follows_the_sources_the_unsafe_rule_and_the_api_crate() {
        let a = crate_with("[package]\nname='a'\n");
        let b = crate_with("[package]\nname='b'\n");
        let key = |d: &Path, policy: &RustBuild, api: u64| Scratch::read(d, policy).unwrap().key(&api);
        let strict = RustBuild::default();
        assert_eq!(key(a.path(), &strict, 1), key(b.path(), &strict, 1), "only src/ and the kept dependencies count");
        assert_ne!(key(a.path(), &strict, 1), key(a.path(), &strict, 2), "a rebuilt npuzzle is a new build");
        let lax = RustBuild { allow_unsafe: true, ..RustBuild::default() };
        assert_ne!(key(a.path(), &strict, 1), key(a.path(), &lax, 1));
        std::fs::write(b.path().join("src/board.rs"), "// more").unwrap();
        assert_ne!(key(a.path(), &strict, 1), key(b.path(), &strict, 1));
    }

    #[test]
    fn the_cargo_files_vendor_and_pass_flags_only_when_asked() {
        let ws = tempfile::tempdir().unwrap();
        let pinned = Pinned::repository();
        write_cargo_files(ws.path(), &pinned, None, &[]).unwrap();
        assert_eq!(std::fs::read_to_string(ws.path().join(".cargo/config.toml")).unwrap(), "");
        assert!(ws.path().join("Cargo.lock").is_file(), "the pinned versions");
        let flags = ["--remap-path-prefix=/a b=/grader".to_string()];
        write_cargo_files(ws.path(), &pinned, Some(Path::new("/v")), &flags).unwrap();
        let config: toml::Table =
            std::fs::read_to_string(ws.path().join(".cargo/config.toml")).unwrap().parse().unwrap();
        assert_eq!(config["source"]["vendored"]["directory"].as_str(), Some("/v"));
        assert_eq!(config["build"]["rustflags"][0].as_str(), Some(flags[0].as_str()));
    }
}
