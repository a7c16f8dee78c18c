"""Write the student and teacher notebooks of every notebook chapter, and a manifest."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat

from .exercises import Assignment, build_assignment, notebook_chapters


def manifest_entry(assignment: Assignment) -> dict:
    """The manifest record of one chapter: its notebooks and each exercise's cell indices."""
    return {
        "chapter": assignment.chapter,
        "student": f"student/{assignment.stem}.ipynb",
        "teacher": f"teacher/{assignment.stem}.ipynb",
        "exercises": [
            {
                "exercise": ex.label,
                "graded": ex.graded,
                "student_solution_cells": ex.student_solution_cells,
                "student_check_cells": ex.student_check_cells,
                "teacher_solution_cells": ex.teacher_solution_cells,
                "teacher_check_cells": ex.teacher_check_cells,
            }
            for ex in assignment.exercises.values()
        ],
    }


def write_assignments(
    root: Path | str = ".",
    out: Path | str | None = None,
    chapters: list[Path] | None = None,
) -> dict:
    """Generate ``out/student/*.ipynb``, ``out/teacher/*.ipynb`` and ``out/manifest.json``.

    Parameters
    ----------
    root : path
        The book's root (the folder of ``_toc.yml``).
    out : path, optional
        Output folder, ``root/_build/assignments`` by default. Its ``student`` and ``teacher``
        folders are replaced.
    chapters : list of paths, optional
        Chapter sources; by default every notebook chapter of ``_toc.yml``.

    Returns
    -------
    dict
        The manifest that was written.
    """
    root = Path(root)
    out = Path(out) if out is not None else root / "_build" / "assignments"
    sources = chapters if chapters is not None else notebook_chapters(root)
    assignments = [build_assignment(Path(p), root) for p in sources]
    for which in ("student", "teacher"):
        shutil.rmtree(out / which, ignore_errors=True)
        (out / which).mkdir(parents=True)
        for a in assignments:
            nbformat.write(getattr(a, which), out / which / f"{a.stem}.ipynb")
    manifest = {"chapters": [manifest_entry(a) for a in assignments]}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest
