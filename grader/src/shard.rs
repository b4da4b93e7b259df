//! One shard of a class: `--shard K/N` grades the students whose identity's stable hash
//! ([`StudentId::stable_hash`]) is K modulo N. A student's shard depends on their identity alone, so adding
//! a student to the class moves no one else, and every machine that grades a shard of the same class picks
//! the same students. Indexes count from 0, as Slurm's array task ids and Kubernetes' completion indexes do.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::identity::StudentId;

/// Shard `index` of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which shard, from 0.
    pub index: u64,
    /// How many shards the class is split into.
    pub count: u64,
}

impl Shard {
    /// The shard a student belongs to among `count`.
    pub fn of(id: &StudentId, count: u64) -> Shard {
        Shard { index: id.stable_hash() % count.max(1), count }
    }

    /// Whether this shard grades the student.
    pub fn holds(&self, id: &StudentId) -> bool {
        Shard::of(id, self.count) == *self
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `K/N`, with 0 <= K < N.
    fn from_str(text: &str) -> Result<Shard, String> {
        let usage =
            || format!("a shard is K/N with 0 <= K < N (the 3 shards of a class are 0/3, 1/3, 2/3), not `{text}`");
        let (index, count) = text.split_once('/').ok_or_else(usage)?;
        let (Ok(index), Ok(count)) = (index.trim().parse::<u64>(), count.trim().parse::<u64>()) else {
            return Err(usage());
        };
        if count == 0 || index >= count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;

    use super::*;

    #[rstest]
    #[case("0/3", Some((0, 3)))]
    #[case("2/3", Some((2, 3)))]
    #[case("0/1", Some((0, 1)))]
    #[case("3/3", None)]
    #[case("1/0", None)]
    #[case("-1/3", None)]
    #[case("1", None)]
    #[case("a/b", None)]
    fn shards_are_k_of_n_counted_from_zero(#[case] text: &str, #[case] expected: Option<(u64, u64)>) {
        assert_eq!(text.parse::<Shard>().ok().map(|s| (s.index, s.count)), expected);
    }

    /// Every student is in exactly one shard, and adding students to the class moves no one.
    #[test]
    fn each_student_is_in_one_shard_whatever_else_the_class_holds() {
        let ids: Vec<StudentId> = (0..200).map(|i| StudentId::entry(&format!("student{i}"))).collect();
        for id in &ids {
            let holding: Vec<u64> = (0..5).filter(|&k| Shard { index: k, count: 5 }.holds(id)).collect();
            assert_eq!(holding.len(), 1, "{id}");
        }
        let sizes: Vec<usize> =
            (0..5).map(|k| ids.iter().filter(|id| Shard { index: k, count: 5 }.holds(id)).count()).collect();
        assert!(sizes.iter().all(|&n| (20..=60).contains(&n)), "shards of 200 are about even: {sizes:?}");
        // pinned: if these change, every sharded class is split differently
        assert_eq!(Shard::of(&StudentId::canvas("101"), 3), Shard { index: 0, count: 3 });
        assert_eq!(Shard::of(&StudentId::canvas("101"), 7), Shard { index: 3, count: 7 });
    }
}
