"""Shared fixtures: the whole book is built once per test run, in the background.

``make test`` runs the suite on two pytest-xdist workers. The book build (every chapter
executed on a fresh kernel, warnings as errors) is the longest single step, so it starts as
soon as the tests are collected, as a separate process, and the workers go on with the tests
that do not need it. Whichever worker first asks for ``built_html`` waits for that one build;
no worker builds the book twice. The build directory is shared by the workers of one run
(under the run's base temporary directory) and by no other run. The Binder simulation
(``binder_env.py``: a fresh environment from ``binder/`` alone) runs the same way, beside
the workers instead of holding one (``BACKGROUND``).

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
3. the units that wait for a background job (the built book, the Binder environment): by
   then the jobs have long ended, and the units are small (one page each for the browser
   tests), which keeps the two workers finishing together.
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
from rewrite_cache import share_rewrites

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
    "jupyterlab",  # tests/test_jupyterlab.py: one JupyterLab, the construct cover: ~60 s CPU
    "tests/test_coursework.py",  # otter assign (shared), chapter 1 graded, teacher runs: ~55 s
    "coursework-mini",  # sandboxed batches: attacks, hostile class, bounds, gradebook: ~80 s
    "tests/test_engines_spark.py",  # the JVM starts: ~35 s
    "tests/test_bench.py",  # make bench QUICK=1, Chromium included: ~30 s CPU
    "tests/test_coursework_grader.py",  # time limits, runaways, the unsandboxed touch: ~30 s
    "tests/test_selfcheck.py",  # tiny Sphinx builds, Chromium
)
BUILD_TIMEOUT = 1500  # seconds; a cold build takes about five minutes beside the workers
#: The workers' niceness beside the background jobs (CFS gives a nice-0 process about three
#: times the CPU share of a nice-5 one; see ``pytest_collection_finish``).
WORKER_NICENESS = 5
BINDER_TIMEOUT = 1800  # seconds; installs the Binder requirements, executes a chapter
#: For targeted runs while working on the book-reading tests: the path of an already built
#: ``_build/html`` to read instead of building the book again. ``make test`` never sets it.
REUSE_BOOK = "CLFMETRICS_BUILT_HTML"


def _job_dir(config: pytest.Config, name: str) -> Path:
    """A background job's folder: one per pytest run, seen by every xdist worker."""
    base = config._tmp_path_factory.getbasetemp()  # no public accessor outside a fixture
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # each worker's basetemp is popen-gwN below the run's basetemp
    return base / name


def _book_command(out: Path) -> list[str]:
    flags = ["-W", "-n", "--keep-going"]
    return [str(JUPYTER_BOOK), "build", str(ROOT), "--path-output", str(out), *flags]


def _binder_command(out: Path) -> list[str]:
    return [sys.executable, str(ROOT / "tests" / "binder_env.py"), str(out)]


#: The background jobs, by the fixture that waits for each: (folder name, command, timeout).
#: A job starts once per run, when a selected test asks for its fixture, and runs beside the
#: workers; the tests that wait for it are handed out last (module docstring).
BACKGROUND = {
    "built_html": ("book", _book_command, BUILD_TIMEOUT),
    "binder_env": ("binder", _binder_command, BINDER_TIMEOUT),
}


def _start_job(config: pytest.Config, fixture: str) -> None:
    """Start a background job once per run (the first process to get here starts it)."""
    name, command, _ = BACKGROUND[fixture]
    folder = _job_dir(config, name)
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / "start.lock")):
        if (folder / "started").exists():
            return
        # The shell writes the exit status only when the job has ended, so that file is
        # the signal the waiting fixture polls for.
        script = '"$@"; echo $? > "$JOB_STATUS"'
        with open(folder / "job.log", "w") as log:
            process = subprocess.Popen(
                ["bash", "-c", script, name, *command(folder / "out")],
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "JOB_STATUS": str(folder / "status")},
                start_new_session=True,
            )
        (folder / "started").write_text(str(process.pid))


def _wait_for_job(config: pytest.Config, fixture: str) -> tuple[bool, str, Path]:
    """Wait for a background job to end: (succeeded, its log, its output folder)."""
    name, _, timeout = BACKGROUND[fixture]
    folder = _job_dir(config, name)
    status = folder / "status"
    deadline = time.monotonic() + timeout
    while not status.exists() or not status.read_text().strip():
        assert (folder / "started").exists(), f"the {name} job was never started"
        assert time.monotonic() < deadline, f"the {name} job still running after {timeout} s"
        time.sleep(1)
    log = (folder / "job.log").read_text(errors="replace")
    return status.read_text().strip() == "0", log, folder / "out"


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "loadscopereorder", False):
        config.option.loadscopereorder = False  # keep the order set below (module docstring)
    share_rewrites(config)  # each xdist worker rewrites the asserts of its share of the files


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
    waits = {_group(i) for i in items if set(BACKGROUND) & set(getattr(i, "fixturenames", ()))}

    def rank(group: str) -> tuple[int, int]:
        if group in LONGEST_FIRST:
            return 0, LONGEST_FIRST.index(group)
        return (2 if group in waits else 1), 0

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
    """Start each background job only if a selected test needs it (after -m and -k)."""
    if session.config.option.collectonly:
        return
    for fixture in BACKGROUND:
        if fixture == "built_html" and os.environ.get(REUSE_BOOK):
            continue
        if any(fixture in getattr(item, "fixturenames", ()) for item in session.items):
            _start_job(session.config, fixture)
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # The book build is the run's critical path: the tests that read the book wait for
        # it. The workers (and what they start) yield the CPU to it when both want it, and
        # take whatever it leaves; the jobs started above keep the default priority.
        os.nice(WORKER_NICENESS)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that ends early (-x, Ctrl-C) does not leave a background job running.

    Only the process that outlives every worker (the xdist controller, or pytest itself
    without xdist) may stop them: a worker that runs out of tests ends while another may
    still be waiting for a job.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    for name, _, _ in BACKGROUND.values():
        folder = _job_dir(config, name)
        started = folder / "started"
        if started.exists() and not (folder / "status").exists():
            try:
                os.killpg(int(started.read_text()), signal.SIGTERM)
            except ProcessLookupError:
                pass


@pytest.fixture(scope="session")
def built_html(pytestconfig) -> Path:
    """The book built from scratch (cold execution cache) with warnings as errors."""
    if os.environ.get(REUSE_BOOK):
        return Path(os.environ[REUSE_BOOK])
    ok, log, out = _wait_for_job(pytestconfig, "built_html")
    assert ok, f"book build failed:\n{log[-6000:]}"
    return out / "_build" / "html"


@pytest.fixture(scope="session")
def binder_env(pytestconfig) -> tuple[bool, str, Path]:
    """The Binder-like environment of ``binder_env.py``: (it worked, its log, its folder)."""
    return _wait_for_job(pytestconfig, "binder_env")


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


@pytest.fixture(scope="module")
def shared_context(browser):
    """One browser context for every page of a test module (the pages keep no storage): the
    book's static files are fetched and compiled once per module, not once per page."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    yield context
    context.close()
