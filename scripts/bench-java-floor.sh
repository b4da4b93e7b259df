#!/usr/bin/env bash
# The floor under a Java grade's overhead: what the JVM spends beside the student's own code when that code
# runs in a plain program, with no grader at all.
#
# Usage: scripts/bench-java-floor.sh [-n ROUNDS] SUBMISSION PUZZLE-FILE...
#
# Compiles the submission's Board.java and Solver.java with the textbook classes the grader gives them (its
# MinPQ calling java-floor/npuzzle/'s no-op stand-ins for the counters and the queue registry) and
# java-floor/Floor.java, a client that solves each puzzle
# file once (a Solver, moves(), solution() walked), and runs it in one JVM with the grader's own JVM options
# for a world (build/jvm.rs: the parallel collector, two GC and two compiler threads, a 1 GB initial heap,
# 8 MB stacks, and policy.rs's default maximum heap: half the machine's memory within 1-8 GB; HEAP_MB=
# overrides it) but no agent, module, sandbox or protocol. One line per round:
#
#   floor total=CPU inside=CPU overhead=CPU ratio=PCT
#
# total: user + sys of the whole `java` process (getrusage of the reaped child); inside: the CPU of the
# client's thread inside the solves (ThreadMXBean, what a grader would report as the requests); overhead =
# total - inside: the JVM's start, its JIT compilers, its collector and the client's reading of the files.
# ratio = overhead / inside. A grade's overhead ratio (scripts/bench-overhead.sh) cannot fall below this one
# for the same work in one JVM; it pays it once per JVM that runs the student's code.
set -euo pipefail

rounds=3
while getopts "n:" opt; do
    case $opt in
        n) rounds=$OPTARG ;;
        *) sed -n '5p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then sed -n '5p' "$0" >&2; exit 2; fi
submission=$(cd "$1" && pwd)
shift
puzzles=()
for file in "$@"; do puzzles+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"); done

root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src/edu/princeton/cs/algs4" "$scratch/src/npuzzle" "$scratch/classes"
cp "$root"/adapters/java/algs4/edu/princeton/cs/algs4/*.java "$scratch/src/edu/princeton/cs/algs4/"
cp "$root"/scripts/java-floor/npuzzle/*.java "$scratch/src/npuzzle/"
cp "$submission/Board.java" "$submission/Solver.java" "$root/scripts/java-floor/Floor.java" "$scratch/src/"
(cd "$scratch/src" && javac -nowarn -d "$scratch/classes" $(find . -name '*.java')) >&2

machine_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
heap_mb=${HEAP_MB:-$(( machine_mb / 2 < 1024 ? 1024 : (machine_mb / 2 > 8192 ? 8192 : machine_mb / 2) ))}
for _ in $(seq "$rounds"); do
    python3 - "$heap_mb" "$scratch/classes" "${puzzles[@]}" <<'PY'
import re, resource, subprocess, sys
heap_mb, classes, puzzles = sys.argv[1], sys.argv[2], sys.argv[3:]
command = [
    "java", "-Xss8m", f"-Xmx{heap_mb}m", f"-Xms{min(int(heap_mb), 1024)}m", "-XX:+UseParallelGC", "-XX:-UseDynamicNumberOfGCThreads",
    "-XX:-UseDynamicNumberOfCompilerThreads", "-XX:ParallelGCThreads=2", "-XX:CICompilerCount=2",
    "-XX:-UsePerfData", "-Xshare:auto", "-cp", classes, "Floor", *puzzles,
]
out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
total = usage.ru_utime + usage.ru_stime
inside = int(re.search(r"inside_ns=(\d+)", out).group(1)) / 1e9
overhead = total - inside
print(f"floor total={total:.2f}s inside={inside:.2f}s overhead={overhead:.2f}s ratio={100 * overhead / inside:.0f}%")
PY
done
