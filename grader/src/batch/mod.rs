//! Grading a whole class: every student [`crate::intake`] found, a few at a time, each in a grader process
//! of its own, one report per student and a gradebook row each.
//!
//! Each of `--jobs` worker processes ([`worker`], started and watched by `child`) plans the tests once and
//! grades one student at a time; whatever one student's grading does to its process (a panic of the
//! grader's own, an out-of-memory kill, a crash) ends that process only: the student's row says how it
//! ended, a fresh worker takes the next student, and every other student is graded. A student whose reports
//! are current is not graded again ([`resume`]).
//!
//! The tests depend on the fixtures, the seed, the policy and `--only`, never on the student, so every
//! worker plans the same tests and every student is asked exactly the same questions. Verdicts rest on
//! counts, not times, so grading in parallel gives the same grades as grading serially.

mod child;
pub mod resume;
pub mod worker;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::identity::StudentId;
use crate::intake::{Enrolled, Lms, Student};
use crate::results::Partial;
use child::{StartError, Worker};
use worker::{Grade, Job, Reply, Settings};

/// One gradebook row: who the student is, and their grade or why they have none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// Their identity.
    pub id: StudentId,
    /// Their name as the export gives it.
    pub name: String,
    /// The stem of their report files (`<report>.txt`, `<report>.json`…).
    pub report: String,
    /// What the LMS export says about them.
    pub lms: Option<Lms>,
    /// Whether the LMS marked them late, where it says.
    pub late: Option<bool>,
    /// Aggregate score, or `None` when the grader could not grade them.
    pub score: Option<f64>,
    /// The most the score could be under the policy and `--only`.
    pub max: Option<f64>,
    /// The score as a percentage of that most.
    pub percent: Option<f64>,
    /// Points per category, in catalog order (`compile`, `api`, `board`, …); an object keyed by name in JSON.
    #[serde(serialize_with = "as_object", deserialize_with = "from_object")]
    pub categories: Vec<(String, f64)>,
    /// The most each category could give them, as [`Row::categories`].
    #[serde(serialize_with = "as_object", deserialize_with = "from_object")]
    pub category_max: Vec<(String, f64)>,
    /// Ids of tests that failed or errored.
    pub failed: Vec<String>,
    /// Their submission's language, when graded.
    pub language: Option<String>,
    /// Whether their submission built, when graded.
    pub compiled: Option<bool>,
    /// The Board methods fix-first found broken in their submission, in fixing order.
    pub root_causes: Vec<String>,
    /// The first line of their report's fix-first list, if it has one.
    #[serde(default)]
    pub fix_first: Option<String>,
    /// Why the grader could not grade them (or write their reports), if so.
    pub error: Option<String>,
    /// Set when `--only` left tests out: the score is over the tests run, not the assignment's grade.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partial: Option<Partial>,
    /// Set when the student has no final grade by the grader's fault (the machine stalled a test twice in a
    /// row): `error` says so, and the batch exits 2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub grader_problem: bool,
}

impl Row {
    fn of(student: &Student, grade: Option<Grade>, error: Option<String>) -> Row {
        Row::graded(&student.enrolled(), grade, error)
    }

    /// The row of a student the class names, graded or not (then `error` says why).
    pub fn graded(student: &Enrolled, grade: Option<Grade>, error: Option<String>) -> Row {
        let grade = grade.as_ref();
        Row {
            id: student.id.clone(),
            name: student.name.clone(),
            report: student.id.file_stem(),
            lms: student.lms.clone(),
            late: student.late,
            score: grade.map(|g| g.score),
            max: grade.map(|g| g.max),
            percent: grade.map(Grade::percent),
            categories: grade.map(|g| g.categories.clone()).unwrap_or_default(),
            category_max: grade.map(|g| g.category_max.clone()).unwrap_or_default(),
            failed: grade.map(|g| g.failed.clone()).unwrap_or_default(),
            language: grade.map(|g| g.language.clone()),
            compiled: grade.map(|g| g.compiled),
            root_causes: grade.map(|g| g.root_causes.clone()).unwrap_or_default(),
            fix_first: grade.and_then(|g| g.fix_first.clone()),
            error,
            partial: grade.and_then(|g| g.partial.clone()),
            grader_problem: grade.is_some_and(|g| g.grader_problem),
        }
    }

    /// The final grade as a percentage: `None` when the student has none, that is when they could not be
    /// graded or their row has an error (`error` is why: what was handed in is not a submission, the
    /// grader failed, …), whatever points the row holds. Every LMS file and the overview go by it.
    pub fn final_percent(&self) -> Option<f64> {
        self.percent.filter(|_| self.error.is_none())
    }

    /// The final grade on an LMS's scale: the percentage of `max_grade`, or `None` when there is none
    /// ([`Row::final_percent`]).
    pub fn scaled(&self, max_grade: f64) -> Option<f64> {
        self.final_percent().map(|p| p * max_grade / 100.0)
    }
}

/// The categories as a JSON object in catalog order (`{"compile": 5.0, "api": 5.0, …}`).
fn as_object<S: Serializer>(categories: &[(String, f64)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(categories.iter().map(|(name, points)| (name, points)))
}

/// The categories back from that object, in its order.
fn from_object<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<(String, f64)>, D::Error> {
    struct InOrder;
    impl<'de> serde::de::Visitor<'de> for InOrder {
        type Value = Vec<(String, f64)>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object of points by category")
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut categories = Vec::new();
            while let Some(entry) = map.next_entry()? {
                categories.push(entry);
            }
            Ok(categories)
        }
    }
    deserializer.deserialize_map(InOrder)
}

/// A graded class.
#[derive(Debug)]
pub struct Graded {
    /// One row per student, in the class's order.
    pub rows: Vec<Row>,
    /// Fixture files the tests needed and the fixture directory lacks (`--skip-bad-fixtures`).
    pub missing_fixtures: Vec<String>,
    /// Students whose current reports were kept.
    pub resumed: usize,
    /// The part of every student's resume key that the whole class shares, in hex ([`resume::run_key`]).
    pub run_key: String,
}

/// Why a class could not be graded at all.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The tests could not be planned (the fixtures, the policy).
    #[error("{0}")]
    Plan(String),
    /// The settings could not be written for the workers.
    #[error("failed to write the workers' settings `{}`: {source}", path.display())]
    #[allow(missing_docs)]
    Settings { path: PathBuf, source: std::io::Error },
}

/// How the class is graded.
pub struct Run<'a> {
    /// What every worker grades with.
    pub settings: &'a Settings,
    /// Where the settings file for the workers may be written (the caller's scratch folder).
    pub scratch: &'a Path,
    /// Workers at once.
    pub jobs: usize,
    /// Grade everyone, even students whose reports are current.
    pub regrade: bool,
    /// Told how the class goes, as it goes (a progress display: nothing flows back into the rows).
    pub progress: &'a (dyn Fn(Progress<'_>) + Sync),
}

/// How grading a class goes.
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// Grading starts: `settled` students need no grading (their reports are current, or they have no
    /// submission), `queued` are to be graded.
    Queued {
        #[allow(missing_docs)]
        settled: usize,
        #[allow(missing_docs)]
        queued: usize,
    },
    /// A worker starts grading one queued student.
    Started(&'a StudentId),
    /// One queued student is done, graded or not.
    Done(&'a Row),
}

/// Grades every student who is not current, `jobs` at a time, and returns every student's row.
pub fn grade_class(students: &[Student], run: &Run<'_>) -> Result<Graded, BatchError> {
    let settings_file = run.scratch.join("batch-settings.json");
    let text = serde_json::to_string(run.settings).unwrap_or_default();
    std::fs::create_dir_all(run.scratch)
        .and_then(|()| std::fs::write(&settings_file, text))
        .map_err(|source| BatchError::Settings { path: settings_file.clone(), source })?;
    let out = &run.settings.output_dir;
    let extensions: Vec<&str> = run.settings.formats().iter().map(|f| f.extension()).collect();
    let run_key = resume::run_key(run.settings);
    let mut rows: Vec<Option<Row>> = vec![None; students.len()];
    let mut missing = Vec::new();
    let mut queue = Vec::new();
    for (i, student) in students.iter().enumerate() {
        let stem = student.id.file_stem();
        let path = match &student.submission {
            Ok(path) => path,
            Err(reason) => {
                resume::forget(out, &stem, &extensions);
                let shared = students.iter().filter(|s| s.id.file_stem() == stem).count() > 1;
                // their report says why (unless its file is another student's: intake's reason says so)
                let written = if shared { Ok(()) } else { not_graded_reports(student, reason, run.settings) };
                let error = match written {
                    Ok(()) => reason.clone(),
                    Err(e) => format!("{reason} (and their report could not be written: {e})"),
                };
                rows[i] = Some(Row::of(student, None, Some(error)));
                continue;
            }
        };
        let key = resume::student_key(run_key, student.id.as_str(), &student.name, &stem, path);
        match resume::current(out, &stem, &key, &extensions).filter(|_| !run.regrade) {
            Some(stamp) => {
                missing.extend(stamp.missing_fixtures);
                rows[i] = Some(Row::of(student, Some(stamp.grade), None));
            }
            None => {
                resume::forget(out, &stem, &extensions);
                queue.push((i, key));
            }
        }
    }
    let resumed = rows.iter().flatten().filter(|r| r.error.is_none()).count();
    (run.progress)(Progress::Queued { settled: students.len() - queue.len(), queued: queue.len() });
    if !queue.is_empty() {
        let (graded, planned_missing) = grade_queue(students, &queue, &settings_file, run)?;
        missing.extend(planned_missing);
        for (i, row) in graded {
            rows[i] = Some(row);
        }
    }
    missing.sort();
    missing.dedup();
    let run_key = format!("{run_key:016x}");
    Ok(Graded { rows: rows.into_iter().flatten().collect(), missing_fixtures: missing, resumed, run_key })
}

/// Writes the reports of a student whose entry could not be used (`reason`: an empty or broken zip, no file
/// of theirs), in every format of the run: not graded, and why.
fn not_graded_reports(student: &Student, reason: &str, settings: &Settings) -> std::io::Result<()> {
    let report = crate::results::Report::not_a_submission(&student.name, settings.seed, reason, vec![]);
    for format in settings.formats() {
        let path = settings.output_dir.join(format!("{}.{}", student.id.file_stem(), format.extension()));
        crate::output::write_atomically(&path, crate::report::render(&report, format, false))?;
    }
    Ok(())
}

/// The rows of the queued students (by their index in the class), and the fixture files the workers found
/// missing.
type QueueGraded = (Vec<(usize, Row)>, Vec<String>);

/// Grades the queued students (index, key) on `jobs` workers; returns their rows and the fixture files the
/// workers found missing.
fn grade_queue(
    students: &[Student],
    queue: &[(usize, String)],
    settings_file: &Path,
    run: &Run<'_>,
) -> Result<QueueGraded, BatchError> {
    let count = run.jobs.clamp(1, queue.len());
    let started: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..count).map(|_| scope.spawn(|| Worker::start(settings_file))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(StartError::Died("panicked".into())))).collect()
    });
    let mut workers = Vec::new();
    let mut missing = Vec::new();
    for start in started {
        match start {
            Ok((worker, lacks)) => {
                missing = lacks;
                workers.push(Some(worker));
            }
            Err(StartError::Plan(message)) => return Err(BatchError::Plan(message)),
            Err(StartError::Died(how)) => return Err(BatchError::Plan(format!("a grader process failed: {how}"))),
        }
    }
    let next = AtomicUsize::new(0);
    let rows = Mutex::new(Vec::new());
    let missing = &missing;
    std::thread::scope(|scope| {
        for mut worker in workers {
            let (next, rows) = (&next, &rows);
            scope.spawn(move || {
                while let Some((i, key)) = queue.get(next.fetch_add(1, Ordering::SeqCst)) {
                    (run.progress)(Progress::Started(&students[*i].id));
                    let row = grade_one(&students[*i], key, &mut worker, settings_file, run, missing);
                    (run.progress)(Progress::Done(&row));
                    rows.lock().unwrap_or_else(|e| e.into_inner()).push((*i, row));
                }
            });
        }
    });
    Ok((rows.into_inner().unwrap_or_else(|e| e.into_inner()), missing.clone()))
}

/// Grades one student on `worker` (started afresh if the last one died), records their stamp when they
/// were graded, and returns their row.
fn grade_one(
    student: &Student,
    key: &str,
    worker: &mut Option<Worker>,
    settings_file: &Path,
    run: &Run<'_>,
    missing: &[String],
) -> Row {
    let stem = student.id.file_stem();
    let Ok(path) = &student.submission else { return Row::of(student, None, Some("no submission".into())) };
    if worker.is_none() {
        match Worker::start(settings_file) {
            Ok((fresh, _)) => *worker = Some(fresh),
            Err(StartError::Plan(why) | StartError::Died(why)) => {
                return Row::of(student, None, Some(format!("could not start a grader process for them: {why}")));
            }
        }
    }
    let job = Job { id: student.id.to_string(), name: student.name.clone(), stem: stem.clone(), path: path.clone() };
    let reply = worker.as_mut().map(|w| w.grade(&job));
    match reply {
        Some(Ok(Reply::Graded { grade, error })) => {
            if let (Some(grade), None) = (&grade, &error) {
                let missing_fixtures = missing.to_vec();
                let stamp = resume::Stamp { key: key.to_string(), grade: (**grade).clone(), missing_fixtures };
                if let Err(e) = resume::record(&run.settings.output_dir, &stem, &stamp) {
                    let id = crate::report::visible::line(student.id.as_str());
                    eprintln!("grader: could not record that {id}'s reports are current: {e}");
                }
            }
            Row::of(student, grade.map(|g| *g), error)
        }
        Some(Err(how)) | Some(Ok(Reply::Failed { message: how })) => {
            *worker = None;
            let reason = format!(
                "the grader could not grade this submission: {how} (this student's grade is left empty and the \
                 others are graded on; `grader batch` again grades what has no current report, this student \
                 among them)"
            );
            let (name, id) =
                (crate::report::visible::line(&student.name), crate::report::visible::line(student.id.as_str()));
            eprintln!("grader: {name} ({id}): {reason}");
            Row::of(student, None, Some(reason))
        }
        Some(Ok(Reply::Ready { .. })) | None => Row::of(student, None, Some("the grader process lost track".into())),
    }
}
