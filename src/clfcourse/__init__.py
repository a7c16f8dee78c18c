"""Coursework from the book on otter-grader: assignments generated from the chapters, local grading.

A chapter marks a code exercise with a code cell tagged ``solution`` inside a gated
``{solution-start} <label>`` … ``{solution-end}`` dropdown, then a code cell tagged ``check`` (the
public hint, shown folded on the page) and a code cell tagged ``hidden-check`` and ``remove-cell``
(the hidden decision: executed when the book is built, not shown). From each notebook chapter of
``_toc.yml`` with graded exercises:

- :func:`write_assignments` builds an otter master notebook (:func:`master_notebook`), runs
  ``otter assign`` and writes ``student/NN-slug.ipynb``, ``teacher/NN-slug.ipynb``,
  ``autograder/NN-slug.zip`` (for Gradescope or ``otter run``) and ``manifest.json``;
- :func:`grade_submissions` grades a folder of notebooks against the chapter's zip (no Docker):
  each notebook runs in a bubblewrap sandbox (:mod:`.sandbox`) under :class:`Limits`, and
  otter's tests run on its values outside the sandbox, with the chapter's given data from the
  teacher's run (:mod:`.runner`, :mod:`.inputs`, :mod:`.isolated`, :mod:`.values`); it writes
  each run's ``grades.csv``, ``gradebook.csv``, feedback and notes (:mod:`.gradebook`), the
  students' text answers with the template for the teacher's points (:mod:`.answers`) and, on
  request, the gradebook as Canvas or Moodle imports it (:mod:`.lms`).

Command line: ``python -m clfcourse {assign,grade} ...`` (``make assignments``,
``make grade SUBMISSIONS=dir``). Needs otter-grader, which ``requirements.txt`` pins; the core
library does not.
"""

from __future__ import annotations

import importlib

#: Where each public name lives. Imported on first use (PEP 562), so that the grader's own
#: processes (``python -m clfcourse.isolated``) and the student's kernel, which
#: load only :mod:`.isolated` and :mod:`.values`, do not import nbformat, otter and jsonschema
#: for nothing (slow imports, paid in every process).
_WHERE = {
    "Assignment": "exercises",
    "Exercise": "exercises",
    "build_assignment": "exercises",
    "notebook_chapters": "exercises",
    "write_assignments": "generate",
    "Graded": "grading",
    "GradeRow": "grading",
    "grade_notebook": "grading",
    "grade_submissions": "grading",
    "master_notebook": "master",
    "Limits": "runner",
}

__all__ = sorted(_WHERE, key=str.lower)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])
