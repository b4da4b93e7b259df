//! The class overview: the figures an instructor reads about a whole class (the score distribution, the
//! means per section, how many students failed each test and who they are, the root causes fix-first found across the class,
//! who did not compile, who could not be graded), computed from the gradebook's rows alone, so `batch` and
//! `gradebook merge` compute the same figures from the same rows. They go into `gradebook.json` and, drawn,
//! into `index.html` ([`html`]).

pub mod html;
pub mod pair;
pub mod similarity;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::batch::Row;
use crate::catalog::Category;
use crate::score::round2;

/// Width of a bar of the score distribution, in percentage points.
const BIN_WIDTH: u32 = 10;

/// The class's figures (specs/gradebooks.md, `overview`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overview {
    /// Students the class names.
    pub students: usize,
    /// Of them, those graded.
    pub graded: usize,
    /// The graded students' mean percentage, to two decimals.
    pub mean_percent: Option<f64>,
    /// Their median percentage, to two decimals.
    pub median_percent: Option<f64>,
    /// The graded students by percentage: `[from, to)` in steps of ten, the last bar holding 100 too.
    pub distribution: Vec<Bin>,
    /// Each section's mean points and mean maximum over the graded students, in catalog order.
    pub sections: Vec<SectionMean>,
    /// Each test that some student failed, with how many did (a test of rows counts a student once), most
    /// failed first.
    pub tests: Vec<TestFailures>,
    /// Each Board method fix-first found broken, with how many students' submissions, most first.
    pub root_causes: Vec<CauseCount>,
    /// Students whose submission did not build.
    pub did_not_compile: Vec<Who>,
    /// Students the grader could not grade, with the reason.
    pub not_graded: Vec<Who>,
    /// Graded students per language.
    pub languages: BTreeMap<String, usize>,
}

/// One bar of the distribution.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bin {
    /// Its lowest percentage.
    pub from: u32,
    /// The percentage it stops below (100 is in the last bar).
    pub to: u32,
    #[allow(missing_docs)]
    pub students: usize,
}

/// One section's means.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SectionMean {
    #[allow(missing_docs)]
    pub category: String,
    /// Mean points, to two decimals.
    pub mean_points: f64,
    /// Mean of the most it could give, to two decimals.
    pub mean_max: f64,
}

/// One test, how many students failed it, and who: "who has the manhattan bug?".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TestFailures {
    /// The test's id (a test of rows by its base id: `timing-2`).
    pub id: String,
    /// Its title in the catalog.
    pub title: String,
    #[allow(missing_docs)]
    pub students: usize,
    /// The students who fail it, in the class's order.
    #[serde(default)]
    pub who: Vec<Who>,
}

/// One root cause and how many students' submissions have it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CauseCount {
    /// The broken method (`manhattan()`).
    pub cause: String,
    #[allow(missing_docs)]
    pub students: usize,
}

/// A student named in a list of the overview.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Who {
    #[allow(missing_docs)]
    pub id: String,
    #[allow(missing_docs)]
    pub name: String,
    /// Their report's file stem.
    pub report: String,
    /// Why they were not graded, in the list of those not graded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Who {
    fn of(row: &Row, reason: Option<&str>) -> Who {
        Who {
            id: row.id.to_string(),
            name: row.name.clone(),
            report: row.report.clone(),
            reason: reason.map(Into::into),
        }
    }
}

/// The figures of the class whose rows are `rows`.
pub fn figures(rows: &[Row]) -> Overview {
    // a row with an error has no final grade, whatever points it holds (`batch::Row::final_percent`)
    let graded: Vec<&Row> = rows.iter().filter(|r| r.final_percent().is_some()).collect();
    let mut percents: Vec<f64> = graded.iter().filter_map(|r| r.percent).collect();
    percents.sort_by(f64::total_cmp);
    let mut languages = BTreeMap::new();
    for row in &graded {
        *languages.entry(row.language.clone().unwrap_or_default()).or_insert(0) += 1;
    }
    Overview {
        students: rows.len(),
        graded: graded.len(),
        mean_percent: (!percents.is_empty()).then(|| round2(percents.iter().sum::<f64>() / percents.len() as f64)),
        median_percent: median(&percents).map(round2),
        distribution: distribution(&percents),
        sections: sections(&graded),
        tests: failures(&graded),
        root_causes: causes(&graded),
        did_not_compile: graded.iter().filter(|r| r.compiled == Some(false)).map(|r| Who::of(r, None)).collect(),
        not_graded: rows
            .iter()
            .filter(|r| r.final_percent().is_none())
            .map(|r| Who::of(r, Some(r.error.as_deref().unwrap_or("not graded"))))
            .collect(),
        languages,
    }
}

fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

fn distribution(percents: &[f64]) -> Vec<Bin> {
    let mut bins: Vec<Bin> =
        (0..100 / BIN_WIDTH).map(|i| Bin { from: i * BIN_WIDTH, to: (i + 1) * BIN_WIDTH, students: 0 }).collect();
    let last = bins.len() - 1;
    for percent in percents {
        let at = (percent.clamp(0.0, 100.0) / f64::from(BIN_WIDTH)).floor() as usize;
        bins[at.min(last)].students += 1;
    }
    bins
}

fn sections(graded: &[&Row]) -> Vec<SectionMean> {
    let mean = |values: Vec<f64>| {
        if graded.is_empty() {
            0.0
        } else {
            round2(values.iter().sum::<f64>() / graded.len() as f64)
        }
    };
    let points = |of: &[(String, f64)], name: &str| of.iter().find(|(n, _)| n == name).map_or(0.0, |(_, p)| *p);
    Category::ALL
        .iter()
        .map(|c| SectionMean {
            category: c.name().to_string(),
            mean_points: mean(graded.iter().map(|r| points(&r.categories, c.name())).collect()),
            mean_max: mean(graded.iter().map(|r| points(&r.category_max, c.name())).collect()),
        })
        .filter(|s| s.mean_max > 0.0 || s.mean_points > 0.0)
        .collect()
}

fn failures(graded: &[&Row]) -> Vec<TestFailures> {
    let mut failing: BTreeMap<&str, Vec<Who>> = BTreeMap::new();
    for row in graded {
        let mut bases: Vec<&str> = row.failed.iter().map(|id| id.split('/').next().unwrap_or(id)).collect();
        bases.sort_unstable();
        bases.dedup();
        for base in bases {
            failing.entry(base).or_default().push(Who::of(row, None));
        }
    }
    let catalog = crate::catalog::all();
    let order = |id: &str| catalog.iter().position(|item| item.id == id).unwrap_or(usize::MAX);
    let mut tests: Vec<TestFailures> = failing
        .into_iter()
        .map(|(id, who)| {
            let title = catalog.iter().find(|item| item.id == id).map_or("", |item| item.title);
            TestFailures { id: id.to_string(), title: title.to_string(), students: who.len(), who }
        })
        .collect();
    tests.sort_by(|a, b| b.students.cmp(&a.students).then(order(&a.id).cmp(&order(&b.id))).then(a.id.cmp(&b.id)));
    tests
}

fn causes(graded: &[&Row]) -> Vec<CauseCount> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for row in graded {
        for cause in &row.root_causes {
            *counts.entry(cause).or_insert(0) += 1;
        }
    }
    let mut causes: Vec<CauseCount> =
        counts.into_iter().map(|(cause, students)| CauseCount { cause: cause.to_string(), students }).collect();
    causes.sort_by(|a, b| b.students.cmp(&a.students).then(a.cause.cmp(&b.cause)));
    causes
}

/// Rounds to hundredths, so the figures print the same digits on every machine.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradebook::sample::row;
    use crate::identity::StudentId;

    fn graded(name: &str, percent: f64, failed: &[&str], causes: &[&str], compiled: bool) -> Row {
        Row {
            failed: failed.iter().map(|s| s.to_string()).collect(),
            root_causes: causes.iter().map(|s| s.to_string()).collect(),
            compiled: Some(compiled),
            ..row(StudentId::entry(name), name, Some(percent), None)
        }
    }

    #[test]
    fn the_figures_count_students_not_rows_of_tests() {
        let rows = [
            graded("ada", 100.0, &[], &[], true),
            graded(
                "bob",
                55.0,
                &["board-2a", "board-15", "timing-2/puzzle32", "timing-2/puzzle33"],
                &["manhattan()"],
                true,
            ),
            graded("cy", 59.0, &["board-2a"], &["manhattan()", "toString()"], true),
            graded("dan", 0.0, &["compile-1"], &[], false),
            row(StudentId::entry("eve"), "eve", None, Some("not a submission")),
        ];
        let o = figures(&rows);
        assert_eq!((o.students, o.graded), (5, 4));
        assert_eq!(o.mean_percent, Some(53.5));
        assert_eq!(o.median_percent, Some(57.0));
        let bars: Vec<(u32, usize)> =
            o.distribution.iter().filter(|b| b.students > 0).map(|b| (b.from, b.students)).collect();
        assert_eq!(bars, [(0, 1), (50, 2), (90, 1)], "100 is in the last bar, 59 in 50-60");
        let tests: Vec<(&str, usize)> = o.tests.iter().map(|t| (t.id.as_str(), t.students)).collect();
        assert_eq!(tests, [("board-2a", 2), ("compile-1", 1), ("board-15", 1), ("timing-2", 1)]);
        let who: Vec<&str> = o.tests[0].who.iter().map(|w| w.name.as_str()).collect();
        assert_eq!(who, ["bob", "cy"], "who fails board-2a, in the class's order");
        assert!(!o.tests[0].title.is_empty(), "titles come from the catalog");
        let causes: Vec<(&str, usize)> = o.root_causes.iter().map(|c| (c.cause.as_str(), c.students)).collect();
        assert_eq!(causes, [("manhattan()", 2), ("toString()", 1)]);
        assert_eq!(o.did_not_compile.iter().map(|w| w.id.as_str()).collect::<Vec<_>>(), ["dan"]);
        assert_eq!(o.not_graded[0].reason.as_deref(), Some("not a submission"));
        assert_eq!(o.languages.get("java"), Some(&4));
        let board = o.sections.iter().find(|s| s.category == "board").unwrap();
        assert_eq!((board.mean_points, board.mean_max), (30.0, 60.0));
    }

    #[test]
    fn a_class_nobody_could_be_graded_in_has_figures_without_means() {
        let o = figures(&[row(StudentId::entry("eve"), "eve", None, Some("empty"))]);
        assert_eq!((o.mean_percent, o.median_percent, o.graded), (None, None, 0));
        assert!(o.sections.is_empty() && o.tests.is_empty());
        assert_eq!(o.distribution.iter().map(|b| b.students).sum::<usize>(), 0);
    }
}
