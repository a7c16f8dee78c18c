"""One ``otter assign`` run per pytest run, shared by the coursework test files.

Assigning every chapter takes minutes; the files that read its products (``test_coursework.py``,
``test_coursework_notebooks.py``, ``test_gradebook.py``) may run on different xdist workers, so
the first to ask runs it under a file lock in the run's base temporary folder and the others
wait for it and read the same folder. :func:`book_assignment` reads each chapter's exercises
once per process for the tests that read them (about a second for all the chapters).
:func:`compiled_library` gives the library's bytecode to every kernel the coursework tests start.
"""

from __future__ import annotations

import compileall
import functools
import json
import os
from pathlib import Path

import pytest
from filelock import FileLock

from clfcourse import Assignment, build_assignment
from clfcourse.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def compiled_library() -> None:
    """Byte-compile the library in place (``__pycache__``, as an import would), once per run.

    Where ``PYTHONDONTWRITEBYTECODE`` is set (it is on this project's machines) no process
    caches the library's bytecode, and a sandbox's read-only library never could: every kernel
    the coursework tests start then compiles each library module it imports, again and again.
    A teacher's grader finds the bytecode that the library's first import wrote. Files already
    compiled are left as they are (a later call is cheap).
    """
    compileall.compile_dir(ROOT / "src" / "clfmetrics", quiet=1)


def assigned_once(factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """``make assignments`` (without otter's own test run) into a folder shared by the run."""
    compiled_library()
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # each worker's basetemp is popen-gwN below the run's basetemp
    folder = base / "assignments"
    with FileLock(str(base / "assignments.lock")):
        manifest = folder / "manifest.json"
        if not manifest.exists():
            args = ["--root", str(ROOT), "assign", "--out", str(folder), "--no-run-tests"]
            assert main([*args, "--jobs", "2"]) == 0
    return folder, json.loads(manifest.read_text())


def book_assignment(path: Path) -> Assignment:
    """The book chapter ``path`` read as an assignment (:func:`build_assignment`), once per
    process: several tests read every chapter's exercises, and none changes them."""
    return _book_assignment(Path(path).resolve())


@functools.cache
def _book_assignment(path: Path) -> Assignment:
    return build_assignment(path, ROOT)
