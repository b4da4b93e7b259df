//! The grader (under construction).
