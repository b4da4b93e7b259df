//! The grader: runs a submission program over fixture puzzles and reports what Princeton's own autograder
//! checks. The flow is one way (see `ARCHITECTURE.md`): fixtures → [`catalog`] → [`plan`] → [`runner`]
//! (talks to the submission; [`judge`] gives verdicts) → [`results`] → [`report`] renderers.

pub mod batch;
pub mod build;
pub mod bundle;
pub mod catalog;
pub mod catalog_doc;
pub mod class;
pub mod cli;
pub mod clip;
pub mod error_text;
pub mod evidence;
pub mod grade;
pub mod gradebook;
pub mod identity;
pub mod intake;
pub mod judge;
pub mod output;
pub mod plan;
pub mod policy;
pub mod progress;
pub mod report;
pub mod results;
pub mod runner;
pub mod score;
pub mod shard;
pub mod similarity;
pub mod starter;
pub mod style;
pub mod triage;
