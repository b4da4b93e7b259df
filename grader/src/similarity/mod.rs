//! Code similarity across a class and against known solutions: evidence for a person to look at, never a
//! verdict. `grader batch` compares every pair of its submissions of one language, and each submission
//! against a corpus of earlier classes' or public solutions; the class overview ranks the pairs whose
//! score reaches a threshold and links a page per pair showing the shared code side by side
//! (`gradebook::overview`), and `similarity.csv` lists them (specs/similarity.md).
//!
//! The method is the field's (MOSS, Dolos):
//! 1. [`sources`]: the files the grader grades, read defensively (size caps, binary and link refusals).
//! 2. [`tokens`]: each file as a normalized token stream, one lexer per language: identifiers, numbers
//!    and literals each one token, comments and layout gone, so renaming changes nothing.
//! 3. [`winnow`]: every k-gram of tokens hashed, and winnowed (Schleimer, Wilkerson and Aiken 2003) into
//!    fingerprints: [`fingerprints::Fingerprints`], taken once per submission (and kept by a shard).
//! 4. [`compare`]: the starter code's fingerprints and those common to much of the class left out; an
//!    index of fingerprints finds the pairs worth comparing in full.
//! 5. [`fragments`]: a pair's matching fingerprints grown into fragments; its score is the share of the
//!    smaller submission's own fingerprints that its fragments cover.
//!
//! [`corpus`] reads a tree of known solutions (folders and zips); [`base`] the starter code.
//! [`Method::DEFAULT`] and [`DEFAULT_THRESHOLD`] were chosen on the test set in `fixtures/similarity/`
//! (disguised copies against independently written solutions; specs/similarity.md has the figures).

pub mod base;
pub mod compare;
pub mod corpus;
pub mod findings;
pub mod fingerprints;
pub mod fragments;
pub mod method;
pub mod sources;
#[cfg(test)]
mod testset;
pub mod tokens;
pub mod winnow;

pub use compare::{compare, Base, Comparison, Pair};
pub use fingerprints::Fingerprints;
pub use method::{Method, DEFAULT_THRESHOLD};
pub use tokens::Language;
