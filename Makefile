# Quick start: `make run` opens a new game; `make test` runs the whole suite headless.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test fuzz imports lint format bench bench-instructions conformance looot-oracle package install-desktop clean

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

# Mutated logs, modules, decks and positions through every command that reads them:
# TABLETOP_FUZZ_CASES inputs of each kind (default 5,000); prints the outcomes by kind and
# command and keeps every failing input under tests/fixtures/fuzz/ (make test replays them).
fuzz: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tests.fuzz.run --keep

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
	@one=$$(PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BIN)/tabletop simulate greenland --games 1 --jobs 1 --bots random 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'); \
	four=$$(PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/dev/null $(BIN)/tabletop simulate greenland --games 4 --jobs 1 --bots random 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'); \
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

# The desktop app: PyInstaller (the `package` extra, installed here when missing) freezes the
# program with its game modules into dist/tabletop/ (run dist/tabletop/tabletop).
package: $(STAMP)
	@$(BIN)/python -c 'import PyInstaller' 2>/dev/null || $(BIN)/python -m pip install --quiet -e '.[test,package]'
	$(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/pyinstaller packaging/tabletop.spec

# The desktop entry, its icon and the game log's file type for this user (XDG paths). The entry starts PROGRAM: the packaged
# app when `make package` has built it, else the `tabletop` on the PATH (pip, pipx), else the
# checkout's own.
XDG_DATA_HOME ?= $(HOME)/.local/share
PROGRAM ?= $(firstword $(wildcard $(CURDIR)/dist/tabletop/tabletop) $(shell command -v tabletop) $(CURDIR)/$(BIN)/tabletop)
install-desktop:
	@install -d "$(XDG_DATA_HOME)/applications" "$(XDG_DATA_HOME)/icons/hicolor/scalable/apps" "$(XDG_DATA_HOME)/mime/packages"
	@sed 's|^Exec=tabletop |Exec="$(PROGRAM)" |' packaging/tabletop.desktop > "$(XDG_DATA_HOME)/applications/tabletop.desktop"
	@install -m 644 packaging/tabletop.svg "$(XDG_DATA_HOME)/icons/hicolor/scalable/apps/tabletop.svg"
	@install -m 644 packaging/tabletop-mime.xml "$(XDG_DATA_HOME)/mime/packages/tabletop.xml"
	@-command -v update-mime-database >/dev/null && update-mime-database "$(XDG_DATA_HOME)/mime"
	@-command -v update-desktop-database >/dev/null && update-desktop-database -q "$(XDG_DATA_HOME)/applications"
	@echo "installed $(XDG_DATA_HOME)/applications/tabletop.desktop (starts $(PROGRAM))"

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
