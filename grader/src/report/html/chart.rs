//! The timing chart: one inline SVG per count table (Timing 2, 4a, 4b), a group of bars per puzzle, each bar
//! the submission's count over the reference's, with the official threshold drawn across (a cell fails once
//! its count over 1.75 × the reference's, printed with one decimal, exceeds 1.0).

use std::fmt::Write;

use super::escape::escape;
use crate::evidence::{Count, Evidence};
use crate::results::TestResult;

const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 48.0;
const BOTTOM: f64 = 78.0;
const TOP: f64 = 16.0;
/// Fills of the counts of one puzzle, in column order (failing bars are drawn red whatever their column).
const FILLS: [&str; 3] = ["#4a78c2", "#8fb3e8", "#2d4f86"];

/// The chart of the rows of one table: `title` is the table's name; rows without counts are left out.
/// Nothing is drawn when no row has counts.
pub fn chart(out: &mut String, title: &str, rows: &[&TestResult]) {
    let bars: Vec<(&str, &[Count])> = rows
        .iter()
        .filter_map(|t| match &t.evidence {
            Some(Evidence::Counts(counts)) => Some((t.row.as_deref().unwrap_or(&t.id), counts.as_slice())),
            _ => None,
        })
        .collect();
    let Some((_, first)) = bars.first() else { return };
    let factor = first[0].factor;
    let ratio = |c: &Count| if c.reference == 0 { f64::INFINITY } else { c.value as f64 / c.reference as f64 };
    let highest = bars.iter().flat_map(|(_, cs)| cs.iter().map(ratio)).filter(|r| r.is_finite()).fold(0.0, f64::max);
    let top = (highest * 1.1).clamp(factor * 1.4, factor * 4.0);
    let plot_w = WIDTH - LEFT - 8.0;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let y = |r: f64| TOP + plot_h * (1.0 - r.min(top) / top);
    let slot = plot_w / bars.len() as f64;
    let bar_w = (slot * 0.8 / first.len() as f64).min(14.0);
    let _ = write!(
        out,
        "<figure class=\"chart\"><figcaption>{}: your counts as a multiple of the reference's, per puzzle</figcaption>\
         <svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" aria-label=\"{}\">",
        escape(title),
        escape(title)
    );
    for tick in ticks(top) {
        let ty = y(f64::from(tick));
        let _ = write!(
            out,
            "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{ty:.1}\" y2=\"{ty:.1}\" class=\"tick\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" class=\"axis\" text-anchor=\"end\">{tick}×</text>",
            LEFT + plot_w,
            LEFT - 4.0,
            ty + 4.0,
        );
    }
    for (i, (label, counts)) in bars.iter().enumerate() {
        let x0 = LEFT + slot * i as f64 + (slot - bar_w * counts.len() as f64) / 2.0;
        for (j, count) in counts.iter().enumerate() {
            let r = ratio(count);
            let fill = if count.fails { "#c62828" } else { FILLS[j % FILLS.len()] };
            let shown = if r.is_finite() { format!("{r:.2}") } else { "no reference count".into() };
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"><title>{} {}: {} \
                 against the reference's {} ({shown}×)</title></rect>",
                x0 + bar_w * j as f64,
                y(r),
                bar_w,
                TOP + plot_h - y(r),
                escape(label),
                escape(&count.what),
                count.value,
                count.reference
            );
            if r > top {
                let _ = write!(
                    out,
                    "<text x=\"{:.1}\" y=\"{:.1}\" class=\"clip\">▲</text>",
                    x0 + bar_w * j as f64,
                    TOP + 8.0
                );
            }
        }
        // Each label ends under its bars and runs down to the left, so the last one stays inside the chart.
        let (lx, ly) = (LEFT + slot * (i as f64 + 0.5), TOP + plot_h + 8.0);
        let _ = write!(
            out,
            "<text x=\"{lx:.1}\" y=\"{ly:.1}\" class=\"axis\" text-anchor=\"end\" \
             transform=\"rotate(-60 {lx:.1} {ly:.1})\">{}</text>",
            escape(label)
        );
    }
    let _ = write!(
        out,
        "<line x1=\"{LEFT}\" x2=\"{:.1}\" y1=\"{t:.1}\" y2=\"{t:.1}\" class=\"threshold\"/>\
         <text x=\"{:.1}\" y=\"{:.1}\" class=\"threshold-label\" text-anchor=\"end\">{factor} × reference</text></svg>",
        LEFT + plot_w,
        LEFT + plot_w,
        y(factor) - 4.0,
        t = y(factor)
    );
    legend(out, first, factor);
}

/// Whole multiples of the reference to label, up to `top`.
fn ticks(top: f64) -> Vec<u32> {
    let step = if top > 5.0 { 2 } else { 1 };
    (0..=top as u32).step_by(step).collect()
}

fn legend(out: &mut String, counts: &[Count], factor: f64) {
    out.push_str("<p class=\"legend\">");
    for (j, count) in counts.iter().enumerate() {
        let _ = write!(
            out,
            "<span class=\"swatch\" style=\"background:{}\"></span> {} ",
            FILLS[j % FILLS.len()],
            escape(&count.what)
        );
    }
    let _ = write!(
        out,
        "<span class=\"swatch\" style=\"background:#c62828\"></span> fails: more than {factor} × the reference's \
         (a ratio that prints above 1.0x)</p></figure>"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evidence::Count;
    use crate::results::{Category, Status};

    /// With the 25 rows of an official table, each puzzle label, rotated to run down to the left from under
    /// its bars, stays inside the chart: a character of the 10 px axis font is under 7 px wide.
    #[test]
    fn every_puzzle_label_stays_inside_the_chart() {
        let rows: Vec<TestResult> = (20..45)
            .map(|i| TestResult {
                row: Some(format!("puzzle{i}")),
                evidence: Some(Evidence::Counts(vec![Count {
                    what: "insert()".into(),
                    value: 3000,
                    reference: 1000,
                    factor: 1.75,
                    fails: true,
                    ratio: "1.7x".into(),
                }])),
                ..TestResult::bare(&format!("timing-2/puzzle{i}"), Category::Timing, Status::Failed)
            })
            .collect();
        let rows: Vec<&TestResult> = rows.iter().collect();
        let mut out = String::new();
        chart(&mut out, "Timing 2", &rows);
        let labels: Vec<&str> = out.split("<text ").filter(|t| t.contains("rotate(")).collect();
        assert_eq!(labels.len(), 25);
        for label in labels {
            let number = |key: &str| -> f64 {
                label.split(&format!("{key}=\"")).nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
            };
            let text = label.split('>').nth(1).unwrap().split('<').next().unwrap();
            assert!(label.contains("text-anchor=\"end\"") && label.contains("rotate(-60 "), "{label}");
            let length = 7.0 * text.chars().count() as f64;
            let (x, y) = (number("x"), number("y"));
            let (left, bottom) = (x - length * 0.5, y + length * 0.87);
            assert!(
                left >= 0.0 && x <= WIDTH && bottom <= HEIGHT,
                "{text} runs from ({left:.0}, {bottom:.0}) to ({x}, {y})"
            );
        }
    }
}
