"""Grades a teacher can use: ``grades.csv``, ``gradebook.csv``, feedback and the teacher's notes.

The file layer (:mod:`clfcourse.gradebook`) is tested on rows made here; the shared
``make grade`` run of the mini chapter (``coursework_batch``, after an earlier run) checks what
reaches the teacher and the student for two of its students: the real error of a typo with its
traceback, and no word of a hidden test in the feedback.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from coursework_batch import mini_batch
from coursework_mini import OVER_HIDDEN_MESSAGE, OVER_STEM

from clfcourse import GradeRow
from clfcourse.gradebook import (
    CSV_FIELDS,
    GradeFiles,
    attach_errors,
    student_id,
)

OVER = "ex-mini-over"
HIDDEN_MESSAGE = OVER_HIDDEN_MESSAGE  # the hidden assert's message


def _read(path: Path) -> list[dict]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize(
    ("name", "student"),
    [
        ("alice/01-confusion-matrix.ipynb", "alice"),
        ("carol_01-confusion-matrix.ipynb", "carol"),
        ("notes.txt", "notes"),
    ],
)
def test_student_id_from_folder_then_name(name, student):
    """Never from the notebook's metadata (``test_coursework_identity``)."""
    assert student_id(name, "01-confusion-matrix" if "01" in name else "") == student


def test_attach_errors_gives_each_exercise_its_own_cells_errors():
    rows = [GradeRow("f", "ex-a", 0, 1, "m"), GradeRow("f", "ex-b", 0, 1, "m")]
    errors = [
        {"cell": 3, "exercise": "ex-a", "error": "NameError: x", "traceback": "T1"},
        {"cell": 5, "exercise": None, "error": "ValueError: y", "traceback": "T2"},
    ]
    a, b = attach_errors(rows, errors)
    assert (a.error, b.error) == ("cell 3: NameError: x", "cell 5: ValueError: y")
    assert "T1" in a.traceback and "T2" in b.traceback


def _chapters(tmp_path: Path) -> list[dict]:
    return [
        {"chapter": "chapters/01-one", "autograder": "autograder/01-one.zip"},
        {"chapter": "chapters/02-two", "autograder": "autograder/02-two.zip"},
    ]


def test_gradebook_one_row_per_student_one_column_per_assignment(tmp_path):
    files = GradeFiles(tmp_path / "grades", tmp_path, _chapters(tmp_path))
    for name, rows in [
        ("ann/01-one.ipynb", [("ex-1", 1, 1), ("ex-2", 0, 2)]),
        ("ann/02-two.ipynb", [("ex-3", 3, 3)]),
        ("ann/again-01-one.ipynb", [("ex-1", 1, 1), ("ex-2", 2, 2)]),  # the better file counts
        ("ben/01-one.ipynb", [("ex-1", 0, 1), ("ex-2", 0, 2)]),
    ]:
        path = tmp_path / "in" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}")
        files.add(name, path, [GradeRow(name, ex, p, m, "ok") for ex, p, m in rows])
    run = files.finish("summary\n")
    gradebook = _read(tmp_path / "grades" / "gradebook.csv")
    assert list(gradebook[0]) == [
        *("student", "01-one", "max_01-one", "02-two", "max_02-two", "total", "max_total")
    ]
    maxima = {"max_01-one": "3", "max_02-two": "3", "max_total": "6"}
    assert gradebook == [
        {"student": "ann", "01-one": "3", "02-two": "3", "total": "6", **maxima},
        {"student": "ben", "01-one": "0", "02-two": "", "total": "0", **maxima},
    ]
    grades = _read(tmp_path / "grades" / "grades.csv")
    assert list(grades[0]) == list(CSV_FIELDS) and len(grades) == 7
    assert {(r["student"], r["assignment"]) for r in grades} == {
        ("ann", "01-one"),
        ("ann", "02-two"),
        ("ben", "01-one"),
    }
    assert (tmp_path / "grades" / "latest").resolve() == run.resolve()
    assert (run / "feedback" / "ben" / "01-one.md").read_text().startswith("# 01-one: 0/3")


def test_a_second_run_keeps_the_first(tmp_path):
    runs = []
    for points in (0, 1):
        files = GradeFiles(tmp_path / "grades", tmp_path, _chapters(tmp_path))
        path = tmp_path / "ann" / "01-one.ipynb"
        path.parent.mkdir(exist_ok=True)
        path.write_text("{}")
        files.add("ann/01-one.ipynb", path, [GradeRow("x", "ex-1", points, 1, "ok")])
        runs.append(files.finish(""))
    assert runs[0] != runs[1]
    assert _read(runs[0] / "grades.csv")[0]["points"] == "0"
    assert _read(runs[1] / "grades.csv")[0]["points"] == "1"
    assert _read(tmp_path / "grades" / "grades.csv")[0]["points"] == "1"


#: The tests that read the shared batch run on its worker (``coursework_batch``).
pytestmark = pytest.mark.sandbox


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> dict:
    """The shared batch: dana's typo after a wrong answer, eve's full notebook (id in its name)."""
    return mini_batch(tmp_path_factory)


def test_grades_csv_has_the_columns_and_a_row_per_submission_and_exercise(graded):
    rows = _read(graded["grades"] / "grades.csv")
    assert list(rows[0]) == list(CSV_FIELDS)
    got = {(r["student"], r["assignment"], r["exercise"], r["points"]) for r in rows}
    assert {g for g in got if g[0] in ("dana", "eve")} == {
        ("dana", OVER_STEM, OVER, "0"),
        ("eve", OVER_STEM, OVER, "2"),
    }
    assert len(rows) == len(graded["files"])  # one exercise: a row per submitted file
    book = _read(graded["grades"] / "gradebook.csv")
    assert list(book[0]) == ["student", OVER_STEM, f"max_{OVER_STEM}", "total", "max_total"]
    assert len({r["student"] for r in book}) == len(book)  # one row per student
    mine = [(r["student"], r[OVER_STEM], r[f"max_{OVER_STEM}"], r["total"]) for r in book]
    assert [m for m in mine if m[0] in ("dana", "eve")] == [
        ("dana", "0", "2", "0"),
        ("eve", "2", "2", "2"),
    ]
    assert {r["max_total"] for r in book} == {"2"}


def test_each_run_keeps_its_own_folder(graded):
    earlier, latest = graded["runs"]
    assert (earlier / "grades.csv").read_text() == "earlier\n"
    assert (latest / "grades.csv").read_text() == (graded["grades"] / "grades.csv").read_text()
    assert (graded["grades"] / "latest").resolve() == latest.resolve()


def test_the_teacher_sees_the_real_error_and_its_traceback(graded):
    note = (graded["grades"] / "latest" / "teacher" / "dana" / f"{OVER_STEM}.md").read_text()
    assert "NameError: name 'prevalance' is not defined" in note
    assert "Traceback" in note or "----> " in note or "Cell In[" in note, note
    assert HIDDEN_MESSAGE in note  # the teacher's notes keep what the hidden test said
    details = _read(graded["grades"] / "details.csv")
    (row,) = [r for r in details if (r["student"], r["exercise"]) == ("dana", OVER)]
    assert row["file"] == f"dana/{OVER_STEM}.ipynb"
    assert "NameError: name 'prevalance' is not defined" in row["error"]


def test_the_students_feedback_says_no_word_of_a_hidden_test(graded):
    feedback = graded["grades"] / "latest" / "feedback"
    text = (feedback / "dana" / f"{OVER_STEM}.md").read_text()
    assert "test 2 (hidden): failed" in text
    assert HIDDEN_MESSAGE not in text and "class by class" not in text
    assert "Your notebook raised: cell" in text and "prevalance" in text
    assert "Traceback" not in text
    eve = (feedback / "eve" / f"{OVER_STEM}.md").read_text()
    assert eve.startswith(f"# {OVER_STEM}: 2/2 points")
