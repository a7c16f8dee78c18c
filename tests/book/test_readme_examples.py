"""The README's example of bands runs and prints what the README says it prints."""

from __future__ import annotations

import contextlib
import io
import re

from chapter_text import ROOT


def test_the_readmes_bands_example_prints_its_shown_output():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pairs = re.findall(
        r"```python\n((?:(?!```).)*?)```\n\nprints [^\n]*\n\n```text\n(.*?)```", readme, re.S
    )
    examples = [(code, shown) for code, shown in pairs if "cm.roc_band(" in code]
    assert len(examples) == 1, "the README's bands example and its output are missing"
    code, shown = examples[0]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown
    assert "[" in shown and "clopper-pearson" in shown
