"""Markdown, CSV and pandas renderings of a report's sections, and its text for many classes.

Labels and column names come from the user's file, so every rendering escapes
them for its own syntax:

- Markdown: ``\\ | * _ ` [ ]`` are backslash-escaped, ``& < >`` become entities
  (no raw HTML reaches a renderer), a line break becomes a space, so a label
  stays one cell of one row.
- CSV: written by the :mod:`csv` module (quoting), as one long table
  ``section,row,column,value``. A cell that starts with ``= + - @``, a tab or a
  carriage return and is not a plain number gets a leading ``'``, so that a
  spreadsheet shows it as text instead of running it as a formula (OWASP's
  advice against CSV injection); a negative number stays a number.
- pandas: the same long table as a DataFrame, numbers as floats (``undefined`` as
  NaN); nothing is neutralised there, the values are data.

The numbers are those of the text report, as printed (3 decimals); ``to_json``
has them at full precision.
"""

from __future__ import annotations

import csv
import io
import re

from ._section import Section

#: Above this many classes the text report shows the worst and the most common classes only.
TEXT_CLASSES = 30
#: How many classes each of the two short tables shows.
TOP_K = 10
#: A table line of the text report longer than this is replaced by a pointer to the full table.
TEXT_WIDTH = 120
#: At most this many warnings in the text report (the rest: in every other format).
TEXT_WARNINGS = 20
#: Where the full tables are, for the text report's pointers.
ELSEWHERE = "--format csv, markdown, html or json (Python: to_frame(), to_markdown())"

_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_MARKDOWN_SPECIAL = re.compile(r"([\\|*_`\[\]])")


def is_number(cell: str) -> bool:
    """True for a plain decimal number such as '0.875', '-0.012', '3'."""
    return _NUMBER.fullmatch(cell) is not None


def markdown_escape(s: str) -> str:
    """``s`` as literal Markdown text that stays in one table cell."""
    s = " ".join(str(s).splitlines()) if "\n" in str(s) or "\r" in str(s) else str(s)
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MARKDOWN_SPECIAL.sub(r"\\\1", s)


def markdown(sections: list[Section], heading: str) -> str:
    """GitHub-flavoured Markdown: a heading per section, a pipe table, notes as a list."""
    e = markdown_escape
    out = [f"# {e(heading)}"]
    for s in sections:
        out += ["", f"## {e(s.title)}"]
        if s.header:
            out += ["", "| " + " | ".join(map(e, s.header)) + " |"]
            out.append(
                "|" + "|".join("---" if k == 0 else "---:" for k in range(len(s.header))) + "|"
            )
            out += ["| " + " | ".join(e(c) for c in r) + " |" for r in s.rows]
        if s.notes:
            out += [""] + [f"- {e(n)}" for n in s.notes]
    return "\n".join(out) + "\n"


def column_names(header: list[str]) -> list[str]:
    """The header with each repeated name qualified by the nearest unique name before it.

    ``["class", "ROC AUC", "low", "high", "AP", "low", "high"]`` gives ``..., "AP low",
    "AP high"``, so a long table's ``column`` says which interval an end belongs to.
    """
    out = []
    for k, h in enumerate(header):
        if header.count(h) > 1:
            owner = next(
                (header[j] for j in range(k - 1, -1, -1) if header.count(header[j]) == 1), ""
            )
            h = f"{owner} {h}".strip()
        out.append(h)
    return out


def section_key(title: str) -> str:
    """A section's title up to its parenthesis: 'Metrics', 'Per class', 'Confusion matrix'."""
    return title.split(" (", 1)[0]


def long_rows(sections: list[Section]) -> list[list[str]]:
    """Every table cell and note as ``[section, row, column, value]``.

    ``section`` is the title without its parenthesis (:func:`section_key`); a row
    ``[section, "", "title", whole title]`` keeps what the parenthesis says (level,
    resamples, seed).
    """
    out = []
    for s in sections:
        names, key = column_names(s.header), section_key(s.title)
        out += [] if key == s.title else [[key, "", "title", s.title]]
        for r in s.rows:
            out += [[key, r[0], name, cell] for name, cell in zip(names[1:], r[1:], strict=True)]
        out += [[key, "", "note", n] for n in s.notes]
    return out


def spreadsheet_safe(cell: str) -> str:
    """``cell``, or ``'cell`` where a spreadsheet would read it as a formula."""
    if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not is_number(cell):
        return "'" + cell
    return cell


def to_csv(sections: list[Section]) -> str:
    """The long table as CSV text (header ``section,row,column,value``), formula-safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["section", "row", "column", "value"])
    writer.writerows([spreadsheet_safe(c) for c in row] for row in long_rows(sections))
    return buffer.getvalue()


def to_frame(sections: list[Section]):
    """The long table as a pandas DataFrame; numbers as floats, 'undefined' as NaN."""
    try:
        import pandas as pd
    except ImportError:
        raise ImportError(
            "to_frame() needs pandas, which is not installed: pip install pandas "
            "(or use to_csv(), to_markdown(), to_json(), which need nothing else)"
        ) from None

    def value(cell):
        if is_number(cell):
            return float(cell)
        return float("nan") if cell == "undefined" else cell

    rows = [[*r[:3], value(r[3])] for r in long_rows(sections)]
    return pd.DataFrame(rows, columns=["section", "row", "column", "value"])


def _by(rows: list[list[str]], col: int, largest: bool) -> list[list[str]]:
    """The TOP_K rows with the smallest (or largest) number in ``col``; undefined last."""

    def key(r):
        v = float(r[col]) if is_number(r[col]) else float("inf")
        return -v if largest and v != float("inf") else v

    return sorted(rows, key=key)[:TOP_K]


def for_text(sections: list[Section]) -> list[Section]:
    """The sections the text report shows: long tables and lists shortened, with a pointer.

    A confusion matrix too wide for a line becomes a note; a per-class table of more
    than ``TEXT_CLASSES`` classes becomes the ``TOP_K`` of lowest F1 and the ``TOP_K``
    most common; another table of more rows shows its first ``2 * TOP_K``; more than
    ``TEXT_WARNINGS`` warnings are cut there. Every other format keeps everything.
    """
    out = []
    for s in sections:
        if s.header[:1] == ["predicted \\ true"]:
            width = sum(
                max(len(r[k]) for r in [s.header, *s.rows]) + 2 for k in range(len(s.header))
            )
            if width > TEXT_WIDTH:
                s = Section(
                    s.title,
                    notes=[
                        f"{len(s.rows) - 1} classes: too wide for a line of text; the full matrix "
                        f"is in {ELSEWHERE}"
                    ],
                )
        elif s.header[:1] == ["class"] and "F1" in s.header and len(s.rows) > TEXT_CLASSES:
            f1, support = s.header.index("F1"), s.header.index("support")
            key, n = section_key(s.title), len(s.rows)
            what = s.title[len(key) :].strip(" ()")
            worst = _by(s.rows, f1, False)
            out.append(
                Section(f"{key}: the {TOP_K} of lowest F1 (of {n} classes)", s.header, worst)
            )
            note = f"{what}; every class: {ELSEWHERE}" if what else f"every class: {ELSEWHERE}"
            common = _by(s.rows, support, True)
            s = Section(f"{key}: the {TOP_K} most common", s.header, common, [note, *s.notes])
        elif len(s.rows) > TEXT_CLASSES:  # e.g. exact intervals or ranking per class
            rest = len(s.rows) - 2 * TOP_K
            more = f"the first {2 * TOP_K} rows of {len(s.rows)}; the other {rest}: {ELSEWHERE}"
            s = Section(s.title, s.header, s.rows[: 2 * TOP_K], [more, *s.notes])
        elif s.title == "Warnings" and len(s.notes) > TEXT_WARNINGS:
            rest = len(s.notes) - TEXT_WARNINGS
            s = Section(
                s.title, notes=[*s.notes[:TEXT_WARNINGS], f"... and {rest} more: {ELSEWHERE}"]
            )
        out.append(s)
    return out
