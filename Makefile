# The two commands of the README: `make book` and `make test`.
# Both create .venv when it is missing and install the pinned dependencies once;
# the stamp file makes a re-run skip the install until a requirements file changes.

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEPS := requirements.txt requirements-book.txt requirements-dev.txt requirements-setup.txt pyproject.toml \
	binder/jupyter/jupyter_server_config.py binder/jupyter/labconfig/default_setting_overrides.json
BUILD_FLAGS := -W -n --keep-going
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
BWRAP := /usr/bin/bwrap
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
# Debian packages, one apt-get at a time (flock): with two jobs (below) two of them may be
# wanted at once, and apt-get fails instead of waiting when another holds its lock.
APT_INSTALL = $(SUDO) flock /var/lock/clfmetrics-apt.lock sh -c 'apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $(1)'

# This machine (and CI's) sets PYTHONDONTWRITEBYTECODE, so every process would compile in
# memory every module it imports, each time. The recipes let Python write the bytecode of
# what they import, once (atomically: concurrent writers are safe; a process that cannot
# write, such as a graded notebook in its sandbox, compiles in memory as before).
unexport PYTHONDONTWRITEBYTECODE
#: Compiled at set-up all the same (see there): what every pytest worker imports at collection,
#: and what a graded notebook's sandbox imports. A package missing here costs time, not
#: correctness.
PRECOMPILE := numpy scipy sympy mpmath pandas sklearn matplotlib hypothesis _pytest playwright \
	IPython markdown_it narwhals ipykernel otter nbclient nbformat jupyter_client zmq tornado \
	traitlets jupytext

# Independent prerequisites run side by side: on a fresh machine Debian's packages download
# and unpack while uv installs the Python ones.
MAKEFLAGS += --jobs=2

.PHONY: help setup book test lint serve clean bench assignments grade

help:
	@echo "make book   set up .venv, execute the chapters and build _build/html"
	@echo "make test   set up .venv and run the whole test suite (lint, unit, chapters, book)"
	@echo "make serve  build, then serve the book on http://127.0.0.1:$(PORT)"
	@echo "make bench  time the library, chapters and derivations (QUICK=1: seconds)"
	@echo "make clean  remove _build (keeps .venv)"
	@echo "make assignments [JOBS=1] [HIDDEN=dir]  otter assign: student, teacher notebooks, autograder zips in _build/assignments"
	@echo "make grade SUBMISSIONS=dir [TIMEOUT=300] [JOBS=1] [HIDDEN=dir]  grade submitted notebooks into _build/grades"
	@echo "           (each in a bubblewrap sandbox; UNSAFE_NO_SANDBOX=1 runs them with your rights when none can be made)"

setup: $(STAMP)

$(STAMP): $(DEPS)
	@if [ ! -x $(BIN)/python ]; then \
	  $(PYTHON) -m venv --without-pip $(VENV) 2>/dev/null || { \
	    echo "python3 -m venv failed; trying the virtualenv package instead"; \
	    rm -rf $(VENV); \
	    $(PYTHON) -m pip install --quiet virtualenv && $(PYTHON) -m virtualenv --quiet $(VENV); }; \
	fi
	@# uv installs the pins: parallel downloads and unpacking (byte-compiling: below), where pip
	@# does one at a time. With cold caches (CI) uv took 82-90 s, compiling included, pyspark's
	@# wheel built (PyPI has only its sdist); pip took 103-113 s with that wheel cached, and
	@# builds it 35 s more.
	@# uv goes in by the machine's own pip (--python, pip >= 22.3): the venv needs no pip of its
	@# own, and bootstrapping one (ensurepip) cost 8 s of the set-up. An older pip bootstraps it.
	$(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check \
	  -r requirements-setup.txt 2>/dev/null || { $(BIN)/python -m ensurepip --upgrade >/dev/null && \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-setup.txt; }
	@# Copies, not uv's default hard links into its cache: the grader fingerprints the venv's
	@# files by their change time, which any other environment linked from the same cache
	@# (the Binder simulation's) would move.
	$(BIN)/uv pip install --quiet --python $(BIN)/python --link-mode copy -r requirements-dev.txt
	@# The book's apparatus (clfbook) and the coursework tool (clfcourse) are packages of their
	@# own beside the library in src/, not in its wheel: the environment finds them there.
	$(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))' | \
	  { read -r purelib; echo "$(CURDIR)/src" > "$$purelib/clfbook-src.pth"; }
	@# Byte-compiled ahead: only the packages that both pytest workers import at once when
	@# they collect (lazily, each would compile them) and what a graded notebook imports in
	@# its sandbox, which cannot write (PRECOMPILE, not their test suites). Every other module
	@# is compiled by the first process that imports it and kept (see `unexport` above).
	@# Measured on a clean clone with a cold uv cache: set-up 116 s of CPU when it compiled
	@# all 9,500 modules, 66 s compiling none, 91 s with this; compiling none made the two
	@# workers' collection cost 24 s more (each compiled the same modules at the same time);
	@# the book build, JupyterLab, otter, Spark and Dask compile about 7 s more lazily.
	cd "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" && \
	  $(abspath $(BIN))/python -m compileall -q -j 0 --invalidation-mode timestamp \
	  -x '/tests?/' $(PRECOMPILE)
	@# The library and the tests' helpers too (the editable install leaves src/ alone).
	$(BIN)/python -m compileall -q -j 0 --invalidation-mode timestamp -x /node_modules/ src tests benchmarks
	@# Build matplotlib's font cache now, so the first chapter does not print it to stderr.
	MPLBACKEND=Agg $(BIN)/python -c "import matplotlib.pyplot"
	@# JupyterLab opens a chapter as a notebook that reads like the page (README).
	mkdir -p $(VENV)/etc/jupyter && cp -r binder/jupyter/. $(VENV)/etc/jupyter/
	touch $@

book: $(STAMP)
	$(BIN)/jupyter-book build . $(BUILD_FLAGS)
	@echo "The book is at $(CURDIR)/_build/html/index.html"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

# Two workers (pytest-xdist) and the book build in the background: the longest units start
# first, the tests that read the built book come last, the browser tests spread over both
# workers by page (tests/conftest.py sets that order and explains the grouping).
PYTEST_WORKERS ?= 2
# The suite's two plugins, named: the others that autoload (anyio, platformdirs) serve no
# test, and pytest rewrites every plugin module's asserts in each process at each run (with
# PYTHONDONTWRITEBYTECODE it cannot keep them): 3 s of CPU per process, measured.
PYTEST_PLUGINS := -p xdist.plugin -p _hypothesis_pytestplugin

test: lint $(CHROMIUM) $(BWRAP)
	PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(BIN)/python -m pytest $(PYTEST_PLUGINS) \
	  -n $(PYTEST_WORKERS) --dist loadgroup

# The browser tests drive Debian's Chromium; Playwright's own browser download is never used.
$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests"
	$(call APT_INSTALL,chromium)

# Students' notebooks are graded in a bubblewrap sandbox (Debian's bubblewrap), installed the same way.
$(BWRAP):
	@echo "Installing Debian's bubblewrap for the grading sandbox"
	$(call APT_INSTALL,bubblewrap)

serve: book
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html $(PORT)

# The full bench audits pages with Lighthouse (npm, pinned in benchmarks/package.json) in
# Debian's Chromium; npm comes from Debian when missing.
NPM := /usr/bin/npm

bench: $(STAMP) $(CHROMIUM) $(if $(QUICK),,$(NPM))
	$(BIN)/python benchmarks/run.py $(if $(QUICK),--quick)

$(NPM):
	@echo "Installing Debian's nodejs and npm for Lighthouse (make bench)"
	$(call APT_INSTALL,nodejs npm)

clean:
	rm -rf _build

# otter assign on every chapter with exercises; `make grade` re-runs it when a chapter has changed.
MANIFEST := _build/assignments/manifest.json

ASSIGN := $(BIN)/python -m clfcourse assign $(if $(JOBS),--jobs $(JOBS)) $(if $(HIDDEN),--hidden "$(HIDDEN)")

assignments: $(STAMP)
	$(ASSIGN)

$(MANIFEST): $(STAMP) _toc.yml $(wildcard chapters/*.md) $(wildcard src/clfcourse/*.py)
	$(ASSIGN)

# Checked when the Makefile is read, so a missing folder stops before any set-up work.
ifneq ($(filter grade,$(MAKECMDGOALS)),)
ifeq ($(SUBMISSIONS),)
$(error usage: make grade SUBMISSIONS=dir [TIMEOUT=seconds] [JOBS=n])
endif
endif

# Without a sandbox (no bwrap, or it fails its probe) grading refuses to run students' code,
# unless UNSAFE_NO_SANDBOX=1 accepts that a notebook may then read, change or kill anything you can.
grade: $(MANIFEST) $(if $(UNSAFE_NO_SANDBOX),,$(BWRAP))
	$(BIN)/python -m clfcourse grade "$(SUBMISSIONS)" $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(JOBS),--jobs $(JOBS)) $(if $(UNSAFE_NO_SANDBOX),--unsafe-no-sandbox) $(foreach f,$(PICK),--pick "$(f)")
