"""Run one submission in a scratch folder under resource limits, then grade its values.

The parent side of :mod:`.isolated`: it starts ``execute`` (the student's notebook on a fresh
kernel, no test and no grading code in it) and then ``score`` (otter's test files on the values,
in a process that runs no student code), each under :class:`Limits`, and turns what went wrong
into a reason for the grade rows.
"""

from __future__ import annotations

import ast
import builtins
import doctest
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import nbformat
import psutil

from . import isolated

#: The folder that holds the ``clfmetrics`` package the grader runs.
_LIBRARY = str(Path(__file__).resolve().parents[2])


def _kill_tree(pid: int) -> None:
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


@dataclass(frozen=True)
class Limits:
    """Resource limits of one submission's run (the kernel included).

    ``memory_mb`` of address space and ``cpu_seconds`` of CPU time per process, at most
    ``processes`` more processes and threads than the user already runs, files up to ``file_mb``,
    and at most ``output_mb`` of cell output before the run is stopped.
    """

    memory_mb: int = 4096
    cpu_seconds: int = 600
    processes: int = 256
    file_mb: int = 64
    output_mb: float = 16


def _test_names(tests: Path) -> list[str]:
    """Every name the test cases read (what must be carried out of the student's kernel)."""
    from otter.test_files.ok_test import OKTestFile

    names: set[str] = set()
    parser = doctest.DocTestParser()
    for path in sorted(tests.glob("*.py")):
        for case in OKTestFile.from_file(str(path)).test_cases:
            trees = [ast.parse(e.source) for e in parser.get_examples(case.body)]
            found = [n for t in trees for n in ast.walk(t) if isinstance(n, ast.Name)]
            stored = {n.id for n in found if isinstance(n.ctx, ast.Store)}
            names |= {n.id for n in found if n.id not in stored}
    return sorted(names - set(dir(builtins)))


def _run(cmd: list[str], cwd: Path, env: dict, preexec, timeout: float, out: Path, log: Path):
    """Run ``cmd`` with ``preexec`` (its limits); its return code, or None when out of time."""
    with open(out, "wb") as stdout, open(log, "wb") as stderr:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            preexec_fn=preexec,
        )
        try:
            return proc.wait(timeout=max(timeout, 1))
        except subprocess.TimeoutExpired:
            _kill_tree(proc.pid)
            proc.wait()
            return None


def _tail(log: Path) -> str:
    with open(log, "rb") as f:
        f.seek(max(0, log.stat().st_size - 4000))
        lines = [ln.strip() for ln in f.read().decode(errors="replace").splitlines()]
    lines = [ln for ln in lines if ln]
    return lines[-1][:200] if lines else "no output"


def _why(code: int, limits: Limits, log: Path) -> str:
    if code == isolated.DEAD_KERNEL:
        return "the kernel died while running the notebook"
    if code == isolated.OUT_OF_CPU:
        return f"stopped: its kernel used more than {limits.cpu_seconds:g} s of CPU time"
    if code == isolated.TOO_MUCH_OUTPUT:
        return f"stopped: its cell output passed {limits.output_mb:g} MB"
    if code in (-signal.SIGXCPU, -signal.SIGKILL):
        return f"stopped: it used more than {limits.cpu_seconds:g} s of CPU time or its memory"
    if code == -signal.SIGXFSZ:
        return f"stopped: it wrote a file larger than {limits.file_mb:g} MB"
    return f"the notebook could not be run: {_tail(log)}"


def run_isolated(
    submission: Path, autograder: Path, stem: str, timeout: float, limits: Limits | None = None
) -> tuple[dict | None, str | None]:
    """Execute one notebook in a scratch folder, then grade its values in a clean process.

    Returns ``{"tests": [...], "refused": {...}, "claims": {...}}`` or a problem. ``claims``
    holds, per test, whether the executed notebook's own output reported it as passed.
    """
    limits = limits or Limits()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="clfmetrics-grade-") as tmp:
        scratch, tests = Path(tmp) / "scratch", Path(tmp) / "tests"
        scratch.mkdir()
        with zipfile.ZipFile(autograder) as zf:
            for member in zf.namelist():
                if member.startswith("tests/") and member.endswith(".py"):
                    (tests / Path(member).name).parent.mkdir(exist_ok=True)
                    (tests / Path(member).name).write_bytes(zf.read(member))
        notebook = scratch / f"{stem}.ipynb"
        shutil.copy(submission, notebook)
        out = Path(tmp) / "values.json"
        env = {
            **os.environ,
            "HOME": str(scratch),
            "TMPDIR": str(scratch),
            "JUPYTER_RUNTIME_DIR": str(scratch / ".runtime"),
            "IPYTHONDIR": str(scratch / ".ipython"),
            "MPLBACKEND": "agg",
            "MPLCONFIGDIR": str(scratch / ".matplotlib"),
            # the grader's own library, also when it was found through a relative path
            "PYTHONPATH": os.pathsep.join([_LIBRARY, os.environ.get("PYTHONPATH", "")]),
        }
        names = json.dumps(_test_names(tests))
        cmd = [sys.executable, "-m", isolated.__name__, "execute", str(notebook), names]
        cmd += [str(out), str(limits.output_mb)]
        preexec = isolated.limits(
            limits.memory_mb, limits.cpu_seconds, limits.processes, limits.file_mb
        )
        log = Path(tmp) / "execute.log"
        code = _run(cmd, scratch, env, preexec, timeout, log, log.with_suffix(".err"))
        if code is None:
            return None, f"timed out after {timeout:g} s"
        if code != 0:
            return None, _why(code, limits, log.with_suffix(".err"))
        left = timeout - (time.monotonic() - started)
        clean = Path(tmp) / "clean"
        clean.mkdir()
        cmd = [sys.executable, "-m", isolated.__name__, "score", str(tests), str(out)]
        log = Path(tmp) / "score.log"
        env = {**env, "HOME": str(clean), "TMPDIR": str(clean)}
        preexec = isolated.limits(limits.memory_mb, 120, 64, limits.file_mb)
        code = _run(cmd, clean, env, preexec, max(left, 30), Path(tmp) / "score.json", log)
        if code is None:
            return None, f"timed out after {timeout:g} s while its values were graded"
        if code != 0:
            return None, f"its values could not be graded: {_tail(log)}"
        results = json.loads((Path(tmp) / "score.json").read_text())
        executed = out.with_suffix(".ipynb")
        results["claims"] = _claims(executed, [t["name"] for t in results["tests"]])
    return results, None


def _claims(executed: Path, labels: list[str]) -> dict[str, bool]:
    """Per test, whether the executed notebook's own output said that it passed."""
    if not executed.exists():
        return {}
    text = json.dumps([c.get("outputs", []) for c in nbformat.read(executed, 4).cells])
    return {
        label: f"{label} results: All test cases passed!" in text
        or f"{label}</pre></strong> passed!" in text
        for label in labels
    }
