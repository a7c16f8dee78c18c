"""The files ``make grade`` leaves for the teacher, the gradebook and each student.

Every run writes its own folder ``OUT/runs/<UTC time>/`` and nothing in an older one changes:

``grades.csv``
    One row per submission and exercise: ``student``, ``assignment``, ``exercise``, ``points``,
    ``max_points``, ``message`` (written as each submission is graded).
``gradebook.csv``
    One row per student; per assignment a column of its points (empty when the student handed
    nothing in for it) and ``max_<assignment>``, its maximum; then ``total`` and
    ``max_total`` (the points of every assignment column). A file not graded (a student's
    extra file for an assignment) is not counted.
``canvas.csv`` or ``moodle.csv``
    With ``lms``: the gradebook in that system's import format (:mod:`.lms`).
``answers.html`` and ``text-points-template.csv``
    When the chapters have text exercises: every student's answers, and the file in which
    the teacher gives their points (:mod:`.answers`); the points given merge into the
    submission's rows, as its tested exercises' do.
``details.csv``
    The rows of ``grades.csv`` with the submitted ``file`` and the ``error`` the notebook itself
    raised, for the teacher.
``feedback/<student>/<assignment>.md``
    What the student may see: points per exercise, the public tests' messages, the errors their
    own cells raised; a failed hidden test says only that it failed, unless its message is
    one the exercise's author marked ``# shown`` or ``# stated`` (:mod:`.checks`).
``teacher/<student>/<assignment>.md``
    Every message in full, and each error the notebook raised with its traceback.
``summary.txt``
    Points per file and per exercise, and the files that could not be graded.

``OUT/grades.csv``, ``OUT/gradebook.csv``, ``OUT/details.csv`` and ``OUT/summary.txt`` are copies
of the latest finished run's (as are the optional files above), and ``OUT/latest`` links to
its folder. A run withdraws them when it starts (``summary.txt`` then says a run is under
way, or ended without finishing) and writes them last, by atomic renames; a run that fails
leaves ``FAILED.txt`` in its folder and says so in ``summary.txt``, so an older run never
looks current.

The student id is the first folder of the file's path under the submissions folder
(``alice/01-confusion-matrix.ipynb`` is alice's), else the file name without the assignment's
name (``alice_01-confusion-matrix.ipynb`` is alice's, as an LMS names a download); never
anything inside the notebook, which the student wrote. :mod:`.grading` grades one file per
student and assignment and lists the others.
"""

from __future__ import annotations

import contextlib
import csv
import os
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

import nbformat

from . import lms as lms_formats
from . import untrusted
from .answers import TextAnswers, TextRow, write_answers, write_template
from .exercises import META, chapter_of

#: Columns of ``grades.csv``.
CSV_FIELDS = ("student", "assignment", "exercise", "points", "max_points", "message")
#: Columns of ``details.csv``.
DETAIL_FIELDS = (*CSV_FIELDS[:2], "file", *CSV_FIELDS[2:], "error")
#: The copies of the latest run kept at the top of the output folder.
LATEST = ("grades.csv", "gradebook.csv", "details.csv", "summary.txt")
#: The files a run writes only when it has them to write, copied the same way.
OPTIONAL = ("answers.html", "text-points-template.csv", *(f"{f}.csv" for f in lms_formats.FORMATS))

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _safe(name: str) -> str:
    """A student id or assignment name as one short file name (:func:`.untrusted.file_name`)."""
    return untrusted.file_name(name)


def student_id(name: str, assignment: str = "") -> str:
    """The student a submitted file belongs to (see the module's docstring).

    ``name`` is the file's path relative to the submissions folder, ``assignment`` its
    chapter's name (``01-confusion-matrix``) or ``""``.
    """
    name = untrusted.text(name)
    parts = PurePosixPath(name).parts
    if len(parts) > 1:
        return parts[0]
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


@dataclass
class Submission:
    """One graded file: who, which assignment, its rows."""

    file: str
    student: str
    assignment: str
    rows: list = field(default_factory=list)
    #: Whether its points count in the gradebook (not when it was not graded).
    counted: bool = True

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

    def __init__(
        self,
        out: Path | str,
        assignments: Path | str,
        chapters: list[dict],
        marks: dict | None = None,
        lms: str | None = None,
    ):
        """``marks`` are the teacher's points for text answers (:func:`.answers.read_points`),
        ``lms`` one of :data:`.lms.FORMATS` or None."""
        if lms is not None and lms not in lms_formats.FORMATS:
            raise ValueError(f"no LMS format {lms!r}: one of {', '.join(lms_formats.FORMATS)}")
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
        self.submissions: list[Submission] = []
        self.owners: dict[str, str] = {}  # per feedback folder, the student id it is for
        self.text = TextAnswers(Path(assignments), chapters)
        self.marks = dict(marks or {})
        self.lms = lms
        for name, fields in (("grades.csv", CSV_FIELDS), ("details.csv", DETAIL_FIELDS)):
            with open(run / name, "w", newline="") as f:
                csv.writer(f).writerow(fields)
        _withdraw(self.out, run)

    def add(
        self, name: str, source: bytes | Path | None, rows: list, counted: bool = True
    ) -> Submission:
        """Record one graded file (``name`` relative to the submissions folder); append its rows.

        A file not ``counted`` (one of a student's extra files, not graded) is listed, never
        in the gradebook.

        ``source`` is the file's bytes as the grader read them (:func:`.untrusted.collect`), or
        its path, read the same way (never through a link), or None for a refused file.
        """
        if source is not None and not isinstance(source, bytes):
            try:
                source, _ = untrusted.read_regular(source, int(untrusted.MAX_FILE_MB * 2**20))
            except ValueError:
                source = None
        try:
            nb = nbformat.reads(source.decode("utf-8"), as_version=4)
        except Exception:
            nb = None
        chapter = chapter_of(Path(name), nb, self.chapters)
        assignment = Path(chapter["chapter"]).name if chapter is not None else ""
        name = untrusted.text(name)
        sub = Submission(name, student_id(name, assignment), assignment, list(rows), counted)
        if counted and assignment and source is not None:  # a refused file has nothing to mark
            self.text.collect(sub.student, assignment, nb)
            for ex in self.text.exercises(assignment):
                if (mark := self.marks.get((sub.student, assignment, ex.label))) is not None:
                    sub.rows.append(TextRow(name, ex.label, *mark))
        rows = sub.rows
        c = untrusted.cell  # every text a student could shape: no formula, no escape
        grades, details = [], []
        for r in rows:
            points, most = _number(r.points), _number(r.max_points)
            head, message = [c(sub.student), c(sub.assignment)], c(r.message)
            grades.append([*head, c(r.exercise), points, most, message])
            error = c(getattr(r, "error", ""))
            details.append([*head, c(name), c(r.exercise), points, most, message, error])
        # both rows made before either is written: a file gets its rows in both or in neither
        for file, lines in (("grades.csv", grades), ("details.csv", details)):
            with open(self.run / file, "a", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows(lines)
        self.submissions.append(sub)
        return sub

    def _gradebook(self) -> None:
        """Write ``gradebook.csv`` and, if asked for, the LMS's import file."""
        best: dict[tuple[str, str], Submission] = {}
        for sub in self.submissions:
            key = (sub.student, sub.assignment)
            if not sub.counted:
                continue
            if sub.assignment and (key not in best or sub.points > best[key].points):
                best[key] = sub
        columns = [a for a in self.order if any(a == s.assignment for s in self.submissions)]
        maxima = {
            a: max(s.max_points for s in self.submissions if s.assignment == a) for a in columns
        }
        students = sorted({s.student for s in self.submissions})
        points = {
            student: {a: best[(student, a)].points for a in columns if (student, a) in best}
            for student in students
        }
        total_max = _number(sum(maxima.values()))
        with open(self.run / "gradebook.csv", "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f)
            head = [x for a in columns for x in (a, f"max_{a}")]
            writer.writerow(["student", *map(untrusted.cell, head), "total", "max_total"])
            for student in students:
                got = points[student]
                cells = [
                    x
                    for a in columns
                    for x in (_number(got[a]) if a in got else "", _number(maxima[a]))
                ]
                total = _number(sum(got.values()))
                writer.writerow([untrusted.cell(student), *cells, total, total_max])
        if self.lms:
            table = lms_formats.table(self.lms, students, columns, maxima, points)
            with open(self.run / f"{self.lms}.csv", "w", newline="", encoding="utf-8") as f:
                csv.writer(f).writerows([[untrusted.cell(c) for c in row] for row in table])

    def _notes(self) -> list[str]:
        """Write each submission's feedback and notes; the files that could not be written."""
        failed = []
        # an id that is its own folder name claims that folder before one that only maps to it
        for sub in sorted(self.submissions, key=lambda s: _safe(s.student) != s.student):
            try:
                self._note(sub)
            except Exception as exc:  # one file's notes can never end the run
                failed.append(f"{sub.file}: its notes could not be written ({exc})")
        return failed

    def _note(self, sub: Submission) -> None:
        folder = _safe(sub.student)
        if self.owners.setdefault(folder, sub.student) != sub.student:
            # another id made the same folder name: never write into that student's files
            folder = f"_clashing-ids/{_safe(sub.file)}"
        where = f"{folder}/{_safe(sub.assignment or PurePosixPath(sub.file).stem)}.md"
        score = f"{_number(sub.points)}/{_number(sub.max_points)}"
        title = f"# {sub.assignment or sub.file}: {score} points"
        mine, theirs = [title, "", f"Student: {sub.student}, file: {sub.file}", ""], [title, ""]
        for r in sub.rows:
            score = f"{_number(r.points)}/{_number(r.max_points)}"
            head = f"## {r.exercise or 'the whole file'}: {score}"
            error = getattr(r, "error", "")
            theirs += [head, "", r.shown, ""]
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
                lines = [path.read_text(encoding="utf-8"), *lines]
            text = "\n".join(untrusted.text(line, lines=True) for line in lines)
            path.write_text(text.rstrip() + "\n", encoding="utf-8")

    def finish(self, summary: str) -> Path:
        """Write the gradebook, feedback and teacher files; then mark this run current.

        The copies at the top of the output folder and ``latest`` are written last, each by an
        atomic rename, so a teacher never reads half of a run or an older run's copy beside a
        newer one.
        """
        self._gradebook()
        failed = self._notes()
        if failed:
            summary += "\nNotes not written:\n" + "".join(f"  {f}\n" for f in failed)
        if write_answers(self.run / "answers.html", self.text, self.order):
            write_template(self.run / "text-points-template.csv", self.text, self.marks)
            marked = len({(a, label) for _, a, label in self.marks})
            summary += (
                f"\nText answers: answers.html; {marked} text exercise(s) marked from your "
                "points file, the template for the others in text-points-template.csv\n"
            )
        (self.run / "summary.txt").write_text(untrusted.text(summary, lines=True))
        for name in (*LATEST, *OPTIONAL):
            if name in LATEST or (self.run / name).exists():
                _replace(self.out / name, (self.run / name).read_bytes())
        with contextlib.suppress(FileNotFoundError):
            (self.run / RUNNING).unlink()
        link = self.out / f".latest-{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            link.unlink()
        link.symlink_to(self.run.relative_to(self.out), target_is_directory=True)
        os.replace(link, self.out / "latest")
        return self.run

    def fail(self, reason: str) -> None:
        """This run ended before its grades were complete: say so in its folder and at the top."""
        text = (
            f"The grading run {self.run.name} failed before it finished ({untrusted.text(reason)}):"
            f" no grades are current. Earlier runs are in {self.out / 'runs'}.\n"
        )
        with contextlib.suppress(OSError):
            (self.run / "FAILED.txt").write_text(text)
            _replace(self.out / "summary.txt", text.encode())


#: The mark of a run that has not finished (and, left behind, of one that never did).
RUNNING = "RUNNING.txt"


def _replace(path: Path, data: bytes) -> None:
    """Write ``path`` by an atomic rename: a reader sees the old file or the new one."""
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.write_bytes(data)
    os.replace(part, path)


def _withdraw(out: Path, run: Path) -> None:
    """No earlier run looks current while this one runs (or after it fails, or is killed)."""
    (run / RUNNING).write_text(f"The grading run {run.name} has not finished.\n")
    _replace(
        out / "summary.txt",
        (
            f"The grading run {run.name} is under way, or ended without finishing: no grades "
            f"are current. Earlier runs are in {out / 'runs'}.\n"
        ).encode(),
    )
    for name in (*LATEST, *OPTIONAL, "latest"):
        if name != "summary.txt":
            with contextlib.suppress(FileNotFoundError):
                (out / name).unlink()
