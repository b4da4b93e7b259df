"""The instrumented heapq: counts a heapq solver's operations as MinPQ operations.

`install()` replaces the functions of the standard `heapq` module before any student code is loaded, so
`import heapq` and `from heapq import heappush` both get these. heappush is an insert, heappop a del_min,
heappushpop and heapreplace one of each, heapify(list) adds the list's items to the live size (as a MinPQ
built from an array); nlargest, nsmallest and merge are not counted. The lists used during a solve end with
it, like a MinPQ: their lengths go to pq_ending_size and their heap order is checked once.
"""

import heapq

from npuzzle_counters import QUEUES, counts

_push = heapq.heappush
_pop = heapq.heappop
_pushpop = heapq.heappushpop
_replace = heapq.heapreplace
_heapify = heapq.heapify


def _track(heap):
    # Nothing is written to stderr, which is the submission's own output in the report: that heapq
    # operations count as MinPQ operations is documented (README "Writing a Python submission").
    QUEUES.used_heapq = True
    QUEUES.heap_lists[id(heap)] = heap


def heappush(heap, item):
    _push(heap, item)
    counts.pq_inserts += 1
    counts.inserted()
    _track(heap)


def heappop(heap):
    item = _pop(heap)
    counts.deleted()
    _track(heap)
    return item


def heappushpop(heap, item):
    result = _pushpop(heap, item)
    counts.pq_inserts += 1
    counts.inserted()
    counts.deleted()
    _track(heap)
    return result


def heapreplace(heap, item):
    result = _replace(heap, item)
    counts.deleted()
    counts.pq_inserts += 1
    counts.inserted()
    _track(heap)
    return result


def heapify(heap):
    _heapify(heap)
    counts.inserted(len(heap))
    _track(heap)


def install():
    heapq.heappush = heappush
    heapq.heappop = heappop
    heapq.heappushpop = heappushpop
    heapq.heapreplace = heapreplace
    heapq.heapify = heapify
