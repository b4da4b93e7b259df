//! The HTML report of a failing gallery submission, snapshot and loaded in a real browser: headless Chromium
//! (`make browser` installs it) runs the page's script, must write nothing to its console, and must show the
//! failing test with its board; a screenshot is kept as a CI artifact (`target/artifacts/html-report.png`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::support::{gallery_entry, quick_policy, root};

/// How long one Chromium run may take before it is killed (it takes about a second).
const CHROMIUM_TIMEOUT: Duration = Duration::from_secs(60);

/// The report of a Rust Board whose manhattan() aims at the wrong goal row: board-2a fails on its own,
/// board-15 (manhattan() of a k-th neighbor) because of it, and the timing rows pass (a chart). Graded once
/// for both tests.
fn report() -> &'static (PathBuf, String) {
    static REPORT: OnceLock<(PathBuf, String)> = OnceLock::new();
    REPORT.get_or_init(|| {
        let dir = root().join("target/e2e-html");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("manhattan-wrong-goal-row.html");
        let (submission, _copy) = gallery_entry("rust/manhattan-wrong-goal-row");
        let status = Command::new(env!("CARGO_BIN_EXE_grader"))
            .arg("grade")
            .arg(&submission)
            .args(["--quiet", "--policy", quick_policy().to_str().unwrap()])
            .args(["--only", "board-2a", "--only", "board-15", "--only", "timing-2/*", "--format", "html", "--output"])
            .arg(&path)
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "the submission fails");
        let html = std::fs::read_to_string(&path).unwrap();
        (path, html)
    })
}

#[test]
fn html_report_of_a_failing_submission() {
    let html = report().1.replace(&root().display().to_string(), "[ROOT]");
    insta::assert_snapshot!(html);
}

#[test]
fn html_report_loads_in_a_browser_without_console_messages() {
    let chromium = chromium();
    // The check itself works: a page that throws is caught.
    let broken = tempfile::tempdir().unwrap();
    let page = broken.path().join("broken.html");
    std::fs::write(&page, "<!DOCTYPE html><html><body><script>notDefined();</script></body></html>").unwrap();
    let run = run_chromium(&chromium, &url(&page, ""), &["--dump-dom"]);
    assert!(!console_lines(&run.stderr).is_empty(), "a page that throws shows in the log:\n{}", run.stderr);

    let (path, _) = report();
    let run = run_chromium(&chromium, &url(path, ""), &["--dump-dom"]);
    let console = console_lines(&run.stderr);
    assert!(console.is_empty(), "the page wrote to the console:\n{}", console.join("\n"));
    let dom = run.stdout;
    assert!(dom.contains("data-ready=\"yes\""), "the page's script ran:\n{dom}");
    assert!(dom.contains("id=\"test-board-2a\""), "the failing test has its card:\n{dom}");
    assert!(dom.contains("<strong>manhattan()</strong> is wrong"), "fix-first leads:\n{dom}");
    // board-2a's board (puzzle04), drawn as a grid: blank first, then 2 and 3.
    let card = dom.split("id=\"test-board-2a\"").nth(1).unwrap().split("</article>").next().unwrap();
    assert!(
        card.contains("<table class=\"grid\" data-n=\"3\"><tbody><tr><td class=\"blank\"></td><td>2</td><td>3</td>"),
        "{card}"
    );
    assert!(dom.contains("<svg") && dom.contains("class=\"threshold\""), "the timing chart:\n{dom}");
    // A link to a section opens its collapsed list.
    let run = run_chromium(&chromium, &url(path, "#cat-timing"), &["--dump-dom"]);
    assert!(console_lines(&run.stderr).is_empty(), "{}", run.stderr);
    assert!(run.stdout.contains("<details id=\"cat-timing\" open=\"\">"), "{}", run.stdout);
    // A fragment that is not even percent-encoding is ignored quietly.
    let run = run_chromium(&chromium, &url(path, "#%E0%A4%A"), &["--dump-dom"]);
    assert!(console_lines(&run.stderr).is_empty() && run.stdout.contains("data-ready"), "{}", run.stderr);

    let artifacts = root().join("target/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("html-report.png");
    let _ = std::fs::remove_file(&shot);
    let screenshot = format!("--screenshot={}", shot.display());
    let run = run_chromium(&chromium, &url(path, ""), &[&screenshot, "--window-size=1100,2250"]);
    assert!(console_lines(&run.stderr).is_empty(), "{}", run.stderr);
    let png = std::fs::read(&shot).unwrap_or_default();
    assert!(png.starts_with(b"\x89PNG"), "a screenshot at {}:\n{}", shot.display(), run.stderr);
}

fn url(page: &Path, fragment: &str) -> String {
    format!("file://{}{fragment}", page.display())
}

/// Chromium's path, or a failure that says how to install it.
fn chromium() -> PathBuf {
    let found = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("chromium"))
        .find(|path| path.is_file());
    found.unwrap_or_else(|| panic!("chromium is not installed: run `make browser` (it installs Debian's chromium)"))
}

struct Run {
    stdout: String,
    stderr: String,
}

/// Loads `page` (a URL) in headless Chromium with `extra` flags, killing it (its whole process group) if it takes
/// longer than [`CHROMIUM_TIMEOUT`]. Output goes to files: a killed browser's helpers cannot hold a pipe open.
fn run_chromium(chromium: &Path, page: &str, extra: &[&str]) -> Run {
    use std::os::unix::process::CommandExt;
    let scratch = tempfile::tempdir().unwrap();
    let (out, err) = (scratch.path().join("stdout"), scratch.path().join("stderr"));
    let profile = scratch.path().join("profile");
    let mut child = Command::new(chromium)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"])
        .args(["--disable-background-networking", "--disable-component-update", "--disable-sync"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(["--enable-logging=stderr", "--v=0"])
        .args(extra)
        .arg(page)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .process_group(0)
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > CHROMIUM_TIMEOUT {
            // SAFETY: kill(2) on the process group this test started.
            unsafe { libc::kill(-(child.id() as i32), libc::SIGKILL) };
            let _ = child.wait();
            panic!("chromium did not finish within {CHROMIUM_TIMEOUT:?}: {}", std::fs::read_to_string(&err).unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let run = Run { stdout: std::fs::read_to_string(&out).unwrap(), stderr: std::fs::read_to_string(&err).unwrap() };
    assert!(status.success(), "chromium ended with {status}:\n{}", run.stderr);
    run
}

/// The page's console messages in Chromium's log (`INFO:CONSOLE:1] "…", source: …`). The log does not tell
/// an error from a log line, so the page must write none at all.
fn console_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|line| line.contains(":CONSOLE")).collect()
}
