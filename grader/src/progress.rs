//! Live progress on standard error: a bar on a terminal, one line per section otherwise, nothing with
//! `--quiet`. Progress is a separate stream: it never feeds back into results.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

use crate::catalog::Category;
use crate::grade::Progress;

/// Shows progress events.
pub struct ProgressDisplay {
    quiet: bool,
    bar: Option<ProgressBar>,
    section: Option<Category>,
}

impl ProgressDisplay {
    /// A display; `quiet` shows nothing.
    pub fn new(quiet: bool) -> ProgressDisplay {
        ProgressDisplay { quiet, bar: None, section: None }
    }

    /// Shows one event.
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
            Progress::Planned { total } => eprintln!("grader: running {total} tests"),
            Progress::Started { id, category, .. } => {
                if let Some(bar) = &self.bar {
                    bar.set_message(format!("{} · {id}", category.heading()));
                } else if self.section != Some(category) {
                    eprintln!("grader: {}", category.heading());
                }
                self.section = Some(category);
            }
            Progress::Finished { .. } => {
                if let Some(bar) = &self.bar {
                    bar.inc(1);
                }
            }
        }
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
