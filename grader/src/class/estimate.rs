//! What a class will cost, before it is graded: CPU seconds per student by language (one table, measured on
//! the gallery, each figure with where it came from), times the class's students by language, and the wall
//! time that makes on this machine at `--jobs`. `grader batch --dry-run` prints it, and the progress line
//! shows its time left until the first student is done, so an instructor knows whether to shard.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use super::progress::duration;

/// One language's cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// The language as reports name it (`SubmissionKind::language`).
    pub language: &'static str,
    /// CPU seconds (user and system, every process) of one correct submission's whole grade, its build
    /// included: the default policy over the bundled fixtures.
    pub cpu_seconds: f64,
    /// CPU seconds spent once per machine (per grader work directory), by the first submission of the
    /// language.
    pub once_per_machine: f64,
    /// Where the figure came from.
    pub source: &'static str,
}

/// CPU per student by language, measured with `/usr/bin/time grader grade SUBMISSION --quiet` (default policy,
/// the bundled fixtures) on the project's 2-core machine at load 1-2, 2026-12-05, each on a copy of the
/// gallery entry with a comment added, so that its build was not cached (the grader's own figures and the
/// machine's busy time in `/proc/stat` agreed within 0.2 s). An estimate to decide whether to shard, not a
/// benchmark: BENCHMARKS.md has the measured figures.
pub const COSTS: [Cost; 4] = [
    Cost {
        language: "program",
        cpu_seconds: 3.9,
        once_per_machine: 0.0,
        source: "target/release/reference-submission: 3.17 s user + 0.72 s system (2026-12-01, load 11-13)",
    },
    Cost {
        language: "java",
        cpu_seconds: 11.4,
        once_per_machine: 0.0,
        source: "fixtures/submissions/java/valid: 8.99 + 2.08 s and 9.62 + 2.15 s (user + system), javac included",
    },
    Cost {
        language: "python",
        cpu_seconds: 46.0,
        once_per_machine: 0.0,
        source: "fixtures/submissions/python/valid: 44.22 s user + 1.76 s system",
    },
    Cost {
        language: "rust",
        cpu_seconds: 5.4,
        once_per_machine: 10.7,
        source: "fixtures/submissions/rust/valid-last-two-twin: 4.10 s user + 1.31 s system with the grader's \
                 crates built; 16.06 s in a fresh work directory, where the crates a submission links against \
                 are built first",
    },
];

/// What a class will cost.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Students per language (`unknown` for a submission no build recognises: it costs nothing to refuse).
    pub languages: BTreeMap<String, usize>,
    /// CPU seconds in all.
    pub cpu_seconds: f64,
}

impl Estimate {
    /// The estimate for the submissions at `paths` (one per student to grade).
    pub fn of<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Estimate {
        let mut languages = BTreeMap::new();
        for path in paths {
            let language = crate::build::handed_in::examine(path).map_or("unknown", |found| found.kind.language());
            *languages.entry(language.to_string()).or_insert(0) += 1;
        }
        let cpu_seconds = languages
            .iter()
            .filter_map(|(language, &n)| {
                let cost = COSTS.iter().find(|c| c.language == language)?;
                Some(cost.cpu_seconds * n as f64 + cost.once_per_machine)
            })
            .sum();
        Estimate { languages, cpu_seconds }
    }

    /// The wall time on `cores` cores grading `jobs` students at once.
    pub fn wall(&self, jobs: usize, cores: usize) -> Duration {
        Duration::from_secs_f64(self.cpu_seconds / jobs.clamp(1, cores.max(1)) as f64)
    }

    /// The estimate in a few lines, for `--dry-run`: the students by language, the CPU, the wall time here,
    /// and what sharding over `machines`-like machines would give.
    pub fn describe(&self, jobs: usize, cores: usize, narrowed: bool) -> String {
        let counts: Vec<String> = self.languages.iter().map(|(l, n)| format!("{n} {l}")).collect();
        let mut text = format!("students by language: {}\n", counts.join(", "));
        let per: Vec<String> = COSTS
            .iter()
            .filter(|c| self.languages.contains_key(c.language))
            .map(|c| {
                let once = if c.once_per_machine > 0.0 {
                    format!(" + {:.0} s once per machine", c.once_per_machine)
                } else {
                    String::new()
                };
                format!("{} {:.0} s{once}", c.language, c.cpu_seconds)
            })
            .collect();
        text.push_str(&format!(
            "estimated CPU: {} ({} per student: a correct submission's whole grade under the default policy{})\n",
            duration(Duration::from_secs_f64(self.cpu_seconds)),
            per.join(", "),
            if narrowed { "; --only or a policy that skips tests makes it less" } else { "" }
        ));
        let here = self.wall(jobs, cores);
        text.push_str(&format!("on this machine ({cores} cores, --jobs {jobs}): about {}\n", duration(here)));
        for shards in [4, 16, 64] {
            let each = Duration::from_secs_f64(here.as_secs_f64() / shards as f64);
            text.push_str(&format!(
                "  with --shard K/{shards} on {shards} such machines: about {} each\n",
                duration(each)
            ));
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_costs_its_students_by_language_and_each_first_build_once() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/submissions");
        let java = root.join("java/valid");
        let python = root.join("python/valid");
        let empty = tempfile::tempdir().unwrap();
        let estimate = Estimate::of([java.as_path(), java.as_path(), python.as_path(), empty.path()]);
        let cost = |l: &str| COSTS.iter().find(|c| c.language == l).unwrap().cpu_seconds;
        assert_eq!(estimate.languages.get("java"), Some(&2));
        assert_eq!(estimate.languages.get("unknown"), Some(&1));
        assert_eq!(estimate.cpu_seconds, 2.0 * cost("java") + cost("python"));
        assert_eq!(
            estimate.wall(4, 2),
            Duration::from_secs_f64(estimate.cpu_seconds / 2.0),
            "no more at once than cores"
        );
        let text = estimate.describe(2, 2, true);
        assert!(text.contains("2 java, 1 python, 1 unknown") && text.contains("--only"), "{text}");
    }
}
