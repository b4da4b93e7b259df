//! Code similarity in `grader batch`, end to end on a small Python class (each student graded on one
//! test, so the class costs little): a disguised copy found within the class and another against a corpus
//! of known solutions (a folder tree and a zip), a resumed batch comparing the students it did not grade
//! again, odd files noted without stopping the class, the same bytes from the same class, stale pages
//! removed, nothing of it in a student's report; and the pair pages in headless Chromium, at a desktop's
//! width and a phone's.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::batch::{batch_in, parse_csv};
use crate::html::{chromium, console_lines, lay_out, run_chromium, url};
use crate::shard::whole;
use crate::support::{copy_resolved, root};

const ONLY: [&str; 2] = ["--only", "board-1a"];

/// Every file under `dir` (relative path and bytes), sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect();
    files.sort();
    files
}

/// `similarity.csv`'s rows as (student, other, kind), without its header.
fn pairs(out: &Path) -> Vec<(String, String, String)> {
    let rows = parse_csv(&std::fs::read_to_string(out.join("similarity.csv")).unwrap());
    assert_eq!(rows[0][..7], ["student", "name", "other", "other_name", "other_is", "language", "score"]);
    rows[1..].iter().map(|r| (r[0].clone(), r[2].clone(), r[4].clone())).collect()
}

#[test]
fn a_class_is_compared_whole_with_its_corpus_however_much_of_it_was_graded_this_time() {
    let work = tempfile::tempdir().unwrap();
    let (class, out, corpus) = (work.path().join("class"), work.path().join("grades"), work.path().join("known"));
    let fixtures = root().join("fixtures");
    copy_resolved(&fixtures.join("submissions/python/valid"), &class.join("ann"));
    copy_resolved(&fixtures.join("similarity/python/independent-1"), &class.join("ben"));
    let first = batch_in(&class, &out, &ONLY, &[]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(pairs(&out).is_empty(), "two independent solutions are not a pair");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(page.contains("<section id=\"similarity\">") && page.contains("No pair reaches 50%"), "{page}");
    assert!(!out.join("similarity").exists(), "no pair, no page");

    // Two disguised copies join the class: one of ann's solution, one of a known solution; and two students
    // whose files are odd (a 5 MiB file, binary bytes, an empty file, one token repeated).
    copy_resolved(&fixtures.join("similarity/python/copy-of-valid"), &class.join("cal"));
    copy_resolved(&fixtures.join("similarity/python/copy-of-valid-heapq"), &class.join("dot"));
    std::fs::create_dir_all(class.join("eve")).unwrap();
    // (a syntax error first: Python stops at line 1 rather than compile 900,000 lines, 2 s and 1.3 GB)
    let large = format!("x = = 1\n{}", "x = 1\n".repeat(900_000));
    std::fs::write(class.join("eve/board.py"), large).unwrap();
    std::fs::write(class.join("eve/solver.py"), b"\x7fELF\x02\x01\x01\0\0\0binary").unwrap();
    std::fs::create_dir_all(class.join("fay")).unwrap();
    std::fs::write(class.join("fay/board.py"), "").unwrap();
    std::fs::write(class.join("fay/solver.py"), "pass\n".repeat(20_000)).unwrap();
    copy_resolved(&fixtures.join("submissions/python/valid-heapq"), &corpus.join("2023/heapq"));
    let zip = std::fs::File::create(corpus.join("public.zip")).unwrap();
    let mut writer = zip::ZipWriter::new(zip);
    for name in ["board.py", "solver.py"] {
        writer.start_file(format!("8puzzle/{name}"), zip::write::SimpleFileOptions::default()).unwrap();
        let text = std::fs::read(fixtures.join("similarity/python/independent-2").join(name)).unwrap();
        writer.write_all(&text).unwrap();
    }
    writer.finish().unwrap();
    let corpus_flag = ["--similarity-corpus", corpus.to_str().unwrap()];
    let second = batch_in(&class, &out, &[&ONLY[..], &corpus_flag].concat(), &[]);
    assert!(second.code == 0 || second.code == 1, "{}", second.stderr);
    assert!(second.stderr.contains("2 students' reports were current and kept"), "{}", second.stderr);
    let expected = [("ann", "cal", "student"), ("dot", "2023/heapq", "corpus")];
    let expected: Vec<(String, String, String)> =
        expected.iter().map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string())).collect();
    assert_eq!(pairs(&out), expected, "ann, graded in the first run, is still compared");
    assert!(
        second
            .stderr
            .contains("6 submissions compared with each other and 2 known solutions; at or above 50%: 1 pair in"),
        "{}",
        second.stderr
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let section = page.split("<section id=\"similarity\">").nth(1).unwrap().split("</section>").next().unwrap();
    assert!(section.contains("<a href=\"similarity/ann+cal.html\">side by side</a>"), "{section}");
    assert!(section.contains("board.py: 5.1 MiB: only its first 128 KiB are compared"), "{section}");
    for note in ["solver.py: binary", "board.py: empty", "solver.py: 40000 tokens that repeat the same few"] {
        assert!(section.contains(note), "{note} in {section}");
    }
    let pages: Vec<String> = std::fs::read_dir(out.join("similarity"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(pages.len(), 2, "{pages:?}");
    let ann_cal = std::fs::read_to_string(out.join("similarity/ann+cal.html")).unwrap();
    assert!(ann_cal.contains("class=\"ln\">") && ann_cal.contains("def __eq__(self, other):"), "{ann_cal}");
    for report in ["ann.txt", "ann.json", "cal.txt", "dot.json"] {
        let text = std::fs::read_to_string(out.join(report)).unwrap();
        assert!(!text.contains("imilar") && !text.contains("ann+cal"), "{report} shows nothing of it");
    }

    // The same class again: the same bytes.
    let before = files(&out);
    let third = batch_in(&class, &out, &[&ONLY[..], &corpus_flag].concat(), &[]);
    assert_eq!(third.code, second.code, "{}", third.stderr);
    let after = files(&out);
    let compared = |files: &[(PathBuf, Vec<u8>)]| {
        files
            .iter()
            .filter(|(p, _)| p.starts_with("similarity") || p.ends_with("similarity.csv") || p.ends_with("index.html"))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(compared(&after), compared(&before));

    // A higher threshold lists neither pair and leaves no page behind; --no-similarity leaves no CSV.
    let strict = batch_in(&class, &out, &[&ONLY[..], &corpus_flag, &["--similarity-threshold", "90"]].concat(), &[]);
    assert!(strict.code == 0 || strict.code == 1, "{}", strict.stderr);
    assert!(pairs(&out).is_empty() && !out.join("similarity").exists());
    let off = batch_in(&class, &out, &[&ONLY[..], &["--no-similarity"]].concat(), &[]);
    assert!(off.code == 0 || off.code == 1, "{}", off.stderr);
    assert!(!out.join("similarity.csv").exists());
    assert!(!std::fs::read_to_string(out.join("index.html")).unwrap().contains("id=\"similarity\""));
    let bad = batch_in(&class, &out, &["--similarity-threshold", "150"], &[]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--similarity-threshold is a percentage from 0 to 100, not 150"), "{}", bad.stderr);
}

/// Pair pages of the shared class ([`whole`]: three Java students, one solution and two mutations of it)
/// load in a browser without a console message, and fit a phone's width as a desktop's.
#[test]
fn pair_pages_load_in_a_browser_and_fit_a_phone() {
    let (dir, run) = whole();
    let page = dir.join("similarity/bob+carol.html");
    assert!(page.is_file(), "{}", run.stderr);
    let chromium = chromium();
    let loaded = run_chromium(&chromium, &url(&page, ""), &["--dump-dom"]);
    let console = console_lines(&loaded.stderr);
    assert!(console.is_empty(), "the page wrote to the console:\n{}", console.join("\n"));
    assert!(
        loaded.stdout.contains("<h1>bob and carol</h1>") && loaded.stdout.contains("Fragment 1 of"),
        "{}",
        loaded.stdout
    );
    let html = std::fs::read_to_string(&page).unwrap();
    // measured in a folder of its own: the shards' test reads every file of the class's similarity/
    let measuring = tempfile::tempdir().unwrap();
    for layout in lay_out(&chromium, &measuring.path().join("bob+carol.html"), &html, &[420, 1100]) {
        assert_eq!(layout.laid_out, layout.width, "laid out at its frame's width");
        assert_eq!(layout.overflow, "", "at {} px, parts run off the page", layout.width);
    }
    let overview = std::fs::read_to_string(dir.join("index.html")).unwrap();
    for layout in lay_out(&chromium, &dir.join("index.html"), &overview, &[420]) {
        let ours: Vec<&str> = layout.overflow.split("; ").filter(|o| o.contains("pairs")).collect();
        assert!(ours.is_empty(), "at 420 px the pairs' table runs off the page: {ours:?}");
    }
    let artifacts = root().join("target/artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    for (name, size) in [("similarity-pair.png", "1100,1600"), ("similarity-pair-phone.png", "420,1600")] {
        let shot = artifacts.join(name);
        let _ = std::fs::remove_file(&shot);
        let args = [format!("--screenshot={}", shot.display()), format!("--window-size={size}")];
        let run = run_chromium(&chromium, &url(&page, ""), &[&args[0], &args[1]]);
        assert!(std::fs::read(&shot).unwrap_or_default().starts_with(b"\x89PNG"), "{}", run.stderr);
    }
}
