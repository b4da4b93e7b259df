//! The gallery keeps the grader honest: every known-good and known-buggy submission is graded, and the set
//! of failing tests must be exactly the one recorded in `fixtures/submissions.toml`.
//!
//! Every other deterministic entry of each language (the first, third, ... in the model's order) is graded
//! twice, and the two runs' text and JSON reports must be equal byte for byte (ARCHITECTURE.md: same
//! submission and seed, same reports). The second run changes what could leak into a report without being
//! part of the grade:
//! - its working directory (a fresh temp dir), its time zone and locale (`TZ`, `LC_ALL`);
//! - where its text report goes (a file through `--output`, not standard output);
//! - its order and company: the first runs go in the model's order, two at a time; the second runs follow
//!   them in the same pool, in an order of their own, backwards, so an entry is graded next to different
//!   neighbors (and the last first run shares the machine with the first second run);
//! - its scratch directories: every process's and build step's are fresh, randomly named temp dirs.
//!
//! Why half: what could make two reports differ (paths, clocks, locale, order, scratch names) lies in the
//! grader's running and rendering, which every entry goes through; half the entries of each language still
//! cover every section and most ways a grade ends, and the other half's second runs cost about 250 s of
//! `make test`'s 20-minute budget on the 2-core CI machine (BENCHMARKS.md "The test suite"). Entries marked
//! `deterministic = false` (their own behavior varies: a randomly seeded hasher, a hang ended by whichever cap
//! comes first) are graded once: their verdicts are held to the model, their reports are not compared.
//!
//! Each entry's first run also writes the HTML report, and the facts it shows must be the text report's, both
//! ways (`crate::facts`): a line added to one report only fails here, for every kind of entry the gallery has.
//!
//! Both runs have the tests' shared `TMPDIR` (`support::shared_tmpdir`, one per checkout), and with it the
//! build cache (keyed by the submission's content), so the second run does not rebuild: its build time is
//! printed next to the first's (`--nocapture`). The other tests that grade a gallery entry find its build
//! there too.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::support::{
    base_id, failed, gallery_entries, gallery_entry, grade_in, quick_policy, quick_python_policy, quick_rust_policy,
    scrub, tests_of, GalleryEntry as Entry, Graded, Setting,
};

/// One grading of one entry: which run (0 or 1), what it gave, and how long it took.
struct Grading {
    run: usize,
    entry: usize,
    graded: Graded,
    elapsed: Duration,
}

/// Grades every entry of one language twice (module doc), two at a time (the machine has two cores;
/// verdicts rest on counts, so concurrency cannot change them), and compares with the model and run with
/// run. One language at a time: the tests of this binary run in parallel, and three galleries' six graders
/// on two cores would starve the fixtures whose snapshot names the CPU limit, not the wall-clock cap, as the
/// end of a hang (hangs-counting-moves).
fn check(language: &str) {
    static ONE_GALLERY_AT_A_TIME: Mutex<()> = Mutex::new(());
    let _turn = ONE_GALLERY_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let policy = match language {
        "python" => quick_python_policy(),
        "rust" => quick_rust_policy(),
        _ => quick_policy(),
    };
    let entries: Vec<Entry> =
        gallery_entries().into_iter().filter(|e| e.language == language && e.graded_whole()).collect();
    let second_cwd = tempfile::tempdir().expect("a temp dir");
    let settings = [
        Setting::default(),
        Setting {
            cwd: Some(second_cwd.path()),
            env: &[("TZ", "Pacific/Chatham"), ("LC_ALL", "C")],
            text_to_file: true,
        },
    ];
    // each first run also writes the HTML report, whose facts are compared with the text report's
    let pages = tempfile::tempdir().expect("a temp dir");
    let page = |entry: usize| pages.path().join(format!("{}.html", entries[entry].name));
    // each entry's policy, written once
    let policies: Vec<PathBuf> = entries.iter().map(|e| e.policy(&policy)).collect();
    let twice: Vec<usize> = graded_twice(entries.iter().map(|e| e.deterministic));
    let jobs = jobs(entries.len(), &twice);
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(&(run, entry)) = jobs.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let (path, _copy) = gallery_entry(&entries[entry].path);
                    let started = Instant::now();
                    let html = (run == 0).then(|| format!("html={}", page(entry).display()));
                    let mut args = vec!["--policy", policies[entry].to_str().unwrap(), "--timings"];
                    if let Some(html) = &html {
                        args.extend(["--format", html]);
                    }
                    let graded = grade_in(&path, &args, &settings[run]);
                    let elapsed = started.elapsed();
                    done.lock().unwrap().push(Grading { run, entry, graded, elapsed });
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|g| (g.entry, g.run));
    // sorted by entry then run: each entry's first run, and its second where it has one
    let runs: Vec<(&Grading, Option<&Grading>)> =
        done.chunk_by(|a, b| a.entry == b.entry).map(|runs| (&runs[0], runs.get(1))).collect();
    print_times(language, &entries, &runs);
    let mut wrong = Vec::new();
    for g in &done {
        let entry = &entries[g.entry];
        let mut expected = entry.expect_failed.clone();
        expected.sort();
        let actual = g.graded.failed_ids();
        if actual != expected {
            wrong.push(format!("{} (run {}): expected failing {expected:?}, got {actual:?}", entry.name, g.run + 1));
            // what an unexpected failure said, so that a verdict seen once can be understood from the log
            for id in actual.iter().filter(|id| !expected.contains(id)) {
                wrong.push(format!("  {id}: {}", first_message(&g.graded, id)));
            }
        }
    }
    assert!(wrong.is_empty(), "gallery verdicts differ from fixtures/submissions.toml:\n{}", wrong.join("\n"));
    let differ: Vec<String> =
        runs.iter().filter_map(|(a, b)| b.and_then(|b| runs_differ(&entries[a.entry], a, b))).collect();
    assert!(differ.is_empty(), "two runs of the same submission gave different reports:\n\n{}", differ.join("\n\n"));
    let unlike: Vec<String> =
        runs.iter().filter_map(|(a, _)| facts_apart(&entries[a.entry], a, &page(a.entry))).collect();
    assert!(unlike.is_empty(), "the HTML and text reports show different facts:\n\n{}", unlike.join("\n\n"));
    for (a, _) in runs.iter().filter(|(a, _)| entries[a.entry].deterministic) {
        insta::assert_snapshot!(format!("gallery_{}", entries[a.entry].name), scrub(&a.graded.text));
    }
}

/// What the entry's HTML report (at `page`) and text report show differently (`crate::facts`), if anything.
fn facts_apart(entry: &Entry, graded: &Grading, page: &std::path::Path) -> Option<String> {
    let html = std::fs::read_to_string(page).unwrap_or_default();
    let text = &graded.graded.text;
    let (lacks, only) = (crate::facts::missing_from_html(text, &html), crate::facts::missing_from_text(&html, text));
    (!lacks.is_empty() || !only.is_empty())
        .then(|| format!("{}: the page lacks {lacks:?}; only the page shows {only:?}", entry.name))
}

/// The message of the first failing test whose base id is `base`, on one line.
fn first_message(graded: &Graded, base: &str) -> String {
    let first = tests_of(&graded.json).iter().find(|t| base_id(t) == base && failed(t));
    first.map_or(String::new(), |t| format!("{} {}", t["id"], t["message"]).replace('\n', " | "))
}

/// The entries graded a second time, given whether each is deterministic: every other deterministic one,
/// starting with the first (module doc).
fn graded_twice(deterministic: impl Iterator<Item = bool>) -> Vec<usize> {
    deterministic.enumerate().filter(|&(_, d)| d).map(|(i, _)| i).step_by(2).collect()
}

/// The pool's jobs as (run, entry): every one of the `n` entries' first run in the model's order, then the
/// second runs of `twice` (entries, ascending): those at odd places in it and then those at even places, each
/// backwards, so no two entries graded side by side in the first runs are side by side in the second.
fn jobs(n: usize, twice: &[usize]) -> Vec<(usize, usize)> {
    let first = (0..n).map(|i| (0, i));
    let odd = twice.iter().enumerate().rev().filter(|(k, _)| k % 2 == 1).map(|(_, &i)| (1, i));
    let even = twice.iter().enumerate().rev().filter(|(k, _)| k % 2 == 0).map(|(_, &i)| (1, i));
    first.chain(odd).chain(even).collect()
}

/// Why the two runs of `entry` differ, naming the entry, the report and the first line that differs, with
/// both versions; `None` when they agree.
fn runs_differ(entry: &Entry, a: &Grading, b: &Grading) -> Option<String> {
    let problems: Vec<String> =
        [("text", &a.graded.text, &b.graded.text), ("JSON", &a.graded.json_text, &b.graded.json_text)]
            .into_iter()
            .filter_map(|(format, x, y)| first_difference(x, y).map(|d| format!("{format} report, {d}")))
            .collect();
    (!problems.is_empty()).then(|| format!("{}: {}", entry.name, problems.join("\n")))
}

/// The first line where `first` and `second` differ, with both versions (quoted, so that invisible
/// differences show), or `None` when they are equal.
fn first_difference(first: &str, second: &str) -> Option<String> {
    if first == second {
        return None;
    }
    let (x, y): (Vec<&str>, Vec<&str>) = (first.split('\n').collect(), second.split('\n').collect());
    let at = (0..).find(|&k| x.get(k) != y.get(k)).expect("unequal texts differ on some line");
    let show = |line: Option<&&str>| line.map_or("(the report has ended)".to_string(), |l| format!("{l:?}"));
    Some(format!("line {}:\n  first run:  {}\n  second run: {}", at + 1, show(x.get(at)), show(y.get(at))))
}

/// Prints each entry's wall and build times, of both runs where it has two (`--nocapture` shows them): the
/// second build must be the cache's (a fraction of a second), not a rebuild.
fn print_times(language: &str, entries: &[Entry], runs: &[(&Grading, Option<&Grading>)]) {
    let build = |g: &Grading| build_seconds(&g.graded.stderr).map_or("?".to_string(), |s| format!("{s:.2}"));
    let mut total = [Duration::ZERO; 2];
    for (a, b) in runs {
        total[0] += a.elapsed;
        let second = b.map_or(String::new(), |b| {
            total[1] += b.elapsed;
            format!(", second run {:.1} s (build {} s)", b.elapsed.as_secs_f64(), build(b))
        });
        eprintln!(
            "gallery {language} {}: first run {:.1} s (build {} s){second}",
            entries[a.entry].name,
            a.elapsed.as_secs_f64(),
            build(a),
        );
    }
    eprintln!(
        "gallery {language}: first runs {:.1} s, second runs {:.1} s (summed)",
        total[0].as_secs_f64(),
        total[1].as_secs_f64()
    );
}

/// The build time from the `--timings` line on standard error (`timings: wall 1.00 s (planning 0.01 s, build
/// 0.20 s, …`).
fn build_seconds(stderr: &str) -> Option<f64> {
    let line = stderr.lines().find(|line| line.starts_with("timings: wall "))?;
    let rest = &line[line.find(" build ")? + " build ".len()..];
    rest.split(' ').next()?.parse().ok()
}

#[test]
fn the_build_time_is_read_from_the_timings_line() {
    let stderr = "compiled\ntimings: wall 1.00 s (planning 0.01 s, build 0.20 s, tests 0.79 s: inside …)\n";
    assert_eq!(build_seconds(stderr), Some(0.2));
    assert_eq!(build_seconds("no timings here (build 3 s)"), None);
}

#[test]
fn first_difference_names_the_line_and_both_versions() {
    assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
    assert_eq!(first_difference("a\nb\nc", "a\nB\nc").unwrap(), "line 2:\n  first run:  \"b\"\n  second run: \"B\"");
    assert!(first_difference("a", "a\nmore").unwrap().contains("first run:  (the report has ended)"));
}

#[test]
fn second_runs_meet_new_neighbors() {
    assert_eq!(
        jobs(5, &[0, 1, 2, 3, 4]),
        [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (1, 3), (1, 1), (1, 4), (1, 2), (1, 0)]
    );
    assert_eq!(jobs(3, &[0, 2]), [(0, 0), (0, 1), (0, 2), (1, 2), (1, 0)]);
}

#[test]
fn every_other_deterministic_entry_is_graded_twice() {
    let deterministic = [true, true, false, true, true, true, false];
    assert_eq!(graded_twice(deterministic.into_iter()), [0, 3, 5]);
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
