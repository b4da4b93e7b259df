//! What the official report prints before its tests, as data: the files submitted with their sizes, the
//! compiler's transcript, and the style section's tools and findings (made by [`crate::style`]).

use serde::Serialize;

/// What the official report prints before the tests: the files submitted, the compiler's transcript, and
/// the style section (worth 0 points).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Details {
    /// The submission's files with their sizes, in path order (dates are left out: reports are
    /// deterministic).
    pub files: Vec<SubmittedFile>,
    /// Each compile command as the official report prints it (`% javac Board.java`), with its output.
    pub transcript: Vec<Transcript>,
    /// The style checks' findings (Java submissions only).
    pub style: Option<Style>,
}

/// A file of the submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubmittedFile {
    /// Its path in the submission (`Board.java`, `src/board.rs`).
    pub name: String,
    #[allow(missing_docs)]
    pub bytes: u64,
}

/// One command of the compile transcript and what it printed about the student's files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Transcript {
    /// `javac Board.java`, `cargo build --release`.
    pub command: String,
    /// Its diagnostics (empty when it compiled cleanly).
    pub output: String,
}

/// The style section: each tool as the official report runs it, in its order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Style {
    #[allow(missing_docs)]
    pub tools: Vec<StyleTool>,
}

/// One style tool's run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StyleTool {
    /// Its name in the summary (`SpotBugs`, `PMD`, `Checkstyle`); the custom checks share Checkstyle's.
    pub name: &'static str,
    /// Its command as the official report prints it (`checkstyle *.java`, `custom checkstyle checks for
    /// Board.java`).
    pub command: String,
    /// What it found.
    pub findings: Vec<Finding>,
    /// Why it did not run, said plainly (not installable here, not installed); `None` when it ran.
    pub not_run: Option<String>,
}

/// One finding of a style tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// An error rather than a warning.
    pub error: bool,
    /// The file, as submitted (`Solver.java`).
    pub file: String,
    #[allow(missing_docs)]
    pub line: u32,
    /// The column, when the tool gives one.
    pub column: Option<u32>,
    #[allow(missing_docs)]
    pub message: String,
    /// The check's name (`WhitespaceAround`, `Design`).
    pub check: String,
}

impl StyleTool {
    /// Its findings tallied as the official report ends a tool's section: `Checkstyle ends with 0 errors and
    /// 2 warnings.`; `None` when it found nothing.
    pub fn tally(&self) -> Option<String> {
        let errors = self.findings.iter().filter(|f| f.error).count();
        (!self.findings.is_empty()).then(|| {
            let warnings = self.findings.len() - errors;
            format!("{} ends with {} and {}.", self.name, plural(errors, "error"), plural(warnings, "warning"))
        })
    }
}

impl Finding {
    /// The line as Checkstyle prints it: `[WARN] Board.java:12:5: message [Check]`.
    pub fn line_text(&self) -> String {
        let column = self.column.map(|c| format!(":{c}")).unwrap_or_default();
        let level = if self.error { "ERROR" } else { "WARN" };
        format!("[{level}] {}:{}{column}: {} [{}]", self.file, self.line, self.message, self.check)
    }
}

impl Style {
    /// A tool's summary verdict: `PASSED`, `FAILED (0 errors, 2 warnings)` as the official summary prints
    /// them, or, when it did not run, `not run (why)`, never PASSED. Checkstyle's counts its custom checks'
    /// findings too; when Checkstyle itself did not run and they did, the verdict says both: `not run
    /// (Checkstyle is not installed …); custom checks PASSED`.
    pub fn verdict(&self, name: &str) -> Option<String> {
        let tools: Vec<&StyleTool> = self.tools.iter().filter(|t| t.name == name).collect();
        tools.first()?;
        let (ran, not_run): (Vec<&StyleTool>, Vec<&StyleTool>) = tools.iter().partition(|t| t.not_run.is_none());
        let findings: Vec<&Finding> = tools.iter().flat_map(|t| &t.findings).collect();
        let errors = findings.iter().filter(|f| f.error).count();
        let warnings = findings.len() - errors;
        let counted = match (errors, warnings) {
            (0, 0) => "PASSED".to_string(),
            _ => format!("FAILED ({}, {})", plural(errors, "error"), plural(warnings, "warning")),
        };
        let why: Vec<&str> = not_run.iter().filter_map(|t| t.not_run.as_deref()).collect();
        Some(match (why.is_empty(), ran.is_empty()) {
            (true, _) => counted,
            (false, true) => format!("not run ({})", why.join("; ")),
            (false, false) => format!("not run ({}); {} {counted}", why.join("; "), ran_label(&ran)),
        })
    }

    /// Every tool's verdict in one line: `SpotBugs: not run (…) · Checkstyle: PASSED`.
    pub fn verdicts(&self) -> String {
        let verdicts: Vec<String> =
            self.names().iter().map(|name| format!("{name}: {}", self.verdict(name).unwrap_or_default())).collect();
        verdicts.join(" · ")
    }

    /// The tools' names in summary order, once each.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = Vec::new();
        for tool in &self.tools {
            if !names.contains(&tool.name) {
                names.push(tool.name);
            }
        }
        names
    }
}

/// What ran of a tool whose main run did not: `custom checks` (Checkstyle's custom checks, each command
/// `custom checks for Board.java`), or the commands themselves.
fn ran_label(ran: &[&StyleTool]) -> String {
    if ran.iter().all(|t| t.command.starts_with("custom checks")) {
        "custom checks".into()
    } else {
        ran.iter().map(|t| t.command.as_str()).collect::<Vec<_>>().join(", ")
    }
}

/// `1 warning`, `0 errors`.
pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &'static str, command: &str, findings: usize, not_run: Option<&str>) -> StyleTool {
        let finding = Finding {
            error: false,
            file: "Solver.java".into(),
            line: 3,
            column: None,
            message: "m".into(),
            check: "Design".into(),
        };
        StyleTool { name, command: command.into(), findings: vec![finding; findings], not_run: not_run.map(Into::into) }
    }

    /// A tool that did not run is "not run (why)", never PASSED; what ran beside it is said after it.
    #[test]
    fn a_tool_that_did_not_run_is_never_passed() {
        let missing = "Checkstyle is not installed on this machine";
        let style = |custom_findings| Style {
            tools: vec![
                tool("PMD", "pmd .", 0, Some("PMD cannot run here")),
                tool("Checkstyle", "checkstyle *.java", 0, Some(missing)),
                tool("Checkstyle", "custom checks for Board.java", 0, None),
                tool("Checkstyle", "custom checks for Solver.java", custom_findings, None),
            ],
        };
        assert_eq!(style(0).verdict("PMD").unwrap(), "not run (PMD cannot run here)");
        assert_eq!(style(0).verdict("Checkstyle").unwrap(), format!("not run ({missing}); custom checks PASSED"));
        assert_eq!(
            style(2).verdict("Checkstyle").unwrap(),
            format!("not run ({missing}); custom checks FAILED (0 errors, 2 warnings)")
        );
        let ran = Style { tools: vec![tool("Checkstyle", "checkstyle *.java", 1, None)] };
        assert_eq!(ran.verdicts(), "Checkstyle: FAILED (0 errors, 1 warning)");
    }
}
