import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Several javac compilations in one JVM, one after another: the build of a student's files compiles them
 * twice (once for each world), and a second javac in the same JVM costs a tenth of a fresh one (its classes
 * are loaded and compiled already), where a second JVM costs as much as the first.
 *
 * <p>Usage: {@code java -cp DIR Compilations --compile LOG ARG... [--compile LOG ARG...]...}, where the ARGs
 * are one javac command line each. It prints {@code ready} once it has the JDK's compiler; then each
 * compilation's output (what javac would print on its standard output and error, in the order written)
 * goes to its LOG file, and one line {@code LOG STATUS} to standard output once it is done, STATUS javac's
 * exit status. A compilation runs whatever the ones before it did; a missing line means the JVM ended
 * before that compilation did (a limit of the build step).
 */
public final class Compilations {
    private static final String COMPILE = "--compile";

    public static void main(String[] args) throws IOException {
        List<List<String>> compilations = split(args);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            System.err.println("this Java runtime has no compiler (the java.compiler and jdk.compiler modules)");
            System.exit(2);
        }
        System.out.println("ready");
        for (List<String> compilation : compilations) {
            String log = compilation.get(0);
            String[] arguments = compilation.subList(1, compilation.size()).toArray(new String[0]);
            ByteArrayOutputStream output = new ByteArrayOutputStream();
            int status;
            try (PrintStream both = new PrintStream(output, true)) {
                status = run(javac, arguments, both);
            }
            try (OutputStream file = new FileOutputStream(log)) {
                output.writeTo(file);
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
