//! The CPU budgets of a grade's sections (`limits.section_cpu_seconds`): what each section's tests have
//! used, and what the next test of a section may still use. A runaway then costs its own section's tests
//! only, whatever order the sections run in (the memory and timing rows run first), while every test keeps
//! its own per-request limits. The sessions hold a test to its allowance (`runner::meter`); this module
//! only does the sums.

use std::time::Duration;

use crate::policy::SectionCpu;
use crate::results::Category;

/// A section of the grade with a CPU budget of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Section {
    Correctness,
    MemoryAndTiming,
    Beyond,
}

impl Section {
    /// The section a category's tests belong to; `None` for the build, which runs no session.
    pub(super) fn of(category: Category) -> Option<Section> {
        match category {
            Category::Compile => None,
            Category::Api | Category::Board | Category::Solver => Some(Section::Correctness),
            Category::Memory | Category::Timing => Some(Section::MemoryAndTiming),
            Category::Beyond => Some(Section::Beyond),
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// The policy field of its budget.
    fn field(self) -> &'static str {
        match self {
            Section::Correctness => "correctness",
            Section::MemoryAndTiming => "memory_and_timing",
            Section::Beyond => "beyond",
        }
    }

    /// Its tests, as a report names them.
    fn tests(self) -> &'static str {
        match self {
            Section::Correctness => "the API and correctness tests",
            Section::MemoryAndTiming => "the memory and timing tests",
            Section::Beyond => "the tests beyond the official grader",
        }
    }
}

/// Each section's budget and what its tests have used.
#[derive(Debug)]
pub(super) struct Budgets {
    budget: [Duration; 3],
    spent: [Duration; 3],
}

impl Budgets {
    pub(super) fn new(seconds: SectionCpu) -> Budgets {
        let each = [seconds.correctness, seconds.memory_and_timing, seconds.beyond];
        Budgets { budget: each.map(Duration::from_secs_f64), spent: [Duration::ZERO; 3] }
    }

    /// The grade's whole budget: every section's together (the kernel's limit on a process, a last stop).
    pub(super) fn whole(&self) -> Duration {
        self.budget.iter().sum()
    }

    /// What `section`'s next test may still use.
    pub(super) fn left(&self, section: Section) -> Duration {
        self.budget[section.index()].saturating_sub(self.spent[section.index()])
    }

    /// A test of `section` used `cpu` (every process of the submission, every thread).
    pub(super) fn spend(&mut self, section: Section, cpu: Duration) {
        self.spent[section.index()] += cpu;
    }

    /// A test of `section` ran into its allowance: the section has nothing left.
    pub(super) fn exhaust(&mut self, section: Section) {
        self.spent[section.index()] = self.spent[section.index()].max(self.budget[section.index()]);
    }

    /// The line every test of `section` reads once its budget is used up.
    pub(super) fn used_up(&self, section: Section) -> String {
        format!(
            "timed out on the CPU budget of {}: the submission's processes used more than {:.0} s of CPU time in \
             them (`limits.section_cpu_seconds.{}`), so the rest of them are not run; the other sections have \
             budgets of their own",
            section.tests(),
            self.budget[section.index()].as_secs_f64(),
            section.field()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_section_spends_its_own_budget() {
        let seconds = SectionCpu { correctness: 10.0, memory_and_timing: 20.0, beyond: 5.0 };
        let mut budgets = Budgets::new(seconds);
        assert_eq!(budgets.whole(), Duration::from_secs(35));
        budgets.spend(Section::MemoryAndTiming, Duration::from_secs(25));
        assert_eq!(budgets.left(Section::MemoryAndTiming), Duration::ZERO);
        assert_eq!(budgets.left(Section::Correctness), Duration::from_secs(10), "untouched by the other's runaway");
        budgets.spend(Section::Correctness, Duration::from_secs(4));
        assert_eq!(budgets.left(Section::Correctness), Duration::from_secs(6));
        budgets.exhaust(Section::Beyond);
        assert_eq!(budgets.left(Section::Beyond), Duration::ZERO);
        let line = budgets.used_up(Section::Correctness);
        assert!(line.starts_with("timed out on the CPU budget of the API and correctness tests"), "{line}");
        assert!(line.contains("more than 10 s") && line.contains("section_cpu_seconds.correctness"), "{line}");
    }

    #[test]
    fn every_category_but_the_build_has_a_section() {
        for category in Category::ALL {
            assert_eq!(Section::of(category).is_none(), category == Category::Compile, "{category:?}");
        }
    }
}
