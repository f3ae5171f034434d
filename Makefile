# Two commands for a newcomer: `make run` and `make test`. Both create .venv when it is missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test

.PHONY: run test venv clean

$(PY):
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Shiftcast needs Python 3.11 or newer"'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(STAMP_RUN): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(STAMP_TEST): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP_RUN) $@

venv: $(STAMP_RUN)

run: $(STAMP_RUN)
	$(PY) main.py

test: $(STAMP_TEST)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
