# Quick start: `make run` opens a new game; `make test` runs the whole suite headless.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test imports lint format bench clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "tabletop needs Python 3.11 or newer")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

# The window with a new game of the default module; with no display, one line
# says how to get a picture instead (exit code 3 is "no display", not a failure).
run: $(STAMP)
	@$(BIN)/tabletop play $(GAME) || { code=$$?; [ $$code -eq 3 ] || exit $$code; }

# The layers' contracts (pyproject.toml [tool.importlinter]) first, then the tests.
test: $(STAMP)
	$(BIN)/lint-imports --no-logo
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest

imports: $(STAMP)
	$(BIN)/lint-imports --no-logo

lint: $(STAMP)
	$(BIN)/ruff check tabletop rules_assist tests
	$(BIN)/ruff format --check tabletop rules_assist tests

format: $(STAMP)
	$(BIN)/ruff format tabletop rules_assist tests
	$(BIN)/ruff check --fix tabletop rules_assist tests

bench: $(STAMP)
	PYTHONPATH=$(CURDIR) TABLETOP_GAME_PACKAGES=tests TABLETOP_BENCH_MODULES=tests/toy $(BIN)/tabletop bench --json

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
