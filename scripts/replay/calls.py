#!/usr/bin/env python3
"""The Board and Solver calls of one grade, read from its transcripts (grader/src/runner/process/transcript.rs).

    calls.py TRANSCRIPT... > CALLS

What a plain client replays to measure the floor under a grade's cost (scripts/bench-overhead.sh -f): every
request that made the student's code run, in the order the program ran it, with each handle turned into a
slot number (a handle names one object of one program; a slot is an index into the replayer's table). The
grader's own verbs (`hello`, `counters`, `call_sites`, `api`, `bye`, ...) are left out: they call no student
code; `counters_reset` stays, operand-less, because the reference board keeps the boards it saw expanded
until a reset, and a replay that never emptied that would do more work than the grade. So is a request whose reference the program refused (`err protocol`: the grader reads neighbors back
speculatively), which ran nothing. A request the student's code failed (`err exception`) is kept: the call ran.
The fused verbs are the calls they stand for: `neighbors_texts` a `neighbors` and a `to_string` of each board
whose text it holds, `texts` a `to_string` of each board it names.

The output is a stream of big-endian 32-bit integers (what java.io.DataInputStream reads), one record per
call: an operation code (OPS below), then its operands (a board from tiles: its world (WORLDS), n and the n*n
tiles; `solver_null`: its world; any other: its handles' slots); slots the call's results fill are listed as a
count and the slots (-1 when the call failed and filled none). `END` closes each transcript (its slots are
dropped).
"""
import struct
import sys

OPS = {
    "board": 1, "board_probe": 2, "dimension": 3, "hamming": 4, "manhattan": 5, "is_goal": 6, "to_string": 7,
    "equals": 8, "equals_as_object": 9, "equals_null": 10, "equals_foreign": 11, "equals_uncastable": 12,
    "neighbors": 13, "neighbors_after": 14, "neighbors_nested": 15, "twin": 16, "release": 17, "solver": 18,
    "solver_null": 19, "is_solvable": 20, "moves": 21, "solution": 22, "memory_solver": 23,
    "memory_retained": 24, "memory_board": 25, "counters_reset": 26,
}
END = 0
WORLDS = {"own": 0, "ref": 1}
# verbs whose reply names new handles (in order across all its lists)
MAKES_HANDLES = {"board", "board_probe", "neighbors", "neighbors_after", "neighbors_nested", "twin", "solver",
                 "solver_null", "solution", "memory_solver"}
# verbs whose arguments start with a world and a board's tiles
TILES = {"board", "board_probe", "memory_board"}


def is_handle(token):
    return len(token) > 1 and token[0] in "bs" and token[1:].isdigit()


def read(path):
    """The (id, verb, args) requests of one transcript, and each reply's words by request id."""
    requests, replies = [], {}
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("> "):
                words = line[2:].split()
                requests.append((words[0], words[1], words[2:]))
            elif line.startswith("< "):
                id_, rest = line[2:].split(" ", 1)
                replies[id_] = rest.rstrip("\n")
    return requests, replies


def calls(path, out):
    requests, replies = read(path)
    slots = {}  # handle -> slot
    made = {}  # request id -> the handles its reply named
    next_slot = 0

    def slot_of(token):
        if token.startswith("@"):
            id_, index = token[1:].split(".")
            named = made.get(id_, [])
            token = named[int(index)] if int(index) < len(named) else None
        return slots.get(token)

    for id_, verb, args in requests:
        # a fused verb's reply holds each text's outcome after a tab (specs/protocol.md); no other reply has one
        reply, *outcomes = replies.get(id_, "").split("\t")
        if verb == "texts":
            # `to_string` of each board, fused in one request; a board the program refused (`?`) ran nothing
            for arg, outcome in zip(args, outcomes if reply.startswith("ok ") else []):
                slot = slot_of(arg)
                if slot is not None and not outcome.startswith("?"):
                    out.write(struct.pack(">2i", OPS["to_string"], slot))
            continue
        texts = 0
        if verb == "neighbors_texts":
            # `neighbors`, then `to_string` of each of its first boards, fused in one request: its texts follow
            # the handles
            verb, args = "neighbors", args[:1]
            texts = len(outcomes)
        ok = reply.startswith("ok ")
        if verb not in OPS or reply.startswith("err protocol") or not reply:
            continue
        words = reply.split(" ")[2:] if ok else []
        handles = [w for w in words if is_handle(w)] if ok and verb in MAKES_HANDLES else []
        made[id_] = handles
        record = [OPS[verb]]
        if verb in TILES:
            n = int(args[1])
            record += [WORLDS[args[0]], n] + [int(t) for t in args[2:2 + n * n]]
        elif verb == "release":
            released = [slots.pop(h) for h in args if h in slots]
            record += [len(released)] + released
        elif verb == "solver_null":
            record.append(WORLDS[args[0]])
        elif verb == "counters_reset":
            pass  # no operand: the replayer empties what its reference board keeps between tests
        else:
            operands = [slot_of(a) for a in args]
            if any(s is None for s in operands):
                continue  # an operand the program never made (a failed call's result): it ran nothing
            record += operands
        if verb in MAKES_HANDLES:
            fresh = list(range(next_slot, next_slot + len(handles)))
            slots.update(zip(handles, fresh))
            next_slot += len(fresh)
            record += [len(fresh) if ok else -1] + fresh
        out.write(struct.pack(f">{len(record)}i", *record))
        if verb in MAKES_HANDLES and ok:
            for slot in fresh[:texts]:
                out.write(struct.pack(">2i", OPS["to_string"], slot))
    out.write(struct.pack(">i", END))


def main():
    out = sys.stdout.buffer
    for path in sys.argv[1:]:
        calls(path, out)


if __name__ == "__main__":
    main()
