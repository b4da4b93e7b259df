//! A whole class at once (Rust, Java and Python side by side): `grader batch` survives broken submissions, and grading in parallel gives exactly
//! the grades of grading one at a time (verdicts rest on counts, not on time).

use std::path::Path;
use std::process::Command;

use crate::support::{quick_policy, reference_submission, root};

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
    }
}

fn batch(class: &Path, out: &Path, jobs: &str) -> String {
    let policy = quick_policy();
    let status = Command::new(env!("CARGO_BIN_EXE_grader"))
        .arg("batch")
        .arg(class)
        .args(["--output-dir", out.to_str().unwrap(), "--jobs", jobs, "--policy", policy.to_str().unwrap()])
        .args(["--only", "board-1*", "--only", "board-9", "--only", "solver-2a", "--only", "timing-*/puzzle32"])
        .status()
        .unwrap();
    assert!(status.success());
    std::fs::read_to_string(out.join("gradebook.csv")).unwrap()
}

#[test]
fn parallel_grading_gives_the_grades_of_serial_grading_and_survives_broken_submissions() {
    let class = tempfile::tempdir().unwrap();
    std::fs::copy(reference_submission(), class.path().join("alice")).unwrap();
    let java = root().join("fixtures/submissions/java");
    copy_dir(&java.join("hamming-counts-blank"), &class.path().join("bob"));
    copy_dir(&java.join("compile-error"), &class.path().join("carol"));
    std::fs::copy(root().join("fixtures/submissions/programs/garbage.sh"), class.path().join("dave")).unwrap();
    std::fs::create_dir(class.path().join("erin")).unwrap();
    copy_dir(&root().join("fixtures/submissions/python/hamming-counts-blank"), &class.path().join("frank"));
    let out = tempfile::tempdir().unwrap();
    let serial = batch(class.path(), &out.path().join("serial"), "1");
    let parallel = batch(class.path(), &out.path().join("parallel"), "3");
    assert_eq!(serial, parallel);
    let rows: Vec<&str> = serial.lines().collect();
    assert_eq!(rows.len(), 7, "{serial}");
    // The row ends `score,failed,error`: both empty when everything passed.
    assert!(rows[1].starts_with("alice,5.00,") && rows[1].ends_with(",,"), "alice passes everything: {}", rows[1]);
    assert!(
        rows[2].starts_with("bob,")
            && rows[2].contains("board-1a board-1b board-9 board-11 board-12 board-14 board-16"),
        "{}",
        rows[2]
    );
    assert!(rows[3].starts_with("carol,0.00,") && rows[3].contains("compile-1"), "{}", rows[3]);
    assert!(rows[4].starts_with("dave,") && rows[4].contains("board-1a"), "{}", rows[4]);
    assert!(rows[5].starts_with("erin,") && rows[5].contains("is not a submission"), "{}", rows[5]);
    assert!(
        rows[6].starts_with("frank,")
            && rows[6].contains("board-1a board-1b board-9 board-11 board-12 board-14 board-16"),
        "a Python folder is graded beside the others: {}",
        rows[6]
    );
    assert!(out.path().join("parallel/bob.txt").is_file() && out.path().join("parallel/bob.json").is_file());
}
