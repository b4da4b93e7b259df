//! A `grader` copied alone to another machine grades every kind of submission: the built binary, copied into
//! an empty folder and run there with the checkout it was built from hidden (a private mount namespace with
//! an empty tmpfs over the checkout) and no registry cache (another tmpfs over `$CARGO_HOME/registry`),
//! grades a Java, a Python and a Rust submission from the puzzles and crates it carries.
//!
//! Each report's text must equal, byte for byte once the work directories' paths are scrubbed, the report
//! of the grader in the checkout on the same copy of the submission.
//!
//! The Python grade unpacks into a work directory of its own, so the bundle's first use is part of the run;
//! the Java and Rust grades use the tests' shared one (`support::shared_tmpdir`), where the Java adapter and
//! the grader's crates, unpacked from the same binary, are compiled once for every test.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{copy_resolved, grade_in, grade_with, root, scrub, shared_tmpdir, Graded, Setting};

/// Hides `$1` (the checkout) and `$2` (the registry cache, where there is one) under empty tmpfs mounts, checks
/// that the checkout is gone, and runs the rest of the arguments.
const HIDE: &str = r#"set -e
checkout="$1"; registry="$2"; shift 2
mount -t tmpfs -o size=1m lone-checkout "$checkout"
if [ -d "$registry" ]; then mount -t tmpfs -o size=1m lone-registry "$registry"; fi
if [ -e "$checkout/Cargo.toml" ]; then echo "the checkout is still visible" >&2; exit 97; fi
exec "$@""#;

#[test]
fn a_grader_copied_alone_grades_java_python_and_rust_with_the_checkout_hidden() {
    if let Some(why) = cannot_hide() {
        eprintln!("SKIPPED lone::a_grader_copied_alone_grades_java_python_and_rust_with_the_checkout_hidden: {why}");
        return;
    }
    let lone = tempfile::tempdir().unwrap();
    assert!(!lone.path().starts_with(root()), "the copy must be outside the checkout it hides");
    let grader = lone.path().join("grader");
    std::fs::copy(env!("CARGO_BIN_EXE_grader"), &grader).unwrap();
    let cargo_home = std::env::var_os("CARGO_HOME").map(PathBuf::from);
    let registry = cargo_home.unwrap_or_else(|| home().join(".cargo")).join("registry");
    let hidden = || {
        let mut command = Command::new("unshare");
        command.args(["--mount", "--propagation", "private", "sh", "-c", HIDE, "sh"]).arg(root()).arg(&registry);
        command
            .arg(&grader)
            .env("TMPDIR", shared_tmpdir())
            .env_remove("GRADER_RUST_CRATES")
            .env_remove("GRADER_WORK_DIR");
        command
    };
    let fresh_work = lone.path().join("work");
    let fresh_work_env = [("GRADER_WORK_DIR", fresh_work.to_str().unwrap())];
    let only = ["--only", "board-1a", "--only", "solver-2a"];
    for (language, entry, env) in [
        ("python", "python/valid", &fresh_work_env[..]),
        ("java", "java/valid", &[][..]),
        ("rust", "rust/valid-single-queue", &[][..]),
    ] {
        let submission = lone.path().join(language).join(Path::new(entry).file_name().unwrap());
        copy_resolved(&root().join("fixtures/submissions").join(entry), &submission);
        let setting = Setting { cwd: Some(lone.path()), env, text_to_file: false };
        let graded = grade_with(hidden(), &submission, &only, &setting);
        assert_eq!(graded.code, 0, "{language}: {}\n{}", graded.stderr, graded.text);
        for id in ["compile-1", "board-1a", "solver-2a"] {
            assert_eq!(passed(&graded, id), "passed", "{language} {id}: {}", graded.text);
        }
        assert!(graded.text.starts_with("ASSESSMENT SUMMARY") && graded.text.contains("Compilation:"), "{language}");
        // The same submission graded by the grader in the checkout, which reads the same bundle.
        let in_checkout = grade_in(&submission, &only, &Setting { cwd: Some(&root()), ..Setting::default() });
        assert_eq!(in_checkout.code, 0, "{language} in the checkout: {}", in_checkout.stderr);
        let work_dirs = [fresh_work.clone(), shared_tmpdir().join(format!("npuzzle-grader-{}", uid()))];
        assert_eq!(
            scrubbed(&graded.text, &work_dirs),
            scrubbed(&in_checkout.text, &work_dirs),
            "{language}: the lone grader's report differs from the checkout's"
        );
        assert_eq!(graded.statuses(), in_checkout.statuses(), "{language}");
    }
    let unpacked: Vec<String> = std::fs::read_dir(&fresh_work)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("puzzles-"))
        .collect();
    assert_eq!(unpacked.len(), 1, "the Python grade unpacked the bundled puzzles on first use: {unpacked:?}");
}

fn passed(graded: &Graded, id: &str) -> String {
    graded.test(id)["status"].as_str().unwrap_or("").to_string()
}

/// `text` with the work directories' paths and what [`scrub`] removes replaced by the same marks.
fn scrubbed(text: &str, work_dirs: &[PathBuf]) -> String {
    let text = work_dirs.iter().fold(text.to_string(), |text, dir| text.replace(&dir.display().to_string(), "[WORK]"));
    scrub(&text)
}

fn uid() -> u32 {
    // SAFETY: getuid has no preconditions.
    unsafe { libc::getuid() }
}

fn home() -> PathBuf {
    std::env::var_os("HOME").map(PathBuf::from).unwrap_or_else(|| PathBuf::from("/root"))
}

/// Why this machine cannot hide the checkout from a process (`unshare -m` needs root, or `CAP_SYS_ADMIN`,
/// and a kernel and container that allow mount namespaces), or `None`.
fn cannot_hide() -> Option<String> {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        return Some("hiding the checkout takes a private mount namespace, which needs root".into());
    }
    let probe = Command::new("unshare")
        .args(["--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs lone-probe \"$0\""])
        .arg(std::env::temp_dir())
        .output();
    match probe {
        Ok(output) if output.status.success() => None,
        Ok(output) => Some(format!(
            "`unshare --mount` with a tmpfs failed here: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        )),
        Err(e) => Some(format!("`unshare` (util-linux) could not run: {e}")),
    }
}
