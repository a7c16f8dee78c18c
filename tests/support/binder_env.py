"""Build a Binder-like environment from ``binder/`` alone and use it as a reader would.

Run by the suite in the background (``conftest.BACKGROUND``), as soon as a selected test
asks for it, beside the workers rather than holding one of them. ``test_binder_simulation.py``
waits for its exit status and reads its log.

``python tests/support/binder_env.py FOLDER``: copy the repository to ``FOLDER/repo``, make a new
virtual environment that shares nothing with the development one, install
``binder/requirements.txt``, run ``binder/postBuild`` in the copy, then in that environment
import every module that any code cell of any chapter imports and execute the chapters of
``EXECUTED`` on its kernel. Exit status 0 when all of it worked; otherwise 1, with the step
that failed and its output at the end of the log (standard output).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from chapter_runner import ROOT, notebook_pages

COPY_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "_build", ".pytest_cache", ".ruff_cache", ".hypothesis", "*.egg-info"
)

IMPORTS = textwrap.dedent(
    """
    import ast, importlib, sys, jupytext
    wanted = set()
    for path in sys.argv[1:]:
        for cell in jupytext.read(path, fmt="md:myst").cells:
            if cell.cell_type != "code":
                continue
            try:
                tree = ast.parse(cell.source)
            except SyntaxError:  # IPython magics
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    wanted |= {(a.name, path) for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    wanted.add((node.module, path))
    failures = []
    for name, path in sorted(wanted):
        try:
            importlib.import_module(name)
        except ImportError as err:
            failures.append(f"{path}: import {name}: {err}")
    print("\\n".join(failures) or f"{len(wanted)} imports ok")
    sys.exit(1 if failures else 0)
    """
)

#: Chapters executed whole in the Binder environment. The end-to-end chapter (16,
# scikit-learn) is not executed again here: its imports are checked in this environment, and
# the book build executes it on the same pins (test_publishing checks that
# binder/requirements.txt pins what requirements.txt pins).
EXECUTED = ("01-confusion-matrix",)

RUNNER = textwrap.dedent(
    """
    import sys, jupytext
    from nbclient import NotebookClient
    failures = []
    for path in sys.argv[1:]:
        nb = jupytext.read(path, fmt="md:myst")
        folder = path.rsplit("/", 1)[0]
        try:
            NotebookClient(nb, timeout=180, kernel_name="python3",
                           resources={"metadata": {"path": folder}}).execute()
        except Exception as err:  # report every failing chapter, not just the first
            failures.append(f"{path}: {type(err).__name__}: {str(err)[-1500:]}")
    print("\\n".join(failures))
    sys.exit(1 if failures else 0)
    """
)


class StepFailed(Exception):
    pass


def _run(cmd, **kwargs) -> str:
    print("$", " ".join(map(str, cmd)), flush=True)
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    if proc.returncode != 0:
        raise StepFailed(f"{cmd} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc.stdout


def build(folder: Path) -> None:
    repo = folder / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    venv = folder / "binder-venv"
    base_python = getattr(sys, "_base_executable", None) or sys.executable
    _run([base_python, "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env.pop("MPLBACKEND", None)
    # uv (the installer of `make setup`) rather than pip, which Binder's repo2docker uses
    # (test_publishing checks that command): the same pins resolve to the same versions, and
    # uv installs from the cache `make setup` filled, many times faster than pip.
    # Nothing is byte-compiled ahead (that would compile every installed module); the imports
    # below compile and cache what the chapters use, so PYTHONDONTWRITEBYTECODE, which this
    # machine sets, is dropped here as a Binder image does not set it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    uv = [str(Path(sys.executable).parent / "uv"), "pip", "install", "-q"]
    _run(
        [*uv, "--python", str(bin_dir / "python"), "-r", str(repo / "binder" / "requirements.txt")],
        env=env,
        timeout=1200,
    )
    _run(["bash", str(repo / "binder" / "postBuild")], cwd=repo, env=env, timeout=600)

    # The package must come from the copy postBuild installed, not from the dev checkout.
    where = _run(
        [str(bin_dir / "python"), "-c", "import clfmetrics; print(clfmetrics.__file__)"],
        env=env,
    ).strip()
    if not where.startswith(str(repo)):
        raise StepFailed(f"clfmetrics was imported from {where}, not from the Binder copy")

    chapters = [str(repo / p.relative_to(ROOT)) for p in notebook_pages()]
    if len(chapters) < 10:
        raise StepFailed(f"only {len(chapters)} chapters found")
    print(_run([str(bin_dir / "python"), "-c", IMPORTS, *chapters], env=env, timeout=600))
    whole = [c for c in chapters if any(c.endswith(f"/{stem}.md") for stem in EXECUTED)]
    if len(whole) != len(EXECUTED):
        raise StepFailed(f"chapters to execute not found: {whole}")
    _run([str(bin_dir / "python"), "-c", RUNNER, *whole], env=env, timeout=600)
    print(f"executed {len(whole)} chapter(s) on the Binder kernel")


def main(argv: list[str]) -> int:
    try:
        build(Path(argv[1]))
    except (StepFailed, subprocess.TimeoutExpired) as err:
        print(f"BINDER STEP FAILED: {err}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
