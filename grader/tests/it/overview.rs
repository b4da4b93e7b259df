//! The class overview (`index.html` beside the gradebooks) of the shared class ([`crate::shard::class`]),
//! loaded in headless Chromium like the student report: its script runs, it writes nothing to the console,
//! and it shows the score chart, the tests failed with who fails each (linked), who did not compile and who
//! could not be graded, each graded student linked to their report, and the pairs of the class's code
//! similarity; and at a phone's width (400 px) nothing runs off the page and the chart's labels are whole,
//! apart and legible. Screenshots are kept as CI artifacts (`target/artifacts/class-overview.png`,
//! `class-overview-phone.png`).

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
    // who fails it, each linked to their report
    let row = dom.split("<tr id=\"test-board-1a\">").nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(
        row.contains("<code>board-1a</code>") && row.contains("<details open=\"\"><summary>2 of 7</summary>"),
        "{row}"
    );
    for student in ["carol", "frank"] {
        assert!(row.contains(&format!("<a href=\"{student}.html\">{student}</a>")), "{student} fails board-1a: {row}");
    }
    assert_eq!(board_1a["who"].as_array().unwrap().len(), 2, "{overview}");

    let not_compiled = dom.split("id=\"not-compiled\"").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(not_compiled.contains("<a href=\"dave.html\">dave</a>"), "{not_compiled}");
    let not_graded = dom.split("id=\"not-graded\"").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(
        not_graded.contains("<strong>erin</strong>") && not_graded.contains("nothing was handed in"),
        "{not_graded}"
    );
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

/// At a phone's width (400 px) the overview is readable: nothing runs off the page (each table's rows are
/// blocks of their own there), and every label of the chart is inside it, apart from its neighbours and at
/// least 10 px tall. The page is laid out in a 400 px frame (a browser window is never that narrow) whose
/// script measures it, as the student report's phone test does.
#[test]
fn class_overview_is_readable_at_a_phones_width() {
    let (dir, run) = whole();
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap_or_else(|_| panic!("{}", run.stderr));
    let measure = r#"<script>
(function () {
  var width = document.documentElement.clientWidth, out = [], labels = [];
  if (document.documentElement.scrollWidth > width) out.push('page ' + document.documentElement.scrollWidth);
  document.querySelectorAll('header, section, table, tr, td, figure, svg').forEach(function (e) {
    var r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > width + 0.5) out.push(e.tagName + '.' + e.className + ' ' + Math.round(r.right));
  });
  var svg = document.querySelector('svg.distribution'), box = svg.getBoundingClientRect(), axis = [];
  svg.querySelectorAll('text').forEach(function (t) {
    var r = t.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5)
      labels.push('outside: ' + t.textContent);
    if (r.height < 10) labels.push('small: ' + t.textContent + ' ' + r.height.toFixed(1));
    if (t.getAttribute('class') === 'axis' && /^[0-9]+$/.test(t.textContent)) axis.push(r);
  });
  for (var i = 1; i < axis.length; i++) if (axis[i].left < axis[i - 1].right) labels.push('overlap at ' + i);
  parent.document.body.insertAdjacentHTML('beforeend', '<p class="measured" data-laid-out="' + window.innerWidth +
    '" data-axis="' + axis.length + '" data-overflow="' + out.join('; ') + '" data-labels="' + labels.join('; ') + '"></p>');
})();
</script></body>"#;
    let frame = |body: &str| {
        let srcdoc = body.replace('&', "&amp;").replace('"', "&quot;");
        format!("<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:400px;height:2400px;border:0\" srcdoc=\"{srcdoc}\"></iframe></body></html>")
    };
    let measuring = dir.join("overview-measured.html");
    std::fs::write(&measuring, frame(&page.replacen("</body>", measure, 1))).unwrap();
    let chromium = chromium();
    let loaded = run_chromium(&chromium, &url(&measuring, ""), &["--dump-dom", "--window-size=600,2400"]);
    assert!(console_lines(&loaded.stderr).is_empty(), "{}", loaded.stderr);
    let line = loaded.stdout.split("<p class=\"measured\" ").nth(1).unwrap_or_else(|| panic!("{}", loaded.stdout));
    let attribute = |name: &str| line.split(&format!("{name}=\"")).nth(1).and_then(|r| r.split('"').next()).unwrap();
    assert_eq!(attribute("data-laid-out"), "400", "the page was laid out 400 px wide");
    assert_eq!(attribute("data-overflow"), "", "at 400 px, parts run off the page");
    assert_eq!(attribute("data-labels"), "", "at 400 px, the chart's labels are cut, crowded or too small");
    assert_eq!(attribute("data-axis"), "11", "the axis is numbered 0 to 100");

    let shot = root().join("target/artifacts/class-overview-phone.png");
    std::fs::create_dir_all(shot.parent().unwrap()).unwrap();
    let _ = std::fs::remove_file(&shot);
    let phone = dir.join("overview-phone.html");
    std::fs::write(&phone, frame(&page)).unwrap();
    let loaded = run_chromium(
        &chromium,
        &url(&phone, ""),
        &[&format!("--screenshot={}", shot.display()), "--window-size=480,2400"],
    );
    assert!(std::fs::read(&shot).unwrap_or_default().starts_with(b"\x89PNG"), "{}", loaded.stderr);
}
