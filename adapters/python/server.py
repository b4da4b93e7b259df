"""The Python side of the submission protocol (specs/protocol.md): reads requests on standard input, calls
the student's Board and Solver, writes replies on standard output.

Usage: python3 -I -B server.py --submission DIR

Two worlds: `own` is the student's board.py and solver.py; `ref` is the student's solver.py loaded a second
time with our reference_board.py standing in for their board module (the official grader's substitution).
Everything the student prints goes to standard error: fd 1 is duplicated for the protocol and pointed at
fd 2, and sys.stdout is sys.stderr, before any student code is loaded. Requests run one at a time on a
thread with a large stack; its Linux thread id is announced as `cpu_thread=TID`, and each reply carries that
thread's CPU time for the request (time.thread_time_ns). `from algs4 import MinPQ` gets the counting MinPQ,
and the standard heapq is replaced by a counting shim (npuzzle_heapq.py).
"""

import gc
import importlib.util
import os
import sys
import threading
import time
import traceback
import tracemalloc

VERSION = 1
REPLY_WINDOW = 1 << 16
RETURNS_HANDLES = {"board", "board_probe", "neighbors", "neighbors_after", "neighbors_nested", "twin", "solver",
                   "solver_null", "solution", "memory_solver"}
TAKES_HANDLES = {"dimension", "hamming", "manhattan", "to_string", "is_goal", "equals", "equals_as_object",
                 "equals_null", "equals_foreign", "equals_uncastable", "neighbors", "neighbors_after",
                 "neighbors_nested", "twin", "release", "solver", "is_solvable", "moves", "solution", "memory_solver"}
STACK_BYTES = 64 << 20
OVERDUE_SECONDS = 0.010


class Refusal(Exception):
    """A request the program refuses: the grader's side (protocol) or not expressible (unsupported)."""

    def __init__(self, reason, unsupported=False):
        super().__init__(reason)
        self.unsupported = unsupported


class StudentFailure(Exception):
    """The student's code raised, or returned something the API does not allow."""

    def __init__(self, kind, detail):
        super().__init__(kind)
        self.kind = kind
        self.detail = detail


def escape(text):
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


class Outbox:
    """Replies on their way out: a reply waits while the next request is already read, and goes out when
    none is, at 64 KB, or once it has waited 10 ms (a watchdog thread), and at exit."""

    def __init__(self, fd):
        self.fd = fd
        self.lock = threading.Lock()
        self.waiting = []
        self.size = 0
        self.since = 0.0

    def start(self):
        threading.Thread(target=self._watch, name="protocol-outbox", daemon=True).start()

    def _watch(self):
        while True:
            time.sleep(OVERDUE_SECONDS / 2)
            with self.lock:
                if self.waiting and time.monotonic() - self.since >= OVERDUE_SECONDS:
                    self._write()

    def put(self, line, now):
        with self.lock:
            if not self.waiting:
                self.since = time.monotonic()
            self.waiting.append(line)
            self.size += len(line)
            if now or self.size >= 1 << 16:
                self._write()

    def flush(self):
        with self.lock:
            self._write()

    def _write(self):
        data = "".join(self.waiting).encode("utf-8", "surrogateescape")
        self.waiting = []
        self.size = 0
        try:
            while data:
                data = data[os.write(self.fd, data):]
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
            block = os.read(self.fd, 1 << 16)
            if not block:
                if not self.buffer:
                    return None
                line, self.buffer = self.buffer, b""
                return line.decode("utf-8", "replace")
            self.buffer += block
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode("utf-8", "replace")


def load_module(name, path, board_module=None):
    """Loads a student file as module `name`; with `board_module`, `import board` inside it gets that."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    saved = sys.modules.get("board")
    if board_module is not None:
        sys.modules["board"] = board_module
    try:
        spec.loader.exec_module(module)
    finally:
        if board_module is not None:
            if saved is None:
                sys.modules.pop("board", None)
            else:
                sys.modules["board"] = saved
    return module


class World:
    """One world: a Board class and a Solver class, or why they could not be loaded."""

    def __init__(self, name, load):
        self.name = name
        self.board_class = self.solver_class = None
        self.failure = None
        try:
            board_module, solver_module = load()
            self.board_class = getattr(board_module, "Board", None)
            self.solver_class = getattr(solver_module, "Solver", None)
        except BaseException as e:  # a student module that raises at import
            self.failure = failure(e)

    def board(self):
        if self.failure:
            raise self.failure
        if self.board_class is None:
            raise StudentFailure("AttributeError", "board.py defines no class Board")
        return self.board_class

    def solver(self):
        if self.failure:
            raise self.failure
        if self.solver_class is None:
            raise StudentFailure("AttributeError", "solver.py defines no class Solver")
        return self.solver_class


def student_frame(tb, roots):
    """The innermost traceback frame in one of the student's files, as `file.py:LINE`."""
    where = None
    for frame, line in traceback.walk_tb(tb):
        filename = frame.f_code.co_filename
        if any(filename.startswith(root) for root in roots):
            where = f"{os.path.basename(filename)}:{line}"
    return where


STUDENT_ROOTS = []
MEMORY_MB = [0]


def failure(e):
    """The StudentFailure an exception raised by student code is reported as."""
    if isinstance(e, StudentFailure):
        return e
    kind = type(e).__name__
    module = type(e).__module__
    if module not in ("builtins", None):
        kind = f"{module}.{kind}"
    message = str(e)
    if isinstance(e, RecursionError):
        message = "maximum recursion depth exceeded"
    where = student_frame(e.__traceback__, STUDENT_ROOTS)
    if where:
        message = f"{message} (at {where})" if message else f"(at {where})"
    return StudentFailure(kind, message)


class Uncastable:
    """An object of a type no Board can be (for equals_uncastable)."""

    def __repr__(self):
        return "an object of a private class"


class Server:
    def __init__(self, submission):
        import algs4  # noqa: F401  (loaded before student code, like the Java stand-ins)
        import npuzzle_heapq
        import reference_board
        from npuzzle_counters import QUEUES, counts

        npuzzle_heapq.install()
        self.counts = counts
        self.queues = QUEUES
        board_path = os.path.join(submission, "board.py")
        solver_path = os.path.join(submission, "solver.py")

        def load_own():
            board = load_module("board", board_path)
            sys.modules["board"] = board
            return board, load_module("solver", solver_path)

        def load_ref():
            return reference_board, load_module("solver_over_reference_board", solver_path, reference_board)

        self.own = World("own", load_own)
        self.ref = World("ref", load_ref)
        self.objects = {}
        self.next_handle = 1
        self.reply_handles = {}
        self.recorded = []
        self.thread_id = -1
        self.memory = "--memory" in sys.argv

    # ---------------------------------------------------------------- the loop

    def serve(self, lines, outbox):
        self.thread_id = threading.get_native_id()
        while True:
            line = lines.next()
            if line is None:
                return
            reply, bye = self.answer(line)
            outbox.put(reply + "\n", bye or not lines.ready())
            if bye:
                return

    def answer(self, line):
        line = line.rstrip("\r")
        tokens = line.split(" ")
        try:
            rid = int(tokens[0])
            if rid < 0 or not tokens[0].isdigit():
                raise ValueError
        except ValueError:
            return "0 err protocol 0 missing request id", False
        if len(tokens) < 2:
            return f"{rid} err protocol 0 missing verb", False
        verb, args = tokens[1], tokens[2:]
        try:
            if verb in TAKES_HANDLES:
                args = [self.resolve(a) if a.startswith("@") else a for a in args]
        except Refusal as r:
            return f"{rid} err protocol 0 {escape(str(r))}", False
        start = time.thread_time_ns()

        def cpu():
            return max(0, (time.thread_time_ns() - start) // 1000)

        try:
            values = self.handle(verb, args)
            if verb in RETURNS_HANDLES:
                self.record(rid, values)
            outcome = f"ok {cpu()} {values}" if values else f"ok {cpu()}"
        except Refusal as r:
            kind = "unsupported" if r.unsupported else "protocol"
            outcome = f"err {kind} {cpu()} {escape(str(r))}"
        except StudentFailure as f:
            outcome = f"err exception {cpu()} {f.kind} {escape(f.detail)}"
        except BaseException as e:
            f = failure(e)
            outcome = f"err exception {cpu()} {f.kind} {escape(f.detail)}"
        return f"{rid} {outcome}", verb == "bye" and outcome.startswith("ok")

    # ---------------------------------------------------------------- one request

    def handle(self, verb, args):
        if verb == "hello":
            if len(args) != 1:
                raise Refusal("`hello` takes the version")
            if args[0] != str(VERSION):
                raise Refusal(f"unsupported version {args[0]}")
            memory = " memory" if self.memory else ""
            return f"{VERSION} python ref_world counters refs null foreign iterables{memory} cpu_thread={self.thread_id}"
        if verb in ("board", "board_probe", "memory_board"):
            world = self.world_of(verb, args)
            rows = tiles(verb, args)
            if verb == "memory_board":
                return str(self.board_bytes(world, rows))
            board = call(lambda: world.board()(rows))
            if verb == "board_probe":
                n = len(rows)
                for r in range(n):
                    for c in range(n):
                        rows[r][c] = r * n + c
            return self.add("b", world, board)
        if verb in ("dimension", "hamming", "manhattan", "is_goal"):
            world, board = self.board(one(verb, args))
            return text(call(lambda: getattr(board, verb)()))
        if verb == "to_string":
            world, board = self.board(one(verb, args))
            return escape(call(lambda: str(board)))
        if verb in ("equals", "equals_as_object"):
            a, b = two(verb, args)
            wa, x = self.board(a)
            wb, y = self.board(b)
            if wa is not wb:
                raise Refusal(f"{a} and {b} are not boards of one world")
            return text(bool(call(lambda: x == y)))
        if verb in ("equals_null", "equals_foreign", "equals_uncastable"):
            world, board = self.board(one(verb, args))
            other = {"equals_null": None, "equals_foreign": "a string", "equals_uncastable": Uncastable()}[verb]
            return text(bool(call(lambda: board == other)))
        if verb == "neighbors":
            world, board = self.board(one(verb, args))
            return self.add_all(world, self.boards(call(board.neighbors), "neighbors()"))
        if verb == "neighbors_after":
            a, b = two(verb, args)
            wa, x = self.board(a)
            wb, y = self.board(b)
            if wa is not wb:
                raise Refusal(f"{a} and {b} are not boards of one world")
            first, second = call(x.neighbors), call(y.neighbors)
            return " ".join([self.add_all(wa, self.boards(first, "neighbors()")),
                             self.add_all(wb, self.boards(second, "neighbors()"))])
        if verb == "neighbors_nested":
            world, board = self.board(one(verb, args))
            return " ".join(self.add_all(world, boards) for boards in self.nested(call(board.neighbors)))
        if verb == "twin":
            world, board = self.board(one(verb, args))
            twin = call(board.twin)
            if twin is None:
                raise StudentFailure("TypeError", "twin() returned None")
            return self.add("b", world, twin)
        if verb == "release":
            for h in args:
                if self.objects.pop(handle(h), None) is None:
                    raise Refusal(f"unknown handle {handle(h)}")
            return ""
        if verb in ("solver", "memory_solver"):
            world, board = self.board(one(verb, args))
            if verb == "solver":
                return self.add("s", world, self.solve(world, board))
            if not self.memory:
                raise Refusal("memory is not measured", unsupported=True)
            solver, retained = self.measured_solve(world, board)
            return f"{self.add('s', world, solver)} {retained}"
        if verb == "solver_null":
            if len(args) != 1:
                raise Refusal("`solver_null` takes a world")
            world = self.world(args[0])
            return self.add("s", world, self.solve(world, None))
        if verb in ("is_solvable", "moves"):
            world, solver = self.solver(one(verb, args))
            value = call(getattr(solver, verb))
            return text(value)
        if verb == "solution":
            world, solver = self.solver(one(verb, args))
            path = call(solver.solution)
            if path is None:
                return "none"
            return self.add_all(world, self.boards(path, "solution()"))
        if verb == "counters_reset":
            no_args(verb, args)
            self.counts.reset()
            return ""
        if verb == "counters":
            no_args(verb, args)
            return self.counts.encode()
        if verb == "bye":
            no_args(verb, args)
            return ""
        raise Refusal(f"unknown verb `{verb}` with {len(args)} arguments")

    def solve(self, world, board):
        """Runs a Solver constructor; the queues it used end when it returns (or raises)."""
        self.queues.begin_solve()
        try:
            return call(lambda: world.solver()(board))
        finally:
            self.queues.end_solve()

    def measured_solve(self, world, board):
        """A Solver and the bytes it retains once constructed (tracemalloc, after a full collection)."""
        gc.collect()
        tracemalloc.start()
        try:
            solver = self.solve(world, board)
            gc.collect()
            retained, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        return solver, retained

    def board_bytes(self, world, rows):
        """The bytes one board built from `rows` retains (tracemalloc: allocated while building, still held)."""
        gc.collect()
        tracemalloc.start()
        try:
            board = call(lambda: world.board()(rows))
            gc.collect()
            retained, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        del board
        return retained

    def boards(self, iterable, what):
        if iterable is None:
            raise StudentFailure("TypeError", f"{what} returned None")
        items = call(lambda: list(iterable))
        if any(b is None for b in items):
            raise StudentFailure("TypeError", f"{what} returned None among its boards")
        return items

    def nested(self, iterable, what="neighbors()"):
        """The boards of `iterable` iterated in two nested loops: the outer loop's, then the inner loop's at each
        outer step. An iterator (`iter(it) is it`: a generator, a map, an object that is its own iterator) is
        single-use by Python's iteration protocol, so it is taken once and that list serves both loops; a
        re-iterable (a list, a tuple, a class whose __iter__ starts a new iterator) is iterated nested."""
        if iterable is None:
            raise StudentFailure("TypeError", f"{what} returned None")
        if call(lambda: iter(iterable)) is iterable:
            once = self.boards(iterable, what)
            return [once] + [once for _ in once]

        def loops():
            lists = [[]]
            for board in iterable:
                lists[0].append(board)
                lists.append(list(iterable))
            return lists

        lists = call(loops)
        if any(b is None for boards in lists for b in boards):
            raise StudentFailure("TypeError", f"{what} returned None among its boards")
        return lists

    # ---------------------------------------------------------------- handles

    def add(self, prefix, world, value):
        h = f"{prefix}{self.next_handle}"
        self.next_handle += 1
        self.objects[h] = (world, value)
        return h

    def add_all(self, world, items):
        return " ".join([str(len(items))] + [self.add("b", world, b) for b in items])

    def lookup(self, token):
        key = handle(token)
        found = self.objects.get(key)
        if found is None:
            raise Refusal(f"unknown handle {key}")
        return key, found

    def board(self, token):
        key, found = self.lookup(token)
        if key[0] != "b":
            raise Refusal(f"{key} is not a board")
        return found

    def solver(self, token):
        key, found = self.lookup(token)
        if key[0] != "s":
            raise Refusal(f"{key} is not a solver")
        return found

    def world_of(self, verb, args):
        if len(args) < 2:
            raise Refusal(f"`{verb}` takes a world, n and n² tiles")
        return self.world(args[0])

    def world(self, name):
        if name == "own":
            return self.own
        if name == "ref":
            return self.ref
        raise Refusal(f"unknown world `{name}` (expected own or ref)")

    def record(self, rid, values):
        self.reply_handles[rid] = [t for t in values.split(" ") if is_handle(t)]
        self.recorded.append(rid)
        while self.recorded and self.recorded[0] <= rid - REPLY_WINDOW:
            self.reply_handles.pop(self.recorded.pop(0), None)

    def resolve(self, token):
        request, dot, index = token[1:].partition(".")
        if not dot or not request.isdigit() or not index.isdigit() or int(index) > 0xFFFF_FFFF:
            raise Refusal(not_a_handle(token))
        request, index = int(request), int(index)
        reference = f"@{request}.{index}"
        found = self.reply_handles.get(request)
        if found is None:
            raise Refusal(f"{reference} refers to request {request}, which returned no handles (or is too old)")
        if index >= len(found):
            raise Refusal(f"{reference} refers to handle {index} of request {request}, which returned {len(found)}")
        return found[index]


# -------------------------------------------------------------------- helpers


def call(function):
    """Calls student code; anything it raises becomes a StudentFailure.

    The failure is raised after the `except` clause has ended, so the exception's traceback, and with it
    whatever the student's frames held (a whole search, after a MemoryError), is freed first.
    """
    try:
        return function()
    except (Refusal, StudentFailure):
        raise
    except MemoryError:
        result = None
    except BaseException as e:
        result = failure(e)
    if result is None:
        gc.collect()
        result = StudentFailure("MemoryError", f"out of memory (address space {MEMORY_MB[0]} MB)")
    raise result


def text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def handle(token):
    if len(token) >= 2 and token[0] in "bs" and token[1:].isdigit():
        return f"{token[0]}{int(token[1:])}"
    raise Refusal(not_a_handle(token))


def is_handle(token):
    return len(token) >= 2 and token[0] in "bs" and token[1:].isdigit()


def not_a_handle(token):
    return f"`{token}` is not a handle (expected b<number>, s<number> or @<id>.<index>)"


def one(verb, args):
    if len(args) != 1:
        raise Refusal(f"`{verb}` takes one handle, got {len(args)} arguments")
    return args[0]


def two(verb, args):
    if len(args) != 2:
        raise Refusal(f"`{verb}` takes two handles, got {len(args)} arguments")
    return args


def no_args(verb, args):
    if args:
        raise Refusal(f"unknown verb `{verb}` with {len(args)} arguments")


def tiles(verb, args):
    """The rows of a valid board from `WORLD N T1 … Tn²`, or a protocol error."""
    if not args[1].isdigit():
        raise Refusal(f"bad dimension `{args[1]}`")
    n = int(args[1])
    given = len(args) - 2
    if n < 2 or n > 127 or given != n * n:
        raise Refusal(f"`{verb}` with n = {n} needs {n * n} tiles, got {given}")
    rows = [[0] * n for _ in range(n)]
    seen = bytearray(n * n)
    for i, token in enumerate(args[2:]):
        if not token.isdigit():
            raise Refusal(f"bad tile `{token}`")
        value = int(token)
        row, col = divmod(i, n)
        if value > n * n - 1:
            raise Refusal(f"invalid board: tile {value} at row {row}, column {col} is out of range: "
                          f"tiles must be 0..={n * n - 1}")
        if seen[value]:
            raise Refusal(f"invalid board: tile {value} appears more than once (at row {row}, column {col} again)")
        seen[value] = 1
        rows[row][col] = value
    return rows


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[0] != "--submission":
        print("usage: server.py --submission DIR [--address-space-mb N] [--memory]", file=sys.stderr)
        sys.exit(2)
    submission = os.path.abspath(args[1])
    if "--address-space-mb" in args:
        # the interpreter's whole address space, as the JVM's heap is capped: a runaway search ends in a
        # MemoryError that fails one request, and the server goes on
        import resource

        MEMORY_MB[0] = int(args[args.index("--address-space-mb") + 1])
        limit = MEMORY_MB[0] << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    STUDENT_ROOTS.append(submission + os.sep)
    # The protocol owns the real stdout; the student's prints go to stderr, and stdin reads as empty.
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    stdin_fd = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    sys.stdin = open(os.devnull)
    sys.dont_write_bytecode = True
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:0] = [here, submission]
    sys.setrecursionlimit(200_000)
    threading.stack_size(STACK_BYTES)
    outbox = Outbox(protocol_fd)
    outbox.start()
    status = [0]

    def work():
        try:
            server = Server(submission)
            server.serve(Lines(stdin_fd), outbox)
        except BaseException:
            traceback.print_exc()
            status[0] = 3
        finally:
            outbox.flush()

    worker = threading.Thread(target=work, name="submission")
    worker.start()
    worker.join()
    outbox.flush()
    os._exit(status[0])


if __name__ == "__main__":
    main()
