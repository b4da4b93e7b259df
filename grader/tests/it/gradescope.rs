//! `make gradescope`'s zip works as Gradescope runs it: unpacked into a fake `/autograder` tree, its
//! `setup.sh` locks the course's files away and warms the build cache, and its `run_autograder` grades a
//! Java submission uploaded inside a folder of its own and writes a valid `results.json`, with nothing of the
//! hidden tests on standard output or in what a student sees before the due date.
//!
//! Where the machine allows (root, and `capsh` to drop `CAP_SYS_ADMIN`), the run goes as on Gradescope,
//! whose container cannot create namespaces: the submission's processes see the whole filesystem, and the
//! submission tries to read the fixtures and the policy and print them.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::root;

/// What the course hides until the due date, and what the spying Solver prints if it can read a file.
const HIDDEN: [&str; 2] = ["solver-11", "solver-2b"];
const LEAKED: &str = "LEAKED:";

#[test]
fn a_gradescope_run_shows_no_hidden_test_and_keeps_the_answers_from_the_submission() {
    let fake = tempfile::tempdir().unwrap();
    // /autograder as Gradescope has it: others may enter, not list.
    set_mode(fake.path(), 0o711);
    let source = unpack_zip(fake.path());
    let setup = Command::new(source.join("setup.sh"))
        .env("AUTOGRADER_ROOT", fake.path())
        .env("SKIP_INSTALL", "1")
        .env("GRADE_RUST_SUBMISSIONS", "0")
        .output()
        .unwrap();
    let setup_said = String::from_utf8_lossy(&setup.stdout);
    assert!(setup.status.success(), "{setup_said}\n{}", String::from_utf8_lossy(&setup.stderr));
    assert!(setup_said.contains("warmed the java build cache"), "{setup_said}");
    let cache = fake.path().join("cache");
    let adapters = || java_adapters(&cache);
    assert_eq!(adapters().len(), 1, "setup.sh compiled the Java adapter into the cache run_autograder uses");
    // The zip ships the grader, which carries the puzzles and unpacked them into the cache as setup.sh warmed it.
    assert!(!source.join("fixtures").exists() && !source.join("rust").exists(), "the binary carries them");
    let puzzles = bundled_puzzles(&cache);
    for locked in [source.join("policy.toml"), source.join("bin"), puzzles.clone()] {
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&locked).unwrap().permissions());
        assert_eq!(mode & 0o077, 0, "{} is root's alone: {mode:o}", locked.display());
    }

    // The student uploaded a folder: the files are one level down.
    let upload = fake.path().join("submission/my 8puzzle");
    std::fs::create_dir_all(&upload).unwrap();
    std::fs::copy(root().join("fixtures/submissions/java/valid/Board.java"), upload.join("Board.java")).unwrap();
    std::fs::write(upload.join("Solver.java"), spying_solver(&puzzles, &source)).unwrap();

    let (ran, like_gradescope) = run_autograder(fake.path(), &source);
    let stdout = String::from_utf8_lossy(&ran.stdout);
    let stderr = String::from_utf8_lossy(&ran.stderr);
    assert!(ran.status.success(), "{stderr}");
    if like_gradescope {
        assert!(
            stderr.contains("grader: sandbox: no namespaces"),
            "the run had no namespaces, as on Gradescope: {stderr}"
        );
    }
    let results = std::fs::read_to_string(fake.path().join("results/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&results).unwrap();
    let tests = json["tests"].as_array().unwrap();
    assert!(json["score"].as_f64().unwrap() > 0.0, "{results}");
    assert!(tests.iter().any(|t| t["number"] == "board-1a" && t["status"] == "passed"), "{results}");
    for id in HIDDEN {
        let hidden = tests.iter().find(|t| t["number"] == id).unwrap_or_else(|| panic!("{id} in {results}"));
        assert_eq!(hidden["visibility"], "after_due_date");
        assert!(!stdout.contains(id), "standard output shows the hidden {id}:\n{stdout}");
        for visible in tests.iter().filter(|t| t["visibility"] == "visible") {
            assert!(!visible["output"].as_str().unwrap().contains(id), "{visible}");
        }
    }
    assert!(stdout.contains("[board-1a]") && stdout.contains("Score of the visible tests"), "{stdout}");
    assert!(!stdout.contains("Aggregate score"), "{stdout}");
    let output = json["output"].as_str().unwrap();
    assert!(output.starts_with("Score of the visible tests") && !output.contains("Aggregate"), "{output}");
    assert_eq!(json["stdout_visibility"], "after_due_date");
    // The Solver tried to read the fixtures and the policy in every test: it could not.
    assert!(!results.contains(LEAKED) && !stdout.contains(LEAKED), "{results}");
    let solver = tests.iter().find(|t| t["number"] == "solver-2a").unwrap();
    assert!(solver["output"].as_str().unwrap().contains("DENIED"), "{solver}");
    assert_eq!(adapters().len(), 1, "the run used the warmed cache");
}

/// Packages the zip with a course policy and unpacks it as Gradescope's unzip does (restoring each entry's
/// Unix mode, which must mark the scripts executable); returns `source/`.
fn unpack_zip(fake: &Path) -> PathBuf {
    let zip = fake.join("autograder.zip");
    let policy = fake.join("course-policy.toml");
    // Left: compilation, the API, board-1a, and solver-2a, 2b and 11 (two of them hidden).
    let skipped = [
        "timing-*",
        "memory-*",
        "beyond-*",
        "board-1b",
        "board-2*",
        "board-3",
        "board-4*",
        "board-5*",
        "board-6*",
        "board-7*",
        "board-8*",
        "board-9",
        "board-10*",
        "board-11",
        "board-12",
        "board-13",
        "board-14",
        "board-15",
        "board-16",
        "board-17",
        "solver-1",
        "solver-3*",
        "solver-4*",
        "solver-5",
        "solver-6*",
        "solver-7",
        "solver-8",
        "solver-9*",
        "solver-10*",
        "solver-12*",
        "solver-13*",
        "solver-14*",
        "solver-15*",
    ];
    let quoted: Vec<String> = skipped.iter().map(|s| format!("\"{s}\"")).collect();
    let hidden: Vec<String> = HIDDEN.iter().map(|s| format!("\"{s}\"")).collect();
    std::fs::write(&policy, format!("[tests]\nskip = [{}]\nhidden = [{}]\n", quoted.join(", "), hidden.join(", ")))
        .unwrap();
    let packaged = Command::new(root().join("gradescope/package.sh"))
        .arg(&zip)
        .arg(env!("CARGO_BIN_EXE_grader"))
        .arg(&policy)
        .status()
        .unwrap();
    assert!(packaged.success());
    let source = fake.join("source");
    let unzip = r#"
import sys, zipfile, os
z = zipfile.ZipFile(sys.argv[1])
for info in z.infolist():
    path = z.extract(info, sys.argv[2])
    mode = info.external_attr >> 16
    if mode:
        os.chmod(path, mode & 0o7777)
    if info.filename in ('run_autograder', 'setup.sh', 'bin/grader') and not mode & 0o111:
        sys.exit(info.filename + ' is not executable in the zip')
"#;
    let unzipped = Command::new("python3").arg("-c").arg(unzip).arg(&zip).arg(&source).output().unwrap();
    assert!(unzipped.status.success(), "{}", String::from_utf8_lossy(&unzipped.stderr));
    source
}

/// The bundled puzzles as the grader unpacked them into the work directory `cache`.
fn bundled_puzzles(cache: &Path) -> PathBuf {
    let unpacked = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("puzzles-") && p.join("puzzles.toml").is_file());
    unpacked.unwrap_or_else(|| panic!("no puzzles unpacked in {}", cache.display()))
}

/// The valid Solver, whose constructor first tries to read the course's fixtures (the bundled puzzles
/// unpacked in `puzzles`) and policy and throws with what it got: `LEAKED:` and the file's start if it could
/// read one, `DENIED` if not.
fn spying_solver(puzzles: &Path, source: &Path) -> String {
    let valid = std::fs::read_to_string(root().join("fixtures/submissions/java/valid/Solver.java")).unwrap();
    let fixtures = puzzles.join("puzzles.toml");
    let policy = source.join("policy.toml");
    let spy = format!(
        "for (String spied : new String[] {{ \"{}\", \"{}\" }}) {{\n\
         try {{ String text = new String(java.nio.file.Files.readAllBytes(java.nio.file.Paths.get(spied)));\n\
         throw new IllegalStateException(\"{LEAKED}\" + text.substring(0, Math.min(60, text.length()))); }}\n\
         catch (java.io.IOException | SecurityException e) {{ throw new IllegalStateException(\"DENIED \" + e.getClass().getSimpleName()); }} }}\n\
         MinPQ<SearchNode> pq = new",
        fixtures.display(),
        policy.display()
    );
    let spying = valid.replacen("MinPQ<SearchNode> pq = new", &spy, 1);
    assert_ne!(spying, valid);
    spying
}

/// Runs `run_autograder` as Gradescope does where this machine can: as root without `CAP_SYS_ADMIN`, so
/// that no namespace can be made. Whether it could.
fn run_autograder(fake: &Path, source: &Path) -> (std::process::Output, bool) {
    let capsh = Path::new("/usr/sbin/capsh");
    // SAFETY: geteuid has no preconditions.
    let root_user = unsafe { libc::geteuid() } == 0;
    let script = source.join("run_autograder");
    let mut command = if root_user && capsh.is_file() {
        let mut command = Command::new(capsh);
        command.args(["--drop=cap_sys_admin", "--", "-c", "exec \"$0\""]).arg(&script);
        command
    } else {
        eprintln!("not as on Gradescope (needs root and capsh): run_autograder runs with the sandbox");
        Command::new(&script)
    };
    let output = command.env("AUTOGRADER_ROOT", fake).output().unwrap();
    (output, root_user && capsh.is_file())
}

fn java_adapters(cache: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(cache)
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.to_string_lossy().contains("java-adapter-"))
                .collect()
        })
        .unwrap_or_default()
}

fn set_mode(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(mode)).unwrap();
}

/// A grader problem found while grading (the machine stalled a test twice, a fixture missing) leaves the
/// report the grader wrote, which names it at its top, and the wrapper exits 2 as the grader did. (A fake
/// grader stands in: what is checked is the wrapper.)
#[test]
fn run_autograder_keeps_a_report_that_names_a_grader_problem_and_exits_2() {
    let fake = tempfile::tempdir().unwrap();
    let bin = fake.path().join("source/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(fake.path().join("submission")).unwrap();
    let grader = bin.join("grader");
    std::fs::write(
        &grader,
        "#!/bin/sh\nwhile [ $# -gt 0 ]; do case \"$1\" in gradescope=*) out=${1#gradescope=};; esac; shift; done\n\
         echo '{\"score\": 7, \"output\": \"GRADER PROBLEM (not the submission): the machine stalled\", \"tests\": []}' > \"$out\"\n\
         exit 2\n",
    )
    .unwrap();
    std::fs::set_permissions(&grader, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let ran =
        Command::new(root().join("gradescope/run_autograder")).env("AUTOGRADER_ROOT", fake.path()).output().unwrap();
    assert_eq!(ran.status.code(), Some(2), "{}", String::from_utf8_lossy(&ran.stderr));
    let results = std::fs::read_to_string(fake.path().join("results/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(json["score"], 7.0, "the grader's report is kept: {results}");
    assert!(json["output"].as_str().unwrap().starts_with("GRADER PROBLEM"), "{results}");
}

/// An upload that is no submission (empty, only a PDF, `solver.java` in lower case) is not graded: score 0,
/// the reason as the first line of the output, in the words of the files handed in, and the wrapper exits 0
/// without sending the student to the staff (that is for a grader that could not run at all).
#[rstest::rstest]
#[case::empty(&[], "Not graded: nothing was handed in")]
#[case::a_pdf(&["writeup.pdf"], "Not graded: only writeup.pdf was handed in: a submission is Board.java and Solver.java")]
#[case::lower_case(&["Board.java", "solver.java"], "Not graded: found solver.java: rename it to Solver.java")]
fn a_wrong_upload_is_not_graded_with_its_reason_first(#[case] files: &[&str], #[case] first_line: &str) {
    let fake = tempfile::tempdir().unwrap();
    let bin = fake.path().join("source/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_grader"), bin.join("grader")).unwrap();
    std::fs::create_dir_all(fake.path().join("source/fixtures")).unwrap();
    std::os::unix::fs::symlink(root().join("fixtures/puzzles"), fake.path().join("source/fixtures/puzzles")).unwrap();
    let upload = fake.path().join("submission");
    std::fs::create_dir_all(&upload).unwrap();
    for file in files {
        std::fs::write(upload.join(file), "class Solver {}").unwrap();
    }
    let ran =
        Command::new(root().join("gradescope/run_autograder")).env("AUTOGRADER_ROOT", fake.path()).output().unwrap();
    let stdout = String::from_utf8_lossy(&ran.stdout);
    assert_eq!(ran.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&ran.stderr));
    let results = std::fs::read_to_string(fake.path().join("results/results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&results).unwrap();
    assert_eq!(json["score"], 0.0, "{results}");
    let output = json["output"].as_str().unwrap();
    assert!(output.lines().next().unwrap().starts_with(first_line), "{output}");
    assert!(!results.contains("contact the course staff") && !results.contains(&*fake.path().to_string_lossy()));
    assert!(stdout.contains(&first_line.replace("Not graded:", "NOT GRADED:")), "the student's text report: {stdout}");
}

/// A Solver that notes every board it is given in a static field and throws them all from moves() on an
/// unsolvable board shows, in the visible Solver 7's message, only the boards of visible tests: the hidden
/// Solver 4a runs after it, in processes of its own. The same grade with Solver 4a visible (run in the same
/// process, before Solver 7) shows its boards there, so the comparison can fail.
#[test]
fn nothing_a_hidden_test_shows_the_submission_reaches_a_visible_tests_output() {
    let (leaky, _copy) = crate::support::gallery_entry("hostile/java/hidden-leak");
    let dir = tempfile::tempdir().unwrap();
    let solver_7 = |hidden: &[&str], only: &[&str]| {
        let policy = dir.path().join(format!("policy-{}.toml", hidden.len()));
        let quick = std::fs::read_to_string(crate::support::quick_policy()).unwrap();
        let listed: Vec<String> = hidden.iter().map(|id| format!("\"{id}\"")).collect();
        let policy_text = quick.replacen("[tests]\n", &format!("[tests]\nhidden = [{}]\n", listed.join(", ")), 1);
        std::fs::write(&policy, policy_text).unwrap();
        let mut args = vec!["--policy", policy.to_str().unwrap()];
        for id in only {
            args.extend(["--only", id]);
        }
        let graded = crate::support::grade(&leaky, &args);
        assert_eq!(graded.test("solver-7")["status"], "failed", "{}", graded.text);
        graded.test("solver-7")["message"].as_str().unwrap_or_default().to_string()
    };
    let alone = solver_7(&[], &["solver-7"]);
    let beside_hidden = solver_7(&["solver-4a"], &["solver-4a", "solver-7"]);
    let beside_visible = solver_7(&[], &["solver-4a", "solver-7"]);
    assert!(alone.contains("the boards I was given"), "{alone}");
    assert_eq!(beside_hidden, alone, "Solver 7 saw what the hidden Solver 4a gave the submission");
    assert!(beside_visible.len() > alone.len(), "a visible Solver 4a runs first and leaks: {beside_visible}");
}
