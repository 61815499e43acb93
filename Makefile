# Two commands a new user needs: `make run` and `make test`. Both build .venv when needed.
PYTHON ?= python3
VENV := .venv
# Two stamps: `make run` needs the runtime only; `make test` adds the dev extra (pytest,
# Playwright...: some 400 MB a scorekeeper never uses).
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed
# constraints.txt pins every package (dev tools too) to the versions CI tests; install.sh
# installs the Pi with the same file. `make lock` regenerates it after a pyproject.toml change
# (tests/install/test_lock.py fails while it is out of date); it keeps every pin it can, and
# `make lock UPGRADE=--upgrade` moves every package to its newest version.
LOCK := constraints.txt
LOCK_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --universal --extra dev \
	--custom-compile-command "make lock" --quiet

# constraints-lowest.txt: every direct dependency at the lowest version pyproject.toml allows
# (the others as new as they may be); `make test-lowest` runs the fast unit lane on it, CI
# once (.ci/run), so a floor the code has outgrown fails there, not on a board builder's Pi.
LOWEST := constraints-lowest.txt
LOWEST_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --universal --extra dev \
	--resolution lowest-direct --python-version 3.11 --custom-compile-command "make lock" \
	--quiet

.PHONY: run test fast test-lowest lint rules-check clean lock

$(RUNTIME): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -c $(LOCK) -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(VENV)/bin/pip install --quiet -c $(LOCK) -e '.[dev]'
	touch $(STAMP)

# uv comes from the dev extra; installed on its own here so a stale lock cannot block it.
lock:
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet 'uv>=0.5'
	$(LOCK_COMPILE) $(UPGRADE) -o $(LOCK)
	$(LOWEST_COMPILE) -o $(LOWEST)

test-lowest:
	$(PYTHON) -m venv .venv-lowest
	.venv-lowest/bin/pip install --quiet --upgrade pip
	.venv-lowest/bin/pip install --quiet -c $(LOWEST) -e '.[dev]'
	.venv-lowest/bin/pytest -m unit -q -n auto -p no:cacheprovider

run: $(RUNTIME)
	$(VENV)/bin/skitter serve

# What CI runs: lint, the scenarios, the tests that cannot fail listed (none allowed), then
# every test on one worker more than there are cores (tests/conftest.py), the ten slowest named
# at the end. A worker with nothing left takes tests from another's queue (--dist worksteal):
# the last minute is not spent on one core.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/skitter rules-check tests/scenarios
	$(VENV)/bin/python tests/find_assertless.py
	$(VENV)/bin/pytest -n auto --dist worksteal --durations=10

# The lane to run while changing code (about 55 s on two idle cores): every test of the rules,
# sensing, the table and the API that needs no browser, on one worker more than there are
# cores (tests/conftest.py), property tests trying a quarter of their examples
# (SKITTER_LANE=fast, tests/support/lanes.py). The files that took longest in the last run
# are given out first (tests/support/longest_first.py), so the last seconds are not one
# worker waiting on a server alone. Tests are marked by their folder (tests/conftest.py), so
# `pytest -m hub` and the like pick an area too.
FAST := tests/api tests/sensing tests/table tests/rules
fast: $(STAMP)
	SKITTER_LANE=fast $(VENV)/bin/pytest -n auto --dist worksteal -q -m "not browser" --durations=5 \
		$(FAST)

lint: $(STAMP)
	$(VENV)/bin/ruff check .

rules-check: $(STAMP)
	$(VENV)/bin/skitter rules-check tests/scenarios

clean:
	rm -rf $(VENV) .venv-lowest build *.egg-info
