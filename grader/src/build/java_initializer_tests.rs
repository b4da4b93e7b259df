//! When the student's static initializers run (`World.initialize`): the one of the class a world serves first
//! in the handshake, under the program's start budget, not inside the first construction's (a Solver that
//! builds a table when its class is initialized once failed its first solve on the solve budget, and every
//! restarted process paid again); and what an initializer throws still reported by the first construction,
//! as it would have been there.

use super::super::conversation::Conversation;
use std::fs;

use super::tests::{build, java_available, valid_with, valid_with_solver};

/// A static initializer that spins until its thread has used 400 ms of CPU (measured on the thread's own
/// clock, so the same on a busy machine), for the class `name`.
fn spinning(name: &str) -> String {
    format!(
        "public class {name} {{
    private static final long SPUN;

    static {{
        java.lang.management.ThreadMXBean clock = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = clock.getCurrentThreadCpuTime();
        long x = 0;
        while (clock.getCurrentThreadCpuTime() - start < 400_000_000L) x += x * 31 + 7;
        SPUN = x;
    }}
"
    )
}

/// The handshake runs the initializer of the class each world serves first: the own world's Board, the ref
/// world's Solver. The own world's Solver is initialized by its first construction, as before: an
/// initializer that never ended would otherwise fail the Board tests, which never use it.
#[test]
fn the_handshake_runs_the_initializer_of_the_class_a_world_serves_first() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|solver| solver.replacen("public class Solver {", &spinning("Solver"), 1));
    let board = fs::read_to_string(dir.path().join("Board.java")).unwrap();
    fs::write(dir.path().join("Board.java"), board.replacen("public class Board {", &spinning("Board"), 1)).unwrap();
    let build = build(dir.path());
    let spun = 400_000;
    for (world, mut c) in [("own", Conversation::start(build.clone())), ("ref", Conversation::start_ref(build))] {
        let (hello, hello_cpu) = c.ask_with_cpu("hello 1");
        assert!(
            hello.starts_with("ok ") && hello_cpu >= spun,
            "{world}: the handshake ran an initializer: {hello_cpu} µs"
        );
        let (board, board_cpu) = c.ask_with_cpu(&format!("board {world} 3 1 2 3 4 5 6 7 0 8"));
        assert!(board == "ok b1" && board_cpu < spun, "{world}: {board} in {board_cpu} µs");
        let (solver, solver_cpu) = c.ask_with_cpu("solver b1");
        let solver = solver.strip_prefix("ok ").unwrap_or_else(|| panic!("{world}: {solver}"));
        assert_eq!(solver_cpu >= spun, world == "own", "{world}: {solver} in {solver_cpu} µs");
        assert_eq!(c.ask(&format!("moves {solver}")), "ok 1", "{world}");
        c.finish();
    }
}

#[test]
fn what_an_initializer_throws_is_the_first_constructions_failure() {
    if !java_available() {
        return;
    }
    let throwing = "static {\n        if (true) throw new IllegalStateException(\"no table\");\n    }\n\n";
    let dir = valid_with("Board.java", |board| {
        board.replacen("    public Board(", &format!("    {throwing}    public Board("), 1)
    });
    let mut c = Conversation::start(build(dir.path()));
    assert!(c.ask("hello 1").starts_with("ok 1 java"), "a throwing initializer does not fail the handshake");
    let first = c.ask("board own 2 1 2 3 0");
    assert!(
        first.starts_with("err exception java.lang.ExceptionInInitializerError caused by java.lang.IllegalStateException: no table (at Board.java:"),
        "{first}"
    );
    let second = c.ask("board own 2 1 2 3 0");
    assert!(
        second.starts_with("err exception java.lang.NoClassDefFoundError Could not initialize class Board"),
        "{second}"
    );
    c.finish();
}
