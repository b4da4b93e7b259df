#!/usr/bin/env bash
# Builds the zip a course uploads to Gradescope: setup.sh, run_autograder, the grader binary and the grading
# policy. The binary carries the rest: the bundled puzzles and the crates a Rust submission is built against
# (npuzzle, the harness, the reference, their dependencies vendored, so builds on Gradescope need no
# network), unpacked into the grader's work directory on first use (grader/src/bundle.rs).
# Usage: gradescope/package.sh OUT.zip [GRADER_BINARY] [POLICY]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="$1"
grader="${2:-$root/target/release/grader}"
policy="${3:-}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin"
cp "$here/setup.sh" "$here/run_autograder" "$stage/"
cp "$grader" "$stage/bin/grader"
strip "$stage/bin/grader" 2>/dev/null || true
# A course's policy is checked here (a typo fails now, not on Gradescope) and packed as written. The grader
# carries its puzzles and the Rust crates it builds submissions against (grader/build.rs): nothing else ships.
if [ -n "$policy" ]; then
  "$grader" policy --check "$policy" > /dev/null
  cp "$policy" "$stage/policy.toml"
else
  "$grader" policy --print-default > "$stage/policy.toml"
fi
rm -f "$out"
(cd "$stage" && python3 -m zipfile -c "$out" setup.sh run_autograder bin policy.toml)
echo "wrote $out"
