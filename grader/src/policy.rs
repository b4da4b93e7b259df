//! The grading policy: weights, limits and thresholds, read from TOML. The defaults mirror the official grader
//! (`specs/policy.md` documents every field).
//!
//! Unknown fields are rejected, so a typo in a course's policy is an error naming the field instead of a
//! silently ignored setting.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// Points per category in the aggregate score (the official 5 + 5 + 60 + 10 + 20).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Weights {
    /// Points for compiling (official: 5).
    pub compile: f64,
    /// Points for the API check (official: 5).
    pub api: f64,
    /// Board and Solver correctness together, shared by test count as the official grader does.
    pub correctness: f64,
    /// Points for the memory tests (official: 10).
    pub memory: f64,
    /// Points for the timing tests (official: 20).
    pub timing: f64,
    /// This project's checks beyond the official grader (0 by default: reported, not scored, so the default
    /// score is the official score). `pair` is read as this too (its name before the official catalog).
    #[serde(alias = "pair")]
    pub beyond: f64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { compile: 5.0, api: 5.0, correctness: 60.0, memory: 10.0, timing: 20.0, beyond: 0.0 }
    }
}

/// Resource limits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// CPU seconds allowed for one Solver construction (one solve).
    pub solve_cpu_seconds: f64,
    /// CPU seconds allowed for any other single request.
    pub request_cpu_seconds: f64,
    /// CPU seconds allowed for the program to start and answer the handshake.
    pub startup_cpu_seconds: f64,
    /// CPU seconds the submission's processes may use in each section of the grade, every thread and
    /// restart counted; past a section's budget the test running fails and the section's other tests fail at
    /// once with one line, while the other sections keep theirs. Far above what a correct submission needs
    /// (see `specs/policy.md`): a bound on a runaway one, never a speed test.
    pub section_cpu_seconds: SectionCpu,
    /// Memory of a native submission process, in MB: an address-space cap of this plus
    /// `address_space_slack_mb`. (The official "200 MB per puzzle" is judged from measured memory in the
    /// Solver-memory tests, not enforced here.)
    pub memory_mb: u64,
    /// The JVM's maximum heap (`-Xmx`) in MB; 0 sizes it from the machine (see
    /// [`Limits::java_heap_mb_on`]). A heap near the submission's need makes the JVM spend its time
    /// collecting garbage, so it must hold the largest timing search with room to spare.
    pub java_heap_mb: u64,
    /// Extra address space native programs get for their runtime's reservations (thread stacks, arenas).
    pub address_space_slack_mb: u64,
    /// Memory a JVM or a Python interpreter may use beyond its heap (or address-space cap) in its sandbox's
    /// memory control group: its code, threads and native allocations.
    pub runtime_margin_mb: u64,
    /// Size of a submission's scratch directory (its working directory, `HOME` and `TMPDIR`), in MB.
    pub scratch_mb: u64,
    /// Most bytes of replies the grader holds read ahead of the checks that judge them, in MiB; past it a
    /// reply's request fails with "reply too long".
    pub reply_buffer_mb: u64,
    /// Processes and threads a submission's sandbox may hold at once.
    pub processes: u64,
    /// Wall-clock seconds one build step (cargo, javac, jar) may take; past it the step and everything it
    /// started are killed and the submission does not compile.
    pub build_seconds: f64,
    /// CPU seconds any one process of a build step (a `rustc`, the JVM running javac) may use; past it the
    /// kernel stops it (`RLIMIT_CPU`) and the submission does not compile. A build of this assignment takes
    /// seconds; a constant evaluated at compile time that never ends would hold the step to its wall clock.
    pub build_cpu_seconds: f64,
    /// Memory of one build step, in MB (its sandbox's memory control group).
    pub build_memory_mb: u64,
    /// Processes and threads one build step may hold at once.
    pub build_processes: u64,
    /// Disk of one build step, in MB: its scratch directory, and the largest file it may write.
    pub build_disk_mb: u64,
    /// Multiplies `solve_cpu_seconds`, `request_cpu_seconds` and `section_cpu_seconds` for a Python
    /// submission: CPython runs the
    /// same search with the same counts many times slower than native code or the JVM (BENCHMARKS.md), and
    /// the counts, not the time, carry the grade.
    pub python_cpu_scale: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            solve_cpu_seconds: 5.0,
            request_cpu_seconds: 2.0,
            startup_cpu_seconds: 20.0,
            section_cpu_seconds: SectionCpu::default(),
            memory_mb: 200,
            java_heap_mb: 0,
            address_space_slack_mb: 1024,
            runtime_margin_mb: 512,
            scratch_mb: 64,
            reply_buffer_mb: 64,
            processes: 128,
            build_seconds: 600.0,
            build_cpu_seconds: 120.0,
            build_memory_mb: 4096,
            build_processes: 512,
            build_disk_mb: 1024,
            python_cpu_scale: 10.0,
        }
    }
}

/// The CPU budgets of a grade's sections (`limits.section_cpu_seconds`), in seconds: each bounds what the
/// submission's processes may use in that section's tests, so a runaway in one section never takes the
/// tests of another (whatever order they run in).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SectionCpu {
    /// The API check and the Board and Solver correctness tests.
    pub correctness: f64,
    /// The memory and timing tables.
    pub memory_and_timing: f64,
    /// This project's checks beyond the official grader.
    pub beyond: f64,
}

impl Default for SectionCpu {
    fn default() -> Self {
        SectionCpu { correctness: 300.0, memory_and_timing: 600.0, beyond: 300.0 }
    }
}

impl SectionCpu {
    /// Each budget multiplied by `factor`.
    pub fn scaled(self, factor: f64) -> SectionCpu {
        SectionCpu {
            correctness: self.correctness * factor,
            memory_and_timing: self.memory_and_timing * factor,
            beyond: self.beyond * factor,
        }
    }

    /// Every budget with its policy field.
    pub fn fields(self) -> [(&'static str, f64); 3] {
        [
            ("limits.section_cpu_seconds.correctness", self.correctness),
            ("limits.section_cpu_seconds.memory_and_timing", self.memory_and_timing),
            ("limits.section_cpu_seconds.beyond", self.beyond),
        ]
    }
}

/// The smallest heap a machine-sized JVM gets, in MB: a reference-like solver's largest timing search
/// (about 3.6 million boards) needs about 1 GB with the reference Board.
pub const JAVA_HEAP_FLOOR_MB: u64 = 1024;
/// The largest heap a machine-sized JVM gets, in MB (more only shows how long a runaway search can grow).
pub const JAVA_HEAP_CEILING_MB: u64 = 8192;

impl Limits {
    /// These limits with the CPU limits of one solve, of any other request and of each section multiplied
    /// by `python_cpu_scale`, for a Python submission.
    pub fn scaled_for_python(&self) -> Limits {
        Limits {
            solve_cpu_seconds: self.solve_cpu_seconds * self.python_cpu_scale,
            request_cpu_seconds: self.request_cpu_seconds * self.python_cpu_scale,
            section_cpu_seconds: self.section_cpu_seconds.scaled(self.python_cpu_scale),
            ..self.clone()
        }
    }

    /// The JVM heap in MB on a machine with `machine_mb` of memory available to the grader (`None` when
    /// unknown): the policy's `java_heap_mb` if set, else half the machine's memory (a JVM commits heap only
    /// as it uses it, and `grader batch --jobs 2` runs two), within [`JAVA_HEAP_FLOOR_MB`] and
    /// [`JAVA_HEAP_CEILING_MB`] (the floor only where the machine has it).
    pub fn java_heap_mb_on(&self, machine_mb: Option<u64>) -> u64 {
        if self.java_heap_mb > 0 {
            return self.java_heap_mb;
        }
        let Some(machine) = machine_mb else { return JAVA_HEAP_FLOOR_MB * 2 };
        (machine / 2).clamp(JAVA_HEAP_FLOOR_MB.min(machine * 3 / 4), JAVA_HEAP_CEILING_MB)
    }
}

/// Pass/fail thresholds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    /// The factor of the official ratio for operation counts: a count's printed ratio is count ÷ (factor ×
    /// the reference's), and the cell fails once that ratio, printed with one decimal, exceeds 1.0
    /// (official: 1.75, so a count fails from about 1.84 × the reference's).
    pub count_ratio: f64,
    /// Memory Board: how fast a Board's bytes may grow with n, `[a, b]`: the least-squares line a'·n² + b'·n + c'
    /// through the table's rows at even n (printed as the Student line) passes when a' ≤ a and b' ≤ b, each
    /// as printed (two decimals); the constant c' is free. The ten rows share this verdict
    /// (`runner::checks::board_memory`). Replaces `board_memory = [a, b, c]`, a bound judged row by row.
    pub board_memory_growth: [f64; 2],
    /// The factor of the official ratio for Solver and MinPQ memory cells (official: 1.75), judged as
    /// `count_ratio` is.
    pub memory_ratio: f64,
    /// Compare toString() byte for byte instead of token by token.
    pub strict_to_string: bool,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { count_ratio: 1.75, board_memory_growth: [4.0, 32.0], memory_ratio: 1.75, strict_to_string: false }
    }
}

/// Which tests run and who sees them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Tests {
    /// Test ids (or id prefixes ending in `*`) not run at all.
    pub skip: Vec<String>,
    /// Test ids (or prefixes ending in `*`) hidden from students in Gradescope until after the deadline.
    pub hidden: Vec<String>,
    /// Multiplies the number of random trials (1.0 = the catalog's counts).
    pub trials_scale: f64,
}

impl Default for Tests {
    fn default() -> Self {
        Tests { skip: vec![], hidden: vec![], trials_scale: 1.0 }
    }
}

/// A whole grading policy.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Policy {
    /// `[weights]`: points per category.
    pub weights: Weights,
    /// `[limits]`: CPU, memory and output limits for the submission's processes.
    pub limits: Limits,
    /// Pass/fail thresholds.
    pub thresholds: Thresholds,
    /// `[tests]`: which tests run, how many trials, which are hidden from students.
    pub tests: Tests,
    /// How Rust submissions are built.
    pub rust: RustBuild,
    /// How Java submissions are built.
    pub java: JavaBuild,
}

/// How the grader builds a Java submission (see `build::java`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct JavaBuild {
    /// Whether a submission whose files declare a package is graded anyway: the `package` line is removed
    /// before compiling and the report says so. Off (as the official grader): such a submission does not
    /// compile, and the report says which line to delete.
    pub grade_package_declarations: bool,
}

/// How the grader builds a Rust submission (see `build::cargo`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RustBuild {
    /// Whether a submission may declare crates.io dependencies beyond `npuzzle` (they must then be vendored
    /// or in the grader's registry cache: the build is offline). Off: such a submission does not compile.
    pub allow_dependencies: bool,
    /// Whether the submission's own code may use `unsafe` (and `#[no_mangle]`, `#[link_section]`, …). Off:
    /// the grader builds it with `unsafe_code` forbidden, so the grader's counters in the same process are
    /// out of its reach.
    pub allow_unsafe: bool,
}

/// A policy file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    /// The file could not be read.
    #[error("failed to read policy file `{path}`: {source}")]
    #[allow(missing_docs)]
    Read { path: String, source: std::io::Error },
    /// The file is not a valid policy.
    #[error("invalid policy file `{path}`: {message}")]
    Invalid {
        #[allow(missing_docs)]
        path: String,
        /// What is wrong, with the line and column where TOML gives them.
        message: String,
    },
}

/// The largest time budget a policy may set, in seconds: a day.
const MOST_SECONDS: f64 = 86_400.0;
/// The largest multiplier of budgets (`python_cpu_scale`) or trials (`trials_scale`) a policy may set.
const MOST_SCALE: f64 = 100.0;

/// A TOML error in one line that still points at the place: `line 3, column 1 (`foo = 1`): unknown field
/// `foo`, expected ...` (toml's own text draws a caret under the line, which one line cannot hold).
fn toml_error_line(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end().replace('\n', " ");
    let Some(span) = error.span() else { return message };
    let before = &text[..span.start.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let shown: String = text.lines().nth(line - 1).unwrap_or("").trim().chars().filter(|c| !c.is_control()).collect();
    match shown.is_empty() {
        true => format!("line {line}, column {column}: {message}"),
        false => format!("line {line}, column {column} (`{shown}`): {message}"),
    }
}

impl Policy {
    /// Reads a policy file; missing fields take the official defaults.
    pub fn load(path: &Path) -> Result<Policy, PolicyError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| PolicyError::Read { path: path.display().to_string(), source })?;
        Policy::parse(&text).map_err(|message| PolicyError::Invalid { path: path.display().to_string(), message })
    }

    /// Parses policy text and checks its values.
    pub fn parse(text: &str) -> Result<Policy, String> {
        let policy: Policy =
            toml::from_str(text).map_err(|e| replaced_field(text).unwrap_or_else(|| toml_error_line(text, &e)))?;
        policy.validate()?;
        Ok(policy)
    }

    fn validate(&self) -> Result<(), String> {
        let w = &self.weights;
        for (name, value) in [
            ("compile", w.compile),
            ("api", w.api),
            ("correctness", w.correctness),
            ("memory", w.memory),
            ("timing", w.timing),
            ("beyond", w.beyond),
        ] {
            if !(value >= 0.0 && value.is_finite()) {
                return Err(format!("weights.{name} must be a non-negative number, got {value}"));
            }
        }
        if [w.compile, w.api, w.correctness, w.memory, w.timing, w.beyond].iter().all(|&value| value == 0.0) {
            return Err("every weight in [weights] is 0, so every submission would score 0 out of 0: give at least \
                        one category points (the default is compile 5, api 5, correctness 60, memory 10, timing 20)"
                .into());
        }
        let [growth_a, growth_b] = self.thresholds.board_memory_growth;
        let positive = [
            ("thresholds.board_memory_growth[0]", growth_a),
            ("thresholds.board_memory_growth[1]", growth_b),
            ("thresholds.count_ratio", self.thresholds.count_ratio),
            ("thresholds.memory_ratio", self.thresholds.memory_ratio),
        ];
        let seconds = [
            ("limits.solve_cpu_seconds", self.limits.solve_cpu_seconds),
            ("limits.request_cpu_seconds", self.limits.request_cpu_seconds),
            ("limits.startup_cpu_seconds", self.limits.startup_cpu_seconds),
            ("limits.build_seconds", self.limits.build_seconds),
            ("limits.build_cpu_seconds", self.limits.build_cpu_seconds),
        ];
        // Bounded above too: a time past the largest a clock holds, or a trial count past the memory a plan
        // can hold, stopped the grader with a panic or an abort rather than a message.
        let bounded = positive.into_iter().map(|(name, value)| (name, value, f64::MAX, ""));
        let bounded = bounded
            .chain(seconds.into_iter().chain(self.limits.section_cpu_seconds.fields()).map(|(name, value)| {
                (name, value, MOST_SECONDS, " (a day: a budget stops a runaway, and none needs longer)")
            }))
            .chain([
                ("limits.python_cpu_scale", self.limits.python_cpu_scale, MOST_SCALE, ""),
                ("tests.trials_scale", self.tests.trials_scale, MOST_SCALE, " (a hundred times the official trials)"),
            ]);
        for (name, value, most, why) in bounded {
            if !(value > 0.0 && value.is_finite()) {
                return Err(format!("{name} must be a positive number, got {value}"));
            }
            if value > most {
                // a huge number in its exponent form (Rust writes 1e300 with all its digits)
                let value = if value >= 1e15 { format!("{value:e}") } else { value.to_string() };
                return Err(format!("{name} must be at most {most}{why}, got {value}"));
            }
        }
        if self.limits.memory_mb < 16 {
            return Err(format!("limits.memory_mb must be at least 16, got {}", self.limits.memory_mb));
        }
        for (name, value, least) in [
            ("limits.processes", self.limits.processes, 8),
            ("limits.build_processes", self.limits.build_processes, 8),
            ("limits.build_memory_mb", self.limits.build_memory_mb, 64),
            ("limits.build_disk_mb", self.limits.build_disk_mb, 64),
            ("limits.runtime_margin_mb", self.limits.runtime_margin_mb, 64),
            ("limits.scratch_mb", self.limits.scratch_mb, 1),
            ("limits.reply_buffer_mb", self.limits.reply_buffer_mb, 16),
        ] {
            if value < least {
                return Err(format!("{name} must be at least {least}, got {value}"));
            }
        }
        if self.limits.java_heap_mb != 0 && self.limits.java_heap_mb < 64 {
            return Err(format!(
                "limits.java_heap_mb must be 0 (sized from the machine) or at least 64, got {}",
                self.limits.java_heap_mb
            ));
        }
        Ok(())
    }

    /// The default policy as commented TOML (`grader policy --print-default`).
    pub fn default_toml() -> String {
        let body = toml::to_string_pretty(&Policy::default()).unwrap_or_default();
        format!(
            "# Grading policy. Every field is optional; missing fields take these defaults, which mirror the\n\
             # official grader. Field by field documentation: specs/policy.md.\n\n{body}"
        )
    }

    /// Whether a test id matches one of `patterns`: an exact id, a base id (`timing-2` matches
    /// `timing-2/puzzle36`), or a glob where `*` stands for any text (`timing-*/puzzle4x4-4*`).
    pub fn matches(patterns: &[String], id: &str) -> bool {
        patterns.iter().any(|p| glob(p, id) || id.split('/').next() == Some(p.as_str()))
    }
}

/// What to write instead of a field an earlier version of the policy had and this one replaced (serde would
/// only call it unknown): `None` when the policy text sets none (or is not TOML at all: the parser's own
/// error says why).
fn replaced_field(text: &str) -> Option<String> {
    let table: toml::Table = text.parse().ok()?;
    if let Some(seconds) = table.get("limits").and_then(|limits| limits.get("grade_cpu_seconds")) {
        return Some(format!(
            "limits.grade_cpu_seconds (here {seconds}) was one CPU budget for the whole grade; each section now has \
             its own, so a runaway in one never takes another's tests: write `[limits.section_cpu_seconds]` with \
             `correctness`, `memory_and_timing` and `beyond` (defaults 300, 600 and 300 s; see specs/policy.md)"
        ));
    }
    board_memory_replaced(&table, text)
}

/// What to write instead of `thresholds.board_memory`, the bound this program judged Board memory rows by
/// until official reports showed a Board above it passing.
fn board_memory_replaced(table: &toml::Table, text: &str) -> Option<String> {
    let old = table.get("thresholds")?.get("board_memory")?;
    let line = text
        .lines()
        .position(|l| {
            let key = l.trim_start().trim_start_matches("thresholds.");
            key.strip_prefix("board_memory").is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|k| format!(" (line {})", k + 1))
        .unwrap_or_default();
    let number = |k: usize| old.get(k).and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)));
    let (a, b) = match (number(0), number(1)) {
        (Some(a), Some(b)) => (a, b),
        _ => (4.0, 32.0),
    };
    Some(format!(
        "thresholds.board_memory{line} is no longer read: it bounded each Board memory row by a*n^2 + b*n + c, \
         and official reports pass a Board at the reference + 24 bytes, above the default bound [4, 32, 64] at \
         every n. The rows now share one verdict on the Board's growth: the fitted line's n^2 and n coefficients \
         (two decimals, as printed) at most a and b, the constant free (specs/policy.md). Write \
         `board_memory_growth = [{a}, {b}]` under [thresholds] instead, or delete the line for the official \
         [4, 32]"
    ))
}

/// Matches `text` against `pattern`, where `*` matches any run of characters.
fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(tail) = text.strip_prefix(head) else { return false };
            (0..=tail.len()).filter(|&i| tail.is_char_boundary(i)).any(|i| glob(rest, &tail[i..]))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_text_parses_back_to_the_default() {
        let policy = Policy::parse(&Policy::default_toml()).unwrap();
        assert_eq!(policy, Policy::parse("").unwrap());
        assert_eq!(policy.weights.correctness, 60.0);
        assert_eq!(policy.thresholds.count_ratio, 1.75);
    }

    #[test]
    fn invalid_policies_get_precise_errors() {
        let typo = Policy::parse("[weights]\ncorectness = 50\n").unwrap_err();
        assert!(typo.starts_with("line 2, column 1 (`corectness = 50`): unknown field `corectness`"), "{typo}");
        let negative = Policy::parse("[weights]\ntiming = -1\n").unwrap_err();
        assert_eq!(negative, "weights.timing must be a non-negative number, got -1");
        let nothing = "[weights]\ncompile = 0\napi = 0\ncorrectness = 0\nmemory = 0\ntiming = 0\n";
        assert!(Policy::parse(nothing).unwrap_err().starts_with("every weight in [weights] is 0"));
        let zero = Policy::parse("[thresholds]\ncount_ratio = 0\n").unwrap_err();
        assert_eq!(zero, "thresholds.count_ratio must be a positive number, got 0");
        let kind = Policy::parse("[limits]\nmemory_mb = \"lots\"\n").unwrap_err();
        assert!(kind.contains("invalid type"), "{kind}");
    }

    /// Values a clock or a plan cannot hold are refused with a message: they were a panic ("overflow when
    /// multiplying duration by scalar", "cannot convert float seconds to Duration") or an allocation abort.
    #[rstest::rstest]
    #[case("[limits]\nsolve_cpu_seconds = 1e19\n", "limits.solve_cpu_seconds must be at most 86400 (a day")]
    #[case("[limits]\nbuild_seconds = 1e300\n", "limits.build_seconds must be at most 86400")]
    #[case(
        "[limits.section_cpu_seconds]\ncorrectness = 1e300\n",
        "limits.section_cpu_seconds.correctness must be at most 86400"
    )]
    #[case("[limits]\npython_cpu_scale = 1e300\n", "limits.python_cpu_scale must be at most 100, got 1e300")]
    #[case("[tests]\ntrials_scale = 1e9\n", "tests.trials_scale must be at most 100 (a hundred times")]
    fn values_past_what_a_grade_can_hold_are_refused(#[case] text: &str, #[case] expected: &str) {
        let refused = Policy::parse(text).unwrap_err();
        assert!(refused.starts_with(expected), "{refused}");
        let day = text.replace("1e19", "86400").replace("1e300", "86400").replace("1e9", "100");
        let day = day.replace("python_cpu_scale = 86400", "python_cpu_scale = 100");
        assert!(Policy::parse(&day).is_ok(), "{day}");
    }

    #[test]
    fn the_old_board_memory_bound_is_refused_with_what_to_write_instead() {
        let old = Policy::parse("[weights]\nmemory = 10\n\n[thresholds]\nboard_memory = [4, 32, 64]\n").unwrap_err();
        assert!(old.starts_with("thresholds.board_memory (line 5) is no longer read"), "{old}");
        assert!(old.contains("reference + 24 bytes") && old.contains("`board_memory_growth = [4, 32]`"), "{old}");
        let custom = Policy::parse("thresholds.board_memory = [3.5, 30, 100]\n").unwrap_err();
        assert!(custom.contains("(line 1)") && custom.contains("`board_memory_growth = [3.5, 30]`"), "{custom}");
        let growth = Policy::parse("[thresholds]\nboard_memory_growth = [2, 24.5]\n").unwrap();
        assert_eq!(growth.thresholds.board_memory_growth, [2.0, 24.5]);
        let zero = Policy::parse("[thresholds]\nboard_memory_growth = [0, 32]\n").unwrap_err();
        assert_eq!(zero, "thresholds.board_memory_growth[0] must be a positive number, got 0");
        let short = Policy::parse("[thresholds]\nboard_memory_growth = [4]\n").unwrap_err();
        assert!(short.contains("board_memory_growth"), "{short}");
    }

    #[test]
    fn the_java_heap_is_sized_from_the_machine_unless_the_policy_sets_it() {
        let auto = Limits::default();
        assert_eq!(auto.java_heap_mb, 0);
        // half the machine, within the floor and the ceiling
        assert_eq!(auto.java_heap_mb_on(Some(24_000)), 8192);
        assert_eq!(auto.java_heap_mb_on(Some(6_000)), 3000);
        assert_eq!(auto.java_heap_mb_on(Some(1_600)), 1024);
        // a small machine keeps a quarter for everything else
        assert_eq!(auto.java_heap_mb_on(Some(1_000)), 750);
        assert_eq!(auto.java_heap_mb_on(None), 2048);
        let fixed = Policy::parse("[limits]\njava_heap_mb = 300\n").unwrap().limits;
        assert_eq!(fixed.java_heap_mb_on(Some(24_000)), 300);
        let tiny = Policy::parse("[limits]\njava_heap_mb = 10\n").unwrap_err();
        assert!(tiny.contains("java_heap_mb must be 0"), "{tiny}");
    }

    #[test]
    fn the_budgets_of_a_submission_are_checked() {
        let small = Policy::parse("[limits]\nreply_buffer_mb = 8\n").unwrap_err();
        assert_eq!(small, "limits.reply_buffer_mb must be at least 16, got 8");
        let none = Policy::parse("[limits.section_cpu_seconds]\nbeyond = 0\n").unwrap_err();
        assert_eq!(none, "limits.section_cpu_seconds.beyond must be a positive number, got 0");
        let sections = Policy::parse("[limits.section_cpu_seconds]\ncorrectness = 50\n").unwrap().limits;
        assert_eq!(sections.section_cpu_seconds.correctness, 50.0);
        assert_eq!(sections.section_cpu_seconds.memory_and_timing, SectionCpu::default().memory_and_timing);
        let unknown = Policy::parse("[limits.section_cpu_seconds]\ntiming = 50\n").unwrap_err();
        assert!(unknown.contains("unknown field `timing`"), "{unknown}");
        let scratch = Policy::parse("[limits]\nscratch_mb = 0\n").unwrap_err();
        assert_eq!(scratch, "limits.scratch_mb must be at least 1, got 0");
    }

    /// A course's policy of an earlier version says what to write now, not only that a field is unknown.
    #[test]
    fn the_one_budget_of_a_whole_grade_is_refused_with_what_replaced_it() {
        let old = Policy::parse("[limits]\ngrade_cpu_seconds = 300.0\n").unwrap_err();
        assert!(old.starts_with("limits.grade_cpu_seconds (here 300.0) was one CPU budget"), "{old}");
        assert!(old.contains("[limits.section_cpu_seconds]"), "{old}");
    }

    #[test]
    fn python_cpu_limits_are_scaled_by_the_policy() {
        let python = Limits::default().scaled_for_python();
        assert_eq!((python.solve_cpu_seconds, python.request_cpu_seconds), (50.0, 20.0));
        assert_eq!(python.section_cpu_seconds, Limits::default().section_cpu_seconds.scaled(10.0));
        assert_eq!(python.startup_cpu_seconds, Limits::default().startup_cpu_seconds);
        let custom = Policy::parse("[limits]\nsolve_cpu_seconds = 2.0\npython_cpu_scale = 3\n").unwrap().limits;
        assert_eq!(custom.scaled_for_python().solve_cpu_seconds, 6.0);
        let zero = Policy::parse("[limits]\npython_cpu_scale = 0\n").unwrap_err();
        assert_eq!(zero, "limits.python_cpu_scale must be a positive number, got 0");
    }

    #[test]
    fn patterns_match_ids_prefixes_and_per_puzzle_tests() {
        let patterns = vec!["board-1a".to_string(), "timing-*".to_string(), "memory-solver-1".to_string()];
        assert!(Policy::matches(&patterns, "board-1a"));
        assert!(!Policy::matches(&patterns, "board-1b"));
        assert!(Policy::matches(&patterns, "timing-3/puzzle4x4-40"));
        assert!(Policy::matches(&patterns, "memory-solver-1/puzzle10"));
        let globs = vec!["timing-*/puzzle4x4-4*".to_string()];
        assert!(Policy::matches(&globs, "timing-3/puzzle4x4-41"));
        assert!(!Policy::matches(&globs, "timing-3/puzzle4x4-38"));
        assert!(!Policy::matches(&globs, "solver-2a"));
    }
}
