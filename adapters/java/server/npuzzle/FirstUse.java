package npuzzle;

import java.text.DecimalFormat;
import java.text.NumberFormat;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Scanner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;
import java.util.stream.IntStream;

/**
 * The JDK's first-use state, brought into being before the second reading's baseline ({@link KeptAnywhere}).
 * Much of the JDK builds what it needs the first time it is used and keeps it for the process's life: the
 * default locale's number and date symbols, the time-zone rules, the logging configuration, the common
 * fork-join pool. An honest Solver that formats one debug string or reads the clock as a date brings it into
 * being, and before this the second reading charged it to that Solver: 290-320 KB for one
 * {@code String.format} in the default locale, 400-630 KB for {@code LocalDateTime.now()} or
 * {@code new Date().toString()}, 40-77 KB for a Logger, 30-100 KB for a parallel stream or a
 * {@code CompletableFuture} (a JVM's heap after a full collection, before and after the one call), each past
 * the 64 KiB margin a Memory Solver 1 row allows the reading: six rows failed that the official grader, which
 * weighs the Solver alone, passes. So the `ref` world's JVM, whose Solvers' memory is weighed (the grader sets
 * {@code npuzzle.firstUse}), uses each once at start, before any student class is defined: the state is in
 * the baseline, as the JDK's own classes are. It costs 0.06-0.09 s of CPU (a plain JVM: 0.075 s to start,
 * 0.14 s with these), which a JVM that weighs no Solver (the `own` world's, the re-run check's) does not spend.
 *
 * A list always misses something, and what it misses still meets the margin; each entry here is a first use
 * measured past it. The common pool's workers, started here or later for a student's task, are the JVM's: the
 * deep walk leaves them to the second reading ({@link KeptAside#roots}).
 */
final class FirstUse {
    /** How long the common pool's first task may take before the server goes on without it. */
    private static final long POOL_WAIT_SECONDS = 2;

    private FirstUse() {}

    /**
     * Uses each once, if the grader asked for it; a use that fails is skipped. Then walks what the uses made
     * (`made`), as the deep walk will walk a Solver that holds such objects: the walk keeps what it learns of
     * each class it meets (its fields and their layout), and a Solver holding a Logger in a static field
     * leads it through the logging configuration's classes, whose records would otherwise come into being
     * after the baseline (83-100 KB of `java/first-uses`' second reading once every JDK module was open to
     * the walk).
     */
    static void warm() {
        if (!Boolean.getBoolean("npuzzle.firstUse")) return;
        List<Object> made = new ArrayList<>();
        // formatting in the default locale: String.format, printf, NumberFormat, DecimalFormat, Scanner
        quietly(() -> String.format("%d %s %.2f %x %c %b %e %tT%n", 1, "s", 1.5, 255, 'c', true, 1e3, new Date()));
        used(made, NumberFormat::getInstance, f -> f.format(1.5));
        used(made, () -> new DecimalFormat("#.##"), f -> f.format(1.5));
        used(made, () -> new Scanner("1 2.5"), Scanner::nextInt);
        // dates and times in the default zone
        used(made, LocalDateTime::now, LocalDateTime::toString);
        used(made, Date::new, Date::toString);
        // logging's configuration and root logger
        used(made, () -> Logger.getLogger(FirstUse.class.getName()), logger -> logger.fine(""));
        // the common pool, with its workers: CompletableFuture's default executor, a parallel stream on it;
        // waited for a while at most (a sandbox that refuses the pool a thread leaves the task unrun)
        try {
            CompletableFuture.supplyAsync(() -> IntStream.range(0, 1 << 12).parallel().map(i -> i * 31).sum())
                    .get(POOL_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException | Error e) {
            // the pool is as far along as it got (a thread refused is an OutOfMemoryError from supplyAsync)
        }
        for (Object use : made) quietly(() -> DeepSize.walkOnce(use));
    }

    /** Makes an object and uses it once, quietly, keeping it in `into` for the walk. */
    private static <T> void used(List<Object> into, Supplier<T> make, Consumer<T> use) {
        quietly(() -> {
            T made = make.get();
            into.add(made);
            use.accept(made);
        });
    }

    private static void quietly(Runnable use) {
        try {
            use.run();
        } catch (RuntimeException | Error e) {
            // a JDK without the data, a thread or the memory: the server starts all the same
        }
    }
}
