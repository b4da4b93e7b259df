#!/usr/bin/env python3
"""The floor under a grade's cost: the grade's own Board and Solver calls replayed by a plain client.

    floor.py prepare SUBMISSION TRANSCRIPTS WORK   # once: the calls of a recorded grade, the client built
    floor.py run WORK LABEL SUBMISSION-NAME CORPUS # one replay: one result line

TRANSCRIPTS is the directory a grade wrote with GRADER_TRANSCRIPTS set (grader/src/runner/process/transcript.rs);
calls.py turns them into the calls to make. The client, by the submission's language:

- Java (Board.java): Replay.java, compiled as the grader compiles the two worlds (the student's files; the
  student's files but Board.java, over the reference Board) with the textbook classes (their MinPQ calling no-op
  counters, scripts/java-floor/npuzzle/), run in one JVM per world (the two the seal needs) with the JVM
  options the grade's JVMs had, less the agent, the module, the sandbox's and the adapter's own flags.
- Python (board.py): replay.py, one interpreter, the adapter's textbook classes and reference Board.
- The Rust reference submission (an executable): target/release/reference-replay, one process.

The result line: `floor SUB CORPUS total=CPU inside=CPU reading=CPU`. total: user + sys of the replay
processes less `reading` (the client's own reading of the calls file, not the student's work); inside: the
client's CPU inside the calls (what a grade reports as its requests).
"""
import os
import re
import resource
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# JVM options of the grade's that make no sense without its module, agent or sandbox.
DROPPED_JVM = re.compile(r"^(-XX:CompileCommand=|-Djava\.security\.manager|-Dnpuzzle\.|-javaagent:)")


def header(path):
    program, args = None, []
    with open(path, encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if line.startswith("# program "):
                program = line[len("# program "):].rstrip("\n")
            elif line.startswith("# arg "):
                args.append(line[len("# arg "):].rstrip("\n"))
            else:
                break
    return program, args


def transcripts(directory):
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".transcript"))


def asks_anything(path):
    """Whether a transcript holds a request (a program that never got one has nothing to replay)."""
    with open(path, encoding="utf-8", errors="replace") as lines:
        return any(line.startswith("> ") for line in lines)


def write_calls(paths, out):
    with open(out, "wb") as stream:
        subprocess.run([sys.executable, os.path.join(HERE, "calls.py"), *paths], stdout=stream, check=True)


def jvm_options(args):
    options, skip = [], False
    for arg in args:
        if arg in ("-p", "-m", "--add-modules") or arg.startswith("--own") or arg.startswith("--ref"):
            break
        if skip:
            skip = False
            continue
        if arg == "--add-opens":
            skip = True
            continue
        if not DROPPED_JVM.match(arg):
            options.append(arg)
    return options


def prepare_java(submission, found, work):
    worlds = {"own": [], "ref": []}
    options = {}  # each world's JVM options: those of the first program that served it (the grade's own sizes each)
    for path in found:
        _, args = header(path)
        world = "own" if "--own" in args else "ref" if "--ref" in args else None
        if world:
            worlds[world].append(path)
            options.setdefault(world, jvm_options(args))
    worlds = {world: paths for world, paths in worlds.items() if paths}  # a world the grade never started
    for world, paths in worlds.items():
        src, classes = os.path.join(work, world, "src"), os.path.join(work, world, "classes")
        shutil.copytree(os.path.join(ROOT, "adapters/java/algs4"), src)
        shutil.copytree(os.path.join(HERE, "../java-floor/npuzzle"), os.path.join(src, "npuzzle"))
        # the submission's own files (its Board only in the own world), the reference Board in the ref world
        handed_in = [os.path.join(submission, f) for f in os.listdir(submission) if f.endswith(".java")]
        files = [f for f in handed_in if world == "own" or os.path.basename(f) != "Board.java"]
        if world == "ref":
            files.append(os.path.join(ROOT, "adapters/java/reference/Board.java"))
        for file in [*files, os.path.join(HERE, "Replay.java")]:
            shutil.copy(file, src)
        sources = [os.path.join(d, f) for d, _, fs in os.walk(src) for f in fs if f.endswith(".java")]
        subprocess.run(["javac", "-nowarn", "-d", classes, *sources], check=True, stdout=sys.stderr)
        write_calls(paths, os.path.join(work, world, "calls"))
    with open(os.path.join(work, "command"), "w") as out:
        for world in worlds:
            w = os.path.join(work, world)
            print("\0".join(["java", *options[world], "-cp", os.path.join(w, "classes"), "Replay", os.path.join(w, "calls")]), file=out)


def prepare_python(submission, found, work):
    write_calls(found, os.path.join(work, "calls"))
    with open(os.path.join(work, "command"), "w") as out:
        print("\0".join([sys.executable, os.path.join(HERE, "replay.py"), submission, os.path.join(work, "calls")]), file=out)


def prepare_rust(found, work):
    replayer = os.path.join(ROOT, "target/release/reference-replay")
    if not os.access(replayer, os.X_OK):
        sys.exit(f"{replayer} is missing: build it with `cargo build --release -p npuzzle-harness`")
    write_calls(found, os.path.join(work, "calls"))
    with open(os.path.join(work, "command"), "w") as out:
        print("\0".join([replayer, os.path.join(work, "calls")]), file=out)


def prepare(submission, directory, work):
    found = [p for p in transcripts(directory) if asks_anything(p)]
    if not found:
        sys.exit(f"no transcript in {directory}: was the grade run with GRADER_TRANSCRIPTS={directory}?")
    os.makedirs(work, exist_ok=True)
    if os.path.exists(os.path.join(submission, "Board.java")):
        prepare_java(submission, found, work)
    elif os.path.exists(os.path.join(submission, "board.py")):
        prepare_python(submission, found, work)
    elif os.path.basename(submission.rstrip("/")) == "reference-submission":
        prepare_rust(found, work)
    else:
        sys.exit(f"no replayer for {submission}: Java, Python and the Rust reference submission have one")


def run(work, label, name, corpus):
    inside = reading = 0.0
    for line in open(os.path.join(work, "command")):
        command = line.rstrip("\n").split("\0")
        out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        inside += int(re.search(r"inside_ns=(\d+)", out).group(1)) / 1e9
        reading += int(re.search(r"reading_ns=(\d+)", out).group(1)) / 1e9
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime - reading
    print(f"{label} {name} {corpus} total={total:.2f} inside={inside:.2f} reading={reading:.2f}", flush=True)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "prepare":
        prepare(*sys.argv[2:])
    elif len(sys.argv) == 6 and sys.argv[1] == "run":
        run(*sys.argv[2:])
    else:
        sys.exit(__doc__.split("\n\n")[1])
