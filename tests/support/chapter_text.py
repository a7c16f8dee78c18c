"""The chapters' text as the claim tests read it, and the sources it was compared with."""

from __future__ import annotations

from pathlib import Path

from chapter_runner import ROOT

SEEDS = Path("/work/shared/seeds")


def chapter(stem: str) -> str:
    """A chapter's source with its line breaks folded, so phrases can span lines."""
    return " ".join((ROOT / "chapters" / f"{stem}.md").read_text().split())


def seed(prefix: str) -> str | None:
    """The source text, or None where the sources are not on disk (the chapter checks still run)."""
    found = sorted(SEEDS.glob(f"{prefix}_*.txt")) if SEEDS.is_dir() else []
    return found[0].read_text() if found else None
