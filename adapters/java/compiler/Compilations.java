import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Several javac compilations in one JVM, one after another: the build of a student's files compiles them
 * twice (once for each world), and a second javac in the same JVM costs a tenth of a fresh one (its classes
 * are loaded and compiled already), where a second JVM costs as much as the first.
 *
 * <p>Usage: {@code java -cp DIR Compilations --log-cap BYTES --compile LOG ARG... [--compile LOG ARG...]...},
 * where the ARGs are one javac command line each. It prints {@code ready} once it has the JDK's compiler;
 * then each compilation's output (what javac would print on its standard output and error, in the order
 * written, its first BYTES: the grader's cap on any build step's output) goes to its LOG file, and one line
 * {@code LOG STATUS} to standard output once it is done, STATUS javac's exit status. A compilation runs
 * whatever the ones before it did; a missing line means the JVM ended before that compilation did (a limit
 * of the build step).
 */
public final class Compilations {
    private static final String COMPILE = "--compile";
    private static final String LOG_CAP = "--log-cap";

    public static void main(String[] args) throws IOException {
        if (args.length < 2 || !args[0].equals(LOG_CAP)) {
            throw new IllegalArgumentException("the first arguments must be " + LOG_CAP + " BYTES");
        }
        long cap = Long.parseLong(args[1]);
        List<List<String>> compilations = split(Arrays.copyOfRange(args, 2, args.length));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            System.err.println("this Java runtime has no compiler (the java.compiler and jdk.compiler modules)");
            System.exit(2);
        }
        System.out.println("ready");
        for (List<String> compilation : compilations) {
            String log = compilation.get(0);
            String[] arguments = compilation.subList(1, compilation.size()).toArray(new String[0]);
            int status;
            try (PrintStream both = new PrintStream(new Capped(new FileOutputStream(log), cap), true)) {
                status = run(javac, arguments, both);
            }
            System.out.println(log + " " + status);
            System.out.flush();
        }
    }

    /** javac's exit status, or 4 (javac's "abnormal") with what went wrong when the compiler itself threw. */
    private static int run(JavaCompiler javac, String[] arguments, PrintStream output) {
        try {
            return javac.run(null, output, output, arguments);
        } catch (RuntimeException | Error e) {
            output.println("javac failed: " + e);
            return 4;
        }
    }

    /**
     * A log that keeps its first {@code cap} bytes and drops the rest: javac prints the source line under each
     * of its 50 errors at most, and a file of one long line would otherwise make a log of gigabytes.
     */
    private static final class Capped extends OutputStream {
        private final OutputStream file;
        private final long cap;
        private long written;

        Capped(OutputStream file, long cap) {
            this.file = new BufferedOutputStream(file, 1 << 16);
            this.cap = cap;
        }

        @Override
        public void write(int b) throws IOException {
            if (written < cap) {
                file.write(b);
                written++;
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            int kept = (int) Math.min(length, Math.max(0, cap - written));
            file.write(bytes, offset, kept);
            written += kept;
        }

        @Override
        public void flush() throws IOException {
            file.flush();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    /** The compilations: each a LOG followed by its arguments, each started by {@code --compile}. */
    private static List<List<String>> split(String[] args) {
        List<List<String>> compilations = new ArrayList<>();
        for (String arg : args) {
            if (arg.equals(COMPILE)) {
                compilations.add(new ArrayList<>());
            } else if (compilations.isEmpty()) {
                throw new IllegalArgumentException("the first argument must be " + COMPILE + ", not " + arg);
            } else {
                compilations.get(compilations.size() - 1).add(arg);
            }
        }
        for (List<String> compilation : compilations) {
            if (compilation.isEmpty()) {
                throw new IllegalArgumentException(COMPILE + " names no log file");
            }
        }
        return compilations;
    }
}
