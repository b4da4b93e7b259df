"""The grader's stand-in for the textbook's MinPQ, for Python students: `from algs4 import MinPQ`.

The same binary heap as edu.princeton.cs.algs4.MinPQ (1-based; swim stops on equal keys, sink prefers the
left child on equal keys), so a solver written like the textbook's makes exactly the reference's operations.
Items are compared with `<` (define `__lt__` on your search node), or by `key(item)` if a key function is
given. Instrumented: inserts, del_mins and sizes are counted for the grader, and, while the grader asks for
it, the heap order is re-checked at exponentially spaced operation counts (the same ones whether or not it
asks) to detect items whose ordering changed after insertion.

API: MinPQ(key=None), MinPQ.from_items(items, key=None), insert(x), del_min(), min(), is_empty(), size(),
len(pq), iteration in ascending order (on a copy). The Java names delMin, isEmpty also work.

(The server loads this file privately and publishes a module `algs4` holding MinPQ alone; what the counting
needs stays here, out of the student's namespace: npuzzle_counters.py.)
"""

from operator import lt as _lt

from npuzzle_counters import LIVE, NEXT_CHECK, OPERATIONS, QUEUES, check_heap_order, counts


class MinPQ:
    def __init__(self, key=None):
        self._pq = [None]
        self._n = 0
        self._less = _comparison(key)

    @classmethod
    def from_items(cls, items, key=None):
        """A heap built from `items` bottom-up (not counted as inserts, like the textbook's MinPQ(Key[]))."""
        pq = cls(key)
        pq._pq = [None] + list(items)
        pq._n = len(pq._pq) - 1
        for k in range(pq._n // 2, 0, -1):
            _sink(pq._pq, k, pq._n, pq._less)
        counts.inserted(pq._n)
        QUEUES.entry(pq, 0, _KIND)[LIVE] += pq._n
        return pq

    def is_empty(self):
        return self._n == 0

    def size(self):
        return self._n

    def __len__(self):
        return self._n

    def __bool__(self):
        return self._n > 0

    def min(self):
        if self._n == 0:
            raise IndexError("Priority queue underflow")
        return self._pq[1]

    def insert(self, x):
        entry = QUEUES.entry(self, self._n, _KIND)
        _insert(self._pq, self._n, x, self._less)
        self._n += 1
        counts.inserted_one()
        entry[LIVE] += 1
        _after_operation(self, entry)

    def del_min(self):
        if self._n == 0:
            raise IndexError("Priority queue underflow")
        entry = QUEUES.entry(self, self._n, _KIND)
        smallest = _del_min(self._pq, self._n, self._less)
        self._n -= 1
        counts.deleted()
        if entry[LIVE] > 0:
            entry[LIVE] -= 1
        _after_operation(self, entry)
        return smallest

    delMin = del_min
    isEmpty = is_empty

    def __iter__(self):
        # as the textbook's iterator: the items inserted one by one into a copy, which is then emptied
        less = self._less
        copy = [None]
        for i in range(1, self._n + 1):
            _insert(copy, i - 1, self._pq[i], less)
        n = self._n
        while n:
            yield _del_min(copy, n, less)
            n -= 1


# ---- the heap itself (module functions, so that iteration on a copy counts nothing); `less` is the queue's
# comparison, made once with it (`_comparison`) ----


def _comparison(key):
    """`a < b` itself when there is no key function (a C call, not a Python one), else on the keys."""
    if key is None:
        return _lt
    return lambda a, b: key(a) < key(b)


def _insert(pq, n, x, less):
    n += 1
    if n < len(pq):
        pq[n] = x
    else:
        pq.append(x)
    _swim(pq, n, less)


def _del_min(pq, n, less):
    smallest = pq[1]
    pq[1], pq[n] = pq[n], pq[1]
    pq[n] = None
    _sink(pq, 1, n - 1, less)
    return smallest


def _swim(pq, k, less):
    while k > 1 and less(pq[k], pq[k // 2]):
        pq[k // 2], pq[k] = pq[k], pq[k // 2]
        k //= 2


def _sink(pq, k, n, less):
    while 2 * k <= n:
        j = 2 * k
        if j < n and less(pq[j + 1], pq[j]):
            j += 1
        if not less(pq[j], pq[k]):
            break
        pq[k], pq[j] = pq[j], pq[k]
        k = j


# ---- instrumentation ----


def _after_operation(pq, entry):
    entry[OPERATIONS] += 1
    if entry[OPERATIONS] == entry[NEXT_CHECK]:
        entry[NEXT_CHECK] <<= 1
        if counts.heap_order_checked:
            check_order(entry)


def size_of(pq):
    """A MinPQ's own idea of its size."""
    return pq._n


def check_order(entry):
    """Re-checks a MinPQ's heap order (once it is found broken, never again in this epoch)."""
    pq = entry[0]
    check_heap_order(entry, pq._pq[: pq._n + 1], 1, pq._less)


_KIND = (size_of, check_order)
