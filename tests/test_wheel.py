"""What `pip install .` gives: the library alone, which runs with numpy and nothing else.

The wheel is built from a copy of the project's files (so the build leaves nothing behind in
the checkout), with every package of ``src/`` beside it: the book's apparatus (``clfbook``)
and the coursework tool (``clfcourse``) must stay out of it. It is then unpacked, as an
installer would, into a fresh environment whose only other package is numpy, and the command
line reads a file there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
UV = Path(sys.executable).parent / "uv"

pytestmark = pytest.mark.fresh_env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("project")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "src", src / "src", ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [UV, "build", "--wheel", "--quiet", "-o", str(out), str(src)],
        check=True,
        timeout=300,
    )
    (whl,) = out.glob("clfmetrics-*.whl")
    return whl


def test_the_wheel_holds_the_library_alone(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"clfmetrics", wheel.name.split("-py3")[0] + ".dist-info"}, tops
    library = {n for n in names if n.startswith("clfmetrics/") and n.endswith(".py")}
    in_src = {
        p.relative_to(ROOT / "src").as_posix()
        for p in (ROOT / "src" / "clfmetrics").rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert library == in_src
    for part in ("widgets", "plots", "theory", "coursework", "properties", "sources"):
        assert not any(f"/{part}/" in n or n.startswith(f"{part}/") for n in names), part


def test_the_installed_wheel_reports_with_numpy_alone(wheel, tmp_path):
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    numpy_dir = Path(np.__file__).parent
    for entry in numpy_dir.parent.iterdir():
        if entry.name == "numpy" or entry.name.startswith("numpy.libs"):
            (site / entry.name).symlink_to(entry)
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")],
        check=True,
        timeout=120,
    )
    python = tmp_path / "venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env |= {"PYTHONPATH": str(site), "PYTHONNOUSERSITE": "1"}
    probe = subprocess.run(
        [python, "-c", "import clfmetrics, sys; print(clfmetrics.__file__); import scipy"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert probe.stdout.startswith(str(site)), probe.stdout + probe.stderr
    assert "No module named 'scipy'" in probe.stderr

    rows = ["gold,model"] + [
        f"{'cat' if i % 3 else 'dog'},{'cat' if i % 4 else 'dog'}" for i in range(90)
    ]
    path = tmp_path / "predictions.csv"
    path.write_text("\n".join(rows) + "\n")
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--size", "200", "--json"]
    out = subprocess.run(
        [python, "-m", "clfmetrics", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert '"accuracy"' in out.stdout
    bad = subprocess.run(
        [python, "-m", "clfmetrics", "report", str(path), "--truth", "nope", "--pred", "model"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
