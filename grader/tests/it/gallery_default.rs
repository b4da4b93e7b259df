//! The Java gallery's timing and memory rows under the default policy. The gallery's own test grades with
//! the quick policy (the lighter timing puzzles, 2 s of CPU a solve), so a verdict only the default
//! policy's selection shows would hide there: here every Java entry's timing and memory rows are graded once
//! with the default policy over the official timing puzzles (`../shared/calibration/official-timing`, laid
//! over this project's corpus) or, where they are absent, this project's own, in one `grader batch` (one
//! plan for the whole gallery). The failing base ids must be the entry's `expect_failed_default` (or, on
//! this project's own puzzles, `expect_failed_default_bundled` where it differs); an entry that sets
//! neither is held to its `expect_failed` restricted to timing and memory.
//!
//! The grader runs with the tests' shared `TMPDIR` (`support::shared_tmpdir`), where the gallery's own test
//! compiles the same entries: each entry's build (keyed by its files) is made once for both.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::support::{calibration, copy_resolved, failed_base_ids, fixtures_with_official_timing, grader, root};

#[derive(Debug, Deserialize)]
struct Gallery {
    submission: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
struct Entry {
    name: String,
    path: String,
    language: String,
    #[serde(default)]
    expect_failed: Vec<String>,
    #[serde(default)]
    expect_failed_default: Option<Vec<String>>,
    #[serde(default)]
    expect_failed_default_bundled: Option<Vec<String>>,
}

/// Whether a base id belongs to the timing or memory sections (or is the build, which blocks them).
fn judged_here(id: &str) -> bool {
    id.starts_with("timing-") || id.starts_with("memory-") || id == "compile-1"
}

impl Entry {
    fn expected(&self, official: bool) -> Vec<String> {
        let bundled = self.expect_failed_default_bundled.as_ref().filter(|_| !official);
        let mut ids = match bundled.or(self.expect_failed_default.as_ref()) {
            Some(ids) => ids.clone(),
            None => self.expect_failed.iter().filter(|id| judged_here(id)).cloned().collect(),
        };
        ids.sort();
        ids
    }
}

#[test]
fn java_gallery_timing_and_memory_rows_match_the_model_on_the_default_policy() {
    let text = std::fs::read_to_string(root().join("fixtures/submissions.toml")).unwrap();
    let gallery: Gallery = toml::from_str(&text).unwrap();
    let entries: Vec<Entry> = gallery.submission.into_iter().filter(|e| e.language == "java").collect();
    let work = tempfile::tempdir().unwrap();
    let class = work.path().join("class");
    for entry in &entries {
        copy_resolved(&root().join("fixtures/submissions").join(&entry.path), &class.join(&entry.name));
    }
    let fixtures = work.path().join("fixtures");
    std::fs::create_dir_all(&fixtures).unwrap();
    let official = match calibration() {
        Some(calibration) => {
            fixtures_with_official_timing(&calibration, &fixtures);
            true
        }
        None => {
            eprintln!("../shared/calibration is absent: grading over this project's own timing puzzles");
            copy_resolved(&root().join("fixtures/puzzles"), &fixtures);
            false
        }
    };
    let grades = work.path().join("grades");
    let output = grader()
        .arg("batch")
        .arg(&class)
        .args(["--only", "timing-*", "--only", "memory-*", "--format", "json", "--jobs", "2"])
        .arg("--fixtures")
        .arg(&fixtures)
        .arg("--output-dir")
        .arg(&grades)
        .output()
        .expect("the grader runs");
    let wrong: Vec<String> = entries
        .iter()
        .filter_map(|entry| {
            let report = read_report(&grades, &entry.name);
            let (expected, actual) = (entry.expected(official), failed_base_ids(&report));
            (expected != actual).then(|| format!("{}: expected failing {expected:?}, got {actual:?}", entry.name))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "default-policy timing and memory verdicts differ from fixtures/submissions.toml ({} timing puzzles):\n{}\n\
         grader: {}",
        if official { "official" } else { "this project's own" },
        wrong.join("\n"),
        String::from_utf8_lossy(&output.stderr)
    );
}

fn read_report(grades: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(grades.join(format!("{name}.json"))).unwrap_or_default();
    serde_json::from_str(&text).unwrap_or(Value::Null)
}
