"""The HTML of a self-check: its docutils nodes and how the HTML writer renders them.

A ``<form>`` with a ``<fieldset>`` whose ``<legend>`` is the question's first paragraph,
labelled radio buttons or a labelled text input, a submit button and an ``aria-live``
region for the verdict, then the folded answer (``_static/selfcheck.js`` grades it).
"""

from __future__ import annotations

from docutils import nodes


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


def skip(self, node):
    """Writers other than HTML leave the form out."""
    raise nodes.SkipNode


#: Each node with its HTML visitor and departure; other writers skip the whole form.
NODES = [
    (selfcheck, visit_selfcheck, depart_selfcheck),
    (selfcheck_legend, visit_legend, depart_legend),
    (selfcheck_choice, visit_choice, depart_choice),
    (selfcheck_number, visit_number, depart_number),
    (selfcheck_answer, visit_answer, depart_answer),
]
