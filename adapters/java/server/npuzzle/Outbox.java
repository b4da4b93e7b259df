package npuzzle;

import java.io.IOException;
import java.io.Writer;

/**
 * Replies on their way out. Writing each reply at once costs a system call, and a wake-up of the grader,
 * per reply (over 100,000 in the Board section), so a reply waits while the next request is already
 * buffered, and goes out when none is, when 64 KB have gathered, or when it has waited 10 ms (a
 * watchdog thread writes it then): a request that hangs, loops or makes the student's code call
 * System.exit never holds back the replies before it (a shutdown hook writes them on exit, and the security
 * manager's exit check before Runtime.halt, which runs no hook: {@link Seal}).
 */
final class Outbox {
    private static final long OVERDUE_NANOS = 10_000_000;
    private final Writer out;
    /** When the oldest reply not yet written was put (0: none waits). Guarded by `this`. */
    private long waitingSince;
    /**
     * Whether the watchdog sleeps until woken (no reply waited when it last looked); otherwise it wakes on its
     * own within 10 ms and looks again. Guarded by `this`.
     */
    private boolean watchdogIdle;

    Outbox(Writer out) {
        this.out = out;
    }

    /**
     * Starts the watchdog in the system thread group, where a student's code (under the security manager)
     * can neither list it nor stop or interrupt it, and registers the shutdown hook.
     */
    void start() {
        ThreadGroup system = Thread.currentThread().getThreadGroup();
        while (system.getParent() != null) system = system.getParent();
        // Sleeps until a reply waits (a timer ticking all along cost ~0.4 s of CPU over a grade), and is woken
        // only from that sleep: a reply that starts waiting while it sleeps on a timer (set for an earlier
        // reply, written since) is looked at when that timer ends, sooner than its own would. Waking it at
        // every batch cost two context switches a batch.
        Thread watchdog = new Thread(system, () -> {
            synchronized (this) {
                while (true) {
                    try {
                        long overdueIn = waitingSince == 0 ? 0 : waitingSince + OVERDUE_NANOS - System.nanoTime();
                        if (waitingSince == 0) {
                            watchdogIdle = true;
                            wait();
                            watchdogIdle = false;
                        } else if (overdueIn > 0) {
                            wait(overdueIn / 1_000_000, (int) (overdueIn % 1_000_000));
                        } else {
                            flush();
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "protocol-outbox");
        watchdog.setDaemon(true);
        watchdog.start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::flush, "protocol-outbox-exit"));
    }

    /** Adds a reply line; writes everything waiting if `now`. */
    synchronized void put(String line, boolean now) throws IOException {
        out.write(line);
        out.write('\n');
        if (now) {
            out.flush();
            waitingSince = 0;
        } else if (waitingSince == 0) {
            waitingSince = System.nanoTime();
            if (watchdogIdle) notify();
        }
    }

    /** Writes every reply waiting (best effort: the channel may be gone). */
    synchronized void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            // the grader has gone; nothing to tell it
        }
        waitingSince = 0;
    }
}
