//! The gallery keeps the grader honest: every known-good and known-buggy submission is graded, and the set
//! of failing tests must be exactly the one recorded in `fixtures/submissions.toml`.

use serde::Deserialize;

use crate::support::{gallery_entry, grade, quick_policy, quick_python_policy, root};

#[derive(Debug, Deserialize)]
struct Gallery {
    submission: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)] // summary and note document the entry for people
struct Entry {
    name: String,
    path: String,
    language: String,
    summary: String,
    #[serde(default)]
    expect_failed: Vec<String>,
    #[serde(default)]
    note: Option<String>,
    /// False for a submission whose own behavior varies from run to run (e.g. Rust's randomly seeded
    /// `HashSet` changes how often `==` is called): its verdicts are compared, its report is not snapshotted.
    #[serde(default = "yes")]
    deterministic: bool,
}

fn yes() -> bool {
    true
}

fn gallery() -> Gallery {
    let text = std::fs::read_to_string(root().join("fixtures/submissions.toml")).expect("fixtures/submissions.toml");
    toml::from_str(&text).expect("fixtures/submissions.toml is valid")
}

/// Grades every entry of one language, two at a time (the machine has two cores; verdicts rest on counts,
/// so concurrency cannot change them), and compares with the model. One language at a time: the tests of
/// this binary run in parallel, and three galleries' six graders on two cores would starve the fixtures
/// whose snapshot names the CPU limit, not the wall-clock cap, as the end of a hang (hangs-counting-moves).
fn check(language: &str) {
    static ONE_GALLERY_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_GALLERY_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let policy = if language == "python" { quick_python_policy() } else { quick_policy() };
    let entries: Vec<Entry> = gallery().submission.into_iter().filter(|e| e.language == language).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(entry) = entries.get(i) else { break };
                let (path, _copy) = gallery_entry(&entry.path);
                let graded = grade(&path, &["--policy", policy.to_str().unwrap()]);
                results.lock().unwrap().push((i, graded));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    let mut wrong = Vec::new();
    for (i, graded) in &results {
        let entry = &entries[*i];
        let mut expected = entry.expect_failed.clone();
        expected.sort();
        let actual = graded.failed_ids();
        if actual != expected {
            wrong.push(format!("{}: expected failing {expected:?}, got {actual:?}", entry.name));
        }
    }
    assert!(wrong.is_empty(), "gallery verdicts differ from fixtures/submissions.toml:\n{}", wrong.join("\n"));
    for (i, graded) in results.iter().filter(|(i, _)| entries[*i].deterministic) {
        insta::assert_snapshot!(format!("gallery_{}", entries[*i].name), scrub(&graded.text));
    }
}

/// Removes what differs between machines and runs: absolute paths in compiler output, and the OS thread ids
/// Rust prints in a student's crash messages (`thread 'submission' (14620) has overflowed its stack`).
fn scrub(text: &str) -> String {
    let text = text.replace(&root().display().to_string(), "[ROOT]");
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("' (") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let digits = tail.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && tail[digits..].starts_with(')') {
            out.push_str("TID");
            rest = &tail[digits..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn rust_gallery_verdicts_match_the_model() {
    check("rust");
}

#[test]
fn java_gallery_verdicts_match_the_model() {
    check("java");
}

#[test]
fn python_gallery_verdicts_match_the_model() {
    check("python");
}
