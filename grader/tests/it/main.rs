//! End-to-end tests: they drive the real `grader` binary over real submissions (the reference, the gallery
//! of known-good and known-buggy submissions, and misbehaving programs) and compare with recorded
//! expectations (`fixtures/submissions.toml`) and snapshots.

mod batch;
mod calibration;
mod formats;
mod gallery;
mod gradescope;
mod html;
mod instructor_errors;
mod lazy;
mod misbehaving;
mod reference;
mod sandbox;
mod sealed;
mod starter;
mod support;
