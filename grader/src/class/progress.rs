//! How a class is going, on standard error while `grader batch` grades: a count and an estimate of the time
//! left, on one line redrawn in place on a terminal, one line per student otherwise (a log, a CI job), nothing
//! with `--quiet`. Until a student is done the time left is the CPU estimate's ([`super::estimate`]); then it
//! is measured ([`time_left`]): the mean time a student took, from the start of their grading to its end,
//! for those still waiting and what is left of it for those being graded, over the workers. (Dividing the
//! time since the start by the students done instead counts the first `--jobs` students, graded side by side,
//! as if one followed the other: with two workers the first figure was twice the truth, and for a Python class,
//! whose students take minutes each, it stayed far off for a long time.) Progress never feeds back into a
//! grade.

use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::batch::Progress;
use crate::identity::StudentId;
use crate::report::visible;

/// The display of one class's grading.
pub struct ClassProgress {
    quiet: bool,
    /// The wall time the estimate gives the students to grade, if there is one.
    estimate: Option<Duration>,
    /// How many students are graded at once (`--jobs`).
    workers: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    total: usize,
    settled: usize,
    queued: usize,
    done: usize,
    not_graded: usize,
    /// When each student being graded now started.
    grading: HashMap<StudentId, Instant>,
    /// The time the students done took, each from their start to their end, in all.
    took: Duration,
    bar: Option<ProgressBar>,
}

impl ClassProgress {
    /// A display for a class of `total` students graded `workers` at a time, with the estimated wall time of
    /// grading them all (the students whose reports are current take their share off it).
    pub fn new(total: usize, estimate: Option<Duration>, workers: usize, quiet: bool) -> ClassProgress {
        let workers = workers.max(1);
        ClassProgress { quiet, estimate, workers, state: Mutex::new(State { total, ..State::default() }) }
    }

    /// Shows one event of the class.
    pub fn show(&self, event: Progress<'_>) {
        if self.quiet {
            return;
        }
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            Progress::Queued { settled, queued } => {
                state.settled = settled;
                state.queued = queued;
                if settled > 0 {
                    let (who, need) = if settled == 1 { ("student", "needs") } else { ("students", "need") };
                    eprintln!("grader: {settled} {who} {need} no grading now (reports current, or nothing to grade)");
                }
                if std::io::stderr().is_terminal() && queued > 0 {
                    let bar = ProgressBar::with_draw_target(Some(state.total as u64), ProgressDrawTarget::stderr());
                    let style = ProgressStyle::with_template("grader: {pos}/{len} students {msg}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar());
                    bar.set_style(style);
                    bar.set_position(settled as u64);
                    bar.set_message(self.left(&state));
                    state.bar = Some(bar);
                }
            }
            Progress::Started(id) => {
                state.grading.insert(id.clone(), Instant::now());
            }
            Progress::Done(row) => {
                state.done += 1;
                if let Some(started) = state.grading.remove(&row.id) {
                    state.took += started.elapsed();
                }
                state.not_graded += usize::from(row.final_percent().is_none());
                let left = self.left(&state);
                let count = state.settled + state.done;
                match &state.bar {
                    Some(bar) => {
                        bar.set_position(count as u64);
                        bar.set_message(left);
                    }
                    None => {
                        let score = match (&row.error, row.score) {
                            (None, Some(score)) => format!("{score:.2}"),
                            _ => "not graded".into(),
                        };
                        let (name, total) = (visible::line(&row.name), state.total);
                        eprintln!("grader: {count}/{total} {name}: {score}{left}");
                    }
                }
            }
        }
    }

    /// The tail of a progress line: who could not be graded, and the time left.
    fn left(&self, state: &State) -> String {
        let mut tail = String::new();
        if state.not_graded > 0 {
            tail.push_str(&format!(" · {} not graded", state.not_graded));
        }
        let remaining = state.queued.saturating_sub(state.done);
        let left = match state.done {
            _ if remaining == 0 => None,
            0 => self.estimate.map(|e| (e.mul_f64(remaining as f64 / state.total.max(1) as f64), " (estimated)")),
            done => {
                let mean = state.took / done as u32;
                let ages: Vec<Duration> = state.grading.values().map(|s| s.elapsed()).collect();
                let waiting = remaining.saturating_sub(ages.len());
                Some((time_left(mean, &ages, waiting, self.workers), ""))
            }
        };
        if let Some((time, how)) = left {
            tail.push_str(&format!(" · about {} left{how}", duration(time)));
        }
        tail
    }

    /// Clears the line of a terminal.
    pub fn finish(&self) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bar) = state.bar.take() {
            bar.finish_and_clear();
        }
    }
}

/// The wall time left to grade `waiting` students not yet started and those being graded now (`ages`: how
/// long each has been graded), `workers` at a time, when a student takes `mean`: each started one needs what
/// is left of the mean (nothing once past it), each waiting one the whole mean, and the workers share it, as
/// many of them as there are students left (one student is not graded faster by an idle worker).
pub fn time_left(mean: Duration, ages: &[Duration], waiting: usize, workers: usize) -> Duration {
    let started: Duration = ages.iter().map(|&age| mean.saturating_sub(age)).sum();
    let sharing = workers.min(ages.len() + waiting).max(1);
    (started + mean * waiting as u32) / sharing as u32
}

/// A duration as people say it: `40 s`, `12 min`, `3 h 05 min`.
pub fn duration(time: Duration) -> String {
    let seconds = time.as_secs();
    let minutes = (seconds + 30) / 60;
    match seconds {
        0..=89 => format!("{seconds} s"),
        90..=5399 => format!("{minutes} min"),
        _ => format!("{} h {:02} min", minutes / 60, minutes % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_left_counts_students_graded_side_by_side_once() {
        let s = Duration::from_secs;
        // ten students of 100 s on two workers: when the first is done, the second is about done too, and
        // eight remain, four rounds of two: 400 s (time since start / students done would say 900 s)
        assert_eq!(time_left(s(100), &[s(100)], 8, 2), s(400));
        // halfway through the second round: 50 s of it, then three rounds
        assert_eq!(time_left(s(100), &[s(50), s(50)], 6, 2), s(350));
        // a student slower than the mean has nothing left of it; one worker adds them up
        assert_eq!(time_left(s(100), &[s(150)], 2, 1), s(200));
        assert_eq!(time_left(s(30), &[], 0, 4), s(0));
        // the last student, 40 s in, with two workers: the other worker is idle, 60 s are left, not 30
        assert_eq!(time_left(s(100), &[s(40)], 0, 2), s(60));
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(Duration::from_secs(40)), "40 s");
        assert_eq!(duration(Duration::from_secs(700)), "12 min");
        assert_eq!(duration(Duration::from_secs(3 * 3600 + 5 * 60)), "3 h 05 min");
        assert_eq!(duration(Duration::from_secs(4 * 3600 - 10)), "4 h 00 min");
    }
}
