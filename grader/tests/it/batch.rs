//! A whole class at once (Rust, Java and Python side by side): `grader batch` survives broken submissions, and grading in parallel gives exactly
//! the grades of grading one at a time (verdicts rest on counts, not on time).

use std::path::Path;
use std::process::Command;

use crate::support::{copy_resolved, quick_policy, reference_submission, root};

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
    copy_resolved(&java.join("hamming-counts-blank"), &class.path().join("bob"));
    copy_resolved(&java.join("compile-error"), &class.path().join("carol"));
    std::fs::copy(root().join("fixtures/submissions/programs/garbage.sh"), class.path().join("dave")).unwrap();
    std::fs::create_dir(class.path().join("erin")).unwrap();
    copy_resolved(&root().join("fixtures/submissions/python/hamming-counts-blank"), &class.path().join("frank"));
    let out = tempfile::tempdir().unwrap();
    let serial = batch(class.path(), &out.path().join("serial"), "1");
    let parallel = batch(class.path(), &out.path().join("parallel"), "3");
    assert_eq!(serial, parallel);
    let rows: Vec<&str> = serial.lines().collect();
    assert_eq!(rows.len(), 7, "{serial}");
    // The row ends `score,failed,error`: both empty when everything passed.
    assert!(rows[1].starts_with("alice,5.00,") && rows[1].ends_with(",,"), "alice passes everything: {}", rows[1]);
    assert!(rows[2].starts_with("bob,") && rows[2].contains("board-1a board-1b board-14 board-16"), "{}", rows[2]);
    assert!(rows[3].starts_with("carol,0.00,") && rows[3].contains("compile-1"), "{}", rows[3]);
    assert!(rows[4].starts_with("dave,") && rows[4].contains("board-1a"), "{}", rows[4]);
    assert!(rows[5].starts_with("erin,") && rows[5].contains("is not a submission"), "{}", rows[5]);
    assert!(
        rows[6].starts_with("frank,") && rows[6].contains("board-1a board-1b board-14 board-16"),
        "a Python folder is graded beside the others: {}",
        rows[6]
    );
    assert!(out.path().join("parallel/bob.txt").is_file() && out.path().join("parallel/bob.json").is_file());
}

/// A class as Canvas hands it over: one zip of `name_USERID_SUBMISSIONID_File.java` files (a resubmission
/// renamed `Solver-1.java`), with a student's own zip inside and a hostile entry; the gradebook lists every
/// student, what was skipped and why, and its categories as an object.
#[test]
fn a_canvas_export_zip_grades_in_one_batch() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("submissions.zip");
    let java = root().join("fixtures/submissions/java");
    let inner = dir.path().join("inner.zip");
    {
        let mut student = zip::ZipWriter::new(std::fs::File::create(&inner).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        for file in ["Board.java", "Solver.java"] {
            student.start_file(format!("8puzzle/{file}"), options).unwrap();
            student.write_all(&std::fs::read(java.join("hamming-counts-blank").join(file)).unwrap()).unwrap();
        }
        student.start_file("../../../tmp/escaped-by-a-student", options).unwrap();
        student.write_all(b"x").unwrap();
        student.finish().unwrap();
    }
    {
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&class).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        let mut add = |name: &str, bytes: &[u8]| {
            zip.start_file(name, options).unwrap();
            zip.write_all(bytes).unwrap();
        };
        add("lovelaceada_101_9001_Board.java", &std::fs::read(java.join("valid/Board.java")).unwrap());
        add("lovelaceada_late_101_9002_Solver-1.java", &std::fs::read(java.join("valid/Solver.java")).unwrap());
        add("babbagecharles_102_9003_8puzzle.zip", &std::fs::read(&inner).unwrap());
        add("readme.pdf", b"%PDF");
        zip.finish().unwrap();
    }
    let out = dir.path().join("grades");
    let policy = quick_policy();
    let status = Command::new(env!("CARGO_BIN_EXE_grader"))
        .arg("batch")
        .arg(&class)
        .args(["--output-dir", out.to_str().unwrap(), "--policy", policy.to_str().unwrap(), "--only", "board-1a"])
        .status()
        .unwrap();
    assert!(status.success());
    let gradebook: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("gradebook.json")).unwrap()).unwrap();
    let students = gradebook["students"].as_array().unwrap();
    let names: Vec<&str> = students.iter().map(|s| s["student"].as_str().unwrap()).collect();
    assert_eq!(names, ["babbagecharles", "lovelaceada"]);
    assert_eq!(students[0]["failed"], serde_json::json!(["board-1a"]), "{gradebook}");
    assert_eq!(students[1]["failed"], serde_json::json!([]), "{gradebook}");
    assert!(students[1]["categories"]["board"].is_number(), "categories keyed by name: {gradebook}");
    let skipped: Vec<String> = gradebook["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{}: {}", s["entry"].as_str().unwrap(), s["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(skipped.iter().any(|s| s.starts_with("babbagecharles_102_9003_8puzzle.zip: ../../../tmp/escaped")));
    assert!(skipped.iter().any(|s| s.starts_with("readme.pdf: not a submission")));
    assert!(!Path::new("/tmp/escaped-by-a-student").exists());
    assert!(out.join("lovelaceada.txt").is_file());
}
