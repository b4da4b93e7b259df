//! How the Java adapter names what a student's code throws: a subclass of `IllegalArgumentException` is named
//! with it (`Name(java.lang.IllegalArgumentException)`), so that `new Solver(null)` throwing one passes, as
//! the official grader's `catch (IllegalArgumentException e)` lets it (a red-team pass found it failed).

use super::super::conversation::Conversation;
use super::tests::{build, java_available, valid_with_solver};

#[test]
fn a_subclass_of_illegal_argument_exception_is_named_with_it() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|solver| {
        solver
            .replace(
                "throw new IllegalArgumentException(\"initial board is null\");",
                "throw new InvalidBoard(\"initial board is null\");",
            )
            .replace(
                "    private final SearchNode goal;\n",
                "    private final SearchNode goal;\n\n    private static class InvalidBoard extends \
                 IllegalArgumentException {\n        InvalidBoard(String message) {\n            super(message);\n        \
                 }\n    }\n",
            )
    });
    let mut c = Conversation::start_ref(build(dir.path()));
    assert!(c.ask("hello 1").starts_with("ok "));
    assert_eq!(
        c.ask("solver_null ref"),
        "err exception Solver$InvalidBoard(java.lang.IllegalArgumentException) initial board is null (at \
         Solver.java:35)"
    );
    c.finish();
}
