# fracas: every set-up step lives here, so a fresh machine needs only `make demo` or `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint typecheck pytest venv clean browser

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[cli,web,dask,test,rl]'
	touch $(STAMP)

venv: $(STAMP)

## Set up and play a sample fight on the embedded defaults.
demo: $(STAMP)
	$(BIN)/fracas run examples/age_of_dragons/aerial_2v2.yaml --seed 3

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP) browser
	$(BIN)/pytest

## Debian's Chromium for the Playwright browser tests (`playwright install` cannot download one).
browser:
	test -x /usr/bin/chromium || { apt-get update && apt-get install -y --no-install-recommends chromium; }

## Set up and pass every check: lint, types, tests.
test: lint typecheck pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
