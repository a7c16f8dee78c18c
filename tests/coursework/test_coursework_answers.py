"""Text exercises: the answer cell in its place, rubrics, answers collected, the teacher's points.

The placement is checked on every chapter's master notebook (no otter run); the rest on the
mini chapter with two text exercises (``coursework_mini.TEXT``, assigned without otter's test
run) and on notebooks made here. The grading run a teacher makes, in the sandbox, is in
``test_coursework_text_answers.py``.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from chapter_runner import ROOT
from coursework_batch import mini_assignments
from coursework_mini import TEXT, TEXT_STEM

from clfcourse.__main__ import main
from clfcourse.answers import (
    PointsError,
    TextAnswers,
    answers_of,
    check_points,
    read_points,
    rubric,
    text_exercises,
)
from clfcourse.exercises import META, build_assignment, notebook_chapters
from clfcourse.grading import load_manifest
from clfcourse.markdown import Book
from clfcourse.master import assignment_config, master_notebook

WHY, WHICH = "ex-mini-why-over", "ex-mini-which"


def _role(cell) -> tuple:
    meta = cell.metadata.get(META, {})
    return meta.get("exercise"), meta.get("role")


def test_each_answer_cell_follows_its_own_exercise_in_every_chapter():
    """Issue 40: Exercise 4.3's answer cell sat after Exercise 4.4's statement, and most text
    exercises' at the end of their chapter (after the references): a chapter's markdown cell
    holds every block up to the next code cell."""
    book = Book.load(ROOT)
    seen = 0
    for path in notebook_chapters(ROOT):
        assignment = build_assignment(path, ROOT)
        texts = [ex.label for ex in assignment.exercises.values() if not ex.solution_cells]
        if not assignment.graded or not texts:
            continue
        master = master_notebook(assignment, assignment_config(path.stem, "r", []), book)
        answers = [(k, c) for k, c in enumerate(master.cells) if _role(c)[1] == "answer"]
        assert sorted(_role(c)[0] for _, c in answers) == sorted(texts), path.name
        for k, cell in answers:
            label = _role(cell)[0]
            name = book.targets[label].name()
            before = master.cells[k - 1].source
            assert f"**{name}**" in before, (path.name, label, before[-200:])
            rest = before[before.index(f"**{name}**") + len(name) + 4 :]
            assert "**Exercise " not in rest, (path.name, label, "another exercise in between")
            seen += 1
    assert seen  # the chapters have text exercises, each checked above


GOOD = """```{solution} ex-x
:class: dropdown

Because.

:::{admonition} Rubric
:class: rubric
- 2 points: names the reason,
  in a sentence.
- 1 point: gives the number.
:::
```"""


def test_a_rubric_is_read_from_the_solution_block():
    got = rubric(GOOD.split("\n"), "ch, ex-x")
    assert got == {
        "points": 3,
        "criteria": [
            {"points": 2, "text": "names the reason, in a sentence."},
            {"points": 1, "text": "gives the number."},
        ],
    }
    assert rubric(["Because."], "ch, ex-x") is None


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("- two points: names it", "'- two points: names it' is not '- N points: criterion'"),
        ("names the reason", "is not '- N points: criterion'"),
        ("", "has no '- N points: criterion' item"),
    ],
)
def test_a_rubric_that_cannot_be_read_says_which_line(body, problem):
    lines = [":::{admonition} Rubric", body, ":::"]
    with pytest.raises(ValueError, match=re.escape(problem)):
        rubric(lines, "ch, ex-x")


@pytest.fixture(scope="module")
def assigned(tmp_path_factory) -> Path:
    return mini_assignments(tmp_path_factory, TEXT_STEM, TEXT)


def test_the_manifest_carries_the_rubric_and_the_teacher_notebook_the_rest(assigned):
    (chapter,) = load_manifest(assigned)
    why, which = text_exercises(assigned, chapter)
    assert (why.label, why.name, which.label) == (WHY, "Exercise 2", WHICH)
    assert why.rubric["points"] == 2 and which.rubric is None
    assert why.task.startswith("**Exercise 2**") and "sum to zero" in why.task
    assert "Exercise 3" not in why.task
    assert why.answer.startswith(f"**Answer to {WHY}.**") and "each sum to one" in why.answer


def _student(assigned: Path) -> nbformat.NotebookNode:
    return nbformat.read(assigned / "student" / f"{TEXT_STEM}.ipynb", 4)


def _answers(assigned: Path, nb) -> dict:
    (chapter,) = load_manifest(assigned)
    teacher = nbformat.read(assigned / "teacher" / f"{TEXT_STEM}.ipynb", 4)
    handout = {c.source.strip() for c in [*_student(assigned).cells, *teacher.cells]}
    return answers_of(nb, text_exercises(assigned, chapter), handout)


def test_answers_are_the_answer_cells_and_the_cells_added_after_them(assigned):
    nb = _student(assigned)
    assert _answers(assigned, nb) == {WHY: "", WHICH: ""}  # as handed out: not answered
    (k,) = [k for k, c in enumerate(nb.cells) if _role(c) == (WHY, "answer")]
    nb.cells[k].source = "Both sum to **one**."
    nb.cells.insert(k + 1, nbformat.v4.new_code_cell("over.sum()"))
    nb.cells.insert(k + 2, nbformat.v4.new_markdown_cell("So zero."))
    (j,) = [j for j, c in enumerate(nb.cells) if _role(c) == (WHICH, "answer")]
    nb.cells[j].metadata = {}  # copied by hand: found by its opening words
    nb.cells[j].source = nb.cells[j].source.split("_double")[0] + "The second class."
    got = _answers(assigned, nb)
    assert got[WHY] == "Both sum to **one**.\n\n```python\nover.sum()\n```\n\nSo zero."
    assert got[WHICH] == "The second class."
    nb.cells[k].metadata[META] = {"exercise": ["not", "a", "label"], "role": "answer"}
    nb.cells[k].source = ["**Your answer to Exercise 2:** ", "Both", 1]  # not nbformat's
    assert _answers(assigned, nb)[WHY].startswith("Both1")


def test_an_answer_is_plain_text_and_has_a_limit(assigned):
    nb = _student(assigned)
    (k,) = [k for k, c in enumerate(nb.cells) if _role(c) == (WHY, "answer")]
    nb.cells[k].source = "\x1b[31mred\x1b[0m \u202eevil\ud800 " + "x" * 30_000
    got = _answers(assigned, nb)[WHY]
    assert got.startswith("red evil\\ud800 x") and "\x1b" not in got and "\u202e" not in got
    assert got.endswith("characters more]") and len(got) < 20_100


def _points_file(tmp_path: Path, text: str, name: str = "points.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


HEAD = "student,assignment,exercise,max_points,points,answered\n"


def test_the_teachers_points_are_read(assigned, tmp_path):
    text = TextAnswers(assigned, load_manifest(assigned))
    path = _points_file(
        tmp_path,
        HEAD
        + f"ann,{TEXT_STEM},{WHY},2,1.5,yes\n"
        + f"'-ben,{TEXT_STEM},{WHY},,0,no\n"  # the template's escape of a leading '-'
        + f"ann,{TEXT_STEM},{WHICH},,,yes\n",  # not marked yet
    )
    assert read_points(path, text) == {
        ("ann", TEXT_STEM, WHY): (1.5, 2),
        ("-ben", TEXT_STEM, WHY): (0, 2),  # the rubric's maximum
    }
    semicolons = _points_file(
        tmp_path, "\ufeff" + HEAD.replace(",", ";") + f"ann;{TEXT_STEM};{WHICH};3;2,5;yes\n"
    )
    assert read_points(semicolons, text) == {("ann", TEXT_STEM, WHICH): (2.5, 3)}


ROW = f"ann,{TEXT_STEM},{WHY},2,1,yes\n"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("student,exercise,points\nann,x,1\n", "no column 'assignment'"),
        (HEAD + f"ann,01-nothing,{WHY},2,1,yes\n", "line 2: no assignment '01-nothing'"),
        (HEAD + f"ann,{TEXT_STEM},ex-mini-over,2,1,yes\n", "'ex-mini-over' is not a text exercise"),
        (HEAD + f"ann,{TEXT_STEM},{WHY},2,one,yes\n", "line 2: points 'one' is not a number"),
        (HEAD + f"ann,{TEXT_STEM},{WHY},2,3,yes\n", "points 3 is not between 0 and max_points 2"),
        (HEAD + f"ann,{TEXT_STEM},{WHY},2,-1,yes\n", "points -1 is not between 0"),
        (HEAD + f"ann,{TEXT_STEM},{WHY},0,0,yes\n", "max_points '0' is not a positive number"),
        (HEAD + f"ann,{TEXT_STEM},{WHICH},,1,yes\n", f"{WHICH} has no rubric, so its max_points"),
        (HEAD + ROW + f"ben,{TEXT_STEM},{WHY},3,1,yes\n", "line 3: max_points 3 for"),
        (HEAD + ROW + ROW, "line 3: ann's ex-mini-why-over is given twice"),
        (HEAD + f"ann,{TEXT_STEM},{WHY},2,nan,yes\n", "points 'nan' is not a number"),
        (HEAD + f"ann,{TEXT_STEM},{WHY},2,1,yes,extra\n", "line 2: more cells than columns"),
    ],
)
def test_a_bad_points_file_gets_one_line_naming_the_problem(assigned, tmp_path, content, problem):
    text = TextAnswers(assigned, load_manifest(assigned))
    with pytest.raises(PointsError) as raised:
        read_points(_points_file(tmp_path, content), text)
    assert problem in str(raised.value) and "\n" not in str(raised.value)
    assert str(raised.value).startswith("points.csv")


def test_points_that_do_not_fit_the_submissions_are_refused(tmp_path):
    marks = {("ann", "a", "ex-1"): (1, 2)}
    check_points("p.csv", marks, {("ann", "a")})
    with pytest.raises(PointsError, match="'ben' handed in no a"):
        check_points("p.csv", {**marks, ("ben", "a", "ex-1"): (1, 2)}, {("ann", "a")})
    some = "ex-1 of a has points for some students but none for 'ben'"
    with pytest.raises(PointsError, match=some):
        check_points("p.csv", marks, {("ann", "a"), ("ben", "a")})


def test_the_command_line_stops_on_a_bad_points_file_before_grading(assigned, tmp_path, capsys):
    submissions = tmp_path / "in"
    (submissions / "ann").mkdir(parents=True)
    nbformat.write(_student(assigned), submissions / "ann" / f"{TEXT_STEM}.ipynb")
    bad = _points_file(tmp_path, HEAD + f"ann,{TEXT_STEM},{WHY},2,5,yes\n")
    out = tmp_path / "grades"
    args = ["grade", str(submissions), "--assignments", str(assigned), "--out", str(out)]
    assert main([*args, "--text-points", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "points.csv, line 2: points 5 is not between 0" in err
    assert not out.exists()  # no run started, nothing withdrawn
    unknown = _points_file(tmp_path, HEAD + f"cat,{TEXT_STEM},{WHY},2,1,yes\n", "p2.csv")
    assert main([*args, "--text-points", str(unknown)]) == 2
    assert "'cat' handed in no mini-text" in capsys.readouterr().err
    assert main([*args, "--text-points", str(tmp_path / "none.csv")]) == 2
    assert "none.csv: cannot be read" in capsys.readouterr().err
