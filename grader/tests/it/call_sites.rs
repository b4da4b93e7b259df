//! Call sites (`call_sites`, specs/protocol.md): a count that fails names the lines of the student's code its
//! operations come from, in Java as in Python, and only the student's lines (never the reference Board's, the
//! textbook classes' or the adapter's), in the JSON message, the text report and the HTML report alike.

use rstest::rstest;

use crate::support::{gallery_entry, grade, quick_policy, quick_python_policy};

/// `no-manhattan-cache` compares search nodes by calling manhattan() twice a comparison, so nearly all its
/// manhattan() calls come from that line; the rest come from the reference isGoal(), which calls manhattan()
/// and is sampled at the Solver's line that called isGoal().
#[rstest]
#[case::java("java", "Solver.java", "this.moves + this.board.manhattan()")]
#[case::python("python", "solver.py", "self.moves + self.board.manhattan()")]
fn a_failing_count_names_the_solvers_lines_its_calls_come_from(
    #[case] language: &str,
    #[case] file: &str,
    #[case] comparison: &str,
) {
    let (submission, _copy) = gallery_entry(&format!("{language}/no-manhattan-cache"));
    let source = std::fs::read_to_string(submission.join(file)).unwrap();
    let line = source.lines().position(|l| l.contains(comparison)).expect("the comparison's line") + 1;
    let policy = if language == "python" { quick_python_policy() } else { quick_policy() };
    let page = tempfile::tempdir().unwrap();
    let html = page.path().join("report.html");
    let args = ["--policy", policy.to_str().unwrap(), "--only", "timing-4b/puzzle23"];
    let graded = grade(&submission, &[&args[..], &["--format", &format!("html={}", html.display())]].concat());
    let test = graded.test("timing-4b/puzzle23");
    assert_eq!(test["status"], "failed", "{}", graded.text);
    let message = test["message"].as_str().unwrap();
    let sites = message
        .lines()
        .find_map(|l| l.strip_prefix("manhattan() calls come from: "))
        .unwrap_or_else(|| panic!("the message names where the calls come from: {message}"));
    let sites = sites.strip_suffix(" (one call in 128 sampled)").expect(sites);
    let shares: Vec<(u32, &str)> = sites
        .split(", ")
        .map(|s| {
            let (share, site) = s.split_once("% at ").expect(s);
            (share.parse().expect(s), site)
        })
        .collect();
    assert_eq!(shares[0].1, format!("{file}:{line}"), "{sites}");
    assert!(shares[0].0 >= 90, "{sites}");
    assert!(shares.iter().all(|(_, site)| site.starts_with(&format!("{file}:"))), "the Solver's lines alone: {sites}");
    assert!(graded.text.contains(&format!("manhattan() calls come from: {sites}")), "{}", graded.text);
    // and the page, which carries every fact of the text report
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains(&format!("manhattan() calls come from: {sites}")), "{html}");
    assert_eq!(crate::facts::missing_from_html(&graded.text, &html), Vec::<String>::new(), "{}", graded.text);
}
