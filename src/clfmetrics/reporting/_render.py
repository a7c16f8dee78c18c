"""The plain renderings of a report or a comparison, all from one list of sections.

A :class:`Section` is a title, an optional table (a header and rows of formatted
cells) and notes (plain sentences). From a list of them come the text rendering
(long tables shortened for many classes, with a pointer to the full ones), the HTML
for Jupyter, Markdown, CSV and pandas' long table ``section, row, column, value``,
and the report's suggested paragraph for an evaluation section.

Labels come from the user's file, so each rendering escapes them for its syntax:
Markdown backslash-escapes ``\\ | * _ ` [ ]`` and turns ``& < >`` into entities; CSV
is written by :mod:`csv`, and a cell that a spreadsheet would run as a formula (it
starts with ``= + - @``, a tab or a carriage return and is not a number) gets a
leading ``'``; pandas gets the values as data.
"""

from __future__ import annotations

import csv
import html
import io
import re
import textwrap
from dataclasses import dataclass, field

from .._base.numbers import count, fixed, num, seed_text


@dataclass
class Section:
    """One titled block: a table of formatted cells and notes below it."""

    title: str
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


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


#: Line width of the text rendering's notes.
WIDTH = 88


def text(sections: list[Section], heading: str) -> str:
    """Plain-text rendering: aligned columns, notes as bullets."""
    out = [heading, "=" * len(heading)]
    for s in sections:
        out += ["", s.title, "-" * len(s.title)]
        if s.header:
            widths = [max(len(r[k]) for r in [s.header, *s.rows]) for k in range(len(s.header))]
            for r in [s.header, *s.rows]:
                cells = [r[0].ljust(widths[0])] + [
                    c.rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)
                ]
                out.append("  ".join(cells).rstrip())
        for note in s.notes:
            out += textwrap.wrap(note, WIDTH, initial_indent="* ", subsequent_indent="  ")
    return "\n".join(out)


def as_html(sections: list[Section], heading: str) -> str:
    """HTML rendering for Jupyter: one small table per section."""
    e = html.escape
    # Bold paragraphs, not headings: a report shown in a page must not add to its outline.
    out = [f'<div class="clfmetrics-report"><p><strong>{e(heading)}</strong></p>']
    for s in sections:
        out.append(f"<p><strong>{e(s.title)}</strong></p>")
        if s.header:
            head = "".join(f"<th>{e(h)}</th>" for h in s.header)
            body = "".join(
                "<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>" for r in s.rows
            )
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        if s.notes:
            out.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in s.notes) + "</ul>")
    out.append("</div>")
    return "".join(out)


def matrix_section(matrix, labels, title: str = "Confusion matrix") -> Section:
    """The count matrix as a table in the book's orientation: rows predicted, columns true."""
    names = [str(lab) for lab in labels]
    rows = [
        [name, *(str(int(c)) for c in row), str(int(row.sum()))]
        for name, row in zip(names, matrix, strict=True)
    ]
    rows.append(["total", *(str(int(c)) for c in matrix.sum(axis=0)), str(int(matrix.sum()))])
    return Section(
        f"{title} (rows = predicted, columns = true; scikit-learn's is the transpose)",
        ["predicted \\ true", *names, "total"],
        rows,
    )


def plain_labels(labels) -> list[str]:
    """Class labels as strings, for JSON keys and table cells."""
    return [str(label) for label in labels]


def interval_text(iv) -> str:
    """'0.713 [0.667, 0.755]': estimate and interval ends."""
    return f"{fixed(iv.estimate)} [{fixed(iv.low)}, {fixed(iv.high)}]"


def reported_text(iv) -> str:
    """:func:`interval_text` for prose; a zero-width interval is said to be one, not shown.

    Every resample giving the same value (no errors, a perfect ranking) is no measure of
    uncertainty, so a paragraph must not print ``1.000 [1.000, 1.000]`` as if it were.
    """
    if iv.high == iv.low:
        return (
            f"{fixed(iv.estimate)} (every resample gave this value, so the bootstrap says "
            "nothing about its uncertainty)"
        )
    return interval_text(iv)


def interval_dict(iv) -> dict:
    return {"estimate": iv.estimate, "low": iv.low, "high": iv.high}


def plain_values(value):
    """JSON-ready: floats stay floats (NaN becomes None), containers recurse."""
    if isinstance(value, dict):
        return {str(k): plain_values(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_values(v) for v in value]
    if isinstance(value, float) and value != value:
        return None
    return value


def reporting_paragraph(rep) -> str:
    """The paragraph of a :class:`clfmetrics.reporting.Report`."""
    iv = rep.intervals
    n = len(rep.labels)
    pairs = list(zip(rep.labels, rep.per_class["recall"], strict=True))
    which = "Class-wise recalls"
    if n > TEXT_CLASSES:  # a paragraph, not a table: the lowest recalls, and where the rest are
        pairs = sorted(pairs, key=lambda p: -1.0 if p[1] != p[1] else p[1])[:TOP_K]
        which = f"The {TOP_K} lowest of the {n} class-wise recalls (all in the per-class table)"
    recalls = ", ".join(f"{lab!s} {num(r)}" for lab, r in pairs)
    acc, exact = interval_text(iv["accuracy"]), rep.exact["accuracy"]
    if iv["accuracy"].high == iv["accuracy"].low:
        acc = (
            f"{fixed(exact['estimate'])} (exact Clopper-Pearson interval "
            f"[{fixed(exact['low'])}, {fixed(exact['high'])}]; "
            "the bootstrap interval has zero width)"
        )
    return (
        f"On {count(rep.n_items, 'test item')} ({n} classes), accuracy is "
        f"{acc} and macro recall (balanced accuracy) {reported_text(iv['macro_recall'])} "
        f"(chance: {fixed(1 / n)} for macro recall; "
        f"{fixed(rep.baselines['majority class']['accuracy'])} accuracy for always "
        f"predicting the majority class). Macro F1, the mean of class-wise F1 "
        f"(scikit-learn's average='macro'), is {reported_text(iv['macro_f1'])}; "
        "the F1 of macro precision and macro recall is "
        f"{fixed(iv['f1_of_averages'].estimate)}. "
        f"{which}: {recalls}. Intervals: {rep.level:.0%} percentile bootstrap "
        f"over {count(rep.size, 'resample')} of the test items ({seed_text(rep.seed)}). "
        "A precision or recall that is 0/0 on the test set counts as 0; resamples on "
        "which a metric is undefined while the test set is not are left out of its "
        "interval."
        + rep.binary_sentence()
        + ("" if rep.scores is None else rep.scores.sentence())
        + " Computed with clfmetrics (rows = predictions, columns = reference)."
    )
