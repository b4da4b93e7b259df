//! Code similarity as `grader batch` and `grader gradebook merge` run it ([`crate::similarity`] is the
//! method): the options, each student's fingerprints taken where their submission is, the comparison of the
//! whole class, and its files: `similarity.csv` beside the gradebooks and a page per pair in `similarity/`,
//! apart from the students' reports (a pair's page shows two people's code).
//!
//! A class graded in one process compares every student it read, those whose reports were current and
//! kept included. A shard compares nothing: it keeps its students' fingerprints (and the options it was
//! given) in its gradebook, and the merge compares the whole class, so a class gives the same pairs,
//! pages and CSV however it was graded.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::gradebook::document::{ShardPart, ShardSimilarity, StudentPrints};
use crate::gradebook::merge::ShardBook;
use crate::gradebook::overview::pair;
use crate::gradebook::similarity::similarity_csv;
use crate::identity::StudentId;
use crate::intake::{Enrolled, Student};
use crate::output::write_atomically;
use crate::similarity::corpus::{self, Corpus};
use crate::similarity::findings::{page_name, Findings, Participant, Settings};
use crate::similarity::{base, sources, Base, Fingerprints, Method, DEFAULT_THRESHOLD};

/// The folder of the pair pages, beside the overview.
pub const PAGES: &str = "similarity";

/// The options of code similarity (`grader batch` and `grader gradebook merge` take them alike).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SimilarityArgs {
    /// Also compare every submission with these known solutions: any tree of earlier classes' or public
    /// solutions, one submission per folder, zips too.
    #[arg(long, value_name = "DIR")]
    pub similarity_corpus: Option<PathBuf>,
    /// The course's starter code, left out of every match (default: the starters `grader new` writes).
    #[arg(long, value_name = "DIR")]
    pub similarity_base: Option<PathBuf>,
    /// The score from which a pair is listed: the percentage of the smaller submission's own code in
    /// fragments the two share [default: 50].
    #[arg(long, value_name = "PERCENT")]
    pub similarity_threshold: Option<f64>,
    /// Compare no code: no Similarity section, no similarity.csv.
    #[arg(long, conflicts_with_all = ["similarity_corpus", "similarity_base", "similarity_threshold"])]
    pub no_similarity: bool,
}

impl SimilarityArgs {
    /// The comparison asked for, its paths checked and made absolute; `None` after `--no-similarity`.
    ///
    /// # Errors
    /// A threshold outside 0 to 100, a corpus that is neither a folder nor a zip, a base that is not a folder.
    pub fn settings(&self) -> Result<Option<Settings>> {
        if self.no_similarity {
            return Ok(None);
        }
        let threshold = self.similarity_threshold.unwrap_or(DEFAULT_THRESHOLD);
        if !(0.0..=100.0).contains(&threshold) {
            bail!("--similarity-threshold is a percentage from 0 to 100, not {threshold}");
        }
        let absolute = |path: &Path| std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        if let Some(corpus) = &self.similarity_corpus {
            if !(corpus.is_dir() || corpus.is_file()) {
                bail!(
                    "--similarity-corpus `{}` does not exist (it names a folder or a zip of known solutions)",
                    corpus.display()
                );
            }
        }
        if let Some(base) = self.similarity_base.as_ref().filter(|b| !b.is_dir()) {
            bail!("--similarity-base `{}` is not a folder (it names the course's starter code)", base.display());
        }
        Ok(Some(Settings {
            threshold,
            corpus: self.similarity_corpus.as_deref().map(|p| absolute(p).display().to_string()),
            base: self.similarity_base.as_deref().map(|p| absolute(p).display().to_string()),
        }))
    }

    /// Whether any option was given (the merge's own override the shards').
    fn given(&self) -> bool {
        self.no_similarity
            || self.similarity_corpus.is_some()
            || self.similarity_base.is_some()
            || self.similarity_threshold.is_some()
    }
}

/// The fingerprints of every student with a submission, in the class's order.
pub fn fingerprint(students: &[Student]) -> Vec<StudentPrints> {
    students
        .iter()
        .filter_map(|s| s.submission.as_ref().ok().map(|path| (s, path)))
        .map(|(s, path)| StudentPrints {
            id: s.id.clone(),
            prints: Fingerprints::of(sources::read(path), &Method::DEFAULT),
        })
        .collect()
}

/// What a comparison needs beyond the class: the base's fingerprints and the corpus, read.
pub struct Prepared {
    settings: Settings,
    base: Base,
    corpus: Corpus,
}

/// Reads the base and the corpus of `settings`, unpacking the corpus's zips into `scratch`.
///
/// # Errors
/// The base or the corpus cannot be read.
pub fn prepare(settings: Settings, scratch: &Path) -> Result<Prepared> {
    let method = Method::DEFAULT;
    let base = match &settings.base {
        Some(dir) => base::folder(Path::new(dir), &method).map_err(anyhow::Error::msg)?,
        None => base::starters(&method),
    };
    let corpus = match &settings.corpus {
        Some(path) => corpus::read(Path::new(path), &scratch.join("corpus"), &method)
            .map_err(anyhow::Error::msg)
            .context("failed to read --similarity-corpus")?,
        None => Corpus::default(),
    };
    Ok(Prepared { settings, base, corpus })
}

/// Compares the class's students (`students`, named by `roster`) with each other and with the corpus.
pub fn compare(prepared: Prepared, students: Vec<StudentPrints>, roster: &[Enrolled]) -> Findings {
    let names: BTreeMap<&StudentId, &str> = roster.iter().map(|e| (&e.id, e.name.as_str())).collect();
    let class = students
        .into_iter()
        .map(|s| Participant {
            key: s.id.to_string(),
            name: names.get(&s.id).map_or_else(|| s.id.to_string(), |n| n.to_string()),
            stem: s.id.file_stem(),
            identical: 0,
            prints: s.prints,
        })
        .collect();
    let corpus = prepared
        .corpus
        .entries
        .into_iter()
        .map(|e| Participant {
            stem: StudentId::entry(&format!("corpus/{}", e.name)).file_stem(),
            key: e.name.clone(),
            name: e.name,
            identical: e.identical,
            prints: e.prints,
        })
        .collect();
    Findings::of(prepared.settings, class, corpus, prepared.corpus.notes, &prepared.base, Method::DEFAULT)
}

/// What a shard keeps for the merge.
pub fn shard_part(settings: Option<Settings>, students: Vec<StudentPrints>) -> Option<ShardSimilarity> {
    settings.map(|settings| ShardSimilarity { settings, students })
}

/// The merge's comparison of the whole class: with the merge's own options if it was given any, else with
/// those the shards recorded (which must agree); `None` when similarity is off.
///
/// # Errors
/// Shards given different options (and the merge none of its own), or a base or corpus that cannot be read.
pub fn merged(args: &SimilarityArgs, books: &[ShardBook], roster: &[Enrolled]) -> Result<Option<Findings>> {
    let parts: Vec<(&str, Option<&ShardSimilarity>)> = books
        .iter()
        .map(|b| (b.from.as_str(), b.document.shard.as_ref().and_then(|p: &ShardPart| p.similarity.as_ref())))
        .collect();
    let settings = if args.given() {
        args.settings()?
    } else {
        let first = parts.first().and_then(|(_, p)| p.map(|p| &p.settings));
        if let Some((from, _)) = parts.iter().find(|(_, p)| p.map(|p| &p.settings) != first) {
            bail!(
                "the shards were given different similarity options (`{}` and `{from}` differ): give the merge its own \
                 (--similarity-corpus, --similarity-base, --similarity-threshold, or --no-similarity)",
                parts[0].0
            );
        }
        first.cloned()
    };
    let Some(settings) = settings else { return Ok(None) };
    if parts.iter().all(|(_, p)| p.is_none()) {
        eprintln!(
            "grader: the shards kept no fingerprints (they were graded with --no-similarity): no code is compared; \
             grade them again without it to compare the class"
        );
        return Ok(None);
    }
    let mut students: Vec<StudentPrints> =
        parts.iter().flat_map(|(_, p)| p.map_or(&[][..], |p| &p.students[..])).cloned().collect();
    let order: BTreeMap<&StudentId, usize> = roster.iter().enumerate().map(|(i, e)| (&e.id, i)).collect();
    students.sort_by_key(|s| order.get(&s.id).copied().unwrap_or(usize::MAX));
    let scratch =
        tempfile::Builder::new().prefix("grader-similarity").tempdir().context("failed to make a scratch folder")?;
    let prepared = prepare(settings, scratch.path())?;
    Ok(Some(compare(prepared, students, roster)))
}

/// Writes `similarity.csv` and the pair pages into `out` (removing the pages of an earlier run that are no
/// longer listed); with no findings, removes what an earlier run wrote.
///
/// # Errors
/// A file that cannot be written.
pub fn write(out: &Path, findings: Option<&Findings>) -> Result<()> {
    let pages_dir = out.join(PAGES);
    let mut written = std::collections::BTreeSet::new();
    if let Some(findings) = findings {
        let csv_path = out.join("similarity.csv");
        write_atomically(&csv_path, similarity_csv(findings))
            .with_context(|| format!("failed to write `{}`", csv_path.display()))?;
        for (pair, of_class, _) in findings.pairs().filter(|(_, _, page)| *page) {
            let name = page_name(&findings.class[pair.a], findings.other(pair, of_class));
            std::fs::create_dir_all(&pages_dir)
                .with_context(|| format!("failed to create `{}`", pages_dir.display()))?;
            let path = pages_dir.join(&name);
            write_atomically(&path, pair::page(findings, pair, of_class))
                .with_context(|| format!("failed to write `{}`", path.display()))?;
            written.insert(name);
        }
    } else {
        let _ = std::fs::remove_file(out.join("similarity.csv"));
    }
    // pages of an earlier run that this one does not list would pass for current
    if let Ok(entries) = std::fs::read_dir(&pages_dir) {
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".html") && name.contains('+') && !written.contains(&name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    let _ = std::fs::remove_dir(&pages_dir);
    Ok(())
}

/// One line for standard error: what was compared and how many pairs reach the threshold.
pub fn summary(findings: &Findings) -> String {
    let compared = findings.class.iter().filter(|p| !p.prints.prints.is_empty()).count();
    let corpus = if findings.settings.corpus.is_some() {
        format!(" and {} known solutions", findings.corpus.len())
    } else {
        String::new()
    };
    let count = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "grader: similarity: {compared} submissions compared with each other{corpus}; at or above {}%: {} in the \
         class, {} with a known solution (the overview's Similarity section, similarity.csv)",
        findings.settings.threshold,
        count(findings.comparison.class.len(), "pair", "pairs"),
        count(findings.comparison.corpus.len(), "pair", "pairs")
    )
}
