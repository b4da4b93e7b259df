//! Live progress on standard error: a bar on a terminal, one line per section otherwise, nothing with
//! `--quiet`. Progress is a separate stream: it never feeds back into results.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

use crate::catalog::Category;
use crate::grade::Progress;
use crate::results::Status;

/// The display of one grading's progress events, owned by the CLI; it reads events and writes only to
/// standard error.
pub struct ProgressDisplay {
    quiet: bool,
    bar: Option<ProgressBar>,
    section: Option<Category>,
    /// Tests passed and run in the current section, printed when it ends (the early summary).
    tally: (usize, usize),
}

impl ProgressDisplay {
    /// A display; `quiet` shows nothing.
    pub fn new(quiet: bool) -> ProgressDisplay {
        ProgressDisplay { quiet, bar: None, section: None, tally: (0, 0) }
    }

    /// Shows one event: a line or a bar step, and a section's tally when the next section starts.
    pub fn show(&mut self, event: Progress<'_>) {
        if self.quiet {
            return;
        }
        match event {
            Progress::Building => eprintln!("grader: building the submission"),
            Progress::Planned { total } if std::io::stderr().is_terminal() => {
                let bar = ProgressBar::new(total as u64);
                let style = ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar());
                bar.set_style(style);
                self.bar = Some(bar);
            }
            Progress::Planned { total } => eprintln!("grader: running {}", crate::results::plural(total, "test")),
            Progress::Started { id, category, .. } => {
                if self.section != Some(category) {
                    self.end_section();
                    if self.bar.is_none() {
                        eprintln!("grader: {}", category.heading());
                    }
                }
                if let Some(bar) = &self.bar {
                    bar.set_message(format!("{} · {id}", category.heading()));
                }
                self.section = Some(category);
            }
            Progress::Finished { status, .. } => {
                self.tally.1 += usize::from(status != Status::NotApplicable);
                self.tally.0 += usize::from(status == Status::Passed);
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                }
            }
        }
    }

    /// Prints how the section that just ended went, so a student sees each section's verdicts before the grade
    /// finishes (sections run in `grade::run`'s order: the Board's before the timing tables, the Solver's
    /// correctness after them).
    fn end_section(&mut self) {
        if let (Some(section), (passed, run)) = (self.section, self.tally) {
            if run > 0 {
                let line = format!("grader: {}: {passed}/{run} passed", section.heading());
                match &self.bar {
                    Some(bar) => bar.println(line),
                    None => eprintln!("{line}"),
                }
            }
        }
        self.tally = (0, 0);
    }

    /// Ends the last section and clears the bar.
    pub fn finish(&mut self) {
        if !self.quiet {
            self.end_section();
        }
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
