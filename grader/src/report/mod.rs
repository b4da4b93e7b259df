//! Renderers: each turns a [`Report`](crate::results::Report) into one format. They see results only —
//! never processes, fixtures or the catalog — and never run anything.

pub mod entries;
/// The facts a text report shows, and whether a page shows them (shared with the end-to-end tests).
#[cfg(test)]
#[path = "../../tests/it/facts.rs"]
mod facts;
pub mod gradescope;
pub mod html;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod summary;
pub mod text;
pub mod visible;
pub mod withheld;

/// A report format. The command line names them by [`Format::name`]; report files end in
/// [`Format::extension`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The official-style text report.
    Text,
    /// The versioned JSON schema of specs/reports.md.
    Json,
    /// Gradescope's results.json.
    Gradescope,
    /// JUnit XML for CI dashboards.
    Junit,
    /// A Markdown summary for CI job pages.
    Markdown,
    /// One self-contained page for a browser: boards drawn, failures first (specs/reports.md).
    Html,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 6] =
        [Format::Text, Format::Json, Format::Gradescope, Format::Junit, Format::Markdown, Format::Html];

    /// The name on the command line (`--format html`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Gradescope => "gradescope",
            Format::Junit => "junit",
            Format::Markdown => "markdown",
            Format::Html => "html",
        }
    }

    /// Every format's name, in the order of [`Format::ALL`], comma-separated: what `--help` and an unknown
    /// format's error list.
    pub fn names() -> String {
        Format::ALL.map(Format::name).join(", ")
    }

    /// The file extension of a report in this format, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Json | Format::Gradescope => "json",
            Format::Junit => "xml",
            Format::Markdown => "md",
            Format::Html => "html",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(name: &str) -> Result<Format, String> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| format!("unknown format `{name}` (one of: {})", Format::names()))
    }
}

/// Renders a report in a format (`color` only affects text on a terminal).
pub fn render(report: &crate::results::Report, format: Format, color: bool) -> String {
    match format {
        Format::Text => text::render(report, color, false),
        Format::Json => json::render(report),
        Format::Gradescope => gradescope::render(report),
        Format::Junit => junit::render(report),
        Format::Markdown => markdown::render(report),
        Format::Html => html::render(report),
    }
}

#[cfg(test)]
mod tests {
    //! Every format over one hand-built report (no timings to redact): a snapshot per format.

    use super::facts;
    use super::*;
    use crate::evidence::{Count, Evidence, Grid, Panel};
    use crate::results::{Category, CategoryScore, Report, Score, Status, Submission, TestResult, Timings};

    fn test(id: &str, category: Category, status: Status, score: f64, max: f64, message: &str) -> TestResult {
        TestResult {
            official: match category {
                Category::Timing => Some("Timing 2".into()),
                _ => id.strip_prefix("board-").map(|n| format!("Board {n}")),
            },
            row: id.split_once('/').map(|(_, row)| row.to_string()),
            columns: (category == Category::Timing).then(|| "filename   moves  n  insert()  delMin()".into()),
            title: format!("the check called {id}"),
            score,
            max_score: max,
            inputs: vec!["puzzle04.txt".into()],
            rows: if category == Category::Timing {
                vec![format!("{}.txt  20  3  2626  1559", id.split_once('/').map_or(id, |(_, row)| row))]
            } else {
                vec![]
            },
            message: message.into(),
            hidden: id == "board-5a",
            cpu_ms: Some(3),
            ..TestResult::bare(id, category, status)
        }
    }

    fn report() -> Report {
        let tests = vec![
            test("compile-1", Category::Compile, Status::Passed, 5.0, 5.0, ""),
            test("board-4a", Category::Board, Status::Passed, 20.0, 20.0, ""),
            test(
                "board-5a",
                Category::Board,
                Status::Failed,
                0.0,
                20.0,
                "failed on trial 1 of 6: puzzle04.txt\nneighbors() returned 3 boards; expected 4 <&> \"quoted\"",
            ),
            test("board-10a", Category::Board, Status::NotApplicable, 0.0, 0.0, "not applicable: Rust has no null"),
            test(
                "solver-2a",
                Category::Solver,
                Status::Skipped,
                0.0,
                20.0,
                "skipped: it depends on board-5a, which did not pass",
            ),
            test("timing-2/puzzle20", Category::Timing, Status::Passed, 10.0, 10.0, ""),
            test(
                "timing-2/puzzle36",
                Category::Timing,
                Status::Error,
                0.0,
                10.0,
                "the fixture directory lacks puzzle36.txt",
            ),
        ];
        let mut tests = tests;
        tests[2].evidence = Some(Evidence::Boards(vec![
            Panel { title: "board".into(), grid: Grid { n: 2, tiles: vec![1, 2, 3, 0] } },
            Panel { title: "a neighbor that was not returned".into(), grid: Grid { n: 2, tiles: vec![1, 2, 0, 3] } },
        ]));
        tests[5].evidence = Some(Evidence::Counts(vec![Count {
            what: "insert()".into(),
            value: 2626,
            reference: 2000,
            factor: 1.75,
            fails: false,
            ratio: "0.8x".into(),
        }]));
        let category = |category, passed, failed, skipped, not_applicable, points, weight| CategoryScore {
            category,
            passed,
            failed,
            skipped,
            not_applicable,
            points,
            weight,
        };
        Report {
            submission: Submission { name: "student-42".into(), language: "rust".into() },
            seed: 7,
            score: Score {
                total: 35.0,
                max: 85.0,
                categories: vec![
                    category(Category::Compile, 1, 0, 0, 0, 5.0, 5.0),
                    category(Category::Board, 1, 1, 0, 1, 20.0, 40.0),
                    category(Category::Solver, 0, 0, 1, 0, 0.0, 20.0),
                    category(Category::Timing, 1, 1, 0, 0, 10.0, 20.0),
                ],
            },
            tests,
            output: "debug: expanding node 1\n".into(),
            output_truncated: false,
            compile_log: None,
            notes: vec![],
            fix_first: vec![],
            missing_fixtures: vec!["puzzle36.txt".into()],
            skipped_fixtures: vec![crate::results::SkippedFixture {
                file: "puzzle99.txt".into(),
                problem: "line 4: expected 9 tiles after the size, found 8".into(),
            }],
            machine_stalls: vec![],
            timings: Timings { wall_ms: 12_345, submission_cpu_ms: 2_000, build_ms: 100, ..Timings::default() },
            count_causes: vec![crate::results::CountCause {
                what: "manhattan()".into(),
                tables: vec!["Timing 4b".into()],
                tests: vec!["timing-2/puzzle36".into(), "timing-2/puzzle20".into()],
                puzzles_failing: 2,
                puzzles_judged: 2,
                lowest: 5.4,
                highest: 9.25,
                hint: "cache it".into(),
            }],
            details: crate::results::Details {
                files: vec![
                    crate::results::SubmittedFile { name: "Board.java".into(), bytes: 6100 },
                    crate::results::SubmittedFile { name: "Solver.java".into(), bytes: 812 },
                ],
                transcript: vec![
                    crate::results::Transcript { command: "javac Board.java".into(), output: String::new() },
                    crate::results::Transcript {
                        command: "javac Solver.java".into(),
                        output: "Solver.java:3: warning: <unchecked>".into(),
                    },
                ],
                style: Some(crate::results::Style {
                    tools: vec![
                        crate::results::StyleTool {
                            name: "PMD",
                            command: "pmd .".into(),
                            findings: vec![],
                            not_run: Some("PMD cannot run here".into()),
                        },
                        crate::results::StyleTool {
                            name: "Checkstyle",
                            command: "custom checks for Solver.java".into(),
                            findings: vec![crate::results::Finding {
                                error: false,
                                file: "Solver.java".into(),
                                line: 51,
                                column: Some(19),
                                message: "'pq' (a MinPQ) is an instance variable <&>".into(),
                                check: "Design".into(),
                            }],
                            not_run: None,
                        },
                    ],
                }),
            },
            withheld: 0,
            partial: None,
            not_graded: None,
        }
    }

    #[test]
    fn text() {
        insta::assert_snapshot!(render(&report(), Format::Text, false));
    }

    #[test]
    fn text_with_color_marks_verdicts() {
        let colored = render(&report(), Format::Text, true);
        assert!(colored.contains("\x1b[31mFAILED\x1b[0m") && colored.contains("\x1b[32mpassed\x1b[0m"));
    }

    #[test]
    fn json() {
        insta::assert_snapshot!(render(&report(), Format::Json, false));
    }

    #[test]
    fn gradescope() {
        insta::assert_snapshot!(render(&report(), Format::Gradescope, false));
    }

    #[test]
    fn junit() {
        insta::assert_snapshot!(render(&report(), Format::Junit, false));
    }

    #[test]
    fn markdown() {
        insta::assert_snapshot!(render(&report(), Format::Markdown, false));
    }

    #[test]
    fn html() {
        insta::assert_snapshot!(render(&report(), Format::Html, false));
    }

    /// A submission's output and messages are its own text: in the page they are text, never markup.
    #[test]
    fn html_escapes_what_the_submission_wrote() {
        let mut report = report();
        report.submission.name = "<img src=x onerror=alert(1)>".into();
        report.tests[2].message = "neighbors() threw <script>alert('x')</script>".into();
        report.tests[2].rows = vec!["</pre><script>alert(2)</script>".into()];
        report.output = "<script>alert(3)</script>".into();
        let page = render(&report, Format::Html, false);
        assert_eq!(page.matches("<script").count(), 1, "only the page's own script");
        assert!(!page.contains("<img"));
        assert!(page.contains("threw &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
    }

    /// What the machine stalled twice is the grader's problem, named at the top of every human format and
    /// listed in the JSON; without one, the JSON has no such field (reports keep their bytes).
    #[test]
    fn every_format_names_what_the_machine_stalled_at_its_top() {
        assert!(!render(&report(), Format::Json, false).contains("machine_stalls"));
        let mut report = report();
        report.machine_stalls = vec!["board-1a".into()];
        for format in [Format::Text, Format::Markdown, Format::Html, Format::Gradescope] {
            let shown = render(&report, format, false);
            let at = shown.find("stalled the submission twice in a row during board-1a");
            let first_test = shown.find("board-4a").unwrap_or(shown.len());
            assert!(at.is_some_and(|at| at < first_test), "{format}: {shown}");
        }
        assert!(render(&report, Format::Json, false).contains("\"machine_stalls\": [\n    \"board-1a\"\n  ]"));
    }

    /// What was handed in that is not a submission is "not graded" in every format, with the reason at the
    /// top and never a score: JSON's score is null; Gradescope, which needs one, scores 0 with the reason as
    /// its output's first line.
    #[test]
    fn a_report_not_graded_says_why_at_its_top_and_shows_no_score() {
        let files = vec![crate::results::SubmittedFile { name: "solver.java".into(), bytes: 812 }];
        let reason = "found solver.java: rename it to Solver.java";
        let report = Report::not_a_submission("ada", 7, reason, files);
        for format in Format::ALL {
            let shown = render(&report, format, false);
            let written = if format == Format::Markdown { visible::markdown_inline(reason) } else { reason.into() };
            let said = shown.find(&*written).unwrap_or_else(|| panic!("{format}: {shown}"));
            assert!(shown[..said].to_lowercase().replace('_', " ").contains("not graded"), "{format}: {shown}");
            assert!(!shown.contains("0.00 /") && !shown.contains("(0%)") && !shown.contains("Aggregate score: 0"));
        }
        let json: serde_json::Value = serde_json::from_str(&render(&report, Format::Json, false)).unwrap();
        assert!(json["score"].is_null() && json["max_score"].is_null(), "{json}");
        assert_eq!(json["not_graded"]["because"], "not_a_submission");
        let gradescope: serde_json::Value = serde_json::from_str(&render(&report, Format::Gradescope, false)).unwrap();
        assert_eq!(gradescope["score"], 0.0);
        assert!(gradescope["output"].as_str().unwrap().starts_with(&format!("Not graded: {reason}\n")));
        assert!(render(&report, Format::Text, false).contains("   812 solver.java"), "the files handed in");
    }

    /// The page carries every fact of the text report (the rule of `grader/tests/it/facts.rs`, which the
    /// end-to-end tests apply to real runs), here on a report with every kind of line: notes, grader
    /// problems, style findings, a count cause, skipped and hidden tests, the program's output.
    #[test]
    fn the_page_carries_every_fact_of_the_text_report() {
        let mut noted = report();
        noted.notes = vec!["Board.java:1 declares `package puzzle;`: the grader removed that line".into()];
        noted.machine_stalls = vec!["board-4a".into()];
        let not_graded = Report::not_a_submission("ada", 7, "nothing was handed in", vec![]);
        for report in [noted.clone(), noted.without_hidden(), not_graded] {
            let (text, html) = (render(&report, Format::Text, false), render(&report, Format::Html, false));
            assert_eq!(facts::missing_from_html(&text, &html), Vec::<String>::new(), "{text}");
            assert_eq!(facts::missing_from_text(&html, &text), Vec::<String>::new(), "{html}");
        }
    }

    /// A name, a message, a row and the program's output that hold terminal escapes reach no reader raw.
    #[test]
    fn control_characters_of_the_submission_are_shown_as_codes() {
        let mut report = report();
        report.submission.name = "ada\x1b]0;owned\x07".into();
        report.tests[2].message = "threw \x1b[2Jcleared\rover".into();
        report.tests[5].rows = vec!["puzzle20.txt \x1b[31m".into()];
        report.output = "debug \x1b[H\n".into();
        for format in [Format::Text, Format::Markdown, Format::Gradescope] {
            let shown = render(&report, format, false);
            assert!(
                !shown.contains('\x1b') && !shown.contains("\\u001b") && !shown.contains('\r'),
                "{format}: {shown}"
            );
        }
        assert!(render(&report, Format::Text, false).contains("Submission:  ada\\u{1b}]0;owned\\u{7} (rust)"));
        assert!(render(&report, Format::Gradescope, false).contains("threw \\\\u{1b}[2Jcleared\\\\u{d}over"));
    }

    #[test]
    fn formats_parse_by_name() {
        for format in Format::ALL {
            assert_eq!(format.to_string().parse::<Format>(), Ok(format));
        }
        assert!("pdf".parse::<Format>().unwrap_err().contains("one of: text, json"));
    }
}
