"""Your Board: an immutable n-by-n sliding-puzzle position (2 <= n < 128, tiles 0..n*n-1, 0 = blank).

Fill in every method; the grader tests them one by one, then runs your Solver over its own Board, which has
exactly these methods and nothing more.
"""


class Board:
    def __init__(self, tiles):
        """A board from a list of n lists of n ints, tiles[row][col] = tile at (row, col); keep a copy."""
        raise NotImplementedError("Board(tiles)")

    def __str__(self):
        """n on the first line, then each row with every tile as f"{tile:2d}", separated by spaces."""
        raise NotImplementedError("__str__")

    def dimension(self):
        raise NotImplementedError("dimension()")

    def hamming(self):
        """The number of tiles out of place, not counting the blank."""
        raise NotImplementedError("hamming()")

    def manhattan(self):
        """The sum of each tile's rows and columns from its goal position."""
        raise NotImplementedError("manhattan()")

    def is_goal(self):
        raise NotImplementedError("is_goal()")

    def __eq__(self, other):
        """False for None and for anything that is not a Board."""
        raise NotImplementedError("__eq__")

    def neighbors(self):
        """Every board one slide of the blank away (any iterable)."""
        raise NotImplementedError("neighbors()")

    def twin(self):
        """One pair of non-blank tiles exchanged, always the same pair."""
        raise NotImplementedError("twin()")
