package npuzzle;

/**
 * A request's arguments read and checked before any of the student's code runs: how many handles a verb
 * takes, and a board's tiles (`WORLD N T1 … Tn²`). A malformed request is the grader's or the adapter's
 * fault, never the student's, so every problem here is a protocol error ({@link Server#protocol}).
 */
final class Arguments {
    private Arguments() {}

    static String one(String verb, String[] args) throws Server.Refusal {
        if (args.length != 1) throw Server.protocol("`" + verb + "` takes one handle, got " + args.length + " arguments");
        return args[0];
    }

    static String[] two(String verb, String[] args) throws Server.Refusal {
        if (args.length != 2) throw Server.protocol("`" + verb + "` takes two handles, got " + args.length + " arguments");
        return args;
    }

    static void noArgs(String verb, String[] args) throws Server.Refusal {
        if (args.length != 0) throw Server.protocol("unknown verb `" + verb + "` with " + args.length + " arguments");
    }

    /** The rows of a valid board from `WORLD N T1 … Tn²`, or a protocol error. */
    static int[][] tiles(String verb, String[] args) throws Server.Refusal {
        int n;
        try {
            n = Integer.parseInt(args[1]);
        } catch (NumberFormatException e) {
            throw Server.protocol("bad dimension `" + args[1] + "`");
        }
        int given = args.length - 2;
        if (n < 2 || n > 127 || given != n * n) {
            throw Server.protocol("`" + verb + "` with n = " + n + " needs " + ((long) n * n) + " tiles, got " + given);
        }
        int[][] rows = new int[n][n];
        boolean[] seen = new boolean[n * n];
        for (int i = 0; i < n * n; i++) {
            String token = args[2 + i];
            long value;
            try {
                value = Long.parseLong(token);
                if (value < 0 || token.startsWith("+") || token.startsWith("-")) throw new NumberFormatException();
            } catch (NumberFormatException e) {
                throw Server.protocol("bad tile `" + token + "`");
            }
            int row = i / n;
            int col = i % n;
            if (value > (long) n * n - 1) {
                throw Server.protocol("invalid board: tile " + value + " at row " + row + ", column " + col
                        + " is out of range: tiles must be 0..=" + (n * n - 1));
            }
            if (seen[(int) value]) {
                throw Server.protocol("invalid board: tile " + value + " appears more than once (at row " + row
                        + ", column " + col + " again)");
            }
            seen[(int) value] = true;
            rows[row][col] = (int) value;
        }
        return rows;
    }
}
