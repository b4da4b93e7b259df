//! `grader new`: each starter builds and runs where it is written, outside this repository, with nothing to
//! download; the Python kit's client runs as the assignment's, its `algs4.MinPQ` behaves as the grader's, and
//! a kit folder outside the repository grades.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{grader, quick_python_policy, root};

/// Writes the starter for `language` into a fresh folder outside the repository.
fn starter(language: &str) -> (tempfile::TempDir, PathBuf) {
    let outside = tempfile::tempdir().unwrap();
    let dir = outside.path().join("my-8puzzle");
    let made = grader().args(["new", language]).arg(&dir).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    assert!(!dir.starts_with(root()), "the starter is outside the repository");
    (outside, dir)
}

fn run(dir: &Path, program: &str, args: &[&str]) -> Output {
    Command::new(program).args(args).current_dir(dir).output().unwrap()
}

fn said(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The valid gallery Board and Solver (Python), with the kit's test client under the Solver.
fn fill_python(dir: &Path) {
    let valid = root().join("fixtures/submissions/python/valid");
    std::fs::copy(valid.join("board.py"), dir.join("board.py")).unwrap();
    let kit = std::fs::read_to_string(dir.join("solver.py")).unwrap();
    let client = &kit[kit.find("def main(args):").expect("the kit's solver.py has the client")..];
    let solver = std::fs::read_to_string(valid.join("solver.py")).unwrap();
    std::fs::write(dir.join("solver.py"), format!("{solver}\n\n{client}")).unwrap();
}

#[test]
fn the_python_kit_runs_the_assignments_client_and_grades_from_outside_the_repository() {
    let (_outside, dir) = starter("python");
    let skeleton = run(&dir, "python3", &["solver.py", "puzzle04.txt"]);
    assert!(said(&skeleton).contains("NotImplementedError: Board(tiles)"), "{}", said(&skeleton));
    fill_python(&dir);
    let client = run(&dir, "python3", &["solver.py", "puzzle04.txt"]);
    assert!(client.status.success(), "{}", said(&client));
    let out = String::from_utf8_lossy(&client.stdout);
    assert!(out.starts_with("Minimum number of moves = 4\n3\n 0  2  3\n"), "{out}");
    let graded = grader()
        .arg("grade")
        .arg(&dir)
        .args(["--quiet", "--policy", quick_python_policy().to_str().unwrap()])
        .args(["--only", "board-1a", "--only", "solver-2a", "--only", "timing-2/puzzle30", "--format", "json"])
        .arg("--self-check")
        .output()
        .unwrap();
    let json: serde_json::Value =
        serde_json::from_slice(&graded.stdout).unwrap_or_else(|_| panic!("{}", said(&graded)));
    assert_eq!(graded.status.code(), Some(0), "{json:#}");
    // a student's quick check says in every report that its score is no grade
    assert!(json["notes"][0].as_str().is_some_and(|n| n.starts_with("a self-check (--self-check)")), "{json:#}");
    assert_eq!(json["submission"]["language"], "python");
    // The kit's own algs4.py is not the one graded: the grader's counting MinPQ counted the solve.
    let row = json["tests"].as_array().unwrap().iter().find(|t| t["id"] == "timing-2/puzzle30").unwrap();
    assert!(row["rows"][0].as_str().unwrap().split_whitespace().nth(3).is_some_and(|n| n != "0"), "{row}");
}

/// The kit's MinPQ and the grader's counting one give the same items in the same order on the same
/// operations, ties included (what a student runs locally is what is graded).
#[test]
fn the_kit_minpq_is_the_graders_without_the_counting() {
    let script = r#"
import random, sys
sys.path.insert(0, sys.argv[1])
from algs4 import MinPQ
rng = random.Random(7)
pq, out = MinPQ(key=lambda item: item[0]), []
for step in range(4000):
    if pq.is_empty() or rng.random() < 0.55:
        pq.insert((rng.randrange(20), step))
    else:
        out.append(pq.del_min()[1])
out.extend(item[1] for item in pq)
print(pq.size(), out)
"#;
    let order = |dir: &Path| {
        let output = Command::new("python3").arg("-c").arg(script).arg(dir).output().unwrap();
        assert!(output.status.success(), "{}", said(&output));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let kit = order(&root().join("templates/python-submission"));
    assert_eq!(kit, order(&root().join("adapters/python")));
    assert!(kit.len() > 4000, "{kit}");
}

/// The skeleton, then a Solver that uses the counting MinPQ (javac then compiles the classes it reports to).
#[test]
fn the_java_starter_compiles_and_runs_with_javac_alone() {
    let (_outside, dir) = starter("java");
    let compiled = run(&dir, "javac", &["Board.java", "Solver.java"]);
    assert!(compiled.status.success(), "{}", said(&compiled));
    let skeleton = run(&dir, "java", &["Solver", "puzzle04.txt"]);
    assert!(said(&skeleton).contains("UnsupportedOperationException: Board(int[][])"), "{}", said(&skeleton));
    for file in ["Board.java", "Solver.java"] {
        std::fs::copy(root().join("fixtures/submissions/java/valid").join(file), dir.join(file)).unwrap();
    }
    let compiled = run(&dir, "javac", &["Board.java", "Solver.java"]);
    assert!(compiled.status.success(), "{}", said(&compiled));
    let client = run(&dir, "java", &["Solver", "puzzle04.txt"]);
    assert!(said(&client).starts_with("Minimum number of moves = 4\n3\n 0  2  3 \n"), "{}", said(&client));
}

#[test]
fn the_rust_starter_builds_offline_where_it_is_written() {
    let (outside, dir) = starter("rust");
    let built = Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", outside.path().join("target"))
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", said(&built));
    let ran = Command::new(outside.path().join("target/debug/my-8puzzle"))
        .arg("puzzle04.txt")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(said(&ran).contains("not yet implemented"), "the skeleton runs to its first todo!(): {}", said(&ran));
}
