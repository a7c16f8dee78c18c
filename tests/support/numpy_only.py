"""A fresh environment whose only package is numpy, and the command line run in it.

The venv links in the shared environment's numpy (no network, no package index); the
library comes from ``library``, a folder put on ``PYTHONPATH``: the checkout's ``src``
(tests/test_numpy_only.py) or an unpacked wheel (tests/test_wheel.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np


def numpy_only_venv(root: Path, library: Path) -> tuple[Path, dict]:
    """A venv in ``root`` with numpy alone beside ``library``; returns its python and env."""
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root / "venv")],
        check=True,
        timeout=120,
    )
    site = root / "numpy-site"
    site.mkdir()
    for entry in Path(np.__file__).parent.parent.iterdir():
        if entry.name == "numpy" or entry.name.startswith("numpy.libs"):
            (site / entry.name).symlink_to(entry)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = os.pathsep.join([str(library), str(site)])
    env["PYTHONNOUSERSITE"] = "1"
    return root / "venv" / "bin" / "python", env


def run(python: Path, env: dict, args: list[str], timeout: int = 300):
    """``python ARGS`` in that environment, its output captured as text."""
    return subprocess.run(
        [python, *args], capture_output=True, text=True, env=env, timeout=timeout, check=False
    )
