"""A Binder simulation: a fresh venv built from ``binder/`` alone runs every chapter.

Binder installs ``binder/requirements.txt``, runs ``binder/postBuild`` in the
repository, and opens the chapters in JupyterLab. This test does the same in
a new virtual environment that shares nothing with the development one, on a
copy of the repository, and executes every chapter notebook on that
environment's kernel. It catches a package a chapter imports but Binder does
not install, which the development environment (a superset) would hide.
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
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "-q", "--disable-pip-version-check"]
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
    _run([str(bin_dir / "python"), "-c", RUNNER, *chapters], env=env, timeout=1200)
