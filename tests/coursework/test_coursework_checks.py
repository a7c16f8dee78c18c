"""What a student reads of the checks (issue 40, item 2): the notebook's first cell, a failed
public check's own message first, "not answered yet", and the hidden messages the author
marked as safe in the feedback.

The rules run here on plain code; the tests marked ``sandbox`` (the coursework tier: a kernel
per notebook, and the grader's sandbox) take chapter 04 as ``make assignments`` writes it, run
its student notebook in a real kernel with otter's own ``grader.check``, and grade it.
"""

from __future__ import annotations

import ast
import csv
from pathlib import Path

import nbformat
import pytest
from coursework_batch import lean
from coursework_mini import total_chapter

from clfcourse import build_assignment
from clfcourse.__main__ import main
from clfcourse.checks import (
    INTRO,
    answer_names,
    assertions,
    public_check,
    shown_messages,
    stated_problems,
)
from clfcourse.exercises import META
from clfcourse.generate import _shown
from clfcourse.grading import _messages
from clfcourse.master import Hidden

ROOT = Path(__file__).resolve().parents[2]
STEM = "04-two-macro-f1"
GAP = "ex-ch04-large-gap"
#: Exercise 4.1 asks for Delta > 0.4: a matrix without a gap, one at Delta = 0.315, a 2 x 2
#: matrix, and the chapter's own answer (the supremum sequence at z = 50).
TRIES = {
    "no gap": "big_gap = [[5, 1, 0], [1, 5, 0], [0, 0, 5]]",
    "0.32": "big_gap = [[1, 0, 0], [6, 1, 6], [0, 0, 1]]",
    "2 x 2": "big_gap = [[1, 2], [3, 4]]",
    "right": "big_gap = supremum.supremum_sequence(3, 50).astype(int)",
}


def _run(code: str, env: dict) -> BaseException | None:
    try:
        exec(code, env)
    except Exception as error:
        return error
    return None


def test_a_public_check_fails_with_its_own_error_or_not_answered_yet():
    """Outside a notebook the check raises what it raised, a missing answer as "not
    answered yet", and leaves no name of its own behind."""
    check = public_check('assert total > 5, "more than 5 items"', "ex-t", ["total"])
    assert ast.parse(check)  # one block otter turns into one doctest example
    error = _run(check, {"total": 3})
    assert type(error) is AssertionError and str(error) == "more than 5 items"
    assert error.__cause__ is None and error.__suppress_context__
    error = _run(check, {})
    assert type(error) is NameError and str(error).startswith("not answered yet: total is")
    error = _run(public_check("assert m[0][0] >= 0", "ex-t", ["total"]), {})
    assert type(error) is NameError and str(error) == "m is not defined: run the cells above first"
    env = {"total": 8}
    assert _run(check, env) is None and set(env) == {"total", "__builtins__"}
    env = {}
    _run(check, env)
    assert set(env) == {"__builtins__"}


def test_answer_names_are_what_the_solution_binds():
    sources = ["a, (b, *c) = 1, (2, 3)\nd: int = 4\ndef f():\n    e = 5\n", "for g in []: pass"]
    assert answer_names(sources) == ["a", "b", "c", "d", "f", "g"]


def test_only_marked_assertions_with_the_authors_own_words_are_shown():
    source = "\n".join(
        [
            'assert x > 0, "a positive x"  # shown',
            "assert x < 9, (  # stated",
            '    "x below 9"',
            ")",
            'assert x == 4, "x is four"',
        ]
    )
    assert [sorted(a.markers) for a in assertions(source)] == [["shown"], ["stated"], []]
    assert shown_messages([source]) == ["a positive x", "x below 9"]
    with pytest.raises(ValueError, match="not a plain string"):
        shown_messages(['assert x > 0, f"{x} is not positive"  # shown'], "ch, ex")


def test_the_marked_messages_come_from_the_hidden_tests_in_use(tmp_path):
    """The chapter's hidden checks, or the teacher's own tests where given (their markers)."""
    (tmp_path / "mini.md").write_text(
        total_chapter(hidden='assert total == 10, "ten"\nassert total > 0, "positive"  # shown')
    )
    assignment = build_assignment(tmp_path / "mini.md", tmp_path)
    (ex,) = assignment.graded
    assert _shown(assignment, ex, {}) == ["positive"]
    mine = Hidden(('assert total < 99, "below 99"  # stated', 'assert total == 10, "ten"'))
    assert _shown(assignment, ex, {ex.label: mine}) == ["below 99"]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("assert delta_f1(m) > 0.4  # stated", None),
        ("assert accuracy(a) > accuracy(b)  # stated", None),
        ("assert delta_f1(m) == 0  # stated", None),
        ("assert f(m) < f(n) - 1e-12  # stated", None),
        ("assert delta_f1(m) > 0.45  # stated", "the number 0.45"),
        ('assert best == "E"  # stated', "the string 'E'"),
        ("assert np.isclose(m, f(n))  # stated", "pins the answer m"),
        ("assert m[0] == 3  # stated", "the number 3"),
        ("assert m[0] == n[0]  # stated", "pins the answer m"),
    ],
)
def test_a_stated_condition_names_no_answer(line, problem):
    (marked,) = assertions(line)
    problems = stated_problems(marked, "find m with delta_f1(m) > 0.4", ["m", "a", "best"])
    assert (problem is None and not problems) or any(problem in p for p in problems), problems


def _case(number: int, hidden: bool, error: str | None) -> dict:
    text = f"Trying:\n    ...\nTraceback (most recent call last):\n{error}\n" if error else ""
    return {"number": number, "hidden": hidden, "passed": error is None, "message": text}


def test_the_feedback_shows_a_hidden_message_only_when_its_author_marked_it():
    """By structure: the student reads a hidden case's message only when its error is an
    assertion whose message is, word for word, one the author marked."""
    shown = ("Delta must exceed 0.4",)
    test = {
        "cases": [_case(1, False, None), _case(2, True, "AssertionError: Delta must exceed 0.4")]
    }
    assert _messages(test, shown) == (
        "test 2: AssertionError: Delta must exceed 0.4",
        "test 2 (hidden): Delta must exceed 0.4",
    )
    assert _messages(test)[1] == "test 2 (hidden): failed"
    for error in ("AssertionError: Delta must exceed 0.45", "NameError: Delta must exceed 0.4"):
        test["cases"][1] = _case(2, True, error)
        assert _messages(test, shown)[1] == "test 2 (hidden): failed"


@pytest.fixture(scope="module")
def chapter(tmp_path_factory) -> Path:
    """Chapter 04 as ``make assignments`` writes it (without otter's own test run)."""
    out = tmp_path_factory.mktemp("assignments")
    args = ["--root", str(ROOT), "assign", str(ROOT / "chapters" / f"{STEM}.md"), "--out"]
    assert main([*args, str(out), "--no-run-tests"]) == 0
    return out


def _check_cell(nb, label: str) -> int:
    return next(k for k, c in enumerate(nb.cells) if c.source == f'grader.check("{label}")')


@pytest.mark.sandbox
def test_the_student_notebook_says_what_a_check_is(chapter):
    student = nbformat.read(chapter / "student" / f"{STEM}.ipynb", as_version=4)
    first = student.cells[0]
    assert first.cell_type == "markdown" and first.source == INTRO
    assert "public check" in INTRO and "catches common slips" in INTRO
    assert "**not** your grade" in INTRO and "hidden tests" in INTRO


@pytest.mark.sandbox
def test_a_failed_check_shows_its_own_message_first_in_a_real_kernel(chapter, tmp_path):
    """Otter's ``grader.check`` in a kernel: the check's own message is the cell's first
    output, in one line; a blank answer says "not answered yet"; Exercise 4.1's check refuses
    Delta = 0 and Delta = 0.32, and passes the chapter's answer."""
    from nbclient import NotebookClient

    nb = nbformat.read(chapter / "student" / f"{STEM}.ipynb", as_version=4)
    at = _check_cell(nb, GAP)
    extra = []
    for code in TRIES.values():
        extra += [nbformat.v4.new_code_cell(code), nbformat.v4.new_code_cell(nb.cells[at].source)]
    nb.cells[at + 1 : at + 1] = extra
    nbformat.write(nb, tmp_path / f"{STEM}.ipynb")  # otter reads its tests from the file
    NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()

    def said(k: int) -> tuple[str, str]:
        outputs = nb.cells[k].outputs
        first = outputs[0]["data"]["text/plain"] if outputs[0].get("data") else ""
        return first, outputs[-1]["data"]["text/plain"]

    first, report = said(at)
    assert first.startswith(f"✗ {GAP}: not answered yet: big_gap is not defined"), first
    assert "results:" in report  # otter's own report follows
    messages = [said(at + 2 * k + 2) for k in range(len(TRIES))]
    wrong = dict(zip(TRIES, messages, strict=True))
    for name in ("no gap", "0.32"):
        assert wrong[name][0] == f"✗ {GAP}: the task asks for Delta > 0.4", name
    assert wrong["2 x 2"][0] == f"✗ {GAP}: big_gap must be a 3 x 3 matrix"
    assert all(len(m[0].splitlines()) == 1 for m in messages[:3])
    assert wrong["right"][0] == wrong["right"][1] and "passed" in wrong["right"][1]
    first, _ = said(_check_cell(nb, "ex-ch04-source-claim"))
    assert first.startswith("✗ ex-ch04-source-claim: not answered yet: counter is not defined")


@pytest.mark.sandbox
def test_the_feedback_carries_the_marked_hidden_message_and_not_answered_yet(chapter, tmp_path):
    """Graded in the sandbox: Exercise 4.1's hidden message, marked ``# stated``, reaches the
    student; 4.2's hidden test, unmarked, only says it failed; 4.4 left blank says so."""
    nb = lean(nbformat.read(chapter / "student" / f"{STEM}.ipynb", as_version=4))

    def answer(label: str, code: str) -> None:
        (cell,) = [c for c in nb.cells if c.metadata.get(META, {}).get("exercise") == label]
        cell.source = code

    answer(GAP, TRIES["no gap"])
    answer(
        "ex-ch04-by-hand",
        "mp, mr = macro_precision(tilted), macro_recall(tilted)\n"
        "f1_avg = (mp + mr) / 2\ngap = f1_avg - macro_f1(tilted)",
    )
    (tmp_path / "in" / "bob").mkdir(parents=True)
    nbformat.write(nb, tmp_path / "in" / "bob" / f"{STEM}.ipynb")
    grades = tmp_path / "grades"
    args = ["grade", str(tmp_path / "in"), "--assignments", str(chapter), "--out", str(grades)]
    assert main(["--root", str(ROOT), *args, "--timeout", "300"]) == 0
    with open(grades / "grades.csv", newline="") as f:
        rows = {r["exercise"]: r for r in csv.DictReader(f)}
    assert {r["points"] for r in rows.values()} == {"0"}
    text = (grades / "latest" / "feedback" / "bob" / f"{STEM}.md").read_text()
    assert "test 2 (hidden): Delta must exceed 0.4" in text
    assert "test 2 (hidden): failed" in text and "2 macP macR" not in text
    assert "not answered yet: counter is not defined" in text
