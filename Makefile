# The two commands of the README: `make book` and `make test`.
# Both create .venv when it is missing and install the pinned dependencies once;
# the stamp file makes a re-run skip the install until a requirements file changes.

SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEPS := requirements.txt requirements-book.txt requirements-dev.txt pyproject.toml
BUILD_FLAGS := -W -n --keep-going
PORT ?= 8000

.PHONY: help setup book test lint serve clean bench

help:
	@echo "make book   set up .venv, execute the chapters and build _build/html"
	@echo "make test   set up .venv and run the whole test suite (lint, unit, chapters, book)"
	@echo "make serve  build, then serve the book on http://127.0.0.1:$(PORT)"
	@echo "make bench  time the library, chapters and derivations (QUICK=1: seconds)"
	@echo "make clean  remove _build (keeps .venv)"

setup: $(STAMP)

$(STAMP): $(DEPS)
	@if [ ! -x $(BIN)/python ]; then \
	  $(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	    echo "python3 -m venv failed; trying the virtualenv package instead"; \
	    rm -rf $(VENV); \
	    $(PYTHON) -m pip install --quiet virtualenv && $(PYTHON) -m virtualenv --quiet $(VENV); }; \
	fi
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@# Build matplotlib's font cache now, so the first chapter does not print it to stderr.
	MPLBACKEND=Agg $(BIN)/python -c "import matplotlib.pyplot"
	touch $@

book: $(STAMP)
	$(BIN)/jupyter-book build . $(BUILD_FLAGS)
	@echo "The book is at $(CURDIR)/_build/html/index.html"

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

test: lint
	$(BIN)/python -m pytest

serve: book
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory _build/html $(PORT)

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py $(if $(QUICK),--quick)

clean:
	rm -rf _build
