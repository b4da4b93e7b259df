package npuzzle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's own threads, whose CPU time the grader does not charge to the student (`runtime_threads=` in the
 * handshake): the garbage collector's, the JIT compiler's and the VM's housekeeping threads. The grader
 * starts the JVM with fixed numbers of them (`-XX:-UseDynamicNumberOfGCThreads
 * -XX:-UseDynamicNumberOfCompilerThreads`), so all exist before the first request, and the server lists
 * them before any student class is loaded, when a thread's name is still the JVM's word. Every other thread
 * is charged: the request thread, threads a student starts, and the JVM threads that run Java code on
 * anyone's behalf (`Finalizer` and `Common-Cleaner` run a student's finalize() and cleaning actions,
 * `Notification Thread` the listeners of management notifications), as well as this server's own.
 */
final class RuntimeThreads {
    private RuntimeThreads() {}

    /**
     * The names (as Linux keeps them: the first 15 bytes) of the threads that run JVM code alone. A thread
     * named otherwise is charged: a name this list misses costs the student a little CPU, never the grader
     * its evidence.
     */
    private static final String[] NAMES = {
        "GC Thread#", "VM Thread", "Reference Handl", "Signal Dispatch", "Service Thread", "Monitor Deflati",
        "C1 CompilerThre", "C2 CompilerThre", "Sweeper thread", "VM Periodic Tas",
    };

    /** The Linux thread ids (this process's PID namespace's) of the JVM's own threads, now; empty if unknown. */
    static List<Long> list() {
        List<Long> ids = new ArrayList<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path task : tasks) {
                String name = new String(Files.readAllBytes(task.resolve("comm")), StandardCharsets.UTF_8).trim();
                if (isRuntime(name)) ids.add(Long.parseLong(task.getFileName().toString()));
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        ids.sort(null);
        return ids;
    }

    private static boolean isRuntime(String name) {
        for (String prefix : NAMES) {
            if (name.startsWith(prefix)) return true;
        }
        return false;
    }

    /** The handshake's capability: `runtime_threads=T1,T2,...`, or "" when none is known. */
    static String capability(List<Long> ids) {
        if (ids.isEmpty()) return "";
        StringBuilder sb = new StringBuilder(" runtime_threads=");
        for (int i = 0; i < ids.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(ids.get(i));
        }
        return sb.toString();
    }
}
