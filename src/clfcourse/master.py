"""A chapter as an otter-grader *master notebook* (otter's assignment format).

Every graded exercise becomes a question ``# BEGIN QUESTION`` … ``# END QUESTION`` named after its
label, worth its points, all or nothing. Its solution cells go into a ``# BEGIN SOLUTION`` block,
with the code between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` lines, which otter replaces by
``...`` under a comment that restates the task. Its ``check`` cells become public tests (as
:func:`.checks.public_check` writes them: a failure shows its own message first) and its
``hidden-check`` cells ``# HIDDEN`` tests, unless the teacher gives their own
(:func:`read_hidden`, ``make assignments HIDDEN=dir``). Solution prose is removed from the
markdown; the teacher notebook gets it back after otter has run (see :mod:`.generate`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
import yaml

from .answers import rubric
from .checks import answer_names, public_check
from .exercises import _OPEN, META, Assignment, _closes, _options, _State, strip_solutions
from .markdown import Book, to_commonmark

#: The text of the markdown cell a student writes a text exercise's answer in.
ANSWER = "**Your answer to {name}:** _double-click here and replace this text._"


def stub(label: str, task: str, book: Book | None = None) -> list[str]:
    """The comment lines a student sees above otter's ``...`` in a solution cell."""
    task = to_commonmark(task, book)
    lines = [f"# Exercise {label}", "#"]
    lines += [f"# {line}".rstrip() for line in task.splitlines()]
    lines += ["#", f'# Replace ... with your solution, then run grader.check("{label}") below.']
    return lines


def assignment_config(name: str, requirements: str, files: list[str]) -> dict:
    """Otter's ``# ASSIGNMENT CONFIG`` of a chapter: a Gradescope zip, tests in the notebook."""
    return {
        "name": name,
        "requirements": requirements,
        "files": files,
        "python_version": "3.11",
        "init_cell": True,
        "check_all_cell": False,
        "export_cell": False,
        "solutions_pdf": False,
        "run_tests": True,
        "tests": {"files": False, "ok_format": True},
        "generate": {"pdf": False, "show_stdout": True, "show_hidden": False},
    }


def _raw(text: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_raw_cell(text)


def _metadata(cell: nbformat.NotebookNode) -> dict:
    return dict(cell.get("metadata", {}))


def _role(cell: nbformat.NotebookNode) -> tuple[str | None, str | None]:
    meta = cell.get("metadata", {}).get(META, {})
    return meta.get("exercise"), meta.get("role")


def answer_cell(label: str, book: Book) -> nbformat.NotebookNode:
    """The markdown cell a student answers text exercise ``label`` in."""
    target = book.targets.get(label)
    name = target.name() if target is not None else f"exercise {label}"
    meta = {META: {"exercise": label, "role": "answer"}}
    return nbformat.v4.new_markdown_cell(ANSWER.format(name=name), metadata=meta)


def _text_exercises(source: str, assignment: Assignment) -> list[str]:
    """The exercises without code cells whose ``{exercise}`` block is in this markdown."""
    return [
        ex.label
        for ex in assignment.exercises.values()
        if not ex.solution_cells
        and re.search(rf"^\s*:label:\s*{re.escape(ex.label)}\s*$", source, re.M)
    ]


def _exercise_ends(lines: list[str]) -> dict[int, str]:
    """Per labelled ``{exercise}`` block of ``lines``, the line that closes it, and its label.

    A gated ``{exercise-start}`` ends with the fence that closes its ``{exercise-end}``.
    """
    ends = {}
    k = 0
    while k < len(lines):
        m = _OPEN.match(lines[k])
        if not m or m["name"] not in ("exercise", "exercise-start"):
            k += 1
            continue
        close = next((j for j in range(k + 1, len(lines)) if _closes(lines[j], m["fence"])), None)
        close = len(lines) - 1 if close is None else close
        label = _options(lines[k + 1 : close])[0].get("label")
        if m["name"] == "exercise-start":
            later = range(close + 1, len(lines))
            gate = next((j for j in later if "{exercise-end}" in lines[j]), None)
            if gate is not None and (fence := _OPEN.match(lines[gate])):
                rest = range(gate + 1, len(lines))
                close = next((j for j in rest if _closes(lines[j], fence["fence"])), gate)
        if label:
            ends[close] = str(label)
        k = close + 1
    return ends


def _parts(source: str, assignment: Assignment) -> list[tuple[str, list[str]]]:
    """One markdown cell cut after each text exercise's statement: the pieces, each with the
    text exercises whose answer cell follows it (a cell holds the next exercise too when no
    code cell comes between them)."""
    texts = set(_text_exercises(source, assignment))
    lines = source.split("\n")
    parts, start = [], 0
    for end, label in sorted(_exercise_ends(lines).items()):
        if label in texts:
            parts.append(("\n".join(lines[start : end + 1]), [label]))
            start = end + 1
    rest = "\n".join(lines[start:])
    if rest.strip() or not parts:
        parts.append((rest, []))
    return parts


@dataclass(frozen=True)
class Hidden:
    """A teacher's own hidden tests of one exercise: its test cases and, if given, its points."""

    cases: tuple[str, ...]
    points: float | None = None


#: A line of a hidden-test file that starts a new test case.
_CASE = re.compile(r"^# %%.*$", re.M)
_POINTS = re.compile(r"^#\s*points:\s*(\S+)\s*$", re.M)


def read_hidden(folder: Path, labels: set[str]) -> dict[str, Hidden]:
    """The teacher's hidden tests in ``folder``: one file ``<exercise label>.py`` per exercise.

    A file holds Python assertions on the names the exercise asks for, like a chapter's
    ``hidden-check`` cell; a line ``# %%`` starts another test case, a line ``# points: 2``
    sets the exercise's points. A file that names no graded exercise of ``labels`` is refused.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise ValueError(f"no folder of hidden tests at {folder}")
    found = {}
    for path in sorted(folder.glob("*.py")):
        if path.stem not in labels:
            raise ValueError(f"{path}: no graded exercise is labelled {path.stem!r}")
        text = path.read_text()
        points = None
        if m := _POINTS.search(text):
            try:
                points = float(m[1])
            except ValueError:
                points = -1.0
            if not points > 0:
                raise ValueError(f"{path}: points must be a positive number, not {m[1]!r}")
        text = _POINTS.sub("", text)
        cases = tuple(c.strip() for c in _CASE.split(text) if c.strip())
        if not cases:
            raise ValueError(f"{path}: no test in the file")
        found[path.stem] = Hidden(cases, points)
    return found


def master_notebook(
    assignment: Assignment,
    config: dict,
    book: Book | None = None,
    hidden: dict[str, Hidden] | None = None,
) -> nbformat.NotebookNode:
    """The otter master notebook of ``assignment``, with ``config`` as its assignment config.

    Its markdown is CommonMark plus math (:func:`.markdown.to_commonmark` with ``book``, by
    default the chapter's own targets), and each text exercise gets a markdown answer cell.
    An exercise in ``hidden`` (:func:`read_hidden`) gets the teacher's hidden tests and points
    instead of the chapter's ``hidden-check`` cells.
    """
    hidden = hidden or {}
    for ex in assignment.exercises.values():  # a rubric that cannot be read stops here
        if not ex.solution_cells:
            rubric(ex.prose, f"{assignment.stem}, {ex.label}")
    book = book if book is not None else Book.of_page(assignment.source)
    nb = assignment.notebook
    master = nbformat.v4.new_notebook(metadata=dict(nb.metadata))
    master.cells.append(_raw("# ASSIGNMENT CONFIG\n" + yaml.safe_dump(config, sort_keys=False)))
    starts = {}
    for ex in assignment.graded:
        if not ex.hidden_cells:
            raise ValueError(f"{assignment.stem}: exercise {ex.label} has no hidden-check cell")
        opened = [k for k in range(ex.solution_cells[0]) if nb.cells[k].cell_type == "markdown"]
        starts[max(opened, default=ex.solution_cells[0])] = ex
    ends = {max(ex.check_cells + ex.hidden_cells): ex for ex in assignment.graded}
    state, testing = _State(), None
    for k, cell in enumerate(nb.cells):
        if k in starts:
            ex = starts[k]
            points = getattr(hidden.get(ex.label), "points", None) or ex.points
            question = {"name": ex.label, "points": points, "all_or_nothing": True}
            master.cells.append(_raw("# BEGIN QUESTION\n" + yaml.safe_dump(question).strip()))
        label, role = _role(cell)
        if cell.cell_type == "markdown":
            # each text exercise's answer cell right after its own statement
            for part, answers in _parts(cell.source, assignment):
                text = to_commonmark(strip_solutions(part, state)[0], book)
                if text.strip():
                    if testing:
                        raise ValueError(
                            f"{assignment.stem}, cell {k}: text among the checks of {testing}"
                        )
                    master.cells.append(nbformat.v4.new_markdown_cell(text))
                master.cells += [answer_cell(x, book) for x in answers]
            continue
        cell = nbformat.v4.new_code_cell(cell.source, metadata=dict(cell.metadata))
        if role == "solution":
            ex = assignment.exercises[label]
            if k == ex.solution_cells[0]:
                master.cells.append(_raw("# BEGIN SOLUTION"))
            lines = ["# BEGIN SOLUTION", cell.source, "# END SOLUTION"]
            if k == ex.solution_cells[0]:
                lines = stub(label, ex.task, book) + lines
            cell.source = "\n".join(lines)
            master.cells.append(cell)
            if k == ex.solution_cells[-1]:
                master.cells.append(_raw("# END SOLUTION"))
        elif role in ("check", "hidden"):
            ex = assignment.exercises[label]
            if k == ex.check_cells[0]:
                master.cells.append(_raw("# BEGIN TESTS"))
                testing = label
            if role == "hidden" and label in hidden:  # the teacher's own, once
                if k == ex.hidden_cells[0]:
                    for case in hidden[label].cases:
                        source = f"# HIDDEN\n{case}"
                        master.cells.append(
                            nbformat.v4.new_code_cell(source, metadata=_metadata(cell))
                        )
            elif role == "hidden":
                cell.source = "# HIDDEN\n" + cell.source
                master.cells.append(cell)
            else:
                answers = answer_names([nb.cells[j].source for j in ex.solution_cells])
                cell.source = public_check(cell.source, label, answers)
                master.cells.append(cell)
        elif testing:
            raise ValueError(f"{assignment.stem}, cell {k}: code among the checks of {testing}")
        else:
            master.cells.append(cell)
        if k in ends:
            master.cells += [_raw("# END TESTS"), _raw("# END QUESTION")]
            testing = None
    nbformat.validate(master)
    return master
