"""The unit of every rendering of a report: a titled table and notes."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Section:
    """One titled block: a table of formatted cells and notes below it."""

    title: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
