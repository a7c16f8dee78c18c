"""Shared fixtures: the whole book is built once per test session."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from chapter_runner import ROOT

JUPYTER_BOOK = Path(sys.executable).parent / "jupyter-book"


@pytest.fixture(scope="session")
def built_html(tmp_path_factory) -> Path:
    """Build the book from scratch (cold execution cache) with warnings as errors."""
    out = tmp_path_factory.mktemp("book")
    proc = subprocess.run(
        [
            str(JUPYTER_BOOK),
            "build",
            str(ROOT),
            "--path-output",
            str(out),
            "-W",
            "-n",
            "--keep-going",
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, f"book build failed:\n{log[-6000:]}"
    return out / "_build" / "html"
