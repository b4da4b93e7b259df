#!/usr/bin/env bash
# Builds the zip a course uploads to Gradescope: setup.sh, run_autograder, the grader binary, the fixtures,
# the grading policy, and rust/: the crates a Rust submission is built against (npuzzle, the harness, the
# reference) with their dependencies vendored, so that builds on Gradescope need no network.
# Usage: gradescope/package.sh OUT.zip [GRADER_BINARY] [POLICY]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
out="$1"
grader="${2:-$root/target/release/grader}"
policy="${3:-}"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/fixtures"
cp "$here/setup.sh" "$here/run_autograder" "$stage/"
cp "$grader" "$stage/bin/grader"
strip "$stage/bin/grader" 2>/dev/null || true
cp -r "$root/fixtures/puzzles" "$stage/fixtures/puzzles"
# A course's policy is checked here (a typo fails now, not on Gradescope) and packed as written.
if [ -n "$policy" ]; then
  "$grader" policy --check "$policy" > /dev/null
  cp "$policy" "$stage/policy.toml"
else
  "$grader" policy --print-default > "$stage/policy.toml"
fi
# rust/ keeps this repository's layout (the grader looks for npuzzle/ under it) in a workspace of its own,
# with this repository's Cargo.lock, so the pinned versions are the ones tested here.
mkdir -p "$stage/rust/adapters/rust"
for crate in npuzzle adapters/rust/harness reference; do
  (cd "$root" && tar -cf - --exclude=target "$crate") | tar -xf - -C "$stage/rust"
done
sed -e 's#^members = .*#members = ["npuzzle", "adapters/rust/harness", "reference"]#' -e '/^exclude = /d' \
  "$root/Cargo.toml" > "$stage/rust/Cargo.toml"
cp "$root/Cargo.lock" "$stage/rust/Cargo.lock"
# Vendored: what the grader's wrapper around a submission needs (the harness and the reference without its
# command line; no dev-dependencies), resolved from a probe crate shaped like that wrapper.
mkdir -p "$stage/probe"
printf '[workspace]\n[package]\nname = "vendor-probe"\nversion = "0.0.0"\nedition = "2021"\n[lib]\npath = "lib.rs"\n[dependencies]\nnpuzzle-harness = { path = "../rust/adapters/rust/harness" }\n' \
  > "$stage/probe/Cargo.toml"
touch "$stage/probe/lib.rs"
cp "$root/Cargo.lock" "$stage/probe/Cargo.lock"
"${CARGO:-cargo}" vendor --offline -q --manifest-path "$stage/probe/Cargo.toml" "$stage/rust/vendor" > /dev/null
rm -rf "$stage/probe"
rm -f "$out"
(cd "$stage" && python3 -m zipfile -c "$out" setup.sh run_autograder bin fixtures policy.toml rust)
echo "wrote $out"
