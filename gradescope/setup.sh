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
# They run (and build) as unprivileged uids of their own: the fixtures (the expected answers), the policy
# (which tests are hidden) and the grader are root's alone. rust/ stays readable: builds compile against it.
chown -R root:root "$SRC"
chmod 0711 "$SRC"
chmod -R go-rwx "$SRC/fixtures" "$SRC/bin"
[ -f "$SRC/policy.toml" ] && chmod 0600 "$SRC/policy.toml"
chmod -R a+rX "$SRC/rust" 2>/dev/null || true
# Warm the cache run_autograder uses: the Java adapter, and the grader's Rust crates (a minute, once).
export GRADER_WORK_DIR="$ROOT/cache" GRADER_RUST_CRATES="$SRC/rust"
[ -d /usr/local/cargo ] && export CARGO_HOME="${CARGO_HOME:-/usr/local/cargo}" RUSTUP_HOME="${RUSTUP_HOME:-/usr/local/rustup}"
mkdir -p "$GRADER_WORK_DIR"
chmod 0755 "$GRADER_WORK_DIR"
warm="$(mktemp -d)"
languages=(java)
if [ "${GRADE_RUST_SUBMISSIONS:-1}" = "1" ] && command -v cargo >/dev/null; then languages+=(rust); fi
for language in "${languages[@]}"; do
  "$SRC/bin/grader" new "$language" "$warm/$language" 2>/dev/null
  "$SRC/bin/grader" grade "$warm/$language" --fixtures "$SRC/fixtures/puzzles" --only compile-1 --quiet \
    --format json="$warm/$language.json" || true
  echo "setup: warmed the $language build cache in $GRADER_WORK_DIR"
done
rm -rf "$warm"
"$SRC/bin/grader" --version
