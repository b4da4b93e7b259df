//! The `grader gradebook merge` command: joins the gradebooks of a class graded in shards (`grader batch
//! --shard K/N`, one per machine, Slurm array task or CI job) into the class's, as `grader batch` writes them
//! for a class graded in one process: every student's reports copied into the output directory, the
//! gradebooks, the LMS imports and the overview, all through the same writer ([`super::write`]).
//!
//! It checks the shards itself ([`crate::gradebook::merge`]): shards graded differently, or a student graded
//! twice, refuse the merge (exit 2, nothing written); a shard whose gradebook cannot be read is named, and its
//! students are in the class's gradebooks as not graded, with the shard to grade again (exit 1).
//!
//! Exit codes, as `grader batch`'s: 0 every student graded; 1 some student not graded (a shard missing
//! among them); 2 the merge was refused, or a shard lacked fixture files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};

use super::similarity::{self, SimilarityArgs};
use super::write::{self, LmsArgs};
use crate::batch::resume;
use crate::gradebook::merge::{merge, Merged, ShardBook, NAMED};
use crate::gradebook::Document;
use crate::output::write_atomically;
use crate::report::{visible, Format};
use crate::results::plural;

/// Arguments of `grader gradebook merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The shards: each the output directory of one `grader batch --shard K/N` (or its gradebook.json).
    #[arg(required = true, value_name = "DIR")]
    pub shards: Vec<PathBuf>,
    /// Where the class's reports, gradebooks and overview go (it may be a shard's directory, or their parent).
    #[arg(long, value_name = "DIR", default_value = "grades")]
    pub output_dir: PathBuf,
    /// Only problems are reported.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub lms: LmsArgs,
    /// As `grader batch`'s; without any, the options the shards were given.
    #[command(flatten)]
    #[allow(missing_docs)]
    pub similarity: SimilarityArgs,
}

/// Runs `grader gradebook merge`.
pub fn run(args: MergeArgs) -> Result<ExitCode> {
    args.lms.assignment()?;
    args.lms.moodle_worksheet()?;
    let mut books = Vec::new();
    let mut unread = Vec::new();
    for shard in &args.shards {
        match read(shard) {
            Ok(book) => books.push(book),
            Err(e) => {
                eprintln!("grader: {}", crate::error_text::error_text(&e));
                unread.push(shard.display().to_string());
            }
        }
    }
    if books.is_empty() {
        bail!("no shard's gradebook could be read, so there is no class to merge");
    }
    let merged = merge(&books).map_err(|e| anyhow::anyhow!("refused to merge: {e}"))?;
    let roster = books.first().and_then(|b| b.document.shard.as_ref()).map_or(&[][..], |p| &p.roster[..]);
    let findings = similarity::merged(&args.similarity, &books, roster)?;
    std::fs::create_dir_all(&args.output_dir)
        .with_context(|| format!("failed to create `{}`", args.output_dir.display()))?;
    for book in &books {
        copy_reports(book, &args.output_dir)?;
    }
    write::class_gradebooks(&args.output_dir, &merged.document, &args.lms, args.quiet, findings.as_ref())?;
    Ok(summarize(&args, &merged, books.len(), &unread))
}

/// A shard's gradebook from its directory (or the file itself).
fn read(shard: &Path) -> Result<ShardBook> {
    let file = if shard.is_dir() { shard.join("gradebook.json") } else { shard.to_path_buf() };
    let text = std::fs::read_to_string(&file).with_context(|| {
        format!("failed to read `{}` (did that shard's `grader batch --shard K/N` finish?)", file.display())
    })?;
    let document = Document::from_json(&text)
        .map_err(|e| anyhow::anyhow!("`{}` is not a gradebook this grader wrote: {e}", file.display()))?;
    Ok(ShardBook { from: shard.display().to_string(), document })
}

/// Copies each student's reports (and the stamp that lets a later `grader batch` into `out` resume
/// them) from the shard's directory into `out`, unless that is the same directory.
fn copy_reports(book: &ShardBook, out: &Path) -> Result<()> {
    let from = Path::new(&book.from);
    let from = if from.is_dir() { from.to_path_buf() } else { from.parent().unwrap_or(Path::new(".")).to_path_buf() };
    if same_dir(&from, out) {
        return Ok(());
    }
    let mut extensions: Vec<&str> =
        book.document.run.formats.iter().filter_map(|f| f.parse::<Format>().ok()).map(Format::extension).collect();
    extensions.dedup();
    for row in &book.document.students {
        for ext in &extensions {
            let name = format!("{}.{ext}", row.report);
            // a student not graded has reports when what they handed in was looked at, not when the grader failed
            if row.error.is_some() && !from.join(&name).is_file() {
                continue;
            }
            let bytes = std::fs::read(from.join(&name)).with_context(|| {
                format!(
                    "failed to read `{}`, a report of {}",
                    from.join(&name).display(),
                    visible::line(row.id.as_str())
                )
            })?;
            let target = out.join(&name);
            write_atomically(&target, bytes).with_context(|| format!("failed to write `{}`", target.display()))?;
        }
        // without its stamp a student is graded again by a later `grader batch` into `out`, no more
        if let Ok(stamp) = std::fs::read(resume::stamp_path(&from, &row.report)) {
            let target = resume::stamp_path(out, &row.report);
            let _ = target.parent().map(std::fs::create_dir_all);
            let _ = write_atomically(&target, stamp);
        }
    }
    Ok(())
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// Says what the merge gave and returns the exit code.
fn summarize(args: &MergeArgs, merged: &Merged, shards: usize, unread: &[String]) -> ExitCode {
    let rows = &merged.document.students;
    if !args.quiet {
        eprintln!(
            "grader: {} merged: {}; gradebook written to {}, the class overview to {}",
            plural(shards, "shard"),
            plural(rows.len(), "student"),
            args.output_dir.join("gradebook.csv").display(),
            args.output_dir.join("index.html").display()
        );
    }
    if !merged.missing.is_empty() {
        let names: Vec<String> = merged
            .missing
            .iter()
            .take(NAMED)
            .map(|(s, shard)| format!("{} [{}] (shard {shard})", visible::line(&s.name), visible::line(s.id.as_str())))
            .collect();
        let more = merged.missing.len().saturating_sub(NAMED);
        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
        eprintln!(
            "grader: {} {} in no merged shard's gradebook{}: {}{more}; grade their shards again \
             (`grader batch CLASS --shard K/N`) and merge again",
            plural(merged.missing.len(), "student"),
            if merged.missing.len() == 1 { "is" } else { "are" },
            if unread.is_empty() { String::new() } else { format!(" ({} could not be read)", unread.join(", ")) },
            names.join(", ")
        );
    }
    let lacking = &merged.document.run.missing_fixtures;
    if !lacking.is_empty() {
        eprintln!(
            "grader: the shards' fixture directory lacks {}, which the tests need: the grades are incomplete",
            lacking.join(", ")
        );
        return ExitCode::from(2);
    }
    super::ungraded_exit(rows)
}
