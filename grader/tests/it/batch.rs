//! A whole class at once (Rust, Java and Python side by side): `grader batch` survives broken submissions and
//! a grader process that dies, grading in parallel gives exactly the grades of grading one at a time
//! (verdicts rest on counts, not on time), current students are not graded again, and no name can bend a
//! gradebook or a report.

use std::path::Path;

use crate::support::{copy_resolved, grader, quick_policy, reference_submission, root};

/// A finished `grader batch`: its exit code, its standard error, and `gradebook.csv` parsed.
pub struct BatchRun {
    pub code: i32,
    pub stderr: String,
    pub rows: Vec<Vec<String>>,
}

/// Runs `grader batch CLASS --output-dir OUT` with the quick policy (unless `extra` names one) and `extra`
/// arguments.
pub fn batch_in(class: &Path, out: &Path, extra: &[&str], env: &[(&str, &str)]) -> BatchRun {
    let policy = quick_policy();
    let policy = if extra.contains(&"--policy") { vec![] } else { vec!["--policy", policy.to_str().unwrap()] };
    let output = grader()
        .arg("batch")
        .arg(class)
        .args(["--output-dir", out.to_str().unwrap()])
        .args(policy)
        .args(extra)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let csv = std::fs::read_to_string(out.join("gradebook.csv")).unwrap_or_default();
    BatchRun { code: output.status.code().unwrap_or(-1), stderr, rows: parse_csv(&csv) }
}

/// RFC 4180 rows (quoted fields may hold commas, quotes and line breaks).
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let (mut rows, mut row, mut field, mut quoted) = (Vec::new(), Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => field.push(c),
        }
    }
    rows
}

/// The column of a gradebook.csv row by its heading.
pub fn cell<'a>(rows: &'a [Vec<String>], row: usize, heading: &str) -> &'a str {
    let at = rows[0].iter().position(|h| h == heading).unwrap_or_else(|| panic!("no column {heading}"));
    &rows[row][at]
}

const ONLY: [&str; 8] =
    ["--only", "board-1*", "--only", "board-9", "--only", "solver-2a", "--only", "timing-*/puzzle32"];

fn only() -> &'static [&'static str] {
    &ONLY
}

#[test]
fn parallel_grading_gives_the_grades_of_serial_grading_and_survives_broken_submissions() {
    let class = tempfile::tempdir().unwrap();
    std::fs::copy(reference_submission(), class.path().join("alice")).unwrap();
    let java = root().join("fixtures/submissions/java");
    copy_resolved(&java.join("hamming-counts-blank"), &class.path().join("bob"));
    copy_resolved(&java.join("compile-error"), &class.path().join("carol"));
    std::fs::copy(root().join("fixtures/submissions/programs/garbage.sh"), class.path().join("dave")).unwrap();
    std::fs::create_dir(class.path().join("erin")).unwrap();
    copy_resolved(&root().join("fixtures/submissions/python/hamming-counts-blank"), &class.path().join("frank"));
    let out = tempfile::tempdir().unwrap();
    let serial = batch_in(class.path(), &out.path().join("serial"), &[&["--jobs", "1"], only()].concat(), &[]);
    let parallel = batch_in(class.path(), &out.path().join("parallel"), &[&["--jobs", "3"], only()].concat(), &[]);
    assert_eq!(serial.rows, parallel.rows);
    // erin's folder is no submission: she could not be graded, so the batch says so with exit code 1
    assert_eq!((serial.code, parallel.code), (1, 1), "{}", serial.stderr);
    assert!(serial.stderr.contains("1 of 6 students could not be graded:\n  erin [erin]: "), "{}", serial.stderr);
    let rows = &serial.rows;
    assert_eq!(rows.len(), 7, "{rows:?}");
    let ids: Vec<&str> = (1..7).map(|r| cell(rows, r, "id")).collect();
    assert_eq!(ids, ["alice", "bob", "carol", "dave", "erin", "frank"]);
    assert_eq!((cell(rows, 1, "failed"), cell(rows, 1, "error")), ("", ""), "alice passes everything");
    let blank = "board-1a board-1b board-14 board-16";
    assert!(cell(rows, 2, "failed").contains(blank), "{:?}", rows[2]);
    assert!(cell(rows, 3, "score") == "0.00" && cell(rows, 3, "failed").contains("compile-1"), "{:?}", rows[3]);
    assert!(cell(rows, 4, "failed").contains("board-1a"), "{:?}", rows[4]);
    assert_eq!((cell(rows, 5, "error"), cell(rows, 5, "score")), ("nothing was handed in", ""), "not graded");
    let erin = std::fs::read_to_string(out.path().join("serial/erin.txt")).unwrap();
    assert!(erin.contains("NOT GRADED: nothing was handed in") && !erin.contains("Aggregate score: 0"), "{erin}");
    assert!(cell(rows, 6, "failed").contains(blank), "a Python folder is graded beside the others: {:?}", rows[6]);
    assert!(out.path().join("parallel/bob.txt").is_file() && out.path().join("parallel/bob.json").is_file());
}

/// Whatever kills the grader's process while it grades one student (its own panic, an abort, a segfault,
/// the out-of-memory killer's SIGKILL) costs that student's grade only, with the reason; the next run grades
/// only the students who are not current.
#[test]
fn a_grader_process_that_dies_costs_one_row_and_a_rerun_grades_only_those_not_current() {
    let class = tempfile::tempdir().unwrap();
    for student in ["ann", "ben", "cat", "dan", "eve"] {
        std::fs::copy(reference_submission(), class.path().join(student)).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let args = ["--jobs", "2", "--only", "board-1a"];
    let hook = [("GRADER_BATCH_TEST_CRASH", "abort:ben,kill:cat,panic:dan,segfault:eve")];

    let first = batch_in(class.path(), out.path(), &args, &hook);

    assert_eq!(first.code, 1, "{}", first.stderr);
    let rows = &first.rows;
    assert_eq!(rows.len(), 6, "every student has a row: {rows:?}");
    assert_eq!((cell(rows, 1, "id"), cell(rows, 1, "error")), ("ann", ""));
    assert!(!cell(rows, 1, "score").is_empty());
    for (row, how) in [(2, "aborted (SIGABRT)"), (3, "killed (SIGKILL"), (4, "panicked"), (5, "segmentation fault")] {
        let error = cell(rows, row, "error");
        assert!(error.contains(how) && error.contains("`grader batch` again grades"), "{}: {error}", rows[row][0]);
        assert!(cell(rows, row, "score").is_empty());
    }
    // a panic's last words are its message, not the backtrace's notes after it
    assert!(cell(rows, 4, "error").contains("asked for a panic while grading `dan`"), "{}", cell(rows, 4, "error"));
    assert!(first.stderr.contains("4 of 5 students could not be graded"), "{}", first.stderr);
    assert!(out.path().join("ann.txt").is_file() && !out.path().join("ben.txt").exists());

    let second = batch_in(class.path(), out.path(), &args, &[]);

    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(second.stderr.contains("1 student's reports were current and kept"), "{}", second.stderr);
    assert!((1..6).all(|r| cell(&second.rows, r, "error").is_empty()), "{:?}", second.rows);
    assert_eq!(second.rows[1], first.rows[1], "ann's row is kept as it was");

    let mut eve = std::fs::read(class.path().join("eve")).unwrap();
    eve.push(0);
    std::fs::write(class.path().join("eve"), eve).unwrap();
    let third = batch_in(class.path(), out.path(), &args, &[]);
    assert_eq!(third.code, 0, "{}", third.stderr);
    assert!(third.stderr.contains("4 students' reports were current"), "eve's changed file is graded again");
}

/// Ctrl-C while a class is graded (SIGINT to the terminal's whole process group, the workers too) ends the
/// run as an interrupted program, after saying that a re-run resumes.
#[test]
fn ctrl_c_in_a_batch_says_that_a_rerun_resumes() {
    use std::io::BufRead;
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let class = tempfile::tempdir().unwrap();
    for student in ["ann", "ben"] {
        std::fs::copy(reference_submission(), class.path().join(student)).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    // a work directory of its own, where the interrupted run's scratch (the class unpacked) is seen
    let work = tempfile::tempdir().unwrap();
    let mut command = grader();
    let batch = command
        .arg("batch")
        .arg(class.path())
        .args(["--output-dir", out.path().to_str().unwrap(), "--policy", quick_policy().to_str().unwrap()])
        .env("GRADER_WORK_DIR", work.path())
        .process_group(0)
        .stderr(std::process::Stdio::piped());
    // The grader keeps a SIGINT it was started ignoring ignored, as a background job of a script is (POSIX
    // shells start an asynchronous list so, when job control is off): a suite run as `make test &` would
    // hand that on. The batch of this test is started as a terminal's foreground job is.
    // SAFETY: signal(2) is async-signal-safe, the one call made between fork and exec.
    unsafe {
        batch.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        })
    };
    let mut batch = batch.spawn().unwrap();
    let mut stderr = std::io::BufReader::new(batch.stderr.take().unwrap());
    let mut said = String::new();
    // The run says it is grading once it would say how to resume.
    while !said.contains("grader: grading") {
        assert_ne!(stderr.read_line(&mut said).unwrap(), 0, "the batch ended before grading: {said}");
    }
    // SAFETY: a signal to the process group the batch leads, which this test made.
    assert_eq!(unsafe { libc::kill(-(batch.id() as i32), libc::SIGINT) }, 0);
    std::io::Read::read_to_string(&mut stderr, &mut said).unwrap();
    let status = batch.wait().unwrap();

    assert_eq!(status.signal(), Some(libc::SIGINT), "{status:?}: {said}");
    assert!(
        said.contains("grader: interrupted. The reports of the students graded so far are kept: run the same command again and it resumes"),
        "{said}"
    );
    // the interrupted run's scratch is left, and the next batch in that work directory removes it
    let scratch = |work: &std::path::Path| -> Vec<String> {
        let names = std::fs::read_dir(work).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
        names.filter(|name| name.starts_with("class-")).collect()
    };
    assert!(scratch(work.path()).contains(&format!("class-{}", batch.id())), "{:?}", scratch(work.path()));
    let next = grader()
        .args(["batch", class.path().to_str().unwrap(), "--dry-run"])
        .env("GRADER_WORK_DIR", work.path())
        .output()
        .unwrap();
    assert!(next.status.success(), "{}", String::from_utf8_lossy(&next.stderr));
    assert_eq!(scratch(work.path()), Vec::<String>::new(), "every ended run's scratch is gone");
}

/// A batch ended by a signal of its own (a scheduler's SIGTERM to its process, not its group) leaves no
/// worker grading: each ends itself once its parent is gone.
#[test]
fn a_batch_ended_alone_leaves_no_worker_behind() {
    use std::io::BufRead;
    let class = tempfile::tempdir().unwrap();
    // students who never answer the handshake: a worker waits for each up to the startup's wall-clock cap
    for student in ["ann", "ben"] {
        let path = class.path().join(student);
        std::fs::write(&path, "#!/bin/sh\nexec sleep 600\n").unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let out = tempfile::tempdir().unwrap();
    let mut batch = grader()
        .arg("batch")
        .arg(class.path())
        .args(["--output-dir", out.path().to_str().unwrap(), "--policy", quick_policy().to_str().unwrap()])
        .args(["--jobs", "2"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(batch.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("grader: grading") {
        assert_ne!(stderr.read_line(&mut said).unwrap(), 0, "the batch ended before grading: {said}");
    }
    let parent = batch.id().to_string();
    let workers_of_the_batch = || -> Vec<String> {
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                let rest = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                rest.split_whitespace().nth(1) == Some(parent.as_str())
                    && String::from_utf8_lossy(&cmdline).contains("batch-worker")
            })
            .collect()
    };
    let since = std::time::Instant::now();
    let workers = loop {
        let workers = workers_of_the_batch();
        if !workers.is_empty() {
            break workers;
        }
        assert!(since.elapsed() < std::time::Duration::from_secs(30), "the batch started no worker");
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    // each worker has its student by now, and waits on it
    std::thread::sleep(std::time::Duration::from_secs(1));
    // SAFETY: a signal to the batch's process alone.
    assert_eq!(unsafe { libc::kill(batch.id() as i32, libc::SIGTERM) }, 0);
    let _ = batch.wait();
    let alive = |pid: &String| {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().next());
        state.is_some_and(|s| s != "Z" && s != "X")
    };
    let since = std::time::Instant::now();
    while workers.iter().any(alive) {
        assert!(since.elapsed() < std::time::Duration::from_secs(20), "workers still running: {workers:?}");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// Names chosen to bend a gradebook: a formula, terminal escapes and a carriage return, two names equal in
/// their first 80 characters, two Moodle students of one name and a zip named as a renamed duplicate would
/// be. Each is one row and one report file, and the reports show the escapes as codes.
#[test]
fn no_name_bends_a_gradebook_or_a_report() {
    let class = tempfile::tempdir().unwrap();
    let c = class.path();
    let long = "x".repeat(80);
    let plain = [
        "=HYPERLINK(\"evil.example\",\"x\")",
        "evil\r\x1b]0;owned\x07\x1b[2J",
        &format!("{long}a"),
        &format!("{long}b"),
    ];
    for name in plain {
        std::fs::copy(reference_submission(), c.join(name)).unwrap();
    }
    let python = root().join("fixtures/submissions/python/valid");
    for id in ["101", "102"] {
        copy_resolved(&python, &c.join(format!("Ada_{id}_assignsubmission_file_")));
    }
    {
        use std::io::Write;
        let mut zip = zip::ZipWriter::new(std::fs::File::create(c.join("Ada (2).zip")).unwrap());
        for file in ["board.py", "solver.py"] {
            zip.start_file(file, zip::write::SimpleFileOptions::default()).unwrap();
            zip.write_all(&std::fs::read(python.join(file)).unwrap()).unwrap();
        }
        zip.finish().unwrap();
    }
    let out = tempfile::tempdir().unwrap();

    let run = batch_in(c, out.path(), &["--only", "board-1a", "--format", "text", "--format", "markdown"], &[]);

    let rows = &run.rows;
    assert_eq!(rows.len(), 8, "one row per student, the \\r inside its quoted field: {rows:?}");
    let reports: std::collections::BTreeSet<&str> = (1..8).map(|r| cell(rows, r, "report")).collect();
    assert_eq!(reports.len(), 7, "seven report names: {reports:?}");
    let names: Vec<&str> = (1..8).map(|r| cell(rows, r, "name")).collect();
    assert!(names.contains(&"'=HYPERLINK(\"evil.example\",\"x\")"), "the formula is text: {names:?}");
    assert!(names.contains(&"evil\r\x1b]0;owned\x07\x1b[2J"), "the name is kept whole, quoted: {names:?}");
    let ids: Vec<&str> = (1..8).map(|r| cell(rows, r, "id")).collect();
    assert!(ids.contains(&"moodle-101") && ids.contains(&"moodle-102") && ids.contains(&"Ada (2).zip"), "{ids:?}");
    for report in &reports {
        let text = std::fs::read_to_string(out.path().join(format!("{report}.txt"))).unwrap();
        assert!(!text.contains('\x1b') && !text.contains('\r') && !text.contains('\x07'), "{report}: {text}");
        let markdown = std::fs::read_to_string(out.path().join(format!("{report}.md"))).unwrap();
        assert!(!markdown.contains('<') && !markdown.contains("]("), "{report}: {markdown}");
    }
    let evil = (1..8).find(|&r| cell(rows, r, "name").starts_with("evil")).unwrap();
    let text = std::fs::read_to_string(out.path().join(format!("{}.txt", cell(rows, evil, "report")))).unwrap();
    assert!(text.contains("Submission:  evil\\u{d}\\u{1b}]0;owned\\u{7}\\u{1b}[2J (rust)"), "{text}");
    assert!(!run.stderr.contains('\x1b'), "the batch's own lines show the escapes as codes too");
}
