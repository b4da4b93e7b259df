//! The Java adapter's call sites (`call_sites`, specs/protocol.md): every 128th counted operation names the
//! innermost line of the student's files, never the reference Board's or the adapter's, on the request thread
//! and on a student's helper thread alike, with the sampling's own CPU.

use std::fs;

use npuzzle_harness::protocol::{decode_call_sites, CallSites};

use super::super::conversation::{counter, samples_of, Conversation};
use super::tests::{build, gallery, java_available, valid_with_solver};

/// A 20-move puzzle (fixtures/puzzles/puzzle3x3-20.txt): a few thousand operations of each sampled counter.
const TWENTY_MOVES: &str = "3 7 2 1 3 4 6 0 5 8";
/// The counters the adapter samples.
const SAMPLED: [&str; 5] = ["pq_inserts", "pq_del_mins", "board_constructed", "board_equals", "board_manhattan"];

/// Solves `board` in the ref world of the submission in `dir` after a reset that turns sampling on; the
/// counters and the call sites. A plain reset then solves it again without sampling.
fn solved(dir: &std::path::Path, board: &str) -> (String, CallSites) {
    let mut c = Conversation::start_ref(build(dir));
    assert!(c.ask("hello 1").contains(" call_sites "), "the Java adapter announces call_sites");
    assert_eq!(c.ask(&format!("board ref {board}")), "ok b1");
    assert_eq!(c.ask("counters_reset sites"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s2");
    let counters = c.ask("counters");
    let sites = c.ask("call_sites");
    let sites = decode_call_sites(sites.strip_prefix("ok ").expect(&sites)).unwrap();
    assert_eq!(c.ask("counters_reset"), "ok");
    assert_eq!(c.ask("solver b1"), "ok s3");
    assert_eq!(c.ask("call_sites"), "ok sampling_cpu_ns=0", "a plain reset forgets the samples and stops sampling");
    c.finish();
    (counters, sites)
}

/// The 1-based number of the line of `source` that contains `text`.
fn line_of(source: &str, text: &str) -> usize {
    source.lines().position(|l| l.contains(text)).unwrap_or_else(|| panic!("`{text}` in the source")) + 1
}

/// How many samples of `counter` were taken at `site`.
fn samples_at(sites: &CallSites, counter: &str, site: &str) -> u64 {
    sites.sites.iter().filter(|s| s.counter == counter && s.site == site).map(|s| s.samples).sum()
}

/// One sample per 128 operations of each counter (the 1st, the 129th, ...), each at the student's innermost
/// line: manhattan() called by the reference isGoal() is the Solver's `isGoal()` line, not the reference
/// Board's; the sampling took CPU of its own.
#[test]
fn call_sites_name_the_solvers_lines_one_operation_in_128() {
    if !java_available() {
        return;
    }
    let source = fs::read_to_string(gallery("valid").join("Solver.java")).unwrap();
    let (counters, sites) = solved(&gallery("valid"), TWENTY_MOVES);
    for name in SAMPLED {
        let count = counter(&counters, name);
        let samples = samples_of(&sites, name);
        assert!(count > 1000 || name == "board_equals" && count > 500, "{name}: {counters}");
        assert_eq!(samples, count.div_ceil(128), "{name}: {count} operations, {sites:?}");
    }
    assert!(sites.sites.iter().all(|s| s.site.starts_with("Solver.java:")), "only the student's lines: {sites:?}");
    let at = |text: &str| format!("Solver.java:{}", line_of(&source, text));
    // the first insert is the initial node's; the rest come from expand()
    assert_eq!(samples_at(&sites, "pq_inserts", &at("pq.insert(new SearchNode(initial")), 1, "{sites:?}");
    let expand = samples_at(&sites, "pq_inserts", &at("pq.insert(new SearchNode(next"));
    assert_eq!(expand, counter(&counters, "pq_inserts").div_ceil(128) - 1, "{sites:?}");
    assert!(samples_at(&sites, "board_manhattan", &at("this.priority = moves + board.manhattan()")) > 0, "{sites:?}");
    assert!(samples_at(&sites, "board_manhattan", &at("if (node.board.isGoal())")) > 0, "{sites:?}");
    assert!(samples_at(&sites, "board_equals", &at("next.equals(node.previous.board)")) > 0, "{sites:?}");
    assert!(sites.sampling_cpu_ns > 0, "{sites:?}");
}

/// A count made on a student's helper thread (which takes the counters' lock) is sampled there, at the line of
/// the helper's code.
#[test]
fn a_helper_threads_operations_are_sampled_at_its_lines() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|s| {
        s.replace(
            "MinPQ<SearchNode> pq = new",
            "Thread helper = new Thread(() -> { MinPQ<Integer> q = new MinPQ<Integer>();\n\
             for (int i = 0; i < 300; i++) q.insert(i); }); helper.start();\n\
             try { helper.join(); } catch (InterruptedException e) { throw new IllegalStateException(e); }\n\
             MinPQ<SearchNode> pq = new",
        )
    });
    let source = fs::read_to_string(dir.path().join("Solver.java")).unwrap();
    let (counters, sites) = solved(dir.path(), TWENTY_MOVES);
    let helper = format!("Solver.java:{}", line_of(&source, "q.insert(i)"));
    // its inserts are the 1st to the 300th: samples at the 1st, the 129th and the 257th
    assert_eq!(samples_at(&sites, "pq_inserts", &helper), 3, "{sites:?}");
    assert_eq!(
        samples_of(&sites, "pq_inserts"),
        counter(&counters, "pq_inserts").div_ceil(128),
        "{counters} {sites:?}"
    );
}
