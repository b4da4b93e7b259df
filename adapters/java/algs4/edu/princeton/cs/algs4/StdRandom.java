package edu.princeton.cs.algs4;

import java.util.Random;

/** Random numbers, the grader's stand-in for the textbook class (same method names and argument checks). */
public final class StdRandom {
    private static long seed = System.currentTimeMillis();
    private static Random random = new Random(seed);

    private StdRandom() {}

    public static void setSeed(long s) {
        seed = s;
        random = new Random(seed);
    }

    public static long getSeed() {
        return seed;
    }

    public static double uniform() {
        return random.nextDouble();
    }

    public static double uniformDouble() {
        return uniform();
    }

    public static int uniform(int n) {
        if (n <= 0) throw new IllegalArgumentException("argument must be positive: " + n);
        return random.nextInt(n);
    }

    public static int uniformInt(int n) {
        return uniform(n);
    }

    public static long uniform(long n) {
        if (n <= 0L) throw new IllegalArgumentException("argument must be positive: " + n);
        long r = random.nextLong();
        long m = n - 1;
        if ((n & m) == 0L) return r & m;
        long u = r >>> 1;
        while (u + m - (r = u % n) < 0L) u = random.nextLong() >>> 1;
        return r;
    }

    public static long uniformLong(long n) {
        return uniform(n);
    }

    public static int uniform(int a, int b) {
        if (b <= a || (long) b - a >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("invalid range: [" + a + ", " + b + ")");
        }
        return a + uniform(b - a);
    }

    public static int uniformInt(int a, int b) {
        return uniform(a, b);
    }

    public static double uniform(double a, double b) {
        if (!(a < b)) throw new IllegalArgumentException("invalid range: [" + a + ", " + b + ")");
        return a + uniform() * (b - a);
    }

    public static double uniformDouble(double a, double b) {
        return uniform(a, b);
    }

    public static boolean bernoulli(double p) {
        if (!(p >= 0.0 && p <= 1.0)) throw new IllegalArgumentException("probability p must be between 0.0 and 1.0: " + p);
        return uniform() < p;
    }

    public static boolean bernoulli() {
        return bernoulli(0.5);
    }

    public static double gaussian() {
        return random.nextGaussian();
    }

    public static double gaussian(double mu, double sigma) {
        return mu + sigma * gaussian();
    }

    public static int discrete(double[] probabilities) {
        if (probabilities == null) throw new IllegalArgumentException("argument array is null");
        double r = uniform();
        double sum = 0.0;
        for (int i = 0; i < probabilities.length; i++) {
            sum += probabilities[i];
            if (sum > r) return i;
        }
        return probabilities.length - 1;
    }

    public static void shuffle(Object[] a) {
        if (a == null) throw new IllegalArgumentException("argument array is null");
        for (int i = a.length - 1; i > 0; i--) {
            int j = uniform(i + 1);
            Object t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    public static void shuffle(int[] a) {
        if (a == null) throw new IllegalArgumentException("argument array is null");
        for (int i = a.length - 1; i > 0; i--) {
            int j = uniform(i + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    public static void shuffle(double[] a) {
        if (a == null) throw new IllegalArgumentException("argument array is null");
        for (int i = a.length - 1; i > 0; i--) {
            int j = uniform(i + 1);
            double t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    public static void shuffle(char[] a) {
        if (a == null) throw new IllegalArgumentException("argument array is null");
        for (int i = a.length - 1; i > 0; i--) {
            int j = uniform(i + 1);
            char t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    public static int[] permutation(int n) {
        if (n < 0) throw new IllegalArgumentException("n must be non-negative: " + n);
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) perm[i] = i;
        shuffle(perm);
        return perm;
    }
}
