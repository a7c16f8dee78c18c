"""The chapters' text as the claim tests read it, and the sources it was compared with."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from chapter_runner import ROOT

SEEDS = Path("/work/shared/seeds")
#: A fenced block of a Markdown page: its language and its text.
BLOCK = re.compile(r"```(\w+)\n(.*?)```", re.S)


def chapter(stem: str) -> str:
    """A chapter's source with its line breaks folded, so phrases can span lines."""
    return " ".join((ROOT / "chapters" / f"{stem}.md").read_text().split())


def seed(prefix: str) -> str | None:
    """The source text, or None where the sources are not on disk (the chapter checks still run)."""
    found = sorted(SEEDS.glob(f"{prefix}_*.txt")) if SEEDS.is_dir() else []
    return found[0].read_text() if found else None


def command_lines(text: str) -> list[list[str]]:
    """The arguments of every ``python -m clfmetrics`` line of the shell blocks in ``text``."""
    lines = []
    for block in BLOCK.finditer(text):
        if block.group(1) not in ("bash", "text"):
            continue
        for line in block.group(2).replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words[:3] == ["python", "-m", "clfmetrics"]:
                lines.append(words[3:])
    return lines
