"""The grader's stand-in for the textbook's MinPQ, for Python students: `from algs4 import MinPQ`.

The same binary heap as edu.princeton.cs.algs4.MinPQ (1-based; swim stops on equal keys, sink prefers the
left child on equal keys), so a solver written like the textbook's makes exactly the reference's operations.
Items are compared with `<` (define `__lt__` on your search node), or by `key(item)` if a key function is
given. Instrumented: inserts, del_mins and sizes are counted for the grader, and the heap order is re-checked
at exponentially spaced operation counts to detect items whose ordering changed after insertion.

API: MinPQ(key=None), MinPQ.from_items(items, key=None), insert(x), del_min(), min(), is_empty(), size(),
len(pq), iteration in ascending order (on a copy). The Java names delMin, isEmpty also work.
"""

from npuzzle_counters import QUEUES, counts


class MinPQ:
    def __init__(self, key=None):
        self._pq = [None]
        self._n = 0
        self._key = key
        self._operations = 0
        self._next_check = 1
        self._violated = False
        self._epoch = -1
        self._instrumented = True

    @classmethod
    def from_items(cls, items, key=None):
        """A heap built from `items` bottom-up (not counted as inserts, like the textbook's MinPQ(Key[]))."""
        pq = cls(key)
        pq._pq = [None] + list(items)
        pq._n = len(pq._pq) - 1
        for k in range(pq._n // 2, 0, -1):
            pq._sink(k)
        counts.inserted(pq._n)
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
        pq = self._pq
        self._n += 1
        if self._n < len(pq):
            pq[self._n] = x
        else:
            pq.append(x)
        self._swim(self._n)
        if self._instrumented:
            counts.pq_inserts += 1
            counts.inserted()
            self._after_operation()

    def del_min(self):
        if self._n == 0:
            raise IndexError("Priority queue underflow")
        pq = self._pq
        smallest = pq[1]
        n = self._n
        pq[1], pq[n] = pq[n], pq[1]
        self._n = n - 1
        pq[n] = None
        self._sink(1)
        if self._instrumented:
            counts.deleted()
            self._after_operation()
        return smallest

    delMin = del_min
    isEmpty = is_empty

    def __iter__(self):
        copy = MinPQ(self._key)
        copy._instrumented = False
        for i in range(1, self._n + 1):
            copy.insert(self._pq[i])
        while copy._n:
            yield copy.del_min()

    def _greater(self, i, j):
        pq = self._pq
        if self._key is None:
            return pq[j] < pq[i]
        return self._key(pq[j]) < self._key(pq[i])

    def _swim(self, k):
        pq = self._pq
        while k > 1 and self._greater(k // 2, k):
            pq[k // 2], pq[k] = pq[k], pq[k // 2]
            k //= 2

    def _sink(self, k):
        pq = self._pq
        n = self._n
        while 2 * k <= n:
            j = 2 * k
            if j < n and self._greater(j, j + 1):
                j += 1
            if not self._greater(k, j):
                break
            pq[k], pq[j] = pq[j], pq[k]
            k = j

    # ---- instrumentation ----

    def _after_operation(self):
        if self._epoch != QUEUES.epoch:
            self._epoch = QUEUES.epoch
            QUEUES.touch(self)
        self._operations += 1
        if self._operations == self._next_check:
            self._next_check <<= 1
            self.npuzzle_check_heap_order()

    def npuzzle_size(self):
        return self._n

    def npuzzle_check_heap_order(self):
        if self._violated or not self._instrumented:
            return
        saved = counts.save_board_counts()
        try:
            for k in range(2, self._n + 1):
                if self._greater(k // 2, k):
                    self._violated = True
                    counts.pq_heap_violations += 1
                    return
        except Exception:  # the student's __lt__ failed; the failure shows up in their own operations
            pass
        finally:
            counts.restore_board_counts(saved)
