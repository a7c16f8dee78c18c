"""Run ``otter assign`` on every chapter: student notebooks, teacher notebooks, autograder zips."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import nbformat

from .answers import rubric
from .checks import INTRO, shown_messages
from .exercises import META, Assignment, _chapter_name, build_assignment, notebook_chapters
from .markdown import Book, executed_glue, to_commonmark
from .master import Hidden, assignment_config, master_notebook, read_hidden

#: What students and the autograder need besides the notebook (the book's library).
#: What the autograder's environment gets beside its requirements: the library and the book's
#: apparatus, which the chapters' code imports.
PACKAGES = ("clfmetrics", "clfbook")
#: A chapter's files, as its manifest entry names them.
FILES = ("student", "teacher", "autograder")


def grading_requirements(root: Path) -> str:
    """The reader's pinned requirements without the editable install of the book's package."""
    path = root / "requirements.txt"
    lines = path.read_text().splitlines() if path.exists() else []
    return (
        "\n".join(ln for ln in lines if ln.strip() and not ln.lstrip().startswith(("#", "-")))
        + "\n"
    )


def _prose(lines: list[str]) -> str:
    """A solution's explanation without the directive's leftovers (options, its closing fence)."""
    k = 0
    while k < len(lines) and re.match(r"^\s*(:[\w-]+:.*|`{3,}|:{3,})?\s*$", lines[k]):
        k += 1
    return "\n".join(lines[k:]).strip()


def _teacher(
    notebook: nbformat.NotebookNode, assignment: Assignment, book: Book | None = None
) -> nbformat.NotebookNode:
    """Otter's solution notebook with each exercise's solution prose put back.

    A code exercise's explanation goes before its answer cell, a text exercise's answer after
    its answer cell (at the end when there is none).
    """
    done = set()
    cells = []
    for cell in notebook.cells:
        meta = cell.get("metadata", {}).get(META, {})
        label = meta.get("exercise")
        ex = assignment.exercises.get(label)
        answer = ex is not None and ex.prose and label not in done
        if answer and meta.get("role") != "answer":
            prose = to_commonmark(_prose(ex.prose), book)
            cells.append(nbformat.v4.new_markdown_cell(f"**Solution of {label}.** {prose}"))
            done.add(label)
        cells.append(cell)
        if answer and meta.get("role") == "answer":
            prose = to_commonmark(_prose(ex.prose), book)
            cells.append(nbformat.v4.new_markdown_cell(f"**Answer to {label}.** {prose}"))
            done.add(label)
    notebook.cells = cells
    for ex in assignment.exercises.values():
        if ex.prose and ex.label not in done:
            prose = to_commonmark(_prose(ex.prose), book)
            notebook.cells.append(
                nbformat.v4.new_markdown_cell(f"**Answer to {ex.label}.** {prose}")
            )
    return notebook


def assign_chapter(
    assignment: Assignment,
    root: Path,
    out: Path,
    run_tests: bool = True,
    book: Book | None = None,
    hidden: dict[str, Hidden] | None = None,
) -> dict:
    """Run ``otter assign`` on the master notebook of one chapter and copy its three products.

    Writes ``out/student/NN-slug.ipynb``, ``out/teacher/NN-slug.ipynb`` and
    ``out/autograder/NN-slug.zip``; returns the chapter's manifest entry. With ``run_tests``,
    otter grades the solution notebook with the new zip and fails unless it scores full points.
    ``book`` (:class:`.markdown.Book`, read from ``root`` by default) resolves references and
    citations; glued numbers come from the book's last build of the chapter, when there is one.
    ``hidden`` holds the teacher's own hidden tests of some exercises (:func:`.read_hidden`).
    """
    from otter.assign import main as otter_assign

    stem = assignment.stem
    book = book if book is not None else Book.load(root)
    glue = executed_glue(root, assignment.source)
    book = replace(book, glue=glue)
    with tempfile.TemporaryDirectory(prefix="clfmetrics-assign-") as tmp:
        work = Path(tmp) / stem
        work.mkdir()
        (work / "requirements.txt").write_text(grading_requirements(root))
        for name in PACKAGES:  # as installed, found without importing them
            package = Path(importlib.util.find_spec(name).origin).resolve().parent
            shutil.copytree(package, work / name, ignore=shutil.ignore_patterns("__pycache__"))
        config = assignment_config(stem, "requirements.txt", list(PACKAGES))
        master = master_notebook(assignment, config, book, hidden)
        nbformat.write(master, work / f"{stem}.ipynb")
        log = io.StringIO()
        try:
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                otter_assign(
                    str(work / f"{stem}.ipynb"),
                    str(work / "dist"),
                    no_pdfs=True,
                    no_run_tests=not run_tests,
                )
        except Exception as exc:
            raise RuntimeError(f"otter assign failed on {stem}:\n{log.getvalue()}") from exc
        dist = work / "dist"
        zips = sorted((dist / "autograder").glob("*.zip"))
        if len(zips) != 1:
            raise RuntimeError(f"otter assign wrote {len(zips)} zips for {stem}:\n{log.getvalue()}")
        student = nbformat.read(dist / "student" / f"{stem}.ipynb", as_version=4)
        student.cells.insert(0, nbformat.v4.new_markdown_cell(INTRO))
        nbformat.write(student, out / "student" / f"{stem}.ipynb")
        shutil.copy(zips[0], out / "autograder" / f"{stem}.zip")
        teacher = nbformat.read(dist / "autograder" / f"{stem}.ipynb", as_version=4)
        nbformat.write(_teacher(teacher, assignment, book), out / "teacher" / f"{stem}.ipynb")
    return {
        "chapter": assignment.chapter,
        "student": f"student/{stem}.ipynb",
        "teacher": f"teacher/{stem}.ipynb",
        "autograder": f"autograder/{stem}.zip",
        "exercises": [
            {
                "exercise": ex.label,
                "graded": ex.graded,
                "points": _points(ex, hidden or {}) if ex.graded else 0,
                "hidden": ("teacher" if ex.label in (hidden or {}) else "book")
                if ex.graded
                else "",
                "rubric": None if ex.solution_cells else rubric(ex.prose, f"{stem}, {ex.label}"),
                # the messages of its hidden tests that the student's feedback may show
                "shown": _shown(assignment, ex, hidden or {}) if ex.graded else [],
            }
            for ex in assignment.exercises.values()
        ],
    }


def _shown(assignment: Assignment, ex, hidden: dict[str, Hidden]) -> list[str]:
    """The messages of an exercise's hidden tests (the teacher's, else the chapter's) that
    their author marked ``# shown`` or ``# stated`` (:func:`.checks.shown_messages`)."""
    given = hidden.get(ex.label)
    cells = assignment.notebook.cells
    sources = list(given.cases) if given is not None else [cells[k].source for k in ex.hidden_cells]
    return shown_messages(sources, f"{assignment.stem}, {ex.label}")


def _points(ex, hidden: dict[str, Hidden]) -> float:
    given = hidden.get(ex.label)
    return given.points if given is not None and given.points else ex.points


def write_assignments(
    root: Path | str = ".",
    out: Path | str | None = None,
    chapters: list[Path] | None = None,
    run_tests: bool = True,
    jobs: int = 1,
    hidden: Path | str | None = None,
) -> dict:
    """Run otter assign on every chapter with graded exercises; write ``out/manifest.json``.

    Parameters
    ----------
    root : path
        The book's root (the folder of ``_toc.yml``, ``requirements.txt`` and ``src``).
    out : path, optional
        Output folder, ``root/_build/assignments`` by default. Assigning every chapter
        replaces its ``student``, ``teacher`` and ``autograder`` folders.
    chapters : list of paths, optional
        Chapter sources; by default every notebook chapter of ``_toc.yml``. Given, only these
        chapters' files and manifest entries are added or replaced: the other chapters that
        ``out`` holds stay, in the manifest too (:func:`merged_manifest`).
    run_tests : bool
        Let otter grade each teacher notebook and fail unless it scores full points (this
        executes every chapter; about as long again as the rest).
    jobs : int
        How many chapters to assign at the same time (one process each).
    hidden : path, optional
        A folder of the teacher's own hidden tests, ``<exercise label>.py`` each (see
        :func:`.read_hidden` and ``chapters/teaching.md``); they replace the chapter's
        ``hidden-check`` cells of those exercises. Keep it outside the repository.

    Returns
    -------
    dict
        The manifest that was written: per chapter its three files and its exercises.
    """
    root = Path(root).resolve()
    out = Path(out) if out is not None else root / "_build" / "assignments"
    some = chapters is not None
    sources = chapters if some else notebook_chapters(root)
    assignments = [build_assignment(Path(p), root) for p in sources]
    used = str(Path(hidden).resolve()) if hidden is not None else None
    kept = _kept_entries(out, assignments, used) if some else []
    for which in ("student", "teacher", "autograder"):
        if not some:
            shutil.rmtree(out / which, ignore_errors=True)
        (out / which).mkdir(parents=True, exist_ok=True)
    graded = [a for a in assignments if a.graded]
    labels = {ex.label for a in graded for ex in a.graded}
    if some and hidden is not None:  # the folder may hold tests of the chapters not assigned now
        labels |= _book_labels(root)
    private = read_hidden(Path(hidden), labels) if hidden is not None else {}
    per_chapter = [
        {ex.label: private[ex.label] for ex in a.graded if ex.label in private} for a in graded
    ]
    book = Book.load(root)
    for a in graded:  # chapters outside _toc.yml too
        if a.chapter not in book.titles:
            book.add_page(a.source.read_text(), a.stem, a.chapter)
    # otter assign changes the working directory, so parallel chapters need processes; its
    # slow import happens once here, and the pool's forked workers inherit it
    import otter.assign  # noqa: F401

    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        n = len(graded)
        entries = list(
            pool.map(
                assign_chapter,
                *(graded, [root] * n, [out] * n, [run_tests] * n, [book] * n, per_chapter),
            )
        )
    # A chapter assigned now without graded exercises (any more) leaves no files behind; the
    # others' files were overwritten, so a failed otter assign above left the earlier ones.
    for a in assignments:
        if not a.graded:
            for which, suffix in zip(FILES, (".ipynb", ".ipynb", ".zip"), strict=True):
                (out / which / f"{a.stem}{suffix}").unlink(missing_ok=True)
    manifest = {"chapters": merged_manifest(kept, entries, root), "hidden": used}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def _book_labels(root: Path) -> set[str]:
    """The labels of every graded exercise of the book's notebook chapters."""
    try:
        pages = notebook_chapters(root)
    except FileNotFoundError:  # no _toc.yml, or a page it names is missing
        return set()
    return {ex.label for p in pages for ex in build_assignment(p, root).graded}


def _kept_entries(out: Path, assignments: list[Assignment], hidden: str | None) -> list[dict]:
    """The entries of ``out/manifest.json`` that assigning ``assignments`` alone keeps: the
    other chapters', as long as their three files are there.

    Refuses (ValueError) to mix hidden tests: the chapters kept were made with the hidden
    tests of ``manifest["hidden"]`` (None: the book's own), and so must the new ones be.
    """
    path = out / "manifest.json"
    if not path.exists():
        return []
    earlier = json.loads(path.read_text())
    now = {a.chapter for a in assignments}
    kept = [
        e
        for e in earlier.get("chapters", [])
        if e["chapter"] not in now and all((out / e[k]).is_file() for k in FILES)
    ]
    before = earlier.get("hidden")
    if kept and before != hidden:
        made = f"your hidden tests from {before}" if before else "the book's own hidden tests"
        again = f"--hidden {before}" if before else "no --hidden"
        raise ValueError(
            f"the other chapters in {out} were made with {made}: assign these with the same "
            f"({again}), or assign every chapter"
        )
    return kept


def merged_manifest(kept: list[dict], entries: list[dict], root: Path) -> list[dict]:
    """The manifest's chapters: ``kept`` (from the earlier manifest) with ``entries`` (just
    assigned), in the book's order (chapters outside ``_toc.yml`` after, by name)."""
    try:
        pages = notebook_chapters(root)
    except FileNotFoundError:
        pages = []
    order = {_chapter_name(p, root): k for k, p in enumerate(pages)}
    chapters = {e["chapter"]: e for e in [*kept, *entries]}
    return sorted(
        chapters.values(), key=lambda e: (order.get(e["chapter"], len(order)), e["chapter"])
    )
