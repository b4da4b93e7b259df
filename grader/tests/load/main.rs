//! A grade does not depend on the machine's load: graded while the machine is as busy as a shared server
//! (other JVM grades beside it and a spinning process per core, which this test starts and ends), a correct
//! Java entry and a wasteful one (one MinPQ for both searches: it fails timing rows on counts) get the reports
//! they get on a quiet machine, byte for byte (the gallery's snapshots, `grader/tests/it/snapshots`): no stall
//! blamed on the machine, no wall-clock time-out, no budget spent by waiting. And a Board whose own threads
//! crowd each other before it hangs still fails as its own time-out, not as the machine's stall.
//!
//! Its entries' verdicts sit far from every CPU limit of the quick policy (their heaviest solve uses a small
//! share of its 2 s), so the only thing the load can change is what the grader makes of waiting: a slow
//! Solver whose verdicts sit at a CPU limit (the Hamming priority, graded in a class at load 5 to 7, issue
//! 34) would test the limit, not the load.
//!
//! A test binary of its own, so that no other test runs beside it (cargo runs test binaries one after
//! another): its load would slow them, and theirs would make its own unknown. It costs its wall-clock time in
//! full (BENCHMARKS.md, "The test suite").

#[allow(dead_code)]
#[path = "../it/support.rs"]
mod support;

use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use support::{gallery_entry, grade_in, quick_policy, root, scrub, Setting};

/// The gallery entries graded under load: correct, and correct but wasteful (officially it fails Timing 2, 4a
/// and 4b on counts and passes everything else).
const ENTRIES: [&str; 2] = ["java-one-queue", "java-valid"];

/// The busy machine, kept up until dropped: a spinning process per CPU, and grades of a Java submission one
/// after another on two threads (JVMs starting, compiling and collecting beside the graded ones).
struct Load {
    spinners: Vec<Child>,
    stop: &'static AtomicBool,
    graders: Vec<std::thread::JoinHandle<u32>>,
}

impl Load {
    fn start() -> Load {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let spin = || Command::new("sh").args(["-c", "while :; do :; done"]).stdout(Stdio::null()).spawn();
        let spinners = (0..cpus).map(|_| spin().expect("a spinner starts")).collect();
        let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let graders = (0..2)
            .map(|_| {
                std::thread::spawn(move || {
                    let (valid, _copy) = gallery_entry("java/valid-alt");
                    let mut grades = 0;
                    while !stop.load(Ordering::SeqCst) {
                        let quick = quick_policy();
                        let args = ["--policy", quick.to_str().unwrap(), "--seed", &grades.to_string()];
                        // a grade that ran to its end (valid-alt passes every quick-policy test): real load
                        if grade_in(&valid, &args, &Setting::default()).code == 0 {
                            grades += 1;
                        }
                    }
                    grades
                })
            })
            .collect();
        Load { spinners, stop, graders }
    }

    /// Ends the load; how many grades ran to their end beside the test.
    fn end(mut self) -> u32 {
        self.stop.store(true, Ordering::SeqCst);
        for spinner in &mut self.spinners {
            let _ = spinner.kill();
            let _ = spinner.wait();
        }
        self.graders.drain(..).map(|grader| grader.join().unwrap_or(0)).sum()
    }
}

/// The machine's idle share between two readings of `/proc/stat`'s first line.
fn idle_share(before: &[u64], after: &[u64]) -> f64 {
    let delta: Vec<u64> = after.iter().zip(before).map(|(a, b)| a - b).collect();
    let total: u64 = delta.iter().take(8).sum();
    (delta[3] + delta[4]) as f64 / total.max(1) as f64
}

fn machine_ticks() -> Vec<u64> {
    let stat = std::fs::read_to_string("/proc/stat").expect("/proc/stat");
    let line = stat.lines().next().expect("a first line");
    line.split_whitespace().skip(1).map(|t| t.parse().expect("ticks")).collect()
}

/// The snapshot the gallery's quick-policy grade of `entry` matches on a quiet machine.
fn quiet_report(entry: &str) -> String {
    let path = root().join(format!("grader/tests/it/snapshots/it__gallery__gallery_{entry}.snap"));
    let snapshot = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let body = snapshot.splitn(3, "---\n").nth(2).expect("an insta snapshot: a header between two --- lines");
    body.to_string()
}

#[test]
fn verdicts_under_load_are_the_quiet_machines() {
    let gallery: toml::Table =
        std::fs::read_to_string(root().join("fixtures/submissions.toml")).unwrap().parse().unwrap();
    let paths: Vec<(String, String)> = gallery["submission"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| Some((e["name"].as_str()?.to_string(), e["path"].as_str()?.to_string())))
        .filter(|(name, _)| ENTRIES.contains(&name.as_str()))
        .collect();
    assert_eq!(paths.len(), ENTRIES.len(), "every entry is in the gallery: {paths:?}");
    // built once, quietly, so that the load measures grading (the builds are cached by content)
    let quick = quick_policy();
    let only_build = ["--policy", quick.to_str().unwrap(), "--only", "compile-1"];
    for (_, path) in &paths {
        grade_in(&gallery_entry(path).0, &only_build, &Setting::default());
    }
    grade_in(&gallery_entry("java/valid-alt").0, &only_build, &Setting::default());

    let started = Instant::now();
    let load = Load::start();
    let ticks = machine_ticks();
    let differ = Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some((name, path)) = paths.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let graded =
                        grade_in(&gallery_entry(path).0, &["--policy", quick.to_str().unwrap()], &Setting::default());
                    let (quiet, loaded) = (quiet_report(name), scrub(&graded.text));
                    if quiet.trim_end() != loaded.trim_end() || graded.code == 2 {
                        let first = quiet.lines().zip(loaded.lines()).find(|(q, l)| q != l);
                        differ.lock().unwrap().push(format!(
                            "{name} (exit {}): first difference {first:?}\n{}",
                            graded.code, graded.stderr
                        ));
                    }
                }
            });
        }
    });
    let crowd = grade_in(
        &gallery_entry("hostile/java/crowd").0,
        &["--policy", quick.to_str().unwrap(), "--only", "board-1a"],
        &Setting::default(),
    );
    let idle = idle_share(&ticks, &machine_ticks());
    let beside = load.end();
    eprintln!(
        "under load: {:.0} s, idle {:.0}%, {beside} grades beside",
        started.elapsed().as_secs_f64(),
        idle * 100.0
    );
    assert!(idle < 0.2, "the machine was busy all along (idle {:.0}%)", idle * 100.0);
    assert!(beside >= 2, "whole JVM grades ran beside the graded ones ({beside})");
    let differ = differ.into_inner().unwrap();
    assert!(differ.is_empty(), "reports under load differ from the quiet machine's:\n{}", differ.join("\n\n"));
    assert_eq!(crowd.code, 1, "the crowd's hang is its own failure, not the grader's problem: {}", crowd.stderr);
    let said = crowd.test("board-1a")["message"].as_str().unwrap_or_default().to_string();
    assert!(said.contains("timed out on its wall-clock limit"), "{said}");
    assert!(!crowd.stderr.contains("stalled"), "{}", crowd.stderr);
}
