package edu.princeton.cs.algs4;

/** Wall-clock time since construction, in seconds. */
public class Stopwatch {
    private final long start = System.nanoTime();

    public Stopwatch() {}

    public double elapsedTime() {
        return (System.nanoTime() - start) / 1e9;
    }
}
