package edu.princeton.cs.algs4;

import java.util.Locale;

/**
 * Printing to standard output, the grader's stand-in for the textbook class. Every call goes through the
 * current System.out, so the grader's redirection of student output to standard error applies.
 */
public final class StdOut {
    private StdOut() {}

    public static void println() {
        System.out.println();
    }

    public static void println(Object x) {
        System.out.println(x);
    }

    public static void println(boolean x) {
        System.out.println(x);
    }

    public static void println(char x) {
        System.out.println(x);
    }

    public static void println(double x) {
        System.out.println(x);
    }

    public static void println(float x) {
        System.out.println(x);
    }

    public static void println(int x) {
        System.out.println(x);
    }

    public static void println(long x) {
        System.out.println(x);
    }

    public static void println(short x) {
        System.out.println(x);
    }

    public static void println(byte x) {
        System.out.println(x);
    }

    public static void print() {
        System.out.flush();
    }

    public static void print(Object x) {
        System.out.print(x);
    }

    public static void print(boolean x) {
        System.out.print(x);
    }

    public static void print(char x) {
        System.out.print(x);
    }

    public static void print(double x) {
        System.out.print(x);
    }

    public static void print(float x) {
        System.out.print(x);
    }

    public static void print(int x) {
        System.out.print(x);
    }

    public static void print(long x) {
        System.out.print(x);
    }

    public static void print(short x) {
        System.out.print(x);
    }

    public static void print(byte x) {
        System.out.print(x);
    }

    public static void printf(String format, Object... args) {
        System.out.print(String.format(Locale.US, format, args));
    }

    public static void printf(Locale locale, String format, Object... args) {
        System.out.print(String.format(locale, format, args));
    }
}
