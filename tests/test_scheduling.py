"""The suite's schedule on pytest-xdist workers (``tests/conftest.py``), on a tiny suite.

A test file is one unit of work, so its module fixtures run once; the longest units come
first and the units that read the built book come last. pytest 9.2 with pytest-xdist 3.8 had
silently lost the grouping (every test its own unit, the coursework's ``otter assign`` run on
both workers), which is why this is checked in a real two-worker run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent

#: The suite's hooks under a name of their own (the tiny suite has its own ``conftest``).
CONFTEST = f"""
import importlib.util, sys

import pytest

sys.path.insert(0, {str(TESTS)!r})
spec = importlib.util.spec_from_file_location("suite_conftest", {str(TESTS / "conftest.py")!r})
suite = importlib.util.module_from_spec(spec)
spec.loader.exec_module(suite)
pytest_configure = suite.pytest_configure
pytest_collection_modifyitems = suite.pytest_collection_modifyitems  # tryfirst kept


@pytest.fixture(scope="session")
def built_html():
    return None
"""

MANY = """
import pytest


@pytest.mark.parametrize("i", range(12))
def test_many(i):
    pass
"""


def _suite(root: Path) -> None:
    (root / "tests").mkdir()
    (root / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")  # the root is rootdir
    (root / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (root / "tests" / "test_aaa.py").write_text(MANY, encoding="utf-8")
    (root / "tests" / "test_bbb.py").write_text(MANY, encoding="utf-8")
    (root / "tests" / "test_book.py").write_text(
        "def test_reads_the_book(built_html):\n    pass\n", encoding="utf-8"
    )
    (root / "tests" / "test_bench.py").write_text("def test_slow():\n    pass\n", encoding="utf-8")


def _pytest(root: Path, *args: str) -> str:
    """pytest on the tiny suite, with xdist the only plugin loaded: the suite's hooks and
    xdist are what is checked, and the installed plugins that autoload (hypothesis, anyio,
    ...) would only be imported three times over, by the controller and both workers."""
    plugins = ["-p", "no:cacheprovider", "-p", "xdist.plugin"]
    out = subprocess.run(
        [sys.executable, "-m", "pytest", *plugins, *args],
        cwd=root,
        env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout


def test_each_file_is_one_unit_and_the_longest_start_first(tmp_path):
    """One two-worker run. The queue is bench (a longest unit), aaa, bbb, book (needs the
    book): bench goes to one worker with bbb queued behind it, aaa to the other, and the book
    unit waits until one of them runs low, so it is the last on whichever worker takes it.
    xdist's own order (by count) would start aaa and bbb first and leave bench for later."""
    _suite(tmp_path)
    out = _pytest(tmp_path, "-n", "2", "--dist", "loadgroup", "-v", "tests")
    ran = re.findall(r"\[(gw\d)\] .*?PASSED (\S+?)::", out)
    workers = defaultdict(set)
    for worker, path in ran:
        workers[path].add(worker)
    assert set(workers) == {f"tests/test_{n}.py" for n in ("aaa", "bbb", "book", "bench")}, out
    assert all(len(w) == 1 for w in workers.values()), textwrap.shorten(str(dict(workers)), 500)
    assert workers["tests/test_bench.py"] == workers["tests/test_bbb.py"]
    assert workers["tests/test_bench.py"] != workers["tests/test_aaa.py"]
    # Orders within one worker only: across workers the reports interleave as the load has it
    # (a stalled worker let the book's report come before bench's on a loaded machine).
    order = [path for _, path in ran]
    assert order.index("tests/test_bench.py") < order.index("tests/test_bbb.py"), order
    (book_worker,) = workers["tests/test_book.py"]
    on_book_worker = [path for worker, path in ran if worker == book_worker]
    assert on_book_worker[-1] == "tests/test_book.py", on_book_worker
