"""Quick self-checks: short questions the page grades on the spot (``_static/selfcheck.js``).

A chapter writes a question next to the text it checks::

    ```{selfcheck}
    :answer: cm.accuracy([[3, 1], [1, 5]])
    :digits: 2
    :feedback: Accuracy is the diagonal over the total: (3 + 5) / 10.

    What is the accuracy of the matrix with rows (3, 1) and (1, 5)?
    ```

    ```{selfcheck}
    :feedback: Rows are predictions and columns truth, so row 1, column 2.

    Which cell counts the items predicted *neutral* whose true class is *positive*?

    - [ ] `m[2, 1]`
    - [x] `m[1, 2]`
    ```

The content is the question (MyST); a trailing list of ``- [ ]`` / ``- [x]`` items makes
it a multiple-choice question with exactly one ``[x]``. Without a list the question takes
a number: ``:answer:`` is a Python expression evaluated when the book is built, with only
``cm`` (``clfmetrics``) and ``np`` (``numpy``) in scope and no builtins, so the answer is
computed by the library like every other number of the book, never typed. ``:digits:``
(default 3) is how many decimals the reader gives and the answer shows; ``:tolerance:``
is how far a reply may be from the exact value (default half a unit of the last digit:
the reply must be the answer rounded to those decimals).
``:feedback:`` (required) explains the answer; the page shows it once the reply is right,
and the ``<details>`` *Show the answer* holds it too (without JavaScript, that is all).

The HTML is a ``<form>`` with a ``<fieldset>`` whose ``<legend>`` is the question's first
paragraph, labelled radio buttons or a labelled text input, a submit button and an
``aria-live`` region for the verdict. Any mistake in a directive is a build error naming
the document, the line and the problem.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

CHOICE = re.compile(r"^- \[(?P<mark>[ xX])\] (?P<text>.*)$")
NAMESPACE_HELP = "only `cm` (clfmetrics) and `np` (numpy) are in scope, no builtins"


class SelfCheckError(ValueError):
    """A self-check directive that cannot be built (the message says why)."""


@dataclass
class Spec:
    """One self-check, parsed from its directive: what the page needs to grade it."""

    question: list[str]
    feedback: str
    choices: list[str] = field(default_factory=list)
    correct: int | None = None
    answer: float | None = None
    expression: str | None = None
    digits: int = 3
    tolerance: float | None = None

    @property
    def kind(self) -> str:
        return "choice" if self.choices else "number"

    def shown_answer(self) -> str:
        return f"{self.answer:.{self.digits}f}"


def evaluate(expression: str) -> float:
    """The value of an ``:answer:`` expression, with only ``cm`` and ``np`` in scope."""
    import numpy as np

    import clfmetrics as cm

    try:
        value = eval(expression, {"__builtins__": {}}, {"cm": cm, "np": np})
    except Exception as error:  # any failure of the author's expression is reported
        raise SelfCheckError(
            f":answer: {expression!r} failed ({type(error).__name__}: {error}); {NAMESPACE_HELP}"
        ) from error
    try:
        number = float(np.asarray(value, dtype=float))
    except (TypeError, ValueError) as error:
        raise SelfCheckError(
            f":answer: {expression!r} gave {value!r}, not a single number"
        ) from error
    if not math.isfinite(number):
        raise SelfCheckError(f":answer: {expression!r} gave {number}, not a finite number")
    return number


def _nonnegative_int(name: str, text: str) -> int:
    if not re.fullmatch(r"\d+", text.strip()):
        raise SelfCheckError(f":{name}: must be a whole number >= 0, not {text!r}")
    return int(text)


def parse(options: dict[str, str], content: list[str]) -> Spec:
    """Check a directive's options and content and return its :class:`Spec`.

    ``options`` maps option names to their raw text; ``content`` is the directive's body,
    line by line. Raises :class:`SelfCheckError` with a message for the author.
    """
    unknown = sorted(set(options) - set(OPTION_SPEC))
    if unknown:
        raise SelfCheckError(f"unknown option(s) {unknown}; allowed: {sorted(OPTION_SPEC)}")
    feedback = (options.get("feedback") or "").strip()
    if not feedback:
        raise SelfCheckError(":feedback: is required: a sentence that explains the answer")
    lines = list(content)
    while lines and not lines[-1].strip():
        lines.pop()
    choices, marks = [], []
    while lines and CHOICE.match(lines[-1]):
        match = CHOICE.match(lines.pop())
        choices.insert(0, match["text"].strip())
        marks.insert(0, match["mark"] != " ")
    question = lines
    while question and not question[-1].strip():
        question.pop()
    if not any(line.strip() for line in question):
        raise SelfCheckError("the question is missing: write it as the directive's content")
    if any(line.lstrip().startswith("- [") for line in question):
        raise SelfCheckError(
            "choices must form one list at the end, one `- [ ] text` or `- [x] text` a line"
        )
    spec = Spec(question=question, feedback=feedback)
    if choices:
        if "answer" in options or "tolerance" in options or "digits" in options:
            raise SelfCheckError(
                "a multiple-choice question takes no :answer:, :digits: or :tolerance: "
                "(mark the right choice `- [x]`)"
            )
        if len(choices) < 2:
            raise SelfCheckError("a multiple-choice question needs at least two choices")
        if sum(marks) != 1:
            raise SelfCheckError(f"exactly one choice must be marked `- [x]`, found {sum(marks)}")
        if not all(choices):
            raise SelfCheckError("a choice is empty")
        spec.choices, spec.correct = choices, marks.index(True)
        return spec
    expression = (options.get("answer") or "").strip()
    if not expression:
        raise SelfCheckError(
            "a question without choices needs :answer: (an expression computing the "
            "number; " + NAMESPACE_HELP + ") or a `- [x]` list of choices"
        )
    spec.expression = expression
    spec.answer = evaluate(expression)
    if "digits" in options:
        spec.digits = _nonnegative_int("digits", options["digits"])
        if spec.digits > 6:
            raise SelfCheckError(f":digits: must be at most 6, not {spec.digits}")
    if "tolerance" in options:
        try:
            spec.tolerance = float(options["tolerance"])
        except ValueError:
            raise SelfCheckError(
                f":tolerance: must be a number, not {options['tolerance']!r}"
            ) from None
        if not (math.isfinite(spec.tolerance) and spec.tolerance >= 0):
            raise SelfCheckError(f":tolerance: must be >= 0, not {options['tolerance']!r}")
    else:
        spec.tolerance = 0.5 * 10.0**-spec.digits
    return spec


FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,}|:{3,})(?P<info>.*)$")


def read_blocks(text: str) -> list[tuple[int, dict[str, str], list[str]]]:
    """Every ``{selfcheck}`` block of a MyST source: (line number, options, content).

    For the tests, which check the chapter sources without building them. A block shown
    inside another fence (an example in a code block) is not a self-check.
    """
    blocks, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        start, fence, body = i + 1, match["fence"], []
        i += 1
        while i < len(lines) and lines[i].rstrip() != fence:
            body.append(lines[i])
            i += 1
        i += 1
        if match["info"].strip() != "{selfcheck}":
            continue
        options = {}
        while body and body[0].startswith(":"):
            key, _, value = body.pop(0)[1:].partition(":")
            options[key.strip()] = value.strip()
        blocks.append((start, options, body))
    return blocks


# --- docutils nodes and their HTML -------------------------------------------------------


class selfcheck(nodes.General, nodes.Element):
    """The form; attributes: kind, ident, correct or answer/tolerance/digits."""


class selfcheck_legend(nodes.General, nodes.TextElement):
    """The question's first paragraph, inside the fieldset's legend."""


class selfcheck_choice(nodes.General, nodes.TextElement):
    """One radio button and its label."""


class selfcheck_number(nodes.General, nodes.Element):
    """The labelled text input for a number."""


class selfcheck_answer(nodes.General, nodes.Element):
    """The folded answer and its explanation (also the page without JavaScript)."""


def _attr(value) -> str:
    return str(value).replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def visit_selfcheck(self, node):
    data = {"kind": node["kind"]}
    if node["kind"] == "choice":
        data["correct"] = node["correct"]
    else:
        data.update(
            answer=repr(node["answer"]), tolerance=repr(node["tolerance"]), digits=node["digits"]
        )
    attrs = " ".join(f'data-{k}="{_attr(v)}"' for k, v in data.items())
    ident = node["ident"]
    described = f' aria-describedby="{ident}-context"' if node.get("described") else ""
    self.body.append(
        # without JavaScript there is nothing to check: the button stays hidden, and a
        # reply sent with Enter only reloads the page at this question
        f'<form class="clf-selfcheck" id="{ident}" action="#{ident}" {attrs} novalidate>'
        f"<fieldset{described}>"
    )


def depart_selfcheck(self, node):
    self.body.append("</form>")


def visit_legend(self, node):
    self.body.append('<legend><span class="clf-sc-tag">Self-check.</span> ')


def depart_legend(self, node):
    self.body.append("</legend>")


def visit_choice(self, node):
    ident = f"{node['form']}-{node['index']}"
    self.body.append(
        f'<div class="clf-sc-choice"><input type="radio" id="{ident}" '
        f'name="{node["form"]}" value="{node["index"]}"><label for="{ident}">'
    )


def depart_choice(self, node):
    self.body.append("</label></div>")


def visit_number(self, node):
    ident = node["form"]
    digits = node["digits"]
    how = "a whole number" if digits == 0 else f"to {digits} decimal{'s' * (digits > 1)}"
    self.body.append(
        f'<div class="clf-sc-number"><label for="{ident}-input">Your answer ({how})</label> '
        f'<input type="text" inputmode="decimal" autocomplete="off" id="{ident}-input" '
        f'name="{ident}-input"></div>'
    )


def depart_number(self, node):
    pass


def visit_answer(self, node):
    # the answer is the form's last child: the question's fieldset ends here, the button
    # and the verdict come next, then the folded answer
    ident = node["form"]
    self.body.append(
        "</fieldset>"
        f'<div class="clf-sc-actions"><button type="submit" hidden>Check</button>'
        f'<div class="clf-sc-result" id="{ident}-result" role="status" aria-live="polite">'
        "</div></div>"
        '<details class="clf-sc-answer"><summary>Show the answer</summary>'
        '<div class="clf-sc-explain">'
    )


def depart_answer(self, node):
    self.body.append("</div></details>")


def _skip(self, node):
    raise nodes.SkipNode


# --- the directive --------------------------------------------------------------------------

OPTION_SPEC = {
    "answer": directives.unchanged,
    "digits": directives.unchanged,
    "tolerance": directives.unchanged,
    "feedback": directives.unchanged,
}


def _inline(paragraph: nodes.Element) -> list[nodes.Node]:
    return [child.deepcopy() for child in paragraph.children]


class SelfCheckDirective(SphinxDirective):
    """``{selfcheck}``: a question graded on the page; see the module docstring."""

    has_content = True
    option_spec = OPTION_SPEC

    def _parse_inline(self, text: str) -> list[nodes.Node]:
        """MyST inline markup of one line (a choice, the feedback) as inline nodes."""
        holder = nodes.Element()
        self.state.nested_parse(
            self.content.__class__([text], source=self.content.source(0)),
            self.content_offset,
            holder,
        )
        paragraphs = [n for n in holder.children if isinstance(n, nodes.paragraph)]
        if len(holder.children) != 1 or len(paragraphs) != 1:
            raise SelfCheckError(f"{text!r} must be one line of text (inline markup only)")
        return _inline(paragraphs[0])

    def run(self):
        source, line = self.get_source_info()
        try:
            spec = parse(
                {k: "" if v is None else v for k, v in self.options.items()},
                list(self.content),
            )
            return self._nodes(spec)
        except SelfCheckError as error:
            raise ExtensionError(f"{source}:{line}: {{selfcheck}}: {error}") from None

    def _nodes(self, spec: Spec) -> list[nodes.Node]:
        ident = f"selfcheck-{self.env.new_serialno('selfcheck') + 1}"
        form = selfcheck(kind=spec.kind, ident=ident)
        if spec.kind == "choice":
            form["correct"] = spec.correct
        else:
            form["answer"], form["tolerance"] = spec.answer, spec.tolerance
            form["digits"] = spec.digits
        question = nodes.Element()
        self.state.nested_parse(
            self.content.__class__(spec.question, source=self.content.source(0)),
            self.content_offset,
            question,
        )
        blocks = list(question.children)
        if not blocks or not isinstance(blocks[0], nodes.paragraph):
            raise SelfCheckError("the question must start with a paragraph (it is the legend)")
        form += selfcheck_legend("", "", *_inline(blocks[0]))
        if blocks[1:]:  # more of the question: a table, a formula, a second paragraph
            form["described"] = True
            context = nodes.container(ids=[f"{ident}-context"], classes=["clf-sc-context"])
            context += [b.deepcopy() for b in blocks[1:]]
            form += context
        answer = selfcheck_answer(form=ident)
        if spec.kind == "choice":
            for index, text in enumerate(spec.choices):
                form += selfcheck_choice("", "", *self._parse_inline(text), form=ident, index=index)
            shown = self._parse_inline(spec.choices[spec.correct])
        else:
            form += selfcheck_number(form=ident, digits=spec.digits)
            shown = [nodes.Text(spec.shown_answer())]
        answer += nodes.paragraph(
            "", "", nodes.strong("", "Answer: "), *shown, classes=["clf-sc-key"]
        )
        answer += nodes.paragraph("", "", *self._parse_inline(spec.feedback))
        form += answer
        return [form]


def setup(app):
    app.add_directive("selfcheck", SelfCheckDirective)
    for node, visit, depart in [
        (selfcheck, visit_selfcheck, depart_selfcheck),
        (selfcheck_legend, visit_legend, depart_legend),
        (selfcheck_choice, visit_choice, depart_choice),
        (selfcheck_number, visit_number, depart_number),
        (selfcheck_answer, visit_answer, depart_answer),
    ]:
        app.add_node(
            node, html=(visit, depart), latex=(_skip, None), text=(_skip, None), man=(_skip, None)
        )
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
