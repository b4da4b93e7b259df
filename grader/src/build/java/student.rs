//! The student's two files, `Board.java` and `Solver.java` ([`STUDENT_FILES`]): read as `javac` will take
//! them (a byte-order mark dropped; a `package` line refused, or blanked where the policy grades such files),
//! compiled into both worlds ([`compile_student`]), and the text that explains a failure javac alone words
//! as the student's mistake: a package line, a textbook class the grader lacks, a `.java` file besides the
//! two (the official grader compiles those two alone).

use std::ffi::OsString;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::adapter::{algs4_provided, Adapter};
use super::cache::write_file;
use super::error::{io_error, JavaBuildError};
use super::jdk::{compile_in_one_jvm, javac_args, Compiled, Jdk, INLINE_STRING_CONCAT, NO_SOURCE_PATH};
use crate::runner::spec::Termination;

/// The files a Java submission consists of.
pub(super) const STUDENT_FILES: [&str; 2] = ["Board.java", "Solver.java"];

/// Compiles the student's files into `out/own` and `out/ref` (one after the other, in one JVM:
/// `jdk::compile_in_one_jvm`). Writes `out/own-error.txt` when their files do not compile, `out/ref-error.txt`
/// when only the substitution fails.
pub(super) fn compile_student(
    jdk: &Jdk,
    adapter: &Adapter,
    sources: &[(&str, Vec<u8>)],
    out: &Path,
) -> Result<(), JavaBuildError> {
    // Both compiles name their files from here (javac's messages say `Solver.java:12`); the `ref` world's
    // names Solver.java alone and has no source path, so the student's Board.java beside it is never read.
    let src = out.join("src");
    for (name, bytes) in sources {
        write_file(&src.join(name), bytes)?;
    }
    let encoding = if sources.iter().all(|(_, b)| std::str::from_utf8(b).is_ok()) { "UTF-8" } else { "ISO-8859-1" };
    let own_out = out.join("own");
    let ref_out = out.join("ref");
    let names: Vec<PathBuf> = STUDENT_FILES.iter().map(PathBuf::from).collect();
    // The adapter's module, of which the student's code sees the package it exports (the textbook's), and
    // the Java SE API, not the JDK's own modules (no sun.misc.Unsafe): what the JVM will give it.
    let module: Vec<OsString> = vec![
        NO_SOURCE_PATH[0].into(),
        NO_SOURCE_PATH[1].into(),
        "-p".into(),
        adapter.classes.clone().into_os_string(),
        "--add-modules".into(),
        "npuzzle".into(),
        "--limit-modules".into(),
        "java.se,npuzzle".into(),
    ];
    // the Solver the `ref` world's JVM weighs concatenates strings without `invokedynamic`: the method handles
    // that links would stay on the heap, and the second reading of its memory would count them
    let with_board =
        [&module[..], &["-cp".into(), adapter.refboard.clone().into_os_string(), INLINE_STRING_CONCAT.into()]].concat();
    let compilations = [
        ("own", javac_args(&own_out, &module, encoding, &names)?),
        ("ref", javac_args(&ref_out, &with_board, encoding, &names[1..])?),
    ];
    let shown = [adapter.classes.as_path(), adapter.refboard.as_path()];
    let (run, compiled) = compile_in_one_jvm(jdk, out, &src, (&adapter.compiler, &shown), &compilations)?;
    let [own, reference] = <[Compiled; 2]>::try_from(compiled).expect("one result for each compilation");
    // what a compilation that did not succeed says: javac's output, or why there is none
    let failure = |compiled: &Compiled| {
        if run.timed_out && compiled.status.is_none() {
            return crate::build::step::timed_out_log(&jdk.limits, &run);
        }
        if crate::build::step::stopped_at_cpu_cap(&run) && compiled.status.is_none() {
            return crate::build::step::cpu_cap_line(&jdk.limits) + &run.combined();
        }
        let log = match compiled.status {
            Some(_) => compiled.log.clone(),
            None => run.combined(),
        };
        match log.trim().is_empty() {
            true => {
                format!("javac failed ({}) without a message", compiled.status.map_or(run.status, Termination::Code))
            }
            false => log,
        }
    };

    if !own.success() {
        let mut log = failure(&own);
        if let Some(hint) = algs4_hint(sources) {
            log = format!("{hint}\n\n{log}");
        }
        write_file(&out.join("own-error.txt"), log.as_bytes())?;
        return Ok(());
    }
    if !reference.success() {
        // no student class may stay behind: the ref world must hold nothing half-built
        let _ = fs::remove_dir_all(&ref_out);
        write_file(&out.join("ref-error.txt"), failure(&reference).as_bytes())?;
    }
    fs::create_dir_all(&ref_out).map_err(io_error("cannot create the ref class directory"))?;
    Ok(())
}

/// When a student's code names a textbook class this grader does not provide, says so: javac alone says
/// only "cannot find symbol" or "package does not exist", which reads like the student's mistake.
fn algs4_hint(sources: &[(&str, Vec<u8>)]) -> Option<String> {
    const PACKAGE: &str = "edu.princeton.cs.algs4.";
    let mut provided = algs4_provided();
    provided.sort_unstable();
    let mut lines = Vec::new();
    for (name, bytes) in sources {
        let text = String::from_utf8_lossy(bytes);
        let mut missing: Vec<String> = Vec::new();
        for (at, _) in text.match_indices(PACKAGE) {
            let class: String =
                text[at + PACKAGE.len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if !class.is_empty() && !provided.contains(&class.as_str()) && !missing.contains(&class) {
                missing.push(class);
            }
        }
        lines.extend(missing.into_iter().map(|class| {
            format!(
                "{name} uses {PACKAGE}{class}, which this grader does not provide; allowed: {}.",
                provided.join(", ")
            )
        }));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Drops a UTF-8 byte-order mark, which javac rejects as an illegal character.
pub(super) fn strip_bom(bytes: Vec<u8>) -> Vec<u8> {
    match bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => rest.to_vec(),
        None => bytes,
    }
}

/// A message explaining the default package when a file declares a package, else `None`.
pub(super) fn package_declarations(sources: &[(&str, Vec<u8>)]) -> Option<String> {
    let mut log = String::new();
    for (name, bytes) in sources {
        let text = String::from_utf8_lossy(bytes);
        if let Some((line, declaration)) = package_declaration(&text) {
            let _ = writeln!(log, "{name}:{line}: error: `{declaration}` is not allowed here");
        }
    }
    if log.is_empty() {
        return None;
    }
    log.push_str(
        "Board.java and Solver.java must be in the default package: delete the `package` line at the top of \
         each file (IDEs such as IntelliJ and Eclipse add one when the file is created inside a package). The \
         grader, like the assignment's own autograder, compiles the two files on their own, with \
         edu.princeton.cs.algs4 available for `import edu.princeton.cs.algs4.MinPQ;` and similar.\n",
    );
    Some(log)
}

/// Removes each file's `package` declaration (blanked in place, so the compiler's line numbers stay the
/// student's) and says so, for a policy that grades such submissions anyway.
pub(super) fn strip_package_declarations(sources: &mut [(&str, Vec<u8>)]) -> Vec<String> {
    let mut notes = Vec::new();
    for (name, bytes) in sources.iter_mut() {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let Some((line, declaration)) = package_declaration(&text) else { continue };
        let Some(at) = text.find("package") else { continue };
        let end = text[at..].find(';').map_or(text.len(), |i| at + i + 1);
        let blanked: String = text[at..end].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        *bytes = format!("{}{blanked}{}", &text[..at], &text[end..]).into_bytes();
        notes.push(format!(
            "{name}:{line} declares `{declaration}`: the grader removed that line and graded the file in the \
             default package, as this course's policy allows (java.grade_package_declarations); the official \
             grader would not compile it, so delete the line before you submit elsewhere."
        ));
    }
    notes
}

/// When a Java submission that did not compile has `.java` files besides Board.java and Solver.java, what
/// happened and what to do: the grader, as the official one, compiles those two files only.
pub(super) fn extra_files_hint(submission: &Path) -> Option<String> {
    let mut extra: Vec<String> = fs::read_dir(submission)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.ends_with(".java") && !STUDENT_FILES.contains(&name.as_str()))
        .collect();
    if extra.is_empty() {
        return None;
    }
    extra.sort();
    let classes: Vec<&str> = extra.iter().map(|f| f.trim_end_matches(".java")).collect();
    Some(format!(
        "Only Board.java and Solver.java are compiled (as the official grader compiles them), not {}: nest {} \
         in Solver.java (or Board.java), e.g. `private static class {} {{ … }}` inside class Solver, and \
         submit the two files alone. The compiler's output:\n\n",
        extra.join(", "),
        classes.join(" and "),
        classes[0]
    ))
}

/// The line number and text of a `package` declaration that starts the compilation unit, skipping comments.
fn package_declaration(text: &str) -> Option<(usize, String)> {
    let mut rest = text;
    let mut line = 1;
    loop {
        let trimmed = rest.trim_start();
        line += rest[..rest.len() - trimmed.len()].matches('\n').count();
        rest = trimmed;
        if let Some(after) = rest.strip_prefix("//") {
            let end = after.find('\n').map_or(after.len(), |i| i);
            rest = &after[end..];
        } else if let Some(after) = rest.strip_prefix("/*") {
            let end = after.find("*/").map_or(after.len(), |i| i + 2);
            line += after[..end].matches('\n').count();
            rest = &after[end..];
        } else {
            break;
        }
    }
    let word_end = rest.find(|c: char| !c.is_ascii_alphanumeric() && c != '_').unwrap_or(rest.len());
    if &rest[..word_end] != "package" {
        return None;
    }
    let end = rest.find(';').map_or(rest.len().min(80), |i| i + 1);
    Some((line, rest[..end].split_whitespace().collect::<Vec<_>>().join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_that_grades_package_declarations_blanks_the_line_and_says_so() {
        let board = b"// my board\npackage puzzle.eight;\nclass Board {}\n".to_vec();
        let mut sources = [("Board.java", board), ("Solver.java", b"class Solver {}".to_vec())];
        let notes = strip_package_declarations(&mut sources);
        assert_eq!(
            String::from_utf8_lossy(&sources[0].1),
            format!("// my board\n{}\nclass Board {{}}\n", " ".repeat(21))
        );
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("Board.java:2 declares `package puzzle.eight;`: the grader removed"), "{notes:?}");
    }

    #[test]
    fn extra_java_files_are_named_with_what_to_do() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(extra_files_hint(dir.path()), None);
        for file in ["Board.java", "Solver.java", "SearchNode.java", "notes.txt"] {
            fs::write(dir.path().join(file), "").unwrap();
        }
        let hint = extra_files_hint(dir.path()).unwrap();
        assert!(
            hint.starts_with("Only Board.java and Solver.java are compiled (as the official grader compiles them), not SearchNode.java: nest SearchNode in Solver.java"),
            "{hint}"
        );
    }

    #[test]
    fn a_textbook_class_the_grader_lacks_is_named_with_the_ones_it_has() {
        let solver = b"import edu.princeton.cs.algs4.MinPQ;\nimport edu.princeton.cs.algs4.IndexMinPQ;\n".to_vec();
        let board = b"import edu.princeton.cs.algs4.Stack;\n".to_vec();
        let hint = algs4_hint(&[("Board.java", board.clone()), ("Solver.java", solver)]).unwrap();
        assert!(
            hint.starts_with(
                "Solver.java uses edu.princeton.cs.algs4.IndexMinPQ, which this grader does not provide; allowed: \
                 Bag, In, LinkedBag, LinkedQueue, LinkedStack, MaxPQ, MinPQ, Queue, ResizingArrayBag, \
                 ResizingArrayQueue, ResizingArrayStack, Stack, StdIn, StdOut, StdRandom, Stopwatch, StopwatchCPU."
            ),
            "{hint}"
        );
        assert_eq!(algs4_hint(&[("Board.java", board)]), None);
    }

    #[test]
    fn package_detection_ignores_comments_and_identifiers() {
        assert_eq!(package_declaration("package a.b;\nclass X {}"), Some((1, "package a.b;".into())));
        assert_eq!(package_declaration("/* package x; */\nimport y;"), None);
        assert_eq!(package_declaration("// package x;\nclass packaged {}"), None);
        assert_eq!(package_declaration("packages();"), None);
    }
}
