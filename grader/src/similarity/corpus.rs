//! A corpus of known solutions.
