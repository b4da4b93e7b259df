//! The HTML report of a failing gallery submission, snapshot and loaded in a real browser: headless Chromium
//! (`make browser` installs it) runs the page's script, must write nothing to its console, must show the
//! failing test with its board, and must fit a phone's width with every chart label whole; screenshots are
//! kept as CI artifacts (`target/artifacts/html-report.png`, `html-report-phone.png`). Failures of one count
//! are one card.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::support::{gallery_entry, grader, quick_policy, root};

/// How long one Chromium run may take before it is killed (it takes about a second).
const CHROMIUM_TIMEOUT: Duration = Duration::from_secs(60);

/// The report of a Rust Board whose manhattan() aims at the wrong goal row: board-2a fails on its own,
/// board-15 (manhattan() of a k-th neighbor) because of it, and the timing rows pass (a chart). Graded once
/// for every test here: the page, and the text report of the same run.
fn report() -> &'static (PathBuf, String, String) {
    static REPORT: OnceLock<(PathBuf, String, String)> = OnceLock::new();
    REPORT.get_or_init(|| {
        let dir = root().join("target/e2e-html");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("manhattan-wrong-goal-row.html");
        let text_path = dir.join("manhattan-wrong-goal-row.txt");
        let (submission, _copy) = gallery_entry("rust/manhattan-wrong-goal-row");
        let status = grader()
            .arg("grade")
            .arg(&submission)
            .args(["--quiet", "--policy", quick_policy().to_str().unwrap()])
            .args(["--only", "board-2a", "--only", "board-15", "--only", "timing-2/*"])
            .arg(format!("--format=html={}", path.display()))
            .arg(format!("--format=text={}", text_path.display()))
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(1), "the submission fails");
        let (html, text) = (std::fs::read_to_string(&path).unwrap(), std::fs::read_to_string(&text_path).unwrap());
        (path, html, text)
    })
}

/// The page carries every fact of the text report of the same run (`facts.rs`), and the text every
/// problem, note and cause of the page.
#[test]
fn html_report_carries_every_fact_of_the_text_report() {
    let (_, html, text) = report();
    assert_eq!(crate::facts::missing_from_html(text, html), Vec::<String>::new(), "the page lacks them:\n{text}");
    assert_eq!(crate::facts::missing_from_text(html, text), Vec::<String>::new());
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

    let (path, _, _) = report();
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

/// At a phone's width (420 px) nothing runs off the page, and at any width every chart label is whole.
#[test]
fn html_report_fits_a_phone_and_keeps_every_chart_label_whole() {
    let chromium = chromium();
    let (path, html, _) = report();
    for layout in lay_out(&chromium, path, html, &[420, 1100]) {
        let width = &layout.width;
        assert_eq!(&layout.laid_out, width, "the page was laid out {width} px wide");
        assert_eq!(layout.overflow, "", "at {width} px, parts run off the page");
        assert_eq!(layout.clipped, "", "at {width} px, chart labels are cut by their chart");
        assert_ne!(layout.labels, "0", "the chart has labels to measure");
    }
    let shot = root().join("target/artifacts/html-report-phone.png");
    std::fs::create_dir_all(shot.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&shot);
    let phone = path.with_file_name("phone.html");
    std::fs::write(&phone, framed(frame(420, html))).unwrap();
    let run = run_chromium(
        &chromium,
        &url(&phone, ""),
        &[&format!("--screenshot={}", shot.display()), "--window-size=500,1800"],
    );
    assert!(std::fs::read(&shot).unwrap_or_default().starts_with(b"\x89PNG"), "{}", run.stderr);
}

/// How a page laid out in a frame of one width: the frame's width, the width the page was laid out at, what
/// ran off it (`page N` when the page is wider than its frame; a header, section, article or table past the
/// right edge, as `TAG.class right`), the chart labels cut by their chart, and how many axis labels there are.
pub struct Layout {
    pub width: String,
    pub laid_out: String,
    pub overflow: String,
    pub clipped: String,
    pub labels: String,
}

/// Lays the page `html` (found at `path`, beside which the measuring page is written) out in frames of each
/// of `widths` px inside one page (a browser window is never narrower than about 500 px), each frame's page
/// measuring itself as it finishes parsing and writing what it found into the outer page. The page's
/// Content-Security-Policy is left out of the copy measured, so that the measuring script may run.
pub fn lay_out(chromium: &Path, path: &Path, html: &str, widths: &[u32]) -> Vec<Layout> {
    let measure = r#"<script>
(function () {
  var width = document.documentElement.clientWidth, out = [], clipped = [];
  if (document.documentElement.scrollWidth > width) out.push('page ' + document.documentElement.scrollWidth);
  document.querySelectorAll('header, section, article, table').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5) out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
  });
  document.querySelectorAll('svg').forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    svg.querySelectorAll('text').forEach(function (t) {
      var r = t.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
        clipped.push(t.textContent);
    });
  });
  var labels = document.querySelectorAll('svg text.axis').length;
  parent.document.body.insertAdjacentHTML('beforeend', '<p class="measured" data-frame="' +
    window.frameElement.dataset.width + '" data-laid-out="' + (window.innerWidth) + '" data-labels="' + labels +
    '" data-overflow="' + out.join('; ') + '" data-clipped="' + clipped.join('; ') + '"></p>');
})();
</script></body>"#;
    let measured = html
        .replacen("<meta http-equiv=\"Content-Security-Policy\"", "<meta name=\"measured-without-csp\"", 1)
        .replacen("</body>", measure, 1);
    let measuring = path.with_file_name("measured.html");
    let frames: String = widths.iter().map(|&w| frame(w, &measured)).collect();
    std::fs::write(&measuring, framed(frames)).unwrap();
    let run = run_chromium(chromium, &url(&measuring, ""), &["--dump-dom", "--window-size=1200,2000"]);
    assert!(console_lines(&run.stderr).is_empty(), "{}", run.stderr);
    let _ = std::fs::remove_file(&measuring);
    let measured: Vec<&str> = run.stdout.split("<p class=\"measured\" ").skip(1).collect();
    assert_eq!(measured.len(), widths.len(), "every frame was measured:\n{}", run.stdout);
    measured
        .into_iter()
        .map(|line| {
            let attribute = |name: &str| {
                line.split(&format!("{name}=\"")).nth(1).and_then(|rest| rest.split('"').next()).unwrap().to_string()
            };
            Layout {
                width: attribute("data-frame"),
                laid_out: attribute("data-laid-out"),
                overflow: attribute("data-overflow"),
                clipped: attribute("data-clipped"),
                labels: attribute("data-labels"),
            }
        })
        .collect()
}

/// A frame of `width` px showing `page`.
fn frame(width: u32, page: &str) -> String {
    let srcdoc = page.replace('&', "&amp;").replace('"', "&quot;");
    format!(
        "<iframe data-width=\"{width}\" style=\"width:{width}px;height:1800px;border:0\" srcdoc=\"{srcdoc}\"></iframe>"
    )
}

/// A page of frames.
fn framed(body: String) -> String {
    format!("<!DOCTYPE html><html><body style=\"margin:0\">{body}</body></html>")
}

/// A Solver that calls manhattan() in compareTo fails Timing 4b on every puzzle for one reason: the page
/// shows one card for it, its rows inside (each still a link target), and the text report one fix-first line.
#[test]
fn failures_of_one_count_are_one_card_and_one_fix_first_line() {
    let (submission, _copy) = gallery_entry("rust/no-manhattan-cache");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let output = grader()
        .arg("grade")
        .arg(&submission)
        .args(["--quiet", "--policy", quick_policy().to_str().unwrap()])
        .args(["--only", "timing-4b/puzzle23", "--only", "timing-4b/puzzle30", "--only", "timing-4b/puzzle31"])
        .arg("--format")
        .arg(format!("html={}", page.display()))
        .args(["--format", "text"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8_lossy(&output.stdout);
    let line = text.lines().find(|l| l.starts_with("  * manhattan() is called ")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("× the allowed on 3/3 puzzles (Timing 4b): cache it"), "{line}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(crate::facts::missing_from_html(&text, &html), Vec::<String>::new(), "the page lacks them:\n{text}");
    assert_eq!(html.matches("<div class=\"cause\" id=\"cause-manhattan\">").count(), 1, "one card for the cause");
    for row in ["puzzle23", "puzzle30", "puzzle31"] {
        assert!(html.contains(&format!("<tr id=\"test-timing-4b-{row}\">")), "{row} is a row of the card");
        assert!(
            !html.contains(&format!("<article class=\"test failed\" id=\"test-timing-4b-{row}\"")),
            "and no card of its own"
        );
    }
    assert!(html.contains("href=\"#cause-manhattan\""), "fix-first links to it");
}

pub fn url(page: &Path, fragment: &str) -> String {
    format!("file://{}{fragment}", page.display())
}

/// Chromium's path, or a failure that says how to install it.
pub fn chromium() -> PathBuf {
    let found = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .chain([PathBuf::from("/usr/bin")])
        .map(|dir| dir.join("chromium"))
        .find(|path| path.is_file());
    found.unwrap_or_else(|| panic!("chromium is not installed: run `make browser` (it installs Debian's chromium)"))
}

pub struct Run {
    pub stdout: String,
    pub stderr: String,
}

/// Loads `page` (a URL) in headless Chromium with `extra` flags, killing it (its whole process group) if it takes
/// longer than [`CHROMIUM_TIMEOUT`]. Output goes to files: a killed browser's helpers cannot hold a pipe open.
pub fn run_chromium(chromium: &Path, page: &str, extra: &[&str]) -> Run {
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
pub fn console_lines(log: &str) -> Vec<&str> {
    log.lines().filter(|line| line.contains(":CONSOLE")).collect()
}
