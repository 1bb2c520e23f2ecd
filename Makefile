# The README's two commands: `make run` and `make test`.  Each sets everything up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test bench lint format clean

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/system-packages.sh
	bash scripts/system-packages.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: setup
	$(VENV)/bin/companion app --demo

test: setup
	KIVY_NO_ARGS=1 $(PY) -m pytest $(PYTEST_ARGS)

bench: setup
	$(PY) -m benchmarks

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) build *.egg-info
