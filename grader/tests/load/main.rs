//! A grade does not depend on the machine's load: graded while the machine is as busy as a shared server
//! (other JVM grades beside it and a spinning process per core, which this test starts and ends), a correct
//! Java entry and a wasteful one (one MinPQ for both searches: it fails timing rows on counts) get the reports
//! they get on a quiet machine, byte for byte (the gallery's snapshots, `grader/tests/it/snapshots`): no stall
//! blamed on the machine, no wall-clock time-out, no budget spent by waiting. Two slow Solvers with correct
//! answers get their gallery verdicts, test by test, on the tests the gallery marks `under_load_only` (a whole
//! grade of either costs more than the suite carries): the Hamming priority (solves of seconds where the
//! correct ones take milliseconds; in a class at load 5 to 7 it once failed every Solver test on a CPU
//! budget, issue 34) on Solver 3a, and no critical optimization (queues of hundreds of thousands of nodes, and
//! a puzzle that fills the heap until the collector thrashes; its memory rows once ended as stalls of the
//! machine) on the MinPQ memory table; and the same Solver on that table's puzzle30 with a heap it fills at
//! once, so that its collector thrashes until the wall-clock net, its threads waiting for a CPU all the
//! while: the submission's own time-out, which the stall watch once blamed on the machine. And a Board whose
//! own threads crowd each other before it hangs still fails as its own time-out, not as the machine's stall.
//!
//! The entries and the crowd are graded at once, each beside the others and one more Java grade run over and
//! over for load, with a spinner per CPU. Their verdicts sit far from every CPU limit: the quick policy's 2 s
//! a solve (the correct entries' heaviest solve uses a small share of it; the no-critical-optimization
//! Solver's passing rows take at most 0.28 s a solve and 0.68 s a deep-memory walk, and its failing puzzle30
//! needs more than 30 s), 10 s for the Hamming Solver, whose heaviest solve in Solver 3a takes 2.1 s on a
//! quiet machine (at the quick policy's 2 s it fails from run to run: a test of the limit, not of the load).
//! So the only things the load can change are what the grader makes of waiting, and how much CPU a starved
//! JVM (its compiler and collector waiting for a CPU) charges the student's code.
//!
//! A test binary of its own, so that no other test runs beside it (cargo runs test binaries one after
//! another): its load would slow them, and theirs would make its own unknown. It costs its wall-clock time in
//! full (BENCHMARKS.md, "The test suite").

#[allow(dead_code)]
#[path = "../it/support.rs"]
mod support;

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use support::{
    base_id, failed as failed_test, gallery_entries, gallery_entry, grade_in, policy_with_in, quick_policy, root,
    scrub, tests_of, Setting,
};

/// The gallery entries graded under load whose whole reports must be the gallery's snapshots: correct, and
/// correct but wasteful (officially it fails Timing 2, 4a and 4b on counts and passes everything else). The
/// entries marked `under_load_only` in the gallery are graded too, on those tests.
const SNAPSHOT_ENTRIES: [&str; 2] = ["java-one-queue", "java-valid"];

/// The heap [`Graded::thrashing`] grades with: puzzle30's search (more than 30 s of CPU and an 8 GB heap
/// without the critical optimization) fills it with 0.3 to 0.4 s of its request thread's CPU, well inside
/// the CPU limit, and the collector gives up on it (the Solver's own `OutOfMemoryError`) after about 15 s of
/// a quiet machine's wall, well outside the net. At 700 MB the request thread used about 0.85 s before the
/// net, and under this test's load it once reached the 1 s limit first (CI, 2026-12-06).
const THRASHING_HEAP_MB: u64 = 300;

/// [`Graded::thrashing`]'s CPU limit a solve and a request: its net is 7 s of available time, about 30 s of
/// this test's load (at the quick policy's 2 s, a 12 s net, it was the last grade to end, at 50 s).
const THRASHING_CPU_SECONDS: f64 = 1.0;

/// What the test grades of one gallery entry, and what it holds the grade to.
struct Graded {
    name: String,
    path: String,
    /// The policy: the quick one, or the entry's `quick_cpu_seconds` of it.
    policy: std::path::PathBuf,
    /// The tests graded (`--only`), or all of them.
    only: Vec<String>,
    /// The failing base ids the gallery expects, where the report is not held to a snapshot.
    expect_failed: Option<Vec<String>>,
    /// What every failing test must say, where the way it fails is the point.
    failing_says: Option<&'static str>,
}

impl Graded {
    /// The entries this test grades, from fixtures/submissions.toml.
    fn from_gallery() -> Vec<Graded> {
        let graded: Vec<Graded> = gallery_entries()
            .into_iter()
            .filter(|e| e.under_load_only.is_some() || SNAPSHOT_ENTRIES.contains(&e.name.as_str()))
            .map(|e| Graded {
                policy: e.policy(&quick_policy()),
                expect_failed: e.under_load_only.is_some().then(|| e.expect_failed.clone()),
                only: e.under_load_only.unwrap_or_default(),
                failing_says: None,
                name: e.name,
                path: e.path,
            })
            .collect();
        let snapshots = graded.iter().filter(|g| g.expect_failed.is_none()).count();
        assert_eq!(snapshots, SNAPSHOT_ENTRIES.len(), "every snapshot entry is in the gallery");
        assert!(graded.len() > snapshots, "the gallery marks a slow entry `under_load_only`");
        graded
    }

    /// The Solver without the critical optimization on puzzle30's MinPQ row with a heap it fills at once
    /// (`java_heap_mb`, written into `dir`): its collector thrashes until the wall-clock net ends the request,
    /// its threads waiting for a CPU all the while. That is the submission's own time-out on a busy machine too;
    /// a watch that credited its last window before settling it once blamed it on the machine, twice in a
    /// row ("in 33.6 s it had 11.9 s of a CPU available", a net of 12 s: `runner::stall`).
    fn thrashing(dir: &std::path::Path) -> Graded {
        let cpu = THRASHING_CPU_SECONDS;
        let limits =
            format!("java_heap_mb = {THRASHING_HEAP_MB}\nsolve_cpu_seconds = {cpu:?}\nrequest_cpu_seconds = {cpu:?}");
        let policy = policy_with_in(dir, &limits);
        Graded {
            name: format!("java-no-critical-optimization, its heap {THRASHING_HEAP_MB} MB"),
            path: "java/no-critical-optimization".into(),
            policy,
            only: vec!["memory-solver-2/puzzle30".into()],
            expect_failed: Some(vec!["memory-solver-2".into()]),
            // the net ends it on this heap (what the stall watch judges is what is tested), and the words are
            // the collector's whichever limit comes first (`session::fault::collecting`)
            failing_says: Some("its Java runtime's garbage collector busy all the while"),
        }
    }

    fn args(&self) -> Vec<String> {
        let mut args = vec!["--policy".to_string(), self.policy.to_str().unwrap().to_string()];
        for id in &self.only {
            args.extend(["--only".to_string(), id.clone()]);
        }
        args
    }

    /// Grades the entry; what differs from the quiet machine's verdicts, if anything.
    fn differs(&self) -> Option<String> {
        let args = self.args();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let graded = grade_in(&gallery_entry(&self.path).0, &args, &Setting::default());
        let name = &self.name;
        let fault = graded.code == 2 || graded.stderr.contains("stalled");
        match &self.expect_failed {
            None => {
                let (quiet, loaded) = (quiet_report(name), scrub(&graded.text));
                (quiet.trim_end() != loaded.trim_end() || fault).then(|| {
                    let first = quiet.lines().zip(loaded.lines()).find(|(q, l)| q != l);
                    format!("{name} (exit {}): first difference {first:?}\n{}", graded.code, graded.stderr)
                })
            }
            Some(expected) => {
                let mut expected = expected.clone();
                expected.sort();
                let failed = graded.failed_ids();
                let tests = tests_of(&graded.json);
                let ran = |id: &str| tests.iter().any(|t| base_id(t) == id || t["id"] == id);
                let unrun: Vec<&String> = self.only.iter().filter(|id| !ran(id)).collect();
                let says = |t: &serde_json::Value, said| t["message"].as_str().unwrap_or_default().contains(said);
                let misread =
                    self.failing_says.is_some_and(|said| tests.iter().any(|t| failed_test(t) && !says(t, said)));
                (failed != expected || fault || !unrun.is_empty() || misread).then(|| {
                    // what each failing test said first (a per-row test, such as a memory table's, by its first row)
                    let said: Vec<String> = failed
                        .iter()
                        .filter_map(|id| tests.iter().find(|t| base_id(t) == id.as_str() && failed_test(t)))
                        .map(|t| format!("  {}: {}", t["id"], t["message"].as_str().unwrap_or_default()))
                        .collect();
                    format!(
                        "{name} (exit {}): expected failing {expected:?}, each saying {:?}, got {failed:?}; not graded \
                         {unrun:?}\n{}\n{}",
                        graded.code,
                        self.failing_says.unwrap_or_default(),
                        said.join("\n"),
                        graded.stderr
                    )
                })
            }
        }
    }
}

/// The busy machine, kept up until dropped: a spinning process per CPU, and grades of a Java submission one
/// after another (a JVM starting, compiling and collecting beside the graded ones, which are three more).
struct Load {
    spinners: Vec<Child>,
    stop: &'static AtomicBool,
    graders: Vec<std::thread::JoinHandle<u32>>,
}

impl Load {
    fn start() -> Load {
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let spin = || {
            let mut spinner = Command::new("sh");
            spinner.args(["-c", "while :; do :; done"]).stdout(Stdio::null());
            // SAFETY: prctl only, between fork and exec: a spinner dies with the thread that started it (this
            // test's), so a test killed or failed midway leaves no CPU spinning for the tests after it.
            unsafe {
                spinner.pre_exec(|| match libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) {
                    0 => Ok(()),
                    _ => Err(std::io::Error::last_os_error()),
                })
            };
            spinner.spawn()
        };
        let spinners = (0..cpus).map(|_| spin().expect("a spinner starts")).collect();
        let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let graders = (0..1)
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
        self.stop_spinning();
        self.graders.drain(..).map(|grader| grader.join().unwrap_or(0)).sum()
    }

    fn stop_spinning(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for mut spinner in self.spinners.drain(..) {
            let _ = spinner.kill();
            let _ = spinner.wait();
        }
    }
}

/// A test that fails before [`Load::end`] stops the load too (its graders' loops end after their grade).
impl Drop for Load {
    fn drop(&mut self) {
        self.stop_spinning();
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
    let policies = tempfile::tempdir().expect("a temp dir");
    let mut graded = Graded::from_gallery();
    graded.push(Graded::thrashing(policies.path()));
    // built once, quietly, so that the load measures grading (the builds are cached by content)
    let quick = quick_policy();
    let only_build = ["--policy", quick.to_str().unwrap(), "--only", "compile-1"];
    for path in graded.iter().map(|g| g.path.as_str()).chain(["java/valid-alt", "hostile/java/crowd"]) {
        grade_in(&gallery_entry(path).0, &only_build, &Setting::default());
    }

    let started = Instant::now();
    let load = Load::start();
    let ticks = machine_ticks();
    let differ = Mutex::new(Vec::new());
    // the crowd hangs until its wall-clock net runs out: graded beside the entries, not after them
    let crowd = std::thread::scope(|scope| {
        let crowd = scope.spawn(|| {
            grade_in(
                &gallery_entry("hostile/java/crowd").0,
                &["--policy", quick.to_str().unwrap(), "--only", "board-1a"],
                &Setting::default(),
            )
        });
        for entry in &graded {
            let differ = &differ;
            scope.spawn(move || {
                let graded = Instant::now();
                if let Some(what) = entry.differs() {
                    differ.lock().unwrap().push(what);
                }
                eprintln!("{}: graded in {:.0} s", entry.name, graded.elapsed().as_secs_f64());
            });
        }
        crowd.join().expect("the crowd's grade")
    });
    let idle = idle_share(&ticks, &machine_ticks());
    let beside = load.end();
    eprintln!(
        "under load: {:.0} s, idle {:.0}%, {beside} grades beside",
        started.elapsed().as_secs_f64(),
        idle * 100.0
    );
    assert!(idle < 0.2, "the machine was busy all along (idle {:.0}%)", idle * 100.0);
    assert!(beside >= 1, "whole JVM grades ran beside the graded ones ({beside})");
    let differ = differ.into_inner().unwrap();
    assert!(differ.is_empty(), "reports under load differ from the quiet machine's:\n{}", differ.join("\n\n"));
    assert_eq!(crowd.code, 1, "the crowd's hang is its own failure, not the grader's problem: {}", crowd.stderr);
    let said = crowd.test("board-1a")["message"].as_str().unwrap_or_default().to_string();
    assert!(said.contains("timed out on its wall-clock limit"), "{said}");
    assert!(!crowd.stderr.contains("stalled"), "{}", crowd.stderr);
}
