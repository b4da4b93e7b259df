//! How a command that failed says why: the error and each cause after it, once. Every user-facing error ends
//! up here (the CLI's last words, a batch worker's report of a run it could not start, a shard that could not
//! be read), so that a library error which words its source into its own message is not followed by that
//! source again.

/// What the grader says when a command fails: the error and each cause after it, as anyhow's `{:#}` would,
/// except a cause whose text the message already holds (a library error that words its source into its own
/// message, `failed to read policy file `p`: No such file or directory`, would say the OS error twice).
pub fn error_text(error: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in error.chain() {
        let said = cause.to_string();
        if text.contains(&said) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&said);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn an_error_says_each_cause_once() {
        let policy = crate::policy::Policy::load(Path::new("/nonexistent/policy.toml")).unwrap_err();
        let error = anyhow::Error::new(policy).context("cannot grade");
        let text = error_text(&error);
        assert_eq!(text.matches("(os error 2)").count(), 1, "{text}");
        assert!(text.starts_with("cannot grade: failed to read policy file `/nonexistent/policy.toml`: "), "{text}");
        let nested = anyhow::anyhow!("inner").context("middle").context("outer");
        assert_eq!(error_text(&nested), "outer: middle: inner");
    }
}
