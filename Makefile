# `make run` starts the bot, `make test` runs the linters (ruff, mypy) and every test.
# Both create .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
UV := uv==0.13.10

.PHONY: run test suite test-fast lint clean

$(INSTALLED): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing dependencies into $(VENV) ..."
	@# uv (pinned) installs the pinned packages in a few seconds where pip takes half a minute
	@# (docs/performance.md, "The test suite"); pip does it where uv can't be had or fails (an
	@# index only pip is configured for, say). Neither writes bytecode for every module of every
	@# package (pip's --no-compile: 10 of its 26 s); Python writes it for the few imported.
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check $(UV) \
		&& $(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[test]' \
		|| $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e '.[test]'
	@touch $@

# The languages' catalogs compiled, each messages.po into its messages.mo (README, Languages).
CATALOGS := bot/locales/.compiled
$(CATALOGS): $(wildcard bot/locales/*/LC_MESSAGES/messages.po) $(INSTALLED)
	@$(BIN)/python -m bot.i18n compile
	@touch $@

run: $(INSTALLED) $(CATALOGS)
	@$(BIN)/python -m bot

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The suite runs on three workers per core (pytest-xdist): each test has its own temporary
# directory, fake Discord and PostgreSQL schema, and many tests spend part of their time
# waiting (for bot processes to start, the bot to go quiet: 147 s of the e2e tests' 3,687
# waits), which other workers fill. Two a core left a third of 2 cores idle (143 against
# 150 s, docs/performance.md). `worksteal` keeps every worker busy to the end.
CORES := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
TEST_WORKERS ?= $(shell echo $$(( $(CORES) * 3 )))
# Bytecode caches are written (git ignores them) even where the environment says not to: else
# every worker and every bot process a test starts compiles the project again, and pytest
# rewrites every test module's asserts again, some 40 s of the suite's CPU.
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest
# The linters and the suite run side by side: the linters take a few seconds of the one CPU
# the suite's waits leave free.
test: $(INSTALLED)
	@$(MAKE) --no-print-directory -j2 lint suite

# After an install, Python writes the bytecode of everything the tests import (pip installs
# without it) once, in one process, rather than in each worker at once as they all start.
WARMED := $(VENV)/.warmed
$(WARMED): $(INSTALLED)
	@PYTHONDONTWRITEBYTECODE= $(BIN)/python -c 'import tests.conftest'
	@touch $@

suite: $(INSTALLED) $(CATALOGS) $(WARMED)
	$(PYTEST) -n $(TEST_WORKERS) --dist worksteal

# Engines and units only, for a quick look while working: no test through the fake Discord,
# nothing slow (pyproject.toml's markers). `make test` runs them all. These hardly wait, so a
# worker per core and one more (for their imports and database round trips) is quickest.
FAST_WORKERS ?= $(shell echo $$(( $(CORES) + 1 )))
test-fast: $(INSTALLED) $(CATALOGS) $(WARMED)
	$(PYTEST) -n $(FAST_WORKERS) --dist worksteal -m "not e2e and not slow"

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis
