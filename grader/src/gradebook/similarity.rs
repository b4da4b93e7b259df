//! `similarity.csv`: every pair at or above the threshold, one row each, pairs within the class first, then
//! against the corpus, each list highest score first (the overview lists and pages the first
//! [`MAX_PAGES`](crate::similarity::findings::MAX_PAGES) of each). Every field through [`csv`]: a
//! student's name or a corpus entry's path can no more become a formula here than in the gradebook.

use super::csv;
use crate::similarity::findings::{line_count, line_ranges, page_name, Findings};
use crate::similarity::Pair;

/// The columns of `similarity.csv`.
pub const HEADER: [&str; 12] = [
    "student",
    "name",
    "other",
    "other_name",
    "other_is",
    "language",
    "score",
    "student_lines",
    "other_lines",
    "student_where",
    "other_where",
    "page",
];

/// `similarity.csv` of `findings`.
pub fn similarity_csv(findings: &Findings) -> String {
    let mut out = csv::row(&HEADER);
    for (pair, of_class, page) in findings.pairs() {
        out.push_str(&csv::row(&fields(findings, pair, of_class, page)));
    }
    out
}

fn fields(findings: &Findings, pair: &Pair, of_class: bool, page: bool) -> Vec<String> {
    let (a, b) = (&findings.class[pair.a], findings.other(pair, of_class));
    let fragments = &pair.shared.fragments;
    vec![
        csv::text(&a.key),
        csv::text(&a.name),
        csv::text(&b.key),
        csv::text(&b.name),
        (if of_class { "student" } else { "corpus" }).to_string(),
        a.prints.language.map_or(String::new(), |l| l.name().to_string()),
        csv::number(pair.shared.score() * 100.0),
        line_count(fragments.iter().map(|f| f.a)).to_string(),
        line_count(fragments.iter().map(|f| f.b)).to_string(),
        csv::text(&line_ranges(&a.prints, fragments.iter().map(|f| f.a))),
        csv::text(&line_ranges(&b.prints, fragments.iter().map(|f| f.b))),
        if page { csv::text(&format!("similarity/{}", page_name(a, b))) } else { String::new() },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::findings::{sample, SAMPLE_BOARD};

    #[test]
    fn one_row_a_pair_whatever_the_names_hold() {
        let findings = sample(&[("=HYPERLINK(\"x\")", SAMPLE_BOARD), ("bob, jr", SAMPLE_BOARD)]);
        let rows = csv::parse(&similarity_csv(&findings)).unwrap();
        assert_eq!(rows[0], HEADER);
        assert_eq!(rows.len(), 2, "{rows:?}");
        let row = &rows[1];
        assert_eq!((row[0].as_str(), row[2].as_str()), ("'=HYPERLINK(\"x\")", "bob, jr"));
        assert_eq!((row[4].as_str(), row[5].as_str(), row[6].as_str()), ("student", "java", "100.00"));
        assert!(
            row[9].starts_with("Board.java:") && row[11].starts_with("similarity/") && row[11].ends_with(".html"),
            "{row:?}"
        );
    }
}
