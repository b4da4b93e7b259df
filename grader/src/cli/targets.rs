//! Where each report of `grader grade` goes: `--format FMT=PATH` names the file beside the format, and
//! `--format FMT` alone goes to standard output.
//!
//! The older spelling, `--format FMT --output PATH`, keeps working where it cannot be misread. Two rules
//! could pair an `--output` with a format: the one the grader once followed (the Nth `--output` with the Nth
//! `--format`) and the one people read (the `--format` written just before it). Where both rules give the
//! same pairs the command means what it says and is obeyed; where they disagree
//! (`--format text --format gradescope --output gs.json`: the text report, by the old rule, into the file
//! meant for Gradescope) nothing is written and the error shows the command written with `FMT=PATH`.

use std::path::{Path, PathBuf};

use clap::ArgMatches;

use crate::report::Format;

/// One `--format` as written: a format, and the file after `=` if there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatSpec {
    #[allow(missing_docs)]
    pub format: Format,
    /// `PATH` of `FMT=PATH`.
    pub path: Option<PathBuf>,
}

impl std::str::FromStr for FormatSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<FormatSpec, String> {
        let (name, path) = match text.split_once('=') {
            Some((_, "")) => {
                return Err(format!("`{text}` names no file after `=` (write FMT=PATH, e.g. html=report.html)"))
            }
            Some((name, path)) => (name, Some(PathBuf::from(path))),
            None => (text, None),
        };
        Ok(FormatSpec { format: name.parse::<Format>()?, path })
    }
}

/// A report to write: its format, and its file (`None`: standard output).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    #[allow(missing_docs)]
    pub format: Format,
    #[allow(missing_docs)]
    pub path: Option<PathBuf>,
}

/// The reports `grader grade` asks for: `formats` and `outputs` as parsed, placed by where clap found each
/// among `grade`'s arguments.
///
/// # Errors
/// As [`targets`].
pub fn of_command(grade: &ArgMatches, formats: &[FormatSpec], outputs: &[PathBuf]) -> anyhow::Result<Vec<Target>> {
    let placed = |id: &str| -> Vec<usize> { grade.indices_of(id).map(Iterator::collect).unwrap_or_default() };
    let formats: Vec<(usize, FormatSpec)> = placed("format").into_iter().zip(formats.iter().cloned()).collect();
    let outputs: Vec<(usize, PathBuf)> = placed("output").into_iter().zip(outputs.iter().cloned()).collect();
    targets(&formats, &outputs).map_err(anyhow::Error::msg)
}

/// The reports a command line asks for. `formats` and `outputs` come with their positions among the
/// command's arguments (clap's indices), which say which `--format` an `--output` follows.
///
/// # Errors
/// An `--output` the two pairing rules read differently (module doc), more `--output`s than formats to
/// take them, or two reports aimed at one file; each message says how to write the command instead.
pub fn targets(formats: &[(usize, FormatSpec)], outputs: &[(usize, PathBuf)]) -> Result<Vec<Target>, String> {
    let mut formats: Vec<(usize, FormatSpec)> = formats.to_vec();
    if formats.is_empty() {
        // Alone, `--output FILE` has always meant the text report into FILE.
        let first = outputs.first().map_or(usize::MAX, |(at, _)| *at);
        formats.push((first.saturating_sub(1), FormatSpec { format: Format::Text, path: None }));
    }
    let open: Vec<usize> = (0..formats.len()).filter(|&i| formats[i].1.path.is_none()).collect();
    let mut taken: Vec<Option<PathBuf>> = formats.iter().map(|(_, spec)| spec.path.clone()).collect();
    for (k, (at, path)) in outputs.iter().enumerate() {
        let by_order = open.get(k).copied();
        let before = formats.iter().rposition(|(index, _)| index < at);
        if by_order.is_none() || by_order != before {
            return Err(ambiguous(&formats, outputs, k, by_order));
        }
        if let Some(i) = by_order {
            taken[i] = Some(path.clone());
        }
    }
    let targets: Vec<Target> =
        formats.iter().zip(taken).map(|((_, spec), path)| Target { format: spec.format, path }).collect();
    for (i, target) in targets.iter().enumerate() {
        let Some(path) = &target.path else { continue };
        if let Some(other) = targets[..i].iter().find(|t| t.path.as_ref() == Some(path)) {
            return Err(format!(
                "the {} and {} reports would both be written to `{}`: give each its own file",
                other.format,
                target.format,
                path.display()
            ));
        }
    }
    Ok(targets)
}

/// Checks, before anything is graded, that each report can be written where it is asked for: its folder
/// exists, it is not a folder itself, it is not inside the submission it grades (a report once replaced the
/// student's `Board.java`), and at most one report goes to standard output (two there run together, and
/// neither can be read by a program). A grade can take minutes: a path that cannot take its report is said
/// at once, not after the grade.
///
/// # Errors
/// The first target that cannot be written, with what to do.
pub fn check_writable(targets: &[Target], submission: &Path) -> Result<(), String> {
    let to_stdout: Vec<String> = targets.iter().filter(|t| t.path.is_none()).map(|t| t.format.to_string()).collect();
    if to_stdout.len() > 1 {
        return Err(format!(
            "the {} reports would all go to standard output, one after the other: give all but one a file \
             (--format FMT=PATH)",
            to_stdout.join(" and ")
        ));
    }
    let inside = std::fs::canonicalize(submission).ok();
    for target in targets {
        let Some(path) = &target.path else { continue };
        let folder = crate::output::folder_of(path);
        if !folder.is_dir() {
            return Err(format!(
                "the {} report's folder `{}` does not exist: create it, or write the report elsewhere",
                target.format,
                folder.display()
            ));
        }
        if path.is_dir() {
            return Err(format!(
                "`{}` is a folder: name the {} report's file (e.g. {}/report.{})",
                path.display(),
                target.format,
                path.display(),
                target.format.extension()
            ));
        }
        let written = std::fs::canonicalize(folder).ok().map(|dir| dir.join(path.file_name().unwrap_or_default()));
        if let (Some(written), Some(inside)) = (&written, &inside) {
            if written.starts_with(inside) {
                return Err(format!(
                    "the {} report `{}` would be written inside the submission it grades (`{}`): write it \
                     elsewhere, so that grading never changes what is graded",
                    target.format,
                    path.display(),
                    submission.display()
                ));
            }
        }
    }
    Ok(())
}

/// The error for the `k`-th `--output`, which the order rule gives to `by_order` (if any format is left for
/// it) and the adjacency rule to the `--format` just before it: the command as it should be written.
fn ambiguous(
    formats: &[(usize, FormatSpec)],
    outputs: &[(usize, PathBuf)],
    k: usize,
    by_order: Option<usize>,
) -> String {
    let (_, path) = &outputs[k];
    let rewritten = rewrite(formats, outputs);
    let old = match by_order {
        Some(i) => format!(
            "the old rule pairs the {} --output with the {} --format without a file (`{}`)",
            ordinal(k + 1),
            ordinal(k + 1),
            formats[i].1.format
        ),
        None => "no --format is left for it".to_string(),
    };
    format!(
        "`--output {}` is ambiguous: {old}, which is not the --format written just before it. Name each \
         report's file after its format instead: {rewritten}",
        path.display()
    )
}

/// The command's reports written as `--format FMT[=PATH]`, each `--output` given to the format before it.
fn rewrite(formats: &[(usize, FormatSpec)], outputs: &[(usize, PathBuf)]) -> String {
    let mut paths: Vec<Option<PathBuf>> = formats.iter().map(|(_, spec)| spec.path.clone()).collect();
    for (at, path) in outputs {
        // the format just before it, or for an `--output` written first, the next format without a file
        let before = formats.iter().rposition(|(index, _)| index < at);
        let after = || (0..formats.len()).find(|&i| formats[i].0 > *at && paths[i].is_none());
        if let Some(i) = before.or_else(after) {
            paths[i].get_or_insert_with(|| path.clone());
        }
    }
    let parts: Vec<String> = formats
        .iter()
        .zip(&paths)
        .map(|((_, spec), path)| match path {
            Some(path) => format!("--format {}={}", spec.format, path.display()),
            None => format!("--format {}", spec.format),
        })
        .collect();
    parts.join(" ")
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The targets of a command line written as words (`--format`, `FMT[=PATH]`, `--output`, `PATH`), the
    /// words' positions standing in for clap's indices.
    fn of(words: &[&str]) -> Result<Vec<(String, Option<String>)>, String> {
        let mut formats = Vec::new();
        let mut outputs = Vec::new();
        for (at, pair) in words.chunks(2).enumerate() {
            match pair {
                ["--format", value] => formats.push((2 * at + 1, value.parse::<FormatSpec>()?)),
                ["--output", path] => outputs.push((2 * at + 1, PathBuf::from(path))),
                _ => panic!("words come in pairs: {pair:?}"),
            }
        }
        let targets = targets(&formats, &outputs)?;
        Ok(targets.into_iter().map(|t| (t.format.to_string(), t.path.map(|p| p.display().to_string()))).collect())
    }

    fn pair(format: &str, path: Option<&str>) -> (String, Option<String>) {
        (format.to_string(), path.map(str::to_string))
    }

    #[test]
    fn each_format_names_its_own_file() {
        let got = of(&["--format", "text", "--format", "gradescope=gs.json", "--format", "html=r.html"]).unwrap();
        assert_eq!(got, [pair("text", None), pair("gradescope", Some("gs.json")), pair("html", Some("r.html"))]);
    }

    #[test]
    fn the_old_pairing_works_where_both_rules_agree() {
        assert_eq!(of(&[]).unwrap(), [pair("text", None)]);
        assert_eq!(of(&["--output", "r.txt"]).unwrap(), [pair("text", Some("r.txt"))]);
        let ci =
            ["--format", "junit", "--output", "g.xml", "--format", "markdown", "--output", "g.md", "--format", "text"];
        assert_eq!(
            of(&ci).unwrap(),
            [pair("junit", Some("g.xml")), pair("markdown", Some("g.md")), pair("text", None)]
        );
        let mixed = ["--format", "html=r.html", "--format", "json", "--output", "r.json"];
        assert_eq!(of(&mixed).unwrap(), [pair("html", Some("r.html")), pair("json", Some("r.json"))]);
    }

    #[test]
    fn an_output_the_rules_read_differently_is_refused_with_the_command_to_write() {
        let error = of(&["--format", "text", "--format", "gradescope", "--output", "gs.json"]).unwrap_err();
        assert!(
            error.starts_with("`--output gs.json` is ambiguous: the old rule pairs the 1st --output with the 1st"),
            "{error}"
        );
        assert!(error.ends_with("--format text --format gradescope=gs.json"), "{error}");
        let error = of(&["--output", "a.txt", "--format", "json"]).unwrap_err();
        assert!(error.contains("ambiguous") && error.ends_with("--format json=a.txt"), "{error}");
        let error = of(&["--format", "json=a.json", "--output", "b.json"]).unwrap_err();
        assert!(error.contains("no --format is left for it"), "{error}");
        let error = of(&["--output", "a", "--output", "b"]).unwrap_err();
        assert!(error.contains("no --format is left"), "{error}");
    }

    #[test]
    fn two_reports_for_one_file_are_refused() {
        let error = of(&["--format", "json=r", "--format", "html=r"]).unwrap_err();
        assert_eq!(error, "the json and html reports would both be written to `r`: give each its own file");
    }

    #[test]
    fn a_format_spec_names_a_known_format_and_a_file() {
        assert!("pdf=x".parse::<FormatSpec>().unwrap_err().contains("unknown format `pdf`"));
        assert!("html=".parse::<FormatSpec>().unwrap_err().contains("names no file"));
        let spec: FormatSpec = "html=a=b.html".parse().unwrap();
        assert_eq!(spec.path, Some(PathBuf::from("a=b.html")));
    }
}
