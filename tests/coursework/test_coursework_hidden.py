"""Hidden tests stay hidden: not in the published book, and a teacher can keep their own apart.

``make assignments HIDDEN=dir`` takes a teacher's hidden tests from a folder outside the
repository (``<exercise label>.py`` each), and ``teaching.md`` says what the book's own are.

The book's pages, its downloadable ``.md`` and ``.ipynb`` sources (``_build/html/_sources``)
and every other published file carry no line of a ``hidden-check`` cell (``_ext/hidden_checks.py``
cuts them after the build).
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from pathlib import Path

import pytest
from coursework_mini import total_chapter
from coursework_products import book_assignment

from clfcourse.__main__ import main
from clfcourse.exercises import notebook_chapters
from clfcourse.master import read_hidden

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "_ext"))

import hidden_checks  # noqa: E402

pytestmark = pytest.mark.sandbox


def hidden_only_lines() -> set[str]:
    """Lines of the chapters' hidden-check cells that no other cell of the chapter holds."""
    found = set()
    for path in notebook_chapters(ROOT):
        assignment = book_assignment(path)
        nb = assignment.notebook
        hidden = {k for ex in assignment.graded for k in ex.hidden_cells}
        elsewhere = "\n".join(c.source for k, c in enumerate(nb.cells) if k not in hidden)
        for k in hidden:
            for line in nb.cells[k].source.splitlines():
                line = line.strip()
                if len(line) >= 12 and line not in elsewhere:
                    found.add(line)
    return found


MYST = """\
# A chapter

```{code-cell} ipython3
x = 1
```

```{code-cell} ipython3
:tags: [check, hide-input]

assert x > 0
```

```{code-cell} ipython3
:tags: [hidden-check, remove-cell]

assert x == 1, "the secret"
```

```{code-cell} ipython3
---
tags: [hidden-check, remove-cell]
---
assert x != 2
```
The end.
"""


def test_strip_markdown_cuts_only_hidden_check_cells():
    text = hidden_checks.strip_markdown(MYST)
    assert "the secret" not in text and "x != 2" not in text
    assert "x = 1" in text and "assert x > 0" in text and text.endswith("The end.\n")


def test_strip_notebook_cuts_only_hidden_check_cells():
    cells = [
        {"cell_type": "code", "metadata": {"tags": ["check"]}, "source": "assert x > 0"},
        {"cell_type": "code", "metadata": {"tags": ["hidden-check"]}, "source": "assert x == 1"},
        {"cell_type": "markdown", "metadata": {}, "source": "hidden-check is a tag"},
    ]
    nb = json.loads(hidden_checks.strip_notebook(json.dumps({"cells": cells})))
    assert [c["source"] for c in nb["cells"]] == ["assert x > 0", "hidden-check is a tag"]


def test_strip_published_cuts_notebook_pages_only(tmp_path):
    """A page that shows the markup as an example (teaching.md) keeps it."""
    front = "---\nkernelspec:\n  name: python3\n---\n"
    (tmp_path / "chapter.md").write_text(front + MYST)
    (tmp_path / "teaching.md").write_text(MYST)
    assert hidden_checks.strip_published(tmp_path) == [tmp_path / "chapter.md"]
    assert "the secret" not in (tmp_path / "chapter.md").read_text()
    assert (tmp_path / "teaching.md").read_text() == MYST


def test_there_are_hidden_lines_to_look_for():
    assert len(hidden_only_lines()) >= 30


def test_published_book_carries_no_hidden_check(built_html):
    """No page, no downloadable source, no search index holds a line of a hidden check."""
    lines = hidden_only_lines()
    forms = {form for line in lines for form in (line, json.dumps(line)[1:-1])}
    sources = list((built_html / "_sources").rglob("*"))
    assert any(p.suffix == ".ipynb" for p in sources), "no notebook offered for download?"
    assert any(p.suffix == ".md" for p in sources), "no .md source offered for download?"
    leaks = []
    for path in built_html.rglob("*"):
        if not path.is_file() or path.suffix not in (".html", ".md", ".ipynb", ".js", ".txt"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        leaks += [f"{path.relative_to(built_html)}: {f!r}" for f in forms if f in text]
        if path.suffix == ".ipynb":
            tags = [c.get("metadata", {}).get("tags", []) for c in json.loads(text)["cells"]]
            assert not [t for t in tags if "hidden-check" in t], path
        if path.suffix == ".md" and hidden_checks._is_notebook(text):
            assert not re.search(r"^:tags:.*hidden-check", text, re.M), path
    assert not leaks, leaks[:10]


MINI = total_chapter(hidden='assert total == 10, "the book\'s public hidden test"')

PRIVATE = """\
# points: 4
assert total == sum(sum(row) for row in m), "my private check one"
# %%
assert total % 2 == 0, "my private check two"
"""


def test_read_hidden_reads_cases_and_points_and_refuses_strangers(tmp_path):
    (tmp_path / "ex-mini-total.py").write_text(PRIVATE)
    (found,) = read_hidden(tmp_path, {"ex-mini-total"}).values()
    assert found.points == 4 and len(found.cases) == 2
    assert found.cases[1] == 'assert total % 2 == 0, "my private check two"'
    (tmp_path / "ex-mini-totl.py").write_text("assert False\n")
    with pytest.raises(ValueError, match="no graded exercise is labelled 'ex-mini-totl'"):
        read_hidden(tmp_path, {"ex-mini-total"})
    (tmp_path / "ex-mini-totl.py").unlink()
    (tmp_path / "ex-mini-total.py").write_text("# points: none\nassert True\n")
    with pytest.raises(ValueError, match="points must be a positive number"):
        read_hidden(tmp_path, {"ex-mini-total"})


def test_make_assignments_takes_hidden_tests_from_a_private_folder(tmp_path):
    """The zip holds the teacher's hidden tests instead of the chapter's; students see neither."""
    book = tmp_path / "book"
    book.mkdir()
    (book / "05-mini.md").write_text(MINI)
    private = tmp_path / "private"
    private.mkdir()
    (private / "ex-mini-total.py").write_text(PRIVATE)
    out = tmp_path / "out"
    args = ["--root", str(book), "assign", "--out", str(out), "--hidden", str(private)]
    assert main([*args, "--no-run-tests", str(book / "05-mini.md")]) == 0
    with zipfile.ZipFile(out / "autograder" / "05-mini.zip") as zf:
        test = zf.read("tests/ex-mini-total.py").decode()
    assert "my private check one" in test and "my private check two" in test
    assert "the book's public hidden test" not in test
    student = (out / "student" / "05-mini.ipynb").read_text()
    assert "my private check" not in student and "public hidden test" not in student
    (entry,) = json.loads((out / "manifest.json").read_text())["chapters"]
    assert entry["exercises"] == [
        {
            "exercise": "ex-mini-total",
            "graded": True,
            "points": 4,
            "hidden": "teacher",
            "rubric": None,
            "shown": [],
        }
    ]
    # a re-run without the folder (make grade after a chapter changed) must not fall back to
    # the book's public hidden tests
    without = ["--root", str(book), "assign", "--out", str(out), "--no-run-tests"]
    assert main([*without, str(book / "05-mini.md")]) == 2
    (private / "ex-mini-other.py").write_text("assert True\n")
    assert main([*args, "--no-run-tests", str(book / "05-mini.md")]) == 2


def test_teaching_page_documents_private_hidden_tests_and_says_the_books_are_public():
    text = " ".join((ROOT / "chapters" / "teaching.md").read_text().split())
    assert "make assignments HIDDEN=" in text and "# points:" in text and "# %%" in text
    assert "public in the repository" in text and "practice, not exams" in text
