//! `gradebook.json`, the gradebook a program reads: what the class was graded under ([`RunInfo`]), every
//! student's row, the entries that are no student's, and the class's figures ([`Overview`]).
//!
//! A shard's gradebook ([`ShardPart`]) holds its own students' rows and the whole class's roster, so that
//! `gradebook merge` can name a student that no shard graded, or that two did; it has no overview (the merge
//! writes the class's). Everything here reads back as it was written (the merge reads shards' gradebooks).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::overview::{html::RunLine, Overview};
use crate::batch::Row;
use crate::identity::StudentId;
use crate::intake::{Enrolled, Skipped};
use crate::shard::Shard;
use crate::similarity::{findings::Settings, Fingerprints};

/// What a run of the class was graded under: two gradebooks of one class can be joined only when all of it
/// is equal (`gradebook merge` says which part is not).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The grader's version.
    pub grader_version: String,
    /// A hash of the grader's executable (hex): equal hashes, the same grader.
    pub grader_build: String,
    #[allow(missing_docs)]
    pub seed: u64,
    /// `--only`, as given.
    pub only: Vec<String>,
    /// `--skip-bad-fixtures`.
    pub skip_bad_fixtures: bool,
    /// The report formats written per student.
    pub formats: Vec<String>,
    /// The effective policy (defaults filled in), as TOML.
    pub policy: String,
    /// Every fixture file, by its path in the fixture directory, with a hash of its bytes (hex).
    pub fixtures: BTreeMap<String, String>,
    /// Fixture files the tests needed and the fixture directory lacks (`--skip-bad-fixtures`): the grades
    /// are incomplete.
    pub missing_fixtures: Vec<String>,
    /// The hash (hex) of the grader, the policy, the seed, `--only`, the formats and the fixtures together:
    /// two runs with the same hash graded everyone the same way.
    pub run_key: String,
}

impl RunInfo {
    /// What the class overview says of the run.
    pub fn line(&self) -> RunLine<'_> {
        RunLine {
            seed: self.seed,
            grader_version: &self.grader_version,
            only: &self.only,
            formats: &self.formats,
            missing_fixtures: &self.missing_fixtures,
            partial: None,
            withheld_imports: &[],
        }
    }
}

/// What makes a gradebook a shard's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardPart {
    /// Which shard (`--shard K/N`).
    #[serde(flatten)]
    pub shard: Shard,
    /// Every student the class names, graded in this shard or another, in the class's order.
    pub roster: Vec<Enrolled>,
    /// Its students' fingerprints and the similarity options it was given, for the merge to compare the
    /// whole class (absent after `--no-similarity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similarity: Option<ShardSimilarity>,
}

/// What a shard keeps of its students for code similarity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardSimilarity {
    /// The options the shard was given (the merge compares with them unless told otherwise).
    pub settings: Settings,
    /// Each of its students with a submission: their fingerprints (with their files' text, which the pair
    /// pages show), in the class's order.
    pub students: Vec<StudentPrints>,
}

/// One student's fingerprints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StudentPrints {
    #[allow(missing_docs)]
    pub id: StudentId,
    #[allow(missing_docs)]
    pub prints: Fingerprints,
}

/// `gradebook.json` (specs/gradebooks.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    #[allow(missing_docs)]
    pub run: RunInfo,
    /// Present in a shard's gradebook only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardPart>,
    /// One row per student graded here, in the class's order.
    pub students: Vec<Row>,
    /// Entries that are no student's, with why, sorted.
    pub skipped: Vec<Skipped>,
    /// The class's figures (absent in a shard's gradebook).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overview: Option<Overview>,
}

impl Document {
    /// The gradebook as JSON, pretty-printed, ending with a newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// A gradebook read back.
    ///
    /// # Errors
    /// Text that is not a gradebook this grader writes, with serde's reason.
    pub fn from_json(text: &str) -> Result<Document, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}
