# The README's commands: `make run`, `make test`, `make lint`, `make fuzz`, `make bench`.
# Each sets everything up first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# `make fuzz` explores with a fresh seed unless given one: `make fuzz SEED=1234` repeats a run.
ifeq ($(SEED),)
SEED := $(shell od -An -N4 -tu4 /dev/urandom | tr -d ' ')
endif
FUZZ_SCALE ?= 10

.PHONY: setup run test fuzz bench lint format clean

setup: $(STAMP)

$(STAMP): pyproject.toml scripts/system-packages.sh
	bash scripts/system-packages.sh
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# With no display the app would run invisibly: say so, show what works here, exit cleanly.
run: setup
	@if $(PY) -c 'from companion.ui.launch import has_display as d; raise SystemExit(not d())'; \
	then $(VENV)/bin/companion app --demo; \
	else bash scripts/no-display.sh $(VENV); fi

# The same answer every run: hypothesis replays fixed examples (tests/hypothesis_profiles.py)
# and Python's string hashing, which orders sets, is pinned.
test: setup
	PYTHONHASHSEED=0 HYPOTHESIS_PROFILE=deterministic KIVY_NO_ARGS=1 $(PY) -m pytest $(PYTEST_ARGS)

# The property tests only, with fresh examples, FUZZ_SCALE times as many as `make test` runs.
fuzz: setup
	@echo "make fuzz: seed $(SEED) (repeat this run with: make fuzz SEED=$(SEED))"
	PYTHONHASHSEED=$(SEED) HYPOTHESIS_PROFILE=fuzz FUZZ_SCALE=$(FUZZ_SCALE) KIVY_NO_ARGS=1 \
	  $(PY) -m pytest -m hypothesis -p no:cacheprovider --hypothesis-seed=$(SEED) $(PYTEST_ARGS) \
	  || { echo "make fuzz: failed with seed $(SEED): make fuzz SEED=$(SEED) repeats it" >&2; exit 1; }

bench: setup
	$(PY) -m benchmarks

lint: setup
	bash scripts/lint.sh

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

clean:
	rm -rf $(VENV) build *.egg-info
