package edu.princeton.cs.algs4;

/**
 * Static reading of standard input, the grader's stand-in for the textbook class. Inside the grader's
 * server standard input belongs to the protocol, so System.in is empty there.
 */
public final class StdIn {
    private static In in;

    private StdIn() {}

    private static In in() {
        if (in == null) in = new In();
        return in;
    }

    public static boolean isEmpty() {
        return in().isEmpty();
    }

    public static boolean hasNextLine() {
        return in().hasNextLine();
    }

    public static boolean hasNextChar() {
        return in().hasNextChar();
    }

    public static String readLine() {
        return in().readLine();
    }

    public static char readChar() {
        return in().readChar();
    }

    public static String readAll() {
        return in().readAll();
    }

    public static String readString() {
        return in().readString();
    }

    public static int readInt() {
        return in().readInt();
    }

    public static double readDouble() {
        return in().readDouble();
    }

    public static float readFloat() {
        return in().readFloat();
    }

    public static long readLong() {
        return in().readLong();
    }

    public static short readShort() {
        return in().readShort();
    }

    public static byte readByte() {
        return in().readByte();
    }

    public static boolean readBoolean() {
        return in().readBoolean();
    }

    public static String[] readAllStrings() {
        return in().readAllStrings();
    }

    public static String[] readAllLines() {
        return in().readAllLines();
    }

    public static int[] readAllInts() {
        return in().readAllInts();
    }

    public static long[] readAllLongs() {
        return in().readAllLongs();
    }

    public static double[] readAllDoubles() {
        return in().readAllDoubles();
    }

    /** Deprecated in the textbook; kept for old submissions. */
    public static int[] readInts() {
        return readAllInts();
    }

    public static double[] readDoubles() {
        return readAllDoubles();
    }

    public static String[] readStrings() {
        return readAllStrings();
    }
}
