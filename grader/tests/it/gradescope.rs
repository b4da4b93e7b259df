//! `make gradescope`'s zip works: unpacked into a fake `/autograder` tree, its `run_autograder` grades a
//! real Java submission and writes a valid `results.json`.

use std::process::Command;

use crate::support::root;

#[test]
fn run_autograder_writes_a_valid_results_json_in_a_fake_autograder_tree() {
    let fake = tempfile::tempdir().unwrap();
    let zip = fake.path().join("autograder.zip");
    let policy = fake.path().join("course-policy.toml");
    std::fs::write(&policy, "[tests]\nskip = [\"timing-*\", \"memory-*\", \"board-*\", \"solver-3*\", \"solver-4*\", \"solver-12*\", \"solver-13*\", \"solver-14*\", \"solver-15*\", \"beyond-*\"]\nhidden = [\"solver-11\"]\n").unwrap();
    let packaged = Command::new(root().join("gradescope/package.sh"))
        .arg(&zip)
        .arg(env!("CARGO_BIN_EXE_grader"))
        .arg(&policy)
        .status()
        .unwrap();
    assert!(packaged.success());
    let source = fake.path().join("source");
    // Extract as Gradescope's unzip does: restoring each entry's Unix mode, which must mark scripts executable.
    let unzip = r#"
import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1])
for info in z.infolist():
    path = z.extract(info, sys.argv[2])
    mode = info.external_attr >> 16
    if mode:
        os.chmod(path, mode & 0o7777)
    if info.filename in ('run_autograder', 'setup.sh', 'bin/grader') and not mode & 0o111:
        sys.exit(info.filename + ' is not executable in the zip')
"#;
    let unzipped = Command::new("python3").arg("-c").arg(unzip).arg(&zip).arg(&source).output().unwrap();
    assert!(unzipped.status.success(), "{}", String::from_utf8_lossy(&unzipped.stderr));
    let submission = fake.path().join("submission");
    std::fs::create_dir(&submission).unwrap();
    for file in ["Board.java", "Solver.java"] {
        std::fs::copy(root().join("fixtures/submissions/java/valid").join(file), submission.join(file)).unwrap();
    }
    let ran = Command::new(source.join("run_autograder")).env("AUTOGRADER_ROOT", fake.path()).output().unwrap();
    assert!(ran.status.success(), "{}", String::from_utf8_lossy(&ran.stderr));
    let results = std::fs::read_to_string(fake.path().join("results/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert!(json["score"].as_f64().unwrap() > 0.0, "{results}");
    let tests = json["tests"].as_array().unwrap();
    assert!(tests.iter().any(|t| t["number"] == "solver-2a" && t["status"] == "passed"), "{results}");
    let hidden = tests.iter().find(|t| t["number"] == "solver-11").unwrap();
    assert_eq!(hidden["visibility"], "after_due_date");
    assert_eq!(hidden["status"], "passed", "the valid submission rejects a null board");
}

/// A grader problem found while grading (the machine stalled a test twice, a fixture missing) leaves the
/// report the grader wrote, which names it at its top, and the wrapper exits 2 as the grader did. (A fake
/// grader stands in: what is checked is the wrapper.)
#[test]
fn run_autograder_keeps_a_report_that_names_a_grader_problem_and_exits_2() {
    let fake = tempfile::tempdir().unwrap();
    let bin = fake.path().join("source/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(fake.path().join("submission")).unwrap();
    let grader = bin.join("grader");
    std::fs::write(
        &grader,
        "#!/bin/sh\nwhile [ $# -gt 0 ]; do [ \"$1\" = --output ] && out=$2; shift; done\n\
         echo '{\"score\": 7, \"output\": \"GRADER PROBLEM (not the submission): the machine stalled\", \"tests\": []}' > \"$out\"\n\
         exit 2\n",
    )
    .unwrap();
    std::fs::set_permissions(&grader, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let ran =
        Command::new(root().join("gradescope/run_autograder")).env("AUTOGRADER_ROOT", fake.path()).output().unwrap();
    assert_eq!(ran.status.code(), Some(2), "{}", String::from_utf8_lossy(&ran.stderr));
    let results = std::fs::read_to_string(fake.path().join("results/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(json["score"], 7.0, "the grader's report is kept: {results}");
    assert!(json["output"].as_str().unwrap().starts_with("GRADER PROBLEM"), "{results}");
}
