#!/usr/bin/env bash
# Gradescope runs this once when the autograder image is built. Java 17 grades Java submissions; a Rust
# toolchain is only needed if students submit Rust crates.
set -eu
apt-get update
apt-get install -y --no-install-recommends openjdk-17-jdk-headless ca-certificates curl
if [ "${GRADE_RUST_SUBMISSIONS:-1}" = "1" ] && ! command -v cargo >/dev/null; then
  curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  ln -sf "$HOME/.cargo/bin/cargo" /usr/local/bin/cargo
fi
/autograder/source/bin/grader --version
