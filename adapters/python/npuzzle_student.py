"""Calling the student's code, and reading what it returns, so that nothing it does speaks for the grader.

A private module (see npuzzle_counters.py). Every call into student code goes through `call()`, which turns
anything raised there into a `StudentFailure`, the adapter's own exception classes included (student code
can reach them through `object.__subclasses__()`; raising one must not read as an adapter fault). Values are
read inside the call too (`as_int`, `as_bool`, `as_text`, a comparison's truth), so that a `__str__`,
`__eq__`, `__bool__` or `__index__` of the student's runs where its failure is the student's. Describing an
exception trusts nothing of it: its class name and module are read through `type`'s own descriptors, its
`__str__` runs guarded (what it raises is named, not propagated), and its message is cut at MAX_DETAIL.
"""

import gc
import importlib.util
import mmap
import os
import sys
import types

from npuzzle_counters import QUEUES

MAX_DETAIL = 4096

STUDENT_ROOTS = []  # the submission folder, with a trailing separator (set by the server)
MEMORY_MB = [0]  # the address-space cap, for the MemoryError's message (set by the server)

# The cyclic collector's young-generation threshold, where CPython's default is 700 containers: a search keeps
# alive nearly every node and board it makes, so the collector's passes find little garbage, and the passes
# over its older generations (the whole search, again each time it has grown by a quarter), which the young
# passes' count sets off, cost the more the larger the search. 50,000 takes 8-12% off a quick grade's CPU, a
# fifth off a default one's and 29% on the official data set (BENCHMARKS.md, "The Python collector"); memory
# readings are unchanged, each taken after a full collection (`gc.collect()`), and garbage made of cycles
# waits at most 50,000 containers longer. Only the first threshold: its meaning is the same in every CPython
# since 2.0, the incremental collector of 3.14 included (which ignores the third).
YOUNG_THRESHOLD = 50_000


def tune_collector():
    """Sets the collector's young-generation threshold for the student's code (the server, and the floor's
    replay, before any student module is loaded); the other thresholds stay the interpreter's."""
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])

_traceback_of = BaseException.__traceback__.__get__
_name_of = type.__dict__["__name__"].__get__
_module_of = type.__dict__["__module__"].__get__
_plain = str.__str__
_startswith = str.startswith


class StudentFailure(Exception):
    """The student's code raised, or returned something the API does not allow."""

    def __init__(self, kind, detail):
        super().__init__(kind)
        self.kind = kind
        self.detail = detail


def call(function):
    """Calls student code; anything it raises becomes a StudentFailure.

    The failure is raised after the `except` clause has ended, so the exception's traceback, and with it
    whatever the student's frames held (a whole search, after a MemoryError), is freed first. After a
    MemoryError the queues tracked since `counters_reset` are let go too (their entries hold them for the
    counters, and they are what filled the memory; the failed request's counts are moot): else the server
    itself could not read the next request.

    Code that runs out of address space does not always raise MemoryError: a C function can fail an
    allocation on the way out of another failure and return without an exception (`SystemError: error
    return without exception set`, seen in the student's own line), or the failure's description can run
    out itself. Whatever was raised, an address space still exhausted once the student's frames are gone is
    the MemoryError it is.
    """
    try:
        return function()
    except MemoryError:
        result = None
    except BaseException as e:  # noqa: B036 (whatever student code raises is the student's)
        try:
            result = failure(e)
        except MemoryError:
            result = None
    if result is None or _address_space_exhausted():
        QUEUES.begin()
        gc.collect()
        result = StudentFailure("MemoryError", f"out of memory (address space {MEMORY_MB[0]} MB)")
    raise result


# A pymalloc arena: what the next small object may need from the system (CPython 3.10 and later; 256 KB
# before), and what the server needs to go on reading and answering requests.
ARENA_BYTES = 1 << 20


def _address_space_exhausted():
    """Whether the capped address space has no room left for another arena: mapped as pymalloc maps one
    (anonymous, not touched), and let go at once. Free room inside the C heap does not count: small objects
    never come from it."""
    if not MEMORY_MB[0]:
        return False
    try:
        mmap.mmap(-1, ARENA_BYTES).close()
    except OSError:
        return True
    return False


def failure(e):
    """The StudentFailure an exception raised by student code is reported as; never raises."""
    try:
        return _describe(e)
    except BaseException:  # noqa: B036
        return StudentFailure("exception", "(an exception that could not be described)")


def _describe(e):
    cls = type(e)
    kind = class_name(cls)
    if cls is not ValueError and issubclass(cls, ValueError):
        # what `except ValueError` catches: the grader accepts it where it asks for a ValueError (Solver(None))
        kind = f"{kind}(ValueError)"
    if issubclass(cls, RecursionError):
        message = "maximum recursion depth exceeded"
    else:
        message = _message(e)
    if issubclass(cls, ModuleNotFoundError) and _startswith(message, "No module named "):
        # numpy, or a helper module left out of the submission: nothing the grader's side could have made
        message = f"{message}: neither the grader's Python nor the submitted files have it"
    where = student_frame(_traceback_of(e), tuple(STUDENT_ROOTS))
    if where is not None:
        filename, line = where
        where = f"{os.path.basename(_plain(filename))}:{line}"
        message = f"{message} (at {where})" if message else f"(at {where})"
    return StudentFailure(kind, message)


def class_name(cls):
    """`module.Name` of a class (`Name` for builtins), read through `type`'s own descriptors."""
    name = _plain(_name_of(cls))
    try:
        module = _module_of(cls)
    except BaseException:  # noqa: B036
        module = None
    if type(module) is str and module != "builtins":
        return f"{module}.{name}"
    return name


def _message(e):
    try:
        text = str(e)
    except BaseException as inner:  # noqa: B036
        return f"(its __str__ raised {class_name(type(inner))})"
    text = _plain(text)
    if len(text) > MAX_DETAIL:
        text = text[:MAX_DETAIL] + "…"
    return text


def student_frame(tb, roots):
    """The innermost traceback entry in one of the student's files, as (filename, line), or None.

    The seal lets this function, and no other, read a traceback's frames: it reads their code's file name
    and hands no frame out.
    """
    where = None
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        for root in roots:
            if _startswith(filename, root):
                where = (filename, tb.tb_lineno)
        tb = tb.tb_next
    return where


def as_int(value, what):
    """The protocol's text of an int a student method returned: an int, or a float of an integral value (a
    manhattan() summed with math.fabs is right: 12.0 == 12 in Python). TypeError for anything else, the
    float's value named."""
    kind = type(value)
    if issubclass(kind, int) and not issubclass(kind, bool):
        return int.__repr__(value)
    if issubclass(kind, float):
        number = float.__float__(value)  # the value itself, whatever a subclass overrides
        if number.is_integer():
            return int.__repr__(int(number))
        raise TypeError(f"{what} returned {class_name(kind)} {float.__repr__(number)}, not an int")
    raise TypeError(f"{what} returned {class_name(kind)}, not an int")


def as_bool(value, what):
    """The protocol's text of a bool a student method returned (TypeError for anything else)."""
    if type(value) is bool:
        return "true" if value else "false"
    raise TypeError(f"{what} returned {class_name(type(value))}, not a bool")


def as_text(value, what):
    """A str a student method returned, as a plain str (TypeError for anything else)."""
    if issubclass(type(value), str):
        return _plain(value)
    raise TypeError(f"{what} returned {class_name(type(value))}, not a str")


def load_module(name, path):
    """Loads a student file as module `name`, in `sys.modules` under that name while it runs and after, as an
    import puts it (`dataclasses` reads a string annotation through `sys.modules[cls.__module__]`)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:  # noqa: B036 (as an import does: a module that failed is not kept)
        if sys.modules.get(name) is module:
            del sys.modules[name]
        raise
    return module


def modules_from(folder):
    """The modules in `sys.modules` loaded from a file under `folder` (ending in a separator), by name."""
    found = {}
    for name, module in list(sys.modules.items()):
        if type(module) is types.ModuleType:
            path = module.__dict__.get("__file__")
            if type(path) is str and _startswith(path, folder):
                found[name] = module
    return found


def load_apart(name, path, board_module, folder):
    """`load_module(name, path)` in a world of its own: the modules already loaded from `folder` (the
    submission: the other world's Board and helper modules) out of `sys.modules` while it runs and
    `board_module` as `board`, so that its imports of the submission's other files load them again, over
    `board_module`, as the official grader compiles every class of a submission against its reference Board.
    Then the other world's are back, and this one's `board` and helpers out (each world's modules hold what
    they imported); the module loaded stays under `name`."""
    other_world = modules_from(folder)
    for other in other_world:
        del sys.modules[other]
    sys.modules["board"] = board_module
    try:
        return load_module(name, path)
    finally:
        for loaded in modules_from(folder):
            if loaded != name:
                del sys.modules[loaded]
        sys.modules.pop("board", None)
        sys.modules.update(other_world)


class World:
    """One world: a Board class and a Solver class, or why they could not be loaded. `serving` is the flag
    the reference Board checks (the ref world's), or None.

    The ref world serves while its modules load, too: a solver.py that builds a Board at its top level (a
    sanity check, a constant) builds the reference one, as a Java Solver's static initializer does against
    the official reference Board. And while it answers a request its Board module is `board` in
    `sys.modules`: a Solver that imports `board` inside a function (at call time, to break a circular import)
    gets the reference Board there, as at load time, not the own world's.

    The Board module loads first, then the Solver's. A solver.py that raises at its top level fails what
    asks for a Solver and nothing else: the Board tests go on, as a Java Solver whose static initializer
    throws fails only where Solver is used. A board.py that raises fails both (solver.py imports it)."""

    def __init__(self, name, load_board, load_solver, serving=None):
        self.name = name
        self.serving = serving
        self.board_class = self.solver_class = None
        self.board_module = None
        self.board_failure = self.solver_failure = None
        if serving is not None:
            serving[0] = True
        try:
            self.board_module = load_board()
            self.board_class = getattr(self.board_module, "Board", None)
            self.solver_class = getattr(load_solver(), "Solver", None)
        except BaseException as e:  # noqa: B036 (a student module that raises at import)
            self.solver_failure = failure(e)
            if self.board_module is None:
                self.board_failure = self.solver_failure
        finally:
            if serving is not None:
                serving[0] = False

    def board(self):
        if self.board_failure:
            raise self.board_failure
        if self.board_class is None:
            raise StudentFailure("AttributeError", "board.py defines no class Board")
        return self.board_class

    def solver(self):
        if self.solver_failure:
            raise self.solver_failure
        if self.solver_class is None:
            raise StudentFailure("AttributeError", "solver.py defines no class Solver")
        return self.solver_class

    def run(self, function):
        """`call(function)` with this world's reference Board (if any) serving, and its Board module as
        `board` in `sys.modules` meanwhile (the class docstring)."""
        if self.serving is None:
            return call(function)
        self.serving[0] = True
        modules = sys.modules
        own_board = modules.get("board")
        if self.board_module is not None:
            modules["board"] = self.board_module
        try:
            return call(function)
        finally:
            self.serving[0] = False
            if own_board is not None:
                modules["board"] = own_board
            elif modules.get("board") is self.board_module:
                del modules["board"]
