#!/usr/bin/env python3
"""The floor under a Python grade's cost: the grade's own Board and Solver calls (calls.py) made again by a
plain program, with no grader, protocol, seal or sandbox (floor.py runs it).

    replay.py SUBMISSION CALLS

One interpreter serves both worlds, as the adapter's does: `own` is the student's board.py and solver.py; `ref`
the student's solver.py loaded again over the adapter's reference Board. The textbook MinPQ is the adapter's
algs4.py (what a student's `from algs4 import MinPQ` gets), whose counters' bookkeeping is emptied where the
adapter empties it (at `counters_reset` and before each search); heapq is the plain one. The calls run on a
thread with the adapter's stack, recursion limit and collector threshold. Prints the calls made, the CPU spent
reading the calls file and the CPU spent inside the calls.
"""
import os
import struct
import sys
import threading
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../../adapters/python"))

import algs4  # noqa: E402  (the adapter's textbook classes, for the student's `from algs4 import MinPQ`)
import npuzzle_counters  # noqa: E402
import reference_board  # noqa: E402
from npuzzle_student import load_apart, load_module, tune_collector  # noqa: E402


class Uncastable:
    pass


def load(submission):
    sys.modules["algs4"] = algs4
    sys.path.insert(0, submission)
    board = load_module("board", os.path.join(submission, "board.py"))
    sys.modules["board"] = board
    own = (board.Board, load_module("solver", os.path.join(submission, "solver.py")).Solver)
    reference = types.ModuleType("board")
    reference.Board = reference_board.Board
    # as the adapter loads the ref world: the submission's other modules loaded again, over the reference Board
    solver = load_apart("solver_over_reference_board", os.path.join(submission, "solver.py"), reference, submission + os.sep)
    return [own, (reference_board.Board, solver.Solver)]


def replay(worlds, calls, result):
    slots = {}
    made_calls = 0
    sink = 0
    at = 0
    start = time.thread_time_ns()

    def fill(made):
        nonlocal at
        count = calls[at]
        at += 1
        for i in range(max(count, 0)):
            slots[calls[at + i]] = made[i] if i < len(made) else None
        at += max(count, 0)

    while at < len(calls):
        op = calls[at]
        at += 1
        if op == 0:
            slots.clear()
            continue
        made_calls += 1
        if op in (1, 2, 25):
            world, n = calls[at], calls[at + 1]
            rows = [list(calls[at + 2 + r * n: at + 2 + (r + 1) * n]) for r in range(n)]
            at += 2 + n * n
            made = []
            reference_board.GRADER_BUILDS[0] = world == 1
            reference_board.SERVING[0] = world == 1
            try:
                made = [worlds[world][0](rows)]
            except Exception:
                sink += 1
            finally:
                reference_board.GRADER_BUILDS[0] = reference_board.SERVING[0] = False
            if op == 2:
                for r in range(n):
                    for c in range(n):
                        rows[r][c] = r * n + c
            if op != 25:
                fill(made)
            continue
        if op == 26:  # what the adapter's counters_reset empties
            npuzzle_counters.counts.reset()
            npuzzle_counters.QUEUES.reset()
            continue
        if op == 17:
            count = calls[at]
            for slot in calls[at + 1: at + 1 + count]:
                slots.pop(slot, None)
            at += 1 + count
            continue
        if op == 19:
            world = calls[at]
            at += 1
            made = []
            try:
                made = [worlds[world][1](None)]
            except Exception:
                sink += 1
            fill(made)
            continue
        a = slots.get(calls[at])
        at += 1
        b = None
        if op in (8, 9, 14):
            b = slots.get(calls[at])
            at += 1
        reference_board.SERVING[0] = isinstance(a, reference_board.Board) or type(a).__module__ == "solver_over_reference_board"
        made = []
        try:
            if op == 3:
                sink += a.dimension()
            elif op == 4:
                sink += a.hamming()
            elif op == 5:
                sink += a.manhattan()
            elif op == 6:
                sink += bool(a.is_goal())
            elif op == 7:
                sink += len(str(a))
            elif op in (8, 9):
                sink += bool(a == b)
            elif op == 10:
                sink += bool(a == None)  # noqa: E711 (the call the grader makes)
            elif op == 11:
                sink += bool(a == "a string")
            elif op == 12:
                sink += bool(a == Uncastable())
            elif op == 13:
                made = list(a.neighbors())
            elif op == 14:
                first, second = a.neighbors(), b.neighbors()
                made = list(first) + list(second)
            elif op == 15:
                neighbors = a.neighbors()
                outer, inner = [], []
                for x in neighbors:
                    outer.append(x)
                    inner.extend(list(neighbors))
                made = outer + inner
            elif op == 16:
                made = [a.twin()]
            elif op in (18, 23):
                npuzzle_counters.QUEUES.before_solve()  # as the adapter does: one search's queues at a time
                made = [worlds[1 if reference_board.SERVING[0] else 0][1](a)]
            elif op == 20:
                sink += bool(a.is_solvable())
            elif op == 21:
                sink += a.moves()
            elif op == 22:
                path = a.solution()
                made = [] if path is None else list(path)
            elif op == 24:
                for method in (a.moves, a.is_solvable, a.solution):
                    try:
                        method()
                    except Exception:
                        sink += 1
        except Exception:
            sink += 1
        finally:
            reference_board.SERVING[0] = False
        if op in (13, 14, 15, 16, 18, 22, 23):
            fill(made)
    result.append((made_calls, time.thread_time_ns() - start, sink))


def main():
    submission, path = os.path.abspath(sys.argv[1]), sys.argv[2]
    started = time.thread_time_ns()
    data = open(path, "rb").read()
    calls = struct.unpack(f">{len(data) // 4}i", data)
    reading = time.thread_time_ns() - started
    tune_collector()  # as the adapter's server does before the student's modules load
    worlds = load(submission)
    sys.setrecursionlimit(200_000)
    threading.stack_size(64 << 20)  # the adapter's STACK_BYTES
    result = []
    thread = threading.Thread(target=replay, args=(worlds, calls, result))
    thread.start()
    thread.join()
    made, inside, sink = result[0]
    print(f"calls={made} reading_ns={reading} inside_ns={inside} sink={sink}")


if __name__ == "__main__":
    main()
