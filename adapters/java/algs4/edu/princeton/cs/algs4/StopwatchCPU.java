package edu.princeton.cs.algs4;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** CPU time of the current thread since construction, in seconds. */
public class StopwatchCPU {
    private final ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    private final long start = bean.getCurrentThreadCpuTime();

    public StopwatchCPU() {}

    public double elapsedTime() {
        return (bean.getCurrentThreadCpuTime() - start) / 1e9;
    }
}
