"""Each submission's scoring process, forked from a server that imported what scoring needs.

Scoring a submission's values (``isolated score``, see :mod:`.isolated`) needs otter's test
runner, and importing it imports otter's whole API (pandas, nbconvert): slow, and paid once
per submission when each score starts a new interpreter. Here multiprocessing's
``forkserver`` imports it once per grader (:mod:`._score_preload`) and forks one process per
score, so the guarantees of a process per submission hold:

- the server never holds a student's values: it only forks; each child is a fresh copy of it,
  so nothing one submission's scoring leaves in memory reaches another's;
- the child takes the limits, session, folder and environment the scoring command had
  (:func:`.isolated.limits`, the score folder, :func:`.runner._environment`), writes its report
  and its errors to the same files, and ends; a time-out kills its process tree;
- the server and its socket live outside every sandbox (the sandbox's ``/tmp``, network and
  PID namespace are its own) and end with the grader.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import tempfile
import threading
import traceback
from pathlib import Path

import psutil

from . import isolated

#: The module the server imports before it forks (what every score needs).
PRELOAD = f"{__package__}._score_preload"

_CONTEXT: list = []
_LOCK = threading.Lock()


def kill_tree(pid: int) -> None:
    """Kill a process and every descendant (otter's kernel runs in its own session)."""
    try:
        parent = psutil.Process(pid)
        procs = [*parent.children(recursive=True), parent]
    except psutil.NoSuchProcess:
        return
    for proc in procs:
        try:
            proc.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(procs, timeout=10)


def _context():
    with _LOCK:
        if not _CONTEXT:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload([PRELOAD])
            _CONTEXT.append(context)
    return _CONTEXT[0]


def _child(argv: list[str], cwd: str, env: dict, limits: tuple, out: str, log: str) -> None:
    """In the forked process: become the scoring command, run it, end with its exit code."""
    code = 1
    try:
        isolated.limits(*limits)()  # its own session and the scorer's limits, as the command had
        for fd, path in ((1, out), (2, log)):
            target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(target, fd)
            os.close(target)
        sys.stdout = open(1, "w", closefd=False)
        sys.stderr = open(2, "w", closefd=False)
        os.chdir(cwd)
        os.environ.clear()
        os.environ.update(env)
        tempfile.tempdir = None  # TMPDIR is the score folder's
        code = isolated.main(argv)
    except BaseException:
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code if isinstance(code, int) else 1)


def run_forked(
    argv: list[str], cwd: Path, env: dict, limits: tuple, timeout: float, out: Path, log: Path
) -> int | None:
    """``python -m clfcourse.isolated ARGV`` as a forked process.

    ``limits`` are the arguments of :func:`.isolated.limits`. Returns its exit code (a signal
    as its negative), or None when it ran out of ``timeout``.
    """
    proc = _context().Process(
        target=_child, args=(argv, str(cwd), env, limits, str(out), str(log)), daemon=False
    )
    proc.start()
    try:
        proc.join(max(timeout, 1))
        if proc.exitcode is None:
            kill_tree(proc.pid)
            proc.join()
            return None
        return proc.exitcode
    finally:  # whatever it left running in its session
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ValueError):  # still running only if the wait was interrupted
            proc.close()
