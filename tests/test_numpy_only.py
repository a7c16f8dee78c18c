"""The library needs numpy alone, at import and at call time (issue 19, item 3).

The end-to-end test builds a fresh virtual environment that holds nothing but
numpy (the shared environment's numpy, linked in, so no network or package index
is needed) and runs a paired comparison through the command line there.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from numpy_only import numpy_only_venv, run

from clfmetrics import mcnemar, mcnemar_sample_size, to_labels

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "clfmetrics"


def scipy_imports(path: Path) -> list[str]:
    """Every import of scipy in a module, at any depth (functions included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        found += [f"{path.name}:{node.lineno} {n}" for n in names if n.split(".")[0] == "scipy"]
    return found


def test_no_library_module_imports_scipy_even_at_call_time():
    modules = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    assert len(modules) > 10
    offenders = [hit for path in modules for hit in scipy_imports(path)]
    assert not offenders, f"the library promises numpy only: {offenders}"


def test_the_scan_finds_a_call_time_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from scipy.stats import binomtest\n    return binomtest\n")
    assert scipy_imports(module) == ["m.py:2 scipy.stats"]


@pytest.mark.parametrize("power", [1.5, 0, 1, "0.8", True])
def test_mcnemar_sample_size_names_power(power):
    with pytest.raises(ValueError, match=r"^power must"):
        mcnemar_sample_size(0.02, 0.1, power=power)


def test_mcnemar_pvalue_equals_scipy():
    from scipy.stats import binomtest

    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 500)
    for _ in range(20):
        a = np.where(rng.random(500) < rng.uniform(0.5, 0.9), y, (y + 1) % 3)
        b = np.where(rng.random(500) < rng.uniform(0.5, 0.9), y, (y + 2) % 3)
        r = mcnemar(y, a, b)
        ref = binomtest(r.a_only, r.a_only + r.b_only, 0.5).pvalue
        assert r.pvalue == pytest.approx(ref, rel=1e-12)


def test_paired_report_runs_in_a_venv_with_only_numpy(tmp_path):
    python, env = numpy_only_venv(tmp_path, PACKAGE.parent)
    probe = run(python, env, ["-c", "import numpy, sys; import scipy"], timeout=120)
    assert probe.returncode != 0 and "No module named 'scipy'" in probe.stderr

    m = np.array([[60, 15, 5], [35, 170, 40], [5, 15, 55]])
    y_true, y_pred = to_labels(m, ["negative", "neutral", "positive"])
    other = np.roll(y_pred, 7)
    path = tmp_path / "preds.csv"
    rows = [f"{t},{p},{o}" for t, p, o in zip(y_true, y_pred, other, strict=True)]
    path.write_text("gold,model,baseline\n" + "\n".join(rows) + "\n")
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--pred", "baseline"]
    out = run(python, env, ["-m", "clfmetrics", *argv, "--size", "500"], timeout=300)
    assert out.returncode == 0, out.stderr
    expected = mcnemar(y_true, y_pred, other)
    assert "McNemar's exact test on accuracy" in out.stdout
    assert f"model alone right on {expected.a_only} items" in out.stdout


@pytest.mark.fresh_env
def test_html_report_with_curves_runs_in_a_venv_with_only_numpy(tmp_path):
    """--format html draws its figures with the package's own SVG writer: no matplotlib."""
    python, env = numpy_only_venv(tmp_path, PACKAGE.parent)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 200)
    s = np.clip(0.4 * y + 0.6 * rng.random(200), 0, 1)
    path = tmp_path / "scored.csv"
    rows = [f"{t},{int(p >= 0.5)},{p:.4f}" for t, p in zip(y, s, strict=True)]
    path.write_text("gold,model,score\n" + "\n".join(rows) + "\n")
    target = tmp_path / "report.html"
    argv = ["report", str(path), "--truth", "gold", "--pred", "model", "--scores", "score"]
    argv += ["--size", "200", "--format", "html", "--output", str(target)]
    out = run(python, env, ["-m", "clfmetrics", *argv], timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "" and out.stderr.startswith("clfmetrics: wrote the html report")
    page = target.read_text(encoding="utf-8")
    assert page.count("<svg") == 3 and "ROC curve" in page and "Reliability diagram" in page
