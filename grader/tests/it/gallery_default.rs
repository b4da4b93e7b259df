//! The Java gallery's timing and memory rows under the default policy, on the bundled puzzles and on the
//! official ones side by side. The gallery's own test grades with the quick policy (the lighter timing
//! puzzles, 2 s of CPU a solve), so a verdict only the default policy's selection shows would hide there: here
//! every Java entry's timing and memory rows are graded with the default policy in one `grader batch` per
//! corpus (one plan for the whole gallery each): this project's bundled puzzles (`fixtures/puzzles`, what
//! every grade without `--fixtures` and every Gradescope course uses) and the 25 official timing puzzles
//! (`../shared/calibration/official-timing`, laid over this project's corpus).
//!
//! On each corpus the failing base ids must be the entry's `expect_failed_default` (or, where it has none,
//! its `expect_failed` restricted to timing and memory). Side by side, table by table (Timing 1 … 4b and the
//! three memory tables), an entry that passes every official row must pass every bundled one, and one that
//! fails official rows must fail as many bundled rows, give or take one: the bundled puzzles are chosen for
//! that (`corpus::generator::selection`, whose model holds a strategy for every entry that fails official
//! timing rows). The model counts a strategy's operations, not its search node's bytes, so for an entry whose
//! MinPQ memory fails on the node's layout the memory table can stray further: `side_by_side_gap` in
//! fixtures/submissions.toml names such a table and says why, and there the entry must fail some bundled
//! row if it fails official ones, and none if it fails none; the test prints the gap. Where
//! `../shared/calibration` is absent only the bundled half runs,
//! and the test says loudly that the comparison was skipped.
//!
//! The grader runs with the tests' shared `TMPDIR` (`support::shared_tmpdir`), where the gallery's own test
//! compiles the same entries: each entry's build (keyed by its files) is made once for all.
//!
//! What is graded, and what is not graded again: every timing row and both Solver memory tables run in the
//! `ref` world, which holds the reference Board and the student's other files, never the student's Board
//! (`build::jvm`). Entries whose files but `Board.java` are the same (eleven share `valid`'s Solver) have the
//! same `ref` world, so only the first of each such group (in the model's order) is graded for those rows, on
//! each corpus; the others are graded for their Board memory table alone (the `own` world), once, since that
//! table builds its boards by size and reads no puzzle file, which the test checks on the graded entries
//! (their Board memory rows must be the same on both corpora). Every entry's expectation is still checked,
//! on its own Board memory rows and its group's `ref`-world rows. This halves the test's CPU (issue 36).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::support::{
    base_id, calibration, copy_resolved, failed, failed_base_ids, fixtures_with_official_timing, gallery_entries,
    grader, root, tests_of, GalleryEntry as Entry,
};

/// Whether a base id belongs to the timing or memory sections (or is the build, which blocks them).
fn judged_here(id: &str) -> bool {
    id.starts_with("timing-") || id.starts_with("memory-") || id == "compile-1"
}

/// The timing and memory base ids an entry is expected to fail under the default policy, sorted.
fn expected(entry: &Entry) -> Vec<String> {
    let mut ids = match &entry.expect_failed_default {
        Some(ids) => ids.clone(),
        None => entry.expect_failed.iter().filter(|id| judged_here(id)).cloned().collect(),
    };
    ids.sort();
    ids
}

/// The tables compared side by side: the base ids of the timing and memory sections.
const TABLES: [&str; 8] = [
    "timing-1",
    "timing-2",
    "timing-3",
    "timing-4a",
    "timing-4b",
    "memory-board",
    "memory-solver-1",
    "memory-solver-2",
];

#[test]
fn java_gallery_timing_and_memory_rows_match_the_model_on_the_default_policy() {
    let entries: Vec<Entry> =
        gallery_entries().into_iter().filter(|e| e.language == "java" && e.graded_whole()).collect();
    let work = tempfile::tempdir().unwrap();
    let (class, boards) = (work.path().join("class"), work.path().join("boards"));
    let groups = RefWorlds::of(&entries);
    for (i, entry) in entries.iter().enumerate() {
        let into = if groups.first_of[i] == i { &class } else { &boards };
        copy_resolved(&root().join("fixtures/submissions").join(&entry.path), &into.join(&entry.name));
    }
    groups.describe(&entries);
    let puzzles = root().join("fixtures/puzzles");
    let own_boards = match boards.is_dir() {
        true => grade_class(&boards, &puzzles, &work.path().join("boards-graded"), BOARDS_ONLY),
        false => BTreeMap::new(),
    };
    let graded = grade_class(&class, &puzzles, &work.path().join("bundled"), TIMING_AND_MEMORY);
    let bundled = groups.reports(&entries, &graded, &own_boards);
    let mut wrong = expectations(&entries, &bundled, "the bundled puzzles");
    match calibration() {
        Some(calibration) => {
            let fixtures = work.path().join("official-fixtures");
            std::fs::create_dir_all(&fixtures).unwrap();
            fixtures_with_official_timing(&calibration, &fixtures);
            let graded_official = grade_class(&class, &fixtures, &work.path().join("official"), TIMING_AND_MEMORY);
            wrong.extend(board_rows_apart(&graded, &graded_official));
            let official = groups.reports(&entries, &graded_official, &own_boards);
            wrong.extend(expectations(&entries, &official, "the official timing puzzles"));
            wrong.extend(side_by_side(&entries, &official, &bundled));
        }
        None => eprintln!(
            "\n*** SKIPPED: the side-by-side comparison of the bundled timing puzzles with the official ones did not \
             run: ../shared/calibration is not beside this checkout (CI always has it). Only the bundled puzzles \
             were graded. ***\n"
        ),
    }
    assert!(wrong.is_empty(), "default-policy timing and memory verdicts:\n{}", wrong.join("\n"));
}

/// What a batch grades: the timing and memory sections, or the Board memory table alone.
const TIMING_AND_MEMORY: &[&str] = &["--only", "timing-*", "--only", "memory-*"];
const BOARDS_ONLY: &[&str] = &["--only", "memory-board"];

/// Whether a base id is judged in the `own` world (the student's Board) rather than the `ref` world: the
/// Board memory table, and the build it depends on.
fn own_world(id: &str) -> bool {
    id == "memory-board" || id == "compile-1"
}

/// The entries grouped by their `ref` world: every file of the entry but `Board.java`, by content.
struct RefWorlds {
    /// For each entry (in the model's order), the index of the first entry with the same `ref` world.
    first_of: Vec<usize>,
}

impl RefWorlds {
    fn of(entries: &[Entry]) -> RefWorlds {
        let keys: Vec<Vec<(String, Vec<u8>)>> = entries.iter().map(|e| ref_world_files(&e.path)).collect();
        let first_of = keys.iter().map(|key| keys.iter().position(|k| k == key).unwrap()).collect();
        RefWorlds { first_of }
    }

    /// Says which entries take their `ref`-world rows from which.
    fn describe(&self, entries: &[Entry]) {
        for (i, &first) in self.first_of.iter().enumerate().filter(|&(i, &first)| first != i) {
            eprintln!(
                "{}: the same files as {} but Board.java, so the same `ref` world: its timing and Solver memory rows \
                 are {}'s; its Board memory table is graded on its own",
                entries[i].name, entries[first].name, entries[first].name
            );
        }
    }

    /// Each entry's report: its own Board memory rows and build (from `own_boards`, or its own grade in
    /// `graded` where it heads its group), and its group's `ref`-world rows (from `graded`).
    fn reports(
        &self,
        entries: &[Entry],
        graded: &BTreeMap<String, Value>,
        own_boards: &BTreeMap<String, Value>,
    ) -> BTreeMap<String, Value> {
        let mut reports = BTreeMap::new();
        for (i, entry) in entries.iter().enumerate() {
            let first = self.first_of[i];
            let report = if first == i {
                graded[&entry.name].clone()
            } else {
                let own = &own_boards[&entry.name];
                assert!(
                    !failed_base_ids(own).contains(&"compile-1".to_string()),
                    "{} shares {}'s `ref` world but does not compile on its own: grade it in full",
                    entry.name,
                    entries[first].name
                );
                let tests = |report: &Value, own: bool| -> Vec<Value> {
                    tests_of(report).iter().filter(|t| own_world(base_id(t)) == own).cloned().collect()
                };
                let mut combined = tests(own, true);
                combined.extend(tests(&graded[&entries[first].name], false));
                serde_json::json!({ "tests": combined })
            };
            reports.insert(entry.name.clone(), report);
        }
        reports
    }
}

/// Every file of a gallery entry but `Board.java`, by path and content (links followed, as the grader sees
/// the copy it is given).
fn ref_world_files(path: &str) -> Vec<(String, Vec<u8>)> {
    let dir = root().join("fixtures/submissions").join(path);
    let mut files: Vec<(String, Vec<u8>)> = walkdir::WalkDir::new(&dir)
        .follow_links(true)
        .into_iter()
        .map(|f| f.expect("the entry is readable"))
        .filter(|f| f.file_type().is_file() && f.file_name() != "Board.java")
        .map(|f| {
            let relative = f.path().strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
            (relative, std::fs::read(f.path()).expect("a file of the entry"))
        })
        .collect();
    files.sort();
    files
}

/// The Board memory rows of the entries graded on both corpora, where they differ: that table builds its
/// boards by size and must not depend on the puzzles (which lets the other entries' be graded once).
fn board_rows_apart(bundled: &BTreeMap<String, Value>, official: &BTreeMap<String, Value>) -> Vec<String> {
    let rows = |report: &Value| -> Vec<(String, String)> {
        tests_of(report)
            .iter()
            .filter(|t| base_id(t) == "memory-board")
            .map(|t| (t["id"].as_str().unwrap_or("").to_string(), t["status"].to_string()))
            .collect()
    };
    bundled
        .iter()
        .filter(|(name, report)| rows(report) != rows(&official[*name]))
        .map(|(name, _)| format!("{name}: the Board memory rows differ between the two corpora"))
        .collect()
}

/// The reports of every entry of `class` graded over `fixtures`, the tests `only` names alone, by entry name.
fn grade_class(class: &Path, fixtures: &Path, grades: &Path, only: &[&str]) -> BTreeMap<String, Value> {
    let output = grader()
        .arg("batch")
        .arg(class)
        .args(only)
        .args(["--format", "json", "--jobs", "2"])
        .arg("--fixtures")
        .arg(fixtures)
        .arg("--output-dir")
        .arg(grades)
        .output()
        .expect("the grader runs");
    let mut reports = BTreeMap::new();
    for entry in std::fs::read_dir(class).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(grades.join(format!("{name}.json"))).unwrap_or_default();
        let report = serde_json::from_str(&text).unwrap_or(Value::Null);
        if report.is_null() {
            eprintln!("no report for {name} over {}: {}", fixtures.display(), String::from_utf8_lossy(&output.stderr));
        }
        reports.insert(name, report);
    }
    reports
}

/// Each entry's failing base ids against its expectation, one line per entry that differs.
fn expectations(entries: &[Entry], reports: &BTreeMap<String, Value>, corpus: &str) -> Vec<String> {
    entries
        .iter()
        .filter_map(|entry| {
            let (expected, actual) = (expected(entry), failed_base_ids(&reports[&entry.name]));
            (expected != actual)
                .then(|| format!("{} on {corpus}: expected failing {expected:?}, got {actual:?}", entry.name))
        })
        .collect()
}

/// Failing rows per table, by base id.
fn failing_rows(report: &Value) -> BTreeMap<&'static str, usize> {
    let mut rows: BTreeMap<&'static str, usize> = TABLES.iter().map(|&t| (t, 0)).collect();
    for test in tests_of(report).iter().filter(|t| failed(t)) {
        if let Some(count) = rows.get_mut(base_id(test)) {
            *count += 1;
        }
    }
    rows
}

/// The two corpora's failing rows, table by table: none on the bundled puzzles for an entry passing every
/// official row, else as many give or take one. Prints the whole comparison.
fn side_by_side(
    entries: &[Entry],
    official: &BTreeMap<String, Value>,
    bundled: &BTreeMap<String, Value>,
) -> Vec<String> {
    let mut wrong = Vec::new();
    eprintln!("failing rows per table, official / bundled ({}):", TABLES.join(", "));
    for entry in entries {
        let (o, b) = (failing_rows(&official[&entry.name]), failing_rows(&bundled[&entry.name]));
        let cells: Vec<String> = TABLES.iter().map(|t| format!("{}/{}", o[t], b[t])).collect();
        eprintln!("  {:<32} {}", entry.name, cells.join(" "));
        let passes_all = o.values().all(|&n| n == 0);
        if let Some(gap) = &entry.side_by_side_gap {
            eprintln!("  *** KNOWN GAP of the bundled puzzles for {} in {}: {} ***", entry.name, gap.table, gap.why);
        }
        for table in TABLES {
            let (o, b) = (o[table], b[table]);
            let apart = match &entry.side_by_side_gap {
                Some(gap) if gap.table == table => (o > 0) != (b > 0),
                _ => o.abs_diff(b) > 1,
            };
            if (passes_all && b > 0) || apart {
                wrong.push(format!("{}: {table} fails {o} official rows but {b} bundled ones", entry.name));
            }
        }
    }
    wrong
}
