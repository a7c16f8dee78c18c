"""Find a chapter's exercises and label their cells.

A chapter is a MyST Markdown notebook (jupytext ``md:myst``). Its exercises are ``{exercise}``
blocks with a ``:label:``. A code exercise has its answer in code cells inside a gated
``{solution-start} <label>`` … ``{solution-end}`` dropdown (tagged ``solution``), then a code cell
tagged ``check`` (the public hint) and directly after it one tagged ``hidden-check`` and
``remove-cell`` (the hidden decision); a text exercise has a ``{solution} <label>`` block.
:func:`build_assignment` labels the solution, check and hidden-check cells with cell metadata
``{"clfmetrics": {"exercise": label, "role": ...}}`` and collects each exercise's task, solution
prose and points, from which :mod:`.master` writes otter's master notebook.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

import jupytext
import nbformat
import yaml

#: Key of the cell and notebook metadata this package writes.
META = "clfmetrics"

_OPEN = re.compile(r"^\s*(?P<fence>`{3,}|:{3,})\s*\{(?P<name>[\w:-]+)\}[ \t]*(?P<arg>.*?)\s*$")


def toc_pages(root: Path) -> list[Path]:
    """Every page of ``root/_toc.yml`` (root, parts, chapters, sections), as ``.md`` paths."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    names = [toc["root"]]

    def walk(entries: list[dict]) -> None:
        for entry in entries:
            if "file" in entry:
                names.append(entry["file"])
            walk(entry.get("sections", []))

    for part in toc.get("parts", []):
        walk(part.get("chapters", []))
    walk(toc.get("chapters", []))
    return [root / (name if name.endswith(".md") else f"{name}.md") for name in names]


def is_notebook(path: Path) -> bool:
    """A page is a notebook when its front matter declares a kernelspec."""
    text = path.read_text()
    return text.startswith("---") and "kernelspec:" in text.split("---", 2)[1]


def notebook_chapters(root: Path) -> list[Path]:
    """The notebook pages of the book at ``root``, in table-of-contents order."""
    pages = toc_pages(Path(root))
    missing = [p for p in pages if not p.exists()]
    if missing:
        raise FileNotFoundError(f"_toc.yml names pages that do not exist: {missing}")
    return [p for p in pages if is_notebook(p)]


def _closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes a block opened with ``fence`` (same character, at least as long)."""
    s = line.strip()
    return len(s) >= len(fence) and set(s) == {fence[0]}


def _options(body: list[str]) -> tuple[dict, list[str]]:
    """Split a directive body into its options (``:key: value`` lines or a ``---`` YAML block)."""
    if body and body[0].strip() == "---":
        end = next((k for k in range(1, len(body)) if body[k].strip() == "---"), None)
        if end is not None:
            return yaml.safe_load("\n".join(body[1:end])) or {}, body[end + 1 :]
    options, k = {}, 0
    while k < len(body) and (m := re.match(r"^\s*:([\w-]+):\s*(.*)$", body[k])):
        options[m[1]] = m[2].strip()
        k += 1
    return options, body[k:]


def exercise_tasks(nb: nbformat.NotebookNode) -> dict[str, str]:
    """The text of every labelled ``{exercise}`` (or gated ``{exercise-start}``) block."""
    tasks = {}
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        lines = cell.source.split("\n")
        for k, line in enumerate(lines):
            m = _OPEN.match(line)
            if not m or m["name"] not in ("exercise", "exercise-start"):
                continue
            end = next((j for j in range(k + 1, len(lines)) if _closes(lines[j], m["fence"])), None)
            options, body = _options(lines[k + 1 : end])
            if m["name"] == "exercise-start":
                rest = lines[(end or k) + 1 :]
                stop = next((j for j, s in enumerate(rest) if "{exercise-end}" in s), len(rest))
                body = rest[:stop]
            label = options.get("label")
            if label:
                title = [m["arg"], ""] if m["arg"] else []
                tasks[str(label)] = "\n".join(title + body).strip()
    return tasks


@dataclass
class _State:
    """Where the markdown scan is: inside a gated solution (its label) or its end fence."""

    label: str | None = None
    end_fence: str | None = None


def _label(arg: str, what: str) -> str:
    if not arg.split():
        raise ValueError(f"a {{{what}}} directive needs the exercise label as its argument")
    return arg.split()[0]


def strip_solutions(text: str, state: _State) -> tuple[str, list[tuple[str, str]]]:
    """Remove gated-solution prose and ``{solution}`` blocks from one markdown cell.

    ``state`` carries an open ``{solution-start}`` over to the following cells. Returns the
    kept text and the removed lines as ``(exercise label, line)`` pairs.
    """
    lines, kept, removed = text.split("\n"), [], []
    k = 0
    while k < len(lines):
        line, m = lines[k], _OPEN.match(lines[k])
        k += 1
        if state.end_fence is not None:
            if _closes(line, state.end_fence):
                state.label = state.end_fence = None
        elif state.label is not None:
            if m and m["name"] == "solution-end":
                state.end_fence = m["fence"]
            else:
                removed.append((state.label, line))
        elif m and m["name"] == "solution-start":
            state.label = _label(m["arg"], "solution-start")
        elif m and m["name"] == "solution":
            label = _label(m["arg"], "solution")
            while k < len(lines) and not _closes(lines[k], m["fence"]):
                removed.append((label, lines[k]))
                k += 1
            k += 1
        else:
            kept.append(line)
    text = "\n".join(kept)
    if removed:  # a removed block leaves its blank lines on both sides
        text = re.sub(r"\n{3,}", "\n\n", text)
    return text.strip("\n"), removed


#: Cell tags of the markup: the answer, the public hint, the hidden decision.
ROLES = {"solution": "solution", "check": "check", "hidden-check": "hidden"}


@dataclass
class Exercise:
    """One exercise of a chapter and the positions (0-based) of its cells in the chapter."""

    label: str
    task: str = ""
    solution_cells: list[int] = field(default_factory=list)
    check_cells: list[int] = field(default_factory=list)
    hidden_cells: list[int] = field(default_factory=list)
    #: Points of the question (the check cell's ``points`` metadata, 1 by default).
    points: float = 1
    #: Removed markdown lines of its solution (gated dropdown prose or ``{solution}`` body).
    prose: list[str] = field(default_factory=list)

    @property
    def graded(self) -> bool:
        """A code exercise with a check cell, which becomes an otter question."""
        return bool(self.check_cells)


@dataclass
class Assignment:
    """A chapter as a notebook whose exercise cells are labelled, and its exercises."""

    chapter: str
    source: Path
    notebook: nbformat.NotebookNode
    exercises: dict[str, Exercise]

    @property
    def stem(self) -> str:
        return self.source.stem

    @property
    def graded(self) -> list[Exercise]:
        return [ex for ex in self.exercises.values() if ex.graded]


def _chapter_name(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).with_suffix("").as_posix()
    except ValueError:
        return path.stem


def _points(cell: nbformat.NotebookNode, where: str) -> float:
    points = cell.metadata.get("points", 1)
    if isinstance(points, bool) or not isinstance(points, int | float) or points <= 0:
        raise ValueError(f"{where}: points must be a positive number, not {points!r}")
    return points


def build_assignment(path: Path, root: Path | None = None) -> Assignment:
    """Read chapter ``path`` and label its exercise cells.

    Outputs are cleared; each cell gets the id ``cNNN`` of its position in the chapter; solution,
    check and hidden-check cells get the metadata ``{"clfmetrics": {"exercise": label, "role":
    role}}``. Raises ValueError when the exercise markup is inconsistent.
    """
    path = Path(path)
    root = Path(root) if root is not None else path.parent
    chapter = _chapter_name(path, root)
    nb = jupytext.read(path, fmt="md:myst")
    tasks = exercise_tasks(nb)
    out = nbformat.v4.new_notebook()
    out.metadata = copy.deepcopy(nb.metadata)
    out.metadata.pop("jupytext", None)
    out.metadata[META] = {"chapter": chapter}
    exercises: dict[str, Exercise] = {}
    state, last_exercise, last_solution = _State(), None, None

    def exercise(label: str) -> Exercise:
        return exercises.setdefault(label, Exercise(label, tasks.get(label, "")))

    for k, original in enumerate(nb.cells):
        cell = copy.deepcopy(original)
        cell["id"] = f"c{k:03d}"
        where = f"{path.name}, cell {k}"
        out.cells.append(cell)
        if cell.cell_type == "markdown":
            for label in tasks:
                if re.search(rf"^\s*:label:\s*{re.escape(label)}\s*$", cell.source, re.M):
                    exercise(label)
                    last_exercise = label
            for label, line in strip_solutions(cell.source, state)[1]:
                exercise(label).prose.append(line)
            continue
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        tags = cell.metadata.get("tags", [])
        role = label = None
        if state.label is not None or "solution" in tags:
            role, label = "solution", state.label or last_exercise
            if label is None:
                raise ValueError(f"{where}: solution cell outside any exercise")
            last_solution = label
        elif tag := next((t for t in ("check", "hidden-check") if t in tags), None):
            if last_solution is None:
                raise ValueError(f"{where}: {tag} cell without a solution cell before it")
            role, label = ROLES[tag], last_solution
            if role == "hidden" and not exercise(label).check_cells:
                raise ValueError(f"{where}: a hidden-check cell must follow the check cell")
            if role == "hidden" and "remove-cell" not in tags:
                raise ValueError(f"{where}: tag the hidden-check cell remove-cell too")
            if role == "check" and not exercise(label).check_cells:
                exercise(label).points = _points(cell, where)
        if role:
            cell.metadata[META] = {"exercise": label, "role": role}
            getattr(exercise(label), f"{role}_cells").append(k)
    if state.label is not None or state.end_fence is not None:
        raise ValueError(f"{path.name}: {{solution-start}} {state.label} is never closed")
    nbformat.validate(out)
    return Assignment(chapter, path, out, exercises)


def _named_chapters(nb: nbformat.NotebookNode | None) -> list[str]:
    """The chapter stems a notebook's metadata names (otter's assignment, the book's chapter)."""
    meta = nb.get("metadata", {}) if nb is not None else {}
    found = []
    for key, entry in (("otter", "assignment_name"), (META, "chapter")):
        value = meta.get(key, {}).get(entry) if isinstance(meta.get(key), dict) else None
        if value:
            found.append(Path(str(value)).name)
    return found


def chapter_of(path: Path, nb: nbformat.NotebookNode | None, chapters: list[dict]) -> dict | None:
    """The chapter of a submission: from otter's or the book's notebook metadata, else its name."""
    stems = {Path(c["chapter"]).name: c for c in chapters}
    for stem in _named_chapters(nb):
        if stem in stems:
            return stems[stem]
    hits = [stem for stem in stems if stem in path.name]
    return stems[max(hits, key=len)] if hits else None


def unknown_chapter(nb: nbformat.NotebookNode | None, chapters: list[dict]) -> str:
    """Why :func:`chapter_of` found no chapter for a submission, for the teacher.

    A notebook whose metadata names a chapter that the assignments (``manifest.json``) do not
    hold says which, and how to assign it; otherwise nothing in it names an assigned chapter.
    """
    held = sorted(Path(c["chapter"]).name for c in chapters)
    shown = ", ".join(held) if len(held) <= 4 else f"{len(held)} chapters"
    named = _named_chapters(nb)
    if named:
        return (
            f"this is the notebook of chapter {named[0]} (its metadata says so), which the "
            f"assignments do not hold (their manifest.json has {shown or 'no chapter'}): "
            f"assign it (python -m clfcourse assign chapters/{named[0]}.md), or every chapter "
            "(make assignments), then grade again"
        )
    return (
        "cannot tell which chapter this notebook belongs to: neither its metadata nor its file "
        f"name names an assigned chapter ({shown or 'none'})"
    )
