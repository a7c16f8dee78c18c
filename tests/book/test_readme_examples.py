"""Every example of the README and of the API reference's tour runs, and prints what it shows.

A Python block followed by ``prints`` and a ``text`` block must print exactly that text; a
command line of the README must be one that the command's own parser accepts.
"""

from __future__ import annotations

import contextlib
import io
import re

import pytest
from chapter_text import BLOCK, ROOT, command_lines

from clfmetrics.io._cli import _parser

PAGES = ["README.md", "chapters/api/index.md"]
SHOWN = re.compile(r"\n\nprints[^\n]*\n\n```text\n(.*?)```", re.S)


def examples(page: str) -> list[tuple[str, str | None]]:
    """Each Python block of ``page`` with the output shown right after it (or None)."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = []
    for block in BLOCK.finditer(text):
        if block.group(1) == "python":
            shown = SHOWN.match(text, block.end())
            found.append((block.group(2), shown.group(1) if shown else None))
    return found


CASES = [(page, i, code, shown) for page in PAGES for i, (code, shown) in enumerate(examples(page))]


@pytest.mark.parametrize(
    "page, index, code, shown", CASES, ids=[f"{page}-{i + 1}" for page, i, _, _ in CASES]
)
def test_every_example_runs_and_prints_what_it_shows(page, index, code, shown):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{page}, example {index + 1}", "exec"), {})
    if shown is not None:
        assert out.getvalue() == shown


def test_the_pages_hold_their_examples():
    """The README's short example and the tour's bands, each with its output, are there."""
    readme = examples("README.md")
    assert len(readme) >= 1 and readme[0][1] is not None, "the README's example shows its output"
    assert "cm.confusion_matrix(" in readme[0][0]
    bands = [shown for code, shown in examples("chapters/api/index.md") if "cm.roc_band(" in code]
    assert len(bands) == 1 and bands[0] is not None, "the tour's bands example and its output"
    assert "[" in bands[0] and "clopper-pearson" in bands[0]


def test_the_readmes_command_line_is_accepted_by_the_parser():
    lines = command_lines((ROOT / "README.md").read_text(encoding="utf-8"))
    assert lines, "the README shows the command line"
    for args in lines:
        parsed = _parser().parse_args(args)
        assert parsed.command == "report" and parsed.truth and parsed.pred
