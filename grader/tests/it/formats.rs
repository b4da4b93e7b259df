//! Every format is structurally valid on a real run: Gradescope's required fields and types, well-formed
//! JUnit XML, Markdown with the score; on gallery submissions, Gradescope's points add up exactly and every
//! format carries the compiler's output. Whatever the grader prints, a reader that leaves early (`| head`)
//! is no failure.

use std::path::Path;

use crate::support::{gallery_entry, grader, quick_policy, reference_submission};

fn render(format: &str) -> String {
    render_of(&reference_submission(), format, &["--only", "board-1a", "--only", "solver-2a"]).0
}

/// Grades `submission` into `format`; returns the rendering and the exit code.
fn render_of(submission: &Path, format: &str, extra: &[&str]) -> (String, i32) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let status = grader()
        .arg("grade")
        .arg(submission)
        .args(["--quiet", "--format", format, "--output"])
        .arg(&out)
        .args(extra)
        .status()
        .unwrap();
    assert!(matches!(status.code(), Some(0 | 1)), "grading {} as {format} ended with {status}", submission.display());
    (std::fs::read_to_string(out).unwrap(), status.code().unwrap())
}

fn cents(value: &serde_json::Value) -> i64 {
    (value.as_f64().unwrap() * 100.0).round() as i64
}

/// A failing Rust submission (its API test does not apply; Board 10a's null tests neither): one Gradescope
/// test per official test, their maxima adding up to exactly 100 and their scores to the top-level score.
#[test]
fn gradescope_points_add_up_exactly_on_a_failing_rust_submission() {
    let (submission, _copy) = gallery_entry("rust/hamming-counts-blank");
    let policy = quick_policy();
    let (text, code) = render_of(&submission, "gradescope", &["--policy", policy.to_str().unwrap()]);
    assert_eq!(code, 1);
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let tests = json["tests"].as_array().unwrap();
    let max: i64 = tests.iter().map(|t| cents(&t["max_score"])).sum();
    let score: i64 = tests.iter().map(|t| cents(&t["score"])).sum();
    assert_eq!(max, 10_000, "{text}");
    assert_eq!(score, cents(&json["score"]));
    assert!(score < 10_000 && score > 0);
    let numbers: Vec<&str> = tests.iter().map(|t| t["number"].as_str().unwrap()).collect();
    assert!(numbers.contains(&"api") && !numbers.contains(&"api-1"), "{numbers:?}");
    assert!(numbers.iter().all(|n| !n.contains('/')), "rows are grouped into their tables: {numbers:?}");
    assert!(numbers.contains(&"timing-2") && numbers.contains(&"memory-board"), "{numbers:?}");
}

/// A compile error's output reaches the student in every format.
#[rstest::rstest]
#[case::gradescope("gradescope")]
#[case::junit("junit")]
#[case::markdown("markdown")]
#[case::html("html")]
#[case::text("text")]
fn the_compilers_output_is_in_every_format(#[case] format: &str) {
    let (submission, _copy) = gallery_entry("java/compile-error");
    let dir = tempfile::tempdir().unwrap();
    let text_report = dir.path().join("report.txt");
    let (text, code) = render_of(&submission, format, &[&format!("--format=text={}", text_report.display())]);
    assert_eq!(code, 1);
    assert!(text.contains("Solver.java") && text.contains("error:"), "{format}:\n{text}");
    if format == "html" {
        let text_report = std::fs::read_to_string(text_report).unwrap();
        assert_eq!(crate::facts::missing_from_html(&text_report, &text), Vec::<String>::new(), "{text_report}");
    }
}

#[test]
fn gradescope_results_have_the_required_fields() {
    let json: serde_json::Value = serde_json::from_str(&render("gradescope")).unwrap();
    assert!(json["score"].is_number() && json["execution_time"].is_number() && json["output"].is_string());
    let tests = json["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    for t in tests {
        for field in ["score", "max_score"] {
            assert!(t[field].is_number(), "{field} in {t}");
        }
        for field in ["status", "name", "number", "output", "visibility"] {
            assert!(t[field].is_string(), "{field} in {t}");
        }
        assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
    }
}

#[test]
fn junit_is_well_formed_xml_with_one_suite_per_category() {
    let xml = render("junit");
    assert!(xml.starts_with("<?xml"));
    let suites = xml.matches("<testsuite ").count();
    assert_eq!(suites, 3, "compile, board, solver:\n{xml}");
    assert_eq!(xml.matches("<testsuite ").count(), xml.matches("</testsuite>").count());
    assert_eq!(xml.matches("<testcase ").count(), 3);
}

#[test]
fn markdown_shows_the_score() {
    let md = render("markdown");
    assert!(md.contains("**Partial score: 65.00 / 65.00 (100.0%)**"), "{md}");
    assert!(md.contains("| Correctness: Board | 1 | 0 | 0 | 0 | 30.00 / 30.00 |"), "{md}");
}

/// `--format FMT=PATH` writes each report beside its format; an `--output` that two rules would pair
/// differently is refused before anything runs, with the command written the new way.
#[test]
fn each_format_names_its_file_and_an_ambiguous_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (json, html) = (dir.path().join("r.json"), dir.path().join("r.html"));
    let graded = grader()
        .arg("grade")
        .arg(reference_submission())
        .args(["--quiet", "--only", "board-1a", "--format", "text"])
        .arg(format!("--format=json={}", json.display()))
        .arg("--format")
        .arg(format!("html={}", html.display()))
        .output()
        .unwrap();
    assert_eq!(graded.status.code(), Some(0), "{}", String::from_utf8_lossy(&graded.stderr));
    assert!(String::from_utf8_lossy(&graded.stdout).starts_with("ASSESSMENT SUMMARY"));
    assert!(std::fs::read_to_string(&json).unwrap().starts_with("{\n  \"schema_version\""));
    assert!(std::fs::read_to_string(&html).unwrap().starts_with("<!DOCTYPE html>"));

    let gs = dir.path().join("gs.json");
    let refused = grader()
        .arg("grade")
        .arg(reference_submission())
        .args(["--quiet", "--format", "text", "--format", "gradescope", "--output"])
        .arg(&gs)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("is ambiguous") && stderr.contains(&format!("--format gradescope={}", gs.display())),
        "{stderr}"
    );
    assert!(!gs.exists(), "nothing is written");
}

/// A course's Checkstyle configuration replaces the grader's; one that cannot be read stops the grader.
/// A report that could not be written where it is asked for is refused before anything is graded, with what
/// to do: inside the submission it grades (a report once replaced the student's `Board.java`), in a folder
/// that does not exist, at a folder, or a second report to standard output.
#[rstest::rstest]
#[case::inside_the_submission(&["--format", "json=SUB/Board.java"], "would be written inside the submission it grades")]
#[case::a_missing_folder(&["--format", "json=TMP/nowhere/r.json"], "folder `TMP/nowhere` does not exist: create it")]
#[case::a_folder(&["--format", "html=TMP"], "is a folder: name the html report's file")]
#[case::two_to_standard_output(&["--format", "json", "--format", "text"], "the json and text reports would all go to standard output")]
fn a_report_that_cannot_be_written_is_refused_before_grading(#[case] args: &[&str], #[case] says: &str) {
    let dir = tempfile::tempdir().unwrap();
    let submission = dir.path().join("sub");
    std::fs::create_dir(&submission).unwrap();
    std::fs::write(submission.join("Board.java"), "public class Board {}\n").unwrap();
    let fill = |text: &str| {
        text.replace("SUB", &submission.display().to_string()).replace("TMP", &dir.path().display().to_string())
    };
    let args: Vec<String> = args.iter().map(|a| fill(a)).collect();
    let refused = grader().arg("grade").arg(&submission).arg("--quiet").args(&args).output().unwrap();
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(&fill(says)), "{stderr}");
    assert_eq!(std::fs::read_to_string(submission.join("Board.java")).unwrap(), "public class Board {}\n");
    assert!(refused.stdout.is_empty(), "nothing graded");
}

#[test]
fn a_courses_checkstyle_configuration_is_used_and_a_missing_one_is_an_error() {
    let (submission, _copy) = gallery_entry("java/valid");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("course.xml");
    std::fs::write(
        &config,
        "<?xml version=\"1.0\"?>\n<!DOCTYPE module PUBLIC \"-//Checkstyle//DTD Checkstyle Configuration 1.3//EN\" \
         \"https://checkstyle.org/dtds/configuration_1_3.dtd\">\n<module name=\"Checker\"><property name=\"severity\" \
         value=\"warning\"/><module name=\"TreeWalker\"><module name=\"FinalParameters\"/></module></module>\n",
    )
    .unwrap();
    let grade = |config: &Path| {
        grader()
            .arg("grade")
            .arg(&submission)
            .args(["--quiet", "--only", "api-1", "--format", "text", "--checkstyle-config"])
            .arg(config)
            .output()
            .unwrap()
    };
    let graded = grade(&config);
    let text = String::from_utf8_lossy(&graded.stdout);
    assert_eq!(graded.status.code(), Some(0), "{text}{}", String::from_utf8_lossy(&graded.stderr));
    if text.contains("Checkstyle is not installed") {
        eprintln!("skipped the Checkstyle half: not installed (`make checkstyle`)");
    } else {
        let verdict = text.lines().find(|l| l.starts_with("Checkstyle:")).unwrap_or_default();
        assert!(text.contains("[FinalParameters]") && verdict.contains("FAILED (0 errors, "), "{text}");
    }
    assert!(text.contains("% spotbugs *.class") && text.contains("not run: SpotBugs cannot run here"), "{text}");
    let missing = grade(&dir.path().join("missing.xml"));
    assert_eq!(missing.status.code(), Some(2));
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("failed to read the Checkstyle configuration") && said.matches("(os error 2)").count() == 1);
    // a file that is no configuration stops the grade before it starts, once, not in the report
    let broken = dir.path().join("broken.xml");
    std::fs::write(&broken, "<bad").unwrap();
    let refused = grade(&broken);
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty(), "no report");
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("is not a Checkstyle configuration: it has no `<module name=\"Checker\">`"), "{said}");
}

/// A run `--only` narrows is no grade of the assignment: every format says so at its top and in its score
/// line (N of the M tests run), the JSON report in its `partial` field; the exit code is the tests' own.
#[test]
fn a_partial_run_says_so_at_the_top_of_every_format_and_in_its_score() {
    let dir = tempfile::tempdir().unwrap();
    let file = |format: &str| dir.path().join(format!("report.{format}"));
    let mut command = grader();
    command.arg("grade").arg(reference_submission()).args(["--quiet", "--only", "board-1*"]);
    for format in ["text", "json", "markdown", "html", "gradescope"] {
        command.arg("--format").arg(format!("{format}={}", file(format).display()));
    }
    assert_eq!(command.status().unwrap().code(), Some(0), "every test run passed");
    let read = |format: &str| std::fs::read_to_string(file(format)).unwrap();

    let json: serde_json::Value = serde_json::from_str(&read("json")).unwrap();
    let (run, total) =
        (json["partial"]["tests_run"].as_u64().unwrap(), json["partial"]["tests_total"].as_u64().unwrap());
    assert_eq!(json["partial"]["only"], serde_json::json!(["board-1*"]));
    assert!(run == json["tests"].as_array().unwrap().len() as u64 && run < total, "{run} of {total}");
    let headline = format!("PARTIAL RUN: only {run} of the {total} tests (--only 'board-1*') were run");

    let text = read("text");
    let top: String = text.lines().take(6).collect::<Vec<_>>().join("\n");
    assert!(top.contains(&headline), "{text}");
    assert!(text.contains(&format!("Partial score: 100.00% over {run} of the {total} tests")), "{text}");
    assert!(!text.contains("Aggregate score"), "{text}");
    let gradescope: serde_json::Value = serde_json::from_str(&read("gradescope")).unwrap();
    let output = gradescope["output"].as_str().unwrap();
    assert!(output.starts_with(&headline) && output.contains("\nPartial score: "), "{output}");
    assert!(read("markdown").contains("**Partial score: "), "{}", read("markdown"));
    let html = read("html");
    assert!(html.contains("PARTIAL RUN: only ") && html.contains("partial score: <strong>"), "{html}");
}

/// A style tool that did not run is "not run (why)" in every summary, never PASSED: here Checkstyle, made
/// missing (`GRADER_CHECKSTYLE` names no program), beside the custom checks that ran and found nothing.
#[test]
fn a_style_check_that_did_not_run_is_never_passed_in_any_summary() {
    let (submission, _copy) = gallery_entry("java/valid");
    let dir = tempfile::tempdir().unwrap();
    let file = |format: &str| dir.path().join(format!("report.{format}"));
    let mut command = grader();
    command.arg("grade").arg(&submission).args(["--quiet", "--only", "api-1", "--format", "text"]);
    for format in ["html", "json", "markdown", "gradescope"] {
        command.arg("--format").arg(format!("{format}={}", file(format).display()));
    }
    let graded = command.env("GRADER_CHECKSTYLE", dir.path().join("no-checkstyle")).output().unwrap();
    assert_eq!(graded.status.code(), Some(0), "{}", String::from_utf8_lossy(&graded.stderr));
    let verdict =
        "not run (Checkstyle is not installed on this machine: `make checkstyle` installs Debian's package); \
                   custom checks PASSED";
    let text = String::from_utf8_lossy(&graded.stdout).into_owned();
    let line = text.lines().find(|l| l.starts_with("Checkstyle:")).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(line.trim_start_matches("Checkstyle:").trim(), verdict, "{text}");
    let html = std::fs::read_to_string(file("html")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(file("json")).unwrap()).unwrap();
    let markdown = std::fs::read_to_string(file("markdown")).unwrap();
    let gradescope: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file("gradescope")).unwrap()).unwrap();
    let html_verdict = verdict.replace('\'', "&#39;");
    assert!(html.contains(&format!("Checkstyle: {html_verdict}</summary>")), "the HTML style card: {html}");
    let checkstyle = json["style_verdicts"].as_array().unwrap().iter().find(|v| v["tool"] == "Checkstyle").unwrap();
    assert_eq!(checkstyle["verdict"], verdict);
    assert!(markdown.contains(&format!("Checkstyle: {verdict}")), "{markdown}");
    assert!(gradescope["output"].as_str().unwrap().contains(&format!("Checkstyle: {verdict}")), "{gradescope}");
    assert_eq!(crate::facts::missing_from_html(&text, &html), Vec::<String>::new(), "the page lacks them:\n{text}");
    for shown in [text, html, json.to_string(), markdown, gradescope.to_string()] {
        assert!(!shown.contains("Checkstyle: PASSED") && !shown.contains("Checkstyle:                  PASSED"));
    }
}

/// What the grader prints to standard output (a report, the catalog, a test's explanation, a policy) meets a
/// reader that has already gone, as `grader catalog | head -3` does once `head` has its lines: the grader
/// stops writing and exits as it would have (it used to panic, "failed printing to stdout: Broken pipe",
/// exit 101).
#[test]
fn a_reader_that_leaves_early_is_no_failure() {
    let submission = reference_submission();
    let runs: [&[&str]; 4] = [
        &["catalog"],
        &["explain", "board-1a"],
        &["policy", "--print-default"],
        &["grade", submission.to_str().unwrap(), "--quiet", "--only", "board-1a"],
    ];
    for args in runs {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = grader().args(args).stdout(writer).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(0), "grader {args:?} into a closed pipe: {stderr}");
        assert!(!stderr.contains("panicked"), "grader {args:?} into a closed pipe: {stderr}");
    }
}
