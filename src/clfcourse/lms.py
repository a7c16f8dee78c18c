"""The gradebook as a learning platform imports it (``make grade LMS=canvas|moodle``).

Canvas (*Grades → Import*, its guide "How do I import grades in the Gradebook?",
https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807):
a header ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``, ``Section``, then one column per
assignment; a second row whose first cell is ``Points Possible`` gives each assignment's
maximum; then a row per student. Canvas matches a row to a student by ``ID`` (its own user id),
else ``SIS User ID``, else ``SIS Login ID``, else the name in ``Student``, and an assignment
column by its title (a title it does not know makes a new assignment). The grader knows a
student only by the id of their folder, so that id fills ``Student`` and ``SIS Login ID``.

Moodle (*Grades → Import → CSV file*, https://docs.moodle.org/405/en/Grade_import): a header,
then a row per user, one column identifying the user (the teacher maps it to username, ID
number or email address in the import's *Map from* / *Map to*) and one column per grade item;
no row of maxima (a grade item keeps its own maximum, and a grade above it is cut to it).
"""

from __future__ import annotations

#: The platforms whose import file :func:`table` writes.
FORMATS = ("canvas", "moodle")
#: Canvas's student columns, in its order (its importer reads them by position).
CANVAS_STUDENT = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
#: The first cell of Canvas's row of maxima.
CANVAS_POINTS = "Points Possible"
#: The column of the Moodle file that identifies the user.
MOODLE_ID = "Student"


def _number(x: float) -> str:
    return f"{x:g}"


def table(
    kind: str,
    students: list[str],
    columns: list[str],
    maxima: dict[str, float],
    points: dict[str, dict[str, float]],
) -> list[list[str]]:
    """The rows of ``kind``'s import file (header first): ``points[student][assignment]``,
    an empty cell where the student handed nothing in (both platforms then leave the grade
    as it was). No totals: each platform computes its own."""
    cells = {s: [_number(points[s][a]) if a in points[s] else "" for a in columns] for s in points}
    if kind == "canvas":
        blank = [""] * (len(CANVAS_STUDENT) - 1)
        return [
            [*CANVAS_STUDENT, *columns],
            [CANVAS_POINTS, *blank, *(_number(maxima[a]) for a in columns)],
            *([s, "", "", s, "", *cells[s]] for s in students),
        ]
    if kind == "moodle":
        return [[MOODLE_ID, *columns], *([s, *cells[s]] for s in students)]
    raise ValueError(f"no LMS format {kind!r}: one of {', '.join(FORMATS)}")
