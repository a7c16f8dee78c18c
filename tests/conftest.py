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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the build only if a selected test needs it (after -m and -k have deselected)."""
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
