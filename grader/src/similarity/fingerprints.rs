//! A submission's fingerprints, what a comparison needs of it: its language, its files' text (which the
//! pair pages show), every file's winnowed fingerprints ([`super::winnow`]) and the notes of what was left
//! out. Taken once per submission where the submission is (a shard keeps its students' in its gradebook),
//! compared wherever the class comes together.
//!
//! A file of one token repeated, or of very few, gets a note: it has fingerprints, but nearly all of them
//! are one, which matches little once repeats are capped ([`super::Method::max_repeats`]).

use serde::{Deserialize, Serialize};

use super::method::Method;
use super::sources::{SourceFile, Sources};
use super::tokens::{tokens, Language};
use super::winnow::{winnow, Print};

/// The most tokens of one submission fingerprinted (a long solution has about 3,000).
pub const MAX_TOKENS: usize = 40_000;

/// One submission's fingerprints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprints {
    /// Its language; none for an executable or a folder without sources.
    pub language: Option<Language>,
    /// Its files as compared.
    pub files: Vec<SourceFile>,
    /// Every file's fingerprints, file by file, in order of position.
    #[serde(with = "packed")]
    pub prints: Vec<Print>,
    /// What was cut or left out, and why.
    pub notes: Vec<String>,
}

impl Fingerprints {
    /// The fingerprints of `sources` under `method`.
    pub fn of(sources: Sources, method: &Method) -> Fingerprints {
        let Sources { language, files, mut notes } = sources;
        let mut prints = Vec::new();
        if let Some(language) = language {
            let mut budget = MAX_TOKENS;
            let mut longest = 0;
            for (index, file) in files.iter().enumerate() {
                let mut stream = tokens(language, &file.text);
                longest = longest.max(stream.len());
                if stream.len() > budget {
                    notes.push(format!(
                        "{}: only its first {budget} tokens are compared (a submission's first {MAX_TOKENS} are)",
                        file.name
                    ));
                    stream.truncate(budget);
                }
                budget -= stream.len();
                let file_prints = winnow(&stream, method.k, method.w, index as u16);
                if let Some(note) = repetitive(&file_prints, stream.len()) {
                    notes.push(format!("{}: {note}", file.name));
                }
                prints.extend(file_prints);
            }
            if prints.is_empty() && !files.is_empty() {
                notes.push(format!(
                    "nothing to compare: no file has the {} tokens a fingerprint needs (the longest has {longest})",
                    method.k
                ));
            }
        }
        Fingerprints { language, files, prints, notes }
    }
}

/// A note for a file whose fingerprints are nearly all one (a token repeated), when it is one.
fn repetitive(prints: &[Print], tokens: usize) -> Option<String> {
    if prints.len() < 50 {
        return None;
    }
    let mut hashes: Vec<u64> = prints.iter().map(|p| p.hash).collect();
    hashes.sort_unstable();
    hashes.dedup();
    (hashes.len() * 10 < prints.len()).then(|| {
        format!(
            "{tokens} tokens that repeat the same few (fingerprints: {} distinct of {}): compared, but it can match little",
            hashes.len(),
            prints.len()
        )
    })
}

/// Fingerprints in `gradebook.json` as one string, `hash:file:at:first:last` each (the hash in hex),
/// separated by spaces: a submission's few hundred stay one line of a pretty-printed gradebook.
mod packed {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Print;

    pub fn serialize<S: Serializer>(prints: &[Print], serializer: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(prints.len() * 32);
        for (i, p) in prints.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(&format!("{:016x}:{}:{}:{}:{}", p.hash, p.file, p.at, p.first_line, p.last_line));
        }
        serializer.serialize_str(&text)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Print>, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.split_ascii_whitespace()
            .map(|record| {
                let bad =
                    || serde::de::Error::custom(format!("`{record}` is not a fingerprint (hash:file:at:first:last)"));
                let fields: Vec<&str> = record.split(':').collect();
                let [hash, file, at, first, last] = fields[..] else { return Err(bad()) };
                Ok(Print {
                    hash: u64::from_str_radix(hash, 16).map_err(|_| bad())?,
                    file: file.parse().map_err(|_| bad())?,
                    at: at.parse().map_err(|_| bad())?,
                    first_line: first.parse().map_err(|_| bad())?,
                    last_line: last.parse().map_err(|_| bad())?,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn java(files: &[(&str, &str)]) -> Sources {
        Sources {
            language: Some(Language::Java),
            files: files.iter().map(|(n, t)| SourceFile { name: n.to_string(), text: t.to_string() }).collect(),
            notes: vec![],
        }
    }

    #[test]
    fn fingerprints_read_back_as_written() {
        let body = "int f(int a) { int s = 0; for (int i = 0; i < a; i++) { s += i * i; } return s; }";
        let prints =
            Fingerprints::of(java(&[("Board.java", body), ("Solver.java", &body.repeat(3))]), &Method::DEFAULT);
        assert!(prints.prints.iter().any(|p| p.file == 1) && prints.notes.is_empty(), "{prints:?}");
        let json = serde_json::to_string_pretty(&prints).unwrap();
        assert_eq!(json.lines().count(), 15, "the fingerprints are one line:\n{json}");
        assert_eq!(serde_json::from_str::<Fingerprints>(&json).unwrap(), prints);
        let broken = json.replace(":0:", ":x:");
        assert!(serde_json::from_str::<Fingerprints>(&broken)
            .unwrap_err()
            .to_string()
            .contains("is not a fingerprint"));
    }

    #[test]
    fn short_and_repetitive_files_are_noted() {
        let short = Fingerprints::of(java(&[("Board.java", "class Board { }")]), &Method::DEFAULT);
        assert!(short.prints.is_empty());
        assert_eq!(
            short.notes,
            [format!(
                "nothing to compare: no file has the {} tokens a fingerprint needs (the longest has 4)",
                Method::DEFAULT.k
            )]
        );
        let repeated = Fingerprints::of(java(&[("Solver.java", &";".repeat(100_000))]), &Method::DEFAULT);
        assert_eq!(repeated.notes.len(), 2, "{:?}", repeated.notes);
        assert!(repeated.notes[0].starts_with("Solver.java: only its first 40000 tokens are compared"));
        assert!(repeated.notes[1].contains("40000 tokens that repeat the same few (fingerprints: 1 distinct of"));
    }
}
