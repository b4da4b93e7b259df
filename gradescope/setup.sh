#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (AUTOGRADER_ROOT points it at
# another tree, for the project's tests). It installs Java 17 and Checkstyle (and a Rust toolchain unless
# GRADE_RUST_SUBMISSIONS=0), locks the course's files away from submissions, and warms the build cache
# that run_autograder then uses.
set -eu
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
if [ "${SKIP_INSTALL:-0}" != "1" ]; then
  apt-get update
  apt-get install -y --no-install-recommends openjdk-17-jdk-headless checkstyle ca-certificates curl
  if [ "${GRADE_RUST_SUBMISSIONS:-1}" = "1" ] && ! command -v cargo >/dev/null; then
    # Outside /root, so that an unprivileged build can read the toolchain.
    export CARGO_HOME=/usr/local/cargo RUSTUP_HOME=/usr/local/rustup
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal --no-modify-path
    ln -sf /usr/local/cargo/bin/cargo /usr/local/bin/cargo
    ln -sf /usr/local/cargo/bin/rustc /usr/local/bin/rustc
    chmod -R a+rX /usr/local/cargo /usr/local/rustup
  fi
fi
# Gradescope's container cannot create namespaces, so a submission's processes see the whole filesystem.
# They run (and build) as unprivileged uids of their own: the grader (which carries the puzzles, with their
# expected answers) and the policy (which tests are hidden) are root's alone, and so is the folder the
# grader unpacks its puzzles into (mode 0700); the crates it unpacks for Rust builds stay readable.
chown -R root:root "$SRC"
chmod 0711 "$SRC"
chmod -R go-rwx "$SRC/bin"
[ -f "$SRC/policy.toml" ] && chmod 0600 "$SRC/policy.toml"
# Warm the cache run_autograder uses: the bundled puzzles and the Java adapter, and the grader's Rust crates
# unpacked and compiled (a minute, once).
export GRADER_WORK_DIR="$ROOT/cache"
[ -d /usr/local/cargo ] && export CARGO_HOME="${CARGO_HOME:-/usr/local/cargo}" RUSTUP_HOME="${RUSTUP_HOME:-/usr/local/rustup}"
mkdir -p "$GRADER_WORK_DIR"
chmod 0755 "$GRADER_WORK_DIR"
warm="$(mktemp -d)"
languages=(java)
if [ "${GRADE_RUST_SUBMISSIONS:-1}" = "1" ] && command -v cargo >/dev/null; then languages+=(rust); fi
for language in "${languages[@]}"; do
  "$SRC/bin/grader" new "$language" "$warm/$language" 2>/dev/null
  "$SRC/bin/grader" grade "$warm/$language" --only compile-1 --quiet \
    --format json="$warm/$language.json" || true
  echo "setup: warmed the $language build cache in $GRADER_WORK_DIR"
done
rm -rf "$warm"
"$SRC/bin/grader" --version
