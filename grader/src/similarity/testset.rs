//! The test set that chose the method and the threshold (`fixtures/similarity/`, README there): per
//! language, six solutions written independently, gallery solutions, and disguised copies of some (every
//! identifier renamed, methods reordered, comments and blank lines changed, dead statements inserted, a
//! loop rewritten, Board and Solver merged or a helper split out). Every copy must score above every pair
//! that involves an independent solution (other than its own copy), and [`DEFAULT_THRESHOLD`] must lie
//! between them. `cargo test --release -p grader --lib similarity::testset -- --nocapture` prints every score.

use std::path::{Path, PathBuf};

use super::base;
use super::compare::compare;
use super::fingerprints::Fingerprints;
use super::method::{Method, DEFAULT_THRESHOLD};
use super::sources::{SourceFile, Sources};
use super::tokens::Language;

/// One submission of the test set: its name (`independent-3`, `copy-of-valid`, `valid`) and its fingerprints.
struct Entry {
    name: String,
    prints: Fingerprints,
}

/// What a pair of the test set is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Truth {
    /// A disguised copy and its original.
    Copy,
    /// Two solutions written apart (at least one of them one of the six written for this test set).
    Independent,
    /// Two gallery solutions (or a copy and another gallery solution): the gallery's entries share an
    /// author and some share files, so they count neither way.
    Unknown,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The gallery entries each language's copies were made from.
fn originals(language: Language) -> &'static [&'static str] {
    match language {
        Language::Java => &["valid", "valid-alt", "one-queue"],
        Language::Python => &["valid", "valid-heapq"],
        Language::Rust => &["valid-neighbor-order", "valid-manhattan-tiebreak", "valid-last-two-twin"],
    }
}

/// A folder's source files read as the grader reads a submission's, links followed (the gallery links files).
fn read(dir: &Path, language: Language) -> Sources {
    let mut names: Vec<String> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() || e.path_is_symlink())
        .filter_map(|e| e.path().strip_prefix(dir).ok().map(|p| p.to_string_lossy().into_owned()))
        .filter(|name| Language::of_file(name) == Some(language))
        .collect();
    names.sort();
    let files = names
        .into_iter()
        .map(|name| SourceFile { text: std::fs::read_to_string(dir.join(&name)).unwrap(), name })
        .collect();
    Sources { language: Some(language), files, notes: vec![] }
}

fn class(language: Language, method: &Method) -> Vec<Entry> {
    let mut entries = Vec::new();
    for name in originals(language) {
        let dir = root().join("fixtures/submissions").join(language.name()).join(name);
        entries.push(Entry { name: name.to_string(), prints: Fingerprints::of(read(&dir, language), method) });
    }
    let own = root().join("fixtures/similarity").join(language.name());
    let mut names: Vec<String> =
        std::fs::read_dir(&own).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    for name in names {
        entries.push(Entry { prints: Fingerprints::of(read(&own.join(&name), language), method), name });
    }
    entries
}

fn truth(a: &str, b: &str) -> Truth {
    let copy_of = |x: &str, y: &str| x.strip_prefix("copy-of-") == Some(y);
    if copy_of(a, b) || copy_of(b, a) {
        Truth::Copy
    } else if a.starts_with("independent-") || b.starts_with("independent-") {
        Truth::Independent
    } else {
        Truth::Unknown
    }
}

/// Every pair of the test set of `language`, scored under `method` (the starters as the base), with its truth.
fn scored(language: Language, method: &Method) -> Vec<(String, String, Truth, f64)> {
    let entries = class(language, method);
    let all: Vec<&Fingerprints> = entries.iter().map(|e| &e.prints).collect();
    let comparison = compare(&all, &[], &base::starters(method), method, 0.0);
    let mut pairs = Vec::new();
    for (i, a) in entries.iter().enumerate() {
        for b in &entries[i + 1..] {
            pairs.push((a.name.clone(), b.name.clone(), truth(&a.name, &b.name), 0.0));
        }
    }
    for pair in &comparison.class {
        let (a, b) = (&entries[pair.a].name, &entries[pair.b].name);
        let row = pairs.iter_mut().find(|(x, y, _, _)| x == a && y == b).unwrap();
        row.3 = pair.shared.score() * 100.0;
    }
    pairs
}

/// The lowest copy's and the highest independent pair's scores, in percent.
fn separation(pairs: &[(String, String, Truth, f64)]) -> (f64, f64) {
    let lowest = pairs.iter().filter(|p| p.2 == Truth::Copy).map(|p| p.3).fold(f64::INFINITY, f64::min);
    let highest = pairs.iter().filter(|p| p.2 == Truth::Independent).map(|p| p.3).fold(0.0, f64::max);
    (lowest, highest)
}

#[test]
fn disguised_copies_score_above_every_pair_of_independent_solutions() {
    let method = Method::DEFAULT;
    let (mut true_positives, mut false_negatives, mut false_positives, mut negatives) = (0, 0, 0, 0);
    for language in Language::ALL {
        let mut pairs = scored(language, &method);
        pairs.sort_by(|x, y| y.3.total_cmp(&x.3));
        for (a, b, truth, score) in &pairs {
            println!("{:<7} {score:6.1}%  {truth:<11?}  {a} / {b}", language.name());
        }
        let (lowest_copy, highest_independent) = separation(&pairs);
        println!(
            "{}: lowest copy {lowest_copy:.1}%, highest independent pair {highest_independent:.1}%\n",
            language.name()
        );
        assert!(lowest_copy > highest_independent, "{language:?}: copies and independent work overlap");
        for (_, _, truth, score) in &pairs {
            let flagged = *score >= DEFAULT_THRESHOLD;
            match truth {
                Truth::Copy if flagged => true_positives += 1,
                Truth::Copy => false_negatives += 1,
                Truth::Independent => {
                    negatives += 1;
                    false_positives += usize::from(flagged);
                }
                Truth::Unknown => {}
            }
        }
    }
    println!(
        "at {DEFAULT_THRESHOLD}%: {true_positives} copies flagged, {false_negatives} missed; {false_positives} of \
         {negatives} independent pairs flagged"
    );
    assert_eq!((false_negatives, false_positives), (0, 0), "the default threshold separates the test set");
    assert!(true_positives >= 9 && negatives >= 140, "the whole test set was read");
}
