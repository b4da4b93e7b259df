# The project's commands. `make test` is what CI runs (.ci/run); `make grade` grades a submission.
CARGO ?= cargo
PUZZLE ?= fixtures/puzzles/puzzle04.txt

.PHONY: test lint fmt bench solve

test: lint
	$(CARGO) test --workspace --all-targets
	$(CARGO) test --workspace --doc

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

bench:
	$(CARGO) bench -p reference

solve:
	$(CARGO) run --release -q -p reference --bin solver -- --stats $(PUZZLE)
