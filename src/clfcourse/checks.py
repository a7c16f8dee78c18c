"""What a student reads of the checks, and the markers an exercise's author puts in them.

The student notebook opens with :data:`INTRO`: public checks catch common slips, the grade
comes from hidden tests. Each public check runs as :func:`public_check` writes it: when it
fails, the notebook shows its own message first, in one line, above otter's report, and a
name of the answer that is not defined yet says "not answered yet" instead of a
``NameError``.

An ``assert`` of a ``hidden-check`` cell (or of a teacher's hidden-test file) may carry one
of two markers, as a comment on any of its lines (see ``chapters/teaching.md``):

``# shown``
    Its message reveals no solution: when it fails, the student's feedback says
    ``test N (hidden): <its message>`` instead of ``test N (hidden): failed``.
``# stated``
    It tests a condition the exercise's task states, so it reveals nothing: its message is
    shown too, and the public check may test the same condition (:func:`stated_problems`
    says when a marked assertion does not qualify; the book's tests hold every chapter to it).
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from dataclasses import dataclass

#: The first cell of every student notebook.
INTRO = """\
**How this notebook is checked.** Each graded exercise has an answer cell, where you replace
the `...` with your code, and below it a cell `grader.check("...")`. That *public check* runs
on your answer at once and catches common slips: a wrong shape or type, a value out of range,
a condition that the task states. When it fails, its first line says what to fix. Passing it
is **not** your grade: the grade comes from *hidden tests*, which run after you hand the
notebook in and test the answer itself. Run the notebook's cells in order from the top (Run
All) before you check an exercise; an exercise you have not answered yet says so."""

#: A marker: the whole comment (``# shown``, ``# stated``) at the end of a line.
_MARK = re.compile(r"#\s*(shown|stated)\s*$")


@dataclass(frozen=True)
class Marked:
    """An ``assert`` of a check cell, its source lines and its markers."""

    node: ast.Assert
    lines: tuple[int, int]
    markers: frozenset[str]

    @property
    def message(self) -> str | None:
        """Its message when that is a plain string literal, else None."""
        msg = self.node.msg
        return msg.value if isinstance(msg, ast.Constant) and isinstance(msg.value, str) else None


def assertions(source: str) -> list[Marked]:
    """Every top-level ``assert`` of a check cell, with the markers on its lines."""
    try:
        tree = ast.parse(source)
        comments = [
            (tok.start[0], m[1])
            for tok in tokenize.generate_tokens(io.StringIO(source).readline)
            if tok.type == tokenize.COMMENT and (m := _MARK.search(tok.string))
        ]
    except (SyntaxError, tokenize.TokenError):
        return []
    found = []
    for node in tree.body:
        if isinstance(node, ast.Assert):
            span = (node.lineno, node.end_lineno or node.lineno)
            marks = frozenset(m for line, m in comments if span[0] <= line <= span[1])
            found.append(Marked(node, span, marks))
    return found


def shown_messages(sources: list[str], where: str = "") -> list[str]:
    """The messages that the student's feedback may show of these hidden checks: those of the
    assertions marked ``# shown`` or ``# stated``. A marked assertion whose message is not a
    plain string (none, or an f-string) is refused: only the author's own words are shown."""
    shown = []
    for source in sources:
        for a in assertions(source):
            if not a.markers:
                continue
            if a.message is None:
                raise ValueError(
                    f"{where}: the assertion on line {a.lines[0]} is marked "
                    f"# {min(a.markers)}, but its message is not a plain string"
                )
            if a.message not in shown:
                shown.append(a.message)
    return shown


def answer_names(sources: list[str]) -> list[str]:
    """The names an exercise's solution cells bind at their top level, in order."""
    names: list[str] = []

    def bind(target: ast.AST) -> None:
        if isinstance(target, ast.Name) and target.id not in names:
            names.append(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element.value if isinstance(element, ast.Starred) else element)

    for source in sources:
        try:
            body = ast.parse(source).body
        except SyntaxError:
            continue
        for node in body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    bind(target)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.For):
                bind(node.target)
            elif isinstance(node, ast.FunctionDef | ast.ClassDef):
                bind(ast.Name(node.name))
    return names


def _numbers(node: ast.AST) -> set[float]:
    return {
        float(c.value)
        for c in ast.walk(node)
        if isinstance(c, ast.Constant)
        and isinstance(c.value, int | float)
        and not isinstance(c.value, bool)
    }


#: Calls that compare their arguments for equality (an answer name among them is pinned).
_EQUALITY = {"isclose", "allclose", "array_equal", "array_equiv", "assert_allclose", "equal"}


def _pinned(test: ast.AST, answers: set[str]) -> list[str]:
    """The answer names that ``test`` compares for equality with something: a bare answer
    name (or an element of it) on one side of ``==``, ``!=``, ``in`` or an ``isclose``."""

    def bare(node: ast.AST) -> str | None:
        while isinstance(node, ast.Subscript | ast.Attribute):
            node = node.value
        return node.id if isinstance(node, ast.Name) and node.id in answers else None

    found = []
    for node in ast.walk(test):
        sides: list[ast.AST] = []
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn | ast.Is | ast.IsNot)
            for op in node.ops
        ):
            sides = [node.left, *node.comparators]
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in _EQUALITY:
                sides = list(node.args)
        found += [n for side in sides if (n := bare(side))]
    return found


def stated_problems(marked: Marked, task: str, answers: list[str]) -> list[str]:
    """Why an assertion marked ``# stated`` is no condition the task states (empty: it is).

    It may use no number that the task does not state (0, ±1 and tolerances up to 1e-6
    aside), compare with no string (a class or system name is an answer) and compare no
    answer name for equality (``x == ...``, ``np.isclose(x, ...)`` pin the answer itself); a
    property of the answer, such as ``delta_f1(m) > 0.4`` or ``accuracy(a) > accuracy(b)``,
    is what a task states.
    """
    stated = {float(x) for x in re.findall(r"(?<![\w.])\d+(?:\.\d+)?", task)}
    problems = [
        f"the number {x:g} is not in the task"
        for x in sorted(_numbers(marked.node) - stated)
        if x not in (0.0, 1.0, -1.0) and abs(x) > 1e-6
    ]
    strings = [
        c.value
        for c in ast.walk(marked.node.test)
        if isinstance(c, ast.Constant) and isinstance(c.value, str)
    ]
    problems += [f"it compares with the string {s!r}" for s in strings]
    problems += [f"it pins the answer {n}" for n in _pinned(marked.node.test, set(answers))]
    return problems


def stated(source: str, task: str, answers: list[str]) -> list[Marked]:
    """The assertions of a hidden check marked ``# stated`` that are conditions of the task."""
    return [
        a
        for a in assertions(source)
        if "stated" in a.markers and not stated_problems(a, task, answers)
    ]


def without_stated(source: str, task: str, answers: list[str]) -> str:
    """A hidden check's source with the stated conditions (:func:`stated`) blanked out: what
    only the hidden check knows, which no public check may reveal."""
    lines = source.splitlines()
    for a in stated(source, task, answers):
        for k in range(a.lines[0] - 1, a.lines[1]):
            lines[k] = ""
    return "\n".join(lines)


def public_check(source: str, label: str, answers: list[str]) -> str:
    """A public check as the student's notebook and the autograder run it.

    The check itself runs unchanged. When it fails in a notebook, its own message is shown
    first, in one line (otter's report, with the traceback, follows); a name of the answer
    that is not defined says "not answered yet", another missing name asks to run the cells
    above. Outside a notebook (the grader) nothing is shown and the same error is raised.
    """
    head = f"✗ {label}: "
    return "\n".join(
        [
            "try:",
            textwrap.indent(source.strip("\n"), "    "),
            "except Exception as _slip:",
            f"    _answers = {tuple(answers)!r}",
            "    _missing = _slip.name if isinstance(_slip, NameError) else None",
            "    if _missing in _answers:",
            "        _said = f'not answered yet: {_missing} is not defined (replace the ... in '",
            "        _said += 'its answer cell and run that cell)'",
            "    elif _missing:",
            "        _said = f'{_missing} is not defined: run the cells above first'",
            "    elif isinstance(_slip, AssertionError):",
            "        _said = str(_slip) or 'AssertionError'",
            "    else:",
            "        _said = f'{type(_slip).__name__}: {_slip}'",
            "    _ipython = __import__('sys').modules.get('IPython')",
            "    _shell = _ipython.get_ipython() if _ipython is not None else None",
            "    if _shell is not None:",
            f"        _shell.display_pub.publish({{'text/plain': {head!r} + _said}})",
            "    try:",
            "        raise (NameError(_said) if _missing else _slip) from None",
            "    finally:",
            "        del _answers, _missing, _said, _ipython, _shell",
        ]
    )
