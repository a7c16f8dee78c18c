"""A Binder simulation: a fresh venv built from ``binder/`` alone serves the chapters.

Binder installs ``binder/requirements.txt``, runs ``binder/postBuild`` in the
repository, and opens the chapters in JupyterLab. ``binder_env.py`` does the same in
a new virtual environment that shares nothing with the development one, on a
copy of the repository, in the background of the run (``conftest.BACKGROUND``). In that
environment it imports every module that any code cell of any chapter imports (read from the
cells, so a later cell's import counts as much as the set-up cell's), and executes the first
chapter (an explorer, matplotlib) on the environment's kernel. It catches a package a chapter
imports but Binder does not install, which the development environment (a superset) would
hide; the development suite already executes every chapter (``test_chapters.py``) and builds
the book, so executing them all a third time here would add minutes and no new failure mode.
"""

from __future__ import annotations

from binder_env import EXECUTED


def test_every_chapter_runs_in_a_binder_like_environment(binder_env):
    ok, log, folder = binder_env
    assert ok, f"the Binder environment failed:\n{log[-8000:]}"
    assert "imports ok" in log
    assert f"executed {len(EXECUTED)} chapter(s) on the Binder kernel" in log
    venv = folder / "binder-venv"
    assert (venv / "bin" / "jupyter-lab").exists(), "Binder's JupyterLab was not installed"
    config = venv / "etc" / "jupyter" / "jupyter_server_config.py"
    assert config.exists(), "postBuild did not install the book's Jupyter configuration"
