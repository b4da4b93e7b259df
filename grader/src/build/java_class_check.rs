//! Test support: one of the Java adapter's classes checked on its own, by a small `main` beside it in the
//! `npuzzle` package (compiled with the JDK the other Java tests use), without a server or a submission.

use std::path::Path;
use std::process::Command;

use super::find_tool;

/// Compiles the adapter's `adapter_files` (paths under `adapters/java/server/npuzzle/`) with `check` (the
/// source of `npuzzle.CHECK_CLASS`, whose `main` prints its verdict), runs it, and returns what it printed,
/// trimmed. Panics, with the compiler's or the program's words, when either fails.
pub(super) fn run(adapter_files: &[&str], check_class: &str, check: &str) -> String {
    run_in("npuzzle", "server/npuzzle", adapter_files, check_class, check)
}

/// [`run`] for the classes of another package of the adapter: `package` (dotted), whose sources are under
/// `adapters/java/FOLDER/`; the check is `package.CHECK_CLASS`.
pub(super) fn run_in(package: &str, folder: &str, adapter_files: &[&str], check_class: &str, check: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let sources = dir.path().join(package.replace('.', "/"));
    std::fs::create_dir_all(&sources).unwrap();
    let adapter = Path::new(env!("CARGO_MANIFEST_DIR")).join("../adapters/java").join(folder);
    let mut files = Vec::new();
    for name in adapter_files {
        std::fs::copy(adapter.join(name), sources.join(name)).unwrap();
        files.push(sources.join(name));
    }
    let check_file = sources.join(format!("{check_class}.java"));
    std::fs::write(&check_file, check).unwrap();
    files.push(check_file);
    let classes = dir.path().join("classes");
    let javac = Command::new(find_tool("javac").unwrap()).arg("-d").arg(&classes).args(&files).output().unwrap();
    assert!(javac.status.success(), "{}", String::from_utf8_lossy(&javac.stderr));
    let run = Command::new(find_tool("java").unwrap())
        .arg("-cp")
        .arg(&classes)
        .arg(format!("{package}.{check_class}"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&run.stdout).trim().to_string();
    assert!(run.status.success(), "{:?}: {said} {}", run.status, String::from_utf8_lossy(&run.stderr));
    said
}
