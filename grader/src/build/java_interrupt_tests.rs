//! What a student's code can do to the Java server's own threads, which share its thread group: interrupting
//! them must neither stop the server nor make it print what reads as the adapter's crash.

use super::super::conversation::Conversation;
use super::tests::{build, java_available, valid_with_solver};

/// A Solver that interrupts every thread of its group, the server's main thread among them (which waits for
/// the request thread to end): the server goes on answering and exits as it should, with no
/// `InterruptedException` "in thread main" at `npuzzle.Server.main`, which would read as the adapter's crash.
#[test]
fn a_solver_that_interrupts_every_thread_leaves_the_server_whole() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|solver| {
        solver.replacen(
            "        MinPQ<SearchNode> pq = new MinPQ<SearchNode>();\n",
            "        Thread[] all = new Thread[64];\n        int k = Thread.currentThread().getThreadGroup().enumerate(all);\n        \
             for (int i = 0; i < k; i++) {\n            try {\n                all[i].interrupt();\n            } catch \
             (RuntimeException refused) {\n            }\n        }\n        Thread.interrupted();\n        \
             MinPQ<SearchNode> pq = new MinPQ<SearchNode>();\n",
            1,
        )
    });
    let mut c = Conversation::start_ref(build(dir.path()));
    assert!(c.ask("hello 1").starts_with("ok "));
    assert_eq!(c.ask("board ref 3 0 1 3 4 2 5 7 8 6"), "ok b1");
    assert_eq!(c.ask("solver b1"), "ok s2");
    assert_eq!(c.ask("moves s2"), "ok 4");
    assert_eq!(c.ask("solver b1"), "ok s3", "a second Solver interrupts again");
    c.finish();
}
