# Two commands for a newcomer: `make run` and `make test`. Both create .venv when it is missing.
# `make check` is the everyday fast tier: `make test` without the tests marked slow.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP_RUN := $(VENV)/.installed-run
STAMP_TEST := $(VENV)/.installed-test
STAMP_BENCH := $(VENV)/.installed-bench

.PHONY: run test check lint bench venv clean relay-test

# `make` alone installs Shiftcast into .venv (with its `shiftcast` command) and opens nothing.
.DEFAULT_GOAL := venv

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

$(STAMP_BENCH): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[test,bench]"
	touch $(STAMP_RUN) $(STAMP_TEST) $@

venv: $(STAMP_RUN)

run: $(STAMP_RUN)
	$(PY) main.py

test: $(STAMP_TEST) lint relay-test
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# The relay (relay/, a Cloudflare Worker): its types and its tests inside the Workers runtime, on Node 20
# or newer. `npm ci` runs again whenever package.json or the lock file is newer than what it installed.
RELAY_MODULES := relay/node_modules/.package-lock.json

$(RELAY_MODULES): relay/package.json relay/package-lock.json
	@node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' || \
	    { echo "The relay's tests need Node 20 or newer (found $$(node --version 2>/dev/null || echo none))."; exit 1; }
	cd relay && npm ci --no-audit --no-fund
	touch $@

relay-test: $(RELAY_MODULES)
	cd relay && npm test

# Lint and every test but the slow ones (reliability runs, real processes killed again and again, the
# Xvfb start): under two minutes on a 2-core machine. `make test` runs them too; CI runs `make test`.
check: $(STAMP_TEST) lint
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -m "not slow" $(PYTEST_ARGS)

# Lint and types: ruff (with import order) everywhere, mypy strict for core, cli, ui and main.py, the tests with check_untyped_defs; both configured in pyproject.toml.
lint: $(STAMP_TEST)
	$(PY) -m ruff check core cli ui tests main.py packaging
	$(PY) -m mypy

bench: $(STAMP_BENCH)
	QT_QPA_PLATFORM=offscreen $(PY) -m tests.perf.bench $(BENCH_ARGS)

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache relay/node_modules

# Release build: the PyInstaller one-folder app in dist/, and on Linux the tarball and .deb beside it
# (macOS: the .dmg). See packaging/README.md; CI checks it with packaging/ci_check.sh. PyInstaller's
# cache of processed binaries stays in this checkout's build/: two checkouts building at once shared
# the user-wide one and one of them bundled a Qt library of 0 bytes.
STAMP_DIST := $(VENV)/.installed-dist
PYINSTALLER_REQ ?= pyinstaller>=6.10,<7

.PHONY: dist

$(STAMP_DIST): pyproject.toml | $(STAMP_RUN)
	$(PY) -m pip install --quiet "$(PYINSTALLER_REQ)"
	touch $@

dist: $(STAMP_RUN) $(STAMP_DIST)
	PYINSTALLER_CONFIG_DIR=build/pyinstaller-cache $(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist --workpath build/pyinstaller packaging/shiftcast.spec
	case "$$(uname -s)" in \
	    Linux) PY=$(PY) bash packaging/linux/build_deb.sh ;; \
	    Darwin) PY=$(PY) bash packaging/macos/build_dmg.sh ;; \
	esac
