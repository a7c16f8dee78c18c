"""Quick self-checks: a question in the chapter source that the page grades on the spot.

In a chapter (MyST)::

    ```{self-check} Which margin of the matrix is the classifier's bias?
    :choices: the row sums | the column sums | the diagonal
    :answer: the row sums

    Rows are predictions, so a row sum counts how often a class is predicted.
    ```

or, for a number, ``:answer: 0.75`` with an optional ``:tolerance: 0.005`` and no
``:choices:``. The question is the directive's argument, the explanation its body
(any MyST: math, roles, links). ``_static/selfcheck.js`` turns the block into a
radio group or a number box with a *Check* button and an ``aria-live`` verdict that
shows the explanation; without JavaScript the explanation and the answer sit in a
folded ``<details>``. A wrong ``:answer:`` (not one of the choices, not a number) is a
build error, so every self-check has a right answer.
"""

from __future__ import annotations

import html
import json
import math
from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective


class self_check(nodes.General, nodes.Element):
    """The whole self-check: question, answer data and the folded explanation."""


class self_check_explanation(nodes.General, nodes.Element):
    """The explanation, folded in a ``<details>`` until the reader checks an answer."""


def parse_choices(text: str) -> list[str]:
    """``"a | b | c"`` -> ``["a", "b", "c"]`` (at least two non-empty choices)."""
    choices = [c.strip() for c in text.split("|")]
    if len(choices) < 2 or not all(choices):
        raise ValueError(f"choices must be at least two non-empty texts split by '|'; got {text!r}")
    return choices


def answer_key(options: dict) -> dict:
    """The data the page grades with; raises ValueError for an answer that cannot be right."""
    answer = options.get("answer", "").strip()
    if not answer:
        raise ValueError("a self-check needs an :answer:")
    if "choices" in options:
        choices = parse_choices(options["choices"])
        if answer not in choices:
            raise ValueError(f"the answer {answer!r} is not one of the choices {choices}")
        return {"kind": "choice", "choices": choices, "answer": answer}
    try:
        value = float(answer)
        tolerance = float(options.get("tolerance", "0"))
    except ValueError:
        raise ValueError(
            f"a self-check without :choices: needs a number as :answer:; got {answer!r}"
        ) from None
    if not (math.isfinite(value) and math.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"answer and tolerance must be finite, tolerance >= 0; got {options}")
    return {"kind": "number", "answer": value, "tolerance": tolerance, "shown": answer}


class SelfCheck(SphinxDirective):
    """The ``self-check`` directive (see the module docstring)."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec: ClassVar[dict] = {
        "choices": directives.unchanged,
        "answer": directives.unchanged_required,
        "tolerance": directives.unchanged,
    }

    def run(self):
        try:
            key = answer_key(self.options)
        except ValueError as err:
            raise self.error(f"self-check {self.arguments[0]!r}: {err}") from None
        node = self_check(key=key)
        self.set_source_info(node)
        question = nodes.paragraph(classes=["clf-question"])
        question += self.parse_inline(self.arguments[0], lineno=self.lineno)[0]
        node += question
        explanation = self_check_explanation(answer=key.get("shown", key["answer"]))
        explanation += self.parse_content_to_nodes()
        node += explanation
        return [node]


def visit_self_check(self, node):
    data = html.escape(json.dumps(node["key"], ensure_ascii=False), quote=True)
    self.body.append(f'<div class="clf-self-check" role="group" data-check="{data}">')


def depart_self_check(self, node):
    self.body.append("</div>")


def visit_explanation(self, node):
    answer = html.escape(str(node["answer"]))
    self.body.append(
        f'<details class="clf-explanation"><summary>Answer</summary><p>'
        f"<strong>Answer: {answer}.</strong></p>"
    )


def depart_explanation(self, node):
    self.body.append("</details>")


def _skip(self, node):
    raise nodes.SkipNode


def setup(app):
    app.add_node(
        self_check,
        html=(visit_self_check, depart_self_check),
        latex=(_skip, None),
        text=(_skip, None),
    )
    app.add_node(
        self_check_explanation,
        html=(visit_explanation, depart_explanation),
        latex=(_skip, None),
        text=(_skip, None),
    )
    app.add_directive("self-check", SelfCheck)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
