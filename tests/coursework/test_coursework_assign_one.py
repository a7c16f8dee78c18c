"""Assigning one chapter adds or replaces that chapter alone (issue 40).

``python -m clfcourse assign chapters/04-two-macro-f1.md``, the teaching page's own
single-chapter command, used to leave ``student``, ``teacher``, ``autograder`` and
``manifest.json`` holding that chapter alone, and a submission of another chapter graded
afterwards was "cannot tell which chapter this notebook belongs to". Here a two-chapter book
of small chapters (a book chapter's otter assign takes minutes, these take seconds) is
assigned whole, then one chapter again; the other chapter's files stay byte for byte, and
its submission grades. A submission of a chapter the manifest does not hold gets a message
that names that reason.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from coursework_batch import lean
from coursework_mini import OVER, OVER_STEM, total_chapter
from coursework_products import compiled_library

from clfcourse import grade_notebook
from clfcourse.__main__ import main
from clfcourse.grading import load_manifest

pytestmark = pytest.mark.sandbox

TOTAL = "total"
FILES = ("student/{}.ipynb", "teacher/{}.ipynb", "autograder/{}.zip")


def _book(folder: Path) -> Path:
    folder.mkdir()
    (folder / "intro.md").write_text("# Intro\n")
    (folder / f"{OVER_STEM}.md").write_text(OVER)
    (folder / f"{TOTAL}.md").write_text(total_chapter(hidden="assert total == 10"))
    toc = f"format: jb-book\nroot: intro\nchapters:\n  - file: {OVER_STEM}\n  - file: {TOTAL}\n"
    (folder / "_toc.yml").write_text(toc)
    return folder


def _assign(book: Path, out: Path, *argv: str) -> int:
    return main(["--root", str(book), "assign", "--out", str(out), "--no-run-tests", *argv])


def _files(out: Path, stem: str) -> dict[str, bytes]:
    return {f.format(stem): (out / f.format(stem)).read_bytes() for f in FILES}


def _copy(out: Path, to: Path) -> Path:
    """A copy of the assignments ``out`` (the module's own stay as they are)."""
    shutil.copytree(out, to)
    return to


def _chapters(out: Path) -> list[str]:
    return [e["chapter"] for e in json.loads((out / "manifest.json").read_text())["chapters"]]


@pytest.fixture(scope="module")
def assigned(tmp_path_factory) -> tuple[Path, Path, dict[str, bytes]]:
    """The whole book assigned, then chapter ``total`` alone with a changed task."""
    compiled_library()
    base = tmp_path_factory.mktemp("assign-one")
    book, out = _book(base / "book"), base / "assignments"
    assert _assign(book, out) == 0
    assert _chapters(out) == [OVER_STEM, TOTAL]
    before = _files(out, OVER_STEM)
    (book / f"{TOTAL}.md").write_text(
        total_chapter(" (a whole number, changed)", hidden="assert total == 10")
    )
    assert _assign(book, out, str(book / f"{TOTAL}.md")) == 0
    return book, out, before


def test_assigning_one_chapter_keeps_the_others_and_the_manifest(assigned):
    _, out, before = assigned
    assert _chapters(out) == [OVER_STEM, TOTAL]  # both, in the book's order
    assert _files(out, OVER_STEM) == before  # the other chapter untouched, byte for byte
    student = (out / "student" / f"{TOTAL}.ipynb").read_text()
    assert "a whole number, changed" in student  # the chapter assigned again is replaced
    for folder in ("student", "teacher", "autograder"):
        assert sorted(p.stem for p in (out / folder).iterdir()) == [OVER_STEM, TOTAL]
    manifest = json.loads((out / "manifest.json").read_text())
    assert [e["exercises"][0]["exercise"] for e in manifest["chapters"]] == [
        "ex-mini-over",
        "ex-mini-total",
    ]


def test_a_submission_of_the_other_chapter_grades(assigned, tmp_path):
    _, out, _ = assigned
    submission = tmp_path / f"alice-{OVER_STEM}.ipynb"
    nbformat.write(lean(nbformat.read(out / "teacher" / f"{OVER_STEM}.ipynb", 4)), submission)
    rows, problem = grade_notebook(submission, load_manifest(out), out, timeout=120)
    assert problem is None
    assert [(r.exercise, r.points, r.max_points) for r in rows] == [("ex-mini-over", 2, 2)]


def test_a_chapter_the_manifest_does_not_hold_is_named_as_the_reason(assigned, tmp_path):
    book, out, _ = assigned
    alone = tmp_path / "alone"  # only chapter total was ever assigned here
    assert _assign(book, alone, str(book / f"{TOTAL}.md")) == 0
    assert _chapters(alone) == [TOTAL]
    submission = tmp_path / "submitted.ipynb"  # its name names no chapter: its metadata does
    nbformat.write(nbformat.read(out / "student" / f"{OVER_STEM}.ipynb", 4), submission)
    rows, problem = grade_notebook(submission, load_manifest(alone), alone, timeout=60)
    assert problem == (
        f"this is the notebook of chapter {OVER_STEM} (its metadata says so), which the "
        f"assignments do not hold (their manifest.json has {TOTAL}): assign it (python -m "
        f"clfcourse assign chapters/{OVER_STEM}.md), or every chapter (make assignments), "
        "then grade again"
    )
    assert [(r.exercise, r.points, r.message) for r in rows] == [("", 0, problem)]
    bare = tmp_path / "bare.ipynb"  # nothing in it names a chapter
    nbformat.write(nbformat.v4.new_notebook(), bare)
    _, problem = grade_notebook(bare, load_manifest(alone), alone, timeout=60)
    assert problem == (
        "cannot tell which chapter this notebook belongs to: neither its metadata nor its "
        f"file name names an assigned chapter ({TOTAL})"
    )


def test_a_chapter_whose_files_are_gone_leaves_the_manifest(assigned, tmp_path):
    book, out, _ = assigned
    copy = _copy(out, tmp_path / "copy")
    (copy / "autograder" / f"{OVER_STEM}.zip").unlink()  # a teacher removed it by hand
    assert _assign(book, copy, str(book / f"{TOTAL}.md")) == 0
    assert _chapters(copy) == [TOTAL]  # no entry whose zip grading would miss


def test_hidden_tests_are_not_mixed_across_chapters(assigned, tmp_path, capsys):
    book, out, _ = assigned
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "ex-mini-total.py").write_text("assert total == 10\n")
    (hidden / "ex-mini-over.py").write_text("assert len(over) == 3\n")  # another chapter's
    before = (out / "manifest.json").read_text()
    status = _assign(book, out, "--hidden", str(hidden), str(book / f"{TOTAL}.md"))
    err = capsys.readouterr().err
    assert status == 2 and (out / "manifest.json").read_text() == before
    assert err.strip() == (
        f"the other chapters in {out} were made with the book's own hidden tests: assign "
        "these with the same (no --hidden), or assign every chapter"
    )
    # a folder with every chapter's tests: one chapter assigned with it reads its own only
    mine = tmp_path / "mine"
    assert _assign(book, mine, "--hidden", str(hidden), str(book / f"{TOTAL}.md")) == 0
    (entry,) = json.loads((mine / "manifest.json").read_text())["chapters"]
    assert entry["exercises"][0]["hidden"] == "teacher"
    assert "with your hidden tests" in capsys.readouterr().out


def test_a_chapter_assigned_without_exercises_leaves_no_files(assigned, tmp_path):
    book, out, before = assigned
    copy = _copy(out, tmp_path / "copy")
    plain = tmp_path / "book"
    plain.mkdir()
    (plain / f"{TOTAL}.md").write_text(total_chapter().split("```{exercise}")[0])
    assert _assign(book, copy, str(plain / f"{TOTAL}.md")) == 0
    assert _chapters(copy) == [OVER_STEM]
    assert not any((copy / f.format(TOTAL)).exists() for f in FILES)
    assert _files(copy, OVER_STEM) == before
