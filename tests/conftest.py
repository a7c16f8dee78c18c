"""Shared fixtures, the suite's tiers, and the one book build of a run, in the background.

Tiers: a test that needs something heavy carries a marker named for it (pyproject.toml lists
them). ``tests/support/tiers.py`` adds the marker of each fixture a test uses (``built_html``:
``book``, ``browser``: ``browser`` ...) and fails a test that reaches such a fixture without
its marker; a file whose needs no fixture shows says so with ``pytestmark``. ``make check``
runs the tests that need none of them; ``make test`` runs every test.

``make test`` runs the suite on two pytest-xdist workers, a test file to a worker
(``--dist loadfile``, so a file's module fixtures, such as the coursework's ``otter assign``,
run once). The book build (every chapter executed on a fresh kernel, warnings as errors) is
the longest single step, so it starts as soon as the tests are collected, as a separate
process, and the workers go on with the tests that do not need it. Whichever worker first asks
for ``built_html`` waits for that one build; no worker builds the book twice. The Binder
simulation (``support/binder_env.py``: a fresh environment from ``binder/`` alone) runs the
same way (``BACKGROUND``). The files that wait for a background job are collected last, and
``make test`` hands the files out in that order (``--no-loadscope-reorder``), so the workers
keep busy while the jobs run.

A background job's folder is shared by the workers of one run and by no other run: it is
named after the run's id, which pytest-xdist hands every worker (``PYTEST_XDIST_TESTRUNUID``),
in a folder of the checkout's own under the system's temporary folder (``RUNS``).
"""

from __future__ import annotations

import getpass
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from chapter_runner import ROOT
from filelock import FileLock

pytest_plugins = ["pytester", "tiers"]

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
BUILD_TIMEOUT = 1500  # seconds; a cold build takes minutes beside two busy workers
BINDER_TIMEOUT = 1800  # seconds; installs the Binder requirements, executes a chapter
PDF_TIMEOUT = BUILD_TIMEOUT + 900  # seconds; waits for the book, then builds one page, prints
#: For targeted runs while working on the book-reading tests: the path of an already built
#: ``_build/html`` to read instead of building the book again. ``make test`` never sets it.
REUSE_BOOK = "CLFMETRICS_BUILT_HTML"
#: The background jobs' folders of this checkout's last runs, one per run (each may hold a
#: built book): the oldest beyond KEEP_RUNS go, unless a job of theirs may still be running.
RUNS = (
    Path(tempfile.gettempdir())
    / f"clfmetrics-tests-{getpass.getuser()}"
    / hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
)
KEEP_RUNS = 3
RUN_ID = pytest.StashKey[str]()


def _book_command(out: Path) -> list[str]:
    flags = ["-W", "-n", "--keep-going"]
    return [str(JUPYTER_BOOK), "build", str(ROOT), "--path-output", str(out), *flags]


#: Once the book job has ended well, the whole book as one PDF into its ``_build/html``: its
#: pages joined into one, printed by Chromium (``make pdf``'s tool).
_AFTER_BOOK = """
book="$1"; shift
while [ ! -s "$book/status" ]; do sleep 2; done
[ "$(cat "$book/status")" = 0 ] || { echo "the book job failed: no PDF"; exit 1; }
exec "$@"
"""


def _pdf_command(out: Path) -> list[str]:
    book = out.parent.parent / "book"  # the book job's folder of the same run
    tool = [sys.executable, "-m", "clfbook.tooling.pdf", "--root", str(ROOT)]
    return ["bash", "-c", _AFTER_BOOK, "pdf", str(book), *tool, "--path-output", str(book / "out")]


def _binder_command(out: Path) -> list[str]:
    return [sys.executable, str(ROOT / "tests" / "support" / "binder_env.py"), str(out)]


#: The background jobs, by the fixture that waits for each: (folder name, command, timeout).
#: A job starts once per run, when a selected test asks for its fixture, and runs beside the
#: workers.
BACKGROUND = {
    "built_html": ("book", _book_command, BUILD_TIMEOUT),
    "binder_env": ("binder", _binder_command, BINDER_TIMEOUT),
    # after the book's job (it reads that job's execution cache and writes into its build)
    "built_pdf": ("pdf", _pdf_command, PDF_TIMEOUT),
}


def pytest_configure(config: pytest.Config) -> None:
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    if run is None:  # the xdist controller, or pytest without xdist
        run = getattr(config.option, "testrunuid", None) or uuid.uuid4().hex
        if hasattr(config.option, "testrunuid"):
            config.option.testrunuid = run  # xdist's --testrunuid: its workers get this one
        _prune_runs()
    config.stash[RUN_ID] = run


def _prune_runs() -> None:
    """Remove the folders of all but the newest earlier runs, and none whose job may run.

    A job that started and wrote no exit status may still run (another pytest of this
    checkout at the same time), unless its run is older than any job's timeout.
    """
    if not RUNS.is_dir():
        return
    runs = sorted(RUNS.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
    longest = max(timeout for _, _, timeout in BACKGROUND.values())
    for old in runs[KEEP_RUNS - 1 :]:
        running = any(
            (job / "started").exists() and not (job / "status").exists() for job in old.iterdir()
        )
        if not running or time.time() - old.stat().st_mtime > longest:
            shutil.rmtree(old, ignore_errors=True)


def _job_dir(config: pytest.Config, name: str) -> Path:
    """A background job's folder: one per pytest run, seen by every xdist worker."""
    return RUNS / config.stash[RUN_ID] / name


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


def _waits(item: pytest.Item) -> bool:
    return bool(set(BACKGROUND) & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files with a test that waits for a background job go last (stable otherwise)."""
    waiting = {item.nodeid.split("::")[0] for item in items if _waits(item)}
    items.sort(key=lambda item: item.nodeid.split("::")[0] in waiting)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start each background job only if a selected test needs it (after -m and -k)."""
    if session.config.option.collectonly:
        return
    for fixture in BACKGROUND:
        if fixture in ("built_html", "built_pdf") and os.environ.get(REUSE_BOOK):
            continue
        if any(fixture in getattr(item, "fixturenames", ()) for item in session.items):
            _start_job(session.config, fixture)


def pytest_unconfigure(config: pytest.Config) -> None:
    """A run that ends early (-x, Ctrl-C) does not leave a background job running.

    Only the process that outlives every worker (the xdist controller, or pytest itself
    without xdist) may stop them: a worker that runs out of tests ends while another may
    still be waiting for a job.
    """
    if os.environ.get("PYTEST_XDIST_WORKER") or RUN_ID not in config.stash:
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
def built_pdf(pytestconfig, built_html) -> Path:
    """The whole book as one PDF (``make pdf``), beside the built book it was printed from."""
    from clfbook.tooling.pdf import PDF

    if not os.environ.get(REUSE_BOOK):
        ok, log, _ = _wait_for_job(pytestconfig, "built_pdf")
        assert ok, f"the PDF's build failed:\n{log[-6000:]}"
    return built_html / PDF


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
