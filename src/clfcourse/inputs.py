"""What grading reads from a chapter before any submission runs: its tests and its names.

The test files of the autograder zip, the names those tests read, and from the teacher
notebook the names the chapter binds by import and as given data (outside solution cells).
"""

from __future__ import annotations

import ast
import builtins
import doctest
import textwrap
import zipfile
from pathlib import Path

import nbformat

from .exercises import META


def names_read(tests: dict[str, bytes]) -> list[str]:
    """Every name the test cases read (what must be carried out of the student's kernel)."""
    names: set[str] = set()
    parser = doctest.DocTestParser()
    for text in tests.values():
        spec: dict = {}
        exec(text, spec)  # the teacher's test file, read before any submission ran
        # the cases as otter's OKTestFile.from_spec reads them (without importing otter's API)
        for case in (c for suite in spec["test"]["suites"] for c in suite["cases"]):
            body = textwrap.dedent(case["code"])
            trees = [ast.parse(e.source) for e in parser.get_examples(body)]
            found = [n for t in trees for n in ast.walk(t) if isinstance(n, ast.Name)]
            stored = {n.id for n in found if isinstance(n.ctx, ast.Store)}
            names |= {n.id for n in found if n.id not in stored}
    return sorted(names - set(dir(builtins)))


def load_tests(autograder: Path) -> dict[str, bytes]:
    """The test files of an autograder zip, read before any submission runs."""
    with zipfile.ZipFile(autograder) as zf:
        return {
            Path(member).name: zf.read(member)
            for member in zf.namelist()
            if member.startswith("tests/") and member.endswith(".py")
        }


def chapter_imports(teacher: Path) -> dict[str, list]:
    """The names the chapter's own code binds by import (solution cells left out).

    Read from the teacher notebook: ``{"np": ["numpy", None], "precision": ["clfmetrics",
    "precision"], ...}``; the clean process binds them from the real modules.
    """
    found: dict[str, list] = {}
    for cell in nbformat.read(teacher, as_version=4).cells:
        role = cell.get("metadata", {}).get(META, {}).get("role")
        if cell.cell_type != "code" or role == "solution":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:  # IPython magics
            continue
        for node in tree.body:
            if isinstance(node, ast.Import):  # `import a.b` binds a, `import a.b as c` a.b
                for alias in node.names:
                    bound = alias.asname or alias.name.split(".")[0]
                    found[bound] = [alias.name if alias.asname else bound, None]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.update({a.asname or a.name: [node.module, a.name] for a in node.names})
    found.pop("*", None)
    return found


def chapter_givens(teacher: Path) -> list[str]:
    """Every name a non-solution code cell binds and no solution cell does (the given data)."""
    given: set[str] = set()
    answers: set[str] = set()
    for cell in nbformat.read(teacher, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:  # IPython magics
            continue
        bound = {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        bound |= {
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
        role = cell.get("metadata", {}).get(META, {}).get("role")
        (answers if role == "solution" else given).update(bound)
    return sorted(given - answers)
