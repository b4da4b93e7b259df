"""The seal: an audit hook (PEP 578) that refuses what would let student code reach the grader's side of the
process, installed before any student module is imported.

Refused, each with a `RuntimeError` that names the call ("the grader does not allow sys._getframe() (it
reaches the grader's side)"), which fails the request as the student's exception:

- frames: `sys._getframe()`, `sys._current_frames()`, `sys._current_exceptions()`, a traceback's `tb_frame`
  and a generator's or coroutine's `gi_frame` / `cr_frame` / `ag_frame` (a frame's `f_back` leads to the
  server's frames), and tracing or profiling (`sys.settrace`, `sys.setprofile`; their callbacks get frames).
  Allowed from a few callers that read a frame and hand none out: the functions of `collections`, `enum` and
  `typing` that read the caller's module name (namedtuple, Enum's functional API, TypeVar, NamedTuple...;
  checked on their bytecode: `sys._getframe(n).f_globals` and nothing else), and the adapter's own search of
  a traceback for the student's line and its call-site sampler. (`traceback.print_exc()` and the like are refused: they walk frames.)
  Python 3.8 reports a hook's refusal of a tracer as "Exception ignored" and leaves the tracer out.
- `gc.get_objects()`, `gc.get_referrers()`, `gc.get_referents()`: they reach every object;
- imports of `ctypes` (it writes memory), `_heapq` (the uncounted C heap behind heapq), the adapter's private
  modules, `_posixsubprocess`, sub-interpreters and CPython's test modules. The C extensions among them are
  refused under any package name too (`x._heapq`, loaded from the extension's file with `importlib`): an
  extension's init function is found by the last part of the name it is loaded as;
- opening a file of the adapter, anything on `/proc` (`/proc/self/mem` writes the process's memory), a
  directory (a directory descriptor would let a relative path escape these checks), a path with a `..`
  component, or a path that is not a str or bytes (a path object's `__fspath__` could answer differently
  when Python opens it); creating a symbolic link;
- starting a process (`os.system`, `subprocess`, `os.fork`, `os.exec*`, `os.posix_spawn`, ...): it would
  run outside the hook. Refused when it is started, not when a module that can start one is imported: a
  leftover `import subprocess` or `import asyncio` (both import `_posixsubprocess`) is harmless, so
  `_posixsubprocess` is a stand-in whose `fork_exec` raises (the real one is refused, above);
- a signal handler's frame: the student's handlers are called with `None` for it (not refused: `signal.signal()`
  at a module's top is a common idiom), and a fresh import of `_signal` is refused;
- `sys.addaudithook()` (with `AuditHookRefused`, a BaseException: CPython swallows an `Exception` raised
  there and silently leaves the hook out, which would be safe but not clear).

The hook cannot be removed, and it holds everything it uses from the moment it is installed (captured
functions, no module globals): nothing student code can rebind changes its decisions. What in-process Python
cannot refuse is listed in README.md ("What the seal does not cover").
"""

import types

# Each handler below is a closure over what it uses, bound when the hook is installed (before any student
# code): a student can rebind module attributes and builtins, not these.


def install(adapter_files, trusted_frame_readers, trusted_frame_getters=()):
    """Installs the hook. `adapter_files`: the adapter's files and folder (refused to `open`);
    `trusted_frame_readers`: code objects of the adapter's own that may read a traceback's frames;
    `trusted_frame_getters`: code objects of the adapter's own that may call sys._getframe() (the call-site
    sampler, which hands no frame out)."""
    import sys

    refuse = _refuse_with(RuntimeError)
    handlers = _refusals(refuse)
    handlers.update(_frame_handlers(refuse, tuple(trusted_frame_readers), tuple(trusted_frame_getters)))
    handlers["import"] = _import_handler(refuse)
    handlers["open"] = _open_handler(refuse, adapter_files)
    handlers["sys.addaudithook"] = _refuse_hooks(AuditHookRefused)
    lookup = handlers.get
    sys.modules["_posixsubprocess"] = _process_starter_stand_in(refuse)
    _handlers_without_frames()

    # Every audited event of the process comes here (`id()`, `array.array()` are audited too): one dict lookup
    # for the events it lets through.
    def hook(event, args):
        handler = lookup(event)
        if handler is not None:
            handler(args)

    sys.addaudithook(hook)


def _refuse_with(refused):
    def refuse(what, why="it reaches the grader's side"):
        raise refused(f"the grader does not allow {what} ({why})")

    return refuse


def _refuser(refuse, what, why="it reaches the grader's side"):
    def handler(args):
        refuse(what, why)

    return handler


def _refuse_hooks(refused):
    def handler(args):
        raise refused("the grader does not allow sys.addaudithook() (a hook sees the grader's side)")

    return handler


def _refusals(refuse):
    """The events refused whatever their arguments."""
    spawn = "it would run outside the grader's checks"
    tracer = "a tracer sees the grader's frames"
    refusals = {
        "sys._current_frames": ("sys._current_frames()",),
        "sys._current_exceptions": ("sys._current_exceptions()",),
        "sys.settrace": ("sys.settrace()", tracer),
        "sys.setprofile": ("sys.setprofile()", "a profiler sees the grader's frames"),
        "sys._settraceallthreads": ("tracing", tracer),
        "sys._setprofileallthreads": ("profiling", tracer),
        "gc.get_objects": ("gc.get_objects()",),
        "gc.get_referrers": ("gc.get_referrers()",),
        "gc.get_referents": ("gc.get_referents()",),
        "os.symlink": ("os.symlink()", "a link could lead a later open() elsewhere"),
        "os.system": ("os.system()", spawn),
        "os.fork": ("os.fork()", spawn),
        "os.forkpty": ("os.forkpty()", spawn),
        "os.exec": ("os.exec*()", spawn),
        "os.posix_spawn": ("os.posix_spawn()", spawn),
        "os.spawn": ("os.spawn*()", spawn),
        "subprocess.Popen": ("starting a process", spawn),
    }
    for event in CTYPES_EVENTS:  # belt and braces: ctypes cannot be imported
        refusals[event] = (event, "it writes the process's memory")
    return {event: _refuser(refuse, *said) for event, said in refusals.items()}


def _frame_handlers(refuse, trusted_frame_readers, trusted_frame_getters):
    """sys._getframe() and the frame attributes, allowed from trusted code alone."""
    import _thread
    import collections
    import enum
    import sys
    import typing

    get_ident = _thread.get_ident
    getframe = sys._getframe
    frame_attributes = FRAME_ATTRIBUTES
    getframe_callers = tuple(_getframe_callers(collections, enum, typing)) + trusted_frame_getters
    busy = set()  # threads inside the hook's own sys._getframe() call

    def caller_is_one_of(trusted):
        """Whether the frame that made the audited call runs one of the `trusted` code objects."""
        ident = get_ident()
        busy.add(ident)
        try:
            # 0 this function, 1 the event's handler, 2 the hook, 3 the caller
            code = getframe(3).f_code
        finally:
            busy.discard(ident)
        for candidate in trusted:
            if candidate is code:
                return True
        return False

    def on_getframe(args):
        if get_ident() in busy or caller_is_one_of(getframe_callers):
            return
        refuse("sys._getframe()")

    def on_getattr(args):
        name = args[1]
        if name in frame_attributes and not caller_is_one_of(trusted_frame_readers):
            refuse(f"reading {name}", "a frame reaches the grader's side; print the exception itself instead")

    return {"sys._getframe": on_getframe, "object.__getattr__": on_getattr}


def _process_starter_stand_in(refuse):
    """What `import _posixsubprocess` finds (`subprocess` imports it at its top): its `fork_exec`, the one way
    to start a process that raises no audit event of its own, refuses."""

    def fork_exec(*args, **kwargs):
        refuse("starting a process", "it would run outside the grader's checks")

    stand_in = types.ModuleType("_posixsubprocess", "Refuses to start a process (the grader's seal).")
    stand_in.fork_exec = fork_exec
    return stand_in


class _Frameless:
    """A student's signal handler, called with no frame (None)."""

    __slots__ = ("handler",)

    def __init__(self, handler):
        self.handler = handler

    def __call__(self, signum, frame):
        return self.handler(signum, None)


def _handlers_without_frames():
    """`signal.signal()` (and `_signal.signal()`, which it calls) with the student's handler given no frame: a
    handler runs on the main thread and is handed the frame it interrupted, the server's wait, whose locals and
    `f_back` reach the grader's side without an audited call (a red-team board.py sent itself SIGALRM with
    `pthread_kill` and read them). `getsignal()` and the previous handler `signal()` returns are the student's
    own handler, as set. A fresh `_signal` with the unwrapped function is refused at import (REFUSED_IMPORTS)."""
    import _signal

    install, current = _signal.signal, _signal.getsignal

    def unwrapped(handler):
        return handler.handler if type(handler) is _Frameless else handler

    def signal(signalnum, handler):
        return unwrapped(install(signalnum, _Frameless(handler) if callable(handler) else handler))

    def getsignal(signalnum):
        return unwrapped(current(signalnum))

    signal.__doc__, getsignal.__doc__ = install.__doc__, current.__doc__
    _signal.signal, _signal.getsignal = signal, getsignal


def _import_handler(refuse):
    plain_str = str.__str__
    partition = str.partition
    rpartition = str.rpartition
    refused_import = dict(REFUSED_IMPORTS).get
    refused_extension = {name: why for name, why in REFUSED_IMPORTS.items() if name in EXTENSIONS}.get

    def on_import(args):
        name = plain_str(args[0])
        why = (refused_import(name) or refused_import(partition(name, ".")[0])
               or refused_extension(rpartition(name, ".")[2]))
        if why:
            refuse(f"importing {name}", why)

    return on_import


def _open_handler(refuse, adapter_files):
    """open() and os.open(): the adapter's files, /proc, directories, `..`."""
    import os

    stat = os.stat
    plain_str = str.__str__
    decode = bytes.decode
    split = str.split
    type_of = type
    subclass = issubclass
    descriptor, text_path, bytes_path = int, str, bytes
    not_there = (OSError, ValueError)
    proc_device = stat("/proc").st_dev if os.path.isdir("/proc") else -1
    adapter_inodes = frozenset(_inodes(adapter_files, stat))

    def on_open(args):
        path = args[0]
        kind = type_of(path)
        if subclass(kind, descriptor):
            return  # a descriptor the process already has
        if subclass(kind, text_path):
            text = plain_str(path)
        elif subclass(kind, bytes_path):
            text = decode(path, "utf-8", "surrogateescape")
        else:
            refuse("opening a path that is not a str or bytes", "pass str(path)")
        if ".." in split(text, "/"):
            refuse(f"opening {text!r}", "a path with `..` in it")
        try:
            found = stat(text)
        except not_there:
            return  # a file to be created (no link can lead elsewhere: links are refused)
        if found.st_dev == proc_device:
            refuse(f"opening {text!r}", "/proc reaches the grader's side")
        if found.st_mode & 0o170000 == 0o040000:
            refuse(f"opening the directory {text!r}", "a directory's descriptor escapes these checks")
        if (found.st_dev, found.st_ino) in adapter_inodes:
            refuse(f"opening {text!r}", "it is one of the grader's files")

    return on_open


class AuditHookRefused(BaseException):
    """The refusal of `sys.addaudithook()`."""


CTYPES_EVENTS = ("ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.cdata", "ctypes.cdata/buffer",
                 "ctypes.addressof", "ctypes.call_function", "ctypes.PyObj_FromPtr", "ctypes.string_at",
                 "ctypes.wstring_at")

FRAME_ATTRIBUTES = frozenset(["tb_frame", "gi_frame", "cr_frame", "ag_frame"])

_PRIVATE = "the grader's own module"
_MEMORY = "it writes the process's memory"
REFUSED_IMPORTS = {
    "_heapq": "the uncounted C heap behind heapq: use heapq or algs4.MinPQ",
    "ctypes": _MEMORY,
    "_ctypes": _MEMORY,
    "_testcapi": _MEMORY,
    "_testinternalcapi": _MEMORY,
    "_testmultiphase": _MEMORY,
    "_posixsubprocess": "it starts processes, which would run outside the grader's checks",
    "_signal": "its handlers would be given the grader's frames: use the signal module",
    "_xxsubinterpreters": "a sub-interpreter runs outside the grader's checks",
    "_xxinterpchannels": "a sub-interpreter runs outside the grader's checks",
    "_interpreters": "a sub-interpreter runs outside the grader's checks",
    "_interpchannels": "a sub-interpreter runs outside the grader's checks",
    "_interpqueues": "a sub-interpreter runs outside the grader's checks",
    "npuzzle_counters": _PRIVATE,
    "npuzzle_heapq": _PRIVATE,
    "npuzzle_protocol": _PRIVATE,
    "npuzzle_seal": _PRIVATE,
    "npuzzle_student": _PRIVATE,
    "reference_board": _PRIVATE,
    "server": _PRIVATE,
}


# The C extensions of REFUSED_IMPORTS: refused whatever package name they are loaded under (the adapter's own
# modules are not: a student's `tools.server` is not the adapter's `server`, whose file the seal refuses to open).
EXTENSIONS = frozenset(name for name in REFUSED_IMPORTS if name.startswith("_"))


def _getframe_callers(*modules):
    """The code objects of the functions (and the functions within them) these standard modules define that
    call sys._getframe() only to read the frame's `f_globals` (the caller's module name, in namedtuple, Enum's
    functional API, TypeVar, NamedTuple...), handing no frame out: checked on the bytecode, so a version whose
    function does more with the frame is not trusted (its callers see the refusal)."""
    pending = [(value, module.__name__) for module in modules for value in vars(module).values()]
    seen = set()
    while pending:
        value, owner = pending.pop()
        if id(value) in seen or getattr(value, "__module__", None) != owner:
            continue
        seen.add(id(value))
        if isinstance(value, type):
            pending.extend((member, owner) for member in vars(value).values())
            continue
        code = getattr(getattr(value, "__func__", value), "__code__", None)
        if isinstance(code, types.CodeType):
            yield from (found for found in _naming(code, "_getframe") if _reads_globals_only(found))


def _naming(code, name):
    """`code` and the code objects nested in it that name `name`."""
    if name in code.co_names:
        yield code
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _naming(constant, name)


_CALLS = {"CALL", "CALL_FUNCTION", "CALL_METHOD"}


def _reads_globals_only(code):
    """Whether every sys._getframe(...) in `code` is followed at once by `.f_globals`: the call that comes
    first after the name (the argument may be computed, never called) and then, at once, that attribute."""
    import dis

    instructions = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    for k, instruction in enumerate(instructions):
        if instruction.argval != "_getframe" or instruction.opname not in ("LOAD_ATTR", "LOAD_METHOD"):
            continue
        call = next((j for j in range(k + 1, len(instructions)) if instructions[j].opname in _CALLS), None)
        after = instructions[call + 1] if call is not None and call + 1 < len(instructions) else None
        if after is None or after.opname not in ("LOAD_ATTR", "LOAD_METHOD") or after.argval != "f_globals":
            return False
    return True


def _inodes(paths, stat):
    for path in paths:
        try:
            found = stat(path)
        except OSError:
            continue
        yield found.st_dev, found.st_ino
