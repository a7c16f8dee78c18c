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
  each run's ``grades.csv``, ``gradebook.csv``, feedback and notes (:mod:`.gradebook`).

Command line: ``python -m clfmetrics.coursework {assign,grade} ...`` (``make assignments``,
``make grade SUBMISSIONS=dir``). Needs otter-grader, which ``requirements.txt`` pins; the core
library does not.
"""

from .exercises import Assignment, Exercise, build_assignment, notebook_chapters
from .generate import write_assignments
from .grading import Graded, GradeRow, grade_notebook, grade_submissions
from .master import master_notebook
from .runner import Limits

__all__ = [
    "Assignment",
    "Exercise",
    "GradeRow",
    "Graded",
    "Limits",
    "build_assignment",
    "grade_notebook",
    "grade_submissions",
    "master_notebook",
    "notebook_chapters",
    "write_assignments",
]
