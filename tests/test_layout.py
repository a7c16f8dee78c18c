"""The package's layout: which layer may import which, module size, and a numpy-only core.

The layers (``src/clfmetrics/README.md`` draws them):

1. the library: the modules directly in ``clfmetrics/`` (numpy and the standard library);
2. the book's apparatus built on it: ``properties/``, ``theory/``, ``sources/``, ``tooling/``,
   ``examples/``;
3. ``plots/`` (matplotlib), which may draw anything below it;
4. ``widgets/`` (ipywidgets), which may use the plots.

``coursework/`` stands apart: it reads chapters and grades notebooks, and imports no
other part of the package. An import may point down the layers, never up.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "clfmetrics"

#: Layer of each subpackage; the library's own modules are layer 1.
LAYERS = {
    "": 1,
    "properties": 2,
    "theory": 2,
    "sources": 2,
    "tooling": 2,
    "examples": 2,
    "plots": 3,
    "widgets": 4,
    "coursework": 0,  # apart: imports nothing of the package, and nothing imports it
}

#: The most lines a module may have (the guide's "about 400").
MAX_LINES = 420

#: What a library module may import at module level, besides the package itself.
LIBRARY_IMPORTS = {"numpy", "__future__"} | set(sys.stdlib_module_names)

HEAVY = (
    "sympy",
    "matplotlib",
    "scipy",
    "ipywidgets",
    "sklearn",
    "IPython",
    "pandas",
    "duckdb",
    "pyspark",
    "dask",
    "pyarrow",
)


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _part(path: Path) -> str:
    rel = path.relative_to(PACKAGE).parts
    return rel[0] if len(rel) > 1 else ""


def _package_of(path: Path) -> list[str]:
    """The package a relative import starts from (for ``__init__.py``, its own package)."""
    return ["clfmetrics", *path.relative_to(PACKAGE).parts[:-1]]


def _imports(path: Path, *, top_level_only: bool):
    """(absolute module name, line) of every import; relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = tree.body if top_level_only else list(ast.walk(tree))
    base = _package_of(path)
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parent = base[: len(base) - node.level + 1]
                name = ".".join(parent + ([node.module] if node.module else []))
                if node.module is None:  # from . import x: each x may be a module
                    for alias in node.names:
                        yield f"{name}.{alias.name}", node.lineno
                    continue
            else:
                name = node.module
            yield name, node.lineno


def _target_part(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] != "clfmetrics":
        return None
    if len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return ""  # the library: clfmetrics itself or one of its top-level modules


def test_the_layout_has_the_layers_it_claims():
    subpackages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert subpackages <= set(LAYERS), f"unknown subpackages {subpackages - set(LAYERS)}"
    for name in ("properties", "theory", "sources", "plots", "widgets", "coursework"):
        assert name in subpackages


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_point_down_the_layers(path):
    here = _part(path)
    for name, line in _imports(path, top_level_only=False):
        there = _target_part(name)
        if there is None or there == here:
            continue
        where = f"{path.relative_to(PACKAGE)}:{line} imports {name}"
        if here == "coursework" or there == "coursework":
            pytest.fail(f"coursework stands apart, but {where}")
        assert LAYERS[there] < LAYERS[here], f"{where}: an import that points up or sideways"


@pytest.mark.parametrize(
    "path",
    [p for p in _modules() if _part(p) == ""],
    ids=lambda p: p.name,
)
def test_library_modules_import_only_numpy_and_the_standard_library(path):
    for name, line in _imports(path, top_level_only=True):
        root = name.split(".")[0]
        if root == "clfmetrics":
            continue
        assert root in LIBRARY_IMPORTS, (
            f"{path.name}:{line} imports {name} at module level; import it inside the "
            "function that needs it, or move the code into a subpackage"
        )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_too_long(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(PACKAGE)} has {lines} lines; split it"


def test_import_clfmetrics_works_with_numpy_alone():
    """Hide every heavy dependency, then import the library and compute with it."""
    code = textwrap.dedent(
        f"""
        import importlib.abc, sys

        HEAVY = {HEAVY!r}

        class Hide(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in HEAVY:
                    raise ModuleNotFoundError(f"{{name}} is hidden by the test")
                return None

        sys.meta_path.insert(0, Hide())
        import clfmetrics as cm

        m = [[5, 1], [2, 7]]
        for name, metric in cm.METRICS.items():
            metric(m)
        loaded = sorted(k for k in sys.modules if k.split(".")[0] in HEAVY)
        assert not loaded, loaded
        print("ok", len(cm.METRICS))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok ")


def test_the_hiding_works():
    """The test above would pass vacuously if hiding did nothing: prove it hides."""
    code = textwrap.dedent(
        """
        import importlib.abc, sys

        class Hide(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] == "sympy":
                    raise ModuleNotFoundError("hidden")
                return None

        sys.meta_path.insert(0, Hide())
        import clfmetrics.theory.lemma
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode != 0
    assert "hidden" in out.stderr
