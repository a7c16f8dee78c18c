"""Coursework from the book: student notebooks generated from the chapters, and a grader.

A chapter marks a code exercise with a code cell tagged ``solution`` inside a gated
``{solution-start} <label>`` … ``{solution-end}`` dropdown, followed by a code cell tagged
``check`` (plain asserts). From each notebook chapter listed in ``_toc.yml``:

- :func:`write_assignments` writes a *student* notebook (solution cells replaced by a stub that
  restates the exercise and raises ``NotImplementedError``, solution prose removed, check cells
  kept) and a *teacher* notebook (the chapter with solutions), plus ``manifest.json``;
- :func:`grade_submissions` executes submitted notebooks on fresh kernels after replacing every
  check cell by the teacher's (hidden checks) and writes ``grades.csv`` and ``summary.txt``.

Command line: ``python -m clfmetrics.coursework {assign,grade} ...`` (``make assignments``,
``make grade SUBMISSIONS=dir``). Needs jupytext, nbformat, nbclient and ipykernel, which the
book's requirements install; the core library does not.
"""

from .exercises import Assignment, Exercise, build_assignment, notebook_chapters
from .generate import write_assignments
from .grading import Graded, GradeRow, grade_notebook, grade_submissions

__all__ = [
    "Assignment",
    "Exercise",
    "GradeRow",
    "Graded",
    "build_assignment",
    "grade_notebook",
    "grade_submissions",
    "notebook_chapters",
    "write_assignments",
]
