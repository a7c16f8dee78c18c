"""Grade submitted notebooks locally against each chapter's autograder zip, outside their kernel.

Otter's own runner (``otter run``) executes the hidden tests in the kernel that ran the
student's code, so one cell that patches otter there passes every test. Here each file is
executed on a fresh kernel in a scratch folder under resource limits, with no test and no grading
code in that kernel; the values its tests read then leave the kernel as data
(:mod:`.values`), and otter's test files run on them in a clean process that never runs student
code (:mod:`.isolated`). A file that is not a notebook, belongs to no chapter, runs out of time
or of a limit, or crashes its kernel gets rows that say so, and the other files are graded.
Each notebook runs in a bubblewrap sandbox (:mod:`.sandbox`); without one, grading refuses to
run students' code unless asked to with ``--unsafe-no-sandbox`` (see ``teaching.md``).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import nbformat

from . import sandbox, untrusted
from .answers import TextAnswers, check_points, read_points
from .exercises import chapter_of, unknown_chapter
from .gradebook import GradeFiles, attach_errors, student_id
from .inputs import chapter_imports, load_tests
from .runner import Limits, fingerprint, given_data, groups_available, run_isolated


@dataclass(frozen=True)
class GradeRow:
    """One graded exercise of a file (see :mod:`.gradebook` for the files written from it).

    ``exercise`` is empty when the file has no known chapter.
    """

    student_file: str
    exercise: str
    points: float
    max_points: float
    message: str
    #: The errors the notebook's own cells raised, and their tracebacks (for the teacher).
    error: str = ""
    traceback: str = ""
    #: What the student may read of ``message``: a failed hidden test case only as
    #: "test N (hidden): failed", or with the message its author marked (:func:`_messages`);
    #: by default the whole message, which for a file that was not scored is the grader's
    #: own reason.
    shown: str | None = None

    def __post_init__(self):
        if self.shown is None:
            object.__setattr__(self, "shown", self.message)
        # every string here may come from a student (a file name, a value's reason, an
        # error): printable and encodable wherever it is written (:func:`.untrusted.text`)
        for name in ("student_file", "exercise", "message", "error", "shown"):
            object.__setattr__(self, name, untrusted.text(getattr(self, name)))
        object.__setattr__(self, "traceback", untrusted.text(self.traceback, lines=True))


class Graded(NamedTuple):
    """The grading of one submitted file: its rows and a problem that stopped it (or None)."""

    rows: list[GradeRow]
    problem: str | None


def load_manifest(assignments: Path) -> list[dict]:
    """The chapters of ``assignments/manifest.json`` (written by ``make assignments``)."""
    path = Path(assignments) / "manifest.json"
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run make assignments first")
    return json.loads(path.read_text())["chapters"]


class NoSandbox(RuntimeError):
    """No sandbox can be made here, and the teacher did not accept running without one."""


class Unbounded(RuntimeError):
    """Several notebooks at once, where nothing keeps one from starving the others."""


class Exposed(ValueError):
    """The hidden tests or the assignments lie where a sandboxed notebook can read them."""


def check_private(assignments: Path) -> None:
    """Refuse to grade when the assignments (teacher notebooks, zips) or the teacher's hidden
    tests (``manifest.json``'s ``hidden``) are inside a folder the sandbox binds: every
    notebook could read them and print them into its own feedback."""
    manifest = json.loads((assignments / "manifest.json").read_text())
    private = [("the assignments", assignments)]
    if manifest.get("hidden"):
        private.append(("the hidden tests", Path(manifest["hidden"])))
    for what, path in private:
        if path.exists() and (bound := sandbox.exposed(path)):
            raise Exposed(
                f"{what} ({path}) are inside {bound}, which every submission's sandbox can "
                "read: move them out of it"
            )


def read_notebook(data: bytes) -> tuple[nbformat.NotebookNode | None, str | None]:
    """A submitted file's bytes as a notebook, or None and why it is not one."""
    try:
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
        if not isinstance(nb.get("cells"), list):
            raise ValueError("no list of cells")
    except Exception as exc:
        detail = untrusted.text(" ".join(str(exc).split()), 150)
        return None, f"not a notebook ({type(exc).__name__}: {detail})"
    return nb, None


def _first_error(text: str) -> str:
    found = re.findall(r"^\s*((?:[\w.]+(?:Error|Exception)|KeyboardInterrupt)\b.*)$", text, re.M)
    return found[0].strip() if found else "failed"


def _messages(test: dict, shown: tuple[str, ...] = ()) -> tuple[str, str]:
    """The teacher's message of one test and the student's: ``ok``, or per failed case its
    number and the first error it raised, a hidden case only as "test N (hidden): failed",
    or as "test N (hidden): MESSAGE" when its error is an assertion whose message is one
    of ``shown`` (those its author marked, :func:`.checks.shown_messages`).

    Built from the test's cases as data (:func:`.isolated._score`), never by cutting words
    out of its text, so no hidden message can slip through whatever it holds: the only words
    of a hidden case a student reads are ones the author wrote down as safe beforehand.
    """
    cases = test.get("cases")
    if not isinstance(cases, list):  # results without cases: the student sees no detail
        message = _message(test["output"])
        return message, "ok" if message == "ok" else "failed"
    failed = [c for c in cases if not c["passed"]]
    if not failed:
        return "ok", "ok"
    mine = [f"test {c['number']}: {_first_error(c['message'])}" for c in failed]
    said = {f"AssertionError: {m}": m for m in shown}
    theirs = [
        f"test {c['number']} (hidden): {said.get(_first_error(c['message']), 'failed')}"
        if c["hidden"]
        else text
        for c, text in zip(failed, mine, strict=True)
    ]
    return _cut("; ".join(mine)), _cut("; ".join(theirs))


def _cut(text: str) -> str:
    return text if len(text) <= 300 else text[:297] + "..."


def _message(output: str) -> str:
    """``ok``, or per failed test case its number and the first error it raised."""
    parts = re.split(r"^\s*\S+ - (\d+) result:\s*$", output, flags=re.M)
    failed = [
        f"test {number}: {_first_error(body)}"
        for number, body in zip(parts[1::2], parts[2::2], strict=True)
        if "Test case failed" in body
    ]
    text = "; ".join(failed) or ("ok" if "passed" in output else _first_error(output))
    return text if len(text) <= 300 else text[:297] + "..."


class Prepared(NamedTuple):
    """What grading a chapter needs, read before any submission runs."""

    tests: dict
    imports: dict
    givens: dict
    modules: list
    #: How the teacher notebook grades (:func:`.runner.given_data`), or None without one.
    teacher: dict | None = None


_PREPARED: dict[tuple, Prepared] = {}


def prepare(
    assignments: Path,
    chapter: dict,
    timeout: float = 300,
    limits: Limits | None = None,
    sandboxed: bool = True,
) -> Prepared:
    """A chapter's test files (its zip), imports and given data (its teacher notebook's run).

    Also the module files the scoring process loads (:func:`.runner.given_data`); kept per
    zip and teacher notebook as long as neither changes.
    """
    teacher = Path(assignments) / chapter.get("teacher", "")
    zipped = Path(assignments) / chapter["autograder"]
    key = tuple((str(p), p.stat().st_mtime_ns) for p in (teacher, zipped) if p.is_file())
    key += (sandboxed,)
    if key not in _PREPARED:
        tests, imports = load_tests(zipped), {}
        givens, modules, results = {}, [], None
        if teacher.is_file():
            imports = chapter_imports(teacher)
            givens, modules, results = given_data(
                teacher, tests, imports, timeout, limits, sandboxed
            )
        _PREPARED[key] = Prepared(tests, imports, givens, modules, results)
    return _PREPARED[key]


def grade_notebook(
    path: Path,
    chapters: list[dict],
    assignments: Path,
    timeout: float = 300,
    name: str | None = None,
    limits: Limits | None = None,
    prepared: dict[str, Prepared] | None = None,
    files: dict | None = None,
    sandboxed: bool = True,
    data: bytes | None = None,
) -> Graded:
    """Grade one submitted file against its chapter's autograder zip (see :func:`run_isolated`).

    Points come only from the tests run outside the student's kernel. An exercise whose public
    test fails there while the notebook's own check said it passed scores 0 and is flagged
    ``REVIEW``: the notebook changed its grader, or a value could not be carried out.
    ``prepared`` (per autograder zip, :func:`prepare`) and ``files`` (the grader's
    :func:`.runner.fingerprint`) are read now unless given; :func:`grade_submissions` reads them
    before any submission runs. ``sandboxed=False`` runs the notebook without a sandbox.
    ``data`` are the file's bytes as :func:`.untrusted.collect` read them; without them the
    file at ``path`` is read the same way (a link or anything but a regular file is refused).
    """
    name = name or untrusted.text(Path(path).name)
    if data is None:  # read once, as data: a link or a FIFO is refused, never followed
        try:
            data, _ = untrusted.read_regular(path, int(untrusted.MAX_FILE_MB * 2**20))
        except ValueError as exc:
            return Graded([GradeRow(name, "", 0, 0, str(exc))], str(exc))
    nb, problem = read_notebook(data)
    chapter = chapter_of(Path(path), nb, chapters)
    if chapter is None:
        problem = problem or unknown_chapter(nb, chapters)
        return Graded([GradeRow(name, "", 0, 0, problem)], problem)
    graded = {ex["exercise"]: ex["points"] for ex in chapter["exercises"] if ex["graded"]}
    results = None
    if problem is None:
        stem = Path(chapter["chapter"]).name
        ready = (prepared or {}).get(chapter["autograder"]) or prepare(
            Path(assignments), chapter, max(timeout, 300), None, sandboxed
        )
        results, problem = run_isolated(
            data,
            ready.tests,
            stem,
            timeout,
            limits,
            files,
            ready.imports,
            ready.givens,
            ready.modules,
            sandboxed,
        )
    if results is None:
        return Graded([GradeRow(name, ex, 0, pts, problem) for ex, pts in graded.items()], problem)
    rows = _rows(name, graded, results, _shown(chapter))
    return Graded(attach_errors(rows, results.get("errors", [])), None)


def _shown(chapter: dict) -> dict[str, tuple[str, ...]]:
    """Per exercise, the hidden tests' messages its feedback may show (``manifest.json``)."""
    return {ex["exercise"]: tuple(ex.get("shown", ())) for ex in chapter["exercises"]}


def _rows(
    name: str, graded: dict[str, float], results: dict, said: dict | None = None
) -> list[GradeRow]:
    """The rows of a file whose values were scored (``results`` of :func:`run_isolated`);
    ``said`` (:func:`_shown`) names the hidden messages the student may read."""
    tests = {t["name"]: t for t in results["tests"]}
    refused = "; ".join(f"{k}: {v}" for k, v in sorted(results["refused"].items()))
    rows = []
    for ex, pts in graded.items():
        test = tests.get(ex)
        if test is None:
            rows.append(GradeRow(name, ex, 0, pts, "the grader has no test for this exercise"))
            continue
        message, shown = _messages(test, (said or {}).get(ex, ()))
        if refused and message != "ok":
            message = f"{message} (values not graded: {refused})"[:400]
            shown = f"{shown} (values not graded: {refused})"[:400]
        if results["claims"].get(ex) and not test["public_passed"]:
            review = (
                "REVIEW: the notebook's own check reported this exercise as passed, but its "
                "public test fails when run outside the student's kernel (was the grader "
                "changed in the notebook?); "
            )
            message, shown = review + message, review + shown
        points, most = float(test["score"]), float(test["max_score"])
        rows.append(GradeRow(name, ex, points, most, message, shown=shown))
    return rows


def teacher_rows(
    assignments: Path, chapter: dict, timeout: float = 300, sandboxed: bool = True
) -> list[GradeRow]:
    """How the chapter's teacher notebook grades, as a submission's rows would say it.

    From the run that gives the chapter's data (:func:`prepare`, kept while the files stay
    the same), so checking that the teacher notebook earns every point costs no second run.
    """
    ready = prepare(Path(assignments), chapter, timeout, None, sandboxed)
    if ready.teacher is None:
        raise FileNotFoundError(f"{chapter['chapter']}: no teacher notebook")
    graded = {ex["exercise"]: ex["points"] for ex in chapter["exercises"] if ex["graded"]}
    rows = _rows(chapter.get("teacher", ""), graded, ready.teacher, _shown(chapter))
    return attach_errors(rows, ready.teacher.get("errors", []))


def choose(
    entries: list[untrusted.Submitted], assignments: list[str], pick: tuple[str, ...] = ()
) -> dict[int, str]:
    """Which entries are not graded, and why: one file per student and assignment.

    ``assignments`` are the entries' assignment names (``""`` for none). The student id comes
    from the path alone (:func:`.gradebook.student_id`). Two ids that make the same file name
    (:func:`.untrusted.file_name`) would share a student's feedback: the one
    that is its own file name keeps it, the others are refused. Of a student's files for one
    assignment, the one named in ``pick`` is graded, else the newest (then the last by name);
    the others are listed, not graded, so many guesses earn no more than one.
    """
    refused: dict[int, str] = {}
    ids = [student_id(e.name, a) for e, a in zip(entries, assignments, strict=True)]
    by_file: dict[str, set[str]] = defaultdict(set)
    for student in ids:
        by_file[untrusted.file_name(student)].add(student)
    for k, student in enumerate(ids):
        same = by_file[untrusted.file_name(student)] - {student}
        if same and untrusted.file_name(student) != student:
            others = ", ".join(repr(o) for o in sorted(same))
            refused[k] = (
                f"not graded: the student id {student!r} is the same as {others} once made a "
                "file name; rename its folder or file"
            )
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    for k, entry in enumerate(entries):
        if entry.data is not None and assignments[k] and k not in refused:
            groups[(ids[k], assignments[k])].append(k)
    wanted = {untrusted.text(p) for p in pick}
    for (student, assignment), found in groups.items():
        if len(found) < 2:
            continue
        named = [k for k in found if entries[k].name in wanted]
        why = "the file named by --pick" if named else "the newest"
        keep = (
            named[-1] if named else max(found, key=lambda k: (entries[k].mtime_ns, entries[k].name))
        )
        for k in found:
            if k != keep:
                refused[k] = (
                    f"not graded: {student} handed in {len(found)} files for {assignment}, and "
                    f"{entries[keep].name} ({why}) is graded; to grade another, name it with --pick"
                )
    return refused


def summarise(rows: list[GradeRow], problems: dict[str, str]) -> str:
    """Points per student file, mean score per exercise, and the files with a problem."""
    by_file, by_exercise = defaultdict(list), defaultdict(list)
    for row in rows:
        by_file[row.student_file].append(row)
        if row.exercise:
            by_exercise[row.exercise].append(row)
    width = max([len(k) for k in [*by_file, *by_exercise]] + [10])
    lines = [f"Grades of {len(by_file)} submitted file(s)", "", "Per student file (points):"]
    for name, mine in by_file.items():
        got, total = sum(r.points for r in mine), sum(r.max_points for r in mine)
        lines.append(f"  {untrusted.text(name):<{width}}  {got:g}/{total:g}")
    lines += ["", "Per exercise (full marks / files):"]
    for label, mine in by_exercise.items():
        full = sum(r.points >= r.max_points > 0 for r in mine)
        lines.append(f"  {label:<{width}}  {full}/{len(mine)}  ({full / len(mine):.0%})")
    if problems:
        lines += ["", "Problems:"]
        lines += [
            f"  {untrusted.text(name)}: {untrusted.text(message)}"
            for name, message in problems.items()
        ]
    return "\n".join(lines) + "\n"


def grade_submissions(
    submissions: Path | str,
    assignments: Path | str,
    out: Path | str,
    timeout: float = 300,
    jobs: int = 1,
    limits: Limits | None = None,
    unsafe_no_sandbox: bool = False,
    pick: tuple[str, ...] | list[str] = (),
    text_points: Path | str | None = None,
    lms: str | None = None,
) -> tuple[list[GradeRow], str]:
    """Grade every file in ``submissions``; write this run's folder under ``out/runs``.

    ``grades.csv``, ``gradebook.csv``, ``details.csv``, ``summary.txt``, the students' feedback
    and the teacher's notes: see :mod:`.gradebook`; the latest run's CSVs are copied to ``out``.

    Parameters
    ----------
    submissions : path
        A folder of submitted files (searched recursively) or a single file.
    assignments : path
        The output of ``make assignments`` (``manifest.json`` and ``autograder/*.zip``).
    out : path
        Output folder.
    timeout : float
        Time limit in seconds for grading one notebook (otter's start-up included).
    jobs : int
        How many notebooks to grade at the same time.
    limits : Limits, optional
        Resource limits of each submission's run; :class:`Limits` () by default.
    unsafe_no_sandbox : bool
        Run the students' code without a sandbox when none can be made (with the teacher's
        rights: a notebook can then read, change or kill anything the teacher can).
    pick : paths, optional
        Files (relative to ``submissions``) to grade where a student handed in more than one
        for an assignment; by default the newest is graded and the others are listed.
    text_points : path, optional
        The teacher's points for text answers (``text-points-template.csv`` filled in,
        :func:`.answers.read_points`); checked against the submissions before any runs
        (:class:`.answers.PointsError`).
    lms : {"canvas", "moodle"}, optional
        Also write the gradebook in that platform's import format (:mod:`.lms`).

    Returns
    -------
    rows, summary
        The CSV rows and the summary text.
    """
    submissions, out = Path(submissions), Path(out)
    chapters = load_manifest(Path(assignments))
    if not submissions.exists():
        raise FileNotFoundError(f"no submissions folder {submissions}")
    # every file read once, as data: links and anything but regular files refused unread
    entries = untrusted.collect(submissions)
    names = [entry.name for entry in entries]
    notebooks = [read_notebook(e.data)[0] if e.data is not None else None for e in entries]
    of = [chapter_of(Path(n), nb, chapters) for n, nb in zip(names, notebooks, strict=True)]
    assigned = [Path(c["chapter"]).name if c else "" for c in of]
    extra = choose(entries, assigned, tuple(pick))
    marks = {}
    if text_points is not None:  # a bad points file stops the run before any notebook runs
        marks = read_points(text_points, TextAnswers(Path(assignments), chapters))
        counted = {
            (student_id(e.name, a), a)
            for k, (e, a) in enumerate(zip(entries, assigned, strict=True))
            if e.data is not None and a and k not in extra
        }
        check_points(text_points, marks, counted)
    sandboxed = not unsafe_no_sandbox
    if sandboxed and (why := sandbox.probe()):
        raise NoSandbox(
            f"no sandbox for the students' code ({why}); install bubblewrap, or pass "
            f"{sandbox.UNSAFE_FLAG} (make grade UNSAFE_NO_SANDBOX=1) to run it with your rights"
        )
    if sandboxed:
        check_private(Path(assignments))
    if jobs > 1 and (why := groups_available()):
        raise Unbounded(
            f"--jobs {jobs} needs a cgroup per submission to keep one notebook's memory, "
            f"processes and CPU from its neighbours' ({why}): grade with --jobs 1, or as root"
        )

    # this run's folder (see .gradebook)
    written = GradeFiles(out, assignments, chapters, marks, lms)
    try:
        # read before any submission runs: a submission could rewrite the zips or the grader
        used = {id(c) for k, c in enumerate(of) if c is not None and k not in extra}
        prepared = {
            c["autograder"]: prepare(Path(assignments), c, max(timeout, 300), None, sandboxed)
            for c in chapters
            if id(c) in used
        }
        modules = sorted({m for p in prepared.values() for m in p.modules})
        grader = fingerprint(modules or None)
    except BaseException as exc:  # a teacher notebook that does not run: nothing current
        written.fail(f"{type(exc).__name__}: {exc}")
        raise
    # every submission checks the same files, whatever its chapter's scorer loads
    prepared = {k: p._replace(modules=modules) for k, p in prepared.items()}

    def grade(k: int) -> Graded:
        entry = entries[k]
        if entry.data is None:  # refused unread (a link, a FIFO, too large)
            return Graded([GradeRow(entry.name, "", 0, 0, entry.problem)], entry.problem)
        if k in extra:  # another file of the same student and assignment, or a clashing id
            return Graded([GradeRow(entry.name, "", 0, 0, extra[k])], extra[k])
        try:
            return grade_notebook(
                Path(entry.name),
                chapters,
                Path(assignments),
                timeout,
                entry.name,
                limits,
                prepared,
                grader,
                sandboxed,
                entry.data,
            )
        except Exception as exc:  # this submission's problem, never the others'
            problem = f"the grader failed on this file ({type(exc).__name__}: {exc})"[:300]
            return Graded([GradeRow(entry.name, "", 0, 0, problem)], problem)

    rows: list[GradeRow] = []
    problems: dict[str, str] = {}
    try:
        # each notebook runs in its own processes; threads only wait for them
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            graded = zip(range(len(entries)), pool.map(grade, range(len(entries))), strict=True)
            for k, (mine, problem) in graded:
                name = entries[k].name
                try:  # one file's rows can never end the run
                    written.add(name, entries[k].data, mine, k not in extra)
                except Exception as exc:
                    problem = f"its rows could not be written ({type(exc).__name__}: {exc})"
                    mine = [GradeRow(name, "", 0, 0, problem)]
                    written.add(name, None, mine)
                rows += mine
                if problem:
                    problems[name] = problem
        summary = summarise(rows, problems)
        written.finish(summary)
    except BaseException as exc:  # interrupted, or the grader itself broke: nothing current
        written.fail(f"{type(exc).__name__}: {exc}")
        raise
    return rows, summary
