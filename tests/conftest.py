"""Shared fixtures: the whole book is built once per test run, in the background.

``make test`` runs the suite on two pytest-xdist workers. The book build (every chapter
executed on a fresh kernel, warnings as errors) is the longest single step, so it starts as
soon as a worker has collected a test that needs it, as a separate process, and the workers
go on with the tests that do not need it. Whichever worker first asks for ``built_html``
waits for that one build; no worker builds the book twice. The build directory is shared by
the workers of one run (under the run's base temporary directory) and by no other run.

Tests are grouped for ``--dist loadgroup``: a test file is one unit of work (its module
fixtures, such as the coursework's ``otter assign``, run once), except where a file groups
its own tests more finely (the browser tests group by page).

The units are handed out in the order of the collected items, which this file sets (and
xdist's own reordering, by the number of tests in a unit, is switched off: it put the
single-test units that take a minute or more, such as the Binder simulation, at the very
end, where one worker ran them while the other had nothing left to do):

1. the longest units that need no book (``LONGEST_FIRST``), longest first, so that they run
   while the book builds;
2. every other unit that needs no book, in file order;
3. the units that read the built book (``built_html``): by then the build has long ended,
   and they are small (one page each for the browser tests), which keeps the two workers
   finishing together.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from chapter_runner import ROOT
from filelock import FileLock

JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"
CHROMIUM = Path("/usr/bin/chromium")
#: Debian's Chromium, headless, with nothing that would reach for the network on its own.
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The units that take longest and need no book, longest first (seconds of a full run on a
#: loaded two-core machine). Started first, each overlaps the book build and the other worker.
LONGEST_FIRST = (
    "jupyterlab",  # tests/test_jupyterlab.py: a JupyterLab server, every chapter opened
    "tests/test_binder_simulation.py",  # a fresh venv from binder/, two chapters: ~90 s
    "tests/test_coursework.py",  # otter assign on every chapter, one grading run: ~75 s
    "tests/test_gradebook.py",  # a grading run of its own (reads the same otter assign)
    "tests/test_bench.py",  # make bench QUICK=1, Chromium included: ~50 s
    "tests/test_selfcheck.py",  # tiny Sphinx builds, Chromium
    "tests/test_engines_spark.py",  # the JVM starts: ~17 s
)
BUILD_TIMEOUT = 900  # seconds; a cold build takes about two minutes on an idle two-core machine


def _book_dir(config: pytest.Config) -> Path:
    """The run's shared build folder: one per pytest run, seen by every xdist worker."""
    base = config._tmp_path_factory.getbasetemp()  # no public accessor outside a fixture
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # each worker's basetemp is popen-gwN below the run's basetemp
    return base / "book"


def _start_build(config: pytest.Config) -> None:
    """Start the book build once per run (the first worker to get here starts it)."""
    folder = _book_dir(config)
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / "start.lock")):
        if (folder / "started").exists():
            return
        command = [
            str(JUPYTER_BOOK),
            "build",
            str(ROOT),
            "--path-output",
            str(folder / "out"),
            "-W",
            "-n",
            "--keep-going",
        ]
        # The shell writes the exit status only when the build has ended, so that file is
        # the signal the waiting fixture polls for.
        script = '"$@"; echo $? > "$BOOK_STATUS"'
        with open(folder / "build.log", "w") as log:
            process = subprocess.Popen(
                ["bash", "-c", script, "build", *command],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "BOOK_STATUS": str(folder / "status")},
                start_new_session=True,
            )
        (folder / "started").write_text(str(process.pid))


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "loadscopereorder", False):
        config.option.loadscopereorder = False  # keep the order set below (module docstring)


def _group(item: pytest.Item) -> str:
    """The item's unit of work, named as xdist's loadgroup names it."""
    names = {
        str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
        for mark in item.iter_markers("xdist_group")
    }
    return "_".join(sorted(names))


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
    needs_book = {_group(i) for i in items if "built_html" in getattr(i, "fixturenames", ())}

    def rank(group: str) -> tuple[int, int]:
        if group in LONGEST_FIRST:
            return 0, LONGEST_FIRST.index(group)
        return (2 if group in needs_book else 1), 0

    items.sort(key=lambda item: rank(_group(item)))  # stable: file order within a rank
    if getattr(config.option, "loadgroup", False):  # an xdist worker under --dist loadgroup
        _name_groups(items)


def _name_groups(items: list[pytest.Item]) -> None:
    """Append ``@group`` to each node id, where pytest 9.2 reads it.

    The controller learns a test's group from that suffix alone. pytest-xdist 3.8 writes it
    into ``item._nodeid``, which pytest 9.2 no longer reads (its node ids are structured,
    ``item._id``), so every test became a unit of its own: module fixtures such as the
    coursework's ``otter assign`` ran once on each worker, and a page's browser tests were
    spread over both (pytest-xdist issue 1386). Older pytest needs nothing: xdist's own hook
    does it.
    """
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # pytest < 9.2
        return
    for item in items:
        if isinstance(getattr(item, "_id", None), NodeId) and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{_group(item)}")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the build only if a selected test needs it (after -m and -k have deselected)."""
    if session.config.option.collectonly:
        return
    if any("built_html" in getattr(item, "fixturenames", ()) for item in session.items):
        _start_build(session.config)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that ends early (-x, Ctrl-C) does not leave its book build running.

    Only the process that outlives every worker (the xdist controller, or pytest itself
    without xdist) may stop it: a worker that runs out of tests ends while another may still
    be waiting for the book.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    folder = _book_dir(config)
    started = folder / "started"
    if started.exists() and not (folder / "status").exists():
        try:
            os.killpg(int(started.read_text()), signal.SIGTERM)
        except ProcessLookupError:
            pass


@pytest.fixture(scope="session")
def built_html(pytestconfig) -> Path:
    """The book built from scratch (cold execution cache) with warnings as errors."""
    folder = _book_dir(pytestconfig)
    status = folder / "status"
    deadline = time.monotonic() + BUILD_TIMEOUT
    while not status.exists() or not status.read_text().strip():
        assert (folder / "started").exists(), "the book build was never started"
        assert time.monotonic() < deadline, f"book build still running after {BUILD_TIMEOUT} s"
        time.sleep(1)
    log = (folder / "build.log").read_text()
    assert status.read_text().strip() == "0", f"book build failed:\n{log[-6000:]}"
    return folder / "out" / "_build" / "html"


@pytest.fixture(scope="session")
def browser():
    """One Chromium per worker, shared by every browser test of the run.

    Playwright's sync API allows one running instance per thread, so the book's pages, the
    page explorers and the self-checks all use this one (each test opens its own context).
    """
    from playwright.sync_api import sync_playwright

    assert CHROMIUM.exists(), "make test installs Debian's chromium; it is missing"
    with sync_playwright() as pw:
        launched = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_FLAGS
        )
        yield launched
        launched.close()
