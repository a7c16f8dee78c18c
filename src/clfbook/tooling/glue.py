"""``glue`` for the chapters: myst-nb's, and the values kept in the kernel for JupyterLab.

The book pastes a glued value into the prose (``{glue:text}`ch04-lop-big:.3f```) at build
time, from the executed notebook's outputs. A chapter opened in JupyterLab has no such pass:
its contents manager (:mod:`~clfbook.tooling.lab_contents`) rewrites each glue role into
``jupyterlab-myst``'s inline expression ``{eval}`glue.text("ch04-lop-big", ".3f")```. The
expression is evaluated in the chapter's kernel when its markdown cell runs (Run All runs
them all), so ``glue`` here is :func:`myst_nb.glue` that also keeps what it glued, by name:

    from clfbook.tooling.glue import glue

    glue("ch04-lop-big", f1_of_averages(lopsided), display=False)  # as myst_nb.glue
    glue.text("ch04-lop-big", ".3f")  # '0.505', as the page shows it

A value is looked up by its name, not recomputed, so a variable the chapter reassigns later
cannot change it. Until its cell has run the text says so (:func:`pending`).
"""

from __future__ import annotations

from ast import literal_eval

__all__ = ["Glue", "glue", "glue_text", "pending"]


def pending(name: str) -> str:
    """What a glued value shows before the cell that computes it has run."""
    return f"[{name}: run the cells to see it]"


def glue_text(text: str, spec: str = "") -> str:
    """The text ``{glue:text}`name:spec``` shows for a value whose ``text/plain`` is ``text``.

    The rule of ``myst_nb.core.variables.format_plain_text``, which the book's build uses
    (``tests/book/test_lab_markup.py`` checks that the two agree): importing that module
    takes the kernel seconds (it loads myst-nb's renderer), this is a dozen lines.
    """
    try:
        value = literal_eval(text)  # removes a string's quotes
    except (SyntaxError, ValueError):
        value = text
    if spec == "":
        return str(value)
    kind = spec[-1]
    if kind == "s":
        value = str(value)
    elif kind in "bcdoxX":
        value = int(value)
    elif kind in "eEfFgGn%":
        value = float(value)
    return format(value, spec)


class Glue:
    """:func:`myst_nb.glue` that keeps each glued value's display data, by name."""

    def __init__(self) -> None:
        self.data: dict[str, dict] = {}

    def __call__(self, name: str, variable, display: bool = True) -> None:
        """Glue ``variable`` as ``name``: exactly :func:`myst_nb.glue`, and keep it."""
        from IPython.core.formatters import format_display_data
        from myst_nb import glue as myst_glue

        myst_glue(name, variable, display)
        self.data[name] = format_display_data(variable)[0]

    def text(self, name: str, spec: str = "") -> str:
        """What ``{glue:text}`name:spec``` shows on the page, or :func:`pending`."""
        data = self.data.get(name, {})
        return glue_text(data["text/plain"], spec) if "text/plain" in data else pending(name)

    def markdown(self, name: str) -> str:
        """What ``{glue:md}`name``` shows: the value's Markdown, or :func:`pending`."""
        data = self.data.get(name, {})
        if "text/markdown" in data:
            return str(data["text/markdown"]).strip()
        return self.text(name)


#: The chapters' ``glue``: ``from clfbook.tooling.glue import glue``.
glue = Glue()
