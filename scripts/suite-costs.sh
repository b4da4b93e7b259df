#!/usr/bin/env bash
# What each end-to-end test costs on its own: every test of one of the grader's test binaries run alone, one
# after another, with its wall time and its CPU (user + system of the test and of every process it waited for,
# the sandboxed JVMs and interpreters included), sorted dearest first, with the totals.
#
#     scripts/suite-costs.sh [TEST-TARGET] [FILTER]
#
# TEST-TARGET is `it` (the default) or `load`; FILTER keeps the tests whose name holds it (`gallery::`).
#
# Why alone: in `make test` the tests of a binary run two at a time, so a test's wall time there holds its waits
# and its neighbor's share of the cores. A test's CPU alone is what an allowance (BENCHMARKS.md, "The test suite")
# is measured in. Two tests side by side do not stretch each other's CPU, so the sum over a binary is that
# binary's CPU in `make test` less the builds a clean clone makes (its submissions' compiles, Checkstyle), and
# about twice its wall time there, since the suite keeps both cores of a 2-core machine busy. Run it on a warm
# checkout (`target/` and the grader's build caches present: a second run), with nothing else running.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-it}"
filter="${2:-}"
# built as `make test` builds it (the whole workspace, so that cargo resolves the same features and finds the
# build fresh); three packages have an `it` binary: the grader's is the one in grader/tests
binary=$(cargo test -q --release --workspace --exclude 'sub-*' --test "$target" --no-run --message-format=json |
  python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and "/grader/tests/" in m["target"]["src_path"]:
        print(m["executable"])')
[ -n "$binary" ] || { echo "suite-costs: no test binary \`$target\` in grader/tests (it or load)" >&2; exit 2; }
# what `cargo test` gives a test binary and the graders it starts (the Rust builds use CARGO)
export CARGO="${CARGO:-$(rustup which cargo 2>/dev/null || command -v cargo)}" INSTA_UPDATE=no CI=true
results=$(mktemp)
timing=$(mktemp)
trap 'rm -f "$results" "$timing"' EXIT
cd grader
"$binary" --list 2>/dev/null | sed -n 's/: test$//p' | { grep -F -- "$filter" || true; } | while read -r name; do
  # a test that fails alone is marked, its figures kept
  verdict=ok
  /usr/bin/time -o "$timing" -f '%e %U %S' "$binary" --exact --test-threads 1 -q "$name" >/dev/null 2>&1 || verdict=FAILED
  read -r wall user sys < <(tail -1 "$timing")
  awk -v w="$wall" -v u="$user" -v s="$sys" -v n="$name" -v v="$verdict" \
    'BEGIN {printf "%8.1f %8.1f  %s%s\n", w, u + s, n, (v == "ok" ? "" : "  (" v ")")}' | tee -a "$results" >&2
done
[ -s "$results" ] || { echo "suite-costs: no test of \`$target\` matches \`$filter\`" >&2; exit 2; }
echo
printf '%8s %8s  %s\n' "wall s" "CPU s" "test (each alone)"
sort -k2 -rn "$results"
awk '{w += $1; c += $2} END {printf "%8.1f %8.1f  total over %d tests\n", w, c, NR}' "$results"
