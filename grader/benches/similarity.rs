//! `cargo bench -p grader --bench similarity`: code similarity over a class of 300 Java students (Board.java
//! and Solver.java each) and a corpus of 1,000 known solutions (a tenth of them zipped), as `grader batch`
//! runs it: every student's fingerprints, the base and the corpus read, the class compared, and
//! `similarity.csv`, the pair pages and the overview's section written. Prints each phase's wall and CPU
//! time and the process's peak memory (BENCHMARKS.md, "Code similarity"). Times are for the record, never
//! asserted. Under `cargo test` (no `--bench`) it runs a class of 30 and a corpus of 100, as a smoke test.
//!
//! The class and the corpus are made from the Java solutions of the gallery and of `fixtures/similarity`,
//! each student and each corpus entry a seeded variant of one of them: lines dropped, duplicated, and dead
//! statements inserted, so that variants of one seed share much but not all, as a class with copies does.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use corpus::rng::Rng;
use grader::class::similarity::{compare, fingerprint, prepare, write};
use grader::gradebook::overview::similarity::section;
use grader::intake::{gather, Caps};
use grader::similarity::findings::Settings;

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let (students, known) = if full { (300, 1_000) } else { (30, 100) };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let seeds = seeds(&root);
    let dir = tempfile::tempdir().expect("a scratch folder");
    let class_dir = dir.path().join("class");
    let corpus_dir = dir.path().join("corpus");
    let mut rng = Rng::new(38);
    for i in 0..students {
        let mut drawn = rng.below(seeds.len() as u64) as usize;
        // The first two students are variants of the last seed (an independently written solution of
        // fixtures/similarity): the class has a pair to find whatever the draws, which change with every
        // solution added to the gallery, and one whose code is not the class's common code (most of the
        // gallery's entries copy java/valid, and a fingerprint in much of the class is left out).
        if i < 2 {
            drawn = seeds.len() - 1;
        }
        write_variant(&class_dir.join(format!("student-{i:03}")), &seeds[drawn], &mut rng);
    }
    for i in 0..known {
        let seed = &seeds[rng.below(seeds.len() as u64) as usize];
        let folder = corpus_dir.join(format!("year-{}", i % 5)).join(format!("solution-{i:04}"));
        write_variant(&folder, seed, &mut rng);
        if i % 10 == 0 {
            zip_folder(&folder);
        }
    }
    println!("{students} students ({} seeds), {known} known solutions", seeds.len());

    let cpu = cpu_seconds();
    let wall = Instant::now();
    let class = gather(&class_dir, &dir.path().join("unpacked"), Caps::default()).expect("the class");
    let prints = fingerprint(&class.students);
    phase("students' fingerprints", wall, cpu);

    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let settings = Settings { threshold: 50.0, corpus: Some(corpus_dir.display().to_string()), base: None };
    let prepared = prepare(settings, &dir.path().join("scratch")).expect("the corpus");
    phase("base and corpus read", wall, cpu);

    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let findings = compare(prepared, prints, &class.roster);
    phase("class compared", wall, cpu);

    let (cpu, wall) = (cpu_seconds(), Instant::now());
    let out = dir.path().join("grades");
    std::fs::create_dir_all(&out).expect("the output folder");
    write(&out, Some(&findings)).expect("similarity.csv and the pages");
    let mut page = String::new();
    section(&mut page, &findings);
    phase("csv, pages and section written", wall, cpu);

    let pages = std::fs::read_dir(out.join("similarity")).map_or(0, |d| d.count());
    println!(
        "pairs: {} in the class, {} with the corpus ({} corpus entries after folding identical ones), {pages} pages",
        findings.comparison.class.len(),
        findings.comparison.corpus.len(),
        findings.corpus.len()
    );
    println!("peak memory (max RSS) of the whole run: {} MiB", peak_rss_kib() / 1024);
    assert!(!findings.comparison.class.is_empty(), "variants of one seed are found");
}

/// The Java solutions the variants are made from: (file name, text) pairs per solution.
fn seeds(root: &Path) -> Vec<Vec<(String, String)>> {
    let mut folders: Vec<PathBuf> = Vec::new();
    for parent in ["fixtures/submissions/java", "fixtures/similarity/java"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(parent))
            .expect("the fixtures")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        found.sort();
        folders.extend(found);
    }
    folders
        .iter()
        .filter_map(|folder| {
            let files: Vec<(String, String)> = ["Board.java", "Solver.java"]
                .iter()
                .filter_map(|name| std::fs::read_to_string(folder.join(name)).ok().map(|text| (name.to_string(), text)))
                .collect();
            (files.len() == 2).then_some(files)
        })
        .collect()
}

/// A variant of `seed` in `folder`: each line dropped (8%), preceded by a dead statement (8%) or doubled (3%).
fn write_variant(folder: &Path, seed: &[(String, String)], rng: &mut Rng) {
    std::fs::create_dir_all(folder).expect("a folder");
    for (name, text) in seed {
        let mut out = String::with_capacity(text.len() + 512);
        for line in text.lines() {
            match rng.below(100) {
                0..=7 => continue,
                8..=15 => out.push_str(&format!("        int unused{} = {};\n", rng.below(1000), rng.below(100))),
                16..=18 => {
                    out.push_str(line);
                    out.push('\n');
                }
                _ => {}
            }
            out.push_str(line);
            out.push('\n');
        }
        std::fs::write(folder.join(name), out).expect("a file");
    }
}

/// Replaces `folder` by `folder.zip` holding it.
fn zip_folder(folder: &Path) {
    let zip_path = folder.with_extension("zip");
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&zip_path).expect("a zip"));
    let top = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    for name in ["Board.java", "Solver.java"] {
        writer.start_file(format!("{top}/{name}"), zip::write::SimpleFileOptions::default()).expect("an entry");
        writer.write_all(&std::fs::read(folder.join(name)).expect("a file")).expect("an entry");
    }
    writer.finish().expect("the zip");
    std::fs::remove_dir_all(folder).expect("the folder");
}

fn phase(name: &str, wall: Instant, cpu: f64) {
    println!("{name:<32} wall {:>7.3} s   cpu {:>7.3} s", wall.elapsed().as_secs_f64(), cpu_seconds() - cpu);
}

/// This process's CPU time (user and system), in seconds.
fn cpu_seconds() -> f64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes one rusage into the pointer it is given.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// This process's peak resident memory, in KiB.
fn peak_rss_kib() -> i64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: as above.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    usage.ru_maxrss
}
