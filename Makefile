# fracas: every set-up step lives here, so a fresh machine needs only `make demo` or `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
BUILT  := $(VENV)/.compiled
# What the compiled modules (src/fracas/_compiled.py) are built from: they read the core's
# and the rule sets' types, so a change to any of these rebuilds them.
COMPILED_FROM := $(wildcard src/fracas/_compiled.py src/fracas/core/*.py src/fracas/rules/*/*.py)

.PHONY: demo test lint typecheck pytest venv clean browser

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip 'setuptools>=77' wheel
	$(BIN)/python -m pip install --quiet -e '.[cli,web,dask,test,rl]'
	touch $(STAMP)

## The hot modules compiled by mypyc beside their sources (FRACAS_PURE=1 runs the source).
## Without a C compiler the source runs as it is. The build's log: build/mypyc.log.
$(BUILT): $(STAMP) setup.py $(COMPILED_FROM)
	@mkdir -p build
	@if command -v cc >/dev/null 2>&1; then \
	  echo "compiling fracas's hot modules with mypyc (about a minute)"; \
	  FRACAS_MYPYC=1 $(BIN)/python setup.py build_ext --inplace -j 2 >build/mypyc.log 2>&1 \
	    || { tail -30 build/mypyc.log; exit 1; }; \
	else echo "fracas: no C compiler (cc), so the pure-Python source runs (slower)"; fi
	touch $(BUILT)

venv: $(BUILT)

## Set up and play a sample fight on the embedded defaults.
demo: $(BUILT)
	$(BIN)/fracas run examples/age_of_dragons/aerial_2v2.yaml --seed 3

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

## The whole suite on the compiled build, then the rules' tests again on the source (tests
## that patch a compiled module run only there: see SOURCE_PASS in tests/conftest.py).
pytest: $(BUILT) browser
	$(BIN)/pytest
	FRACAS_PURE=1 $(BIN)/pytest -m "not slow and not browser" tests/core tests/rules tests/odds tests/sim

## Debian's Chromium for the Playwright browser tests (`playwright install` cannot download one).
browser:
	test -x /usr/bin/chromium || { apt-get update && apt-get install -y --no-install-recommends chromium; }

## Set up and pass every check: lint, types, tests.
test: lint typecheck pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache build
	find src -name '*.so' -delete
