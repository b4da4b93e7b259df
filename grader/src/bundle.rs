//! What the grader binary carries besides its code, so that a `grader` copied alone to another machine
//! grades every kind of submission: the bundled puzzles ([`PUZZLES`], `fixtures/puzzles`) and the sources of
//! the crates a Rust submission is built against ([`RUST_CRATES`]: `npuzzle`, the harness, the reference,
//! the workspace's manifest and lock, and their dependencies vendored, so a build needs no registry).
//!
//! `grader/build.rs` packs each into a gzipped tar inside the binary, with a key: a hash of its files. On
//! first use, [`Bundle::unpacked`] unpacks it into the work directory as `NAME-KEY/`, filled under a
//! temporary name and renamed once whole (`output::publish_dir`), so a grader killed midway leaves nothing
//! another takes for complete, and a grader whose bundle differs never reads this one's files. The puzzles'
//! folder is its owner's alone (mode 0700: they hold the expected answers, and where the kernel gives the
//! sandbox no mount namespace a submission's uid could otherwise read them); the crates' folder is readable
//! by all, as the build uid that compiles against them must read it. `--fixtures` and `GRADER_RUST_CRATES`
//! name other copies, and then nothing is unpacked.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::output;

/// One archive the binary carries.
#[derive(Debug, Clone, Copy)]
pub struct Bundle {
    /// Its folder's name, before the key (`NAME-KEY`).
    pub name: &'static str,
    /// What it holds, in words.
    what: &'static str,
    /// The other copy a user may name when it cannot be unpacked.
    instead: &'static str,
    /// A hash of its files' paths and contents (`build.rs`).
    pub key: &'static str,
    /// The gzipped tar.
    packed: &'static [u8],
    /// The mode of its unpacked folder.
    mode: u32,
}

/// The bundled puzzles: what `grader grade` and `grader batch` use without `--fixtures`.
pub const PUZZLES: Bundle = Bundle {
    name: "puzzles",
    what: "bundled puzzles",
    instead: "pass --fixtures DIR",
    key: env!("GRADER_BUNDLE_PUZZLES_KEY"),
    packed: include_bytes!(concat!(env!("OUT_DIR"), "/puzzles.tar.gz")),
    mode: 0o700,
};

/// The grader's crates and their vendored dependencies: what a Rust submission is built against without
/// `GRADER_RUST_CRATES`.
pub const RUST_CRATES: Bundle = Bundle {
    name: "rust-crates",
    what: "crates for Rust submissions",
    instead: "point GRADER_RUST_CRATES at a copy of the crates",
    key: env!("GRADER_BUNDLE_RUST_CRATES_KEY"),
    packed: include_bytes!(concat!(env!("OUT_DIR"), "/rust-crates.tar.gz")),
    mode: 0o755,
};

/// The bundle could not be unpacked.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot unpack the grader's {what} into `{}`: {source} (set GRADER_WORK_DIR to a writable folder with \
     space, or {instead})",
    dir.display()
)]
pub struct BundleError {
    what: &'static str,
    dir: PathBuf,
    instead: &'static str,
    source: std::io::Error,
}

impl Bundle {
    /// The folder holding this bundle's files, unpacked into `work` (created if missing) on first use; an
    /// absolute path.
    pub fn unpacked(&self, work: &Path) -> Result<PathBuf, BundleError> {
        let dir = work.join(format!("{}-{}", self.name, self.key));
        let error = |source| BundleError { what: self.what, dir: dir.clone(), instead: self.instead, source };
        std::fs::create_dir_all(work).map_err(error)?;
        let dir = std::path::absolute(&dir).map_err(error)?;
        if output::is_published(&dir) {
            return Ok(dir);
        }
        let staging = output::staging_dir(&dir).map_err(error)?;
        let unpacked = self.unpack_into(&staging);
        if unpacked.is_err() {
            let _ = std::fs::remove_dir_all(&staging);
        }
        unpacked.and_then(|()| output::publish_dir(&staging, &dir)).map_err(error)?;
        Ok(dir)
    }

    fn unpack_into(&self, staging: &Path) -> std::io::Result<()> {
        std::fs::set_permissions(staging, std::fs::Permissions::from_mode(self.mode))?;
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(self.packed));
        archive.set_preserve_mtime(false);
        // Entries whose path would leave `staging` are refused by `unpack`; the archive is ours anyway.
        archive.unpack(staging)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> Vec<String> {
        let mut found: Vec<String> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|entry| entry.unwrap())
            .filter(|entry| entry.file_type().is_file())
            .map(|entry| entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned())
            .collect();
        found.sort();
        found
    }

    #[test]
    fn the_bundled_puzzles_are_the_repositorys_and_their_folder_is_private() {
        let work = tempfile::tempdir().unwrap();
        let dir = PUZZLES.unpacked(&work.path().join("new")).unwrap();
        assert_eq!(dir, work.path().join(format!("new/puzzles-{}", PUZZLES.key)));
        let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/puzzles");
        let mut expected = files(&repository);
        expected.push("done".into());
        expected.sort();
        assert_eq!(files(&dir), expected);
        for name in ["puzzles.toml", "puzzle04.txt"] {
            assert_eq!(std::fs::read(dir.join(name)).unwrap(), std::fs::read(repository.join(name)).unwrap());
        }
        assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::read_dir(work.path().join("new")).unwrap().count(), 1, "no staging folder stays");
    }

    #[test]
    fn the_rust_crates_hold_the_api_the_harness_the_reference_and_their_dependencies() {
        let work = tempfile::tempdir().unwrap();
        let dir = RUST_CRATES.unpacked(work.path()).unwrap();
        for file in ["Cargo.toml", "Cargo.lock", "npuzzle/src/lib.rs", "adapters/rust/harness/src/lib.rs"] {
            assert!(dir.join(file).is_file(), "{file}");
        }
        assert!(dir.join("reference/src/board.rs").is_file());
        let manifest: toml::Table = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap().parse().unwrap();
        let members = &manifest["workspace"]["members"];
        assert_eq!(members.as_array().map(Vec::len), Some(3), "the grader's crates alone: {members}");
        for vendored in ["libc", "thiserror", "memchr", "itoa"] {
            assert!(dir.join("vendor").join(vendored).join(".cargo-checksum.json").is_file(), "{vendored}");
        }
        assert!(!dir.join("vendor/proptest").exists(), "no dev-dependency is vendored");
        assert!(!dir.join("vendor/clap").exists(), "nor the reference's command line");
        assert_eq!(std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777, 0o755);
    }

    #[test]
    fn a_published_bundle_is_used_as_it_is_and_a_half_unpacked_one_never() {
        let work = tempfile::tempdir().unwrap();
        let dir = PUZZLES.unpacked(work.path()).unwrap();
        std::fs::write(dir.join("puzzles.toml"), "# changed").unwrap();
        assert_eq!(PUZZLES.unpacked(work.path()).unwrap(), dir);
        assert_eq!(std::fs::read_to_string(dir.join("puzzles.toml")).unwrap(), "# changed", "not unpacked again");
        // What a grader killed midway leaves: its staging folder, never the final name.
        let killed = work.path().join(format!("rust-crates-{}.tmp-1-0", RUST_CRATES.key));
        std::fs::create_dir_all(killed.join("npuzzle")).unwrap();
        let crates = RUST_CRATES.unpacked(work.path()).unwrap();
        assert!(crates.join("npuzzle/Cargo.toml").is_file() && crates.join("done").is_file());
    }

    #[test]
    fn a_work_directory_that_cannot_be_written_says_what_to_do() {
        let work = tempfile::tempdir().unwrap();
        let file = work.path().join("a-file");
        std::fs::write(&file, "").unwrap();
        let e = PUZZLES.unpacked(&file).unwrap_err().to_string();
        assert!(e.contains("cannot unpack the grader's bundled puzzles") && e.contains("GRADER_WORK_DIR"), "{e}");
        assert!(e.contains("--fixtures"), "{e}");
    }
}
