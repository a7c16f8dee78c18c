"""The package's layout: which layer may import which, module size, and a numpy-only core.

The layers (``src/clfmetrics/README.md`` draws them):

1. the library: the modules directly in ``clfmetrics/`` (numpy and the standard library);
2. the book's apparatus built on it: ``properties/``, ``theory/``, ``sources/``, ``tooling/``,
   ``examples/``;
3. ``plots/`` (matplotlib), which may draw anything below it;
4. ``widgets/`` (ipywidgets), which may use the plots.

``coursework/`` stands apart: it reads chapters and grades notebooks, and imports no
other part of the package. An import may point down the layers, never up.

Every import of the package's own modules happens when the module is loaded, never inside a
function (a lazy import of an optional third-party package such as scipy or duckdb is fine),
and the graph of those imports has no cycle: each shared piece (``_interval.Interval``,
``_registry.METRICS``) sits below everything that uses it.
"""

from __future__ import annotations

import ast
import graphlib
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


def _own_imports(path: Path, tree: ast.AST, *, in_functions: bool):
    """(name, line) of each import of the package in ``tree``, those inside function bodies
    (``in_functions=True``) or those run when the module loads (class bodies and ``if``
    blocks included). ``from .m import x`` gives ``clfmetrics.m.x``: x may be a module."""
    scopes = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda

    def visit(node, inside):
        for child in ast.iter_child_nodes(node):
            nested = inside or isinstance(child, scopes)
            if isinstance(child, ast.Import | ast.ImportFrom) and nested == in_functions:
                yield child
            yield from visit(child, nested)

    base = _package_of(path)
    for node in visit(tree, False):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            start = base[: len(base) - node.level + 1] if node.level else []
            module = ".".join(start + ([node.module] if node.module else []))
            names = [f"{module}.{alias.name}" for alias in node.names]
        for name in names:
            if name.split(".")[0] == "clfmetrics":
                yield name, node.lineno


def _module_name(path: Path) -> str:
    parts = ["clfmetrics", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _resolve(name: str, modules: set[str]) -> str:
    """The module an imported name lives in (``clfmetrics.METRICS`` -> ``clfmetrics``)."""
    parts = name.split(".")
    while ".".join(parts) not in modules:
        parts.pop()
    return ".".join(parts)


def _import_graph(paths) -> dict[str, set[str]]:
    """Module -> the package's modules it loads at import time.

    Importing ``a.b.c`` also runs the packages ``a.b`` and ``a``; those are edges too,
    except for the importer's own enclosing packages, which Python runs before it."""
    names = {_module_name(p): p for p in paths}
    graph = {}
    for name, path in names.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = {name.rsplit(".", k)[0] for k in range(1, name.count(".") + 1)}
        edges = set()
        for imported, _ in _own_imports(path, tree, in_functions=False):
            target = _resolve(imported, set(names))
            edges.add(target)
            parents = {target.rsplit(".", k)[0] for k in range(1, target.count(".") + 1)}
            edges |= parents - own
        graph[name] = edges - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as err:
        return err.args[1]
    return None


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
def test_no_module_imports_the_package_at_call_time(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    late = [f"line {line}: {name}" for name, line in _own_imports(path, tree, in_functions=True)]
    assert not late, (
        f"{path.relative_to(PACKAGE)} imports the package inside a function ({'; '.join(late)}); "
        "import it at module level, and move what two modules share below both"
    )


def test_the_import_graph_has_no_cycle():
    graph = _import_graph(_modules())
    assert graph["clfmetrics.inference"] >= {
        "clfmetrics.inference._interval",
        "clfmetrics.inference._bootstrap",
    }
    assert "clfmetrics.metrics._registry" in graph["clfmetrics"]
    assert _cycle(graph) is None, f"an import cycle: {' -> '.join(_cycle(graph))}"


def test_the_import_checks_find_what_they_look_for(tmp_path, monkeypatch):
    """A call-time import and a circle, written out, are found (the checks are not vacuous)."""
    package = tmp_path / "clfmetrics"
    (package / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from .a import f\nMETRICS = {}\n",
        "a.py": "import numpy\nfrom . import b\n\ndef f():\n    import scipy\n    return b\n",
        "b.py": "def g():\n    from . import METRICS\n    from .sub import c\n",
        "sub/__init__.py": "",
        "sub/c.py": "from .. import a\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    paths = sorted(package.rglob("*.py"))
    b = package / "b.py"
    late = list(_own_imports(b, ast.parse(b.read_text()), in_functions=True))
    assert late == [("clfmetrics.METRICS", 2), ("clfmetrics.sub.c", 3)]
    a = package / "a.py"
    assert list(_own_imports(a, ast.parse(a.read_text()), in_functions=True)) == []
    graph = _import_graph(paths)
    assert graph["clfmetrics.sub.c"] == {"clfmetrics.a"}
    assert _cycle(graph) is None  # b's imports run only when g is called
    (package / "b.py").write_text("from .sub import c\n", encoding="utf-8")
    cycle = _cycle(_import_graph(paths))
    assert cycle is not None and "clfmetrics.sub.c" in cycle


def test_the_package_readme_draws_every_module():
    """The drawing in ``src/clfmetrics/README.md`` names every library module and subpackage."""
    drawing = (PACKAGE / "README.md").read_text(encoding="utf-8").split("```")[1]
    names = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    names += [f"{p.parent.name}/" for p in PACKAGE.glob("*/__init__.py")]
    missing = sorted(name for name in names if name not in drawing)
    assert not missing, f"src/clfmetrics/README.md does not draw {missing}"


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
        import clfbook.theory.lemma
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert out.returncode != 0
    assert "hidden" in out.stderr
