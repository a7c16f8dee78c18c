"""Run one submission in a scratch folder under resource limits, then grade its values.

The parent side of :mod:`.isolated`: it starts ``execute`` (the student's notebook on a fresh
kernel, no test and no grading code in it) and then ``score`` (otter's test files on the values,
in a process that runs no student code), each under :class:`Limits`, and turns what went wrong
into a reason for the grade rows.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
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
from .exercises import META
from .gradebook import cell_errors

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


def _test_names(tests: dict[str, bytes]) -> list[str]:
    """Every name the test cases read (what must be carried out of the student's kernel)."""
    from otter.test_files.ok_test import OKTestFile

    names: set[str] = set()
    parser = doctest.DocTestParser()
    for text in tests.values():
        spec: dict = {}
        exec(text, spec)  # the teacher's test file, read before any submission ran
        for case in OKTestFile.from_spec(spec["test"]).test_cases:
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
        finally:  # whatever it left running in its process group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)


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


def load_tests(autograder: Path) -> dict[str, bytes]:
    """The test files of an autograder zip, read before any submission runs."""
    with zipfile.ZipFile(autograder) as zf:
        return {
            Path(member).name: zf.read(member)
            for member in zf.namelist()
            if member.startswith("tests/") and member.endswith(".py")
        }


def chapter_imports(teacher: Path) -> dict[str, list]:
    """The names the chapter's own code binds by import (solution cells left out).

    Read from the teacher notebook: ``{"np": ["numpy", None], "precision": ["clfmetrics",
    "precision"], ...}``; the clean process binds them from the real modules.
    """
    found: dict[str, list] = {}
    for cell in nbformat.read(teacher, as_version=4).cells:
        role = cell.get("metadata", {}).get(META, {}).get("role")
        if cell.cell_type != "code" or role == "solution":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:  # IPython magics
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):  # `import a.b` binds a, `import a.b as c` a.b
                for alias in node.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    found[bound] = [alias.name if alias.asname else bound, None]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.update({a.asname or a.name: [node.module, a.name] for a in node.names})
    found.pop("*", None)
    return found


def fingerprint() -> dict[str, tuple[int, int, int]]:
    """Size, modification and change time of every file the grading process runs.

    The library, otter, numpy and the interpreter's start-up files (``*.pth``,
    ``sitecustomize``). A submission runs with the teacher's rights and could rewrite them; the
    change time cannot be set back by a user, so a change shows.
    """
    import numpy
    import otter

    site = Path(numpy.__file__).resolve().parents[1]
    roots = [
        Path(_LIBRARY) / "clfmetrics",
        Path(otter.__file__).parent,
        Path(numpy.__file__).parent,
    ]
    files = [p for root in roots for p in (*root.rglob("*.py"), *root.rglob("*.pyc"))]
    files += [p for p in site.glob("*") if p.suffix == ".pth" or "customize" in p.name]
    found = {}
    for path in files:
        try:
            st = path.stat()
        except OSError:
            continue
        found[str(path)] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return found


def _changed(before: dict, after: dict) -> str | None:
    """A file that changed or went away, or a new one that Python would run; else None."""
    gone = [path for path, stat in before.items() if after.get(path) != stat]
    new = [path for path in after if path not in before and not path.endswith(".pyc")]
    return min(gone + new, default=None)  # a first compiled copy of a module is no change


def run_isolated(
    submission: Path,
    tests: dict[str, bytes],
    stem: str,
    timeout: float,
    limits: Limits | None = None,
    files: dict | None = None,
    imports: dict | None = None,
) -> tuple[dict | None, str | None]:
    """Execute one notebook in a scratch folder, then grade its values in a clean process.

    ``tests`` are the chapter's test files (:func:`load_tests`), written for the clean process
    only after the notebook's processes have ended; ``files`` is the :func:`fingerprint` of the
    grader taken before any submission ran; ``imports`` the chapter's own imports
    (:func:`chapter_imports`), bound from the real modules in the clean process. Returns
    ``{"tests": [...], "refused": {...}, "claims": {...}}`` or a problem; ``claims`` holds, per
    test, whether the executed notebook's own output reported it as passed.
    """
    limits = limits or Limits()
    files = files if files is not None else fingerprint()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="clfmetrics-grade-") as tmp:
        scratch = Path(tmp) / "scratch"
        scratch.mkdir()
        notebook = scratch / f"{stem}.ipynb"
        shutil.copy(submission, notebook)
        out = scratch / ".values.json"
        library = [_LIBRARY, *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
        env = {
            **os.environ,
            "HOME": str(scratch),
            "TMPDIR": str(scratch),
            "JUPYTER_RUNTIME_DIR": str(scratch / ".runtime"),
            "IPYTHONDIR": str(scratch / ".ipython"),
            "MPLBACKEND": "agg",
            "MPLCONFIGDIR": str(scratch / ".matplotlib"),
            # one thread each: a numerical library's per-thread buffers count against memory
            **{k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")},
            # the grader's own library; no relative entries, which would follow the cwd
            "PYTHONPATH": os.pathsep.join(p for p in library if os.path.isabs(p)),
        }
        needed = _test_names(tests)
        imports = {k: v for k, v in (imports or {}).items() if k in needed}
        names = json.dumps(needed)
        cmd = [sys.executable, "-m", isolated.MODULE, "execute", str(notebook), names]
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
        with tempfile.TemporaryDirectory(prefix="clfmetrics-score-") as clean:
            clean = Path(clean)
            (clean / "tests").mkdir()
            for name, text in tests.items():
                (clean / "tests" / name).write_bytes(text)
            (clean / "imports.json").write_text(json.dumps(imports or {}))
            values = clean / "values.json"
            if out.exists():  # what the kernel wrote: untrusted data, read as such
                shutil.copy(out, values)
            changed = _changed(files, fingerprint())
            if changed:
                return None, f"REVIEW: a file of the grader changed while it ran ({changed})"
            left = timeout - (time.monotonic() - started)
            cmd = [
                sys.executable,
                "-m",
                isolated.MODULE,
                "score",
                str(clean / "tests"),
                str(values),
                str(clean / "imports.json"),
            ]
            env = {**env, "HOME": str(clean), "TMPDIR": str(clean)}
            preexec = isolated.limits(limits.memory_mb, 120, 64, limits.file_mb)
            result, log = clean / "score.json", clean / "score.log"
            code = _run(cmd, clean, env, preexec, max(left, 30), result, log)
            if code is None:
                return None, f"timed out after {timeout:g} s while its values were graded"
            if code != 0:
                return None, f"its values could not be graded: {_tail(log)}"
            changed = _changed(files, fingerprint())
            if changed:
                return None, f"REVIEW: a file of the grader changed while it ran ({changed})"
            results = json.loads(result.read_text())
        executed = out.with_suffix(".ipynb")
        results["claims"] = _claims(executed, [t["name"] for t in results["tests"]])
        results["errors"] = cell_errors(executed)  # the notebook's own errors, for the teacher
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
