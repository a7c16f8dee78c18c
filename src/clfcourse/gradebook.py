"""The files ``make grade`` leaves for the teacher, the gradebook and each student.

Every run writes its own folder ``OUT/runs/<UTC time>/`` and nothing in an older one changes:

``grades.csv``
    One row per submission and exercise: ``student``, ``assignment``, ``exercise``, ``points``,
    ``max_points``, ``message`` (written as each submission is graded).
``gradebook.csv``
    One row per student, one column per assignment (its points; empty when the student handed
    nothing in for it), then ``total`` and ``max_total`` (the points of every assignment
    column). A student with two files for one assignment gets the better one.
``details.csv``
    The rows of ``grades.csv`` with the submitted ``file`` and the ``error`` the notebook itself
    raised, for the teacher.
``feedback/<student>/<assignment>.md``
    What the student may see: points per exercise, the public tests' messages, the errors their
    own cells raised; a failed hidden test says only that it failed.
``teacher/<student>/<assignment>.md``
    Every message in full, and each error the notebook raised with its traceback.
``summary.txt``
    Points per file and per exercise, and the files that could not be graded.

``OUT/grades.csv``, ``OUT/gradebook.csv``, ``OUT/details.csv`` and ``OUT/summary.txt`` are copies
of the latest run's, and ``OUT/latest`` links to its folder.

The student id is the first folder of the file's path under the submissions folder
(``alice/01-confusion-matrix.ipynb`` is alice's), else the notebook's metadata
``{"clfmetrics": {"student": ...}}``, else the file name without the assignment's name
(``alice_01-confusion-matrix.ipynb`` is alice's).
"""

from __future__ import annotations

import csv
import re
import shutil
import time
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

import nbformat

from .exercises import META, chapter_of

#: Columns of ``grades.csv``.
CSV_FIELDS = ("student", "assignment", "exercise", "points", "max_points", "message")
#: Columns of ``details.csv``.
DETAIL_FIELDS = (*CSV_FIELDS[:2], "file", *CSV_FIELDS[2:], "error")
#: The copies of the latest run kept at the top of the output folder.
LATEST = ("grades.csv", "gradebook.csv", "details.csv", "summary.txt")

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _safe(name: str) -> str:
    """A student id or assignment name as one file name."""
    return re.sub(r"[^\w.@+-]+", "_", name).strip("._") or "unknown"


def student_id(name: str, nb: nbformat.NotebookNode | None, assignment: str) -> str:
    """The student a submitted file belongs to (see the module's docstring).

    ``name`` is the file's path relative to the submissions folder, ``nb`` the notebook when it
    could be read, ``assignment`` its chapter's name (``01-confusion-matrix``) or ``""``.
    """
    parts = PurePosixPath(name).parts
    if len(parts) > 1:
        return parts[0]
    meta = nb.get("metadata", {}).get(META, {}) if nb is not None else {}
    given = meta.get("student") if isinstance(meta, dict) else None
    if isinstance(given, str | int) and str(given).strip():
        return str(given).strip()
    stem = PurePosixPath(name).stem
    rest = stem.replace(assignment, "") if assignment else stem
    return rest.strip(" ._-") or stem


def cell_errors(executed: bytes | None) -> list[dict]:
    """The errors an executed notebook's cells raised: cell, exercise, error and traceback.

    ``executed`` is the notebook as the sandbox wrote it (bytes read without following links),
    or None; anything that is not a notebook holds no errors.
    """
    try:
        nb = nbformat.reads(executed.decode(), as_version=4)
    except Exception:
        return []
    found = []
    for k, cell in enumerate(nb.cells):
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            meta = cell.get("metadata", {}).get(META, {})
            trace = "\n".join(_ANSI.sub("", str(t)) for t in output.get("traceback", []))
            found.append(
                {
                    "cell": k,
                    "exercise": meta.get("exercise") if isinstance(meta, dict) else None,
                    "error": f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"[:300],
                    "traceback": trace[:6000],
                }
            )
    return found


def attach_errors(rows: list, errors: list[dict]) -> list:
    """Rows with ``error`` and ``traceback`` set from the notebook's own errors.

    An exercise gets the errors of its own cells, else those of cells outside every exercise
    (its given data may not have been computed).
    """
    out = []
    for row in rows:
        mine = [e for e in errors if e["exercise"] == row.exercise] or [
            e for e in errors if not e["exercise"]
        ]
        error = "; ".join(f"cell {e['cell']}: {e['error']}" for e in mine)
        trace = "\n\n".join(f"--- cell {e['cell']} ---\n{e['traceback']}" for e in mine)
        out.append(replace(row, error=error[:600], traceback=trace))
    return out


def hidden_cases(autograder: Path) -> dict[str, set[int]]:
    """Per test (exercise) the numbers (from 1) of its hidden test cases, from the zip."""
    found: dict[str, set[int]] = {}
    if not Path(autograder).is_file():
        return found
    with zipfile.ZipFile(autograder) as zf:
        for member in zf.namelist():
            if not (member.startswith("tests/") and member.endswith(".py")):
                continue
            spec: dict = {}
            exec(zf.read(member), spec)  # the teacher's own test file
            cases = [c for s in spec["test"].get("suites", []) for c in s.get("cases", [])]
            hidden = {k for k, case in enumerate(cases, start=1) if case.get("hidden")}
            found[str(spec["test"].get("name", Path(member).stem))] = hidden
    return found


def student_message(message: str, hidden: set[int]) -> str:
    """A row's message without what a failed hidden test said (its values, its hints)."""

    def redact(m: re.Match) -> str:
        number = int(m[1])
        return f"test {number} (hidden): failed" if number in hidden else m[0]

    return re.sub(
        r"test (\d+): [^;]*?(?=; test \d+:|; values not|\s\(values not|$)", redact, message
    )


@dataclass
class Submission:
    """One graded file: who, which assignment, its rows."""

    file: str
    student: str
    assignment: str
    rows: list = field(default_factory=list)

    @property
    def points(self) -> float:
        return sum(r.points for r in self.rows)

    @property
    def max_points(self) -> float:
        return sum(r.max_points for r in self.rows)


def _number(x: float) -> str:
    return f"{x:g}"


class GradeFiles:
    """The files of one ``make grade`` run (see the module's docstring)."""

    def __init__(self, out: Path | str, assignments: Path | str, chapters: list[dict]):
        self.out = Path(out)
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        run = self.out / "runs" / stamp
        k = 1
        while run.exists():
            k += 1
            run = self.out / "runs" / f"{stamp}-{k}"
        run.mkdir(parents=True)
        self.run = run
        self.chapters = chapters
        self.order = [Path(c["chapter"]).name for c in chapters]
        self.hidden = {
            Path(c["chapter"]).name: hidden_cases(Path(assignments) / c["autograder"])
            for c in chapters
        }
        self.submissions: list[Submission] = []
        for name, fields in (("grades.csv", CSV_FIELDS), ("details.csv", DETAIL_FIELDS)):
            with open(run / name, "w", newline="") as f:
                csv.writer(f).writerow(fields)

    def add(self, name: str, path: Path, rows: list) -> Submission:
        """Record one graded file (``name`` relative to the submissions folder); append its rows."""
        try:
            nb = nbformat.read(path, as_version=4)
        except Exception:
            nb = None
        chapter = chapter_of(Path(path), nb, self.chapters)
        assignment = Path(chapter["chapter"]).name if chapter is not None else ""
        sub = Submission(name, student_id(name, nb, assignment), assignment, list(rows))
        self.submissions.append(sub)
        with open(self.run / "grades.csv", "a", newline="") as f:
            csv.writer(f).writerows(
                (
                    sub.student,
                    sub.assignment,
                    r.exercise,
                    _number(r.points),
                    _number(r.max_points),
                    r.message,
                )
                for r in rows
            )
        with open(self.run / "details.csv", "a", newline="") as f:
            csv.writer(f).writerows(
                (
                    sub.student,
                    sub.assignment,
                    name,
                    r.exercise,
                    _number(r.points),
                    _number(r.max_points),
                    r.message,
                    getattr(r, "error", ""),
                )
                for r in rows
            )
        return sub

    def _gradebook(self) -> None:
        best: dict[tuple[str, str], Submission] = {}
        for sub in self.submissions:
            key = (sub.student, sub.assignment)
            if sub.assignment and (key not in best or sub.points > best[key].points):
                best[key] = sub
        columns = [a for a in self.order if any(a == s.assignment for s in self.submissions)]
        maxima = {
            a: max(s.max_points for s in self.submissions if s.assignment == a) for a in columns
        }
        students = sorted({s.student for s in self.submissions})
        with open(self.run / "gradebook.csv", "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["student", *columns, "total", "max_total"])
            for student in students:
                got = [best.get((student, a)) for a in columns]
                total = sum(s.points for s in got if s is not None)
                cells = ["" if s is None else _number(s.points) for s in got]
                writer.writerow([student, *cells, _number(total), _number(sum(maxima.values()))])

    def _notes(self) -> None:
        for sub in self.submissions:
            where = (
                f"{_safe(sub.student)}/{_safe(sub.assignment or PurePosixPath(sub.file).stem)}.md"
            )
            score = f"{_number(sub.points)}/{_number(sub.max_points)}"
            title = f"# {sub.assignment or sub.file}: {score} points"
            hidden = self.hidden.get(sub.assignment, {})
            mine, theirs = [title, "", f"Student: {sub.student}, file: {sub.file}", ""], [title, ""]
            for r in sub.rows:
                score = f"{_number(r.points)}/{_number(r.max_points)}"
                head = f"## {r.exercise or 'the whole file'}: {score}"
                error = getattr(r, "error", "")
                theirs += [head, "", student_message(r.message, hidden.get(r.exercise, set())), ""]
                if error:
                    theirs += [f"Your notebook raised: {error}", ""]
                mine += [head, "", r.message, ""]
                if error:
                    mine += [f"The notebook raised: {error}", ""]
                if getattr(r, "traceback", ""):
                    mine += ["```text", r.traceback, "```", ""]
            for folder, lines in (("feedback", theirs), ("teacher", mine)):
                path = self.run / folder / where
                path.parent.mkdir(parents=True, exist_ok=True)
                if path.exists():  # a second file of the same student and assignment
                    lines = [path.read_text(), *lines]
                path.write_text("\n".join(lines).rstrip() + "\n")

    def finish(self, summary: str) -> Path:
        """Write the gradebook, feedback and teacher files; copy the run's CSVs to the top."""
        self._gradebook()
        self._notes()
        (self.run / "summary.txt").write_text(summary)
        for name in LATEST:
            shutil.copy(self.run / name, self.out / name)
        latest = self.out / "latest"
        if latest.is_symlink() or latest.exists():
            latest.unlink()
        latest.symlink_to(self.run.relative_to(self.out), target_is_directory=True)
        return self.run
