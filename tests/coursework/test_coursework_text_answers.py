"""A teacher's round trip with text answers: grade, read the answers, give points, grade again.

The mini chapter with two text exercises (``coursework_mini.TEXT``) is assigned as
``make assignments`` does (without otter's own test run); four students hand in its notebook:
ann the teacher's notebook with her answers written in, bob a hostile answer (markup, a
script, a formula, terminal escapes, a bidirectional override), cal the notebook as handed out,
dan (his id in the file's name, as an LMS names a download) an answer in a cell he added, and
a student whose folder name is a formula and an HTML tag (``EVIL``) hands in ann's notebook.
The first ``make grade`` writes ``answers.html`` and the template; the teacher fills it in, and
the second, with ``TEXT_POINTS`` and ``LMS=canvas`` on the command line, merges the points.
"""

from __future__ import annotations

import csv
import html.parser
import shutil
from pathlib import Path

import nbformat
import pytest
from coursework_batch import lean, mini_assignments
from coursework_mini import TEXT, TEXT_STEM

from clfcourse.__main__ import main
from clfcourse.exercises import META

pytestmark = pytest.mark.sandbox

WHY, WHICH = "ex-mini-why-over", "ex-mini-which"
OVER = "over = bias(m) - prevalence(m)"
EVIL = "=1+1<img src=x onerror=alert(2)>"
HOSTILE = (
    "<script>alert('ann')</script></pre><img src=http://evil.example/x.png onerror=alert(1)>"
    "\n![tracker](http://evil.example/t.png) \x1b[2J\x1b]0;owned\x07 \u202etxt.exe =HYPERLINK(1)"
)


def _read(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _answer(nb, label: str, text: str) -> None:
    (cell,) = [c for c in nb.cells if c.metadata.get(META, {}).get("exercise") == label]
    cell.source = text


class Tags(html.parser.HTMLParser):
    """Every tag and attribute of a page."""

    def __init__(self):
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes |= {name for name, _ in attrs}


@pytest.fixture(scope="module")
def rounds(tmp_path_factory) -> dict:
    assignments = mini_assignments(tmp_path_factory, TEXT_STEM, TEXT)
    top = tmp_path_factory.mktemp("text-answers")
    submissions, grades = top / "submissions", top / "grades"
    at = f"{TEXT_STEM}.ipynb"

    def student(which: str, solution: str | None = None):
        nb = nbformat.read(assignments / which / at, 4)
        if solution is not None:
            (cell,) = [c for c in nb.cells if c.metadata.get(META, {}).get("role") == "solution"]
            cell.source = solution
        return nb

    def write(nb, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)

    ann = student("teacher")
    _answer(ann, WHY, "Bias and prevalence each sum to 1, so over sums to 0.")
    _answer(ann, WHICH, "The second class.")
    write(ann, submissions / "ann" / at)
    write(ann, submissions / EVIL / at)
    bob = lean(student("student", OVER))
    _answer(bob, WHY, HOSTILE)
    write(bob, submissions / "bob" / at)
    write(lean(student("student")), submissions / "cal" / at)
    dan = lean(student("student", OVER))
    (k,) = [k for k, c in enumerate(dan.cells) if c.metadata.get(META, {}).get("exercise") == WHY]
    dan.cells.insert(k + 1, nbformat.v4.new_markdown_cell("Both are shares of the items."))
    write(dan, submissions / f"dan_{at}")

    base = ["grade", str(submissions), "--assignments", str(assignments), "--out", str(grades)]
    first = main([*base, "--timeout", "240"])
    found = {
        "first": first,
        "answers": (grades / "answers.html").read_text(encoding="utf-8"),
        "template": _read(grades / "text-points-template.csv"),
        "gradebook": _read(grades / "gradebook.csv"),
    }
    # the teacher marks the first text exercise in a copy of the template, leaves the second
    marked = {"ann": "2", "bob": "0", "cal": "0", "dan": "1.5", f"'{EVIL}": "1"}
    points = top / "my-text-points.csv"
    with open(points, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(found["template"][0]))
        writer.writeheader()
        for row in found["template"]:
            if row["exercise"] == WHY:
                row = {**row, "points": marked[row["student"]]}
            writer.writerow(row)
    second = main([*base, "--timeout", "240", "--text-points", str(points), "--lms", "canvas"])
    shutil.copy(points, top / "kept.csv")
    return {
        **found,
        "second": second,
        "grades": grades,
        "after": _read(grades / "gradebook.csv"),
        "rows": _read(grades / "grades.csv"),
        "canvas": list(
            csv.reader((grades / "canvas.csv").read_text(encoding="utf-8").splitlines())
        ),
        "template_after": _read(grades / "text-points-template.csv"),
    }


def test_both_runs_finish(rounds):
    assert (rounds["first"], rounds["second"]) == (0, 0)


def test_every_answer_reaches_the_teachers_file_with_the_rubric(rounds):
    page = rounds["answers"]
    assert page.index("Exercise 2 (ex-mini-why-over)") < page.index("Exercise 3 (ex-mini-which)")
    ann = "<h4>ann</h4><pre>Bias and prevalence each sum to 1, so over sums to 0.</pre>"
    assert ann in page  # her answer alone, not the teacher notebook's cells after it
    assert "<h4>ann</h4><pre>The second class.</pre>" in page
    assert "<h4>dan</h4><pre>Both are shares of the items.</pre>" in page  # his added cell
    assert "<b>Rubric</b> (2 points)" in page and "1 point: the predicted shares" in page
    assert "<b>No rubric</b>" in page  # the second exercise's
    assert "Answer to ex-mini-why-over." in page  # the book's answer, for the teacher
    for student in ("ann", "bob", "cal", "dan", "=1+1&lt;img src=x onerror=alert(2)&gt;"):
        assert page.count(f"<h4>{student}</h4>") == 2  # one per text exercise
    assert page.count("<i>not answered</i>") == 4  # cal's two, bob's and dan's second
    assert "<img" not in page and "&lt;img src=x onerror=alert(2)&gt;" in page


def test_a_hostile_answer_is_shown_as_text_and_loads_nothing(rounds):
    page = rounds["answers"]
    tags = Tags()
    tags.feed(page)
    assert tags.tags <= {
        *("html", "head", "meta", "title", "style", "body", "h1", "h2", "h3", "h4", "p"),
        *("code", "section", "details", "summary", "pre", "ul", "li", "b", "i", "div"),
    }
    assert tags.attributes <= {"lang", "charset", "http-equiv", "content", "name", "id", "class"}
    assert "default-src 'none'" in page  # nothing loads, should anything slip through
    assert "&lt;script&gt;alert(&#x27;ann&#x27;)&lt;/script&gt;&lt;/pre&gt;&lt;img" in page
    assert "![tracker](http://evil.example/t.png)" in page  # Markdown stays text
    assert "\x1b" not in page and "\x07" not in page and "\u202e" not in page
    assert "txt.exe =HYPERLINK(1)" in page


def test_the_template_has_a_row_per_student_and_text_exercise(rounds):
    rows = rounds["template"]
    assert [(r["student"], r["exercise"]) for r in rows] == [
        (s, e) for s in (f"'{EVIL}", "ann", "bob", "cal", "dan") for e in (WHY, WHICH)
    ]  # a leading = escaped, as in every CSV the grader writes
    assert {r["max_points"] for r in rows if r["exercise"] == WHY} == {"2"}  # the rubric's
    assert {r["max_points"] for r in rows if r["exercise"] == WHICH} == {""}  # no rubric
    assert {r["points"] for r in rows} == {""}
    answered = {(r["student"], r["exercise"]): r["answered"] for r in rows}
    assert answered[("cal", WHY)] == "no" and answered[("dan", WHY)] == "yes"
    assert answered[("bob", WHY)] == "yes" and answered[("bob", WHICH)] == "no"


def test_the_teachers_points_merge_into_the_gradebook(rounds):
    before = {r["student"]: r for r in rounds["gradebook"]}
    after = {r["student"]: r for r in rounds["after"]}
    # the tested exercise: ann (the teacher's solution), bob and dan (the right answer) 2 of 2
    assert {s: before[s][TEXT_STEM] for s in before} == {
        f"'{EVIL}": "2",
        "ann": "2",
        "bob": "2",
        "cal": "0",
        "dan": "2",
    }
    assert {before[s][f"max_{TEXT_STEM}"] for s in before} == {"2"}
    assert {s: after[s][TEXT_STEM] for s in after} == {
        f"'{EVIL}": "3",
        "ann": "4",
        "bob": "2",
        "cal": "0",
        "dan": "3.5",
    }
    assert {after[s][f"max_{TEXT_STEM}"] for s in after} == {"4"}
    assert {after[s]["max_total"] for s in after} == {"4"}
    text = {
        (r["student"], r["points"], r["max_points"]) for r in rounds["rows"] if r["exercise"] == WHY
    }
    assert text == {
        *((f"'{EVIL}", "1", "2"), ("ann", "2", "2"), ("bob", "0", "2")),
        *(("cal", "0", "2"), ("dan", "1.5", "2")),
    }
    feedback = (rounds["grades"] / "latest" / "feedback" / "dan" / f"{TEXT_STEM}.md").read_text()
    assert feedback.startswith(f"# {TEXT_STEM}: 3.5/4 points")
    assert f"## {WHY}: 1.5/2" in feedback and "marked by the teacher" in feedback
    # the next template keeps the points given
    kept = {(r["student"], r["exercise"]): r["points"] for r in rounds["template_after"]}
    assert kept[("dan", WHY)] == "1.5" and kept[("dan", WHICH)] == ""


def test_the_canvas_file_carries_the_merged_points(rounds):
    rows = rounds["canvas"]
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", TEXT_STEM]
    assert rows[1] == ["Points Possible", "", "", "", "", "4"]
    assert rows[2:] == [
        [f"'{EVIL}", "", "", f"'{EVIL}", "", "3"],
        ["ann", "", "", "ann", "", "4"],
        ["bob", "", "", "bob", "", "2"],
        ["cal", "", "", "cal", "", "0"],
        ["dan", "", "", "dan", "", "3.5"],
    ]
