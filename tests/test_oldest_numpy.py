"""The oldest numpy, DuckDB and Python that pyproject.toml promises are the ones run here.

``pip install clfmetrics`` accepts any numpy from the lower bound of ``dependencies`` on (and
``[duckdb]`` any DuckDB from its extra's), on any Python from ``requires-python``'s; the book's
and the tests' environments pin recent ones. This test builds a fresh environment from PyPI
with uv (the pinned one that set up .venv) holding the oldest promised numpy and DuckDB on
the oldest promised Python, the library as ``pip install .[duckdb]`` gives it, and the
oracles at their newest releases that support that numpy, and runs the library's tier of the
suite there: every test file that imports nothing but the library, the standard library,
numpy, pytest and hypothesis, the oracles (scipy, scikit-learn) and the library's optional
pandas and DuckDB; and the library's doctests.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from chapter_runner import ROOT
from packaging.requirements import Requirement

pytestmark = pytest.mark.fresh_env

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
OLDEST_PYTHON = PROJECT["requires-python"].removeprefix(">=")


def _oldest(requirement: str) -> str:
    """A range's lower bound, pinned: numpy>=1.24.1 gives numpy==1.24.1."""
    parsed = Requirement(requirement)
    (bound,) = [s.version for s in parsed.specifier if s.operator == ">="]
    return f"{parsed.name}=={bound}"


#: The library's own ranges, each at its lower bound: numpy, and DuckDB (the one engine the
#: tier runs).
OLDEST = [_oldest(r) for r in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["duckdb"]]
NAMES = [Requirement(r).name for r in OLDEST]

#: What the tier may import besides the standard library and its own helper modules.
TIER_IMPORTS = {"clfmetrics", "numpy", "pytest", "hypothesis", "scipy", "sklearn", "pandas"}
TIER_IMPORTS |= {"duckdb", "conftest"}
#: The fresh environment's packages besides the library: the oracles and the suite's tools
#: (tests/conftest.py reads yaml through chapter_runner and takes a filelock; pytest-xdist
#: for a run on workers).
PACKAGES = ["scipy", "scikit-learn", "pandas", "pytest", "pytest-xdist", "hypothesis"]
PACKAGES += ["pyyaml", "filelock"]
#: PyPI as it was on that day: the environment resolves the same tomorrow. A later day
#: brings newer oracles, as long as they still support the oldest numpy.
AS_OF = "2026-12-01T00:00:00Z"

#: Files the import rule lets in that are not about the library at work.
NOT_THE_LIBRARY = {
    "tests/test_layout.py": "reads the source tree's modules and imports as text",
    "tests/test_venv_files.py": "checks .venv's files, installed by make setup",
    "tests/book/test_kernel_startup.py": "starts a Jupyter kernel",
    "tests/io/test_engines_spark.py": "needs Spark's JVM",
    "tests/test_wheel.py": "builds the wheel with uv, in an environment of its own",
}
#: Tests of the tier that need something the fresh environment does not hold, by node id.
DESELECT = {
    # A browser: the `browser` fixture (Playwright and Chromium).
    "tests/reporting/test_report_formats.py::"
    "test_html_in_chromium_runs_nothing_fetches_nothing_and_draws_the_figures",
    # scipy's private _bca_interval, whose signature is the pinned scipy's: the newest scipy
    # for the oldest numpy calls it with one argument fewer.
    "tests/reporting/test_report_checks.py::"
    "test_macro_auc_bca_agrees_with_scipy_bootstrap_of_the_classes",
    "tests/inference/test_auc.py::test_bca_acceleration_is_scipys_exactly",
}


def _imports(path: Path) -> set[str]:
    """The top-level modules a file imports, pytest.importorskip's included."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found.add(node.module.split(".")[0])
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "importorskip"
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(node.args[0].value.split(".")[0])
    return found - set(sys.stdlib_module_names)


def _in_tier(path: Path, seen: frozenset[str] = frozenset()) -> bool:
    """Whether a test file (and every helper of tests/support it imports) stays in the tier."""
    for name in _imports(path) - TIER_IMPORTS - seen:
        helper = ROOT / "tests" / "support" / f"{name}.py"
        if not helper.exists() or not _in_tier(helper, seen | {name}):
            return False
    return True


def tier() -> list[str]:
    files = [path.relative_to(ROOT).as_posix() for path in (ROOT / "tests").rglob("test_*.py")]
    return sorted(f for f in files if f not in NOT_THE_LIBRARY and _in_tier(ROOT / f))


def test_the_tier_is_the_library_suite():
    """The rule picks the library's tests, not the book's, the browser's or the grader's."""
    picked = set(tier())
    assert len(picked) > 30
    assert {"tests/test_numpy_only.py", "tests/io/test_counts.py"} <= picked
    assert {"tests/metrics/test_common.py", "tests/inference/test_auc.py"} <= picked
    heavy = {"tests/book/apparatus/test_widgets.py", "tests/book/test_browser.py"}
    assert not picked & (heavy | {"tests/book/test_book.py", "tests/coursework/test_gradebook.py"})
    assert not {d.split("::")[0] for d in DESELECT} - picked


def _run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    proc = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, (
        f"{command[:4]}: exit {proc.returncode}\n{proc.stdout[-6000:]}\n{proc.stderr[-3000:]}"
    )
    return proc


def test_the_library_tier_passes_at_the_oldest_promised_versions(tmp_path):
    uv = str(Path(sys.executable).parent / "uv")
    venv = tmp_path / "oldest"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "PYTHON"))}
    # Only an interpreter of this machine: uv would fetch one from GitHub, not from PyPI.
    env["UV_PYTHON_DOWNLOADS"] = "never"
    _run([uv, "venv", "--quiet", "--python", OLDEST_PYTHON, str(venv)], env=env)
    python = str(venv / "bin" / "python")
    # The library from a copy of what git tracks of it, as a clean clone has it: a build/ left
    # in the checkout by an earlier build would otherwise slip stale modules into the wheel.
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(
        ROOT / "src" / "clfmetrics",
        project / "src" / "clfmetrics",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    _run(
        [
            uv,
            "pip",
            "install",
            "--quiet",
            "--python",
            python,
            "--exclude-newer",
            AS_OF,
            *OLDEST,
            f"{project}[duckdb]",
            *PACKAGES,
        ],
        env=env,
    )
    script = (
        "import json, sys; from importlib.metadata import version; "
        f"print(json.dumps(['%d.%d' % sys.version_info[:2], *map(version, {NAMES!r})]))"
    )
    python_version, *installed = json.loads(_run([python, "-c", script], env=env).stdout)
    assert python_version == OLDEST_PYTHON
    for requirement, got in zip(OLDEST, installed, strict=True):
        assert Requirement(requirement).specifier.contains(got), (requirement, got)
    # The installed library, not src/ (its doctests by --pyargs); one process, beside the
    # suite's own workers; any skip would be a test of the tier that did not run.
    proc = subprocess.run(
        [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-rs",
            "--basetemp",
            str(tmp_path / "run"),
            "--pyargs",
            *tier(),
            "clfmetrics",
            *(f"--deselect={d}" for d in sorted(DESELECT)),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-8000:] + proc.stderr[-2000:]
    assert " skipped" not in proc.stdout.splitlines()[-1], proc.stdout[-4000:]
