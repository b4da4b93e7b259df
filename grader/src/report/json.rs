//! The JSON report: a stable, versioned schema documented field by field in `specs/reports.md`.
//!
//! The wire types here are apart from the results model on purpose: the model may change shape, the schema
//! only changes with its version. Timings are left out, so the same submission and seed give byte-identical
//! JSON.

use serde::Serialize;

use crate::results::{Partial, Report, SkippedFixture, Status};

/// The schema version; bump on any incompatible change.
pub const SCHEMA_VERSION: u32 = 4;

#[derive(Serialize)]
struct JsonReport<'a> {
    schema_version: u32,
    grader_version: &'static str,
    submission: JsonSubmission<'a>,
    seed: u64,
    /// `null` when the run is not graded.
    score: Option<f64>,
    /// `null` when the run is not graded.
    max_score: Option<f64>,
    /// Only when the run is not graded, so graded reports keep their bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    not_graded: Option<&'a crate::results::NotGraded>,
    /// Only in a run `--only` narrowed, so whole reports keep their bytes.
    #[serde(skip_serializing_if = "Option::is_none")]
    partial: Option<&'a Partial>,
    categories: Vec<JsonCategory>,
    tests: Vec<JsonTest<'a>>,
    compile_log: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
    fix_first: &'a [crate::results::RootCause],
    fix_first_counts: &'a [crate::results::CountCause],
    details: &'a crate::results::Details,
    /// Each style tool's summary verdict (Java reports only): `PASSED`, `FAILED (…)` or `not run (why)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    style_verdicts: Vec<JsonVerdict>,
    withheld_tests: usize,
    missing_fixtures: &'a [String],
    skipped_fixtures: &'a [SkippedFixture],
    /// Only when there were any (a grader problem), so reports without one keep their bytes.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    machine_stalls: &'a [String],
    output: &'a str,
    output_truncated: bool,
}

#[derive(Serialize)]
struct JsonSubmission<'a> {
    name: &'a str,
    language: &'a str,
}

#[derive(Serialize)]
struct JsonVerdict {
    tool: &'static str,
    verdict: String,
}

#[derive(Serialize)]
struct JsonCategory {
    name: &'static str,
    passed: usize,
    failed: usize,
    skipped: usize,
    not_applicable: usize,
    points: f64,
    weight: f64,
}

#[derive(Serialize)]
struct JsonTest<'a> {
    id: &'a str,
    official: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    row: Option<&'a str>,
    category: &'static str,
    title: &'a str,
    status: Status,
    score: f64,
    max_score: f64,
    inputs: &'a [String],
    rows: &'a [String],
    message: &'a str,
}

/// Renders the JSON report (pretty-printed, with a final newline).
pub fn render(report: &Report) -> String {
    let json = JsonReport {
        schema_version: SCHEMA_VERSION,
        grader_version: env!("CARGO_PKG_VERSION"),
        submission: JsonSubmission { name: &report.submission.name, language: &report.submission.language },
        seed: report.seed,
        score: report.not_graded.is_none().then_some(report.score.total),
        max_score: report.not_graded.is_none().then_some(report.score.max),
        not_graded: report.not_graded.as_ref(),
        partial: report.partial.as_ref(),
        categories: report
            .score
            .categories
            .iter()
            .map(|c| JsonCategory {
                name: c.category.name(),
                passed: c.passed,
                failed: c.failed,
                skipped: c.skipped,
                not_applicable: c.not_applicable,
                points: c.points,
                weight: c.weight,
            })
            .collect(),
        tests: report
            .tests
            .iter()
            .map(|t| JsonTest {
                id: &t.id,
                official: t.official.as_deref(),
                row: t.row.as_deref(),
                category: t.category.name(),
                title: &t.title,
                status: t.status,
                score: t.score,
                max_score: t.max_score,
                inputs: &t.inputs,
                rows: &t.rows,
                message: &t.message,
            })
            .collect(),
        compile_log: report.compile_log.as_deref(),
        notes: &report.notes,
        fix_first: &report.fix_first,
        fix_first_counts: &report.count_causes,
        details: &report.details,
        style_verdicts: report.details.style.as_ref().map_or(vec![], |style| {
            style
                .names()
                .into_iter()
                .map(|tool| JsonVerdict { tool, verdict: style.verdict(tool).unwrap_or_default() })
                .collect()
        }),
        withheld_tests: report.withheld,
        missing_fixtures: &report.missing_fixtures,
        skipped_fixtures: &report.skipped_fixtures,
        machine_stalls: &report.machine_stalls,
        output: &report.output,
        output_truncated: report.output_truncated,
    };
    let mut text = serde_json::to_string_pretty(&json).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}
