"""Your Solver: A* search with the textbook's MinPQ (`from algs4 import MinPQ`).

`python3 solver.py puzzle04.txt` runs the assignment's test client at the bottom of this file. The grader
imports this module (the client does not run then) with its own counting `algs4` in place of the local one.
"""

from algs4 import MinPQ


class Solver:
    def __init__(self, initial):
        """Find a solution to the initial board (A* on it and on its twin, in lockstep)."""
        if initial is None:
            raise ValueError("initial board is None")
        queue = MinPQ()  # of search nodes: board, moves, cached priority, predecessor (define __lt__)
        raise NotImplementedError("Solver(initial)")

    def is_solvable(self):
        raise NotImplementedError("is_solvable()")

    def moves(self):
        """The minimum number of moves to solve the initial board; -1 if unsolvable."""
        raise NotImplementedError("moves()")

    def solution(self):
        """The boards of a shortest solution, from the initial board to the goal; None if unsolvable."""
        raise NotImplementedError("solution()")


def main(args):
    """The assignment's test client: solve the puzzle file named on the command line and print the answer."""
    from board import Board

    with open(args[0]) as file:
        numbers = [int(token) for token in file.read().split()]
    n = numbers[0]
    tiles = [numbers[1 + row * n:1 + (row + 1) * n] for row in range(n)]
    solver = Solver(Board(tiles))
    if not solver.is_solvable():
        print("No solution possible")
    else:
        print(f"Minimum number of moves = {solver.moves()}")
        for board in solver.solution():
            print(board)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
