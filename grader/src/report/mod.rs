//! Renderers: each turns a [`Report`](crate::results::Report) into one format. They see results only —
//! never processes, fixtures or the catalog — and never run anything.

pub mod gradescope;
pub mod json;
pub mod junit;
pub mod markdown;
pub mod text;

/// A report format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
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
}

/// Renders a report in a format (`color` only affects text on a terminal).
pub fn render(report: &crate::results::Report, format: Format, color: bool) -> String {
    match format {
        Format::Text => text::render(report, color),
        Format::Json => json::render(report),
        Format::Gradescope => gradescope::render(report),
        Format::Junit => junit::render(report),
        Format::Markdown => markdown::render(report),
    }
}
