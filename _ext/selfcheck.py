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

This module is the Sphinx extension (the directive and ``setup``). Its parts:
``selfcheck_parse.py`` reads a directive into a :class:`Spec` (:func:`parse`,
:func:`read_blocks`), ``selfcheck_check.py`` checks the answer and the options
(:func:`evaluate`), ``selfcheck_html.py`` holds the nodes and their HTML.
"""

from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import directives
from selfcheck_check import OPTIONS, SelfCheckError, Spec, evaluate
from selfcheck_html import (
    NODES,
    selfcheck,
    selfcheck_answer,
    selfcheck_choice,
    selfcheck_legend,
    selfcheck_number,
    skip,
)
from selfcheck_parse import parse, read_blocks
from sphinx.errors import ExtensionError
from sphinx.util.docutils import SphinxDirective

#: What the tests and the book's pages use of the parts, from the extension's one name.
__all__ = ["SelfCheckError", "Spec", "evaluate", "parse", "read_blocks", "setup"]

OPTION_SPEC = dict.fromkeys(OPTIONS, directives.unchanged)


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
    for node, visit, depart in NODES:
        app.add_node(
            node, html=(visit, depart), latex=(skip, None), text=(skip, None), man=(skip, None)
        )
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
