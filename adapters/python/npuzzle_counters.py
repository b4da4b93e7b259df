"""Operation counts shared by the counting MinPQ (algs4.py), the heapq shim and the reference Board.

One module-level object, `counts`, holds every counter; the server handles one request at a time, so plain
attributes suffice. `QUEUES` tracks the queues (MinPQs and heapq lists) used during a solve, so that when the
Solver constructor returns their sizes go to pq_ending_size and their heap order is checked a last time.
"""


class Counts:
    """The protocol's counters (specs/protocol.md, "Counter names")."""

    BOARD_FIELDS = (
        "board_constructed", "board_equals", "board_equals_non_board", "board_equals_not_grand_neighbor",
        "board_manhattan", "board_hamming", "board_to_string", "board_neighbors", "board_twin",
        "board_is_goal", "board_dimension",
    )
    PQ_FIELDS = ("pq_inserts", "pq_del_mins", "pq_max_size", "pq_ending_size", "pq_deep_bytes",
                 "pq_heap_violations")

    def __init__(self):
        self.next_board_id = 1
        self.reset()

    def reset(self):
        for name in self.PQ_FIELDS + self.BOARD_FIELDS:
            setattr(self, name, 0)
        self.pq_live = 0

    def inserted(self, items=1):
        self.pq_live += items
        if self.pq_live > self.pq_max_size:
            self.pq_max_size = self.pq_live

    def deleted(self):
        self.pq_del_mins += 1
        if self.pq_live > 0:
            self.pq_live -= 1

    def save_board_counts(self):
        return [getattr(self, name) for name in self.BOARD_FIELDS]

    def restore_board_counts(self, saved):
        for name, value in zip(self.BOARD_FIELDS, saved):
            setattr(self, name, value)

    def encode(self, peak_bytes=0):
        names = self.PQ_FIELDS + self.BOARD_FIELDS
        return " ".join(f"{name}={getattr(self, name)}" for name in names) + f" peak_bytes={peak_bytes}"


counts = Counts()


class Queues:
    """The queues used since the current solve began; they end when the Solver constructor returns.

    A queue is anything with `npuzzle_size()` and `npuzzle_check_heap_order()`: an algs4.MinPQ, or a
    heapq-managed list wrapped by the shim. `used_heapq` says whether the student's code used heapq at all.
    """

    def __init__(self):
        self.epoch = 0
        self.touched = []
        self.used_heapq = False
        self.heap_lists = {}

    def begin_solve(self):
        self.epoch += 1
        self.touched = []
        self.heap_lists = {}

    def touch(self, queue):
        self.touched.append(queue)

    def end_solve(self):
        ended, self.touched = self.touched, []
        heap_lists, self.heap_lists = self.heap_lists, {}
        self.epoch += 1
        for queue in ended:
            counts.pq_ending_size += queue.npuzzle_size()
            queue.npuzzle_check_heap_order()
        for heap in heap_lists.values():
            counts.pq_ending_size += len(heap)
            check_list_heap_order(heap)


QUEUES = Queues()


def check_list_heap_order(heap):
    """Counts a violation if a heapq list is out of heap order (an item's ordering changed after insertion)."""
    saved = counts.save_board_counts()
    try:
        for k in range(1, len(heap)):
            if heap[k] < heap[(k - 1) // 2]:
                counts.pq_heap_violations += 1
                return
    except Exception:  # the student's __lt__ failed; that shows up in their own operations
        pass
    finally:
        counts.restore_board_counts(saved)
