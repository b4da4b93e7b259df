//! The results model: what a grading run found, and the only thing renderers see.
//!
//! Results hold no processes, fixtures or catalog internals: a test result carries its id, presentation and
//! verdict as plain data. CPU times are kept apart ([`TestResult::cpu_ms`], [`Report::timings`]) so
//! deterministic renderings can leave them out.

use serde::Serialize;

mod details;
mod not_graded;
mod partial;

pub use details::{plural, Details, Finding, Style, StyleTool, SubmittedFile, Transcript};
pub use not_graded::{Because, NotGraded};
pub use partial::Partial;

/// The line that stands where a program's standard error was cut ([`Report::output`] keeps its start and its
/// end): `… (N bytes of standard error left out) …`.
pub fn output_gap(bytes: u64) -> String {
    format!("\n… ({bytes} bytes of standard error left out) …\n")
}

/// The bytes that the [`output_gap`] lines in `text` stand for, and how long those lines are: a renderer that
/// cuts [`Report::output`] again, to fit a page, counts what it leaves out in the program's bytes, not the
/// report's.
pub fn output_gaps_in(text: &str) -> (u64, usize) {
    const OPEN: &str = "\n… (";
    const CLOSE: &str = " bytes of standard error left out) …\n";
    let (mut bytes, mut length) = (0, 0);
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        let after = &rest[at + OPEN.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        match (after[..digits].parse::<u64>(), after[digits..].starts_with(CLOSE)) {
            (Ok(n), true) => {
                bytes += n;
                length += OPEN.len() + digits + CLOSE.len();
                rest = &after[digits + CLOSE.len()..];
            }
            _ => rest = after,
        }
    }
    (bytes, length)
}

/// A section of the report, scored as one share.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    /// The submission builds.
    Compile,
    /// The submission's API matches the assignment's.
    Api,
    /// Board correctness, on the submission's own Board.
    Board,
    /// Solver correctness, with the reference board substituted.
    Solver,
    /// Memory of Board, Solver and MinPQ.
    Memory,
    /// Timing and operation counts.
    Timing,
    /// This project's checks beyond the official grader (0 points by default).
    Beyond,
}

impl Category {
    /// Every category in report order.
    pub const ALL: [Category; 7] = [
        Category::Compile,
        Category::Api,
        Category::Board,
        Category::Solver,
        Category::Memory,
        Category::Timing,
        Category::Beyond,
    ];

    /// The name used in ids, policies and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Category::Compile => "compile",
            Category::Api => "api",
            Category::Board => "board",
            Category::Solver => "solver",
            Category::Memory => "memory",
            Category::Timing => "timing",
            Category::Beyond => "beyond",
        }
    }

    /// The heading used in reports.
    pub fn heading(self) -> &'static str {
        match self {
            Category::Compile => "Compilation",
            Category::Api => "API",
            Category::Board => "Correctness: Board",
            Category::Solver => "Correctness: Solver (reference Board substituted)",
            Category::Memory => "Memory",
            Category::Timing => "Timing (reference Board substituted)",
            Category::Beyond => "Beyond the official grader (0 points by default)",
        }
    }
}

/// How a test ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every trial passed.
    Passed,
    /// A trial failed (wrong answer, exception, timeout, crash, garbage).
    Failed,
    /// Not run because a test it depends on failed.
    Skipped,
    /// The submission's language cannot express it; it does not count.
    NotApplicable,
    /// The grader itself could not run it (missing fixtures, an adapter fault).
    Error,
}

impl Status {
    /// The word used in reports.
    pub fn word(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Failed => "FAILED",
            Status::Skipped => "skipped",
            Status::NotApplicable => "not applicable",
            Status::Error => "ERROR",
        }
    }
}

/// One test's result: what the report shows of it, scored.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TestResult {
    /// Stable id (`board-5a`, `timing-2/puzzle4x4-40`).
    pub id: String,
    /// The official test it mirrors, as the official report labels it (`Board 1b`, `Memory Solver 1`,
    /// `Timing 4a`); absent for this project's own tests.
    pub official: Option<String>,
    /// The row of the official table this test is (the puzzle, or `n=12`); absent for tests without rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub row: Option<String>,
    /// The table's column headings, for a row test (the text report prints them above the rows).
    #[serde(skip)]
    pub columns: Option<String>,
    #[allow(missing_docs)]
    pub category: Category,
    /// Student-facing title.
    pub title: String,
    #[allow(missing_docs)]
    pub status: Status,
    /// Points earned: its share of its category's weight when it passed, else 0 (filled in by [`crate::score`]).
    pub score: f64,
    /// Points available (0 when not applicable).
    pub max_score: f64,
    /// Input rows, as the official report lists them (`puzzle04.txt`, `100 random 4-by-4 boards`).
    pub inputs: Vec<String>,
    /// Rows of measurements shown whether or not the test passed (counts, ratios, bytes).
    pub rows: Vec<String>,
    /// Why it did not pass: what was asked, expected vs actual, the board, a hint. Empty when passed.
    pub message: String,
    /// The failure (or a count row's measurements) as data, for reports that draw it; not in the JSON schema.
    #[serde(skip)]
    pub evidence: Option<crate::evidence::Evidence>,
    /// The Board methods the test checks and reads boards through, from its catalog item (for fix-first).
    #[serde(skip)]
    pub leans: Leans,
    /// Whether the policy hides this test from students until after the deadline.
    pub hidden: bool,
    /// CPU time the submission spent on this test, in milliseconds (not deterministic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<u64>,
}

/// Per-category tallies and points.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CategoryScore {
    #[allow(missing_docs)]
    pub category: Category,
    #[allow(missing_docs)]
    pub passed: usize,
    /// Tests failed or in error.
    pub failed: usize,
    /// Tests skipped because a dependency failed (they count as not passed).
    pub skipped: usize,
    /// Tests that do not apply to this language.
    pub not_applicable: usize,
    /// Points earned in the aggregate score.
    pub points: f64,
    /// Points available in the aggregate score (the policy's weight).
    pub weight: f64,
}

/// The aggregate score.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Score {
    /// Points earned, out of [`Score::max`].
    pub total: f64,
    /// Points available (100 under the default weights).
    pub max: f64,
    #[allow(missing_docs)]
    pub categories: Vec<CategoryScore>,
}

impl Score {
    /// The score as a percentage of the points available (0 when none are).
    pub fn percent(&self) -> f64 {
        if self.max > 0.0 {
            100.0 * self.total / self.max
        } else {
            0.0
        }
    }
}

#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Submission {
    /// The name shown (the folder or file name).
    pub name: String,
    /// `rust`, `java`, `program`.
    pub language: String,
}

/// Time spent, for benchmarks and the Gradescope `execution_time` (never in deterministic output).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Timings {
    /// Wall time of the whole run, in milliseconds.
    pub wall_ms: u64,
    /// CPU time the submission reported spending on requests, in milliseconds.
    pub submission_cpu_ms: u64,
    /// Of `submission_cpu_ms`, what the program reported for reading its counters (the adapter's walk over
    /// the queues' deep memory, not the Solver's work), in milliseconds.
    pub counting_cpu_ms: u64,
    /// Wall time spent planning the tests (`grader grade`; a batch plans once per worker, and says 0), in
    /// milliseconds: the reference's searches of puzzle files without metadata the first time, else little.
    pub plan_ms: u64,
    /// Wall time spent building the submission, in milliseconds.
    pub build_ms: u64,
    /// CPU time of the submission's processes while the tests ran (its requests and everything around them
    /// in the program), in milliseconds: each sandbox's whole CPU (every process and thread it held), read as
    /// it ended, the figure the sections' budgets are charged. So it is exact per grading in `grader batch`
    /// too, and it counts the processes a time-out killed (which no `getrusage` of the grader sees: their
    /// sandbox's init dies before reaping them).
    pub processes_cpu_ms: u64,
    /// CPU time of the grader's own threads while the tests ran, in milliseconds. Read with `getrusage` for
    /// the whole grader process: exact for one grading at a time (`grader grade`), shared by the concurrent
    /// gradings of `grader batch`.
    pub grader_cpu_ms: u64,
    /// The most memory one sandbox of the submission held at once (its memory group's peak), in MiB.
    pub submission_peak_memory_mb: Option<u64>,
}

/// A whole grading run.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    #[allow(missing_docs)]
    pub submission: Submission,
    /// The seed of every random board.
    pub seed: u64,
    #[allow(missing_docs)]
    pub score: Score,
    /// Every test, in catalog order.
    pub tests: Vec<TestResult>,
    /// What the submission wrote to stderr (bounded), and whether it was cut.
    pub output: String,
    /// Whether [`Report::output`] was cut.
    pub output_truncated: bool,
    /// Compiler output when the build failed.
    pub compile_log: Option<String>,
    /// What the build changed in the submission that the student should know (a `package` line removed).
    pub notes: Vec<String>,
    /// Failures that share one root cause, in the order to fix them ([`crate::triage`]).
    pub fix_first: Vec<RootCause>,
    /// Fixture files that official tests need and the fixture directory lacks (the grader's problem, not the
    /// submission's); the tests that needed them are reported as errors.
    pub missing_fixtures: Vec<String>,
    /// Fixture files that could not be used and were left out (`--skip-bad-fixtures`), in path order.
    pub skipped_fixtures: Vec<SkippedFixture>,
    /// What the machine stalled twice in a row (test ids, or the submission's start): the grader's problem,
    /// not the submission's; those tests are errors, and the grader exits 2 after writing the report.
    pub machine_stalls: Vec<String>,
    /// Time spent (not deterministic).
    pub timings: Timings,
    /// Count and memory cells that fail for one reason across a table's rows, in fixing order
    /// ([`crate::triage::count_causes`]).
    pub count_causes: Vec<CountCause>,
    /// The first part of the official report's details: the files submitted, the compiler's transcript and
    /// the style section.
    pub details: Details,
    /// Tests the policy hides that this view of the report leaves out ([`Report::without_hidden`]); 0 in a
    /// whole report.
    pub withheld: usize,
    /// Set when `--only` left tests out or `--skip-bad-fixtures` left fixture files out: the score is not the
    /// assignment's grade.
    pub partial: Option<Partial>,
    /// Why this run gives no final grade, if it gives none ([`NotGraded`]): every format then says so at its
    /// top instead of a score.
    pub not_graded: Option<NotGraded>,
}

impl CountCause {
    /// The cause in one line: `manhattan() is called 5.4-9.3× the allowed on 8/8 puzzles (Timing 4b): cache
    /// it: …`.
    pub fn summary(&self) -> String {
        let subject = match self.what.as_str() {
            "memory of the Solver" => "the Solver's memory is".to_string(),
            "deep memory" | "max size" | "ending size" => format!("the queues' {} is", self.what),
            call if call.ends_with("()") => format!("{call} is called"),
            other => format!("{other} is"),
        };
        let ratio = |r: f64| if r.is_finite() { format!("{r:.1}") } else { "∞".to_string() };
        let range = if ratio(self.lowest) == ratio(self.highest) {
            ratio(self.lowest)
        } else {
            format!("{}-{}", ratio(self.lowest), ratio(self.highest))
        };
        format!(
            "{subject} {range}× the allowed on {}/{} puzzles ({}): {}",
            self.puzzles_failing,
            self.puzzles_judged,
            self.tables.join(", "),
            self.hint
        )
    }
}

/// Count or memory cells of one column that fail across rows of their tables ([`crate::triage`]): the
/// failures share one cause, which one line can name ("manhattan() is called 5.4-9.3x the allowed on 8/8
/// puzzles: cache it").
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CountCause {
    /// The column (`manhattan()`, `Board()`, `memory of the Solver`).
    pub what: String,
    /// The official tables it fails in (`Timing 4b`).
    pub tables: Vec<String>,
    /// The failing rows' test ids.
    pub tests: Vec<String>,
    /// Puzzles on which the cell fails, and puzzles on which it was judged.
    pub puzzles_failing: usize,
    #[allow(missing_docs)]
    pub puzzles_judged: usize,
    /// The smallest and largest failing ratio to the allowed (count ÷ (factor × the reference's)).
    pub lowest: f64,
    #[allow(missing_docs)]
    pub highest: f64,
    /// What to do about it.
    pub hint: String,
}

/// A fixture file left out of a run because it could not be used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SkippedFixture {
    /// Its path under the fixture directory (`puzzle04.txt`, `extra/p.txt`).
    pub file: String,
    /// What is wrong with it, starting with the line when there is one (`line 3: expected a tile, found `x``).
    pub problem: String,
}

impl SkippedFixture {
    /// The problem a corpus recorded, with its path made relative to the corpus `root` (reports must not
    /// depend on where the fixtures are).
    pub fn of(problem: &corpus::LoadProblem, root: &std::path::Path) -> SkippedFixture {
        let file = problem.file.strip_prefix(root).unwrap_or(&problem.file);
        SkippedFixture { file: file.display().to_string(), problem: problem.message.clone() }
    }
}

impl TestResult {
    /// A result with an id, a section and a status and nothing else, for tests to fill in as they need.
    #[cfg(test)]
    pub fn bare(id: &str, category: Category, status: Status) -> TestResult {
        TestResult {
            id: id.into(),
            official: None,
            row: None,
            columns: None,
            category,
            title: String::new(),
            status,
            score: 0.0,
            max_score: 0.0,
            inputs: vec![],
            rows: vec![],
            message: String::new(),
            evidence: None,
            leans: Leans::NONE,
            hidden: false,
            cpu_ms: None,
        }
    }

    /// The line of the message that says what went wrong (not the "failed on trial k of N" context).
    pub fn reason(&self) -> &str {
        let mut lines = self.message.lines();
        let first = lines.next().unwrap_or("");
        if first.starts_with("failed on trial") {
            lines.next().unwrap_or(first)
        } else {
            first
        }
    }
}

impl Report {
    /// The root cause that explains `test`'s failure, if one does.
    pub fn cause_of(&self, test: &str) -> Option<&RootCause> {
        self.fix_first.iter().find(|cause| cause.explains.iter().any(|id| id == test))
    }

    /// Tests of one category, in order.
    pub fn tests_in(&self, category: Category) -> impl Iterator<Item = &TestResult> {
        self.tests.iter().filter(move |t| t.category == category)
    }
}

/// A Board method: the one type that names them, for the checks that ask one (`catalog::BoardCheck`) and for
/// the methods other tests lean on, in the order a student should fix them ([`crate::triage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardMethod {
    /// `hamming()`
    Hamming,
    /// `manhattan()`
    Manhattan,
    /// `dimension()`
    Dimension,
    /// `toString()`
    ToString,
    /// `isGoal()`
    IsGoal,
    /// `equals()`
    Equals,
    /// `neighbors()`
    Neighbors,
    /// `twin()`
    Twin,
}

impl BoardMethod {
    /// Every method, in fixing order: toString() first, since most Board tests read boards back through it.
    pub const ALL: [BoardMethod; 8] = [
        BoardMethod::ToString,
        BoardMethod::Dimension,
        BoardMethod::Hamming,
        BoardMethod::Manhattan,
        BoardMethod::IsGoal,
        BoardMethod::Equals,
        BoardMethod::Neighbors,
        BoardMethod::Twin,
    ];

    /// How reports name it.
    pub fn call(self) -> &'static str {
        match self {
            BoardMethod::Hamming => "hamming()",
            BoardMethod::Manhattan => "manhattan()",
            BoardMethod::Dimension => "dimension()",
            BoardMethod::ToString => "toString()",
            BoardMethod::IsGoal => "isGoal()",
            BoardMethod::Equals => "equals()",
            BoardMethod::Neighbors => "neighbors()",
            BoardMethod::Twin => "twin()",
        }
    }
}

/// The Board methods a test leans on ([`crate::triage`]): a wrong answer from one it `checks` is its own
/// failure; one it `reads` boards through (walking to a k-th neighbor, reading tiles back with toString())
/// can fail it too. Tests that lean on none (the Solver and timing tests run over the reference Board) have
/// [`Leans::NONE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Leans {
    #[allow(missing_docs)]
    pub checks: &'static [BoardMethod],
    #[allow(missing_docs)]
    pub reads: &'static [BoardMethod],
}

impl Leans {
    /// Leaning on no Board method of the student's.
    pub const NONE: Leans = Leans { checks: &[], reads: &[] };
}

/// One root cause and the failures it explains (found by [`crate::triage`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RootCause {
    /// The broken method.
    pub method: BoardMethod,
    /// Its first failing test of its own.
    pub test: String,
    /// The other failing tests that lean on it (and on no method broken before it).
    pub explains: Vec<String>,
    /// Those of [`RootCause::explains`] that check the method themselves (the same fault seen again), as
    /// opposed to reading boards through it.
    pub repeats: Vec<String>,
}
