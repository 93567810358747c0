# Setup, tests and the example job. `make test` is what CI runs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: setup opa opa-compat wasmtime-range test stress-test conformance lint example screenshot bench bench-relations bench-loaders bench-test bench-diff corpora bench-startup bench-conformance bench-peers loader-parity loader-parity-examples realworld snyk-parity compat clean-cache

setup: $(VENV)/.installed opa

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

opa:
	@bash wasm/build-opa.sh

# The second OPA the tests compare with the pinned one (wasm/compat/go.mod); the
# test that needs it builds it when it is missing.
opa-compat:
	@bash wasm/build-opa.sh --compat

# The Wasm tests against the lowest and the newest wasmtime release of the range
# pyproject.toml allows (opt-in): each is installed beside the venv, not into it,
# and put first on the path.
WASMTIME_RANGE := 40.0.0 50.0.1
wasmtime-range: setup
	@for v in $(WASMTIME_RANGE); do \
	  $(BIN)/pip install --quiet --no-deps --target .wasmtime/$$v wasmtime==$$v || exit 1; \
	  echo "wasmtime $$v"; \
	  PYTHONPATH=.wasmtime/$$v $(BIN)/pytest -q -o addopts="" -p no:cacheprovider tests/wasm || exit 1; \
	done

test: lint
	$(BIN)/pytest

# The tests of time, memory and output bounds, 3 times while 4 busy processes
# load the cores: a bound test that races another bound, or a wall clock,
# fails here. Prints the time it took.
STRESS_TESTS := tests/rules/test_hostile_rules.py tests/scanning/test_scan_errors.py \
	tests/wasm/test_wasm_host.py tests/cli/test_cli_startup.py \
	tests/wasm/host_builtins/test_builtin_deadlines.py tests/wasm/test_values_under_cap.py \
	tests/core/test_address_space.py tests/inputs/test_address_space_cap.py
stress-test: setup
	@busy=; for i in 1 2 3 4; do yes > /dev/null & busy="$$busy $$!"; done; \
	trap 'kill $$busy' EXIT; started=$$(date +%s); \
	for run in 1 2 3; do \
	  echo "stress run $$run of 3 (4 busy processes)"; \
	  $(BIN)/pytest -q -p no:cacheprovider $(STRESS_TESTS) || exit 1; \
	done; \
	echo "stress-test passed: 3 runs in $$(( $$(date +%s) - started )) s"

# OPA's compliance suite alone, with the per-folder report; rewrites
# docs/conformance.md (CI only checks it).
conformance: setup
	REGO_ENGINE_UPDATE_CONFORMANCE=1 $(BIN)/pytest -q -o addopts="" -p no:cacheprovider tests/conformance

# Ruff, and mypy over engine/ (configured in pyproject.toml; strict on core/,
# relations/, results/).
lint: setup
	$(BIN)/ruff check engine tests bench build_support
	$(BIN)/ruff format --check engine tests bench build_support
	$(BIN)/mypy

# The default scan (the shipped rule pack) of examples/: exit code 1 means
# failing results were found, which the examples are meant to show.
example: setup
	$(BIN)/rego-engine scan examples/ || [ $$? -eq 1 ]

screenshot: setup
	$(BIN)/python tests/table_screenshot.py

bench: setup
	$(BIN)/python bench/bench_foundation.py

bench-relations: setup
	$(BIN)/python bench/bench_relations.py

bench-loaders: setup
	$(BIN)/python bench/bench_loaders.py

bench-test: setup
	$(BIN)/python bench/bench_test.py
bench-diff: setup
	$(BIN)/python bench/bench_diff.py
bench-conformance: setup
	$(BIN)/python bench/bench_conformance.py

# opa test and rego-engine test side by side on Rego trees checked out
# locally (opt-in; fetches nothing): make corpora CORPORA='name=dir[,dir] -- flags' ...
corpora: setup
	@test -n "$(CORPORA)" || { echo "usage: make corpora CORPORA=\"'NAME=PATH[,PATH] -- FLAGS' ...\""; exit 2; }
	eval '$(BIN)/python bench/corpora.py' $(CORPORA)

bench-startup: setup
	$(BIN)/python bench/bench_startup.py
# This engine beside snyk's policy engine (SNYK_PE=/path/to/policy-engine; optional).
bench-peers: setup
	$(BIN)/python bench/bench_peers.py

# Our loaders against snyk's policy engine loader goldens (opt-in):
# SNYK_PE_DIR=/path/to/policy-engine make loader-parity
loader-parity: setup
	$(BIN)/python bench/loader_parity.py $(SNYK_PE_DIR)

# The States of examples/ against snyk's engine's own (SNYK_PE: its built binary):
# SNYK_PE=/path/to/policy-engine make loader-parity-examples
loader-parity-examples: setup
	$(BIN)/python bench/loader_parity.py --examples "$(SNYK_PE)"

# Public repositories checked out locally, loaded by our loaders and by snyk's engine
# (opt-in, never in CI; fetches nothing):
# SNYK_PE=/path/to/policy-engine make realworld REALWORLD="/path/to/repo ..."
realworld: setup
	SNYK_PE="$(SNYK_PE)" $(BIN)/python bench/realworld.py $(REALWORLD)

# SNYK_PE_DIR=/path/to/policy-engine make snyk-parity
snyk-parity: setup
	$(BIN)/python bench/snyk_parity.py $(SNYK_PE_DIR)

# regula's rules and library over its example inputs, against `regula run` (opt-in):
# make compat REGULA_DIR=/path/to/regula REGULA_BIN=/path/to/regula-binary
compat: setup
	$(BIN)/python bench/regula_parity.py "$(REGULA_DIR)" "$(REGULA_BIN)"

clean-cache:
	rm -rf $${REGO_ENGINE_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/rego-engine}/modules $${REGO_ENGINE_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/rego-engine}/native $${REGO_ENGINE_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/rego-engine}/prepared
