//! A class graded in shards (`grader batch --shard K/N`) and joined (`grader gradebook merge`) gives the
//! gradebooks, reports and overview of the class graded in one process; a merge of shards graded differently
//! is refused, and a missing shard's students are named. `--dry-run` predicts the class's cost and grades
//! nothing. The class and its one-process gradebooks are shared with the Slurm and overview tests.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::OnceLock;

use serde_json::Value;

use crate::batch::{batch_in, parse_csv, BatchRun};
use crate::support::{copy_resolved, grader, reference_submission, root};

/// The tests every grading of the class runs: a few Board tests, a solver test and one timing puzzle.
pub const ONLY: [&str; 8] =
    ["--only", "board-1*", "--only", "board-9", "--only", "solver-2a", "--only", "timing-*/puzzle32"];

/// The shards the class is split into.
pub const SHARDS: u64 = 3;

/// A class of eight: three copies of the reference program, Java (correct, hamming() counting the blank, not
/// compiling), a Python hamming() counting the blank, and an empty folder (not a submission: not graded).
pub fn class() -> &'static Path {
    static CLASS: OnceLock<PathBuf> = OnceLock::new();
    CLASS.get_or_init(|| {
        let dir = root().join("target/e2e-class/submissions");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for student in ["alice", "gus", "hal"] {
            std::fs::copy(reference_submission(), dir.join(student)).unwrap();
        }
        let gallery = root().join("fixtures/submissions");
        copy_resolved(&gallery.join("java/valid"), &dir.join("bob"));
        copy_resolved(&gallery.join("java/hamming-counts-blank"), &dir.join("carol"));
        copy_resolved(&gallery.join("java/compile-error"), &dir.join("dave"));
        copy_resolved(&gallery.join("python/hamming-counts-blank"), &dir.join("frank"));
        std::fs::create_dir(dir.join("erin")).unwrap();
        dir
    })
}

/// The class graded in one process (HTML reports too, for the overview's links): its directory and run.
pub fn whole() -> &'static (PathBuf, BatchRun) {
    static WHOLE: OnceLock<(PathBuf, BatchRun)> = OnceLock::new();
    WHOLE.get_or_init(|| {
        let out = root().join("target/e2e-class/whole");
        let _ = std::fs::remove_dir_all(&out);
        let run = batch_in(class(), &out, &[&ONLY[..], &["--format", "text", "--format", "html"]].concat(), &[]);
        (out, run)
    })
}

/// `grader gradebook merge DIRS... --output-dir OUT`.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Output {
    grader().args(["gradebook", "merge"]).args(dirs).arg("--output-dir").arg(out).output().unwrap()
}

/// `gradebook.json` read as JSON.
pub fn json(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("gradebook.json")).unwrap()).unwrap()
}

/// That the gradebooks in `merged` are those of the class graded in one process: the students of
/// `gradebook.json` (and its overview), the rows of `gradebook.csv`, and `index.html`, `similarity.csv` and
/// every pair page, byte for byte.
pub fn assert_equals_whole(merged: &Path) {
    let (whole, _) = whole();
    let (ours, theirs) = (json(merged), json(whole));
    assert_eq!(ours["students"], theirs["students"]);
    assert_eq!(ours["overview"], theirs["overview"]);
    assert_eq!(ours["skipped"], theirs["skipped"]);
    let csv = |dir: &Path| parse_csv(&std::fs::read_to_string(dir.join("gradebook.csv")).unwrap());
    assert_eq!(csv(merged), csv(whole));
    let page = |dir: &Path| std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert_eq!(page(merged), page(whole), "the overview page is the same bytes");
    let similarity = |dir: &Path| {
        let mut pages: Vec<(String, String)> = std::fs::read_dir(dir.join("similarity"))
            .map(|read| read.map(|e| e.unwrap().path()).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
            .collect();
        pages.sort();
        (std::fs::read_to_string(dir.join("similarity.csv")).unwrap(), pages)
    };
    let (csv, pages) = similarity(whole);
    assert!(csv.contains("bob,bob,carol,carol,student,java,") && pages.len() >= 3, "{csv}");
    assert_eq!(similarity(merged), (csv, pages), "similarity.csv and the pair pages are the same bytes");
}

#[test]
fn shards_merged_equal_the_class_graded_in_one_process() {
    let (whole_dir, whole_run) = whole();
    assert_eq!(whole_run.code, 1, "erin is not graded: {}", whole_run.stderr);
    assert_eq!(whole_run.rows.len(), 9, "{:?}", whole_run.rows);
    assert!(whole_run.stderr.contains("grader: 7/8 ") && whole_run.stderr.contains(" left"), "{}", whole_run.stderr);
    let out = root().join("target/e2e-class/shards");
    let _ = std::fs::remove_dir_all(&out);
    let dirs: Vec<PathBuf> = (0..SHARDS).map(|k| out.join(format!("shard-{k}"))).collect();
    let mut graded = 0;
    for (k, dir) in dirs.iter().enumerate() {
        let shard = format!("{k}/{SHARDS}");
        let run = batch_in(
            class(),
            dir,
            &[&ONLY[..], &["--format", "text", "--format", "html", "--shard", &shard]].concat(),
            &[],
        );
        assert!(run.code == 0 || run.code == 1, "shard {shard}: {}", run.stderr);
        let book = json(dir);
        assert_eq!(book["shard"]["index"], k as u64);
        assert_eq!(book["shard"]["roster"].as_array().unwrap().len(), 8, "every shard names the whole class");
        assert!(book.get("overview").is_none() && !dir.join("index.html").exists(), "a shard has no overview");
        let kept: Vec<&str> = book["shard"]["similarity"]["students"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["id"].as_str().unwrap())
            .collect();
        let rows: Vec<&str> = book["students"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
        assert_eq!(kept, rows, "a shard keeps the fingerprints of each of its students");
        assert!(!dir.join("similarity.csv").exists(), "the merge compares, not a shard");
        graded += book["students"].as_array().unwrap().len();
    }
    assert_eq!(graded, 8, "each student is graded in one shard");
    assert!(
        dirs.iter().filter(|d| !json(d)["students"].as_array().unwrap().is_empty()).count() >= 2,
        "the class is split"
    );

    let merged = out.join("class");
    let output = merge(&dirs, &merged);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "erin is not graded: {stderr}");
    assert_equals_whole(&merged);
    for student in ["alice", "bob", "carol", "frank"] {
        for ext in ["txt", "html"] {
            let report = |dir: &Path| std::fs::read(dir.join(format!("{student}.{ext}"))).unwrap();
            assert_eq!(report(&merged), report(whole_dir), "{student}.{ext} is copied as graded");
        }
    }

    // A shard left out: its students are in the gradebook, not graded, each with the shard to grade again.
    let gone = dirs.iter().position(|d| !json(d)["students"].as_array().unwrap().is_empty()).unwrap();
    let names: Vec<String> = json(&dirs[gone])["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    let partial: Vec<PathBuf> = dirs.iter().enumerate().filter(|(k, _)| *k != gone).map(|(_, d)| d.clone()).collect();
    let output = merge(&partial, &out.join("partial"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains(&format!("(shard {gone}/{SHARDS})")) && stderr.contains(&names[0]), "{stderr}");
    let rows = parse_csv(&std::fs::read_to_string(out.join("partial/gradebook.csv")).unwrap());
    assert_eq!(rows.len(), 9, "every student has a row");
    let row = rows.iter().find(|r| r[0] == names[0]).unwrap();
    assert!(row.last().unwrap().contains(&format!("--shard {gone}/{SHARDS}")), "{row:?}");

    // A shard graded under another seed: the merge is refused, saying what differs, and writes nothing.
    let forged = out.join("forged");
    std::fs::create_dir_all(&forged).unwrap();
    let mut book = json(&dirs[2]);
    book["run"]["seed"] = Value::from(7);
    std::fs::write(forged.join("gradebook.json"), serde_json::to_string(&book).unwrap()).unwrap();
    let output = merge(&[dirs[0].clone(), dirs[1].clone(), forged.clone()], &out.join("refused"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the seed differs") && stderr.contains("forged"), "{stderr}");
    assert!(!out.join("refused/gradebook.csv").exists());

    // Shards given different similarity options: refused, unless the merge gives its own.
    let told = out.join("told");
    copy_resolved(&dirs[2], &told);
    let mut book = json(&dirs[2]);
    book["shard"]["similarity"]["settings"]["threshold"] = Value::from(70.0);
    std::fs::write(told.join("gradebook.json"), serde_json::to_string(&book).unwrap()).unwrap();
    let shards = [dirs[0].clone(), dirs[1].clone(), told.clone()];
    let output = merge(&shards, &out.join("refused"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the shards were given different similarity options"), "{stderr}");
    let output = grader()
        .args(["gradebook", "merge"])
        .args(&shards)
        .args(["--similarity-threshold", "70", "--output-dir"])
        .arg(out.join("told-merged"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(std::fs::read_to_string(out.join("told-merged/index.html")).unwrap().contains("at or above 70%"));

    // The same shard twice: refused.
    let output = merge(&[dirs[0].clone(), dirs[0].clone(), dirs[1].clone()], &out.join("refused"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&format!("shard 0/{SHARDS} is given twice")), "{stderr}");
    assert!(!out.join("refused/gradebook.csv").exists());
}

#[test]
fn a_dry_run_counts_the_class_by_language_and_grades_nothing() {
    let out = tempfile::tempdir().unwrap();
    let run = batch_in(class(), &out.path().join("grades"), &["--dry-run", "--shard", "0/1"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("shard 0/1: 8 of the class's 8 students"), "{}", run.stderr);
    assert!(run.stderr.contains("students by language: 3 java, 3 program, 1 python, 1 unknown"), "{}", run.stderr);
    assert!(run.stderr.contains("estimated CPU: ") && run.stderr.contains("with --shard K/16"), "{}", run.stderr);
    assert!(!out.path().join("grades").exists(), "nothing is written");
}

#[test]
fn a_quiet_batch_says_only_what_went_wrong_and_a_rerun_resumes() {
    let out = tempfile::tempdir().unwrap();
    let class = tempfile::tempdir().unwrap();
    std::fs::copy(reference_submission(), class.path().join("ann")).unwrap();
    std::fs::create_dir(class.path().join("empty")).unwrap();
    let first = batch_in(class.path(), out.path(), &["--quiet", "--only", "board-1a"], &[]);
    assert_eq!(first.code, 1);
    let lines: Vec<&str> = first.stderr.lines().collect();
    assert_eq!(lines[0], "grader: 1 of 2 students could not be graded:", "{}", first.stderr);
    assert!(lines.iter().all(|l| !l.contains("ann") && !l.contains("left")), "{}", first.stderr);
    let second = batch_in(class.path(), out.path(), &["--only", "board-1a"], &[]);
    assert!(second.stderr.contains("1 student's reports were current and kept"), "{}", second.stderr);
    assert!(second.stderr.contains("grader: 1 student needs no grading now"), "{}", second.stderr);
    assert!(
        second.stderr.contains("grader: 2/2 empty: not graded"),
        "who could not be graded is tried again: {}",
        second.stderr
    );
}
