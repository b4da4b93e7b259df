//! The Java adapter's table of expanded boards (`adapters/java/server/npuzzle/Expanded.java`): the calls it is
//! told of wait in a batch and reach the table in the order of their slots, so this test holds its counts to a
//! plain model (a map from a board's hash to whether it was expanded) across batches, the table's growth in
//! the middle of one, readings between, and resets of a small table and of a large one.

use super::class_check;
use super::tests::java_available;

/// Drives an `Expanded` and a model with the same pseudo-random calls (a fixed seed), in rounds of up to three
/// batches' worth of calls each (so that most rounds fill a batch, some several): delMin()s, neighbors() calls
/// on boards of the grader's lineage (from a pool of hashes, so that a board comes back in a later batch, and
/// with hashes that differ in the low bit only, or are 0 or 1, which the table files as one board) and on other
/// boards. Each round ends with a reading of both counts, and a quarter of them with a reset; every eighth
/// starts afresh, stays under 1,000 calls and ends with a reset (of a table small enough to be kept and zeroed,
/// which the next round reuses). Prints the first difference, or `same`, the rounds, how many filled a batch
/// before their reading, and how many small tables holding boards were reset.
const CHECK: &str = r#"
package npuzzle;

import java.util.HashMap;
import java.util.SplittableRandom;

final class ExpandedCheck {
    public static void main(String[] args) {
        SplittableRandom random = new SplittableRandom(36);
        long[] pool = new long[80_000];
        for (int i = 0; i < pool.length; i++) pool[i] = random.nextLong();
        pool[0] = 0; pool[1] = 1; pool[2] = 2; pool[3] = 3; pool[4] = 0x7000; pool[5] = 0x7001;
        Expanded table = new Expanded();
        HashMap<Long, Boolean> model = new HashMap<>();
        long callsInInterval = 0;
        int rounds = 120;
        int filled = 0;
        int smallResets = 0;
        for (int round = 0; round < rounds; round++) {
            // every eighth round starts afresh, stays small (a table the reset keeps and zeroes) and is reset
            boolean small = round % 8 == 7;
            if (small) {
                table.clear();
                model.clear();
                callsInInterval = 0;
            }
            int calls = 0;
            int steps = 1 + random.nextInt(small ? 1_000 : 4 * Expanded.BATCH);
            for (int step = 0; step < steps; step++) {
                int what = random.nextInt(100);
                if (what < 25) {
                    table.intervalEnds();
                    callsInInterval = 0;
                } else if (what < 95) {
                    table.neighborsCalled();
                    callsInInterval++;
                    // the pool's first 20,000 boards come back often, the rest seldom
                    int at = random.nextInt(4) == 0 ? random.nextInt(pool.length) : random.nextInt(20_000);
                    long hash = pool[at];
                    table.rootNeighbors(hash);
                    calls++;
                    long key = (hash & ~1L) == 0 ? 2 : hash & ~1L;
                    model.merge(key, callsInInterval == 1, Boolean::logicalOr);
                } else {
                    table.neighborsCalled(); // a board outside the grader's lineage
                    callsInInterval++;
                }
            }
            if (calls >= Expanded.BATCH) filled++;
            long distinct = model.size();
            long expanded = model.values().stream().filter(e -> e).count();
            if (table.distinct() != distinct || table.expanded() != expanded) {
                System.out.println("round " + round + ": distinct " + table.distinct() + " (model " + distinct
                        + "), expanded " + table.expanded() + " (model " + expanded + ")");
                return;
            }
            if (small || random.nextInt(4) == 0) {
                if (small && table.distinct() > 0) smallResets++;
                table.clear();
                model.clear();
                callsInInterval = 0;
            }
        }
        System.out.println("same " + rounds + " " + filled + " " + smallResets);
    }
}
"#;

#[test]
fn the_counts_of_batched_calls_are_those_of_a_plain_set() {
    if !java_available() {
        return;
    }
    let said = class_check::run(&["Expanded.java"], "ExpandedCheck", CHECK);
    let counts: Vec<u32> = said
        .strip_prefix("same ")
        .map(|rest| rest.split(' ').filter_map(|n| n.parse().ok()).collect())
        .unwrap_or_default();
    let [rounds, filled, small_resets] = counts[..] else { panic!("{said}") };
    assert!(rounds == 120 && filled > 40, "{said}: too few rounds filled a batch");
    assert!(small_resets >= 10, "{said}: too few small tables were reset and reused");
}
