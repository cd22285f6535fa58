# Quick start: `make run` opens a new game; `make test` runs the whole suite headless.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test imports lint format bench bench-instructions conformance looot-oracle clean

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

# CPU instructions a simulated Greenland game takes (valgrind; the same on every run, unlike
# seconds): four games less one, over three, so the start-up does not count.
bench-instructions: $(STAMP)
	@command -v valgrind >/dev/null || { echo "make bench-instructions needs valgrind (apt-get install valgrind)"; exit 2; }
	@one=$$(PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BIN)/tabletop simulate greenland --games 1 --bots random 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'); \
	four=$$(PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BIN)/tabletop simulate greenland --games 4 --bots random 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'); \
	echo "$$(( (four - one) / 3 / 1000000 )) M instructions a simulated Greenland game"

# Greenland's conformance run at full length: 1,000 seeded random-bot games of every variant
# (make test plays 300 of each); GREENLAND_CONFORMANCE_GAMES changes it.
conformance: $(STAMP)
	GREENLAND_CONFORMANCE_GAMES=$${GREENLAND_CONFORMANCE_GAMES:-1000} \
	  $(BIN)/python -m pytest -m slow -q -p no:cacheprovider tests/greenland/test_conformance.py

# Looot against Game Park's engine: 1,000 random games per player count replayed move by move
# (tests/looot/test_oracle_agreement.py). Needs node and the oracle (LOOOT_ORACLE names its
# looot-oracle.cjs); LOOOT_ORACLE_GAMES and LOOOT_ORACLE_SEED change the run.
looot-oracle: $(STAMP)
	LOOOT_ORACLE_GAMES=$${LOOOT_ORACLE_GAMES:-1000} LOOOT_ORACLE_SEED=$${LOOOT_ORACLE_SEED:-1001} \
	  $(BIN)/python -m pytest -m slow -k few -rs -p no:cacheprovider tests/looot/test_oracle_agreement.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
