"""The gradebook as Canvas and Moodle import it (``make grade LMS=canvas|moodle``).

Written by :class:`clfcourse.gradebook.GradeFiles` from rows made here; the columns are
checked against each platform's documented import format (each test's docstring quotes it).
"""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path

import pytest
from chapter_runner import ROOT

from clfcourse import GradeRow
from clfcourse.gradebook import GradeFiles

CHAPTERS = [
    {"chapter": "chapters/01-one", "autograder": "autograder/01-one.zip"},
    {"chapter": "chapters/02-two", "autograder": "autograder/02-two.zip"},
]
SUBMITTED = [
    ("ann/01-one.ipynb", [("ex-1", 1, 1), ("ex-2", 2, 2)]),
    ("ann/02-two.ipynb", [("ex-3", 1.5, 3)]),
    ("ben/01-one.ipynb", [("ex-1", 0, 1), ("ex-2", 0, 2)]),
    ("=HYPERLINK(1)/01-one.ipynb", [("ex-1", 1, 1), ("ex-2", 0, 2)]),
]


def _run(tmp_path: Path, lms: str | None) -> Path:
    files = GradeFiles(tmp_path / "grades", tmp_path, CHAPTERS, lms=lms)
    for name, rows in SUBMITTED:
        files.add(name, None, [GradeRow(name, ex, p, m, "ok") for ex, p, m in rows])
    files.finish("summary\n")
    return tmp_path / "grades"


def _rows(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def test_the_gradebook_has_each_assignments_maximum(tmp_path):
    rows = _rows(_run(tmp_path, None) / "gradebook.csv")
    assert rows[0] == [
        *("student", "01-one", "max_01-one", "02-two", "max_02-two", "total", "max_total")
    ]
    assert rows[1:] == [
        ["'=HYPERLINK(1)", "1", "3", "", "3", "1", "6"],
        ["ann", "3", "3", "1.5", "3", "4.5", "6"],
        ["ben", "0", "3", "", "3", "0", "6"],
    ]
    assert not any((tmp_path / "grades" / f).exists() for f in ("canvas.csv", "moodle.csv"))


def test_canvas_file_has_the_columns_and_points_possible_row_canvas_documents(tmp_path):
    """Canvas, "How do I import grades in the Gradebook?"
    (https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807):
    the CSV's columns are Student, ID, SIS User ID, SIS Login ID and Section, then one column
    per assignment; a "Points Possible" row under the header gives each assignment's points.
    Canvas's importer (``GradebookImporter``, instructure/canvas-lms) reads the student columns
    by position (Student, ID, then SIS User ID and SIS Login ID, the last of them Section),
    skips a row whose first cell holds "Points Possible" and takes its cells as the
    assignments' points possible, and matches a student by ID, SIS User ID, SIS Login ID, then
    the Student name. Totals are not imported."""
    grades = _run(tmp_path, "canvas")
    rows = _rows(grades / "canvas.csv")
    student = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert rows[0] == [*student, "01-one", "02-two"]
    assert rows[1] == ["Points Possible", "", "", "", "", "3", "3"]
    assert rows[2:] == [
        ["'=HYPERLINK(1)", "", "", "'=HYPERLINK(1)", "", "1", ""],
        ["ann", "", "", "ann", "", "3", "1.5"],
        ["ben", "", "", "ben", "", "0", ""],
    ]
    assert (grades / "canvas.csv").read_bytes() == (grades / "latest" / "canvas.csv").read_bytes()


def test_moodle_file_has_an_identifier_column_and_a_column_per_grade_item(tmp_path):
    """Moodle, "Grade import" (https://docs.moodle.org/405/en/Grade_import): CSV import lets
    you choose the column mapping: "Map from" a column of the file that identifies the user
    "Map to" userid, username, ID number or email address, and each other column to a grade
    item (or a new one). Every row after the header is a user's; grade items keep their own
    maximum, so there is no row of maxima (it would be read as a user)."""
    rows = _rows(_run(tmp_path, "moodle") / "moodle.csv")
    assert rows[0] == ["Student", "01-one", "02-two"]
    assert rows[1:] == [["'=HYPERLINK(1)", "1", ""], ["ann", "3", "1.5"], ["ben", "0", ""]]


def test_an_unknown_lms_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no LMS format 'blackboard': one of canvas, moodle"):
        GradeFiles(tmp_path / "grades", tmp_path, CHAPTERS, lms="blackboard")


def test_make_grade_passes_lms_and_text_points_on():
    """``make grade LMS=... TEXT_POINTS=...`` is ``python -m clfcourse grade ... --lms ...``
    (a dry run: make prints the commands and runs none)."""
    args = ["SUBMISSIONS=in", "LMS=moodle", "TEXT_POINTS=my points.csv"]
    # Under `make test` this make is a sub-make, which would print its directory around the
    # commands: asked not to, the last line is the grader's command.
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "grade", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    command = done.stdout.strip().splitlines()[-1]
    assert "-m clfcourse grade" in command
    assert command.endswith('--text-points "my points.csv" --lms moodle')
