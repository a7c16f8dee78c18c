"""Run one submission in its sandbox under resource limits, then grade its values outside it.

The parent side of :mod:`.isolated`: it starts ``execute`` (the student's notebook on a fresh
kernel in a :mod:`.sandbox`, no test and no grading code in it) and then ``score`` (otter's
test files on the values, in a process outside the sandbox that runs no student code, forked
per submission by :mod:`.scoring`), each under :class:`Limits`; reads what the sandbox wrote as
untrusted data; checks the scorer's files (:func:`fingerprint`); and turns what went wrong
into a reason for the grade rows.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import nbformat

from . import cgroups, execute, isolated, sandbox, scoring, untrusted
from .gradebook import cell_errors
from .inputs import chapter_givens, names_read
from .scoring import kill_tree

#: The folder that holds the ``clfmetrics`` package the grader runs.
#: The folder the library is imported from (``src`` in a checkout), found without importing
#: it: the grader imports nothing of the library or the book.
_LIBRARY = str(Path(importlib.util.find_spec("clfmetrics").origin).resolve().parents[1])


@dataclass(frozen=True)
class Limits:
    """Resource limits of one submission's run (the kernel included).

    ``memory_mb`` of address space and ``cpu_seconds`` of CPU time per process, at most
    ``processes`` more processes and threads than the user already runs, files up to ``file_mb``,
    and at most ``output_mb`` of cell output before the run is stopped. Where a cgroup can be
    made (:func:`.cgroups.probe`), the submission's processes together also get at most
    ``total_memory_mb``, ``processes`` tasks and ``cpus`` cores.
    """

    memory_mb: int = 4096
    cpu_seconds: int = 600
    processes: int = 256
    file_mb: int = 64
    output_mb: float = 16
    #: Memory of all of a submission's processes together, its ``/tmp`` included (a
    #: :mod:`.cgroups` group, where one can be made), and the size of that ``/tmp``.
    total_memory_mb: int = 4096
    tmp_mb: int = 512
    #: The size of the notebook's memory-backed home folder in the sandbox (its scratch
    #: folder: nothing a sandboxed notebook writes reaches the host's disk).
    home_mb: int = 1024
    #: The CPU share of all of a submission's processes together (cores), with a group.
    cpus: float = 1.0


def _scratch(prefix: str):
    """A scratch folder, removed on every way out without recursion (however deep a
    submission nested its folders: :func:`.untrusted.remove_tree`)."""
    return _Scratch(tempfile.mkdtemp(prefix=prefix))


class _Scratch:
    def __init__(self, path: str):
        self.path = path

    def __enter__(self) -> str:
        return self.path

    def __exit__(self, *exc) -> None:
        untrusted.remove_tree(self.path)


_GROUPS: list = []


def groups_available() -> str | None:
    """``None`` when each submission gets a cgroup of its own here, else why not (once)."""
    if not _GROUPS:
        _GROUPS.append(cgroups.probe())
    return _GROUPS[0]


@contextlib.contextmanager
def _group(limits: Limits):
    """The submission's cgroup (:mod:`.cgroups`), or None where none can be made."""
    if groups_available() is not None:
        yield None
        return
    group = cgroups.make(limits.total_memory_mb, limits.processes, limits.cpus)
    try:
        yield group
    finally:
        group.remove()


def _joined(preexec, group):
    """``preexec``, after moving the child into ``group`` (before it runs anything)."""
    if group is None:
        return preexec

    def apply() -> None:
        group.join()
        preexec()

    return apply


def _run(
    cmd: list[str],
    cwd: Path,
    env: dict,
    preexec,
    timeout: float,
    out: Path,
    log: Path,
    pass_fds: tuple[int, ...] = (),
):
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
            pass_fds=pass_fds,
        )
        try:
            return proc.wait(timeout=max(timeout, 1))
        except subprocess.TimeoutExpired:
            kill_tree(proc.pid)
            proc.wait()
            return None
        finally:  # whatever it left running in its process group
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)


def _tail(log: Path) -> str:
    with open(log, "rb") as f:
        f.seek(max(0, log.stat().st_size - 4000))
        text = f.read().decode(errors="replace")
    # what a crashed nbclient ignores at exit (its kernel manager's cleanup) would hide the error
    text = text.split("Exception ignored in atexit callback")[0]
    lines = [ln.strip() for ln in text.splitlines()]
    lines = [ln for ln in lines if ln]
    return lines[-1][:200] if lines else "no output"


def _why(code: int, limits: Limits, log: Path) -> str:
    if code == execute.DEAD_KERNEL:
        return "the kernel died while running the notebook"
    if code == execute.OUT_OF_CPU:
        return f"stopped: its kernel used more than {limits.cpu_seconds:g} s of CPU time"
    if code == execute.TOO_MUCH_OUTPUT:
        return f"stopped: its cell output passed {limits.output_mb:g} MB"
    if code == -signal.SIGXCPU:
        return f"stopped: it used more than {limits.cpu_seconds:g} s of CPU time"
    if code == -signal.SIGKILL:
        return (
            f"stopped: killed, after more than {limits.cpu_seconds:g} s of CPU time, out of "
            "memory, or by the notebook itself"
        )
    if code == -signal.SIGXFSZ:
        return f"stopped: it wrote a file larger than {limits.file_mb:g} MB"
    return f"the notebook could not be run: {_tail(log)}"


def fingerprint(modules=None) -> dict[str, tuple[int, int, int]]:
    """Size, modification and change time of every file the scoring process runs.

    ``modules`` are the files of every module a scoring process loaded (its report, see
    :func:`.isolated._score`: otter, yaml, numpy, pandas, the library, the standard library);
    with them go every other module file in their folders (a new one could be imported) and
    the interpreter's start-up files (``*.pth``, ``sitecustomize``). Without ``modules``: the
    library, otter and numpy. Inside the sandbox all of these are read-only, so a change
    means the sandbox was not used or did not hold; the change time cannot be set back by a
    user, so a change shows.
    """
    import numpy

    site = Path(numpy.__file__).resolve().parents[1]
    if modules:
        files = {os.path.normpath(m) for m in modules}
        for folder in {os.path.dirname(f) for f in files}:
            with contextlib.suppress(OSError), os.scandir(folder) as entries:
                files.update(e.path for e in entries if e.name.endswith((".py", ".so", ".pth")))
    else:
        import otter

        roots = [
            Path(_LIBRARY) / "clfmetrics",
            Path(otter.__file__).parent,
            Path(numpy.__file__).parent,
        ]
        files = {str(p) for root in roots for p in (*root.rglob("*.py"), *root.rglob("*.pyc"))}
    files |= {str(p) for p in site.glob("*") if p.suffix == ".pth" or "customize" in p.name}
    found = {}
    for path in files:  # os.stat on strings: this runs three times per submission
        try:
            st = os.stat(path)
        except OSError:
            continue
        found[path] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return found


def _changed(before: dict, after: dict) -> str | None:
    """A file that changed or went away, or a new one that Python would run; else None."""
    gone = [path for path, stat in before.items() if after.get(path) != stat]
    new = [path for path in after if path not in before and not path.endswith(".pyc")]
    return min(gone + new, default=None)  # a first compiled copy of a module is no change


def _read_written(path: Path, cap: int) -> bytes | None:
    """A file the student's side wrote, as bytes: None unless it is a regular file up to ``cap``.

    Never follows a link and never waits on a pipe, so ``.values.json`` as a folder, a link
    to ``/dev/null`` or a FIFO is a missing value, not a crash.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > cap:
            return None
        return os.read(fd, cap)
    finally:
        os.close(fd)


def _environment(home: str, boxed: bool) -> dict:
    """The environment of a submission's run: no variable of the grader's inside a sandbox."""
    # in a sandbox the library's folders alone (:func:`.sandbox.library`): no other folder of
    # the grader's PYTHONPATH is bound there, and none is named
    library = (
        sandbox.library()
        if boxed
        else [_LIBRARY, *os.environ.get("PYTHONPATH", "").split(os.pathsep)]
    )
    base = (
        {
            "PATH": os.pathsep.join([str(Path(sys.executable).parent), "/usr/bin", "/bin"]),
            "LANG": "C.UTF-8",
        }
        if boxed
        else dict(os.environ)
    )
    return {
        **base,
        "HOME": home,
        "TMPDIR": "/tmp" if boxed else home,
        "JUPYTER_RUNTIME_DIR": f"{home}/.runtime",
        "IPYTHONDIR": f"{home}/.ipython",
        "MPLBACKEND": "agg",
        "MPLCONFIGDIR": f"{home}/.matplotlib",
        # one thread each: a numerical library's per-thread buffers count against memory
        **{k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")},
        # the grader's own library; no relative entries, which would follow the cwd
        "PYTHONPATH": os.pathsep.join(p for p in library if os.path.isabs(p)),
    }


def _font_lists() -> list[Path]:
    """The grader's own matplotlib font lists, where matplotlib keeps them (not imported)."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache")
    folder = os.environ.get("MPLCONFIGDIR") or os.path.join(cache, "matplotlib")
    return sorted(Path(folder).glob("fontlist-v*.json"))


@contextlib.contextmanager
def _box(sandboxed: bool):
    if not sandboxed:
        yield None
        return
    with sandbox.sandbox_for_submission() as box:
        yield box


def _execute(notebook: bytes, names, stem, timeout, limits, box, tmp: Path):
    """Run ``notebook`` (its bytes) in ``box``: (values, executed notebook) as bytes, or a
    problem."""
    scratch = tmp / "scratch"
    (scratch / ".matplotlib").mkdir(parents=True)  # MPLCONFIGDIR (see _environment)
    for found in _font_lists():  # else a kernel that plots rebuilds it, slowly
        shutil.copy(found, scratch / ".matplotlib" / found.name)
    # the bytes read once from the submissions folder, never the student's path again
    (scratch / f"{stem}.ipynb").write_bytes(notebook)
    home = sandbox.HOME if box else str(scratch)
    notebook_in, values_out = f"{home}/{stem}.ipynb", f"{home}/.values.json"
    # each of the two outputs, so that both fit the file-size limit of the step writing them
    cap = limits.file_mb * 1024 * 1024 // 2 - 16
    emitted, fd = tmp / "emitted", None
    if box is not None:  # a memory-backed HOME: the outputs leave through a descriptor
        fd = os.open(emitted, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    cmd = execute.command(sys.executable, notebook_in, names, values_out, limits.output_mb, fd, cap)
    if box is not None:
        box.prepare(scratch)
        files = [p for p in scratch.rglob("*") if p.is_file() and not p.is_symlink()]
        inputs = tuple(p.relative_to(scratch).as_posix() for p in files)
        cmd = box.wrap(cmd, scratch, tmp_mb=limits.tmp_mb, home_mb=limits.home_mb, inputs=inputs)
    preexec = isolated.limits(
        limits.memory_mb, limits.cpu_seconds, limits.processes, limits.file_mb, box and box.uid
    )
    log = tmp / "execute.log"
    try:
        with _group(limits) as group:
            code = _run(
                cmd,
                scratch,
                _environment(home, box is not None),
                _joined(preexec, group),
                timeout,
                log,
                log.with_suffix(".err"),
                () if fd is None else (fd,),
            )
            starved = group is not None and group.out_of_memory()
    finally:
        if fd is not None:
            os.close(fd)
    if starved:
        return (
            None,
            None,
            (
                f"stopped: its processes together used more than {limits.total_memory_mb:g} MB "
                "of memory (its /tmp included)"
            ),
        )
    if code is None:
        return None, None, f"timed out after {timeout:g} s"
    if code > 128:  # bwrap reports a signal as 128 + its number
        code = -(code - 128)
    if code != 0:
        return None, None, _why(code, limits, log.with_suffix(".err"))
    if box is not None:
        values, executed = execute.received(_read_written(emitted, 2 * cap + 16) or b"")
    else:
        values = _read_written(scratch / ".values.json", cap)
        executed = _read_written(scratch / ".values.ipynb", cap)
    if values is None:
        return None, None, "its values could not be read: .values.json is not a regular file"
    return values, executed, None


def _score_values(values, tests, context, timeout, limits, box, tmp: Path):
    """Run the tests on ``values`` outside the sandbox: the results, or a problem."""
    clean = tmp / "score"
    (clean / "tests").mkdir(parents=True)
    for name, text in tests.items():
        (clean / "tests" / name).write_bytes(text)
    (clean / "values.json").write_bytes(values or b"{}")
    worker = [sys.executable, "-m", isolated.MODULE, "worker"]
    if box is not None:  # the student's functions run in the sandbox, on a copy of the values
        scratch = tmp / "worker"
        scratch.mkdir()
        (scratch / "values.json").write_bytes(values or b"{}")
        box.prepare(scratch)
        worker = box.wrap(
            [*worker, f"{sandbox.HOME}/values.json"],
            scratch,
            tmp_mb=limits.tmp_mb,
            home_mb=limits.home_mb,
            inputs=("values.json",),
        )
    else:
        worker.append(str(clean / "values.json"))
    context = {**context, "worker": worker, "uid": box and box.uid}
    (clean / "context.json").write_text(json.dumps(context))
    argv = ["score", str(clean / "tests"), str(clean / "values.json"), str(clean / "context.json")]
    env = {**_environment(str(clean), False), "TMPDIR": str(clean)}
    capped = (limits.memory_mb, 120, 64, limits.file_mb)
    result, log = clean / "score.json", clean / "score.log"
    # what is left of the notebook's one deadline: the functions the tests call run in the
    # sandbox's worker, student code again, so scoring gets no time of its own
    code = scoring.run_forked(argv, clean, env, capped, timeout, result, log)
    if code is None:
        return None, "timed out while its values were graded"
    if code != 0:
        return None, f"its values could not be graded: {_tail(log)}"
    return json.loads(result.read_text()), None


def otters(cell) -> bool:
    """Whether ``cell`` is one of otter's own code cells: every line of code imports or calls
    otter (``import otter``, ``grader = otter.Notebook(...)``, ``grader.check(...)``)."""
    if cell.get("cell_type") != "code":
        return False
    code = [ln.strip() for ln in cell.source.splitlines()]
    code = [ln for ln in code if ln and not ln.startswith("#")]
    return bool(code) and all("otter" in ln or ln.startswith("grader.") for ln in code)


def given_data(
    teacher: Path,
    tests: dict[str, bytes],
    imports: dict,
    timeout: float = 300,
    limits: Limits | None = None,
    sandboxed: bool = True,
) -> tuple[dict, list[str], dict]:
    """The chapter's given data from the teacher's run, the files the scorer loads, its results.

    Runs the teacher notebook like a submission and keeps, encoded, the values of the names
    the tests read that non-solution cells bind (:func:`chapter_givens`); scores the teacher's
    values (answers included) once, to learn which module files the scoring process loads (for
    :func:`fingerprint`) and how the teacher notebook itself grades (results as
    :func:`run_isolated` returns them): a chapter's grader is checked without running its
    teacher notebook a second time. Otter's own cells (:func:`otters`) are left out of this
    run: they bind nothing a test reads, and importing otter's API in the kernel is slow, once
    per chapter.
    """
    limits = limits or Limits()
    needed = names_read(tests)
    names = [n for n in needed if n not in imports]
    given = set(chapter_givens(teacher))
    with _scratch("clfmetrics-teacher-") as tmp, _box(sandboxed) as box:
        nb = nbformat.read(teacher, as_version=4)
        nb.cells = [c for c in nb.cells if not otters(c)]
        data = nbformat.writes(nb).encode()
        values, executed, problem = _execute(
            data, names, teacher.stem, timeout, limits, box, Path(tmp)
        )
        if problem or values is None:
            raise RuntimeError(f"the teacher notebook {teacher.name} did not run: {problem}")
        encoded = json.loads(values)["values"]
        givens = {k: v for k, v in encoded.items() if k in given and v.get("t") != "function"}
        context = {"names": needed, "imports": imports, "givens": givens}
        results, problem = _score_values(values, tests, context, timeout, limits, box, Path(tmp))
        if results is None:
            raise RuntimeError(f"the teacher notebook {teacher.name} was not graded: {problem}")
    results["claims"] = _claims(executed, [t["name"] for t in results["tests"]])
    results["errors"] = cell_errors(executed)
    return givens, results["modules"], results


def run_isolated(
    submission: bytes | Path,
    tests: dict[str, bytes],
    stem: str,
    timeout: float,
    limits: Limits | None = None,
    files: dict | None = None,
    imports: dict | None = None,
    givens: dict | None = None,
    modules: list[str] | None = None,
    sandboxed: bool = True,
) -> tuple[dict | None, str | None]:
    """Execute one notebook in its sandbox, then grade its values outside it.

    ``tests`` are the chapter's test files (:func:`load_tests`), never visible to the
    sandbox; ``files`` is the :func:`fingerprint` of ``modules`` (the files the scorer loads)
    taken before any submission ran, checked before and after this one; ``imports`` the
    chapter's own imports (:func:`chapter_imports`) and ``givens`` its given data
    (:func:`given_data`), both bound over the student's values. ``sandboxed=False`` runs the
    student's code with the grader's rights (:mod:`.sandbox` says what the sandbox holds).
    Returns ``{"tests": [...], "refused": {...}, "claims": {...}}`` or a problem; ``claims``
    holds, per test, whether the executed notebook's own output reported it as passed.
    ``submission`` is the notebook's bytes, or a path read as :func:`.untrusted.read_regular`
    reads it (a link or anything but a regular file is a problem).
    """
    limits = limits or Limits()
    if not isinstance(submission, bytes):
        try:
            submission, _ = untrusted.read_regular(submission, limits.file_mb * 1024 * 1024)
        except ValueError as exc:
            return None, str(exc)
    files = files if files is not None else fingerprint(modules)
    started = time.monotonic()
    needed = names_read(tests)
    context = {
        "names": needed,
        "imports": {k: v for k, v in (imports or {}).items() if k in needed},
        "givens": givens or {},
    }
    with _scratch("clfmetrics-grade-") as tmp, _box(sandboxed) as box:
        tmp = Path(tmp)
        changed = _changed(files, fingerprint(modules))
        if changed:
            return None, f"REVIEW: a file of the grader changed before it ran ({changed})"
        values, executed, problem = _execute(submission, needed, stem, timeout, limits, box, tmp)
        if problem:
            return None, problem
        changed = _changed(files, fingerprint(modules))
        if changed:
            return None, f"REVIEW: a file of the grader changed while it ran ({changed})"
        left = timeout - (time.monotonic() - started)
        if left <= 0:  # one deadline for running the notebook and scoring its values
            return None, f"timed out after {timeout:g} s"
        results, problem = _score_values(values, tests, context, left, limits, box, tmp)
        if problem == "timed out while its values were graded":
            problem = f"timed out after {timeout:g} s, while its values were graded"
        if results is None:
            return None, problem
        changed = _changed(files, fingerprint(modules))
        if changed:
            return None, f"REVIEW: a file of the grader changed while it ran ({changed})"
    results["claims"] = _claims(executed, [t["name"] for t in results["tests"]])
    results["errors"] = cell_errors(executed)  # the notebook's own errors, for the teacher
    return results, None


def _claims(executed: bytes | None, labels: list[str]) -> dict[str, bool]:
    """Per test, whether the executed notebook's own output said that it passed."""
    try:
        cells = nbformat.reads(executed.decode(), 4).cells
        text = json.dumps([c.get("outputs", []) for c in cells])
    except Exception:  # no notebook, or not one: the notebook claimed nothing
        return {}
    return {
        label: f"{label} results: All test cases passed!" in text
        or f"{label}</pre></strong> passed!" in text
        for label in labels
    }
