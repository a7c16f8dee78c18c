"""Text exercises: their rubrics, the students' answers, and the points the teacher gives them.

A text exercise has no test: the student writes in its markdown answer cell
(:func:`.master.answer_cell`), and the teacher reads and marks. For that ``make grade``

- collects each counted submission's answer to every text exercise of its chapter
  (:func:`answers_of`), as text, never rendered: the answers file (:func:`write_answers`) is
  HTML in which every student string is escaped and that loads nothing (a Content Security
  Policy of ``default-src 'none'``);
- writes ``text-points-template.csv`` (:func:`write_template`): a row per student and text
  exercise, ``max_points`` from the exercise's rubric, ``points`` for the teacher to fill in;
- merges a filled copy (``make grade TEXT_POINTS=file``, :func:`read_points`) into the grades:
  each marked exercise becomes a row of the submission, as a tested exercise is.

A rubric is written by the exercise's author inside the exercise's ``{solution}`` block, as an
admonition titled ``Rubric`` whose body is a list ``- N point(s): criterion``
(:func:`rubric`); ``make assignments`` puts it into ``manifest.json``.
"""

from __future__ import annotations

import csv
import html
import io
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from . import untrusted
from .exercises import _OPEN, META, _closes

#: The longest answer kept per exercise (a notebook may be up to 32 MB of text).
MAX_ANSWER = 20_000
#: Columns of the points file, in the template's order; the reader needs the first five.
POINT_FIELDS = ("student", "assignment", "exercise", "max_points", "points", "answered")
#: What an answer cell holds until the student writes in it (:data:`.master.ANSWER`).
_PLACEHOLDER = re.compile(
    r"^\s*\*\*Your answer to [^*\n]*:\*\*\s*(?:_double-click here and replace this text\._)?\s*"
)
_ITEM = re.compile(r"^\s*[-*]\s+(\d+(?:\.\d+)?)\s+points?\s*:\s*(\S.*)$")


class PointsError(ValueError):
    """The teacher's points file cannot be used: one line that names the problem."""


def rubric(prose: list[str], where: str = "") -> dict | None:
    """The rubric in a text exercise's solution lines, or None without one.

    It is an admonition titled ``Rubric`` (any fence) whose body is a list of
    ``- N point(s): criterion`` items, a criterion going on over indented lines; returns
    ``{"points": total, "criteria": [{"points": N, "text": criterion}, ...]}``. Anything
    else in it raises ValueError naming the line.
    """
    for k, line in enumerate(prose):
        m = _OPEN.match(line)
        if not m or m["name"] != "admonition" or m["arg"].strip().lower() != "rubric":
            continue
        end = next((j for j in range(k + 1, len(prose)) if _closes(prose[j], m["fence"])), None)
        if end is None:
            raise ValueError(f"{where}: the rubric is never closed")
        criteria: list[dict] = []
        for body in prose[k + 1 : end]:
            if not body.strip() or re.match(r"^\s*:[\w-]+:", body):  # blank, or an option
                continue
            if item := _ITEM.match(body):
                criteria.append({"points": float(item[1]), "text": item[2].strip()})
            elif criteria and body.startswith((" ", "\t")):
                criteria[-1]["text"] += " " + body.strip()
            else:
                raise ValueError(
                    f"{where}: the rubric line {body.strip()!r} is not '- N points: criterion'"
                )
        total = sum(c["points"] for c in criteria)
        if not criteria or total <= 0:
            raise ValueError(f"{where}: the rubric has no '- N points: criterion' item")
        return {"points": total, "criteria": criteria}
    return None


@dataclass(frozen=True)
class TextExercise:
    """A text exercise of an assigned chapter, as the teacher's files show it."""

    label: str
    #: Its name in the notebooks (``Exercise 4.3``).
    name: str
    #: The statement, and the book's own answer (from the teacher notebook).
    task: str = ""
    answer: str = ""
    rubric: dict | None = None


def text_exercises(assignments: Path, chapter: dict) -> list[TextExercise]:
    """The text exercises of a manifest ``chapter``, read from its teacher notebook (written by
    ``make assignments``, never by a student): each answer cell, the statement before it and
    the book's answer after it, with the manifest's rubric."""
    path = Path(assignments) / chapter.get("teacher", "")
    if not path.is_file():
        return []
    nb = nbformat.read(path, as_version=4)
    rubrics = {ex["exercise"]: ex.get("rubric") for ex in chapter.get("exercises", [])}
    found = []
    for k, cell in enumerate(nb.cells):
        meta = cell.get("metadata", {}).get(META, {})
        if cell.cell_type != "markdown" or meta.get("role") != "answer":
            continue
        label = meta["exercise"]
        m = re.match(r"\*\*Your answer to ([^*]+):\*\*", cell.source)
        name = m[1] if m else label
        before = nb.cells[k - 1].source if k else ""
        start = before.rfind(f"**{name}**")
        task = before[start:] if start >= 0 else before
        after = nb.cells[k + 1].source if k + 1 < len(nb.cells) else ""
        answer = after if after.startswith(f"**Answer to {label}.**") else ""
        found.append(TextExercise(label, name, task.strip(), answer.strip(), rubrics.get(label)))
    return found


def _handout(assignments: Path, chapter: dict) -> set[str]:
    """The sources of the cells of the student and the teacher notebooks, as assigned: no
    student wrote them (the teacher's, with the book's answers, may have been handed in)."""
    found = set()
    for which in ("student", "teacher"):
        path = Path(assignments) / chapter.get(which, "")
        if path.is_file():
            found |= {c.source.strip() for c in nbformat.read(path, as_version=4).cells}
    return found


def answers_of(
    nb: nbformat.NotebookNode | None, exercises: list[TextExercise], handout: set[str]
) -> dict[str, str]:
    """A submitted notebook's answer to each text exercise (``""``: not answered).

    An answer is the text of its answer cell (found by its metadata, else by its opening words,
    which the student may have kept) without the placeholder, and of the cells the student
    added right after it (any cell that is neither in the handout nor another exercise's).
    Every string is :func:`.untrusted.text`, cut at :data:`MAX_ANSWER` characters.
    """
    found = {ex.label: [] for ex in exercises}
    if nb is None or not isinstance(nb.get("cells"), list):
        return {label: "" for label in found}
    names = {f"**Your answer to {ex.name}:**": ex.label for ex in exercises}
    current = None
    for cell in nb.cells:
        if not isinstance(cell, dict):
            current = None
            continue
        source = cell.get("source", "")
        source = "".join(map(str, source)) if isinstance(source, list) else str(source)
        meta = cell.get("metadata", {})
        meta = meta.get(META, {}) if isinstance(meta, dict) else {}
        meta = meta if isinstance(meta, dict) else {}
        label = meta.get("exercise") if meta.get("role") == "answer" else None
        if not isinstance(label, str) or label not in found:  # the student wrote the metadata
            label = next((v for k, v in names.items() if source.lstrip().startswith(k)), None)
        if label is not None and cell.get("cell_type") == "markdown":
            current = label
            found[label].append(_PLACEHOLDER.sub("", source, count=1))
        elif current is not None and not meta and source.strip() not in handout:
            kind = cell.get("cell_type")
            found[current].append(f"```python\n{source}\n```" if kind == "code" else source)
        else:
            current = None
    out = {}
    for label, parts in found.items():
        text = untrusted.text("\n\n".join(p.strip() for p in parts if p.strip()), lines=True)
        if len(text) > MAX_ANSWER:
            text = f"{text[:MAX_ANSWER]}\n[... cut: {len(text) - MAX_ANSWER} characters more]"
        out[label] = text
    return out


class TextAnswers:
    """The text exercises of the assigned chapters and the answers collected in one run."""

    def __init__(self, assignments: Path, chapters: list[dict]):
        self.assignments = Path(assignments)
        self.chapters = {Path(c["chapter"]).name: c for c in chapters}
        self._exercises: dict[str, list[TextExercise]] = {}
        self._handouts: dict[str, set[str]] = {}
        #: (student, assignment) -> label -> answer.
        self.answers: dict[tuple[str, str], dict[str, str]] = {}

    def exercises(self, assignment: str) -> list[TextExercise]:
        if assignment not in self._exercises:
            chapter = self.chapters.get(assignment)
            try:
                found = text_exercises(self.assignments, chapter) if chapter else []
            except Exception:  # an unreadable teacher notebook: no text exercises to show
                found = []
            self._exercises[assignment] = found
        return self._exercises[assignment]

    def collect(self, student: str, assignment: str, nb: nbformat.NotebookNode | None) -> None:
        """Keep the answers of the counted submission of ``student`` for ``assignment``."""
        exercises = self.exercises(assignment)
        if not exercises:
            return
        if assignment not in self._handouts:
            self._handouts[assignment] = _handout(self.assignments, self.chapters[assignment])
        try:
            got = answers_of(nb, exercises, self._handouts[assignment])
        except Exception:  # whatever the notebook holds, the run goes on
            got = {ex.label: "" for ex in exercises}
        self.answers[(student, assignment)] = got

    def maximum(self, assignment: str, label: str) -> float | None:
        ex = next((e for e in self.exercises(assignment) if e.label == label), None)
        return ex.rubric["points"] if ex is not None and ex.rubric else None


def _number(x: float) -> str:
    return f"{x:g}"


def write_answers(path: Path, text: TextAnswers, order: list[str]) -> bool:
    """Write every collected answer, per assignment and exercise, into one HTML file.

    Returns whether there was any text exercise to write.
    """
    e = html.escape
    body = []
    for assignment in order:
        students = sorted(s for s, a in text.answers if a == assignment)
        if not students:
            continue
        body.append(f"<h2>{e(assignment)}</h2>")
        for ex in text.exercises(assignment):
            body.append(f'<section><h3 id="{e(ex.label)}">{e(ex.name)} ({e(ex.label)})</h3>')
            task = f"<pre>{e(ex.task)}</pre>"
            body.append(f"<details><summary>The exercise</summary>{task}</details>")
            if ex.rubric:
                items = "".join(
                    f"<li>{e(_number(c['points']))} point{'s' if c['points'] != 1 else ''}: "
                    f"{e(c['text'])}</li>"
                    for c in ex.rubric["criteria"]
                )
                total = _number(ex.rubric["points"])
                body.append(f"<p><b>Rubric</b> ({e(total)} points)</p><ul>{items}</ul>")
            else:
                body.append(
                    "<p><b>No rubric</b>: give the exercise's maximum in the points file's "
                    "<code>max_points</code>.</p>"
                )
            if ex.answer:
                body.append(
                    f"<details><summary>The book's answer</summary><pre>{e(ex.answer)}</pre>"
                    "</details>"
                )
            for student in students:
                answer = text.answers[(student, assignment)].get(ex.label, "")
                shown = f"<pre>{e(answer)}</pre>" if answer else "<p><i>not answered</i></p>"
                body.append(f'<div class="answer"><h4>{e(student)}</h4>{shown}</div>')
            body.append("</section>")
    if not body:
        return False
    page = f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Text answers</title>
<style>
body {{ font-family: sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem; }}
pre {{ white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; padding: .5rem; }}
.answer {{ border-left: 3px solid #999; padding-left: .75rem; margin: 1rem 0; }}
</style></head><body>
<h1>Text answers</h1>
<p>Every student's answer to each text exercise, as they wrote it (shown as text, never
rendered). Give the points in a copy of <code>text-points-template.csv</code> and grade again
with <code>make grade TEXT_POINTS=that-copy.csv</code>.</p>
{chr(10).join(body)}
</body></html>
"""
    path.write_text(page, encoding="utf-8")
    return True


def write_template(path: Path, text: TextAnswers, given: dict | None = None) -> None:
    """The points file for the teacher to fill in: a row per student and text exercise.

    ``max_points`` comes from the exercise's rubric (empty without one), ``points`` from the
    teacher's earlier file ``given`` (:func:`read_points`), else empty.
    """
    given = given or {}
    rows = []
    for (student, assignment), answers in sorted(text.answers.items()):
        for ex in text.exercises(assignment):
            mark = given.get((student, assignment, ex.label))
            most = mark[1] if mark else ex.rubric["points"] if ex.rubric else None
            rows.append(
                [
                    untrusted.cell(student),
                    untrusted.cell(assignment),
                    untrusted.cell(ex.label),
                    "" if most is None else _number(most),
                    "" if mark is None else _number(mark[0]),
                    "yes" if answers.get(ex.label) else "no",
                ]
            )
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(POINT_FIELDS)
    writer.writerows(rows)
    path.write_text(buffer.getvalue(), encoding="utf-8")


def _uncell(value: str) -> str:
    """A cell as :func:`.untrusted.cell` wrote it, back to its text."""
    value = value.strip()
    return value[1:] if value[:1] == "'" and value[1:2] in ("=", "+", "-", "@") else value


def _float(value: str, decimal_comma: bool) -> float:
    if decimal_comma:
        value = value.replace(",", ".")
    number = float(value)
    if number != number or number in (float("inf"), float("-inf")):
        raise ValueError(value)
    return number


def read_points(path: Path | str, text: TextAnswers) -> dict[tuple[str, str, str], tuple]:
    """The teacher's points file: ``(student, assignment, exercise) -> (points, max_points)``.

    Columns ``student``, ``assignment``, ``exercise``, ``max_points`` and ``points`` (others,
    such as ``answered``, are ignored), comma- or semicolon-separated (then a decimal comma
    is read too), UTF-8 with or without a byte-order mark. A row with empty ``points`` is not
    marked. Raises :class:`PointsError`, one line naming the file, the line and the problem:
    an unknown assignment or exercise, a number that is not one, points outside
    ``0 … max_points``, no maximum for an exercise without a rubric, two maxima for one
    exercise, or one student's exercise twice.
    """
    path = Path(path)
    name = path.name
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise PointsError(f"{path}: cannot be read ({exc.strerror})") from None
    try:
        content = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PointsError(f"{name}: not UTF-8 text (save it as CSV UTF-8)") from None
    first = content.split("\n", 1)[0]
    semicolon = first.count(";") > first.count(",")
    reader = csv.DictReader(io.StringIO(content), delimiter=";" if semicolon else ",")
    header = [h.strip() for h in reader.fieldnames or []]
    reader.fieldnames = header
    missing = [c for c in POINT_FIELDS[:5] if c not in header]
    if missing:
        raise PointsError(
            f"{name}: no column {missing[0]!r} (its columns are {', '.join(header) or 'none'}; "
            "start from text-points-template.csv)"
        )
    marks: dict[tuple[str, str, str], tuple] = {}
    maxima: dict[tuple[str, str], tuple[float, int]] = {}
    for row in reader:
        line = reader.line_num
        if None in row:
            raise PointsError(f"{name}, line {line}: more cells than columns")
        cells = {k: _uncell(row.get(k) or "") for k in POINT_FIELDS[:5]}
        if not any(cells.values()):
            continue
        student, assignment, label = cells["student"], cells["assignment"], cells["exercise"]
        if assignment not in text.chapters:
            raise PointsError(f"{name}, line {line}: no assignment {assignment!r} was assigned")
        labels = [ex.label for ex in text.exercises(assignment)]
        if label not in labels:
            raise PointsError(
                f"{name}, line {line}: {label!r} is not a text exercise of {assignment} "
                f"({', '.join(labels) or 'it has none'})"
            )
        if not student:
            raise PointsError(f"{name}, line {line}: no student")
        if not cells["points"]:
            continue
        try:
            points = _float(cells["points"], semicolon)
        except ValueError:
            raise PointsError(
                f"{name}, line {line}: points {cells['points']!r} is not a number"
            ) from None
        if cells["max_points"]:
            try:
                most = _float(cells["max_points"], semicolon)
            except ValueError:
                most = -1.0
            if not most > 0:
                raise PointsError(
                    f"{name}, line {line}: max_points {cells['max_points']!r} is not a positive "
                    "number"
                )
        elif (most := text.maximum(assignment, label)) is None:
            raise PointsError(
                f"{name}, line {line}: {label} has no rubric, so its max_points must be given"
            )
        if not 0 <= points <= most:
            raise PointsError(
                f"{name}, line {line}: points {_number(points)} is not between 0 and "
                f"max_points {_number(most)}"
            )
        earlier = maxima.setdefault((assignment, label), (most, line))
        if earlier[0] != most:
            raise PointsError(
                f"{name}, line {line}: max_points {_number(most)} for {label}, but "
                f"{_number(earlier[0])} on line {earlier[1]}"
            )
        key = (student, assignment, label)
        if key in marks:
            raise PointsError(f"{name}, line {line}: {student}'s {label} is given twice")
        marks[key] = (points, most)
    return marks


def check_points(path: Path | str, marks: dict, counted: set[tuple[str, str]]) -> None:
    """The points fit this run's submissions: every student named handed in that assignment
    (``counted``: the student and assignment of each file that is graded), and an exercise
    marked for one student is marked for every student who handed in its assignment."""
    name = Path(path).name
    for student, assignment, label in marks:
        if (student, assignment) not in counted:
            raise PointsError(
                f"{name}: {student!r} handed in no {assignment} in this submissions folder "
                f"(points for {label})"
            )
    marked = {(a, label) for _, a, label in marks}
    for student, assignment in sorted(counted):
        for a, label in sorted(marked):
            if a == assignment and (student, a, label) not in marks:
                raise PointsError(
                    f"{name}: {label} of {assignment} has points for some students but none for "
                    f"{student!r}: give every student a number (0 included), or none"
                )


@dataclass(frozen=True)
class TextRow:
    """A marked text exercise of one file, beside the tested exercises' rows
    (:class:`.grading.GradeRow`)."""

    student_file: str
    exercise: str
    points: float
    max_points: float
    message: str = "text answer, marked by the teacher"
    error: str = ""
    traceback: str = ""

    @property
    def shown(self) -> str:
        return self.message
