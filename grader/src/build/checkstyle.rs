//! Checkstyle over a Java submission's `Board.java` and `Solver.java`, as a sandboxed build step: the
//! `checkstyle` launcher on `PATH` (Debian's package: `make checkstyle`) sees the system's directories, a
//! staging directory holding copies of the two files and the configuration, and nothing else of the
//! grader's (a configuration is XML that Checkstyle parses; a submission's files are data to it).
//!
//! Its output is cached in the work directory by the hash of the launcher, the configuration and the
//! sources, as the Java build is: the same files are checked once.

use std::fs;
use std::path::{Path, PathBuf};

use corpus::rng::StableHash;

use super::step::{run_step, step, BuildError, BuildLimits};
use crate::results::Finding;
use crate::runner::sandbox::is_executable;

/// The grader's Checkstyle configuration: the checks the official reports cite, with messages written for
/// students (a course passes its own with `--checkstyle-config`).
pub const GRADER_CONFIG: &str = include_str!("../style/checkstyle.xml");

/// What a Checkstyle run gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// No `checkstyle` on `PATH`.
    NotInstalled,
    /// It ran: its findings, and why it stopped early if it did (a file it could not parse, a bad
    /// configuration), in its words.
    Ran {
        #[allow(missing_docs)]
        findings: Vec<Finding>,
        #[allow(missing_docs)]
        failure: Option<String>,
    },
}

/// Runs Checkstyle with `config` over `sources` (file name, bytes) in `work`, under `limits`.
///
/// # Errors
/// Only when the work directory cannot be written or the step cannot start ([`BuildError::Tool`]).
pub fn check(
    sources: &[(&str, Vec<u8>)],
    config: &[u8],
    work: &Path,
    limits: &BuildLimits,
) -> Result<Checked, BuildError> {
    let Some(launcher) = find_launcher() else { return Ok(Checked::NotInstalled) };
    let tool = |source| BuildError::Tool { tool: "checkstyle".into(), source };
    let mut key = StableHash::default();
    key.write_chunk(launcher.as_os_str().as_encoded_bytes());
    key.write_chunk(config);
    for (name, bytes) in sources {
        key.write_chunk(name.as_bytes());
        key.write_chunk(bytes);
    }
    let cached = work.join(format!("checkstyle-{:016x}.txt", key.finish()));
    if let Ok(text) = fs::read_to_string(&cached) {
        return Ok(parse(&text));
    }
    fs::create_dir_all(work).map_err(tool)?;
    let staging = tempfile::Builder::new().prefix("checkstyle-").tempdir_in(work).map_err(tool)?;
    let config_path = staging.path().join("checkstyle.xml");
    fs::write(&config_path, config).map_err(tool)?;
    let mut names = Vec::new();
    for (name, bytes) in sources {
        fs::write(staging.path().join(name), bytes).map_err(tool)?;
        names.push(*name);
    }
    let mut spec = step(&launcher, limits)
        .args(["-c".as_ref(), config_path.as_os_str(), "-f".as_ref(), "plain".as_ref()])
        .args(&names)
        // JVM options for Debian's launcher (java-wrappers): a run of a second or so on two files, where C2's
        // compiling and the parallel collector's threads cost more than they save (0.85 s of CPU to 0.53 s)
        .env("JAVA_ARGS", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xshare:auto")
        .writable(staging.path());
    spec.cwd = Some(staging.path().to_owned());
    let output = run_step(&spec, limits, "checkstyle")?;
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    if !output.success() {
        text.push_str(&failure_line(&output.combined(), output.timed_out));
    }
    let checked = parse(&text);
    if output.success() || matches!(&checked, Checked::Ran { failure: Some(_), .. }) && !output.timed_out {
        let _ = crate::output::write_atomically(&cached, &text);
    }
    Ok(checked)
}

/// `checkstyle` on `PATH` (`GRADER_CHECKSTYLE` names another launcher).
fn find_launcher() -> Option<PathBuf> {
    if let Some(named) = std::env::var_os("GRADER_CHECKSTYLE") {
        return Some(PathBuf::from(named)).filter(|p| is_executable(p));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|dir| dir.join("checkstyle")).find(|p| is_executable(p))
}

/// Marks the line that says why a run failed, so [`parse`] can find it in cached output.
const FAILED: &str = "grader: checkstyle failed: ";

/// The line recorded for a failed run: Checkstyle's own reason (the exception's message about the file it
/// could not process), or how it ended.
fn failure_line(output: &str, timed_out: bool) -> String {
    if timed_out {
        return format!("{FAILED}it did not finish in time\n");
    }
    let reason = output
        .lines()
        .find(|l| l.contains("Exception was thrown while processing") || l.contains("CheckstyleException"))
        .or_else(|| output.lines().rev().find(|l| !l.trim().is_empty()))
        .unwrap_or("it failed without a message");
    let reason = reason.rsplit(": ").next().unwrap_or(reason).trim();
    let file = reason.rsplit('/').next().unwrap_or(reason);
    format!(
        "{FAILED}{}\n",
        if reason.contains("processing") { format!("it could not read {file}") } else { file.to_string() }
    )
}

/// Findings from Checkstyle's plain output (`[WARN] /path/Board.java:12:5: message [Check]`), each file named
/// by its name alone.
pub fn parse(text: &str) -> Checked {
    let mut findings = Vec::new();
    let mut failure = None;
    for line in text.lines() {
        if let Some(reason) = line.strip_prefix(FAILED) {
            failure = Some(reason.to_string());
        } else if let Some(finding) = finding(line) {
            findings.push(finding);
        }
    }
    Checked::Ran { findings, failure }
}

fn finding(line: &str) -> Option<Finding> {
    let (error, rest) = if let Some(rest) = line.strip_prefix("[ERROR] ") {
        (true, rest)
    } else {
        (false, line.strip_prefix("[WARN] ")?)
    };
    let at = rest.find(".java:")? + ".java".len();
    let file = rest[..at].rsplit('/').next()?.to_string();
    let (place, message) = rest[at + 1..].split_once(": ")?;
    let mut numbers = place.split(':').map(str::parse::<u32>);
    let line_number = numbers.next()?.ok()?;
    let column = numbers.next().and_then(Result::ok);
    let (message, check) = match message.rsplit_once(" [") {
        Some((message, check)) if check.ends_with(']') => (message, check.trim_end_matches(']')),
        _ => (message, ""),
    };
    Some(Finding { error, file, line: line_number, column, message: message.to_string(), check: check.to_string() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_output_becomes_findings_named_by_file() {
        let text =
            "Starting audit...\n[WARN] /tmp/x/Board.java:25:9: 'if' is not followed by whitespace. [WhitespaceAfter]\n\
                    [ERROR] /tmp/x/Solver.java:3: Unused import - java.util.List. [UnusedImports]\nAudit done.\n";
        let Checked::Ran { findings, failure } = parse(text) else { panic!() };
        assert_eq!(failure, None);
        let lines: Vec<String> = findings.iter().map(Finding::line_text).collect();
        assert_eq!(
            lines,
            [
                "[WARN] Board.java:25:9: 'if' is not followed by whitespace. [WhitespaceAfter]",
                "[ERROR] Solver.java:3: Unused import - java.util.List. [UnusedImports]"
            ]
        );
    }

    #[test]
    fn a_file_checkstyle_cannot_read_is_named() {
        let output = "com.puppycrawl.tools.checkstyle.api.CheckstyleException: Exception was thrown while processing /tmp/checkstyle-1/Board.java\n\tat x\n";
        let line = failure_line(output, false);
        assert_eq!(line, format!("{FAILED}it could not read Board.java\n"));
        assert_eq!(
            parse(&line),
            Checked::Ran { findings: vec![], failure: Some("it could not read Board.java".into()) }
        );
    }

    #[test]
    fn the_grader_configuration_runs_in_the_sandbox() {
        if find_launcher().is_none() {
            eprintln!("skipped: checkstyle is not installed (`make checkstyle`)");
            return;
        }
        let board = b"public class Board {\n    private int[] Tiles;\n    public int dimension() { if(Tiles == null) return 0; return 3; }\n}\n".to_vec();
        let work = tempfile::tempdir().unwrap();
        let config = GRADER_CONFIG.as_bytes();
        let checked = check(&[("Board.java", board)], config, work.path(), &BuildLimits::default()).unwrap();
        let Checked::Ran { findings, failure } = checked else { panic!("{checked:?}") };
        assert_eq!(failure, None);
        let checks: Vec<&str> = findings.iter().map(|f| f.check.as_str()).collect();
        assert!(checks.contains(&"MemberName") && checks.contains(&"WhitespaceAfter"), "{findings:?}");
        assert!(findings.iter().all(|f| f.file == "Board.java" && !f.error), "{findings:?}");
    }
}
