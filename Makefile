# The two commands a new machine needs:  make run   and   make test
# Each creates .venv on first use and installs the project into it (editable).

PYTHON ?= $(shell command -v python3.11 || command -v python3.12 || command -v python3.13 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SHARED := ../shared

.PHONY: run test rehearse bench screenshots clean

$(STAMP): pyproject.toml
	@./.ci/system-deps
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -q --upgrade pip
	@$(BIN)/python -m pip install -q -e '.[test]'
	@touch $(STAMP)

## run: the daemon with simulated tables and the GUI (or the terminal view without a display);
## WEB=HOST:PORT serves the live pages there (default 127.0.0.1:8080, or the next free port; WEB= none)
run: $(STAMP)
	@$(BIN)/duelclock start $(if $(filter undefined,$(origin WEB)),,--web "$(WEB)")

## test: lint, types, layering, and the whole test suite
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check clockd gui hw_sim firmware_protocol tests benchmarks web
	$(BIN)/mypy --strict clockd gui hw_sim web firmware_protocol
	$(BIN)/lint-imports --no-cache
	@if [ -f $(SHARED)/tools/check_layers.py ]; then \
	    echo "check_layers.py"; out=$$($(BIN)/python $(SHARED)/tools/check_layers.py); \
	    if [ -n "$$out" ]; then echo "$$out"; exit 1; fi; \
	else echo "note: $(SHARED)/tools/check_layers.py not present; import-linter contracts still checked"; fi
	QT_QPA_PLATFORM=offscreen $(BIN)/pytest -q

## rehearse: the whole festival day on one daemon, every surface after every step (docs/rehearsal.md)
rehearse: $(STAMP)
	DUELCLOCK_REHEARSE_WHOLE=1 QT_QPA_PLATFORM=offscreen $(BIN)/pytest -q tests/rehearsal

## bench: every benchmark, each printing a JSON line
bench: $(STAMP)
	$(BIN)/python -m benchmarks

## screenshots: PNGs of the referee window, the audience screen (demo state, offscreen) and the web pages at phone size in docs/screenshots
screenshots: $(STAMP)
	$(BIN)/duelclock gui --demo-state --lang pl --screenshot docs/screenshots/referee.png
	$(BIN)/duelclock gui --demo-state --lang pl --audience --screenshot docs/screenshots/audience.png
	$(BIN)/duelclock gui --demo-state --lang en --screenshot docs/screenshots/referee-en.png
	$(BIN)/duelclock gui --demo-state --lang pl --event relay --screenshot docs/screenshots/referee-timer.png
	$(BIN)/duelclock gui --demo-state --lang pl --event relay --audience --screenshot docs/screenshots/audience-timer.png
	$(BIN)/duelclock gui --demo-state --lang pl --event szachy --screenshot docs/screenshots/referee-chess.png
	$(BIN)/duelclock gui --demo-state --lang pl --event sp1-ch --audience --screenshot docs/screenshots/audience-chess.png
	$(BIN)/python -m tests.web.make_screenshots docs/screenshots
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m gui.demonodes docs/screenshots/referee-nodes.png
	for e in relay:sztafeta blind:ciemno team:druzynowy switcher:switcher; do \
	    name=$${e%%:*}; key=$${e#*:}; \
	    $(BIN)/duelclock gui --demo-state --lang pl --event $$key --screenshot docs/screenshots/referee-$$name.png; \
	    $(BIN)/duelclock gui --demo-state --lang pl --event $$key --audience --screenshot docs/screenshots/audience-$$name.png; \
	done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
