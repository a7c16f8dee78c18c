"""Coursework on otter-grader: what students get leaks nothing, and the grader grades it right.

``otter assign`` runs on every chapter once (without its own test run, which would execute every
chapter); the grader then grades, in one ``make grade``-like call, what only a book chapter can
show: the teacher notebooks of two chapters (full points, from the run that gives their data)
and a chapter's student notebook with a planted wrong answer that passes the public test and an
exercise left untouched (zero, and no crash). The grader's behaviour on
broken, hostile and runaway notebooks is tested on a small chapter in
``test_coursework_grader.py`` and ``test_coursework_attacks.py``.
"""

from __future__ import annotations

import ast
import csv
import json
import re
from pathlib import Path

import nbformat
import pytest
from coursework_batch import lean
from coursework_mini import total_chapter
from coursework_products import assigned_once, book_assignment

from clfcourse import Limits, build_assignment, master_notebook
from clfcourse.__main__ import main
from clfcourse.checks import answer_names, assertions, stated_problems, without_stated
from clfcourse.exercises import META, _State, notebook_chapters, strip_solutions
from clfcourse.grading import teacher_rows
from clfcourse.master import assignment_config

pytestmark = pytest.mark.sandbox

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = notebook_chapters(ROOT)
#: Chapters whose teacher notebooks are graded in full (kept few: each run executes a chapter;
#: chapter 2, with three graded exercises, runs in less CPU time than chapter 9 did;
#: NaN values, which chapter 9's answers hold, are carried in test_coursework_values;
#: chapter 12's tests read its given ``table``, a data class of the book's apparatus, which the
#: grader once could not carry out of the kernel, and scored 0).
GRADED = ("01-confusion-matrix", "02-accuracy-micro", "12-shared-task")


def _cells(nb, exercise: str, role: str) -> list:
    return [c for c in nb.cells if c.metadata.get(META, {}) == {"exercise": exercise, "role": role}]


@pytest.fixture(scope="module")
def assigned(tmp_path_factory) -> tuple[Path, dict]:
    return assigned_once(tmp_path_factory)  # one otter assign, shared with the other files


def test_every_chapter_with_exercises_has_three_products(assigned):
    """Student notebook, teacher notebook and autograder zip per chapter with graded exercises."""
    out, manifest = assigned
    stems = {Path(e["chapter"]).name for e in manifest["chapters"]}
    with_checks = {p.stem for p in CHAPTERS if book_assignment(p).graded}
    assert stems == with_checks and len(stems) >= 14
    for stem in stems:
        for path in (f"student/{stem}.ipynb", f"teacher/{stem}.ipynb", f"autograder/{stem}.zip"):
            assert (out / path).is_file(), path
        nbformat.validate(nbformat.read(out / "student" / f"{stem}.ipynb", as_version=4))
    teacher = (out / "teacher" / "01-confusion-matrix.ipynb").read_text()
    assert "**Solution of ex-ch01-bayes.** Both ratios share the numerator" in teacher
    assert "# BEGIN SOLUTION" in teacher and ":class:" not in teacher


def _answers(assignment, ex) -> list[str]:
    return answer_names([assignment.notebook.cells[k].source for k in ex.solution_cells])


def _hidden_lines(assignment) -> set[str]:
    """The hidden checks' assertion lines, but for the conditions the task states
    (:func:`.checks.stated`), which the public check may test as openly as the task says them."""
    nb = assignment.notebook
    return {
        re.sub(r"\s*#\s*(shown|stated)\s*$", "", ln.strip())  # a copy need not take the mark
        for ex in assignment.graded
        for k in ex.hidden_cells
        for ln in without_stated(nb.cells[k].source, ex.task, _answers(assignment, ex)).splitlines()
        if ln.strip().startswith("assert")
    }


def _solution_lines(assignment) -> set[str]:
    """Solution code and prose lines that appear nowhere else in the chapter (leak candidates)."""
    nb = assignment.notebook
    mine = {k for ex in assignment.exercises.values() for k in ex.solution_cells}
    public = "\n".join(
        c.source for k, c in enumerate(nb.cells) if c.cell_type == "code" and k not in mine
    ) + "\n".join(ex.task for ex in assignment.exercises.values())
    lines = [ln for k in mine for ln in nb.cells[k].source.splitlines()]
    lines += [ln for ex in assignment.exercises.values() for ln in ex.prose]
    return {
        ln.strip()
        for ln in lines
        if len(ln.strip()) >= 4
        and re.search(r"\w", ln)
        and not re.match(r"^\s*(`{3,}|:{3,}|:class:)", ln)
        and ln.strip() not in public
    }


def leaked(assignment, text: str) -> tuple[list[str], int]:
    """The solution and hidden-test lines of ``assignment`` that ``text`` (a student notebook's
    file) holds, as written or as JSON strings, and how many lines were looked for."""
    lines = _solution_lines(assignment) | _hidden_lines(assignment)
    found = []
    for line in sorted(lines):
        forms = {line, json.dumps(line)[1:-1], json.dumps(line, ensure_ascii=False)[1:-1]}
        found += [line] if any(f in text for f in forms) else []
    return found, len(lines)


def test_student_notebooks_leak_no_solution_and_no_hidden_test(assigned):
    """No solution line, solution prose or hidden-test line in the chapter's student notebook."""
    out, manifest = assigned
    checked = hidden = 0
    for entry in manifest["chapters"]:
        assignment = book_assignment(ROOT / f"{entry['chapter']}.md")
        text = (out / entry["student"]).read_text()
        found, looked = leaked(assignment, text)
        assert not found, f"{entry['chapter']}: leaked {found}"
        checked += looked
        student = nbformat.read(out / entry["student"], as_version=4)
        assert "{solution" not in text
        for ex in assignment.graded:
            tests = student.metadata["otter"]["tests"][ex.label]["suites"][0]["cases"]
            assert tests and not any(case["hidden"] for case in tests), ex.label
            hidden += len(ex.hidden_cells)
            (cell,) = _cells(student, ex.label, "solution")
            assert cell.source.rstrip().endswith("...") and f"Exercise {ex.label}" in cell.source
    assert checked >= 100 and hidden >= 30, "found little to check: is the markup still parsed?"


def _constants(source: str) -> tuple[set[float], set[str], list[str]]:
    """Numbers (not indices), other strings and assertion messages of a check cell."""
    tree = ast.parse(source)
    messages = [n.msg for n in ast.walk(tree) if isinstance(n, ast.Assert) and n.msg is not None]
    in_messages = {id(c) for m in messages for c in ast.walk(m)}
    # an index such as bad[:, 2] says where to look, not what to find
    indices = {
        id(c) for n in ast.walk(tree) if isinstance(n, ast.Subscript) for c in ast.walk(n.slice)
    }
    numbers, strings, texts = set(), [], []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Constant) or isinstance(node.value, bool):
            continue
        if isinstance(node.value, int | float) and id(node) not in indices:
            numbers.add(float(node.value))
        elif isinstance(node.value, str):
            (texts if id(node) in in_messages else strings).append(node.value)
    numbers |= {float(x) for t in texts for x in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", t)}
    return numbers, set(strings), texts


def reveals(public: list[str], hidden: list[str], task: str) -> list[str]:
    """What the public check cells show of what only the hidden ones pin (empty when nothing).

    A number of a hidden check (not an index, not 0 or ±1, not stated in the task) used anywhere
    in a public check; a string a hidden check compares with (a system name, a metric name) as a
    word of a public message; a hidden check's message inside a public message.
    """
    pub = [_constants(source) for source in public]
    hid = [_constants(source) for source in hidden]
    stated = {float(x) for x in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", task)}
    secret = set().union(*(h[0] for h in hid)) - stated - {0.0, 1.0, -1.0}
    found = [f"the number {x:g}" for x in secret & set().union(*(p[0] for p in pub))]
    messages = [t for p in pub for t in p[2]]
    for word in set().union(*(h[1] for h in hid)):
        pattern = rf"(?<!\w){re.escape(word)}(?!\w)"
        found += [f"{word!r} in {m!r}" for m in messages if re.search(pattern, m)]
    for text in (t for h in hid for t in h[2] if len(t) >= 10):
        found += [f"{text!r} in {m!r}" for m in messages if text in m]
    return found


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_public_checks_do_not_reveal_the_hidden_values(path):
    """Every graded exercise has a hidden check, and its public check gives none of it away
    but the conditions the task states, which it tests too (issue 40)."""
    assignment = book_assignment(path)
    nb = assignment.notebook
    for ex in assignment.graded:
        assert ex.hidden_cells, f"{ex.label}: every graded exercise needs a hidden-check cell"
        answers = _answers(assignment, ex)
        public = [nb.cells[k].source for k in ex.check_cells]
        hidden = [nb.cells[k].source for k in ex.hidden_cells]
        marked = [a for h in hidden for a in assertions(h) if "stated" in a.markers]
        wrong = {ast.unparse(a.node.test): stated_problems(a, ex.task, answers) for a in marked}
        assert not any(wrong.values()), f"{ex.label}: marked # stated, but {wrong}"
        assert not reveals(public, [without_stated(h, ex.task, answers) for h in hidden], ex.task)
        tested = {ast.unparse(a.node.test) for p in public for a in assertions(p)}
        untested = [t for t in wrong if t not in tested]
        assert not untested, f"{ex.label}: the public check does not test {untested}"


def _mini(tmp_path: Path, hidden: str) -> object:
    (tmp_path / "mini.md").write_text(total_chapter(" (more than 5 of them)", hidden=hidden))
    return build_assignment(tmp_path / "mini.md", tmp_path)


def test_a_stated_condition_may_be_public_and_a_real_leak_is_still_caught(tmp_path):
    """A public check may repeat a hidden condition the task states (``# stated``); the
    hidden check's other lines, and a ``# stated`` mark on a line that pins the answer, still
    count as leaks in the student's notebook and as revealed by the public check."""
    stated_line = 'assert total > 5, "more than 5 items"  # stated'
    pinned = 'assert total == 10, "ten items"  # stated'
    unmarked = 'assert sum(map(len, m)) == 4 and total % 2 == 0, "an even count"'
    assignment = _mini(tmp_path, "\n".join([stated_line, pinned, unmarked]))
    (ex,) = assignment.graded
    hidden = [assignment.notebook.cells[k].source for k in ex.hidden_cells]
    public = stated_line.split("  #")[0]
    student = json.dumps({"cases": [public, pinned.split("  #")[0]]})
    found, _ = leaked(assignment, student)
    assert found == ['assert total == 10, "ten items"'], found
    answers = _answers(assignment, ex)
    assert not reveals([public], [without_stated(h, ex.task, answers) for h in hidden], ex.task)
    assert reveals([pinned], [without_stated(h, ex.task, answers) for h in hidden], ex.task)
    assert reveals([unmarked], [without_stated(h, ex.task, answers) for h in hidden], ex.task)
    found, _ = leaked(assignment, json.dumps({"cases": [unmarked]}))
    assert found == [unmarked]


def test_reveals_catches_an_answer_in_a_public_message():
    """The rule catches the kind of message the chapters used to have."""
    hidden = ['assert rank_acc[systems.index("E")] == 1', "assert abs(x - 0.3) < 0.01"]
    assert reveals(['assert ok, "E has the highest accuracy"'], hidden, "")
    assert reveals(["assert abs(x - 0.3) < 0.5"], hidden, "")
    assert not reveals(["assert abs(x - 0.3) < 0.5"], hidden, "shares (0.6, 0.3, 0.1)")
    assert not reveals(['assert 0 <= x <= 1, "a share between 0 and 1"'], hidden, "")


def test_master_notebook_markup(tmp_path):
    """Points from the check cell's metadata; a check without a hidden check is refused."""
    (tmp_path / "mini.md").write_text(total_chapter())
    assignment = build_assignment(tmp_path / "mini.md", tmp_path)
    with pytest.raises(ValueError, match="no hidden-check cell"):
        master_notebook(assignment, assignment_config("mini", "requirements.txt", []))
    (tmp_path / "mini.md").write_text(total_chapter(hidden="assert total == 10"))
    master = master_notebook(build_assignment(tmp_path / "mini.md", tmp_path), {"name": "mini"})
    raw = [c.source for c in master.cells if c.cell_type == "raw"]
    assert raw[1] == "# BEGIN QUESTION\nall_or_nothing: true\nname: ex-mini-total\npoints: 3"
    assert raw[2:] == [
        "# BEGIN SOLUTION",
        "# END SOLUTION",
        "# BEGIN TESTS",
        "# END TESTS",
        "# END QUESTION",
    ]
    tests = [c.source for c in master.cells if c.metadata.get(META, {}).get("role") == "hidden"]
    assert tests == ["# HIDDEN\nassert total == 10"]
    assert not any("Add every entry" in c.source for c in master.cells)


@pytest.mark.parametrize(
    ("text", "kept", "removed"),
    [
        ("a\n```{solution} ex-1\n:class: dropdown\n\nsecret\n```\nb", "a\nb", "secret"),
        ("a\n::::{solution} ex-1\n```python\nx = 1\n```\n::::\nb", "a\nb", "x = 1"),
        (
            "a\n````{solution-start} ex-1\n````\nsecret\n````{solution-end}\n````\nb",
            "a\nb",
            "secret",
        ),
    ],
)
def test_strip_solutions_handles_fences(text, kept, removed):
    """Solution blocks go, including nested code fences and colon fences; the rest stays."""
    result, gone = strip_solutions(text, _State())
    assert result == kept
    assert removed in [line for _, line in gone]
    assert {label for label, _ in gone} == {"ex-1"}


def _write(nb, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def graded(assigned, tmp_path_factory) -> dict:
    """One `make grade` run over a student's notebook: a planted wrong answer, and an exercise
    left as the student got it (one submission: each runs a whole chapter).

    Grading it runs the chapter's teacher notebook once, for its given data, and scores it
    as a submission's values are scored: ``test_teacher_notebooks_score_full_points`` reads that
    run (:func:`teacher_rows`) instead of running the teacher notebook a second time.
    """
    out, _ = assigned
    folder = tmp_path_factory.mktemp("submissions")
    # without otter's cells, which decide nothing (otter's slow import saved; the mini batch's
    # honest and patched notebooks run otter in the sandbox)
    wrong = lean(nbformat.read(out / "student" / "01-confusion-matrix.ipynb", 4))
    # right shape, and `most` is the largest entry of `over`, so the public test passes; the
    # hidden test knows the answer. ex-ch01-bayes stays as the student got it.
    planted = "over = np.zeros(3)\nmost = LABELS[0]"
    _cells(wrong, "ex-ch01-overpredicted", "solution")[0].source = planted
    _write(wrong, folder / "wrong" / "01-confusion-matrix.ipynb")
    grades = tmp_path_factory.mktemp("grades")
    args = ["grade", str(folder), "--assignments", str(out), "--out", str(grades), "--jobs", "2"]
    assert main(["--root", str(ROOT), *args, "--timeout", "300"]) == 0
    with open(grades / "details.csv", newline="") as f:  # grades.csv and the file graded
        rows = list(csv.DictReader(f))
    assert (grades / "summary.txt").read_text().startswith("Grades of 1 submitted file(s)")
    return {(r["file"], r["exercise"]): r for r in rows}


def test_teacher_notebooks_score_full_points(graded, assigned):
    """Every graded exercise of the teacher notebooks gets its maximum, run in the sandbox and
    scored outside it like a submission (the run that gave the chapters' data to ``graded``)."""
    out, manifest = assigned
    checked = 0
    for entry in manifest["chapters"]:
        if Path(entry["chapter"]).name not in GRADED:
            continue
        rows = {r.exercise: r for r in teacher_rows(out, entry)}
        for ex in (e for e in entry["exercises"] if e["graded"]):
            row = rows[ex["exercise"]]
            assert (row.points, row.max_points, row.message) == (1, 1, "ok"), row
            assert not row.error, row
            checked += 1
    assert checked >= 7


def test_untouched_exercise_scores_zero(graded):
    """A stub scores nothing, and the grader says why instead of crashing (the mini chapter's
    blank notebook, in test_coursework_attacks, is a whole untouched student notebook)."""
    rows = [r for (f, _), r in graded.items() if f.startswith("wrong/")]
    assert {r["exercise"] for r in rows} == {"ex-ch01-overpredicted", "ex-ch01-bayes"}
    untouched = graded[("wrong/01-confusion-matrix.ipynb", "ex-ch01-bayes")]
    assert untouched["points"] == "0" and "NameError" in untouched["message"], untouched


def test_planted_wrong_answer_passes_public_test_and_fails_hidden_one(graded):
    """The hidden test adds something: the public hint (test 1) passes, the hidden one fails."""
    row = graded[("wrong/01-confusion-matrix.ipynb", "ex-ch01-overpredicted")]
    assert row["points"] == "0"
    assert "test 2: AssertionError" in row["message"] and "test 1" not in row["message"], row


def test_teaching_page_states_the_default_limits_and_the_sandbox():
    text = " ".join((ROOT / "chapters" / "teaching.md").read_text().split())
    d = Limits()
    assert f"{d.memory_mb // 1024} GB of memory and {d.cpu_seconds} s of CPU time" in text
    assert f"{d.processes} more processes, files up to {d.file_mb} MB" in text
    assert f"{d.output_mb:g} MB of cell output" in text
    assert "bubblewrap" in text and "**read-only**" in text
    assert "UNSAFE_NO_SANDBOX=1" in text and "--unsafe-no-sandbox" in text
