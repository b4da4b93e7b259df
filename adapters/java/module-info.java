/**
 * The Java adapter as one named module: the protocol server, its counters, the memory agent and the
 * instrumented textbook classes. Only edu.princeton.cs.algs4 is exported: a student's classes (defined by
 * the server's own class loaders, in unnamed modules) can name the textbook classes and nothing else of the
 * adapter, and neither javac nor reflection reaches a member of a package that is not exported. The JDK's
 * agent loader alone may call MemoryAgent.premain.
 */
module npuzzle {
    requires java.instrument;
    requires java.logging;
    requires java.management;

    exports edu.princeton.cs.algs4;
    exports npuzzle to java.instrument;
}
