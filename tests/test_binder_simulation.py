"""A Binder simulation: a fresh venv built from ``binder/`` alone serves every chapter.

Binder installs ``binder/requirements.txt``, runs ``binder/postBuild`` in the
repository, and opens the chapters in JupyterLab. This test does the same in
a new virtual environment that shares nothing with the development one, on a
copy of the repository. In that environment it imports every module that any
code cell of any chapter imports (read from the cells, so a later cell's import
counts as much as the set-up cell's), and executes the first chapter (an explorer,
matplotlib) on the environment's kernel. It catches a package a chapter imports but Binder
does not install, which the development environment (a superset) would hide; the
development suite already executes every chapter (``test_chapters.py``) and
builds the book, so executing them all a third time here would add minutes and
no new failure mode.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
from chapter_runner import ROOT, notebook_pages

pytestmark = pytest.mark.slow

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

#: Chapters executed whole in the Binder environment (see the module docstring).
# The end-to-end chapter (16, scikit-learn) is not executed again here: its imports are
# checked above in this environment, and the book build executes it on the same pins
# (test_publishing checks that binder/requirements.txt pins what requirements.txt pins).
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


def _run(cmd, **kwargs):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    return proc


def test_every_chapter_runs_in_a_binder_like_environment(tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(ROOT, repo, ignore=COPY_IGNORE)
    venv = tmp_path / "binder-venv"
    base_python = getattr(sys, "_base_executable", None) or sys.executable
    _run([base_python, "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env.pop("MPLBACKEND", None)
    # --no-compile: byte-compiling every installed package cost as much CPU as the install
    # itself (87 s against 44 s, measured); the imports below compile what is used.
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
    pip.append("--no-compile")
    _run([*pip, "-r", str(repo / "binder" / "requirements.txt")], env=env, timeout=900)
    _run(["bash", str(repo / "binder" / "postBuild")], cwd=repo, env=env, timeout=600)

    # The package must come from the copy postBuild installed, not from the dev checkout.
    where = _run(
        [str(bin_dir / "python"), "-c", "import clfmetrics; print(clfmetrics.__file__)"],
        env=env,
    ).stdout.strip()
    assert where.startswith(str(repo)), where

    chapters = [str(repo / p.relative_to(ROOT)) for p in notebook_pages()]
    assert len(chapters) >= 10
    imported = _run([str(bin_dir / "python"), "-c", IMPORTS, *chapters], env=env, timeout=600)
    assert "imports ok" in imported.stdout
    whole = [c for c in chapters if any(c.endswith(f"/{stem}.md") for stem in EXECUTED)]
    assert len(whole) == len(EXECUTED), whole
    _run([str(bin_dir / "python"), "-c", RUNNER, *whole], env=env, timeout=600)
