# Two commands a new user needs: `make run` and `make test`. Both build .venv when needed.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed

.PHONY: run test lint rules-check clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/skitter serve

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/skitter rules-check tests/scenarios
	$(VENV)/bin/pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .

rules-check: $(STAMP)
	$(VENV)/bin/skitter rules-check tests/scenarios

clean:
	rm -rf $(VENV) build *.egg-info
