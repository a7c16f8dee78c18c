"""Issue 38: a hostile class can neither beat nor break ``make grade``.

Each test reads the rows one attack got in the shared batch of ``coursework_hostile`` (an
honest notebook graded in the same run keeps its 2/2 there), or checks one defence on its own
where a batch is not needed (the file reader, the string cleaner, the cleanup of scratch).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from coursework_hostile import ANSI_LINE, AT, CLASH, FORMULA, LONG, SECRET, hostile_batch
from coursework_mini import OVER_STEM

from clfcourse import untrusted

#: The batch shares a worker with the mini chapter's other batch (and its teacher run).
pytestmark = pytest.mark.sandbox

OVER = "ex-mini-over"


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> dict:
    return hostile_batch(tmp_path_factory)


def _only(batch, file: str) -> dict:
    (row,) = batch["details"][file]
    return row


def test_the_honest_notebook_keeps_its_points_beside_the_attacks(batch):
    assert _only(batch, f"honest/{AT}")["points"] == "2"
    assert batch["gradebook"]["honest"][OVER_STEM] == "2"


@pytest.mark.parametrize(
    "student", ["symteacher", "symproc", "copycat", "shadow", "environ", "fifo"]
)
def test_links_and_special_files_are_refused_unread(batch, student):
    """Was: a link to the teacher's notebook (absolute or through /proc/self) or to a
    classmate's scored 2/2; one to /etc/shadow or /proc/self/environ showed the file in the
    student's feedback. Now each is a row with 0 points that says why, and nothing of the
    target reaches any file of the run."""
    row = _only(batch, f"{student}/{AT}")
    assert row["points"] == row["max_points"] == "0", row
    why = "not a regular file" if student == "fifo" else "a symbolic link"
    assert why in row["message"] and "not graded" in row["message"], row
    feedback = (batch["run"] / "feedback" / student / f"{OVER_STEM}.md").read_text()
    assert "root:" not in feedback and "PATH=" not in feedback, feedback


def test_a_folder_that_is_a_link_is_a_row_not_a_walk(batch):
    row = _only(batch, "linked-folder")
    assert "a symbolic link" in row["message"], row
    assert not [f for f in batch["details"] if f.startswith("linked-folder/")]


def test_the_reader_refuses_a_link_swapped_in_and_a_file_over_the_cap(tmp_path):
    """The checks are made on the open file (O_NOFOLLOW, fstat), and the cap while reading."""
    (tmp_path / "real.ipynb").write_bytes(b"{}")
    (tmp_path / "link.ipynb").symlink_to(tmp_path / "real.ipynb")
    with pytest.raises(ValueError, match="symbolic link"):
        untrusted.read_regular(tmp_path / "link.ipynb", 100)
    assert untrusted.read_regular(tmp_path / "real.ipynb", 100)[0] == b"{}"
    (tmp_path / "big.ipynb").write_bytes(b"x" * 101)
    with pytest.raises(ValueError, match="larger than"):
        untrusted.read_regular(tmp_path / "big.ipynb", 100)
    with pytest.raises(ValueError, match="not a regular file"):
        untrusted.read_regular("/dev/zero", 100)
    names = [s.name for s in untrusted.collect(tmp_path, max_mb=100 / 2**20)]
    assert names == ["big.ipynb", "link.ipynb", "real.ipynb"]


def test_a_lone_surrogate_in_a_reason_ends_nothing(batch):
    """Was: the reason a value could not be encoded held "\\udcff", and writing grades.csv as
    strict UTF-8 raised UnicodeEncodeError: no row for the later students, no gradebook."""
    row = _only(batch, f"surrogate/{AT}")
    assert row["points"] == "0" and "\\udcff cannot leave the notebook" in row["message"], row
    assert "surrogate" in batch["gradebook"] and "honest" in batch["gradebook"]


def test_odd_file_names_are_graded_and_written(batch):
    """Was: a file name that is not UTF-8 ended the run; a 253-character one ended its
    end-of-run writing ("File name too long")."""
    name = "caf\\udce9_" + AT
    assert _only(batch, name)["points"] == "2"  # an honest notebook under an odd name
    assert "caf\\udce9" in batch["gradebook"]
    assert "not a notebook" in _only(batch, LONG)["message"]
    for path in (batch["run"] / "feedback").rglob("*"):
        assert len(path.name) <= 100, path.name
        path.relative_to(batch["run"]).as_posix().encode("utf-8")  # never a surrogate


def test_ansi_escapes_never_reach_the_terminal_or_a_file(batch):
    """Was: the kernel's last stderr line, escapes and all, was the row's reason and a line of
    the summary printed to the terminal (it could clear it and print anything)."""
    row = _only(batch, f"ansi/{AT}")
    assert row["points"] == "0" and "Every submission graded: 2/2" in row["message"], row
    assert "\x1b" not in batch["summary"] and "Every submission graded" in batch["summary"]
    for path in batch["run"].rglob("*"):
        if path.is_file():
            assert b"\x1b" not in path.read_bytes(), path
    assert ANSI_LINE not in row["message"]


def test_a_formula_id_is_text_in_every_csv(batch):
    """Was: an =HYPERLINK(...) folder name landed as a formula cell in gradebook.csv."""
    assert batch["gradebook"][f"'{FORMULA}"]["total"] == "2"
    assert batch["rows"][f"'{FORMULA}"]["points"] == "2"
    assert _only(batch, f"'{FORMULA}/{AT}")["student"] == f"'{FORMULA}"
    assert not [
        line
        for name in ("grades.csv", "gradebook.csv", "details.csv")
        for line in (batch["grades"] / name).read_text().splitlines()
        if line.startswith(("=", "+", "-", "@"))
    ]


def test_every_student_string_is_made_plain():
    assert untrusted.text("a\udcffb") == "a\\udcffb"
    assert untrusted.text(b"caf\xe9") == "caf\\xe9"
    assert untrusted.text("\x1b[2J\x1b]0;title\x07ok\r\nnext\u202e") == "ok next"
    assert untrusted.cell("=1+1") == "'=1+1" and untrusted.cell("@SUM") == "'@SUM"
    assert untrusted.cell("ok") == "ok"
    long = untrusted.file_name("y" * 253)
    assert len(long) == 80 and long != untrusted.file_name("y" * 252)
    assert untrusted.file_name("../..") == "unknown"


def test_a_run_that_fails_leaves_nothing_current(tmp_path, monkeypatch):
    """A grader that breaks mid-run (here: while writing the gradebook) marks no run current:
    the earlier run's copies and ``latest`` are gone, summary.txt says the run failed."""
    from clfcourse import GradeRow
    from clfcourse.gradebook import GradeFiles

    chapters = [{"chapter": "chapters/01-one", "autograder": "autograder/01-one.zip"}]
    first = GradeFiles(tmp_path / "grades", tmp_path, chapters)
    first.add("ann/01-one.ipynb", None, [GradeRow("x", "ex-1", 1, 1, "ok")])
    first.finish("first\n")
    assert (tmp_path / "grades" / "latest").resolve() == first.run.resolve()
    second = GradeFiles(tmp_path / "grades", tmp_path, chapters)
    # while it runs, the earlier run is not current
    assert not (tmp_path / "grades" / "latest").exists()
    assert not (tmp_path / "grades" / "grades.csv").exists()
    assert (
        "under way, or ended without finishing" in (tmp_path / "grades" / "summary.txt").read_text()
    )

    def broken() -> None:
        raise OSError("disk full")

    monkeypatch.setattr(second, "_gradebook", broken)
    with pytest.raises(OSError):
        second.finish("second\n")
    second.fail("OSError: disk full")
    summary = (tmp_path / "grades" / "summary.txt").read_text()
    assert "failed before it finished (OSError: disk full)" in summary
    assert not (tmp_path / "grades" / "latest").exists()
    assert (second.run / "FAILED.txt").exists() and (second.run / "RUNNING.txt").exists()
    assert (first.run / "grades.csv").read_text().count("\n") == 2  # the earlier run is kept


def test_one_file_whose_rows_cannot_be_written_ends_nothing(tmp_path, monkeypatch):
    """grade_submissions records each file's rows in a try: a file whose rows break the
    writer gets a row saying so, and the files after it are recorded."""
    from clfcourse import grading
    from clfcourse.gradebook import GradeFiles

    original = GradeFiles.add

    def add(self, name, source, rows, *args):
        if name.startswith("bad") and rows[0].exercise != "":
            raise RuntimeError("cannot write")
        return original(self, name, source, rows, *args)

    monkeypatch.setattr(GradeFiles, "add", add)
    monkeypatch.setattr(grading, "load_manifest", lambda _: [])
    for name in ("a.txt", "bad.txt", "c.txt"):
        (tmp_path / "in").mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_text("text")
    monkeypatch.setattr(
        grading,
        "grade_notebook",
        lambda *a, **k: grading.Graded([grading.GradeRow(a[4], "ex", 0, 1, "m")], None),
    )
    rows, summary = grading.grade_submissions(
        tmp_path / "in", tmp_path, tmp_path / "out", unsafe_no_sandbox=True
    )
    assert [(r.student_file, r.exercise) for r in rows] == [
        ("a.txt", "ex"),
        ("bad.txt", ""),
        ("c.txt", "ex"),
    ]
    assert "bad.txt: its rows could not be written (RuntimeError: cannot write)" in summary
    assert (tmp_path / "out" / "latest").exists()


def test_the_student_id_never_comes_from_the_notebook(batch):
    """Was: a file at the top of the folder took its id from the notebook's metadata, so an
    attacker's notebook was filed under the victim (who was then flagged REVIEW)."""
    assert batch["rows"]["mallory"]["points"] == "0"
    assert [
        r["file"] for r in batch["details"].values() for r in r if r["student"] == "honest"
    ] == [f"honest/{AT}"]
    assert batch["rows"]["honest"]["message"] == "ok"


def test_ids_that_make_the_same_file_name_are_refused(batch):
    """Was: two ids that _safe() made one file name shared one feedback file."""
    row = _only(batch, f"{CLASH}/{AT}")
    assert row["points"] == row["max_points"] == "0", row
    assert "is the same as 'honest' once made a file name" in row["message"], row
    feedback = (batch["run"] / "feedback" / "honest" / f"{OVER_STEM}.md").read_text()
    assert feedback.count("# mini:") == 1 and "2/2" in feedback, feedback


def test_only_one_file_per_student_and_assignment_is_graded(batch):
    """Was: the best of any number of files counted (eleven guesses earned the point) and the
    feedback said which guess passed. Now the newest is graded, the others listed."""
    newest = f"guesser/{OVER_STEM}-3.ipynb"
    assert _only(batch, newest)["points"] == "0"  # a wrong guess
    for file in (f"guesser/{AT}", f"guesser/{OVER_STEM}-2.ipynb"):  # the right one is older
        row = _only(batch, file)
        assert (
            row["max_points"] == "0" and "not graded: guesser handed in 3 files" in row["message"]
        )
        assert f"{newest} (the newest) is graded" in row["message"], row
    assert batch["gradebook"]["guesser"]["total"] == "0"
    assert "guesser handed in 3 files" in batch["summary"]


def test_the_teacher_can_name_the_file_to_grade():
    from clfcourse.grading import choose

    entries = [
        untrusted.Submitted(f"ann/{name}", b"{}", mtime)
        for name, mtime in (("01-one.ipynb", 1), ("01-one-v2.ipynb", 2), ("02-two.ipynb", 0))
    ]
    assignments = ["01-one", "01-one", "02-two"]
    assert list(choose(entries, assignments)) == [0]
    picked = choose(entries, assignments, ("ann/01-one.ipynb",))
    assert list(picked) == [1] and "ann/01-one.ipynb (the file named by --pick)" in picked[1]


#: A hidden assert whose message holds a reference value after a ";" (as chapters 15 and 17
#: do: "a reference BCa run gives 0.4662, 0.5839"): the old redaction stopped at the ";".
SEMICOLON_MESSAGE = "total counts every item; a reference run gives 10"


@pytest.fixture(scope="module")
def semicolon(tmp_path_factory) -> dict:
    """A chapter whose hidden message has a ";", graded for an honest and a wrong notebook."""
    from coursework_batch import lean
    from coursework_mini import total_chapter

    from clfcourse import grade_submissions
    from clfcourse.generate import write_assignments

    folder = tmp_path_factory.mktemp("semicolon")
    (folder / "book").mkdir()
    hidden = f'assert total == 10, "{SEMICOLON_MESSAGE}"'
    (folder / "book" / "semi.md").write_text(total_chapter(hidden=hidden))
    assignments = folder / "assignments"
    write_assignments(folder / "book", assignments, [folder / "book" / "semi.md"], run_tests=False)
    teacher = lean(nbformat.read(assignments / "teacher" / "semi.ipynb", 4))
    wrong = lean(nbformat.read(assignments / "teacher" / "semi.ipynb", 4))
    (cell,) = [c for c in wrong.cells if "total = sum" in c.source]
    cell.source = "total = 11"
    for student, nb in (("honest", teacher), ("wrong", wrong)):
        (folder / "in" / student).mkdir(parents=True)
        nbformat.write(nb, folder / "in" / student / "semi.ipynb")
    rows, _ = grade_submissions(folder / "in", assignments, folder / "out", 240, 2)
    return {
        "rows": {r.student_file.split("/")[0]: r for r in rows},
        "run": folder / "out" / "latest",
    }


def test_a_hidden_message_with_a_semicolon_never_reaches_the_student(semicolon):
    """Was: the redaction regex could not cross a ";", so what followed it (a reference value)
    reached the student's feedback. Now the student's text is built from the cases as data."""
    assert semicolon["rows"]["honest"].points == 3
    wrong = semicolon["rows"]["wrong"]
    assert wrong.points == 0 and SEMICOLON_MESSAGE in wrong.message  # the teacher's
    assert wrong.shown == "test 2 (hidden): failed"
    feedback = (semicolon["run"] / "feedback" / "wrong" / "semi.md").read_text()
    assert "test 2 (hidden): failed" in feedback
    assert "reference run" not in feedback and "10" not in feedback.split("points")[1], feedback
    note = (semicolon["run"] / "teacher" / "wrong" / "semi.md").read_text()
    assert SEMICOLON_MESSAGE in note


def test_the_students_text_comes_from_the_cases_as_data():
    from clfcourse.grading import _messages

    cases = [
        {"number": 1, "hidden": False, "passed": False, "message": "AssertionError: one per class"},
        {
            "number": 2,
            "hidden": True,
            "passed": False,
            "message": "AssertionError: a; b gives 0.46",
        },
        {"number": 3, "hidden": True, "passed": True, "message": ""},
    ]
    teacher, student = _messages({"output": "", "cases": cases})
    assert (
        teacher == "test 1: AssertionError: one per class; test 2: AssertionError: a; b gives 0.46"
    )
    assert student == "test 1: AssertionError: one per class; test 2 (hidden): failed"
    assert _messages({"output": "", "cases": cases[2:]}) == ("ok", "ok")
    # without cases, a student never reads the output's words
    assert _messages({"output": "x - 1 result:\n  Test case failed\n  ValueError: secret"})[1] == (
        "failed"
    )


def test_no_folder_of_the_teachers_pythonpath_is_in_the_sandbox(batch):
    """Was: every absolute PYTHONPATH entry was bound into the sandbox and named in its
    PYTHONPATH, so hidden tests kept under one were read back through the feedback."""
    note = (batch["run"] / "teacher" / "pathwalker" / f"{OVER_STEM}.md").read_text()
    assert "ValueError: found 0: []" in note, note
    for path in batch["run"].rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    assert batch["rows"]["honest"]["points"] == "2"


def test_grading_refuses_hidden_tests_a_sandbox_could_read(tmp_path, capsys):
    """HIDDEN (or the assignments) under a folder the sandbox binds: exit 2 before any
    notebook runs, naming the folder."""
    import json

    from clfcourse import sandbox
    from clfcourse.__main__ import main

    inside = Path(sandbox.library()[0]) / "clfcourse"  # a folder every sandbox reads
    (tmp_path / "assignments").mkdir()
    manifest = {"chapters": [], "hidden": str(inside)}
    (tmp_path / "assignments" / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "subs").mkdir()
    args = ["grade", str(tmp_path / "subs"), "--assignments", str(tmp_path / "assignments")]
    assert main([*args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"the hidden tests ({inside}) are inside {sandbox.library()[0]}" in err, err
    assert len(err.strip().splitlines()) == 1
    manifest["hidden"] = str(tmp_path)  # outside every bound folder
    (tmp_path / "assignments" / "manifest.json").write_text(json.dumps(manifest))
    assert main([*args, "--out", str(tmp_path / "out")]) == 0
    assert sandbox.exposed(tmp_path) is None and sandbox.exposed("/usr/lib") == "/usr"


def test_a_teacher_notebook_that_does_not_run_leaves_nothing_current(tmp_path, monkeypatch):
    """The run fails before any submission is graded: it says so, and the earlier run's
    copies and ``latest`` are gone (the earlier run itself is kept in runs/)."""
    import json

    from clfcourse import grading
    from clfcourse.__main__ import main

    (tmp_path / "a").mkdir()
    chapter = {"chapter": "chapters/mini", "autograder": "autograder/mini.zip", "exercises": []}
    (tmp_path / "a" / "manifest.json").write_text(json.dumps({"chapters": [chapter]}))
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "mini.ipynb").write_text("{}")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "grades.csv").write_text("an earlier run's\n")
    (tmp_path / "out" / "latest").symlink_to("runs")

    def broken(*args, **kwargs):
        raise RuntimeError("the teacher notebook mini.ipynb did not run")

    monkeypatch.setattr(grading, "prepare", broken)
    args = ["grade", str(tmp_path / "in"), "--assignments", str(tmp_path / "a")]
    assert main([*args, "--out", str(tmp_path / "out"), "--unsafe-no-sandbox"]) == 1
    assert not (tmp_path / "out" / "grades.csv").exists()
    assert not (tmp_path / "out" / "latest").is_symlink()
    summary = (tmp_path / "out" / "summary.txt").read_text()
    assert "failed before it finished (RuntimeError: the teacher notebook" in summary
