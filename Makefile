# The project's commands. `make test` is what CI runs (.ci/run); `make grade` grades a submission.
CARGO ?= cargo
# What `make grade` grades: the bundled reference submission unless SUBMISSION=path is given.
SUBMISSION ?= target/release/reference-submission
GRADE_ARGS ?=
PUZZLE ?= fixtures/puzzles/puzzle04.txt
GRADER := target/release/grader
# What `make build` builds. Whatever else builds one of these crates in `make test` (`fixtures-check`, the
# end-to-end tests' reference submission: grader/tests/it/support.rs) names the same packages, so that cargo
# resolves the same features and finds this build fresh rather than compiling a variant of its own.
PACKAGES := -p reference -p npuzzle-harness -p grader -p corpus

.PHONY: build grade test lint fmt browser slurm checkstyle install-check bench solve fixtures fixtures-check gradescope korf

build:
	$(CARGO) build --release $(PACKAGES)

grade: build
	$(GRADER) grade $(SUBMISSION) $(GRADE_ARGS)

# Tests run in release mode: they share the build's artifacts, and the end-to-end tests grade real solves.
# The HTML report's test loads it in headless Chromium (`browser`); its screenshot is target/artifacts/html-report.png.
# The sharded class's test starts a one-node Slurm cluster (`slurm`).
# The gallery's Rust crates (`sub-*`) have no tests of their own: clippy checks them in `lint` and the gallery's
# end-to-end test grades them, so the test build leaves out their two release links each (a bin and its harness).
test: lint build browser slurm checkstyle
	$(CARGO) test --release --workspace --all-targets --exclude 'sub-*'
	$(CARGO) test --release --workspace --doc
	$(MAKE) fixtures-check
	$(MAKE) install-check

# Clippy in the release profile: the same lints as the debug profile's (the code has no `debug_assertions`
# branch), and the build scripts and proc macros it compiles are the ones `build` and the tests use.
lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --release --workspace --all-targets -- -D warnings
	python3 scripts/module-cycles.py grader/src
	python3 scripts/crate-layers.py
	python3 scripts/architecture-tree.py --self-test
	python3 scripts/architecture-tree.py

fmt:
	$(CARGO) fmt --all

# Headless Chromium for the HTML report's browser test (Debian's package), installed when missing.
browser:
	command -v chromium >/dev/null || (apt-get update && apt-get install -y --no-install-recommends chromium)

# Slurm and munge for the sharded class's test (grader/tests/it/slurm.rs), installed when missing; nothing is started.
slurm:
	scripts/slurm/install-packages.sh
# Checkstyle for the style section of Java reports (Debian's package), installed when missing.
checkstyle:
	command -v checkstyle >/dev/null || (apt-get update && apt-get install -y --no-install-recommends checkstyle)

# `cargo install --path` works from a checkout: install grader and solver into a temporary root and run them.
# The install reuses target/ (the build `make build` made), so it copies rather than compiles again.
install-check: build
	root="$$(mktemp -d)" && trap 'rm -rf "$$root"' EXIT && \
	CARGO_TARGET_DIR=$(CURDIR)/target $(CARGO) install --locked --quiet --path grader --root "$$root" && \
	CARGO_TARGET_DIR=$(CURDIR)/target $(CARGO) install --locked --quiet --path reference --root "$$root" && \
	"$$root/bin/grader" --version && "$$root/bin/grader" catalog | grep -q 'board-1a' && \
	"$$root/bin/grader" completions bash | grep -q _grader && "$$root/bin/solver" --version && \
	echo "install-check: grader and solver install and run from $$root"

# The reference solver on 4x4 puzzles, then a whole grading run of the reference submission (BENCHMARKS.md).
bench: build
	$(CARGO) bench -p reference
	$(GRADER) grade target/release/reference-submission --quiet --timings > /dev/null

solve:
	$(CARGO) run --release -q -p reference --bin solver -- --stats $(PUZZLE)

# Regenerate the committed puzzle corpus and its metadata from the fixed seed.
fixtures:
	$(CARGO) run --release -q -p corpus --bin fixturegen -- generate fixtures/puzzles

# Re-verify every fixture: independent optimal moves, parity, and the reference's counts. Built as `build`
# builds it (PACKAGES), so that after `build` nothing compiles again.
fixtures-check:
	$(CARGO) build --release -q $(PACKAGES) --bin fixturegen
	target/release/fixturegen check fixtures/puzzles

# The zip a course uploads to Gradescope (dist/gradescope.zip), graded under POLICY (a policy file; the
# default policy when unset): `make gradescope POLICY=course.toml`. See README "Gradescope".
POLICY ?=
gradescope: build
	mkdir -p dist
	gradescope/package.sh $(CURDIR)/dist/gradescope.zip $(CURDIR)/target/release/grader $(if $(POLICY),$(abspath $(POLICY)))

# Korf's 100 solved optimally three ways side by side (BENCHMARKS.md "Korf's 100"); databases cached in ~/.cache/npuzzle-solver.
korf:
	$(CARGO) run --release -q -p corpus --bin korf-bench
