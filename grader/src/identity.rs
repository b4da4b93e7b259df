//! Who a student is, for every file and table the grader writes about them: one [`StudentId`] per student.
//!
//! The identity is the LMS's own id where the class export has one (`canvas-USERID`, `moodle-PARTICIPANTID`),
//! else the student's entry's own file name, whole (`Ada (2).zip`, `alice`). It depends on that student's
//! entry alone, never on who else is in the class, so adding a student renames no one, and a stable hash
//! of it ([`StudentId::stable_hash`]) puts a student in the same shard whatever the class.
//!
//! Report files are named by [`StudentId::file_stem`]: the identity itself where it is a short, lowercase,
//! portable name (`canvas-101`, `alice`), otherwise a readable part of it and a hash of the whole (`ada_2_.zip~…`).
//! No plain stem holds a `~`, and every stem is lowercase, so two identities never share a report file: not
//! through case (a case-insensitive disk), not through a cut (names equal in their first 80 characters),
//! not through a later zip (`Ada (2).zip` beside a second `Ada`).

use std::fmt;

use corpus::rng::StableHash;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The longest identity kept as its own file stem, and the longest readable part of a hashed stem.
const STEM_CHARS: usize = 64;

/// One student's identity (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StudentId(String);

impl StudentId {
    /// A Canvas student, by the user id in the export's file names.
    pub fn canvas(user_id: &str) -> StudentId {
        StudentId(format!("canvas-{user_id}"))
    }

    /// A Moodle student, by the participant id in the export's folder or file names.
    pub fn moodle(participant_id: &str) -> StudentId {
        StudentId(format!("moodle-{participant_id}"))
    }

    /// A student known by their entry's own file name (a folder, a zip, an executable).
    pub fn entry(file_name: &str) -> StudentId {
        StudentId(file_name.to_string())
    }

    /// Whether a plain entry's file name reads as an LMS identity (`canvas-101`): such an entry would take
    /// an LMS student's identity, so it is not graded under that name.
    pub fn is_reserved(file_name: &str) -> bool {
        ["canvas-", "moodle-"].iter().any(|prefix| {
            file_name.strip_prefix(prefix).is_some_and(|id| !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()))
        })
    }

    /// The identity as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A 64-bit hash of the identity that no platform, build or run changes (FNV-1a over its UTF-8 bytes):
    /// what a shard of the class is chosen by.
    pub fn stable_hash(&self) -> u64 {
        StableHash::of(self.0.as_bytes())
    }

    /// The name of this student's files (`<stem>.txt`, `<stem>.json`): at most 82 characters, lowercase,
    /// of `[a-z0-9._~-]` only, never hidden, and different for every identity (module documentation).
    pub fn file_stem(&self) -> String {
        let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '_' | '-');
        let text = self.0.as_str();
        if !text.is_empty() && text.chars().count() <= STEM_CHARS && text.chars().all(plain) && !text.starts_with('.') {
            return text.to_string();
        }
        let mut readable = String::new();
        for c in text.chars().map(|c| c.to_ascii_lowercase()) {
            let c = if plain(c) && c != '_' { c } else { '_' };
            if !(c == '_' && readable.ends_with('_')) {
                readable.push(c);
            }
            if readable.len() >= STEM_CHARS {
                break;
            }
        }
        let readable = readable.trim_start_matches('.');
        format!("{readable}~{:016x}", self.stable_hash())
    }
}

impl fmt::Display for StudentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Serialize for StudentId {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for StudentId {
    /// An identity as a gradebook recorded it (`gradebook merge` reads them back).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(StudentId)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case(StudentId::canvas("101"), "canvas-101")]
    #[case(StudentId::moodle("12345"), "moodle-12345")]
    #[case(StudentId::entry("alice"), "alice")]
    #[case(StudentId::entry("submission_98765"), "submission_98765")]
    #[case(StudentId::entry("bob.zip"), "bob.zip")]
    fn a_short_lowercase_identity_is_its_own_stem(#[case] id: StudentId, #[case] stem: &str) {
        assert_eq!(id.file_stem(), stem);
    }

    #[test]
    fn names_that_case_cuts_or_a_later_zip_would_merge_get_stems_of_their_own() {
        let long = "x".repeat(80);
        let ids = [
            StudentId::entry("Ada"),
            StudentId::entry("ada"),
            StudentId::entry("ADA"),
            StudentId::entry("Ada (2)"),
            StudentId::entry("Ada (2).zip"),
            StudentId::moodle("101"),
            StudentId::moodle("102"),
            StudentId::entry(&format!("{long}a")),
            StudentId::entry(&format!("{long}b")),
            StudentId::entry("../etc"),
            StudentId::entry(".hidden"),
            StudentId::entry("=HYPERLINK(\"x\")"),
            StudentId::entry("line\rbreak"),
        ];
        let stems: BTreeSet<String> = ids.iter().map(|id| id.file_stem().to_lowercase()).collect();
        assert_eq!(stems.len(), ids.len(), "{stems:?}");
        assert_eq!(StudentId::entry("Ada (2).zip").file_stem(), "ada_2_.zip~d5606a79cba48b67");
        for stem in &stems {
            assert!(!stem.starts_with('.') && stem.len() <= STEM_CHARS + 18, "{stem}");
        }
    }

    #[rstest]
    #[case("canvas-101", true)]
    #[case("moodle-7", true)]
    #[case("canvas-", false)]
    #[case("canvas-1a", false)]
    #[case("alice", false)]
    fn plain_names_that_read_as_lms_identities_are_reserved(#[case] name: &str, #[case] reserved: bool) {
        assert_eq!(StudentId::is_reserved(name), reserved);
    }

    #[test]
    fn the_stable_hash_is_pinned() {
        // Shards are chosen by it: if this changes, every class is split differently.
        assert_eq!(StudentId::canvas("101").stable_hash(), 0xa85d_afb1_1152_aba4);
    }

    proptest! {
        /// Any two different identities have different stems, compared as a case-insensitive disk would.
        #[test]
        fn stems_are_distinct_and_portable(a in ".{0,100}", b in ".{0,100}") {
            prop_assume!(a != b);
            let (sa, sb) = (StudentId::entry(&a).file_stem(), StudentId::entry(&b).file_stem());
            prop_assert_ne!(sa.to_lowercase(), sb.to_lowercase());
            for stem in [&sa, &sb] {
                prop_assert!(stem.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "._~-".contains(c)));
                prop_assert!(!stem.is_empty() && !stem.starts_with('.'));
            }
        }
    }
}
