//! The class overview (`index.html` beside the gradebooks) of the shared class ([`crate::shard::class`]),
//! loaded in headless Chromium like the student report: its script runs, it writes nothing to the console,
//! and it shows the score chart, the tests failed, who did not compile and who could not be graded, each
//! graded student linked to their report, and the pairs of the class's code similarity. A screenshot is kept as a CI artifact
//! (`target/artifacts/class-overview.png`).

use crate::html::{chromium, console_lines, run_chromium, url};
use crate::shard::{json, whole};
use crate::support::root;

#[test]
fn class_overview_loads_in_a_browser_with_the_classs_figures() {
    let (dir, run) = whole();
    let page = dir.join("index.html");
    assert!(page.is_file(), "{}", run.stderr);
    let chromium = chromium();
    let loaded = run_chromium(&chromium, &url(&page, ""), &["--dump-dom"]);
    let console = console_lines(&loaded.stderr);
    assert!(console.is_empty(), "the page wrote to the console:\n{}", console.join("\n"));
    let dom = loaded.stdout;
    assert!(dom.contains("data-ready=\"yes\""), "the page's script ran:\n{dom}");
    assert!(dom.contains("<svg class=\"distribution\""), "the score chart:\n{dom}");

    let overview = &json(dir)["overview"];
    assert_eq!((overview["students"].as_u64(), overview["graded"].as_u64()), (Some(8), Some(7)), "{overview}");
    let bars: u64 = overview["distribution"].as_array().unwrap().iter().map(|b| b["students"].as_u64().unwrap()).sum();
    assert_eq!(bars, 7, "every graded student is in one bar");
    assert_eq!(dom.matches("<rect class=\"bin\"").count(), 10);
    let tests = overview["tests"].as_array().unwrap();
    let board_1a = tests.iter().find(|t| t["id"] == "board-1a").unwrap_or_else(|| panic!("{overview}"));
    assert_eq!(board_1a["students"], 2, "carol's and frank's hamming() count the blank: {overview}");
    assert!(dom.contains("<code>board-1a</code>") && dom.contains("<td>2 of 7</td>"), "{dom}");

    let not_compiled = dom.split("id=\"not-compiled\"").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(not_compiled.contains("<a href=\"dave.html\">dave</a>"), "{not_compiled}");
    let not_graded = dom.split("id=\"not-graded\"").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(not_graded.contains("<strong>erin</strong>") && not_graded.contains("not a submission"), "{not_graded}");
    let similarity = dom.split("id=\"similarity\"").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(similarity.contains("<a href=\"similarity/bob+carol.html\">side by side</a>"), "{similarity}");
    assert!(similarity.contains("an executable: there is no source to compare"), "alice's program: {similarity}");
    for student in ["alice", "bob", "carol", "dave", "frank", "gus", "hal"] {
        assert!(dom.contains(&format!("<a href=\"{student}.html\">{student}</a>")), "{student} is linked");
        assert!(dir.join(format!("{student}.html")).is_file(), "{student}'s report is there");
    }

    let artifacts = root().join("target/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let shot = artifacts.join("class-overview.png");
    let _ = std::fs::remove_file(&shot);
    let screenshot = format!("--screenshot={}", shot.display());
    let loaded = run_chromium(&chromium, &url(&page, ""), &[&screenshot, "--window-size=1100,2400"]);
    assert!(console_lines(&loaded.stderr).is_empty(), "{}", loaded.stderr);
    let png = std::fs::read(&shot).unwrap_or_default();
    assert!(png.starts_with(b"\x89PNG"), "a screenshot at {}:\n{}", shot.display(), loaded.stderr);
}
