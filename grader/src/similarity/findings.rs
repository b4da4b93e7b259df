//! What a class's comparison found, named for the reports that show it: who each submission is, the pairs
//! at or above the threshold, and what was left out and why. The class overview's section, the pair pages
//! and `similarity.csv` (`gradebook`) all draw from one [`Findings`], which `grader batch` and `grader
//! gradebook merge` compute the same way from the same fingerprints.

use serde::{Deserialize, Serialize};

use super::compare::{compare, Base, Comparison, Pair};
use super::fingerprints::Fingerprints;
use super::fragments::Span;
use super::method::Method;

/// The most pairs of each list (the class's, the corpus's) shown in the overview and given a page: the
/// rest are in `similarity.csv` (a class where a hundred students handed in one solution has thousands of
/// pairs, and a page each would cost minutes to write).
pub const MAX_PAGES: usize = 500;

/// What the comparison was asked for: recorded in a shard's gradebook, so that the merge compares as the
/// shards were told to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The score (percent) at and above which a pair is shown.
    pub threshold: f64,
    /// The corpus of known solutions, if any (its path as given, made absolute).
    pub corpus: Option<String>,
    /// The course's own starter code, if not the grader's starters (its path, made absolute).
    pub base: Option<String>,
}

/// One compared submission: who it is and its fingerprints.
#[derive(Debug, Clone)]
pub struct Participant {
    /// A student's identity, or a corpus entry's path in the corpus.
    pub key: String,
    /// The name reports show.
    pub name: String,
    /// The stem of the files that name it (a student's report stem; `corpus_…~hash` for an entry).
    pub stem: String,
    /// Corpus entries with the same fingerprints, folded into this one.
    pub identical: usize,
    #[allow(missing_docs)]
    pub prints: Fingerprints,
}

/// A class's comparison, with everything the reports show.
#[derive(Debug, Clone)]
pub struct Findings {
    #[allow(missing_docs)]
    pub settings: Settings,
    /// The method's parameters.
    pub method: Method,
    /// Every student of the class with a submission, in the class's order.
    pub class: Vec<Participant>,
    /// The corpus's entries (none without a corpus).
    pub corpus: Vec<Participant>,
    /// What in the corpus could not be used.
    pub corpus_notes: Vec<String>,
    /// The pairs, by index into `class` and `corpus`.
    pub comparison: Comparison,
}

impl Findings {
    /// Compares `class` with itself and with `corpus` (the base left out), keeping the pairs at or above
    /// the threshold of `settings`.
    pub fn of(
        settings: Settings,
        class: Vec<Participant>,
        corpus: Vec<Participant>,
        corpus_notes: Vec<String>,
        base: &Base,
        method: Method,
    ) -> Findings {
        let class_prints: Vec<&Fingerprints> = class.iter().map(|p| &p.prints).collect();
        let corpus_prints: Vec<&Fingerprints> = corpus.iter().map(|p| &p.prints).collect();
        let comparison = compare(&class_prints, &corpus_prints, base, &method, settings.threshold / 100.0);
        Findings { settings, method, class, corpus, corpus_notes, comparison }
    }

    /// Every pair at or above the threshold, those of the class first, each with whether it is of the class
    /// (else with the corpus) and whether it has a page (the first [`MAX_PAGES`] of each list do).
    pub fn pairs(&self) -> impl Iterator<Item = (&Pair, bool, bool)> {
        let class = self.comparison.class.iter().enumerate().map(|(rank, p)| (p, true, rank < MAX_PAGES));
        class.chain(self.comparison.corpus.iter().enumerate().map(|(rank, p)| (p, false, rank < MAX_PAGES)))
    }

    /// The other side of a pair: a class submission for a pair of the class, else a corpus entry.
    pub fn other(&self, pair: &Pair, of_class: bool) -> &Participant {
        if of_class {
            &self.class[pair.b]
        } else {
            &self.corpus[pair.b]
        }
    }

    /// Each class submission's notes (what was cut or left out, why it was not compared), in class order;
    /// submissions without a note are not listed.
    pub fn notes(&self) -> Vec<(&Participant, Vec<String>)> {
        self.class
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let mut notes = p.prints.notes.clone();
                notes.extend(self.comparison.left_out.iter().filter(|(at, _)| *at == i).map(|(_, why)| why.clone()));
                (!notes.is_empty()).then_some((p, notes))
            })
            .collect()
    }
}

/// The pair page's file name (in the `similarity/` folder beside the overview): the two stems joined by `+`,
/// which no stem holds.
pub fn page_name(a: &Participant, b: &Participant) -> String {
    format!("{}+{}.html", a.stem, b.stem)
}

/// Where a side of the fragments lies, file by file: `Board.java:12-40,52-60 Solver.java:3-20` (ranges
/// merged where they touch), in file order.
pub fn line_ranges(prints: &Fingerprints, spans: impl Iterator<Item = Span>) -> String {
    let mut spans: Vec<Span> = spans.collect();
    spans.sort_by_key(|s| (s.file, s.first_line, s.last_line));
    let mut out: Vec<String> = Vec::new();
    let mut current: Option<(u16, Vec<(u32, u32)>)> = None;
    let flush = |current: Option<(u16, Vec<(u32, u32)>)>, out: &mut Vec<String>| {
        if let Some((file, ranges)) = current {
            let name = prints.files.get(usize::from(file)).map_or("?", |f| f.name.as_str());
            let text: Vec<String> =
                ranges.iter().map(|(a, b)| if a == b { a.to_string() } else { format!("{a}-{b}") }).collect();
            out.push(format!("{name}:{}", text.join(",")));
        }
    };
    for span in spans {
        match &mut current {
            Some((file, ranges)) if *file == span.file => match ranges.last_mut() {
                Some(last) if span.first_line <= last.1 + 1 => last.1 = last.1.max(span.last_line),
                _ => ranges.push((span.first_line, span.last_line)),
            },
            _ => {
                flush(current.take(), &mut out);
                current = Some((span.file, vec![(span.first_line, span.last_line)]));
            }
        }
    }
    flush(current, &mut out);
    out.join(" ")
}

/// How many lines the ranges of [`line_ranges`] hold.
pub fn line_count(spans: impl Iterator<Item = Span>) -> u32 {
    let mut spans: Vec<Span> = spans.collect();
    spans.sort_by_key(|s| (s.file, s.first_line, s.last_line));
    let mut count = 0;
    let mut last: Option<(u16, u32)> = None;
    for span in spans {
        let from = match last {
            Some((file, end)) if file == span.file => span.first_line.max(end + 1),
            _ => span.first_line,
        };
        if span.last_line >= from {
            count += span.last_line - from + 1;
        }
        let end = match last {
            Some((file, end)) if file == span.file => end.max(span.last_line),
            _ => span.last_line,
        };
        last = Some((span.file, end));
    }
    count
}

/// (test support) The findings of a Java class of the students `(name, Board.java's text)`, each their own
/// identity, compared with the default method and the starters as the base, every pair kept.
#[cfg(test)]
pub(crate) fn sample(students: &[(&str, &str)]) -> Findings {
    use super::sources::{SourceFile, Sources};
    use super::tokens::Language;
    let class = students
        .iter()
        .map(|(name, text)| {
            let sources = Sources {
                language: Some(Language::Java),
                files: vec![SourceFile { name: "Board.java".into(), text: text.to_string() }],
                notes: vec![],
            };
            Participant {
                key: name.to_string(),
                name: name.to_string(),
                stem: crate::identity::StudentId::entry(name).file_stem(),
                identical: 0,
                prints: Fingerprints::of(sources, &Method::DEFAULT),
            }
        })
        .collect();
    let settings = Settings { threshold: 0.0, corpus: None, base: None };
    Findings::of(settings, class, vec![], vec![], &super::base::starters(&Method::DEFAULT), Method::DEFAULT)
}

/// (test support) A Board.java long enough to compare, holding `marker` in a comment and a string.
#[cfg(test)]
pub(crate) const SAMPLE_BOARD: &str = "public class Board {\n    private final int[] t; // MARKER\n    \
    public int hamming() {\n        int c = 0;\n        for (int i = 0; i < t.length; i++) {\n            \
    if (t[i] != 0 && t[i] != i + 1) c++;\n        }\n        String s = \"MARKER\";\n        return c;\n    }\n    \
    public int manhattan() {\n        int m = 0;\n        int n = (int) Math.sqrt(t.length);\n        \
    for (int i = 0; i < t.length; i++) {\n            if (t[i] == 0) continue;\n            \
    m += Math.abs(i / n - (t[i] - 1) / n) + Math.abs(i % n - (t[i] - 1) % n);\n        }\n        \
    while (m > 1000) { m = m / 2; }\n        return m;\n    }\n}\n";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::sources::SourceFile;

    fn span(file: u16, first_line: u32, last_line: u32) -> Span {
        Span { file, first_line, last_line }
    }

    #[test]
    fn line_ranges_merge_by_file_and_count_each_line_once() {
        let prints = Fingerprints {
            language: None,
            files: ["Board.java", "Solver.java"].map(|n| SourceFile { name: n.into(), text: String::new() }).to_vec(),
            prints: vec![],
            notes: vec![],
        };
        let spans = [span(1, 3, 20), span(0, 12, 30), span(0, 25, 40), span(0, 41, 41), span(0, 52, 60)];
        assert_eq!(line_ranges(&prints, spans.into_iter()), "Board.java:12-41,52-60 Solver.java:3-20");
        assert_eq!(line_count(spans.into_iter()), 30 + 9 + 18);
    }
}
