"""The grader's reference Board for Python, substituted under a student's Solver (the `ref` world).

It mirrors the Rust reference board with its CountingBoard wrapper and the Java adapter's reference Board:
hamming, manhattan and the blank's position cached and updated in O(1) for each neighbor; neighbors() moves
the blank down, right, left, up; twin() swaps row-major positions 0 and 1 unless one is the blank, then the
last two; is_goal() goes through manhattan(). Every public method is counted in npuzzle_counters.counts, and
each board remembers its lineage (its id, its parent's, its grandparent's) so that __eq__ can tell cheaply
whether its argument is a neighbor of a neighbor, the only comparison the critical optimization needs.
__hash__ is consistent with __eq__ and not counted. Tiles are one byte each for n <= 15, two beyond.

A board the grader builds (the puzzle handed to a Solver: the server sets GRADER_BUILDS around it) is a root,
and so is every board neighbors() or twin() makes from a root; a board a Solver builds from tiles is not. A
root's id is negative. Only a root's neighbors() can count as an expansion (`board_expanded`): the search's own
boards, not boards made up to show expansions.

A private module (see npuzzle_counters.py): the ref world's `board` is a module holding Board alone. The
reference serves the ref world only: the server opens `SERVING` around each ref-world request, and a board is
built at no other time, so a board.py that builds on this one (reached through `object.__subclasses__()`,
say) is refused.
"""

from npuzzle_counters import PERIOD, SITES, counts

_MAX_BYTE_DIMENSION = 15

# Whether a ref-world request is running (set by the server).
SERVING = [False]

# Whether the server is building a board for the grader (a root).
GRADER_BUILDS = [False]


_ONLY_THE_API = (
    "here the Solver runs over the grader's reference Board (as the official grader runs it), which has the "
    "assignment's API alone: dimension(), hamming(), manhattan(), is_goal(), neighbors(), twin(), ==, str()"
)


def _unordered(board, other, operator):
    """A comparison of two reference Boards by order: a TypeError saying why (the API has no order), where
    Python's own names only the operator. Anything else is left to the other operand (NotImplemented)."""
    if type(other) is not Board:
        return NotImplemented
    raise TypeError(
        f"'{operator}' not supported between instances of 'Board' and 'Board': {_ONLY_THE_API}, and no order "
        "(a tie between search nodes must not reach their boards: in a heap entry's tuple, put a counter "
        "before the board)"
    )


class Board:
    __slots__ = ("_t", "_n", "_blank", "_h", "_m", "_id", "_parent", "_grand", "__weakref__")

    def __init__(self, tiles):
        if tiles is None:
            raise ValueError("tiles must not be None")
        n = len(tiles)
        if n < 2 or n > 127:
            raise ValueError(f"dimension {n} is out of range 2..127")
        cells = n * n
        wide = n > _MAX_BYTE_DIMENSION
        t = bytearray(2 * cells if wide else cells)
        seen = bytearray(cells)
        blank = -1
        h = m = 0
        for row in range(n):
            line = tiles[row]
            if line is None or len(line) != n:
                raise ValueError(f"row {row} does not have {n} tiles")
            for col in range(n):
                tile = line[col]
                if not isinstance(tile, int) or tile < 0 or tile >= cells or seen[tile]:
                    raise ValueError(f"tiles must be a permutation of 0..{cells - 1}")
                seen[tile] = 1
                i = row * n + col
                _put(t, wide, i, tile)
                if tile == 0:
                    blank = i
                else:
                    if tile != i + 1:
                        h += 1
                    m += _distance(n, tile, i)
        self._init(bytes(t), n, blank, h, m, 0, 0, GRADER_BUILDS[0])
        counts.board_constructed += 1
        if counts.board_constructed % PERIOD == 1:
            SITES.sample("board_constructed", 1)

    def _init(self, t, n, blank, h, m, parent, grand, root):
        if not SERVING[0]:
            raise RuntimeError("the grader does not allow its reference Board in your own world: board.py must "
                               "define its own Board (the reference serves the grader's ref world only)")
        self._t = t
        self._n = n
        self._blank = blank
        self._h = h
        self._m = m
        self._id = -counts.next_board_id if root else counts.next_board_id
        counts.next_board_id += 1
        self._parent = parent
        self._grand = grand

    def __str__(self):
        counts.board_to_string += 1
        n = self._n
        lines = [str(n)]
        for row in range(n):
            lines.append("".join(f"{self._get(row * n + col):2d} " for col in range(n)))
        return "\n".join(lines) + "\n"

    def __repr__(self):
        return f"Board(n={self._n})"

    def dimension(self):
        counts.board_dimension += 1
        return self._n

    def hamming(self):
        counts.board_hamming += 1
        if counts.board_hamming % PERIOD == 1:
            SITES.sample("board_hamming", 1)
        return self._h

    def manhattan(self):
        counts.board_manhattan += 1
        if counts.board_manhattan % PERIOD == 1:
            SITES.sample("board_manhattan", 1)
        return self._m

    def is_goal(self):
        """Goes through manhattan(), as the official reference does: one is_goal and one manhattan."""
        counts.board_is_goal += 1
        return self.manhattan() == 0

    def __eq__(self, other):
        counts.board_equals += 1
        if counts.board_equals % PERIOD == 1:
            SITES.sample("board_equals", 1)
        if other is None:  # a root node's missing predecessor is allowed, as officially (Solver 10b)
            return False
        if not isinstance(other, Board):
            counts.board_equals_non_board += 1
            return False
        if not self._is_neighbor_of_neighbor(other):
            counts.board_equals_not_grand_neighbor += 1
        return self._n == other._n and self._t == other._t

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash(self._t)

    # What a Solver that reaches past the API meets, said in its terms: Python's own "'Board' object has no
    # attribute 'tiles'" and "'<' not supported between instances of 'Board' and 'Board'" name a Board whose
    # attribute and order the student's own board.py has, and read as the grader's fault.
    def __getattr__(self, name):
        # no `name=`/`obj=` keywords: Python 3.8 and 3.9 (which the adapter runs on) refuse them
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"'Board' object has no attribute '{name}'")
        raise AttributeError(f"'Board' object has no attribute '{name}': {_ONLY_THE_API}")

    def __lt__(self, other):
        return _unordered(self, other, "<")

    def __le__(self, other):
        return _unordered(self, other, "<=")

    def __gt__(self, other):
        return _unordered(self, other, ">")

    def __ge__(self, other):
        return _unordered(self, other, ">=")

    def neighbors(self):
        root = self._id < 0
        out = self._slides(self._id, self._parent, root)
        counts.neighbors_called(self._t if root else None)
        before = counts.board_constructed
        counts.board_constructed += len(out)
        SITES.note("board_constructed", before, counts.board_constructed)
        return out

    def twin(self):
        counts.board_twin += 1
        counts.board_constructed += 1
        if counts.board_constructed % PERIOD == 1:
            SITES.sample("board_constructed", 1)
        n = self._n
        cells = n * n
        a, b = 0, 1
        if self._get(0) == 0 or self._get(1) == 0:
            a, b = cells - 2, cells - 1
        ta, tb = self._get(a), self._get(b)
        wide = n > _MAX_BYTE_DIMENSION
        t = bytearray(self._t)
        _put(t, wide, a, tb)
        _put(t, wide, b, ta)
        m = self._m - _distance(n, ta, a) - _distance(n, tb, b) + _distance(n, tb, a) + _distance(n, ta, b)
        h = self._h - (ta != a + 1) - (tb != b + 1) + (tb != a + 1) + (ta != b + 1)
        twin = Board.__new__(Board)
        twin._init(bytes(t), n, self._blank, h, m, 0, 0, self._id < 0)
        return twin

    # ---- internals (uncounted) ----

    def _get(self, i):
        if self._n <= _MAX_BYTE_DIMENSION:
            return self._t[i]
        return self._t[2 * i] | (self._t[2 * i + 1] << 8)

    def _slides(self, parent, grand, root):
        n = self._n
        blank = self._blank
        row, col = divmod(blank, n)
        out = []
        if row + 1 < n:
            out.append(self._slide(blank + n, parent, grand, root))
        if col + 1 < n:
            out.append(self._slide(blank + 1, parent, grand, root))
        if col > 0:
            out.append(self._slide(blank - 1, parent, grand, root))
        if row > 0:
            out.append(self._slide(blank - n, parent, grand, root))
        return out

    def _slide(self, to, parent, grand, root):
        # the hot path of every search in the ref world: one tile byte moved in place where the tiles fit in
        # bytes, and its two distances from its goal cell computed here (what `_get`, `_put` and `_distance` do)
        n = self._n
        frm = self._blank
        t = bytearray(self._t)
        if n <= _MAX_BYTE_DIMENSION:
            tile = t[to]
            t[frm] = tile
            t[to] = 0
        else:
            tile = self._get(to)
            _put(t, True, frm, tile)
            _put(t, True, to, 0)
        goal_row, goal_col = divmod(tile - 1, n)
        to_row, to_col = divmod(to, n)
        frm_row, frm_col = divmod(frm, n)
        m = (self._m - abs(to_row - goal_row) - abs(to_col - goal_col)
             + abs(frm_row - goal_row) + abs(frm_col - goal_col))
        h = self._h - (tile != to + 1) + (tile != frm + 1)
        board = Board.__new__(Board)
        board._init(bytes(t), n, to, h, m, parent, grand, root)
        return board

    def _is_neighbor_of_neighbor(self, that):
        if that._id == self._grand or self._id == that._grand or self._id == that._id:
            return True
        if self._n != that._n:
            return False
        differing = sum(1 for x, y in zip(self._t, that._t) if x != y)
        if differing == 0:
            return True
        if differing > 6:
            return False
        for child in self._slides(0, 0, False):
            for grandchild in child._slides(0, 0, False):
                if grandchild._t == that._t:
                    return True
        return False


def _put(t, wide, i, tile):
    if wide:
        t[2 * i] = tile & 0xFF
        t[2 * i + 1] = tile >> 8
    else:
        t[i] = tile


def _distance(n, tile, at):
    goal = tile - 1
    return abs(at // n - goal // n) + abs(at % n - goal % n)
