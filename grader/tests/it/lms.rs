//! One class as Canvas and as Moodle export it (a late student, a zipped one, one whose files declare a
//! package, one with a helper class in a file of its own, one whose zip is broken), graded in one `batch`
//! each, and the import files each LMS reads back, parsed column by column. Graded with `--only`, the imports
//! are written only with `--allow-partial`, and then say partial.

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

const USERS: [(&str, &str); 5] = [("ada", "101"), ("bob", "102"), ("cy", "103"), ("dan", "104"), ("eve", "105")];

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
    assert_eq!(ids, ["canvas-101", "canvas-102", "canvas-103", "canvas-104", "canvas-105"]);
    let late: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "late")).collect();
    assert_eq!(late, ["yes", "no", "no", "no", "no"], "a LATE_ file makes its student late");
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
    // --only left tests out: the grades are partial, and no import carries them as final.
    assert!(cell(rows, 1, "partial").ends_with(" tests (--only 'board-1a')"), "{:?}", rows[1]);
    assert!(!out.join("canvas-import.csv").exists(), "a partial run writes no import");
    assert!(
        run.stderr.contains("canvas-import.csv not written: this run graded only ")
            && run.stderr.contains("pass --allow-partial to write it"),
        "{}",
        run.stderr
    );
    let overview = std::fs::read_to_string(out.join("index.html")).unwrap();
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
    ];
    assert_eq!(import[1..], expected.map(|r| r.map(String::from).to_vec()), "{import:?}");
}

#[test]
fn a_moodle_export_grades_in_one_batch_and_gives_moodle_its_worksheet() {
    let dir = tempfile::tempdir().unwrap();
    let class = moodle_export(dir.path());
    let out = dir.path().join("grades");
    let policy = dir.path().join("policy.toml");
    let quick = std::fs::read_to_string(quick_policy()).unwrap();
    std::fs::write(&policy, format!("{quick}\n[java]\ngrade_package_declarations = true\n")).unwrap();
    let args = ["--only", "board-1a", "--max-grade", "10", "--allow-partial", "--policy", policy.to_str().unwrap()];

    let run = batch_in(&class, &out, &args, &[]);

    assert_eq!(run.code, 1, "eve's zip cannot be unpacked: {}", run.stderr);
    let rows = &run.rows;
    let ids: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "id")).collect();
    assert_eq!(ids, ["moodle-101", "moodle-102", "moodle-103", "moodle-104", "moodle-105"]);
    let names: Vec<&str> = (1..rows.len()).map(|r| cell(rows, r, "name")).collect();
    assert_eq!(names, ["ADA ada", "BOB bob", "CY cy", "DAN dan", "EVE eve"]);
    assert!(
        report_text(&out, rows, 3).contains("Note: Board.java:1 declares `package puzzle;`: the grader removed"),
        "{}",
        report_text(&out, rows, 3)
    );

    let sheet = parse_csv(&std::fs::read_to_string(out.join("moodle-grading-worksheet.csv")).unwrap());
    assert_eq!(sheet[0], ["Identifier", "Full name", "Status", "Grade", "Maximum Grade", "Last modified (grade)"]);
    let column = |c: usize| sheet[1..].iter().map(|r| r[c].as_str()).collect::<Vec<_>>();
    assert_eq!(
        column(0),
        ["Participant 101", "Participant 102", "Participant 103", "Participant 104", "Participant 105"]
    );
    assert_eq!(column(3), ["10.00", "10.00", "10.00", "0.00", ""]);
    assert_eq!(column(4), ["10.00"; 5]);
    assert!(column(2)[4].starts_with("Not graded: 8puzzle.zip not unpacked"), "{:?}", column(2));
    assert!(column(2)[0].starts_with("Partially graded by the autograder, on 2 of the "), "{:?}", column(2));
    assert!(column(5).iter().all(|d| d.len() == 25 && d.ends_with("+00:00")), "{:?}", column(5));
}
