"""The requests of the submission protocol (specs/protocol.md) over the student's Board and Solver.

A private module (see npuzzle_counters.py). Two worlds: `own` is the student's board.py and solver.py; `ref`
is the student's solver.py loaded a second time with a module `board` holding our reference Board alone
(the official grader's substitution). `Refusal` is raised by this module's own reading of a request and
nowhere else: every call into student code goes through `World.run` (npuzzle_student.call), so what student
code raises, the adapter's classes included, is the student's exception. Each reply carries the CPU time of
the whole process during the request (every thread a student starts is charged).
"""

import gc
import os
import sys
import time
import tracemalloc
import types
from collections import deque

import reference_board
from npuzzle_counters import QUEUES, SITES, counts
from npuzzle_student import StudentFailure, World, as_bool, as_int, as_text, failure, load_apart, load_module

VERSION = 1
REPLY_WINDOW = 1 << 16
RETURNS_HANDLES = {"board", "board_probe", "neighbors", "neighbors_texts", "neighbors_after", "neighbors_nested",
                   "twin", "solver", "solver_null", "solution", "memory_solver"}
# verbs whose arguments are handles (and neighbors_texts' count after one): any may be a reference
TAKES_HANDLES = {"dimension", "hamming", "manhattan", "to_string", "is_goal", "equals", "equals_as_object",
                 "equals_null", "equals_foreign", "equals_uncastable", "neighbors", "neighbors_texts", "neighbors_after",
                 "neighbors_nested", "twin", "release", "solver", "is_solvable", "moves", "solution",
                 "memory_solver", "memory_retained"}
INT_VERBS = {"dimension": "dimension()", "hamming": "hamming()", "manhattan": "manhattan()", "moves": "moves()"}
BOOL_VERBS = {"is_goal": "is_goal()", "is_solvable": "is_solvable()"}
OTHERS = {"equals_null": None, "equals_foreign": "a string", "equals_uncastable": None}

_process_time_ns = time.process_time_ns
_thread_time_ns = time.thread_time_ns


def _cpu_ns():
    """The process's CPU time (every thread's: a request's CPU includes its helper threads'), up to now.

    Read alone it lags: the sandbox sets a CPU limit (RLIMIT_CPU), and while a process has one, Linux answers
    the process clock from a sum it brings up to date only at the scheduler's ticks and switches, without
    the running thread's time since. A request starts right after the thread woke (fresh) and ends mid-slice
    (stale), so each reply said too little: 8.7 s where this thread spent 10.6 s in a quick-policy grade of
    python/valid. Reading the thread's own clock first brings the sum up to date.
    """
    _thread_time_ns()
    return _process_time_ns()

# The ref world's `board`: the reference Board and nothing else of its module.
REFERENCE_MODULE = types.ModuleType("board", "The grader's reference Board (the ref world).")
REFERENCE_MODULE.Board = reference_board.Board


def _only_board(name):
    """What the ref world's `board` answers for a name it does not hold (PEP 562): Python's own "cannot import
    name 'read_board' from 'board' (unknown location)" names a function the student can see in board.py and
    a location that reads as the grader's fault. A dunder stays an AttributeError (what import machinery and
    `hasattr` probe for)."""
    if name.startswith("__") and name.endswith("__"):
        raise AttributeError(f"module 'board' has no attribute '{name}'")
    raise ImportError(
        f"board.{name} is not there when the Solver runs over the reference Board (as the official grader runs "
        f"it): only Board may come from board.py, so move {name} into solver.py or a module of its own",
        name="board",
    )


REFERENCE_MODULE.__getattr__ = _only_board


class Refusal(Exception):
    """A request the program refuses: the grader's side (protocol) or not expressible (unsupported)."""

    def __init__(self, reason, unsupported=False):
        super().__init__(reason)
        self.unsupported = unsupported


class Uncastable:
    """An object of a type no Board can be (for equals_uncastable)."""

    def __repr__(self):
        return "an object of a private class"


def escape(text):
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


def token(kind):
    """An exception's class name as one protocol token (a class can be named anything)."""
    return "".join("_" if c.isspace() else c for c in escape(kind)) or "_"


class Server:
    def __init__(self, submission, memory):
        if memory:
            # traced from before the student's modules are imported, for the process's life: the second reading
            # (`memory_retained`) is every traced byte still held, a module-level arena a search fills included
            gc.collect()
            tracemalloc.start()
        board_path = f"{submission}/board.py"
        solver_path = f"{submission}/solver.py"

        def load_ref_solver():
            return load_apart("solver_over_reference_board", solver_path, REFERENCE_MODULE, submission + os.sep)

        self.own = World("own", lambda: load_module("board", board_path), lambda: load_module("solver", solver_path))
        self.ref = World("ref", lambda: REFERENCE_MODULE, load_ref_solver, reference_board.SERVING)
        self.objects = {}
        self.next_handle = 1
        self.reply_handles = {}
        self.recorded = deque()
        self.memory = memory
        # the bytes each Solver `memory_solver` built retained, by handle (for `memory_retained`)
        self.constructed = {}
        self.verbs = {
            "hello": self.hello, "board": self.new_board, "board_probe": self.new_board,
            "memory_board": self.memory_board, "to_string": self.to_string, "equals": self.equals,
            "equals_as_object": self.equals, "neighbors": self.neighbors, "neighbors_texts": self.neighbors_texts,
            "neighbors_after": self.neighbors_after,
            "neighbors_nested": self.neighbors_nested, "twin": self.twin,
            "release": self.release, "solver": self.new_solver, "memory_solver": self.memory_solver,
            "memory_retained": self.memory_retained,
            "solver_null": self.solver_null, "solution": self.solution, "counters_reset": self.counters_reset,
            "counters": self.counters, "call_sites": self.call_sites, "bye": self.bye,
        }
        for verb in ("dimension", "hamming", "manhattan", "is_goal"):
            self.verbs[verb] = self.board_value
        for verb in ("moves", "is_solvable"):
            self.verbs[verb] = self.solver_value
        for verb in OTHERS:
            self.verbs[verb] = self.equals_other

    # ---------------------------------------------------------------- the loop

    def serve(self, lines, outbox):
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
        start = _cpu_ns()

        def cpu():
            return max(0, (_cpu_ns() - start) // 1000)

        try:
            values = self.handle(verb, args)
            if verb in RETURNS_HANDLES:
                self.record(rid, values)
            outcome = f"ok {cpu()} {values}" if values else f"ok {cpu()}"
        except Refusal as r:  # this module's own: the request is the grader's fault
            kind = "unsupported" if r.unsupported else "protocol"
            outcome = f"err {kind} {cpu()} {escape(str(r))}"
        except StudentFailure as f:
            outcome = f"err exception {cpu()} {token(f.kind)} {escape(f.detail)}"
        except BaseException as e:  # noqa: B036 (the adapter's code failed, maybe led there by student code)
            f = failure(e)
            outcome = f"err exception {cpu()} {token(f.kind)} {escape(f.detail)}"
        return f"{rid} {outcome}", verb == "bye" and outcome.startswith("ok")

    def handle(self, verb, args):
        run = self.verbs.get(verb)
        if run is None:
            raise Refusal(f"unknown verb `{verb}` with {len(args)} arguments")
        return run(verb, args)

    # ---------------------------------------------------------------- boards

    def hello(self, verb, args):
        if len(args) != 1:
            raise Refusal("`hello` takes the version")
        if args[0] != str(VERSION):
            raise Refusal(f"unsupported version {args[0]}")
        memory = " memory" if self.memory else ""
        return (f"{VERSION} python ref_world counters counters_heap call_sites refs neighbor_texts null foreign "
                f"iterables{memory}")

    def new_board(self, verb, args):
        world = self.world_of(verb, args)
        rows = tiles(verb, args)
        board_class = world.board()
        # a reference board the grader builds is a root: only its descendants' expansions count
        roots = reference_board.GRADER_BUILDS
        roots[0] = world is self.ref
        try:
            board = world.run(lambda: board_class(rows))
        finally:
            roots[0] = False
        if verb == "board_probe":
            n = len(rows)
            for r in range(n):
                for c in range(n):
                    rows[r][c] = r * n + c
        return self.add("b", world, board)

    def memory_board(self, verb, args):
        world = self.world_of(verb, args)
        rows = tiles(verb, args)
        if not self.memory:
            raise Refusal("memory is not measured", unsupported=True)
        return str(self.board_bytes(world, rows))

    def board_value(self, verb, args):
        return value(verb, *self.board(one(verb, args)))

    def solver_value(self, verb, args):
        return value(verb, *self.solver(one(verb, args)))

    def to_string(self, verb, args):
        world, board = self.board(one(verb, args))
        return escape(world.run(lambda: as_text(str(board), "__str__()")))

    def equals(self, verb, args):
        a, b = two(verb, args)
        wa, x = self.board(a)
        wb, y = self.board(b)
        if wa is not wb:
            raise Refusal(f"{a} and {b} are not boards of one world")
        return wa.run(lambda: "true" if x == y else "false")

    def equals_other(self, verb, args):
        world, board = self.board(one(verb, args))
        other = Uncastable() if verb == "equals_uncastable" else OTHERS[verb]
        return world.run(lambda: "true" if board == other else "false")

    def neighbors(self, verb, args):
        world, board = self.board(one(verb, args))
        return self.add_all(world, world.run(lambda: boards(board.neighbors(), "neighbors()")))

    def neighbors_texts(self, verb, args):
        """neighbors(), then str() of each of the first MAX boards it returned, each text's outcome apart: the
        handles as `neighbors` lists them, then per text a tab and `=TEXT` or `!KIND MESSAGE`."""
        if len(args) != 2:
            raise Refusal(f"`{verb}` takes a handle and a count, got {len(args)} arguments")
        if not args[1].isdigit():
            raise Refusal(f"bad count of texts `{args[1]}`")
        world, board = self.board(args[0])
        found = world.run(lambda: boards(board.neighbors(), "neighbors()"))
        listed = self.add_all(world, found)
        return "\t".join([listed] + [text_outcome(world, b) for b in found[:int(args[1])]])

    def neighbors_after(self, verb, args):
        """a.neighbors(), then b.neighbors(), and only then both results listed: an iterable that a later call
        refills shows it."""
        a, b = two(verb, args)
        wa, x = self.board(a)
        wb, y = self.board(b)
        if wa is not wb:
            raise Refusal(f"{a} and {b} are not boards of one world")
        first, second = wa.run(lambda: (x.neighbors(), y.neighbors()))
        lists = wa.run(lambda: [boards(first, "neighbors()"), boards(second, "neighbors()")])
        return " ".join(self.add_all(wa, items) for items in lists)

    def neighbors_nested(self, verb, args):
        world, board = self.board(one(verb, args))
        lists = world.run(lambda: nested(board.neighbors(), "neighbors()"))
        return " ".join(self.add_all(world, items) for items in lists)

    def twin(self, verb, args):
        world, board = self.board(one(verb, args))
        twin = world.run(lambda: board.twin())
        if twin is None:
            raise StudentFailure("TypeError", "twin() returned None")
        return self.add("b", world, twin)

    def release(self, verb, args):
        for h in args:
            if self.objects.pop(handle(h), None) is None:
                raise Refusal(f"unknown handle {handle(h)}")
            self.constructed.pop(handle(h), None)
        return ""

    def board_bytes(self, world, rows):
        """The bytes one board built from `rows` retains (tracemalloc: allocated while building, still held)."""
        board_class = world.board()
        _, retained = retained_by(lambda: world.run(lambda: board_class(rows)))
        return retained

    # ---------------------------------------------------------------- solvers and counters

    def new_solver(self, verb, args):
        world, board = self.board(one(verb, args))
        return self.add("s", world, self.solve(world, board))

    def memory_solver(self, verb, args):
        world, board = self.board(one(verb, args))
        if not self.memory:
            raise Refusal("memory is not measured", unsupported=True)
        solver, retained = self.measured_solve(world, board)
        h = self.add("s", world, solver)
        self.constructed[h] = retained
        return f"{h} {retained}"

    def memory_retained(self, verb, args):
        """What the Solver retains once moves(), is_solvable() and solution() were called (what they raise is
        ignored, what solution() returned let go); then the second reading, every traced byte still held after
        a full collection, and its part off the heap (none)."""
        token = one(verb, args)
        world, solver = self.solver(token)
        if not self.memory:
            raise Refusal("memory is not measured", unsupported=True)

        def every_method():
            for method in ("moves", "is_solvable", "solution"):
                try:
                    world.run(lambda: getattr(solver, method)())
                except StudentFailure:  # a test that calls this method judges what it raises
                    pass

        _, grown = retained_by(every_method)
        gc.collect()
        kept, _ = tracemalloc.get_traced_memory()
        return f"{self.constructed.get(handle(token), 0) + grown} {kept} 0"

    def solver_null(self, verb, args):
        if len(args) != 1:
            raise Refusal("`solver_null` takes a world")
        world = self.world(args[0])
        return self.add("s", world, self.solve(world, None))

    def solution(self, verb, args):
        world, solver = self.solver(one(verb, args))
        path = world.run(lambda: solver.solution())
        if path is None:
            return "none"
        return self.add_all(world, world.run(lambda: boards(path, "solution()")))

    def counters_reset(self, verb, args):
        """`counters_reset`, `counters_reset sites` (call sites sampled until the next reset) or
        `counters_reset heap` (the queues' heap order checked until then)."""
        sites, heap = args == ["sites"], args == ["heap"]
        if not sites and not heap:
            no_args(verb, args)
        counts.reset(sites, heap)
        QUEUES.reset()
        return ""

    def counters(self, verb, args):
        """The counters, with the queues used since counters_reset as they are now (their sizes, a last
        heap-order check)."""
        no_args(verb, args)
        QUEUES.settle()
        return counts.encode()

    def call_sites(self, verb, args):
        """Where the sampled operations since counters_reset came from (npuzzle_counters.Sites)."""
        no_args(verb, args)
        return SITES.encode()

    def bye(self, verb, args):
        no_args(verb, args)
        return ""

    def solve(self, world, board):
        """Runs a Solver constructor (its queues stay tracked until the counters are read)."""
        solver_class = world.solver()
        QUEUES.before_solve()
        return world.run(lambda: solver_class(board))

    def measured_solve(self, world, board):
        """A Solver and the bytes it retains once constructed (tracemalloc, after a full collection)."""
        return retained_by(lambda: self.solve(world, board))

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
        # a neighbors_texts reply's texts follow its handles after a tab: no text is read as a handle
        self.reply_handles[rid] = [t for t in values.split("\t", 1)[0].split(" ") if is_handle(t)]
        self.recorded.append(rid)
        while self.recorded and self.recorded[0] <= rid - REPLY_WINDOW:
            self.reply_handles.pop(self.recorded.popleft(), None)

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


def retained_by(make):
    """What `make()` returns and the traced bytes it added that are still held after a full collection
    (tracemalloc runs from the server's start, with --memory)."""
    gc.collect()
    before, _ = tracemalloc.get_traced_memory()
    made = make()
    gc.collect()
    after, _ = tracemalloc.get_traced_memory()
    return made, max(0, after - before)


def value(verb, world, target):
    """The int or bool a method of `target` returns, as the protocol writes it."""
    if verb in INT_VERBS:
        return world.run(lambda: as_int(getattr(target, verb)(), INT_VERBS[verb]))
    return world.run(lambda: as_bool(getattr(target, verb)(), BOOL_VERBS[verb]))


def text_outcome(world, board):
    """One text of a neighbors_texts reply: what a to_string request of `board` would answer, marked (a
    world's `run` turns whatever the student's code raises into a StudentFailure)."""
    try:
        return "=" + escape(world.run(lambda: as_text(str(board), "__str__()")))
    except StudentFailure as f:
        return f"!{token(f.kind)} {escape(f.detail)}"


def boards(iterable, what):
    """The boards of an iterable a student method returned (run inside the call: the iteration is theirs)."""
    if iterable is None:
        raise TypeError(f"{what} returned None")
    items = list(iterable)
    if any(b is None for b in items):
        raise TypeError(f"{what} returned None among its boards")
    return items


def nested(iterable, what):
    """The boards of `iterable` iterated in two nested loops: the outer loop's, then the inner loop's at each
    outer step (run inside the call: the iteration is the student's). An iterator (`iter(it) is it`: a
    generator, a map, an object that is its own iterator) is single-use by Python's iteration protocol, so it
    is taken once and that list serves both loops; a re-iterable (a list, a tuple, a class whose __iter__
    starts a new iterator) is iterated nested."""
    if iterable is None:
        raise TypeError(f"{what} returned None")
    if iter(iterable) is iterable:
        once = boards(iterable, what)
        return [once] + [once for _ in once]
    lists = [[]]
    for board in iterable:
        lists[0].append(board)
        lists.append(list(iterable))
    if any(b is None for items in lists for b in items):
        raise TypeError(f"{what} returned None among its boards")
    return lists


def handle(token):
    if is_handle(token):
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

