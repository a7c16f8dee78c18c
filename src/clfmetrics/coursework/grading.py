"""Grade submitted notebooks: run each with the teacher's checks and record which checks pass.

Every check cell of a submission is replaced by the teacher's check cell of the same exercise
(found through the cell metadata written at generation time), so editing a check cell does not
help. Each notebook runs on a fresh kernel in an empty temporary folder with one time budget for
the whole notebook; errors do not stop the other cells. An exercise passes when all its check cells
ran and none has an error output.
"""

from __future__ import annotations

import csv
import subprocess
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError, DeadKernelError

from .exercises import META, Assignment, build_assignment, notebook_chapters

#: Columns of ``grades.csv``; ``passed`` is 1 or 0.
CSV_FIELDS = ("student_file", "exercise", "passed", "message")


@dataclass(frozen=True)
class GradeRow:
    """One line of ``grades.csv``; ``exercise`` is empty when the file has no known chapter."""

    student_file: str
    exercise: str
    passed: bool
    message: str


class Graded(NamedTuple):
    """The grading of one submitted file: its rows, a problem (or None), the executed notebook."""

    rows: list[GradeRow]
    problem: str | None
    notebook: nbformat.NotebookNode | None


class _BudgetClient(NotebookClient):
    """A NotebookClient whose timeout is one budget for the whole notebook, not one per cell."""

    def __init__(self, nb: nbformat.NotebookNode, budget: float, **kwargs) -> None:
        super().__init__(nb, timeout=max(1, int(budget)), **kwargs)
        self._budget, self._deadline = budget, None
        self.current_cell: int | None = None
        self.executed: set[int] = set()

    def _get_timeout(self, cell: nbformat.NotebookNode | None) -> float:
        if self._deadline is None:
            self._deadline = time.monotonic() + self._budget
        # never 0 or less: nbclient reads that as "no timeout"
        return max(self._deadline - time.monotonic(), 0.001)

    async def async_execute_cell(self, cell, cell_index, *args, **kwargs):
        self.current_cell = cell_index
        result = await super().async_execute_cell(cell, cell_index, *args, **kwargs)
        self.executed.add(cell_index)
        return result


def _role(cell: nbformat.NotebookNode) -> tuple[str | None, str | None]:
    meta = cell.get("metadata", {}).get(META, {})
    if not isinstance(meta, dict):
        return None, None
    return meta.get("exercise"), meta.get("role")


def inject_checks(nb: nbformat.NotebookNode, assignment: Assignment) -> dict[str, list | str]:
    """Replace the submission's check cells by the teacher's, in place.

    Returns, per graded exercise, the inserted check cells, or a message when the exercise's
    cells cannot be found (then the teacher's checks are not inserted anywhere).
    """
    placed: dict[str, list | str] = {}
    for label, exercise in assignment.exercises.items():
        if not exercise.graded:
            continue
        roles = [_role(c) for c in nb.cells]
        checks = [k for k, r in enumerate(roles) if r == (label, "check")]
        solutions = [k for k, r in enumerate(roles) if r == (label, "solution")]
        if not checks and not solutions:
            placed[label] = "the exercise's solution and check cells are not in the notebook"
            continue
        at = checks[0] if checks else solutions[-1] + 1
        nb.cells = [c for k, c in enumerate(nb.cells) if k not in checks]
        placed[label] = assignment.checks(label)
        nb.cells[at:at] = placed[label]
    return placed


def _error(cell: nbformat.NotebookNode) -> str | None:
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            text = f"{out.get('ename', 'Error')}: {out.get('evalue', '')}".strip()
            text = " ".join(text.split())
            return text if len(text) <= 300 else text[:297] + "..."
    return None


def execute_submission(
    nb: nbformat.NotebookNode, timeout: float, kernel_name: str = "python3"
) -> tuple[set[int], str | None]:
    """Run ``nb`` in place on a fresh kernel; return the executed cell indices and any problem."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    with tempfile.TemporaryDirectory(prefix="clfmetrics-grade-") as cwd:
        client = _BudgetClient(
            nb,
            timeout,
            kernel_name=kernel_name,
            allow_errors=True,
            resources={"metadata": {"path": cwd}},
        )
        try:
            # the kernel's own console noise is not the student's output (that comes via iopub)
            client.execute(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        except CellTimeoutError:
            where = "" if client.current_cell is None else f" in cell {client.current_cell + 1}"
            return client.executed, f"timed out after {timeout:g} s{where}"
        except DeadKernelError:
            return client.executed, f"the kernel died in cell {(client.current_cell or 0) + 1}"
        except Exception as exc:  # a broken submission must not stop the others
            detail = " ".join(str(exc).split())[:200]
            return client.executed, f"could not run the notebook: {type(exc).__name__}: {detail}"
    return client.executed, None


def _verdicts(
    nb: nbformat.NotebookNode,
    placed: dict[str, list | str],
    executed: set[int],
    problem: str | None,
) -> dict[str, tuple[bool, str]]:
    """Pass/fail and a message per exercise, from the executed notebook."""
    position = {id(c): k for k, c in enumerate(nb.cells)}
    errors = [
        (k, _error(c))
        for k, c in enumerate(nb.cells)
        if c.cell_type == "code" and "raises-exception" not in c.metadata.get("tags", [])
    ]
    errors = [(k, e) for k, e in errors if e]
    verdicts = {}
    for label, checks in placed.items():
        if isinstance(checks, str):
            verdicts[label] = (False, checks)
            continue
        verdict = (True, "ok")
        for cell in checks:
            k = position[id(cell)]
            if k not in executed:
                verdict = (False, f"check not run: {problem or 'the notebook stopped before it'}")
                break
            if err := _error(cell):
                first = next(((j, e) for j, e in errors if j < k), None)
                if first is not None:
                    exercise, role = _role(nb.cells[first[0]])
                    owner = f", the {role} of {exercise}" if role else ""
                    err += f" (first error in the notebook: cell {first[0] + 1}{owner}: {first[1]})"
                verdict = (False, err)
                break
        verdicts[label] = verdict
    return verdicts


def _chapter_of(path: Path, nb, assignments: list[Assignment]) -> Assignment | None:
    if nb is not None:
        meta = nb.get("metadata", {}).get(META, {})
        chapter = meta.get("chapter") if isinstance(meta, dict) else None
        for a in assignments:
            if a.chapter == chapter:
                return a
    hits = [a for a in assignments if a.stem in path.name]
    return max(hits, key=lambda a: len(a.stem)) if hits else None


def grade_notebook(
    path: Path,
    assignments: list[Assignment],
    timeout: float = 120,
    kernel_name: str = "python3",
    name: str | None = None,
) -> Graded:
    """Grade one submitted file: read it, insert the teacher's checks, run it, judge each check."""
    name = name or Path(path).name
    nb, problem = None, None
    try:
        nb = nbformat.read(path, as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("no list of cells")
    except Exception as exc:
        detail = " ".join(str(exc).split())[:150]
        nb, problem = None, f"not a notebook ({type(exc).__name__}: {detail})"
    assignment = _chapter_of(Path(path), nb, assignments)
    if assignment is None:
        problem = problem or "cannot tell which chapter this notebook belongs to"
        return Graded([GradeRow(name, "", False, problem)], problem, None)
    if nb is None:
        graded = [label for label, ex in assignment.exercises.items() if ex.graded]
        return Graded([GradeRow(name, label, False, problem) for label in graded], problem, None)
    placed = inject_checks(nb, assignment)
    executed, problem = execute_submission(nb, timeout, kernel_name)
    verdicts = _verdicts(nb, placed, executed, problem)
    rows = [GradeRow(name, label, ok, message) for label, (ok, message) in verdicts.items()]
    return Graded(rows, problem, nb)


def submission_files(submissions: Path) -> list[Path]:
    """Every file in ``submissions`` (recursively), skipping hidden files and folders."""
    submissions = Path(submissions)
    if submissions.is_file():
        return [submissions]
    if not submissions.is_dir():
        raise FileNotFoundError(f"no submissions folder {submissions}")
    return sorted(
        p
        for p in submissions.rglob("*")
        if p.is_file() and not any(s.startswith(".") for s in p.relative_to(submissions).parts)
    )


def summarise(rows: list[GradeRow], problems: dict[str, str]) -> str:
    """Per student file passed/total, per exercise pass rate, and the files with a problem."""
    by_file, by_exercise = defaultdict(list), defaultdict(list)
    for row in rows:
        by_file[row.student_file].append(row)
        if row.exercise:
            by_exercise[row.exercise].append(row.passed)
    width = max([len(k) for k in [*by_file, *by_exercise]] + [10])
    lines = [f"Grades of {len(by_file)} submitted file(s)", "", "Per student file (passed/total):"]
    for name, mine in by_file.items():
        graded = [r for r in mine if r.exercise]
        lines.append(f"  {name:<{width}}  {sum(r.passed for r in graded)}/{len(graded)}")
    lines += ["", "Per exercise (pass rate):"]
    for label, passed in by_exercise.items():
        rate = sum(passed) / len(passed)
        lines.append(f"  {label:<{width}}  {sum(passed)}/{len(passed)}  ({rate:.0%})")
    if problems:
        lines += ["", "Problems:"]
        lines += [f"  {name}: {message}" for name, message in problems.items()]
    return "\n".join(lines) + "\n"


def grade_submissions(
    submissions: Path | str,
    root: Path | str = ".",
    out: Path | str | None = None,
    timeout: float = 120,
    kernel_name: str = "python3",
    jobs: int = 1,
) -> tuple[list[GradeRow], str]:
    """Grade every file in ``submissions``; write ``grades.csv`` and ``summary.txt`` to ``out``.

    Parameters
    ----------
    submissions : path
        A folder of submitted files (searched recursively) or a single file.
    root : path
        The book's root; the teacher's checks are read from its chapters.
    out : path, optional
        Output folder, ``root/_build/grades`` by default.
    timeout : float
        Time budget in seconds for running one notebook (kernel start-up not included).
    kernel_name : str
        Kernel to run every submission with, whatever the notebook's metadata says.
    jobs : int
        How many notebooks to run at the same time (one kernel each).

    Returns
    -------
    rows, summary
        The CSV rows and the summary text.
    """
    root, submissions = Path(root), Path(submissions)
    out = Path(out) if out is not None else root / "_build" / "grades"
    assignments = [build_assignment(p, root) for p in notebook_chapters(root)]
    rows: list[GradeRow] = []
    problems: dict[str, str] = {}
    base = submissions if submissions.is_dir() else submissions.parent
    files = submission_files(submissions)
    names = [path.relative_to(base).as_posix() for path in files]

    def grade(k: int) -> Graded:
        return grade_notebook(files[k], assignments, timeout, kernel_name, names[k])

    # each notebook runs in its own kernel process; threads only wait for them
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for name, (mine, problem, _) in zip(names, pool.map(grade, range(len(files))), strict=True):
            rows += mine
            if problem:
                problems[name] = problem
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "grades.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(CSV_FIELDS)
        writer.writerows((r.student_file, r.exercise, int(r.passed), r.message) for r in rows)
    summary = summarise(rows, problems)
    (out / "summary.txt").write_text(summary)
    return rows, summary
