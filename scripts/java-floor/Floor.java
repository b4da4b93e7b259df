import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The floor of a Java grade's overhead: a plain program that solves each puzzle file named on the command line
 * once (a Solver, moves(), solution() walked, as the textbook's client does), with no grader, no protocol and no
 * instrumentation. It prints the CPU of its own thread inside the solves; whatever else the JVM spends (its
 * start, the JIT compilers, the collector) is what running the same student code costs in any JVM, which no
 * grader can take away. scripts/bench-java-floor.sh compares it with the process's whole CPU.
 */
public class Floor {
    public static void main(String[] args) throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long inside = 0;
        long moves = 0;
        for (String file : args) {
            int[][] tiles = read(Path.of(file));
            long before = threads.getCurrentThreadCpuTime();
            Solver solver = new Solver(new Board(tiles));
            moves += solver.moves();
            if (solver.isSolvable()) {
                for (Board board : solver.solution()) moves += board.dimension() == 0 ? 1 : 0;
            }
            inside += threads.getCurrentThreadCpuTime() - before;
        }
        System.out.println("puzzles=" + args.length + " moves=" + moves + " inside_ns=" + inside);
    }

    private static int[][] read(Path file) throws IOException {
        String[] words = Files.readString(file).trim().split("\\s+");
        int n = Integer.parseInt(words[0]);
        int[][] tiles = new int[n][n];
        for (int i = 0; i < n * n; i++) tiles[i / n][i % n] = Integer.parseInt(words[i + 1]);
        return tiles;
    }
}
