//! Joining the gradebooks of a class's shards (`grader batch --shard K/N`) into the class's: pure, over
//! gradebooks already read.
//!
//! Shards are joined only when they graded alike: the same grader (version and executable), seed, `--only`,
//! policy, fixtures (every file's hash), report formats and shard count; otherwise the merge is refused,
//! saying which of these differs and between which shards. Every shard records the whole class's roster, so
//! a student graded in two shards refuses the merge (each is named), and a student no shard graded (their
//! shard's gradebook is missing) gets a row saying which shard to grade again: the class's gradebook always
//! has every student the class names.

use std::collections::{BTreeMap, BTreeSet};

use super::document::{Document, RunInfo, ShardPart};
use super::overview;
use crate::batch::Row;
use crate::identity::StudentId;
use crate::intake::Enrolled;
use crate::shard::Shard;

/// Students named in a message before the rest are counted (here and in `grader gradebook merge`'s summary).
pub const NAMED: usize = 10;

/// A shard's gradebook, and where it was read from (for messages).
#[derive(Debug, Clone)]
pub struct ShardBook {
    /// The directory or file it came from.
    pub from: String,
    #[allow(missing_docs)]
    pub document: Document,
}

/// Why shards cannot be joined.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum MergeError {
    /// No gradebook to join.
    #[error("no shard's gradebook to merge")]
    Nothing,
    /// A gradebook that is not a shard's.
    #[error("`{0}` holds a whole class's gradebook, not a shard's (`grader batch --shard K/N` writes those)")]
    NotAShard(String),
    /// Two shards graded differently.
    #[error("the shards were not graded alike: {what} differs between `{first}` and `{other}` ({detail}); grade every shard with the same grader, seed, --only, policy, fixtures, formats and shard count")]
    #[allow(missing_docs)]
    Differ { what: &'static str, first: String, other: String, detail: String },
    /// The same shard given twice.
    #[error("shard {shard} is given twice: `{first}` and `{other}`")]
    #[allow(missing_docs)]
    ShardTwice { shard: Shard, first: String, other: String },
    /// Students graded in two shards.
    #[error("graded in two shards: {0}")]
    GradedTwice(String),
    /// A shard grades a student the class does not name.
    #[error("`{from}` grades {student}, whom the class's roster does not name")]
    #[allow(missing_docs)]
    Stranger { from: String, student: String },
}

/// The class's gradebook, and the students no shard graded (each with the shard that holds them).
#[derive(Debug)]
pub struct Merged {
    /// The class's gradebook, overview included.
    pub document: Document,
    /// Who no shard graded, and their shard.
    pub missing: Vec<(Enrolled, Shard)>,
}

/// Joins shards' gradebooks into the class's.
///
/// # Errors
/// The shards cannot be joined ([`MergeError`] says why).
pub fn merge(shards: &[ShardBook]) -> Result<Merged, MergeError> {
    let first = shards.first().ok_or(MergeError::Nothing)?;
    let part = |book: &ShardBook| book.document.shard.clone().ok_or_else(|| MergeError::NotAShard(book.from.clone()));
    let first_part = part(first)?;
    let mut seen: BTreeMap<u64, &str> = BTreeMap::new();
    for book in shards {
        let this = part(book)?;
        alike(first, &first_part, book, &this)?;
        if let Some(earlier) = seen.insert(this.shard.index, &book.from) {
            return Err(MergeError::ShardTwice { shard: this.shard, first: earlier.into(), other: book.from.clone() });
        }
    }
    let graded = graded_once(shards, &first_part.roster)?;
    let count = first_part.shard.count;
    let mut missing = Vec::new();
    let mut rows = Vec::new();
    for student in &first_part.roster {
        match graded.get(&student.id) {
            Some(row) => rows.push((*row).clone()),
            None => {
                let shard = Shard::of(&student.id, count);
                rows.push(Row::graded(student, None, Some(missing_reason(shard))));
                missing.push((student.clone(), shard));
            }
        }
    }
    let skipped: BTreeSet<_> = shards.iter().flat_map(|b| b.document.skipped.iter().cloned()).collect();
    let lacking: BTreeSet<String> =
        shards.iter().flat_map(|b| b.document.run.missing_fixtures.iter().cloned()).collect();
    let run = RunInfo { missing_fixtures: lacking.into_iter().collect(), ..first.document.run.clone() };
    let overview = Some(overview::figures(&rows));
    let document = Document { run, shard: None, students: rows, skipped: skipped.into_iter().collect(), overview };
    Ok(Merged { document, missing })
}

fn missing_reason(shard: Shard) -> String {
    format!(
        "not graded: no gradebook of shard {shard}, which holds this student, was merged (grade it with `grader batch \
         CLASS --shard {shard}` and merge again)"
    )
}

/// Checks that `book` was graded as `first` was, and of the same class.
fn alike(first: &ShardBook, first_part: &ShardPart, book: &ShardBook, part: &ShardPart) -> Result<(), MergeError> {
    let (a, b) = (&first.document.run, &book.document.run);
    let differ = |what: &'static str, detail: String| MergeError::Differ {
        what,
        first: first.from.clone(),
        other: book.from.clone(),
        detail,
    };
    let shown = |x: &dyn std::fmt::Debug, y: &dyn std::fmt::Debug| format!("{x:?} and {y:?}");
    if first_part.shard.count != part.shard.count {
        return Err(differ("the shard count", format!("{} and {}", first_part.shard, part.shard)));
    }
    if (&a.grader_version, &a.grader_build) != (&b.grader_version, &b.grader_build) {
        let detail =
            format!("{} build {} and {} build {}", a.grader_version, a.grader_build, b.grader_version, b.grader_build);
        return Err(differ("the grader", detail));
    }
    if a.seed != b.seed {
        return Err(differ("the seed", shown(&a.seed, &b.seed)));
    }
    if a.only != b.only {
        return Err(differ("--only", shown(&a.only, &b.only)));
    }
    if a.skip_bad_fixtures != b.skip_bad_fixtures {
        return Err(differ("--skip-bad-fixtures", shown(&a.skip_bad_fixtures, &b.skip_bad_fixtures)));
    }
    if a.policy != b.policy {
        return Err(differ("the policy", first_difference(&a.policy, &b.policy)));
    }
    if a.fixtures != b.fixtures {
        return Err(differ("the fixtures", fixture_difference(&a.fixtures, &b.fixtures)));
    }
    if a.formats != b.formats {
        return Err(differ("the report formats", shown(&a.formats, &b.formats)));
    }
    if a.run_key != b.run_key {
        return Err(differ("the run key", shown(&a.run_key, &b.run_key)));
    }
    let ids = |p: &ShardPart| p.roster.iter().map(|s| s.id.clone()).collect::<BTreeSet<StudentId>>();
    let (mine, theirs) = (ids(first_part), ids(part));
    if mine != theirs {
        let only = |x: &BTreeSet<StudentId>, y: &BTreeSet<StudentId>| {
            x.difference(y).map(|id| id.to_string()).collect::<Vec<_>>()
        };
        let detail =
            format!("only in the first: {:?}; only in the other: {:?}", only(&mine, &theirs), only(&theirs, &mine));
        return Err(differ("the class (the roster of students)", detail));
    }
    Ok(())
}

/// The first line where two policies differ.
fn first_difference(a: &str, b: &str) -> String {
    let (mut x, mut y) = (a.lines(), b.lines());
    loop {
        match (x.next(), y.next()) {
            (Some(l), Some(r)) if l == r => continue,
            (l, r) => return format!("`{}` against `{}`", l.unwrap_or("(end)"), r.unwrap_or("(end)")),
        }
    }
}

/// The first fixture file that differs, or that one side lacks.
fn fixture_difference(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> String {
    let files: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    for file in files {
        match (a.get(file), b.get(file)) {
            (Some(x), Some(y)) if x == y => {}
            (Some(_), Some(_)) => return format!("{file} has other bytes"),
            (Some(_), None) => return format!("{file} is only in the first"),
            (None, _) => return format!("{file} is only in the other"),
        }
    }
    String::new()
}

/// Every graded row by identity, refusing a student graded twice or one the roster does not name.
fn graded_once<'a>(shards: &'a [ShardBook], roster: &[Enrolled]) -> Result<BTreeMap<StudentId, &'a Row>, MergeError> {
    let named: BTreeSet<&StudentId> = roster.iter().map(|s| &s.id).collect();
    let mut graded: BTreeMap<StudentId, (&Row, &str)> = BTreeMap::new();
    let mut twice = Vec::new();
    for book in shards {
        for row in &book.document.students {
            if !named.contains(&row.id) {
                return Err(MergeError::Stranger {
                    from: book.from.clone(),
                    student: format!("{} ({})", row.name, row.id),
                });
            }
            if let Some((_, earlier)) = graded.insert(row.id.clone(), (row, &book.from)) {
                twice.push(format!("{} ({}) in `{earlier}` and `{}`", row.name, row.id, book.from));
            }
        }
    }
    if !twice.is_empty() {
        let more = twice.len().saturating_sub(NAMED);
        let mut list = twice.into_iter().take(NAMED).collect::<Vec<_>>().join("; ");
        if more > 0 {
            list.push_str(&format!("; and {more} more"));
        }
        return Err(MergeError::GradedTwice(list));
    }
    Ok(graded.into_iter().map(|(id, (row, _))| (id, row)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gradebook::sample::row;

    fn enrolled(name: &str) -> Enrolled {
        Enrolled { id: StudentId::entry(name), name: name.into(), lms: None, late: None }
    }

    fn run() -> RunInfo {
        RunInfo {
            grader_version: "0.1.0".into(),
            grader_build: "b1".into(),
            seed: 1,
            only: vec![],
            skip_bad_fixtures: false,
            formats: vec!["text".into(), "json".into()],
            policy: "[weights]\ncompile = 5.0\n".into(),
            fixtures: [("puzzle04.txt".to_string(), "aa".to_string())].into(),
            missing_fixtures: vec![],
            run_key: "k".into(),
        }
    }

    /// The class `names`, split into `count` shards as `batch --shard` would grade them.
    fn shards(names: &[&str], count: u64) -> Vec<ShardBook> {
        let roster: Vec<Enrolled> = names.iter().map(|n| enrolled(n)).collect();
        (0..count)
            .map(|index| {
                let shard = Shard { index, count };
                let students = roster
                    .iter()
                    .filter(|s| shard.holds(&s.id))
                    .map(|s| row(s.id.clone(), &s.name, Some(50.0), None))
                    .collect();
                let part = ShardPart { shard, roster: roster.clone(), similarity: None };
                let document = Document { run: run(), shard: Some(part), students, skipped: vec![], overview: None };
                ShardBook { from: format!("shard-{index}"), document }
            })
            .collect()
    }

    const CLASS: [&str; 8] = ["ada", "bob", "cy", "dan", "eve", "fay", "gus", "hal"];

    #[test]
    fn shards_join_in_the_classs_order_with_the_overview() {
        let books = shards(&CLASS, 3);
        assert!(books.iter().filter(|b| !b.document.students.is_empty()).count() >= 2, "the class is split");
        let merged = merge(&books).unwrap();
        let ids: Vec<&str> = merged.document.students.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, CLASS);
        assert!(merged.missing.is_empty() && merged.document.shard.is_none());
        assert_eq!(merged.document.overview.as_ref().map(|o| o.graded), Some(8));
        assert_eq!(merged.document.run, run());
    }

    #[test]
    fn a_missing_shard_leaves_its_students_named_with_their_shard() {
        let mut books = shards(&CLASS, 3);
        let gone = books.remove(1);
        let merged = merge(&books).unwrap();
        let missing: Vec<&str> = merged.missing.iter().map(|(s, _)| s.name.as_str()).collect();
        let expected: Vec<&str> = gone.document.students.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(missing, expected);
        let row = merged.document.students.iter().find(|r| r.name == missing[0]).unwrap();
        assert!(row.score.is_none() && row.error.as_deref().unwrap().contains("--shard 1/3"), "{row:?}");
    }

    #[test]
    fn shards_graded_differently_are_refused_saying_what_differs() {
        type Change = fn(&mut RunInfo);
        let cases: [(&str, Change); 5] = [
            ("the seed", |r| r.seed = 2),
            ("the policy", |r| r.policy = "[weights]\ncompile = 6.0\n".into()),
            ("the fixtures", |r| {
                r.fixtures.insert("puzzle04.txt".into(), "bb".into());
            }),
            ("the grader", |r| r.grader_build = "b2".into()),
            ("--only", |r| r.only = vec!["board-1a".into()]),
        ];
        for (what, change) in cases {
            let mut books = shards(&CLASS, 3);
            change(&mut books[2].document.run);
            let error = merge(&books).unwrap_err();
            assert!(
                matches!(&error, MergeError::Differ { what: w, other, .. } if *w == what && other == "shard-2"),
                "{error}"
            );
        }
        let mut books = shards(&CLASS, 3);
        books[1].document.run.fixtures.insert("puzzle04.txt".into(), "bb".into());
        assert!(merge(&books).unwrap_err().to_string().contains("puzzle04.txt has other bytes"));
        let mut books = shards(&CLASS, 3);
        books.extend(shards(&CLASS, 2).into_iter().take(1));
        assert!(matches!(merge(&books).unwrap_err(), MergeError::Differ { what: "the shard count", .. }));
    }

    #[test]
    fn a_student_graded_twice_or_a_shard_given_twice_is_refused() {
        let mut books = shards(&CLASS, 3);
        books.push(books[0].clone());
        books[3].from = "copy".into();
        assert!(matches!(merge(&books).unwrap_err(), MergeError::ShardTwice { .. }));
        let mut books = shards(&CLASS, 3);
        let stolen = books[0].document.students[0].clone();
        books[1].document.students.push(stolen.clone());
        let error = merge(&books).unwrap_err().to_string();
        assert!(error.contains(&format!("{} ({}) in `shard-0` and `shard-1`", stolen.name, stolen.id)), "{error}");
    }

    #[test]
    fn shards_of_different_classes_or_a_whole_class_gradebook_are_refused() {
        let mut books = shards(&CLASS, 3);
        books[2].document.shard.as_mut().unwrap().roster.push(enrolled("zed"));
        let error = merge(&books).unwrap_err().to_string();
        assert!(error.contains("the class") && error.contains("zed"), "{error}");
        let mut books = shards(&CLASS, 3);
        books[0].document.shard = None;
        assert_eq!(merge(&books).unwrap_err(), MergeError::NotAShard("shard-0".into()));
        assert_eq!(merge(&[]).unwrap_err(), MergeError::Nothing);
    }
}
