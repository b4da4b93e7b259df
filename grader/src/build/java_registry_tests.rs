//! The Java adapter's registry of MinPQs (`adapters/java/server/npuzzle/QueueRegistry.java`): a queue notes
//! itself at its first operation of a span and when it is made, and a span's end takes the queues noted since
//! the last start or end. This test drives it with stand-in queues through the cases its callers rely on: a
//! queue made in a span ends there though it never operated, one made before and unused does not, a second
//! end takes what operated since the first, queues end in the order they were made, what ends reports its
//! size and gets its heap check, a queue dropped in a span is held for its end but one made outside a span
//! (the `own` world's process never starts one) is not held at all, another thread's operation counts, and a
//! span that ran out of heap lets go of its queues (the collector may take them; one still referenced
//! elsewhere ends as before). Whether that check does anything is the queue's (a MinPQ checks only in a span
//! that asked for heap-order checks, `counters_reset heap`); the last test sees it through the server.

use super::super::conversation::{
    heap_order_checked_only_when_asked, ties_both_ways_are_no_heap_violation, Conversation,
};
use super::class_check;
use super::tests::{build, java_available, valid_with_solver};

/// Prints each span end's queues (their names, in order) and the ending size it added, one line per end.
const CHECK: &str = r#"
package npuzzle;

import java.util.ArrayList;
import java.util.List;

final class RegistryCheck {
    static final class Queue extends QueueRegistry.Tracked {
        final String name;
        final int size;
        int checks;

        Queue(String name, int size) {
            this.name = name;
            this.size = size;
            synchronized (QueueRegistry.class) {
                QueueRegistry.register(this);
            }
        }

        void operate() {
            QueueRegistry.operated(this);
        }

        @Override
        protected int npuzzleSize() {
            return size;
        }

        @Override
        protected void npuzzleCheckHeapOrder() {
            checks++;
        }
    }

    static final List<String> lines = new ArrayList<>();

    static void end(String label) {
        long before = Counters.pqEndingSize;
        List<QueueRegistry.Tracked> ended;
        synchronized (QueueRegistry.class) {
            ended = QueueRegistry.endSpan();
        }
        StringBuilder line = new StringBuilder(label).append(':');
        for (QueueRegistry.Tracked q : ended) line.append(' ').append(((Queue) q).name);
        lines.add(line.append(" +").append(Counters.pqEndingSize - before).toString());
    }

    static void begin() {
        synchronized (QueueRegistry.class) {
            QueueRegistry.beginSpan();
        }
    }

    /** Whether the collector clears `reference` within twenty full collections. */
    static boolean collected(java.lang.ref.WeakReference<?> reference) throws InterruptedException {
        for (int i = 0; i < 20 && reference.get() != null; i++) {
            System.gc();
            Thread.sleep(5);
        }
        return reference.get() == null;
    }

    public static void main(String[] args) throws Exception {
        begin();
        Queue a = new Queue("a", 1);
        Queue b = new Queue("b", 10);
        b.operate();
        b.operate();
        end("made");
        Queue c = new Queue("c", 100);
        begin();
        b.operate();
        end("unused");
        c.operate();
        a.operate();
        end("again");
        end("nothing");
        // a queue dropped in a span is held for its end
        begin();
        Queue e = new Queue("e", 1000);
        e.operate();
        java.lang.ref.WeakReference<Queue> dropped = new java.lang.ref.WeakReference<>(e);
        e = null;
        if (collected(dropped)) lines.add("e collected");
        end("dropped");
        // one made outside a span is not held: the collector takes it
        java.lang.ref.WeakReference<Queue> outside = new java.lang.ref.WeakReference<>(new Queue("f", 10000));
        if (!collected(outside)) lines.add("f kept");
        end("outside");
        // ten thousand made outside a span, a tenth of them kept: the pruning of the cleared references on the
        // way loses none of those kept
        List<Queue> kept = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Queue q = new Queue("p", 0);
            if (i % 10 == 0) kept.add(q);
            if (i % 2_500 == 0) System.gc();
        }
        System.gc();
        List<QueueRegistry.Tracked> ended;
        synchronized (QueueRegistry.class) {
            ended = QueueRegistry.endSpan();
        }
        lines.add("pruned: " + ended.size() + " of " + kept.size());
        // another thread's operation
        begin();
        Thread helper = new Thread(b::operate);
        helper.start();
        helper.join();
        end("thread");
        // a span let go of
        begin();
        Queue d = new Queue("d", 100000);
        d.operate();
        a.operate();
        java.lang.ref.WeakReference<Queue> letGo = new java.lang.ref.WeakReference<>(d);
        d = null;
        synchronized (QueueRegistry.class) {
            QueueRegistry.letGoOfSpan();
        }
        if (!collected(letGo)) lines.add("d kept");
        end("let go");
        lines.add("checks " + a.checks + " " + b.checks + " " + c.checks);
        System.out.println(String.join("|", lines));
    }
}
"#;

#[test]
fn a_span_ends_the_queues_made_or_used_in_it_in_the_order_they_were_made() {
    if !java_available() {
        return;
    }
    let said = class_check::run(
        &["QueueRegistry.java", "Counters.java", "Expanded.java", "Sites.java", "BoardMeter.java"],
        "RegistryCheck",
        CHECK,
    );
    assert_eq!(
        said,
        "made: a b +11|unused: b +10|again: a c +101|nothing: +0|dropped: e +1000|outside: +0|pruned: 1000 of \
         1000|thread: b +10|let go: a +1|checks 3 3 1",
        "a made but unused queue ends in its span; c, made between spans and unused in the next, does not; the \
         second end takes what operated since the first, in the order made; e, dropped in its span, is held for \
         its end; f, made outside a span, is not held, and the pruning of such keeps every live one; another thread's operation counts; d, let go of, is \
         collected"
    );
}

/// Through the server: a Solver that lowers every seventh search node's priority after inserting it breaks its
/// queues' heap order, which the adapter checks, and finds, only when asked (`counters_reset heap`); its
/// moves() answers how many comparisons its nodes made, which is how the helper sees whether a check ran.
#[test]
fn the_heap_order_is_checked_only_in_a_span_that_asks() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|solver| {
        solver
            .replace("private final int priority;", "private int priority;")
            .replace(
                "pq.insert(new SearchNode(next, node.moves + 1, node));",
                "SearchNode child = new SearchNode(next, node.moves + 1, node);\n            pq.insert(child);\n            \
                 if (pq.size() % 7 == 0) child.priority -= 1000;",
            )
            .replace("    private final SearchNode goal;\n", "    private final SearchNode goal;\n    private static int compares;\n")
            .replace("        public int compareTo(SearchNode that) {\n", "        public int compareTo(SearchNode that) {\n            compares++;\n")
            .replace(
                "throw new IllegalArgumentException(\"initial board is null\");\n",
                "throw new IllegalArgumentException(\"initial board is null\");\n        compares = 0;\n",
            )
            .replace("        return goal.moves;\n", "        return compares;\n")
    });
    let mut c = Conversation::start_ref(build(dir.path()));
    heap_order_checked_only_when_asked(&mut c, "3 7 2 1 3 4 6 0 5 8");
    c.finish();
}

/// Through the server: a Solver whose compareTo never answers 0 (`priority < that.priority ? -1 : 1`, a
/// common student pattern) mutates nothing, and its queues show no heap-order violation.
#[test]
fn a_compare_to_that_never_answers_zero_is_no_mutation() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|solver| {
        solver.replace(
            "return Integer.compare(this.priority, that.priority);",
            "return this.priority < that.priority ? -1 : 1;",
        )
    });
    let mut c = Conversation::start_ref(build(dir.path()));
    ties_both_ways_are_no_heap_violation(&mut c, "3 4 2 1 8 7 6 5 3 0", 20);
    c.finish();
}
