//! What the official report prints before its tests, for a submission: the files submitted with their
//! sizes, the compiler's transcript (`% javac Board.java` and what it said about that file), and for Java
//! the style section ("CHECKING STYLE AND COMMON BUG PATTERNS", worth 0 points):
//!
//! - SpotBugs and PMD cannot run here, and the report says so (Debian 12 packages neither; its FindBugs
//!   cannot read Java 17 class files);
//! - Checkstyle runs for real, as a sandboxed build step ([`crate::build::checkstyle`]), with the grader's
//!   configuration ([`checkstyle::GRADER_CONFIG`]: the checks the official reports cite) or a course's own
//!   (`--checkstyle-config`);
//! - our custom checks (`custom`) for Board.java and Solver.java: the design problems the official
//!   report's custom checks cite (a MinPQ field, a Solver calling hamming(), shared static state, …).
//!
//! Nothing here changes a score; a tool that cannot run is a line in the report, never an error.

mod custom;
pub mod lexer;

use std::path::{Path, PathBuf};

use crate::build::checkstyle::{self, Checked};
use crate::build::{BuildLimits, SubmissionKind};
use crate::results::{Details, Style, StyleTool, SubmittedFile, Transcript};

/// The most files the report lists.
const MAX_FILES: usize = 100;

/// How the style section is made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StyleOptions {
    /// A course's Checkstyle configuration instead of the grader's.
    pub checkstyle_config: Option<PathBuf>,
}

/// The grader's own problem with the style options.
#[derive(Debug, thiserror::Error)]
pub enum StyleError {
    /// The course's Checkstyle configuration cannot be read.
    #[error("failed to read the Checkstyle configuration `{}`: {source} (check --checkstyle-config)", path.display())]
    Config {
        #[allow(missing_docs)]
        path: PathBuf,
        #[allow(missing_docs)]
        source: std::io::Error,
    },
    /// The course's file is not a Checkstyle configuration.
    #[error(
        "`{}` is not a Checkstyle configuration: {why} (check --checkstyle-config; a configuration is XML whose \
         root is `<module name=\"Checker\">`)",
        path.display()
    )]
    NotAConfig {
        #[allow(missing_docs)]
        path: PathBuf,
        /// What is wrong with it.
        why: &'static str,
    },
}

impl StyleOptions {
    /// The configuration's bytes: the course's file, or the grader's own.
    ///
    /// # Errors
    /// [`StyleError::Config`] when the course's file cannot be read, [`StyleError::NotAConfig`] when it is
    /// not a Checkstyle configuration (checked here, before any student's code, so that an instructor's typo
    /// is said once and not in every report).
    pub fn config(&self) -> Result<Vec<u8>, StyleError> {
        match &self.checkstyle_config {
            Some(path) => {
                let bytes = std::fs::read(path).map_err(|source| StyleError::Config { path: path.clone(), source })?;
                let not = |why| StyleError::NotAConfig { path: path.clone(), why };
                let text = std::str::from_utf8(&bytes).map_err(|_| not("it is not UTF-8 text"))?;
                let squeezed: String = text.chars().filter(|c| !c.is_whitespace()).collect();
                if !squeezed.contains("<modulename=\"Checker\"") && !squeezed.contains("<modulename='Checker'") {
                    return Err(not("it has no `<module name=\"Checker\">`"));
                }
                Ok(bytes)
            }
            None => Ok(checkstyle::GRADER_CONFIG.as_bytes().to_vec()),
        }
    }
}

/// The files of the submission at `path` and, for Java, its style section (`config` is Checkstyle's
/// configuration, `work` where its step keeps its output). The transcript is added once the build is done
/// ([`transcript`]).
pub fn examine(path: &Path, kind: SubmissionKind, config: &[u8], work: &Path, limits: &BuildLimits) -> Details {
    let files = submitted_files(path, kind);
    let style = (kind == SubmissionKind::Java).then(|| java_style(path, config, work, limits));
    Details { files, transcript: vec![], style }
}

/// The files a submission consists of, with their sizes: an executable itself; the top-level files of a
/// Java or Python folder; `Cargo.toml` and everything under `src/` of a crate. Links are left out (the
/// grader reads none).
fn submitted_files(path: &Path, kind: SubmissionKind) -> Vec<SubmittedFile> {
    let regular = |p: &Path| std::fs::symlink_metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len());
    let mut files: Vec<SubmittedFile> = match kind {
        SubmissionKind::Executable => {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            regular(path).map(|bytes| SubmittedFile { name, bytes }).into_iter().collect()
        }
        SubmissionKind::Java | SubmissionKind::Python => walk(path, 1),
        SubmissionKind::Cargo => {
            let mut files = walk(path, 1);
            files.retain(|f| f.name == "Cargo.toml");
            files.extend(
                walk(&path.join("src"), 8).into_iter().map(|f| SubmittedFile { name: format!("src/{}", f.name), ..f }),
            );
            files
        }
    };
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files.truncate(MAX_FILES);
    files
}

/// The regular files under `dir` down to `depth` levels, hidden ones left out, named relative to `dir`.
fn walk(dir: &Path, depth: usize) -> Vec<SubmittedFile> {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(depth)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .take(MAX_FILES)
        .filter_map(|e| {
            let name = e.path().strip_prefix(dir).ok()?.to_string_lossy().into_owned();
            Some(SubmittedFile { name, bytes: e.metadata().ok()?.len() })
        })
        .collect()
}

/// The compiler's transcript as the official report prints it: a command per file for Java, with the
/// diagnostics about that file (javac's `N errors` tallies left out), one command for Rust and Python, none
/// for an executable. `log` is the compiler's output when the build failed.
pub fn transcript(kind: SubmissionKind, log: Option<&str>) -> Vec<Transcript> {
    let whole =
        |command: &str| vec![Transcript { command: command.into(), output: log.unwrap_or("").trim_end().into() }];
    match kind {
        SubmissionKind::Executable => vec![],
        SubmissionKind::Cargo => whole("cargo build --release"),
        SubmissionKind::Python => whole("python3 -m py_compile board.py solver.py"),
        SubmissionKind::Java => {
            let files = ["Board.java", "Solver.java"];
            let mut outputs = [String::new(), String::new()];
            let mut current = 0;
            for line in log.unwrap_or("").lines() {
                if let Some(i) = files.iter().position(|f| line.starts_with(f)) {
                    current = i;
                }
                let tally = line.split_once(' ').is_some_and(|(n, what)| {
                    n.parse::<u32>().is_ok() && matches!(what, "error" | "errors" | "warning" | "warnings")
                });
                if !tally {
                    outputs[current].push_str(line);
                    outputs[current].push('\n');
                }
            }
            files
                .iter()
                .zip(outputs)
                .map(|(file, output)| Transcript { command: format!("javac {file}"), output: output.trim_end().into() })
                .collect()
        }
    }
}

/// The style section of a Java folder: the tools in the official order.
fn java_style(path: &Path, config: &[u8], work: &Path, limits: &BuildLimits) -> Style {
    let sources: Vec<(&str, Vec<u8>)> = ["Board.java", "Solver.java"]
        .into_iter()
        .filter(|name| crate::build::step::link_refused(&path.join(name), name).is_none())
        .filter_map(|name| Some((name, std::fs::read(path.join(name)).ok()?)))
        .collect();
    let not_run = |name, command: &str, why: &str| StyleTool {
        name,
        command: command.into(),
        findings: vec![],
        not_run: Some(why.into()),
    };
    let mut tools = vec![
        not_run(
            "SpotBugs",
            "spotbugs *.class",
            "SpotBugs cannot run here: Debian 12 packages no SpotBugs, and its FindBugs cannot read Java 17 class files",
        ),
        not_run("PMD", "pmd .", "PMD cannot run here: Debian 12 packages no PMD"),
    ];
    let checked = checkstyle::check(&sources, config, work, limits);
    tools.push(match checked {
        Ok(Checked::Ran { findings, failure }) => StyleTool {
            name: "Checkstyle",
            command: "checkstyle *.java".into(),
            findings,
            not_run: failure.map(|why| format!("Checkstyle stopped: {why}")),
        },
        Ok(Checked::NotInstalled) => not_run(
            "Checkstyle",
            "checkstyle *.java",
            "Checkstyle is not installed on this machine: `make checkstyle` installs Debian's package",
        ),
        Err(e) => not_run("Checkstyle", "checkstyle *.java", &format!("Checkstyle could not run: {e}")),
    });
    for (name, bytes) in &sources {
        tools.push(StyleTool {
            name: "Checkstyle",
            command: format!("custom checks for {name}"),
            findings: custom::check(name, &String::from_utf8_lossy(bytes)),
            not_run: None,
        });
    }
    Style { tools }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn javac_output_goes_under_the_file_it_names() {
        let log = "Solver.java uses edu.princeton.cs.algs4.Foo, which this grader does not provide.\n\n\
                   Board.java:3: error: ';' expected\n    int x\n         ^\nSolver.java:9: error: cannot find symbol\n  symbol: Foo\n2 errors\n";
        let steps = transcript(SubmissionKind::Java, Some(log));
        let shown: Vec<(&str, &str)> = steps.iter().map(|t| (t.command.as_str(), t.output.as_str())).collect();
        assert_eq!(
            shown,
            [
                ("javac Board.java", "Board.java:3: error: ';' expected\n    int x\n         ^"),
                (
                    "javac Solver.java",
                    "Solver.java uses edu.princeton.cs.algs4.Foo, which this grader does not provide.\n\nSolver.java:9: error: cannot find symbol\n  symbol: Foo"
                ),
            ]
        );
        assert!(transcript(SubmissionKind::Java, None).iter().all(|t| t.output.is_empty()));
        assert!(transcript(SubmissionKind::Executable, Some("x")).is_empty());
    }

    #[test]
    fn a_crate_lists_its_manifest_and_sources_only() {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in
            [("Cargo.toml", "x"), ("src/main.rs", "yy"), ("src/a/b.rs", "zzz"), ("target/big", "0"), (".git/x", "0")]
        {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let files = submitted_files(dir.path(), SubmissionKind::Cargo);
        let shown: Vec<(&str, u64)> = files.iter().map(|f| (f.name.as_str(), f.bytes)).collect();
        assert_eq!(shown, [("Cargo.toml", 1), ("src/a/b.rs", 3), ("src/main.rs", 2)]);
    }
}
