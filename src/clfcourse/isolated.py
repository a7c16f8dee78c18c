"""Run a submission where it cannot reach the grader, and grade its values in a clean process.

Three steps, each a separate process started by :mod:`.grading` with resource limits
(:func:`limits`) in a scratch directory that holds only what the step needs:

execute (:mod:`.execute`, run by its path: it imports neither numpy nor the library)
    Execute the student's notebook on a fresh kernel (``nbclient``), then let the kernel write
    the values of the names the tests use to ``OUT`` with :func:`.values.encode`. Neither the
    hidden tests nor otter's grading code are loaded into this kernel, so whatever the
    notebook changes there changes nothing that decides points.
``score TESTS NAMESPACE CONTEXT``
    In a process of its own outside the sandbox that never runs student code (forked by
    :mod:`.scoring` from a server that imported otter once), rebuild the values
    with :func:`.values.decode` and run otter's own test files on them; print the results and
    the files of every module this process loaded (for :func:`.runner.fingerprint`) as JSON.
    Only the names the tests read are bound from the student's values, never a builtin or a
    dunder name; the chapter's given data and imports (``CONTEXT``) are bound over them.
    Functions the student wrote are called through a proxy in a third process (``worker``),
    started in the submission's sandbox by the command ``CONTEXT`` gives.
``worker NAMESPACE``
    Define the student's functions and answer calls (arguments and results as encoded values).
"""

from __future__ import annotations

import builtins
import importlib
import json
import keyword
import os
import resource
import sys
from pathlib import Path

from .sandbox import tasks_of
from .values import NotCarried, decode, encode, trusted

#: This module's name, also when it runs as ``__main__``.
MODULE = "clfcourse.isolated"


def limits(memory_mb: int, cpu_seconds: int, max_processes: int, file_mb: int, uid=None):
    """A ``preexec_fn`` that caps memory, CPU time, processes and file size of a child.

    The limits are inherited by the kernel the child starts. ``RLIMIT_NPROC`` counts every
    process of the user the child runs as (``uid``, default this process's user), so the cap
    is added to the processes that user already runs. It never binds root: the sandbox runs
    a submission as a user of its own (:mod:`.sandbox`).
    """
    uid = os.getuid() if uid is None else uid

    def apply() -> None:
        os.setsid()  # its own process group, so a timeout can end the whole tree
        mb = 1024 * 1024
        _lower(resource.RLIMIT_AS, memory_mb * mb, memory_mb * mb)
        _lower(resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 5)
        _lower(resource.RLIMIT_FSIZE, file_mb * mb, file_mb * mb)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        cap = tasks_of(uid) + max_processes
        hard = resource.getrlimit(resource.RLIMIT_NPROC)[1]
        if hard != resource.RLIM_INFINITY:
            cap = min(cap, hard)
        resource.setrlimit(resource.RLIMIT_NPROC, (cap, hard))

    return apply


def _lower(kind: int, soft: int, hard: int) -> None:
    """Set a limit, never above the one this process has: a process without
    ``CAP_SYS_RESOURCE`` (root in a container, too) cannot raise its hard limit, and the
    scorer's worker (2,048 MB) is started by a scorer limited to ``--memory-mb``."""
    most = resource.getrlimit(kind)[1]
    if most != resource.RLIM_INFINITY:
        soft, hard = min(soft, most), min(hard, most)
    resource.setrlimit(kind, (soft, hard))


class _Worker:
    """The process that runs the student's functions; started at the first call."""

    def __init__(self, command: list[str], uid: int | None = None):
        self.command, self.uid, self.proc = command, uid, None

    def call(self, name: str, args: tuple, kwargs: dict):
        import subprocess

        if not self.command:
            raise RuntimeError(f"{name}: no sandbox to run the student's function in")
        if self.proc is None:
            self.proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                preexec_fn=limits(2048, 60, 16, 16, self.uid),
            )
        try:
            request = {"name": name, "args": encode(list(args)), "kwargs": encode(kwargs)}
        except NotCarried as exc:
            raise TypeError(f"cannot pass this argument to {name}: {exc}") from exc
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{name} ended its process")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"{name} raised {str(reply['error'])[:200]}")
        return decode(reply["value"])

    def close(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()


def _proxy(worker: _Worker, name: str):
    def call(*args, **kwargs):
        return worker.call(name, args, kwargs)

    call.__name__ = call.__qualname__ = name
    return call


def _imported(module: str, attr: str | None):
    """What ``import module`` or ``from module import attr`` binds (trusted packages only)."""
    if not trusted(module):
        raise ImportError(f"{module} is not a package the grader imports")
    found = importlib.import_module(module)
    if attr is None:
        return found
    try:
        return getattr(found, attr)
    except AttributeError:
        return importlib.import_module(f"{module}.{attr}")


def bindable(name: object) -> bool:
    """A name the student's values may bind: an identifier, no keyword, builtin or dunder."""
    return (
        isinstance(name, str)
        and name.isidentifier()
        and not keyword.iskeyword(name)
        and not name.startswith("__")
        and not hasattr(builtins, name)
    )


def _score(tests: Path, namespace: Path, context: dict | None = None) -> dict:
    """Run every test file in ``tests`` on the decoded values: per test its score and output.

    ``context`` holds ``names`` (the names the tests read: the only ones bound from the
    student's values), ``givens`` (the chapter's given data, encoded from the teacher's run),
    ``imports`` (the names the chapter itself imports, ``np``, ``precision``, ..., mapped to
    their module and attribute) and ``worker`` (the sandboxed command that runs the student's
    functions). Given data and imports are bound over anything the notebook left under those
    names, so a notebook can neither redefine its data nor swap the functions its tests
    compare with.
    """
    from otter.test_files.ok_test import OKTestFile

    context = context or {}
    try:
        data = json.loads(namespace.read_text()) if namespace.exists() else {}
    except ValueError:
        data = {}
    data = data if isinstance(data, dict) and isinstance(data.get("values"), dict) else {}
    worker = _Worker(context.get("worker") or [], context.get("uid"))
    wanted = {n for n in context.get("names", []) if bindable(n)}
    encoded = {k: v for k, v in data.get("values", {}).items() if k in wanted}
    functions = {
        str(v.get("name")): _proxy(worker, str(v.get("name")))
        for v in encoded.values()
        if isinstance(v, dict) and v.get("t") == "function"
    }
    skipped = data.get("skipped", {})
    skipped = {k: v for k, v in skipped.items() if k in wanted} if isinstance(skipped, dict) else {}
    env, refused = {}, dict(skipped)
    for name, value in encoded.items():
        try:
            env[name] = decode(value, functions)
        except Exception as exc:  # a value the kernel wrote that is not ours: no value
            refused[name] = f"unreadable ({type(exc).__name__})"
    for name, value in context.get("givens", {}).items():
        env[name] = decode(value)  # the teacher's run: the chapter's own data
        refused.pop(name, None)
    for name, (module, attr) in context.get("imports", {}).items():
        try:
            env[name] = _imported(module, attr)
        except ImportError:
            continue
    files = [OKTestFile.from_file(str(p)) for p in sorted(tests.glob("*.py"))]
    try:
        for test in files:
            test.run(dict(env))
    finally:
        worker.close()
    tests_out = [
        {
            "name": t.name,
            "score": t.score,
            "max_score": t.possible,
            "output": t.summary(),
            "public_passed": all(r.passed for r in t.test_case_results if not r.test_case.hidden),
            # per case, as data: what a student may read is built from these, never by
            # cutting a hidden case's words out of the summary
            "cases": [
                {
                    "number": k,
                    "hidden": bool(r.test_case.hidden),
                    "passed": bool(r.passed),
                    "message": str(r.message or ""),
                }
                for k, r in enumerate(t.test_case_results, start=1)
            ],
        }
        for t in files
    ]
    return {
        "tests": tests_out,
        "refused": {str(k): str(v)[:200] for k, v in refused.items()},
        "modules": sorted(
            {
                f
                for m in list(sys.modules.values())
                if isinstance(f := getattr(m, "__file__", None), str)
            }
        ),
    }


def _serve(namespace: Path) -> int:
    """The worker: define the student's functions, then answer one call per input line."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the functions' prints go nowhere
    data = json.loads(namespace.read_text())
    env: dict = {"__name__": "__main__"}
    sources = []
    for name, value in data.get("values", {}).items():
        if value.get("t") == "function":
            sources.append(value["v"])
            continue
        try:
            env[name] = decode(value)
        except Exception:
            continue
    for source in sources:
        try:
            exec(source, env)
        except Exception:
            continue
    for line in sys.stdin:
        try:
            request = json.loads(line)
            result = env[request["name"]](*decode(request["args"]), **decode(request["kwargs"]))
            reply = {"value": encode(result)}
        except BaseException as exc:  # any failure is the function's, reported as such
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        replies.write(json.dumps(reply) + "\n")
        replies.flush()
    return 0


def main(argv: list[str]) -> int:
    command, *rest = argv
    if command == "score":
        context = json.loads(Path(rest[2]).read_text()) if len(rest) > 2 else None
        print(json.dumps(_score(Path(rest[0]), Path(rest[1]), context)))
        return 0
    if command == "worker":
        return _serve(Path(rest[0]))
    raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
