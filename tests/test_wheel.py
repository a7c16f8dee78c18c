"""What `pip install .` gives: the library alone, which runs with numpy and nothing else.

The wheel is built from a copy of the project's files (so the build leaves nothing behind in
the checkout), with every package of ``src/`` beside it: the book's apparatus (``clfbook``)
and the coursework tool (``clfcourse``) must stay out of it. It is then unpacked, as an
installer would, into a fresh environment whose only other package is numpy, and the command
line reads a file there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from numpy_only import numpy_only_venv, run

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
    python, env = numpy_only_venv(tmp_path, site)
    code = "import clfmetrics; print(clfmetrics.__file__); import scipy"
    probe = run(python, env, ["-c", code], timeout=120)
    assert probe.stdout.startswith(str(site)), probe.stdout + probe.stderr
    assert "No module named 'scipy'" in probe.stderr

    rows = ["gold,model"] + [
        f"{'cat' if i % 3 else 'dog'},{'cat' if i % 4 else 'dog'}" for i in range(90)
    ]
    path = tmp_path / "predictions.csv"
    path.write_text("\n".join(rows) + "\n")
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--size", "200", "--json"]
    out = run(python, env, ["-m", "clfmetrics", *argv], timeout=300)
    assert out.returncode == 0, out.stderr
    assert '"accuracy"' in out.stdout
    argv = ["report", str(path), "--truth", "nope", "--pred", "model"]
    bad = run(python, env, ["-m", "clfmetrics", *argv], timeout=120)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
