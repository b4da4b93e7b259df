//! Hostile Rust submissions (`fixtures/submissions/hostile/`): each tries to reach the answer key, forge the
//! grader's counts or change what it is built against. Each attack must fail, the report must say why, and
//! the grader must finish with a report. Also: a crate copied anywhere grades as it does in this repository.

use std::path::{Path, PathBuf};

use crate::support::{copy_resolved, grade, quick_policy, root, Graded};

fn hostile(name: &str) -> PathBuf {
    root().join("fixtures/submissions/hostile").join(name)
}

fn grade_only(submission: &Path, only: &[&str]) -> Graded {
    let policy = quick_policy();
    let mut args = vec!["--policy", policy.to_str().unwrap()];
    for id in only {
        args.extend(["--only", id]);
    }
    let graded = grade(submission, &args);
    assert!(graded.text.contains("ASSESSMENT SUMMARY"), "the grader finished with a report: {}", graded.stderr);
    graded
}

/// The compiler's output in the report, which must exist: the submission did not compile.
fn compile_log(graded: &Graded) -> String {
    assert_eq!(graded.code, 1, "{}", graded.stderr);
    assert_eq!(graded.test("compile-1")["status"], "failed", "{}", graded.text);
    graded.json["compile_log"].as_str().expect("a compile log").to_string()
}

fn message(graded: &Graded, id: &str) -> String {
    graded.test(id)["message"].as_str().unwrap_or("").to_string()
}

fn ids_starting(graded: &Graded, prefix: &str) -> Vec<String> {
    graded.statuses().into_iter().map(|(id, _)| id).filter(|id| id.starts_with(prefix)).collect()
}

#[test]
fn the_answer_key_as_a_dependency_is_refused_by_name() {
    let graded = grade_only(&hostile("answer-key"), &["board-1a"]);
    let log = compile_log(&graded);
    assert!(log.contains("depends on `reference`, which is the grader's own crate"), "{log}");
    assert!(graded.json["score"].as_f64().unwrap_or(100.0) < 1.0);
}

#[test]
fn the_answer_key_cannot_be_found_without_declaring_it() {
    let log = compile_log(&grade_only(&hostile("answer-key-undeclared"), &["board-1a"]));
    assert!(log.contains("can't find crate for `reference`"), "{log}");
}

/// A copy of the hostile entry `name` that names a grader file by its absolute path, as a student who read
/// the grader's root in a compile error would: the root written in place of `@GRADER_ROOT@`.
fn naming_the_graders_root(name: &str) -> (tempfile::TempDir, PathBuf) {
    let outside = tempfile::tempdir().unwrap();
    let copy = outside.path().join(name);
    copy_resolved(&hostile(name), &copy);
    let main = copy.join("src/main.rs");
    let text = std::fs::read_to_string(&main).unwrap();
    assert!(text.contains("@GRADER_ROOT@"), "{text}");
    std::fs::write(&main, text.replace("@GRADER_ROOT@", &root().display().to_string())).unwrap();
    (outside, copy)
}

#[rstest::rstest]
#[case::the_answer_key_as_a_module("answer-key-path", "reference/src/solver.rs")]
#[case::a_grader_file_as_text("include-grader-file", "reference/src/oracle.rs")]
fn a_grader_file_named_by_its_path_is_not_in_the_student_builds_view(#[case] entry: &str, #[case] file: &str) {
    let named = root().join(file);
    assert!(named.is_file(), "the attack names a file that exists");
    let (_outside, copy) = naming_the_graders_root(entry);
    let log = compile_log(&grade_only(&copy, &["board-1a"]));
    assert!(log.contains(&format!("couldn't read `{}`", named.display())), "{log}");
    assert!(log.contains("nothing but its own src/ in view"), "the note says why: {log}");
}

#[test]
fn compiler_messages_name_the_api_crate_without_the_graders_root() {
    let outside = tempfile::tempdir().unwrap();
    let copy = outside.path().join("rust-submission");
    copy_resolved(&root().join("templates/rust-submission"), &copy);
    std::fs::write(
        copy.join("src/main.rs"),
        "mod board;\nmod solver;\nnpuzzle::submission_main!(u32, solver::Solver);\n",
    )
    .unwrap();
    let log = compile_log(&grade_only(&copy, &["board-1a"]));
    assert!(log.contains("the trait bound `u32: PuzzleBoard` is not satisfied"), "{log}");
    assert!(log.contains("--> /grader/npuzzle/src/api.rs:"), "{log}");
    assert!(!log.contains(&root().display().to_string()), "{log}");
}

#[test]
fn the_counters_cannot_be_named_so_they_cannot_be_reset() {
    let log = compile_log(&grade_only(&hostile("counter-reset"), &["board-1a"]));
    assert!(log.contains("reference"), "{log}");
    assert!(log.contains("src/solver.rs"), "the student's own file is named: {log}");
}

#[test]
fn a_binary_heap_solver_is_correct_but_fails_every_minpq_count() {
    let graded = grade_only(
        &hostile("binary-heap"),
        &["solver-2a", "timing-2/puzzle30", "memory-solver-2", "beyond-minpq", "timing-4a/puzzle30"],
    );
    assert_eq!(graded.test("solver-2a")["status"], "passed", "{}", graded.text);
    assert_eq!(graded.test("timing-4a/puzzle30")["status"], "passed", "boards are still counted: {}", graded.text);
    let minpq_tests: Vec<String> = ["timing-2/puzzle30", "beyond-minpq"]
        .into_iter()
        .map(String::from)
        .chain(ids_starting(&graded, "memory-solver-2"))
        .collect();
    assert!(minpq_tests.len() > 2, "{minpq_tests:?}");
    for id in &minpq_tests {
        assert_eq!(graded.test(id)["status"], "failed", "{id}: {}", graded.text);
        assert!(message(&graded, id).contains("did not use algs4's MinPQ"), "{id}: {}", message(&graded, id));
    }
}

#[test]
fn a_late_observer_cannot_replace_the_graders_counts() {
    let graded = grade_only(&hostile("observer-swap"), &["timing-2/puzzle30", "memory-solver-2", "solver-2a"]);
    for (id, status) in graded.statuses() {
        assert_eq!(status, "passed", "{id}: counts still reach the grader: {}", graded.text);
    }
}

#[test]
fn an_early_observer_does_not_compile_since_student_code_may_not_be_unsafe() {
    let log = compile_log(&grade_only(&hostile("early-observer"), &["board-1a"]));
    assert!(log.contains("link_section"), "{log}");
    assert!(log.contains("-F unsafe-code"), "{log}");
}

#[test]
fn a_path_to_a_modified_api_crate_is_ignored() {
    let log = compile_log(&grade_only(&hostile("modified-api"), &["board-1a"]));
    assert!(log.contains("forge_counts"), "built against the grader's npuzzle, which has no forge_counts: {log}");
}

#[test]
fn extra_dependencies_are_refused_by_default_with_the_policy_key_named() {
    let log = compile_log(&grade_only(&hostile("extra-dependency"), &["board-1a"]));
    assert!(log.contains("depends on `itoa`"), "{log}");
    assert!(log.contains("rust.allow_dependencies"), "{log}");
}

#[test]
fn extra_dependencies_build_offline_when_the_policy_allows_them() {
    let dir = tempfile::tempdir().unwrap();
    let policy = dir.path().join("policy.toml");
    let quick = std::fs::read_to_string(quick_policy()).unwrap();
    std::fs::write(&policy, format!("{quick}\n[rust]\nallow_dependencies = true\n")).unwrap();
    // board-4a reads the Board's toString(), which the crate writes with its dependency: it is linked.
    let graded = grade(&hostile("extra-dependency"), &["--policy", policy.to_str().unwrap(), "--only", "board-4a"]);
    assert_eq!(graded.test("compile-1")["status"], "passed", "{}", graded.text);
    assert_eq!(graded.test("board-4a")["status"], "passed", "{}", graded.text);
}

#[test]
fn a_crate_copied_outside_the_repository_grades_the_same() {
    let only = ["board-1a", "board-5a", "solver-2a", "timing-2/puzzle30", "memory-solver-2"];
    for from in [root().join("templates/rust-submission"), root().join("fixtures/submissions/rust/valid-last-two-twin")]
    {
        let outside = tempfile::tempdir().unwrap();
        let copy = outside.path().join(from.file_name().unwrap());
        copy_resolved(&from, &copy);
        let inside = grade_only(&from, &only);
        let copied = grade_only(&copy, &only);
        assert_eq!(inside.json_text, copied.json_text, "{}", copied.text);
        assert_eq!(inside.text, copied.text);
        assert_eq!(inside.test("compile-1")["status"], "passed", "{}", inside.text);
    }
}

#[test]
fn the_gradescope_zip_builds_a_rust_crate_offline_from_what_it_ships() {
    let fake = tempfile::tempdir().unwrap();
    let zip = fake.path().join("autograder.zip");
    let policy = fake.path().join("policy.toml");
    std::fs::write(&policy, "[tests]\nskip = [\"timing-*\", \"memory-*\", \"beyond-*\", \"board-*\", \"solver-1*\", \"solver-3*\", \"solver-4*\", \"solver-5*\", \"solver-6*\", \"solver-7*\", \"solver-8*\", \"solver-9*\"]\n").unwrap();
    let packaged = std::process::Command::new(root().join("gradescope/package.sh"))
        .arg(&zip)
        .arg(env!("CARGO_BIN_EXE_grader"))
        .arg(&policy)
        .status()
        .unwrap();
    assert!(packaged.success());
    let source = fake.path().join("source");
    let unzip = "import sys, zipfile, os\nz = zipfile.ZipFile(sys.argv[1])\nfor i in z.infolist():\n    p = z.extract(i, sys.argv[2])\n    m = i.external_attr >> 16\n    m and os.chmod(p, m & 0o7777)\n";
    let unzipped = std::process::Command::new("python3").arg("-c").arg(unzip).arg(&zip).arg(&source).status().unwrap();
    assert!(unzipped.success());
    assert!(!source.join("rust").exists(), "the grader carries the crates");
    copy_resolved(&root().join("fixtures/submissions/rust/valid-single-queue"), &fake.path().join("submission"));
    // An empty CARGO_HOME: no registry cache, so the build can only use what the zip ships.
    let cargo_home = fake.path().join("cargo-home");
    std::fs::create_dir(&cargo_home).unwrap();
    let ran = std::process::Command::new(source.join("run_autograder"))
        .env("AUTOGRADER_ROOT", fake.path())
        .env("CARGO_HOME", &cargo_home)
        .env_remove("GRADER_RUST_CRATES")
        .output()
        .unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let results = std::fs::read_to_string(fake.path().join("results/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&results).unwrap();
    let tests = json["tests"].as_array().unwrap();
    let status = |id: &str| tests.iter().find(|t| t["number"] == id).map(|t| t["status"].clone());
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert_eq!(status("compile-1"), Some("passed".into()), "{results}\n{stderr}");
    assert_eq!(status("solver-2a"), Some("passed".into()), "{results}");
    let unpacked = std::fs::read_dir(fake.path().join("cache")).unwrap().map(|e| e.unwrap().file_name());
    let crates: Vec<_> = unpacked.filter(|name| name.to_string_lossy().starts_with("rust-crates-")).collect();
    assert_eq!(crates.len(), 1, "built against the crates the grader unpacked: {crates:?}");
}
