# The two commands of the README: `make book` and `make test`.
# Both create .venv when it is missing and install the pinned dependencies once: `make book`
# what the book needs (requirements-book.txt), `make test` the test toolchain on top
# (requirements-dev.txt). A stamp file per stage makes a re-run skip its install until one of
# its requirements files changes. The pins are generated from pyproject.toml's ranges
# (`make requirements`).

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The set-up in three stages, each a stamp: uv; the book (reader's kernel, Jupyter Book,
# JupyterLab, the library); everything the tests need besides (STAMP: what lint and test use).
UV_STAMP := $(VENV)/.uv
BOOK_STAMP := $(VENV)/.book
STAMP := $(VENV)/.test
BOOK_DEPS := requirements.txt requirements-book.txt pyproject.toml \
	binder/jupyter/jupyter_server_config.py binder/jupyter/labconfig/default_setting_overrides.json
DEPS := requirements-dev.txt
#: npm's Temml, installed by `npm ci` (the book's formulas are converted to MathML with it), and
#: Debian's Latin Modern Math (they draw with it).
TEMML := _ext/npm/node_modules/temml/package.json
MATH_FONT := /usr/share/texmf/fonts/opentype/public/lm-math/latinmodern-math.otf
BUILD_FLAGS := -W -n --keep-going
PORT ?= 8000
CHROMIUM := /usr/bin/chromium
BWRAP := /usr/bin/bwrap
PDFTOTEXT := /usr/bin/pdftotext
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
#: Compiled at set-up all the same (see there): what a chapter's kernel, every pytest worker at
#: collection and a graded notebook's sandbox import; the book's stage compiles the first list,
#: the tests' stage the second. A package missing here costs time, not correctness.
PRECOMPILE_BOOK := numpy scipy sympy mpmath pandas sklearn matplotlib playwright IPython \
	markdown_it narwhals ipykernel otter nbclient nbformat jupyter_client zmq tornado traitlets \
	jupytext
PRECOMPILE_TEST := hypothesis _pytest

# Independent prerequisites run side by side: on a fresh machine Debian's packages download
# and unpack while uv installs the Python ones.
MAKEFLAGS += --jobs=2

.PHONY: help setup requirements html book pdf test check lint serve clean bench assignments grade

help:
	@echo "make book   set up .venv, execute the chapters and build _build/html, its PDF and notebooks' zip"
	@echo "make pdf    the same: the HTML book (from the execution cache), then the whole book as one PDF"
	@echo "make test   set up .venv and run the whole test suite (lint, unit, chapters, book)"
	@echo "make check  lint and the tests that need no book, browser, sandbox, JVM, Dask or new venv"
	@echo "make serve  build, then serve the book on http://127.0.0.1:$(PORT)"
	@echo "make bench  time the library, chapters and derivations (QUICK=1: seconds)"
	@echo "make clean  remove _build (keeps .venv)"
	@echo "make requirements  regenerate the pinned requirements*.txt from pyproject.toml (keeps today's pins)"
	@echo "make assignments [JOBS=1] [HIDDEN=dir]  otter assign: student, teacher notebooks, autograder zips in _build/assignments"
	@echo "make grade SUBMISSIONS=dir [TIMEOUT=300] [JOBS=1] [HIDDEN=dir]  grade submitted notebooks into _build/grades"
	@echo "           (each in a bubblewrap sandbox; UNSAFE_NO_SANDBOX=1 runs them with your rights when none can be made)"

setup: $(STAMP)

# uv installs the pins: parallel downloads and unpacking (byte-compiling: below), where pip
# does one at a time. uv goes in by the machine's own pip (--python, pip >= 22.3): the venv
# needs no pip of its own, and bootstrapping one (ensurepip) would slow the set-up. An older
# pip bootstraps it.
$(UV_STAMP): requirements-setup.txt
	@if [ ! -x $(BIN)/python ]; then \
	  $(PYTHON) -m venv --without-pip $(VENV) 2>/dev/null || { \
	    echo "python3 -m venv failed; trying the virtualenv package instead"; \
	    rm -rf $(VENV); \
	    $(PYTHON) -m pip install --quiet virtualenv && $(PYTHON) -m virtualenv --quiet $(VENV); }; \
	fi
	$(PYTHON) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check \
	  -r requirements-setup.txt 2>/dev/null || { $(BIN)/python -m ensurepip --upgrade >/dev/null && \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-setup.txt; }
	touch $@

# Copies, not uv's default hard links into its cache: the grader fingerprints the venv's
# files by their change time, which any other environment linked from the same cache (the
# Binder simulation's) would move.
UV_INSTALL := $(BIN)/uv pip install --quiet --python $(BIN)/python --link-mode copy
# Byte-compiled ahead: what a process imports at once when it starts (lazily, each pytest
# worker would compile the same modules at the same time) and what a graded notebook imports
# in its sandbox, which cannot write; not their test suites. Every other module is compiled
# by the first process that imports it and kept (see `unexport` above).
PRECOMPILE = cd "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" && \
	  $(abspath $(BIN))/python -m compileall -q -j 0 --invalidation-mode timestamp -x '/tests?/' $(1)

$(BOOK_STAMP): $(UV_STAMP) $(BOOK_DEPS) | $(TEMML) $(MATH_FONT)
	$(UV_INSTALL) -r requirements-book.txt -e .
	@# The book's apparatus (clfbook) and the coursework tool (clfcourse) are packages of their
	@# own beside the library in src/, not in its wheel: the environment finds them there.
	$(BIN)/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))' | \
	  { read -r purelib; echo "$(CURDIR)/src" > "$$purelib/clfbook-src.pth"; }
	$(call PRECOMPILE,$(PRECOMPILE_BOOK))
	@# The library, the apparatus and the coursework tool too (the editable install leaves src/ alone).
	$(BIN)/python -m compileall -q -j 0 --invalidation-mode timestamp src
	@# Build matplotlib's font cache now, so the first chapter does not print it to stderr.
	MPLBACKEND=Agg $(BIN)/python -c "import matplotlib.pyplot"
	@# JupyterLab opens a chapter as a notebook that reads like the page (README).
	mkdir -p $(VENV)/etc/jupyter && cp -r binder/jupyter/. $(VENV)/etc/jupyter/
	touch $@

# The same pins as the book's (requirements-dev.txt is compiled under requirements-book.txt),
# plus the test toolchain: pytest, the browser, Spark, Dask, repo2docker, the oracles.
$(STAMP): $(BOOK_STAMP) $(DEPS)
	$(UV_INSTALL) -r requirements-dev.txt
	$(call PRECOMPILE,$(PRECOMPILE_TEST))
	$(BIN)/python -m compileall -q -j 0 --invalidation-mode timestamp -x /node_modules/ tests benchmarks
	touch $@

# The pinned files from pyproject.toml's ranges ([project.optional-dependencies] and
# [dependency-groups]), each a full lock for every platform: the reader's kernel
# (requirements.txt, and Binder's copy), the book, the tests, each under the one before.
# uv keeps each pin already in the file that still satisfies its range; to move one:
# `make requirements UPGRADE="--upgrade-package NAME"`. The header of each file names its
# command; tests/test_requirements.py checks the files against pyproject.toml.
COMPILE = $(BIN)/uv pip compile --quiet --universal --python-version 3.11 \
	--annotation-style line $(UPGRADE) pyproject.toml

requirements: $(UV_STAMP)
	$(COMPILE) --extra duckdb --group reader -o requirements.txt
	$(COMPILE) --extra duckdb --group reader -o binder/requirements.txt
	$(COMPILE) --extra duckdb --group book -c requirements.txt -o requirements-book.txt
	$(COMPILE) --extra duckdb --extra spark --extra dask --group test -c requirements-book.txt \
	  -o requirements-dev.txt

# The HTML build also zips every chapter's executed notebook (_ext/book_downloads.py); the PDF
# is the HTML build's pages joined into one, printed by Debian's Chromium
# (src/clfbook/tooling/pdf.py). Both sit at the site's root, linked from every page's footer.
html: $(BOOK_STAMP)
	$(BIN)/jupyter-book build . $(BUILD_FLAGS)

pdf: html $(CHROMIUM)
	$(BIN)/python -m clfbook.tooling.pdf

book: pdf
	@echo "The book is at $(CURDIR)/_build/html/index.html, with evaluating-classifiers.pdf and"
	@echo "evaluating-classifiers-notebooks.zip beside it"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

# Two workers (pytest-xdist), a test file to a worker, the book build in the background; the
# files that read the built book are handed out last (tests/conftest.py explains both).
PYTEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest -n $(PYTEST_WORKERS)
#: The tiers that `make check` leaves out: what a test needs beyond numpy (pyproject.toml).
HEAVY := book or browser or jupyterlab or sandbox or jvm or dask or fresh_env or bench

test: lint $(CHROMIUM) $(BWRAP) $(PDFTOTEXT)
	$(PYTEST) --dist loadfile --no-loadscope-reorder

check: lint
	$(PYTEST) --dist load -m "not ($(HEAVY))"

# The browser tests drive Debian's Chromium; Playwright's own browser download is never used.
$(CHROMIUM):
	@echo "Installing Debian's chromium for the browser tests"
	$(call APT_INSTALL,chromium)

# The PDF's test reads its text and lists its images with Debian's poppler-utils.
$(PDFTOTEXT):
	@echo "Installing Debian's poppler-utils for the PDF's test"
	$(call APT_INSTALL,poppler-utils)

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
	@echo "Installing Debian's nodejs and npm (the book's Temml, make bench's Lighthouse)"
	$(call APT_INSTALL,nodejs npm)

# The book converts its formulas to MathML at build time with npm's Temml under node
# (_ext/page_math.py), pinned in _ext/npm/package.json and its lock file.
$(TEMML): _ext/npm/package-lock.json | $(NPM)
	cd _ext/npm && npm ci --no-audit --no-fund --ignore-scripts
	touch $@

# Their font, which the build cuts to the book's characters (_ext/page_math.py).
$(MATH_FONT):
	@echo "Installing Debian's fonts-lmodern (Latin Modern Math, the formulas' font)"
	$(call APT_INSTALL,fonts-lmodern)

clean:
	rm -rf _build

# otter assign on every chapter with exercises; `make grade` re-runs it when a chapter has changed.
MANIFEST := _build/assignments/manifest.json

ASSIGN := $(BIN)/python -m clfcourse assign $(if $(JOBS),--jobs $(JOBS)) $(if $(HIDDEN),--hidden "$(HIDDEN)")

assignments: $(BOOK_STAMP)
	$(ASSIGN)

$(MANIFEST): $(BOOK_STAMP) _toc.yml $(wildcard chapters/*.md) $(wildcard src/clfcourse/*.py)
	$(ASSIGN)

# Checked when the Makefile is read, so a missing folder stops before any set-up work.
ifneq ($(filter grade,$(MAKECMDGOALS)),)
ifeq ($(SUBMISSIONS),)
$(error usage: make grade SUBMISSIONS=dir [TIMEOUT=seconds] [JOBS=n] [TEXT_POINTS=csv] [LMS=canvas|moodle])
endif
endif

# Without a sandbox (no bwrap, or it fails its probe) grading refuses to run students' code,
# unless UNSAFE_NO_SANDBOX=1 accepts that a notebook may then read, change or kill anything you can.
grade: $(MANIFEST) $(if $(UNSAFE_NO_SANDBOX),,$(BWRAP))
	$(BIN)/python -m clfcourse grade "$(SUBMISSIONS)" $(if $(TIMEOUT),--timeout $(TIMEOUT)) $(if $(JOBS),--jobs $(JOBS)) $(if $(UNSAFE_NO_SANDBOX),--unsafe-no-sandbox) $(foreach f,$(PICK),--pick "$(f)") $(if $(TEXT_POINTS),--text-points "$(TEXT_POINTS)") $(if $(LMS),--lms $(LMS))
