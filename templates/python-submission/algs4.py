"""The textbook's MinPQ for running your Solver on your own machine: `from algs4 import MinPQ`.

The same binary heap as edu.princeton.cs.algs4.MinPQ (1-based; swim stops on equal keys, sink prefers the
left child on equal keys) and as the grader's counting MinPQ, so your Solver makes the same operations here
as when it is graded (the grader uses its own module, not this file). Items are compared with `<` (define
`__lt__` on your search node), or by `key(item)` if a key function is given.

API: MinPQ(key=None), MinPQ.from_items(items, key=None), insert(x), del_min(), min(), is_empty(), size(),
len(pq), iteration in ascending order (on a copy). The Java names delMin, isEmpty also work.
"""


class MinPQ:
    def __init__(self, key=None):
        self._pq = [None]
        self._n = 0
        self._key = key

    @classmethod
    def from_items(cls, items, key=None):
        """A heap built from `items` bottom-up, like the textbook's MinPQ(Key[])."""
        pq = cls(key)
        pq._pq = [None] + list(items)
        pq._n = len(pq._pq) - 1
        for k in range(pq._n // 2, 0, -1):
            pq._sink(k)
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
        self._n += 1
        if self._n < len(self._pq):
            self._pq[self._n] = x
        else:
            self._pq.append(x)
        self._swim(self._n)

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
        return smallest

    delMin = del_min
    isEmpty = is_empty

    def __iter__(self):
        copy = MinPQ(self._key)
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
