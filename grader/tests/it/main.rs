//! End-to-end tests: they drive the real `grader` binary over real submissions (the reference, the gallery
//! of known-good and known-buggy submissions, and misbehaving programs) and compare with recorded
//! expectations (`fixtures/submissions.toml`) and snapshots.

mod batch;
mod bounds;
mod calibration;
mod call_sites;
mod facts;
mod forging;
mod forging_python;
mod formats;
mod gallery;
mod gallery_default;
mod gradescope;
mod html;
mod instructor_errors;
mod lazy;
mod lms;
mod lone;
mod memory;
mod misbehaving;
mod overview;
mod reference;
mod rust_crates;
mod sandbox;
mod sealed;
mod shard;
mod similarity;
mod slurm;
mod staged;
mod stalls;
mod starter;
mod support;
mod transcripts;
