"""Operation counts shared by the counting MinPQ (algs4.py), the heapq shim and the reference Board.

A private module: the server loads it from outside `sys.path` and keeps it out of `sys.modules` (server.py),
and the seal refuses `import npuzzle_counters` (npuzzle_seal.py). One module-level object, `counts`, holds
every counter; requests run one at a time, so plain attributes suffice. `board_neighbors_distinct` counts the
distinct boards descended from one the grader built that neighbors() was called on, `board_expanded` those of
them it was called on as the first neighbors() call since the last delMin (or since the reset): the boards a
search expanded (specs/protocol.md). Their tiles are kept exactly, in a dict. `QUEUES` tracks the queues (MinPQs
and heapq lists) used since `counters_reset`: when the counters are read, their sizes are pq_ending_size and
their heap order is checked a last time.
"""


PERIOD = 128
MOST_SITES = 1000


class Sites:
    """Where in the student's code the counted operations come from (`call_sites`, specs/protocol.md).

    While sampling is on (from `counters_reset sites` to the next `counters_reset`: the grader samples only a
    life it lives again to explain a failing count, never one it judges), every PERIOD-th operation of each
    sampled counter (the 1st, the 129th, ...) records the innermost line of a student file on the stack, so a
    count that fails can name the lines it comes from. Deterministic (it depends on the counts alone), and its own CPU is measured: the grader takes it off the Solver's. The one
    function that reads frames, `_student_line`, is trusted by the seal to call sys._getframe(); it hands no
    frame out. At most MOST_SITES lines are told apart; samples past them count as "elsewhere".
    """

    def __init__(self):
        import sys
        import time

        self.roots = []
        self._names = {}  # a student file's name as a protocol token, by its path
        self._getframe = sys._getframe
        self._thread_time_ns = time.thread_time_ns
        self.reset()

    def reset(self, sampling=False):
        self.samples = {}
        self.cpu_ns = 0
        self.sampling = sampling

    def note(self, counter, before, after):
        """`counter` went from `before` to `after`: samples the sampling points it passed."""
        passed = (after - 1) // PERIOD - (before - 1) // PERIOD
        if passed > 0:
            self.sample(counter, passed)

    def sample(self, counter, weight):
        if not self.sampling:
            return
        start = self._thread_time_ns()
        site = self._student_line()
        if site is not None:
            key = (counter, site)
            if key not in self.samples and len(self.samples) >= MOST_SITES:
                key = (counter, "elsewhere")
            self.samples[key] = self.samples.get(key, 0) + weight
        self.cpu_ns += self._thread_time_ns() - start

    def _student_line(self):
        """The innermost `file:line` of the student's code on the stack, relative to the submission."""
        frame = self._getframe(1)
        while frame is not None:
            filename = frame.f_code.co_filename
            name = self._names.get(filename)
            if name is None:
                name = self._names[filename] = self._token(filename)
            if name:
                return f"{name}:{frame.f_lineno}"
            frame = frame.f_back
        return None

    def _token(self, filename):
        """A student file's path below the submission, as one protocol token; "" for a file not the student's."""
        for root in self.roots:
            if filename.startswith(root):
                return "".join(c if c.isprintable() and c not in " =@" else "_" for c in filename[len(root):])
        return ""

    def encode(self):
        tokens = [f"sampling_cpu_ns={self.cpu_ns}"]
        tokens.extend(f"{counter}@{site}={n}" for (counter, site), n in sorted(self.samples.items()))
        return " ".join(tokens)


SITES = Sites()


class Counts:
    """The protocol's counters (specs/protocol.md, "Counter names")."""

    BOARD_FIELDS = (
        "board_constructed", "board_equals", "board_equals_non_board", "board_equals_not_grand_neighbor",
        "board_manhattan", "board_hamming", "board_to_string", "board_neighbors", "board_expanded",
        "board_neighbors_distinct", "board_twin",
        "board_is_goal", "board_dimension",
    )
    PQ_FIELDS = ("pq_inserts", "pq_del_mins", "pq_max_size", "pq_ending_size", "pq_deep_bytes",
                 "pq_heap_violations")

    def __init__(self):
        self.next_board_id = 1
        self.reset()

    def reset(self, sample_sites=False, check_heap_order=False):
        """Zeroes every counter; call sites are sampled from now on if `sample_sites`, and the queues' heap
        order checked if `check_heap_order` (`counters_reset heap`, capability `counters_heap`: the checks run
        the student's comparisons inside the Solver's requests, and only the heap-order test reads them; in a
        span that did not ask, pq_heap_violations is left out of the counters)."""
        self.heap_order_checked = check_heap_order
        for name in self.PQ_FIELDS + self.BOARD_FIELDS:
            setattr(self, name, 0)
        self.pq_live = 0
        self.calls_in_interval = 0
        self.expanded = {}  # the tiles of each board neighbors() was called on: whether it counted as expanded
        SITES.reset(sample_sites)

    def inserted_one(self):
        """One insert (a MinPQ insert, a heappush, ...)."""
        self.pq_inserts += 1
        if self.pq_inserts % PERIOD == 1:
            SITES.sample("pq_inserts", 1)
        self.inserted()

    def inserted(self, items=1):
        self.pq_live += items
        if self.pq_live > self.pq_max_size:
            self.pq_max_size = self.pq_live

    def left(self, items):
        """Items that left a queue without a del_min (a heapq list shortened by hand, then heapified)."""
        self.pq_live = max(0, self.pq_live - items)

    def deleted(self):
        self.pq_del_mins += 1
        if self.pq_del_mins % PERIOD == 1:
            SITES.sample("pq_del_mins", 1)
        if self.pq_live > 0:
            self.pq_live -= 1
        self.calls_in_interval = 0

    def neighbors_called(self, root_tiles):
        """One neighbors() call, on a board whose tiles are `root_tiles` if it descends from the grader's
        (None if not): a distinct board if not seen before, an expansion if it is the interval's first call
        and the board was not expanded before."""
        self.board_neighbors += 1
        self.calls_in_interval += 1
        if root_tiles is None:
            return
        first = self.calls_in_interval == 1
        was = self.expanded.get(root_tiles)
        if was is None:
            self.board_neighbors_distinct += 1
        if first and not was:
            self.board_expanded += 1
        if was is None or (first and not was):
            self.expanded[root_tiles] = first

    def save_board_counts(self):
        return [getattr(self, name) for name in self.BOARD_FIELDS]

    def restore_board_counts(self, saved):
        for name, value in zip(self.BOARD_FIELDS, saved):
            setattr(self, name, value)

    def encode(self, peak_bytes=0):
        names = self.PQ_FIELDS + self.BOARD_FIELDS
        if not self.heap_order_checked:
            names = tuple(name for name in names if name != "pq_heap_violations")
        return " ".join(f"{name}={getattr(self, name)}" for name in names) + f" peak_bytes={peak_bytes}"


counts = Counts()

# An entry's fields: the queue, the items it holds by our own tally (inserts less delMins since it was first
# seen, which a Solver cannot lower by emptying the queue behind the API), whether its heap order was found
# broken, its operations in this epoch, the operation count of its next heap-order check, and its kind: the
# pair of functions (own size, heap-order check) of algs4.py or npuzzle_heapq.py.
QUEUE, LIVE, VIOLATED, OPERATIONS, NEXT_CHECK, KIND = range(6)


class Queues:
    """The queues used since `counters_reset` (an epoch), each with an entry of its own.

    A queue is an algs4.MinPQ or a heapq-managed list; its entry lives here, out of the Solver's reach (a
    MinPQ's own attributes are the Solver's to change). `used_heapq` says whether the student's code used
    heapq at all. A `solver` request that is not the first since a reset starts a new epoch too, so that a
    session that never reads counters does not keep every search's queues alive.
    """

    def __init__(self):
        self.epoch = 0
        self.entries = []
        self.last = None
        self.used_heapq = False
        self.solved_since_reset = False

    def begin(self):
        self.epoch += 1
        self.entries = []
        self.last = None

    def reset(self):
        """`counters_reset`: a new epoch."""
        self.begin()
        self.solved_since_reset = False

    def before_solve(self):
        """A Solver is about to be constructed: a new epoch unless it is the first since a reset."""
        if self.solved_since_reset:
            self.begin()
        self.solved_since_reset = True

    def entry(self, queue, size, kind):
        """The entry of `queue` (holding `size` items before the operation at hand), made on first use."""
        last = self.last
        if last is not None and last[QUEUE] is queue:
            return last
        for entry in self.entries:
            if entry[QUEUE] is queue:
                break
        else:
            entry = [queue, size, False, 0, 1, kind]
            self.entries.append(entry)
        self.last = entry
        return entry

    def settle(self):
        """pq_ending_size and the last heap-order checks, as the queues are now (the counters are read).

        A queue's ending size is the larger of its own size and our tally. Idempotent: reading the counters
        twice changes nothing.
        """
        ending = 0
        for entry in self.entries:
            size_of, check = entry[KIND]
            try:
                own = size_of(entry[QUEUE])  # a MinPQ's _n is the Solver's to change: trust an int only
            except BaseException:  # noqa: B036
                own = 0
            ending += max(entry[LIVE], own if type(own) is int else 0)
            if counts.heap_order_checked and not entry[VIOLATED]:
                check(entry)
        counts.pq_ending_size = ending


QUEUES = Queues()


def violated(entry):
    """Counts a heap-order violation of the entry's queue, once per queue and epoch."""
    if not entry[VIOLATED]:
        entry[VIOLATED] = True
        counts.pq_heap_violations += 1


def check_heap_order(entry, items, first, less):
    """Checks that `items[first:]` is in heap order under `less` (children of k at 2k+1-first...), counting a
    violation on the entry if not: a child less than its parent that its parent is not also less than (a
    `__lt__` written as `<=` calls each of two equal items less than the other, which is not a mutation). The
    student's comparisons run here: their board counts are not charged, and whatever they raise only ends the
    check (it shows up in the Solver's own operations)."""
    saved = counts.save_board_counts()
    try:
        for k in range(first + 1, len(items)):
            parent = (k - first - 1) // 2 + first
            if less(items[k], items[parent]) and not less(items[parent], items[k]):
                violated(entry)
                return
    except BaseException:  # noqa: B036 (the student's __lt__ failed or was refused)
        pass
    finally:
        counts.restore_board_counts(saved)
