"""The instrumented heapq: counts a heapq solver's operations as MinPQ operations.

A private module (see npuzzle_counters.py). `install()` replaces the functions of the standard `heapq` module
before any student code is loaded, so `import heapq` and `from heapq import heappush` both get these, and
takes `_heapq` (the C heap behind them, never counted) out of `sys.modules`; the seal refuses importing it
again. heappush is an insert, heappop a del_min, heappushpop and heapreplace one of each, heapify(list) adds
the list's items to the live size (as a MinPQ built from an array; of a list in use, the items beyond our
tally of it); nlargest, nsmallest and merge are not counted. The lists used since `counters_reset` end when
the counters are read, like a MinPQ: their lengths (or our tally of them, if larger) go to pq_ending_size and,
where the grader asked for it (`counters_reset heap`), their heap order is checked once.
"""

import heapq
import sys

from npuzzle_counters import LIVE, QUEUES, check_heap_order, counts

_push = heapq.heappush
_pop = heapq.heappop
_pushpop = heapq.heappushpop
_replace = heapq.heapreplace
_heapify = heapq.heapify


def _track(heap, size=None):
    """The entry of a heapq list; one made now holds `size` items, its length unless said."""
    # Nothing is written to stderr, which the report shows as the submission's own output: that heapq
    # operations count as MinPQ operations is documented (README "Writing a Python submission").
    QUEUES.used_heapq = True
    return QUEUES.entry(heap, len(heap) if size is None else size, _KIND)


def heappush(heap, item):
    entry = _track(heap)
    _push(heap, item)
    counts.inserted_one()
    entry[LIVE] += 1


def heappop(heap):
    entry = _track(heap)
    item = _pop(heap)
    counts.deleted()
    if entry[LIVE] > 0:
        entry[LIVE] -= 1
    return item


def heappushpop(heap, item):
    _track(heap)
    result = _pushpop(heap, item)
    counts.inserted_one()
    counts.deleted()
    return result


def heapreplace(heap, item):
    _track(heap)
    result = _replace(heap, item)
    counts.deleted()
    counts.inserted_one()
    return result


def heapify(heap):
    # A list heapq has met already holds the items our tally counts: heapify adds only those beyond them (a
    # decrease-key that edits an entry in place and heapifies again adds none), and a list shortened by hand
    # gives back what it lost. A list met first here adds all its items, as a MinPQ built from an array.
    entry = _track(heap, 0)
    counted = entry[LIVE]
    _heapify(heap)
    if len(heap) >= counted:
        counts.inserted(len(heap) - counted)
    else:
        counts.left(counted - len(heap))
    entry[LIVE] = len(heap)


def size_of(heap):
    """A heapq list's own idea of its size."""
    return len(heap)


def check_order(entry):
    """Checks a heapq list's heap order once (items compared with `<`, as heapq does)."""
    check_heap_order(entry, list(entry[0]), 0, lambda a, b: a < b)


_KIND = (size_of, check_order)


def install():
    heapq.heappush = heappush
    heapq.heappop = heappop
    heapq.heappushpop = heappushpop
    heapq.heapreplace = heapreplace
    heapq.heapify = heapify
    sys.modules.pop("_heapq", None)
