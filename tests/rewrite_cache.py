"""The xdist workers share pytest's rewriting of the test modules' asserts.

pytest rewrites the asserts of every test module in each process that imports it, and keeps
the result in ``__pycache__`` only where Python may write bytecode. Where it may not
(``PYTHONDONTWRITEBYTECODE``, set on this machine and CI's), each of the two workers rewrote
every test file at collection: 6 s of CPU each, measured, a third of a worker's collection;
where it may (``make test`` unsets it), both workers, collecting at the same moment, still
rewrote nearly every file before the other had cached it. Here, before
collecting, worker k of n rewrites every n-th test file it is about to collect and caches
it where pytest looks; at collection pytest reads those caches (it checks them against the
source's hash, so an edited file is rewritten again), finds the other workers' share cached
too, or rewrites a file itself when its cache is not there yet. A later run reads them all.

This uses pytest's own rewriting and cache format (``_pytest.assertion.rewrite``, pytest
pinned in requirements-dev.txt); when these change, it does nothing and pytest rewrites as
before.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
from pathlib import Path

import pytest


def _test_files(config: pytest.Config) -> list[Path]:
    """The test modules and conftests under the run's arguments (``testpaths`` when none)."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    found: set[Path] = set()
    for arg in config.args:
        path = Path(config.invocation_params.dir, arg.split("::")[0])
        candidates = path.rglob("*.py") if path.is_dir() else [path]
        found.update(
            p.resolve()
            for p in candidates
            if p.suffix == ".py" and any(fnmatch.fnmatch(p.name, pat) for pat in patterns)
        )
    return sorted(found)


def share_rewrites(config: pytest.Config) -> None:
    """On an xdist worker: rewrite and cache this worker's share of the test modules."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "0") or 0)
    if not worker.startswith("gw") or count < 2 or config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        tail = rewrite.PYC_TAIL
    except (ImportError, AttributeError, KeyError):
        return
    index = int(worker[2:])
    for source in _test_files(config)[index::count]:
        cache = rewrite.get_cache_dir(source)
        pyc = cache / (source.name[:-3] + tail)
        with contextlib.suppress(Exception):  # any trouble: pytest rewrites it at collection
            if rewrite._read_pyc(source, pyc) is None and rewrite.try_makedirs(cache):
                source_hash, code = rewrite._rewrite_test(source, config)
                rewrite._write_pyc(state, code, source_hash, pyc)
