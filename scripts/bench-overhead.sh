#!/usr/bin/env bash
# Per-student CPU of a grade, and the grading overhead against the student's own request CPU.
#
# Usage: scripts/bench-overhead.sh [-n ROUNDS] [-c CORPUS] [-f] GRADER[=LABEL]... -- SUBMISSION...
#   CORPUS: `fixtures` (fixtures/puzzles, the default) or `official` (fixtures/puzzles with the official
#   timing puzzles of ../shared/calibration laid over it, as grader/tests/it/support.rs
#   `fixtures_with_official_timing` does). Repeat -c for both.
#   -f: also the floor. The first grader grades each submission once more with GRADER_TRANSCRIPTS set, and
#   each round replays that grade's Board and Solver calls in a plain client (scripts/replay/floor.py: no
#   grader, protocol, agent or sandbox; Java in the two JVMs the seal needs), alternated with the grades:
#
#   floor SUBMISSION CORPUS total=CPU inside=CPU reading=CPU
#
#   and at the end, for each grader, the median total over the median floor total (the issue-36 ratio).
#
# Each round grades every submission once with every grader, alternating the graders (so two builds meet the
# same load), under the default policy, with the build cached (one untimed warm-up run per grader and
# submission first). One line per run:
#
#   LABEL SUBMISSION CORPUS total=CPU requests=CPU counting=CPU overhead=CPU ratio=PCT wall=S score=PCT
#
# total: user + sys of the grader's whole process tree (scripts/bench-overhead-run.py; the build is cached, so
# this is the tests). requests: the CPU the program reported for the student's requests (`--timings`). counting: what of
# `requests` the adapter spent reading the counters (its deep-memory walk), when the grader reports it
# (`--timings`' third line; 0 for graders before it). overhead = total - (requests - counting); ratio =
# overhead / (requests - counting). Figures vary with the machine's load: compare alternated runs only.
set -euo pipefail

rounds=3
corpora=()
floor=
while getopts "n:c:f" opt; do
    case $opt in
        n) rounds=$OPTARG ;;
        c) corpora+=("$OPTARG") ;;
        f) floor=1 ;;
        *) sed -n '2,15p' "$0" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ ${#corpora[@]} -gt 0 ] || corpora=(fixtures)
graders=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do graders+=("$1"); shift; done
[ $# -gt 0 ] && shift
submissions=("$@")
if [ ${#graders[@]} -eq 0 ] || [ ${#submissions[@]} -eq 0 ]; then
    sed -n '2,8p' "$0" >&2
    exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

corpus_dir() {
    case $1 in
        fixtures) echo "$root/fixtures/puzzles" ;;
        official)
            local calibration=${CALIBRATION:-$root/../shared/calibration}
            [ -d "$calibration/official-timing" ] || calibration=/work/shared/calibration
            local dir=$scratch/official
            if [ ! -d "$dir" ]; then
                mkdir -p "$dir"
                cp "$root"/fixtures/puzzles/* "$dir"/
                cp "$calibration"/official-timing/*.txt "$dir"/
                python3 - "$dir" "$calibration/official-timing" <<'EOF'
import os, re, sys
dir, official = sys.argv[1], sys.argv[2]
names = {f[:-4] for f in os.listdir(official) if f.endswith(".txt")}
path = os.path.join(dir, "puzzles.toml")
out, keep = [], True
for line in open(path):
    m = re.match(r"^\[([^\]]+)\]", line)
    if m:
        keep = m.group(1) not in names
    if keep:
        out.append(line)
open(path, "w").write("".join(out))
EOF
            fi
            echo "$dir" ;;
        *) echo "unknown corpus $1 (fixtures or official)" >&2; exit 2 ;;
    esac
}

run_one() { # grader label submission corpus-name corpus-dir
    if [ "$1" = floor ]; then
        python3 "$root/scripts/replay/floor.py" run "$(floor_work "$3" "$4")" floor "$(basename "$3")" "$4"
    else
        python3 "$root/scripts/bench-overhead-run.py" "$@"
    fi
}

floor_work() { # submission corpus-name -> the directory of its recorded calls (two entries may share a name)
    echo "$scratch/floor-$(realpath "$1" | tr '/' '_')-$2"
}

for name in "${corpora[@]}"; do
    dir=$(corpus_dir "$name")
    for sub in "${submissions[@]}"; do
        for g in "${graders[@]}"; do
            "${g%%=*}" grade "$sub" --fixtures "$dir" --quiet --only 'api*' >/dev/null 2>&1 || true
        done
        if [ -n "$floor" ]; then
            transcripts=$(floor_work "$sub" "$name").transcripts
            mkdir -p "$transcripts"
            GRADER_TRANSCRIPTS=$transcripts "${graders[0]%%=*}" grade "$sub" --fixtures "$dir" --quiet \
                --format json --output "$transcripts.json" || true
            python3 "$root/scripts/replay/floor.py" prepare "$sub" "$transcripts" "$(floor_work "$sub" "$name")"
        fi
    done
done
if [ -n "$floor" ]; then graders+=(floor); fi
echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
    for name in "${corpora[@]}"; do
        dir=$(corpus_dir "$name")
        for sub in "${submissions[@]}"; do
            order=("${graders[@]}")
            # alternate which build goes first
            if [ $((round % 2)) -eq 0 ]; then
                mapfile -t order < <(printf '%s\n' "${graders[@]}" | tac)
            fi
            for g in "${order[@]}"; do
                bin=${g%%=*}
                label=${g#*=}
                [ "$label" = "$g" ] && label=$(basename "$bin")
                run_one "$bin" "$label" "$sub" "$name" "$dir"
            done
        done
    done
    echo "# round $round done, load $(cut -d' ' -f1-3 /proc/loadavg)"
done | tee "$scratch/lines"
if [ -n "$floor" ]; then python3 - "$scratch/lines" <<'EOF'
import collections, re, statistics, sys
totals = collections.defaultdict(list)
for line in open(sys.argv[1]):
    words = line.split()
    if len(words) > 3 and not line.startswith("#"):
        totals[tuple(words[:3])].append(float(re.search(r"total=([\d.]+)", line).group(1)))
for (label, sub, corpus), runs in sorted(totals.items()):
    floor = totals.get(("floor", sub, corpus))
    if label != "floor" and floor:
        grade, base = statistics.median(runs), statistics.median(floor)
        print(f"# {label} {sub} {corpus}: median total {grade:.2f} s / median floor {base:.2f} s = {grade / base:.2f}")
EOF
fi
