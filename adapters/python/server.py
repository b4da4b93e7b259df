"""The Python side of the submission protocol (specs/protocol.md): reads requests on standard input, calls
the student's Board and Solver (npuzzle_protocol.py), writes replies on standard output.

Usage: python3 -s -B -X utf8 server.py --submission DIR [--address-space-mb N] [--memory]

Before any student code runs: this folder leaves `sys.path` (the student's folder joins it); fd 1 is
duplicated for the protocol and pointed at fd 2, sys.stdout is sys.stderr and standard input reads as empty;
the adapter's private modules (npuzzle_*.py, reference_board.py, algs4.py) are loaded from this folder and
taken out of `sys.modules` again, so student code sees a module `algs4` holding MinPQ alone and the counting
heapq (npuzzle_heapq.py), and nothing else of the adapter by name; `sys.modules['__main__']` becomes an
empty module; the seal (npuzzle_seal.py) is installed. Requests then run one at a time on a thread with a
large stack, started with `_thread` (`threading.enumerate()` does not list it); replies leave through an
outbox with a watchdog thread.
"""

import _signal
import _thread
import builtins
import importlib.util
import os
import posix
import signal
import sys
import threading
import time
import types

STACK_BYTES = 64 << 20
OVERDUE_SECONDS = 0.010
PRIVATE = ("npuzzle_counters", "npuzzle_heapq", "algs4", "reference_board", "npuzzle_student",
           "npuzzle_protocol", "npuzzle_seal")

_monotonic = time.monotonic
_write = os.write
_read = os.read


def _encodable(c):
    """`c`, or U+FFFD for a surrogate that surrogateescape cannot encode (outside U+DC80-U+DCFF)."""
    return "\ufffd" if "\ud800" <= c <= "\udfff" and not "\udc80" <= c <= "\udcff" else c


class Outbox:
    """Replies on their way out: a reply waits while the next request is already read, and goes out when
    none is, at 64 KB, or once it has waited 10 ms (a watchdog thread, asleep while nothing waits), and at
    exit."""

    def __init__(self, fd):
        self.fd = fd
        self.ready = threading.Condition()
        self.waiting = []
        self.size = 0
        self.since = 0.0
        # whether the watchdog sleeps until notified; on a timer it looks again by itself within 10 ms
        self.idle = False

    def start(self):
        _thread.start_new_thread(self._watch, ())

    def _watch(self):
        with self.ready:
            while True:
                if not self.waiting:
                    self.idle = True
                    self.ready.wait()
                    self.idle = False
                    continue
                due = self.since + OVERDUE_SECONDS - _monotonic()
                if due > 0:
                    self.ready.wait(due)
                    continue
                self._write()

    def put(self, line, now):
        with self.ready:
            if not self.waiting:
                self.since = _monotonic()
                # woken only from its untimed sleep: on a timer (set for replies written since) it wakes
                # sooner than this reply's own 10 ms, and looks again
                if self.idle:
                    self.ready.notify()
            self.waiting.append(line)
            self.size += len(line)
            if now or self.size >= 1 << 16:
                self._write()

    def flush(self):
        with self.ready:
            self._write()

    def _write(self):
        text = "".join(self.waiting)
        try:
            data = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            # a lone surrogate a student's text carried (outside surrogateescape's U+DC80-U+DCFF, which stand
            # for the bytes of invalid UTF-8) has no bytes: it goes out as U+FFFD, and every reply still goes
            data = "".join(map(_encodable, text)).encode("utf-8", "surrogateescape")
        self.waiting = []
        self.size = 0
        try:
            while data:
                data = data[_write(self.fd, data):]
        except OSError:
            pass  # the grader has gone


class Lines:
    """Request lines from fd 0, read in large blocks; `ready()` says whether a whole line is waiting."""

    def __init__(self, fd):
        self.fd = fd
        self.buffer = b""

    def ready(self):
        return b"\n" in self.buffer

    def next(self):
        while b"\n" not in self.buffer:
            block = _read(self.fd, 1 << 16)
            if not block:
                if not self.buffer:
                    return None
                line, self.buffer = self.buffer, b""
                return line.decode("utf-8", "replace")
            self.buffer += block
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")


def load_private(here):
    """The adapter's private modules, loaded from `here` in order (each may import the ones before it), then
    taken out of `sys.modules`: student code cannot import them by name. Each has a copy of the builtins of
    its own, so that a student who rebinds `builtins.len` (say) does not change how the adapter reads a
    request or counts."""
    modules = {}
    try:
        for name in PRIVATE:
            spec = importlib.util.spec_from_file_location(name, os.path.join(here, name + ".py"))
            module = importlib.util.module_from_spec(spec)
            module.__builtins__ = dict(builtins.__dict__)
            sys.modules[name] = module
            spec.loader.exec_module(module)
            modules[name] = module
    finally:
        for name in PRIVATE:
            sys.modules.pop(name, None)
    return modules


def publish(modules):
    """What student code may import of the adapter: `algs4` with MinPQ alone; heapq counts."""
    modules["npuzzle_heapq"].install()
    algs4 = types.ModuleType("algs4", modules["algs4"].__doc__)
    algs4.MinPQ = modules["algs4"].MinPQ
    sys.modules["algs4"] = algs4
    # logging's caller lookup walks frames, which the seal refuses: without it, logging works
    import logging

    logging._srcfile = None


def isolate_stdio():
    """The protocol's descriptors: fd 1 and fd 0 duplicated; the student's prints go to stderr and standard
    input reads as empty."""
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    stdin_fd = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    sys.stdin = open(os.devnull)
    return stdin_fd, protocol_fd


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "--submission":
        print("usage: server.py --submission DIR [--address-space-mb N] [--memory]", file=sys.stderr)
        sys.exit(2)
    submission = os.path.abspath(args[1])
    memory = "--memory" in args
    # The student's modules see the command line of a program run with no arguments, not the adapter's: a
    # top-level `if len(sys.argv) > 1: main()` (the client guarded by the wrong test) runs nothing, as
    # `import solver` would, and nothing of the grader's side is named there.
    sys.argv = [os.path.join(submission, "solver.py")]
    sys.orig_argv = [sys.executable] + sys.argv
    memory_mb = 0
    if "--address-space-mb" in args:
        # the interpreter's whole address space, as the JVM's heap is capped: a runaway search ends in a
        # MemoryError that fails one request, and the server goes on
        import resource

        memory_mb = int(args[args.index("--address-space-mb") + 1])
        limit = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    here = os.path.dirname(os.path.realpath(__file__))
    sys.path[:] = [submission] + [p for p in sys.path if os.path.realpath(p or ".") != here]
    sys.dont_write_bytecode = True
    sys.setrecursionlimit(200_000)
    stdin_fd, protocol_fd = isolate_stdio()
    modules = load_private(here)
    publish(modules)
    student = modules["npuzzle_student"]
    student.STUDENT_ROOTS.append(submission + os.sep)
    student.MEMORY_MB[0] = memory_mb
    sys.modules["__main__"] = types.ModuleType("__main__")
    adapter_files = [here] + [os.path.join(here, name) for name in os.listdir(here)]
    sites = modules["npuzzle_counters"].SITES
    sites.roots = student.STUDENT_ROOTS
    modules["npuzzle_seal"].install(adapter_files, [student.student_frame.__code__], [sites._student_line.__code__])
    student.tune_collector()
    serve(modules["npuzzle_protocol"], submission, memory, Lines(stdin_fd), Outbox(protocol_fd))


# What the student's code can end the process with at once, under every name it can reach each by: `os._exit`
# (it runs no exit handler and flushes nothing) and a signal to itself (`os.kill(os.getpid(), SIGKILL)`,
# `os.abort()`). The replies held go out before the call, so the end is charged to the request that met it,
# not to one whose reply was lost with the process.
SELF_ENDING = [
    ((posix, os), "_exit"),
    ((posix, os), "abort"),
    ((posix, os), "kill"),
    ((posix, os), "killpg"),
    ((_signal, signal), "raise_signal"),
    ((_signal, signal), "pthread_kill"),
]


def _after_replies(function, outbox):
    """`function` with the outbox flushed before it runs."""

    def flushed_first(*args, **kwargs):
        try:
            outbox.flush()
        except BaseException:  # noqa: B036 (the call is the student's: it goes ahead whatever the flush met)
            pass
        return function(*args, **kwargs)

    return flushed_first


def serve(protocol, submission, memory, lines, outbox):
    """Loads the student's modules on the main thread, runs the requests on a thread with a large stack, waits
    for it, and exits. The modules run their top level where a program's would: `signal.signal()` (a common
    `SIGPIPE` idiom) works on the main thread alone, and raised `ValueError` on the request thread."""
    print_exception = sys.__excepthook__
    status = [0]
    done = _thread.allocate_lock()
    done.acquire()
    end = os._exit
    for modules, name in SELF_ENDING:
        flushed_first = _after_replies(getattr(modules[0], name), outbox)
        for module in modules:
            setattr(module, name, flushed_first)
    try:
        server = protocol.Server(submission, memory)
    except BaseException:  # noqa: B036 (the server itself failed: say why on stderr)
        print_exception(*sys.exc_info())
        end(3)

    def work():
        try:
            server.serve(lines, outbox)
        except BaseException:  # noqa: B036 (the server itself failed: say why on stderr)
            print_exception(*sys.exc_info())
            status[0] = 3
        finally:
            outbox.flush()
            done.release()

    outbox.start()
    _thread.stack_size(STACK_BYTES)
    _thread.start_new_thread(work, ())
    _thread.stack_size(0)  # the student's own threads get the default
    while True:
        try:
            done.acquire()
            break
        except BaseException:  # noqa: B036 (a student's signal handler raised here, in the main thread)
            continue
    outbox.flush()
    end(status[0])


if __name__ == "__main__":
    main()
