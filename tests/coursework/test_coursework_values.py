"""Values leave a student's kernel as data only (issue 19, item 20): what travels, what does not.

The grader rebuilds a submission's values from tagged JSON written by the student's kernel, so
that JSON is untrusted: decoding must give back exactly what was encoded, and refuse anything
that could run code or stand in for a value.
"""

from __future__ import annotations

import ast
import json
from fractions import Fraction
from pathlib import Path

import nbformat
import numpy as np
import pandas as pd
import pytest
from coursework_products import book_assignment

import clfmetrics as cm
from clfcourse.exercises import notebook_chapters
from clfcourse.inputs import chapter_imports
from clfcourse.isolated import _imported
from clfcourse.values import NotCarried, decode, encode
from clfmetrics import Interval

ROOT = Path(__file__).resolve().parents[2]


def _round_trip(value):
    return decode(json.loads(json.dumps(encode(value))))


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3,
        0.1,
        float("nan"),
        "text",
        1 + 2j,
        Fraction(2, 3),
        [1, (2.5, "a")],
        {"PI": False, 3: {1, 2}},
        np.arange(6, dtype=np.int64).reshape(2, 3),
        np.array([0.1, np.nan, np.inf]),
        np.float32(0.25),
        np.array(["a", "bc"]),
    ],
)
def test_plain_values_come_back_with_their_type_and_value(value):
    back = _round_trip(value)
    assert type(back) is type(value)
    if isinstance(value, np.ndarray):
        nan = value.dtype.kind == "f"
        assert back.dtype == value.dtype and np.array_equal(back, value, equal_nan=nan)
    elif isinstance(value, float) and value != value:
        assert back != back
    else:
        assert back == value


def test_library_objects_travel_as_references_and_fields():
    assert _round_trip(np) is np and _round_trip(cm.macro_f1) is cm.macro_f1
    iv = cm.interval("accuracy", np.array([[5, 1], [2, 7]]), size=200, rng=1)
    back = _round_trip(iv)
    assert type(back) is Interval and back == iv
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]}, index=[3, 4])
    pd.testing.assert_frame_equal(_round_trip(frame), frame)


def test_the_books_data_tables_travel_and_the_rest_of_clfbook_does_not():
    """Chapter 12's ``table`` (a data class of ``clfbook.sources``) is given data its tests
    read; only that part of the book's apparatus is trusted, not its build tooling."""
    from clfbook.sources.shared_task import ScoreTable, load_semeval2017_task4
    from clfbook.tooling import lab_markup

    table = load_semeval2017_task4()
    back = _round_trip(table)
    assert type(back) is ScoreTable and back.systems == table.systems
    assert np.array_equal(back.column("acc"), table.column("acc"))
    with pytest.raises(NotCarried):
        encode(lab_markup.bib_entries)
    with pytest.raises(ValueError):
        decode({"t": "ref", "module": "clfbook.tooling.lab_markup", "v": "bib_entries"})


CHAPTERS = [p for p in notebook_chapters(ROOT) if book_assignment(p).graded]


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_what_a_chapters_checks_import_reaches_the_scorer(path, tmp_path):
    """Every imported name a check reads is bound in the scoring process: the scorer trusts
    the parts of clfbook the chapters' tests use (ten exercises once scored 0 for want of
    ``probe_all``, ``held``, ``supremum``, ...: NameError in the teacher's own notebook)."""
    assignment = book_assignment(path)
    nbformat.write(assignment.notebook, tmp_path / "chapter.ipynb")
    imports = chapter_imports(tmp_path / "chapter.ipynb")
    cells = assignment.notebook.cells
    read = {
        node.id
        for ex in assignment.graded
        for k in ex.check_cells + ex.hidden_cells
        for node in ast.walk(ast.parse(cells[k].source))
        if isinstance(node, ast.Name)
    }
    unbound = []
    for name in sorted(read & set(imports)):
        try:
            _imported(*imports[name])
        except ImportError as error:
            unbound.append(f"{name}: {error}")
    assert not unbound, unbound


def test_an_object_that_claims_equality_to_everything_is_not_carried():
    class Anything:
        def __eq__(self, other):
            return True

    with pytest.raises(NotCarried):
        encode(Anything())
    with pytest.raises(NotCarried):
        encode([1, Anything()])
    with pytest.raises(NotCarried):  # a subclass of a plain type is not plain
        encode(type("Sneaky", (float,), {"__eq__": lambda self, other: True})(0.5))


@pytest.mark.parametrize(
    "forged",
    [
        {"t": "module", "v": "os"},
        {"t": "ref", "module": "os", "v": "system"},
        {"t": "ref", "module": "numpy", "v": "not_there"},
        {"t": "dataclass", "module": "subprocess", "v": "CompletedProcess", "f": {}},
        {"t": "pickle", "v": "gASV"},
        {"t": "ndarray", "dtype": "|O", "shape": [1], "v": ""},
        {"t": "int", "v": "1; import os"},
        {"t": "function", "name": "f", "v": "import os"},
        # issue 24: one getattr on an allowed module, to a function or class, nothing else
        {"t": "ref", "module": "clfcourse.runner", "v": "builtins.exec"},
        {"t": "ref", "module": "clfcourse.runner", "v": "subprocess"},
        {"t": "ref", "module": "numpy", "v": "__class__"},
        {"t": "ref", "module": "numpy", "v": "pi"},
        {"t": "module", "v": "clfcourse.runner"},
        {
            "t": "Series",
            "name": {"t": "ref", "module": "operator", "v": "not_"},
            "index": {"t": "ndarray", "dtype": "<i8", "shape": [0], "v": ""},
            "columns": {"t": "objarray", "shape": [1], "v": [{"t": "str", "v": "__series__"}]},
            "v": [{"t": "ndarray", "dtype": "<i8", "shape": [0], "v": ""}],
        },
    ],
)
def test_forged_descriptions_are_refused(forged):
    """A kernel that writes its own JSON cannot make the grader import, unpickle or run code."""
    with pytest.raises(ValueError):
        decode(forged)


def test_a_student_function_is_a_source_and_is_never_run_by_decode():
    namespace = {"__name__": "__main__"}
    exec("def double(x):\n    return 2 * x\n", namespace)
    double = namespace["double"]
    double.__module__ = "__main__"
    with pytest.raises(NotCarried):  # exec'd code has no source file to read
        encode(double)
    described = {"t": "function", "name": "double", "v": "def double(x):\n    return 2 * x\n"}
    assert decode(described, {"double": len}) is len  # only ever the grader's proxy


def test_library_functions_from_private_modules_travel_by_their_public_name():
    """A function defined in a private module goes by the public module that exports it."""
    assert encode(np.random.default_rng) == {
        "t": "ref",
        "module": "numpy.random",
        "v": "default_rng",
    }
    series = pd.Series([1.0, 2.0], index=["a", "b"], name="share")
    pd.testing.assert_series_equal(_round_trip(series), series)
