//! One class as Canvas and as Moodle export it (a late student, a zipped one, one whose files declare a
//! package, one with a helper class in a file of its own, one whose zip is broken, one who handed in
//! `solver.java` and one who handed in `Board.java` alone), graded in one `batch` each, and the import files
//! each LMS reads back, parsed column by column. A student whose files are no submission is not graded
//! everywhere: their report, the gradebook's `error`, the overview, an empty cell in the LMS's file. Graded
//! with `--only`, the imports are written only with `--allow-partial`, and then say partial.

use std::io::Write;
use std::path::Path;

use crate::batch::{batch_in, cell, parse_csv};
use crate::support::{quick_policy, root};

/// The class's files: (student, file name, bytes), and the broken zip's owner.
fn class_files() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let valid = root().join("fixtures/submissions/java/valid");
    let board = std::fs::read(valid.join("Board.java")).unwrap();
    let solver = std::fs::read(valid.join("Solver.java")).unwrap();
    let packaged = |bytes: &[u8]| [b"package puzzle;\n".as_slice(), bytes].concat();
    let with_helper = String::from_utf8(solver.clone())
        .unwrap()
        .replacen("public class Solver {", "public class Solver {\n    private final int helper = Helper.twice(1);", 1)
        .into_bytes();
    let helper = b"public class Helper { static int twice(int x) { return 2 * x; } }\n".to_vec();
    vec![
        ("ada", "Board.java", board.clone()),
        ("ada", "Solver.java", solver.clone()),
        ("cy", "Board.java", packaged(&board)),
        ("cy", "Solver.java", packaged(&solver)),
        ("dan", "Board.java", board.clone()),
        ("dan", "Solver.java", with_helper),
        ("dan", "Helper.java", helper),
        ("fay", "Board.java", board.clone()),
        ("fay", "solver.java", solver),
        ("gil", "Board.java", board),
    ]
}

/// bob's own zip: the two files in a folder, as a student zips their project.
fn bobs_zip() -> Vec<u8> {
    let valid = root().join("fixtures/submissions/java/valid");
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for file in ["Board.java", "Solver.java"] {
        zip.start_file(format!("8puzzle/{file}"), zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(&std::fs::read(valid.join(file)).unwrap()).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn zip_file(path: &Path, files: &[(String, Vec<u8>)]) {
    let mut zip = zip::ZipWriter::new(std::fs::File::create(path).unwrap());
    for (name, bytes) in files {
        zip.start_file(name.as_str(), zip::write::SimpleFileOptions::default()).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
}

const USERS: [(&str, &str); 7] =
    [("ada", "101"), ("bob", "102"), ("cy", "103"), ("dan", "104"), ("eve", "105"), ("fay", "106"), ("gil", "107")];

fn user(student: &str) -> &'static str {
    USERS.iter().find(|(s, _)| *s == student).map(|(_, id)| *id).unwrap()
}

/// Canvas's `submissions.zip`: loose files named `name_[LATE_]USERID_SUBMISSIONID_file`.
fn canvas_export(dir: &Path) -> std::path::PathBuf {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (i, (student, file, bytes)) in class_files().into_iter().enumerate() {
        let late = if (student, file) == ("ada", "Solver.java") { "LATE_" } else { "" };
        files.push((format!("{student}_{late}{}_{}_{file}", user(student), 9000 + i), bytes));
    }
    files.push((format!("bob_{}_9100_8puzzle.zip", user("bob")), bobs_zip()));
    files.push((format!("eve_{}_9200_mine.zip", user("eve")), b"PK this is no zip".to_vec()));
    let class = dir.join("submissions.zip");
    zip_file(&class, &files);
    class
}

/// Moodle's "Download all submissions", unpacked: a folder per participant (bob's holds his zip), ada's
/// files exported without folders.
fn moodle_export(dir: &Path) -> std::path::PathBuf {
    let class = dir.join("moodle");
    let participant = |student: &str| format!("{} {}_{}", student.to_uppercase(), student, user(student));
    for (student, file, bytes) in class_files() {
        let name = if student == "ada" {
            class.join(format!("{}_assignsubmission_file_{file}", participant(student)))
        } else {
            class.join(format!("{}_assignsubmission_file_", participant(student))).join(file)
        };
        std::fs::create_dir_all(name.parent().unwrap()).unwrap();
        std::fs::write(name, bytes).unwrap();
    }
    for (student, bytes) in [("bob", bobs_zip()), ("eve", b"PK this is no zip".to_vec())] {
        let folder = class.join(format!("{}_assignsubmission_file_", participant(student)));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("8puzzle.zip"), bytes).unwrap();
    }
    class
}

fn report_text(out: &Path, rows: &[Vec<String>], row: usize) -> String {
    std::fs::read_to_string(out.join(format!("{}.txt", cell(rows, row, "report")))).unwrap()
}

#[test]
fn a_canvas_export_grades_in_one_batch_and_gives_canvas_its_import() {
    let dir = tempfile::tempdir().unwrap();
    let class = canvas_export(dir.path());
    let out = dir.path().join("grades");
    let args = ["--only", "board-1a", "--canvas-assignment-id", "555", "--max-grade", "20"];

    let run = batch_in(&class, &out, &args, &[]);

    assert_eq!(run.code, 1, "eve's zip cannot be unpacked: {}", run.stderr);
    let rows = &run.rows;
    let ids: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "id")).collect();
    assert_eq!(ids, ["canvas-101", "canvas-102", "canvas-103", "canvas-104", "canvas-105", "canvas-106", "canvas-107"]);
    let late: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "late")).collect();
    assert_eq!(late, ["yes", "no", "no", "no", "no", "no", "no"], "a LATE_ file makes its student late");
    assert!(report_text(&out, rows, 3).contains("must be in the default package"));
    assert!(
        report_text(&out, rows, 4).contains(
            "Only Board.java and Solver.java are compiled (as the official grader compiles them), not Helper.java: \
             nest Helper in Solver.java"
        ),
        "{}",
        report_text(&out, rows, 4)
    );
    assert!(cell(rows, 5, "error").contains("not unpacked"), "{:?}", rows[5]);
    let not_graded = [
        (6, "found solver.java: rename it to Solver.java (a Java submission is the two files Board.java and Solver.java)"),
        (7, "Solver.java is missing (a Java submission is the two files Board.java and Solver.java)"),
    ];
    let overview = std::fs::read_to_string(out.join("index.html")).unwrap();
    for (row, reason) in not_graded {
        assert_eq!((cell(rows, row, "error"), cell(rows, row, "score")), (reason, ""), "{:?}", rows[row]);
        let report = report_text(&out, rows, row);
        assert!(
            report.contains(&format!("NOT GRADED: {reason}")) && !report.contains("Aggregate score: 0"),
            "{report}"
        );
        assert!(overview.contains(reason), "the overview says why");
    }
    assert!(run.stderr.contains("3 of 7 students could not be graded"), "{}", run.stderr);
    // --only left tests out: the grades are partial, and no import carries them as final.
    assert!(cell(rows, 1, "partial").ends_with(" tests (--only 'board-1a')"), "{:?}", rows[1]);
    assert!(!out.join("canvas-import.csv").exists(), "a partial run writes no import");
    assert!(
        run.stderr.contains("canvas-import.csv not written: this run graded only ")
            && run.stderr.contains("pass --allow-partial to write it"),
        "{}",
        run.stderr
    );
    assert!(overview.contains("Partial run: only ") && overview.contains("canvas-import.csv not written"));

    // With --allow-partial it is written, its column saying partial (the reports are current: kept).
    let run = batch_in(&class, &out, &[&args[..], &["--allow-partial"]].concat(), &[]);
    assert!(run.stderr.contains("reports were current and kept"), "{}", run.stderr);
    let import = parse_csv(&std::fs::read_to_string(out.join("canvas-import.csv")).unwrap());
    let heading = &import[0][5];
    assert!(heading.starts_with("8 Puzzle [partial: 2 of ") && heading.ends_with(" tests] (555)"), "{heading}");
    assert_eq!(import[0][..5], ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]);
    let expected = [
        ["ada", "101", "", "", "", "20.00"],
        ["bob", "102", "", "", "", "20.00"],
        ["cy", "103", "", "", "", "0.00"],
        ["dan", "104", "", "", "", "0.00"],
        ["eve", "105", "", "", "", ""],
        ["fay", "106", "", "", "", ""],
        ["gil", "107", "", "", "", ""],
    ];
    assert_eq!(import[1..], expected.map(|r| r.map(String::from).to_vec()), "{import:?}");
}

/// Moodle's offline grading worksheet for the class's assignment, as Moodle writes it, built from Moodle's
/// own source (moodle/moodle, read for this test):
/// - the columns: `mod/assign/gradingtable.php` (`assign_grading_table::__construct` while downloading, at
///   commit 1494620b), for an assignment with file submissions, the Feedback comments and Offline grading
///   worksheet feedback types, no marking workflow and no scale: Identifier, Full name, the identity field
///   Email address, Status, Grade, Maximum Grade, Grade can be changed, Last modified (submission),
///   Last modified (grade), Feedback comments (file submissions have no text column);
/// - the cells: `col_recordid` (`Participant ` and the participant id), `col_status` (its parts joined by
///   ` - `: `Submitted for grading`, `2 days 3 hours late`, `Graded`, `No submission`, `Assignment is overdue
///   by: …`), `col_grademax` and `display_grade` (two decimals, empty when ungraded), `col_timemarked` and
///   `col_timesubmitted` (`userdate`, `-` when none), `col_gradecanbechanged` (`Yes`);
/// - the words: `mod/assign/lang/en/assign.php` at commit 0085741f (the Moodle 3.9 line: its last block is
///   "Deprecated since Moodle 3.8"), `mod/assign/feedback/comments/lang/en/assignfeedback_comments.php`;
/// - the file: `dataformat/csv` (Spout's CSV writer: a UTF-8 byte-order mark, `fputcsv`, which quotes a field
///   holding a space, and `\n` line ends).
///
/// cy was graded in Moodle before (5.00, two days before anyone could run this test); hal handed nothing in.
const MOODLE_WORKSHEET: &str = "\u{feff}Identifier,\"Full name\",\"Email address\",Status,Grade,\"Maximum Grade\",\
\"Grade can be changed\",\"Last modified (submission)\",\"Last modified (grade)\",\"Feedback comments\"
\"Participant 101\",\"ADA ada\",ada@example.edu,\"Submitted for grading - 2 days 3 hours late\",,10.00,Yes,\"Tuesday, 5 March 2024, 10:15 AM\",-,
\"Participant 102\",\"BOB bob\",bob@example.edu,\"Submitted for grading\",,10.00,Yes,\"Sunday, 3 March 2024, 9:00 PM\",-,
\"Participant 103\",\"CY cy\",cy@example.edu,\"Submitted for grading - Graded\",5.00,10.00,Yes,\"Sunday, 3 March 2024, 8:00 PM\",\"Monday, 4 March 2024, 11:00 AM\",\"<p>Please resubmit.</p>\"
\"Participant 104\",\"DAN dan\",dan@example.edu,\"Submitted for grading\",,10.00,Yes,\"Sunday, 3 March 2024, 7:00 PM\",-,
\"Participant 105\",\"EVE eve\",eve@example.edu,\"Submitted for grading\",,10.00,Yes,\"Sunday, 3 March 2024, 6:00 PM\",-,
\"Participant 106\",\"FAY fay\",fay@example.edu,\"Submitted for grading\",,10.00,Yes,\"Sunday, 3 March 2024, 5:00 PM\",-,
\"Participant 107\",\"GIL gil\",gil@example.edu,\"Submitted for grading\",,10.00,Yes,\"Sunday, 3 March 2024, 4:00 PM\",-,
\"Participant 108\",\"HAL hal\",hal@example.edu,\"No submission - Assignment is overdue by: 1 day 2 hours\",,10.00,Yes,-,-,
";

/// What Moodle's "Upload grading worksheet" would do with `sheet` for an assignment out of `max` whose grades
/// are `known` (participant id: grade, and when it was given, seconds since 1970), followed from
/// `mod/assign/feedback/offline/importgradeslib.php` (`init`: the columns by their English names; `next`: the
/// participant id after `Participant `) and `locallib.php` (`process_import_grades`: a grade is skipped when
/// empty, unchanged, older than Moodle's by more than a minute, or above the maximum; the feedback is taken
/// unless the row is older): each participant's new grade and new feedback, where there is one.
fn moodle_imports(sheet: &str, known: &[(&str, f64, i64)], max: f64) -> Vec<(String, Option<f64>, Option<String>)> {
    let rows = parse_csv(sheet.trim_start_matches('\u{feff}'));
    let column =
        |name: &str| rows[0].iter().position(|h| h == name).unwrap_or_else(|| panic!("no {name}: {:?}", rows[0]));
    let (id, grade, modified, feedback) =
        (column("Identifier"), column("Grade"), column("Last modified (grade)"), column("Feedback comments"));
    let mut imported = Vec::new();
    for row in &rows[1..] {
        let participant = row[id].strip_prefix("Participant ").unwrap().to_string();
        let old = known.iter().find(|(p, _, _)| *p == participant);
        let stale = old.is_some_and(|&(_, _, at)| at > strtotime(&row[modified]) + 60);
        let new: Option<f64> = row[grade].parse().ok();
        let skipped = new.is_none_or(|g| g < 0.0 || g > max || old.is_some_and(|o| o.1 == g)) || stale;
        let comment = (!stale && !row[feedback].is_empty()).then(|| row[feedback].clone());
        imported.push((participant, if skipped { None } else { new }, comment));
    }
    imported
}

/// PHP's `strtotime` on the dates a worksheet holds: ours (ISO 8601, UTC) and Moodle's `userdate` (read as
/// UTC); `-` is false, which PHP's arithmetic reads as 0.
fn strtotime(date: &str) -> i64 {
    let days = |y: i64, m: i64, d: i64| {
        let (y, m) = if m <= 2 { (y - 1, m + 12) } else { (y, m) };
        365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + d - 719_469
    };
    if let Some((day, time)) = date.split_once('T') {
        let d: Vec<i64> = day.split('-').map(|x| x.parse().unwrap()).collect();
        let t: Vec<i64> = time[..8].split(':').map(|x| x.parse().unwrap()).collect();
        return days(d[0], d[1], d[2]) * 86_400 + t[0] * 3600 + t[1] * 60 + t[2];
    }
    let parts: Vec<&str> = date.split([',', ' ']).filter(|p| !p.is_empty()).collect();
    let [_, d, month, y, hm, ampm] = parts[..] else { return 0 };
    let months = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let m = months.iter().position(|x| *x == month).unwrap() as i64 + 1;
    let (h, min) =
        hm.split_once(':').map(|(h, m)| (h.parse::<i64>().unwrap() % 12, m.parse::<i64>().unwrap())).unwrap();
    let h = if ampm == "PM" { h + 12 } else { h };
    days(y.parse().unwrap(), m, d.parse().unwrap()) * 86_400 + h * 3600 + min * 60
}

/// A new user's Moodle round trip: the class as Moodle's "Download all submissions" gives it, and Moodle's
/// own grading worksheet as the template (`--moodle-worksheet`). The worksheet written back is Moodle's, every
/// row and column kept (hal, who handed nothing in, too), Grade, Last modified (grade) and Feedback comments
/// filled; its Status says ada was late; and Moodle's import, followed step by step, takes every grade and
/// comment we meant it to.
#[test]
fn a_moodle_export_and_its_worksheet_make_a_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let class = moodle_export(dir.path());
    let out = dir.path().join("grades");
    let policy = dir.path().join("policy.toml");
    let quick = std::fs::read_to_string(quick_policy()).unwrap();
    std::fs::write(&policy, format!("{quick}\n[java]\ngrade_package_declarations = true\n")).unwrap();
    let worksheet = dir.path().join("worksheet.csv");
    std::fs::write(&worksheet, MOODLE_WORKSHEET).unwrap();
    let args = [
        "--only",
        "board-1a",
        "--allow-partial",
        "--policy",
        policy.to_str().unwrap(),
        "--moodle-worksheet",
        worksheet.to_str().unwrap(),
    ];

    let run = batch_in(&class, &out, &args, &[]);

    assert_eq!(run.code, 1, "eve's zip cannot be unpacked, fay and gil handed in no submission: {}", run.stderr);
    let rows = &run.rows;
    let ids: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "id")).collect();
    assert_eq!(ids, ["moodle-101", "moodle-102", "moodle-103", "moodle-104", "moodle-105", "moodle-106", "moodle-107"]);
    let late: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "late")).collect();
    assert_eq!(late, ["yes", "no", "no", "no", "no", "no", "no"], "Moodle's Status says who was late");
    assert!(
        report_text(&out, rows, 3).contains("Note: Board.java:1 declares `package puzzle;`: the grader removed"),
        "{}",
        report_text(&out, rows, 3)
    );
    assert!(run.stderr.contains("grades out of 10 in the column `Grade`"), "the worksheet's maximum: {}", run.stderr);

    let written = std::fs::read_to_string(out.join("moodle-grading-worksheet.csv")).unwrap();
    assert!(written.starts_with('\u{feff}'));
    let (ours, theirs) = (parse_csv(written.trim_start_matches('\u{feff}')), parse_csv(&MOODLE_WORKSHEET[3..]));
    assert_eq!(ours[0], theirs[0], "Moodle's columns, as Moodle named them");
    assert_eq!(ours.len(), theirs.len(), "every row");
    assert_eq!(ours[8], theirs[8], "hal, who handed nothing in, is as Moodle wrote him");
    let column = |name: &str| ours[0].iter().position(|h| h == name).unwrap();
    let grades: Vec<&str> = ours[1..].iter().map(|r| r[column("Grade")].as_str()).collect();
    assert_eq!(grades, ["10.00", "10.00", "10.00", "0.00", "", "", "", ""], "dan's Helper.java does not compile");
    for (row, said) in
        [(6, "found solver.java: rename it to Solver.java"), (7, "Solver.java is missing"), (5, "not unpacked")]
    {
        let comment = &ours[row][column("Feedback comments")];
        assert!(comment.starts_with("<p>Not graded by the autograder: ") && comment.contains(said), "{comment}");
        assert_eq!(ours[row][column("Last modified (grade)")], "-", "a student not graded keeps Moodle's date");
    }
    assert!(ours[1][column("Feedback comments")].starts_with("<p>Autograder: <strong>10.00 / 10.00</strong> (100.00%)"));
    let cy = &ours[3][column("Feedback comments")];
    assert!(cy.starts_with("<p>Please resubmit.</p><p>Autograder: "), "what cy's teacher wrote stays: {cy}");

    let cy_graded = strtotime("Monday, 4 March 2024, 11:00 AM");
    let imported = moodle_imports(&written, &[("103", 5.0, cy_graded)], 10.0);
    let taken: Vec<(&str, Option<f64>)> = imported.iter().map(|(p, g, _)| (p.as_str(), *g)).collect();
    assert_eq!(
        taken,
        [
            ("101", Some(10.0)),
            ("102", Some(10.0)),
            ("103", Some(10.0)),
            ("104", Some(0.0)),
            ("105", None),
            ("106", None),
            ("107", None),
            ("108", None)
        ],
        "Moodle takes each grade given, cy's regrade over the older 5.00, and no grade for those not graded"
    );
    let commented: Vec<&str> = imported.iter().filter(|(_, _, c)| c.is_some()).map(|(p, _, _)| p.as_str()).collect();
    assert_eq!(commented, ["101", "102", "103", "104", "105", "106", "107"], "and each comment, the reasons too");
}
