"""The report as one self-contained HTML page, with its figures as inline SVG (numpy only).

- **Charts.** A small SVG writer: a square plot with labelled axes and round
  ticks, a dashed reference line, lines, shaded bands or points with error bars.
  Colours are CSS classes (the Okabe-Ito palette, with lighter hues for a dark
  page), text follows ``currentColor``; each chart has a ``<title>``, a ``<desc>``
  and ``role="img"``, and its coordinates two decimals, so the same data give the
  same bytes.
- **Figures.** With scores, the ROC and precision-recall curves with their
  simultaneous bootstrap bands and the reliability diagram with each bin's
  Clopper-Pearson interval, on the report's seed.
- **The page.** No script, external style sheet, font or image, and a
  Content-Security-Policy that forbids them; every text from the user's file is
  escaped. :class:`Rendered` gives the report and the comparison their
  ``to_text``, ``to_markdown``, ``to_html``, ``to_csv`` and file output.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

import numpy as np

from ..inference import pr_band, roc_band
from ..probabilities import reliability_band
from ._render import Section, as_html, for_text, markdown, plain_values, text, to_csv, to_frame

#: Okabe & Ito (2008) without black (unreadable on a dark page), in the order used.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442")
#: Lighter variants for a dark background (the same hues).
PALETTE_DARK = ("#56B4E9", "#FF8C42", "#2FD4A3", "#E6A3C9", "#F5BE4F", "#9AD3F5", "#F7EE7A")
#: Pixels: the whole chart, and the margins around the plot area.
SIZE, LEFT, RIGHT, TOP, BOTTOM = 420, 64, 16, 36, 56
#: Characters of a series' name in the legend.
KEY_CHARS = 20


@dataclass
class Series:
    """What to draw: a line (``kind="line"``) or points (``"points"``), with an optional band.

    ``low``/``high`` are a shaded band around a line, or error bars on points.
    """

    label: str
    x: np.ndarray
    y: np.ndarray
    low: np.ndarray | None = None
    high: np.ndarray | None = None
    kind: str = "line"


def round_ticks(low: float, high: float, most: int = 6) -> np.ndarray:
    """At most ``most`` ticks at multiples of 1, 2 or 5 times a power of ten within [low, high]."""
    span = high - low
    if not span > 0:
        return np.array([low])
    raw = span / (most - 1)
    power = 10.0 ** np.floor(np.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw - 1e-12)
    first = np.ceil(low / step - 1e-9) * step
    ticks = np.arange(first, high + step * 1e-9, step)
    return np.round(ticks, 12)


def tick_text(t: float) -> str:
    """'0', '0.2', '1': a tick without trailing zeros."""
    s = f"{t:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _f(v: float) -> str:
    return f"{v:.2f}"


def chart(
    series: list[Series],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    desc: str,
    ident: str,
    xlim=(0.0, 1.0),
    ylim=(0.0, 1.0),
    reference=None,
    legend: str = "lower right",
) -> str:
    """One chart as an ``<svg>`` element (a string); every text is escaped.

    ``reference``: two points ``((x0, y0), (x1, y1))`` joined by a dashed line
    (the chance diagonal of ROC, the calibrated diagonal, a PR baseline).
    ``ident`` makes the ids of ``<title>`` and ``<desc>`` unique in the page.
    ``legend``: "lower right" or "lower left" corner of the plot area; a label longer
    than ``KEY_CHARS`` is cut with an ellipsis there (the tables give it whole).
    """
    e = html.escape
    width = SIZE - LEFT - RIGHT
    height = SIZE - TOP - BOTTOM

    def px(x):
        return LEFT + (np.asarray(x, float) - xlim[0]) / (xlim[1] - xlim[0]) * width

    def py(y):
        return TOP + height - (np.asarray(y, float) - ylim[0]) / (ylim[1] - ylim[0]) * height

    def points(xs, ys):
        return " ".join(f"{_f(a)},{_f(b)}" for a, b in zip(px(xs), py(ys), strict=True))

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 {SIZE} {SIZE}" '
        f'width="{SIZE}" height="{SIZE}" role="img" aria-labelledby="{ident}-t {ident}-d">',
        f'<title id="{ident}-t">{e(title)}</title>',
        f'<desc id="{ident}-d">{e(desc)}</desc>',
        f'<text x="{SIZE / 2:.0f}" y="20" text-anchor="middle" class="heading">{e(title)}</text>',
    ]
    for t in round_ticks(*xlim):
        x = _f(px(t))
        out.append(
            f'<line class="grid" x1="{x}" y1="{TOP}" x2="{x}" y2="{TOP + height}"/>'
            f'<text x="{x}" y="{TOP + height + 16}" text-anchor="middle">{tick_text(t)}</text>'
        )
    for t in round_ticks(*ylim):
        y = _f(py(t))
        out.append(
            f'<line class="grid" x1="{LEFT}" y1="{y}" x2="{LEFT + width}" y2="{y}"/>'
            f'<text x="{LEFT - 6}" y="{y}" text-anchor="end" dy="0.35em">{tick_text(t)}</text>'
        )
    out.append(
        f'<rect class="frame" x="{LEFT}" y="{TOP}" width="{width}" height="{height}"/>'
        f'<text x="{LEFT + width / 2:.0f}" y="{SIZE - 18}" text-anchor="middle">{e(xlabel)}</text>'
        f'<text transform="translate(16 {TOP + height / 2:.0f}) rotate(-90)" '
        f'text-anchor="middle">{e(ylabel)}</text>'
    )
    if reference is not None:
        (x0, y0), (x1, y1) = reference
        out.append(
            f'<line class="reference" x1="{_f(px(x0))}" y1="{_f(py(y0))}" '
            f'x2="{_f(px(x1))}" y2="{_f(py(y1))}"/>'
        )
    for k, s in enumerate(series):
        c = f"c{k % len(PALETTE)}"
        if s.kind == "line":
            if s.low is not None:
                ring = points(np.r_[s.x, s.x[::-1]], np.r_[s.high, s.low[::-1]])
                out.append(f'<polygon class="band {c}" points="{ring}"/>')
            out.append(f'<polyline class="line {c}" points="{points(s.x, s.y)}"/>')
        else:
            for j, (a, b) in enumerate(zip(px(s.x), py(s.y), strict=True)):
                if s.low is not None:
                    lo, hi = py(s.low[j]), py(s.high[j])
                    out.append(
                        f'<line class="bar {c}" x1="{_f(a)}" y1="{_f(lo)}" '
                        f'x2="{_f(a)}" y2="{_f(hi)}"/>'
                    )
                out.append(f'<circle class="dot {c}" cx="{_f(a)}" cy="{_f(b)}" r="3.5"/>')
        y = TOP + height - 10 - 16 * (len(series) - 1 - k)
        x = LEFT + 10 if legend == "lower left" else LEFT + width - 150
        name = s.label if len(s.label) <= KEY_CHARS else s.label[: KEY_CHARS - 1] + "\u2026"
        out.append(
            f'<line class="line {c}" x1="{x}" y1="{y - 4}" x2="{x + 16}" y2="{y - 4}"/>'
            f'<text x="{x + 22}" y="{y}" class="key">{e(name)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def style() -> str:
    """The CSS the charts need: palette classes for light and dark pages."""
    light = "".join(f".c{k}{{stroke:{c};fill:{c}}}" for k, c in enumerate(PALETTE))
    dark = "".join(f".c{k}{{stroke:{c};fill:{c}}}" for k, c in enumerate(PALETTE_DARK))
    return (
        "svg.chart{max-width:100%;height:auto;font:12px sans-serif;fill:currentColor}"
        "svg.chart text{fill:currentColor;stroke:none}"
        "svg.chart .heading{font-weight:bold;font-size:13px}"
        "svg.chart .key{font-size:11px}"
        ".grid{stroke:currentColor;stroke-opacity:.15}"
        ".frame{fill:none;stroke:currentColor;stroke-opacity:.6}"
        ".reference{stroke:currentColor;stroke-opacity:.5;stroke-dasharray:4 4}"
        ".line,.bar{fill:none!important;stroke-width:2}"
        ".band{stroke:none!important;fill-opacity:.22}"
        f"{light}@media (prefers-color-scheme: dark){{{dark}}}"
    )


#: A confusion matrix of more classes is left to CSV and JSON (a page of n**2 cells).
MATRIX_CLASSES = 100
_CSP = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; "
    "form-action 'none'"
)
_PAGE_STYLE = (
    ":root{color-scheme:light dark}"
    "body{font:15px/1.45 system-ui,sans-serif;max-width:64rem;margin:1.5rem auto;padding:0 1rem;"
    "background:#fff;color:#1a1a1a}"
    "@media (prefers-color-scheme: dark){body{background:#15171a;color:#e6e6e6}}"
    "table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}"
    "th,td{padding:.15rem .6rem;border-bottom:1px solid color-mix(in srgb,currentColor 25%,"
    "transparent);text-align:right}th:first-child,td:first-child{text-align:left}"
    ".scroll{overflow-x:auto}figure{display:inline-block;margin:.5rem 1rem .5rem 0}"
    "figcaption{font-size:13px;max-width:420px}"
)


def document(sections: list[Section], heading: str, figures: list[str]) -> str:
    """The whole page; ``figures`` (``<figure>`` strings) go before the warnings."""
    e = html.escape
    body = []
    placed = False
    for s in sections:
        if figures and not placed and s.title == "Warnings":
            body.append("<section><h2>Figures</h2>" + "".join(figures) + "</section>")
            placed = True
        if s.header[:1] == ["predicted \\ true"] and len(s.rows) - 1 > MATRIX_CLASSES:
            n = len(s.rows) - 1
            s = Section(s.title, notes=[f"{n} classes: the matrix is in --format csv or json"])
        part = [f"<section><h2>{e(s.title)}</h2>"]
        if s.header:
            head = "".join(f'<th scope="col">{e(h)}</th>' for h in s.header)
            rows = "".join(
                f'<tr><th scope="row">{e(r[0])}</th>'
                + "".join(f"<td>{e(c)}</td>" for c in r[1:])
                + "</tr>"
                for r in s.rows
            )
            part.append(
                f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                f"<tbody>{rows}</tbody></table></div>"
            )
        if s.notes:
            part.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in s.notes) + "</ul>")
        body.append("".join(part) + "</section>")
    if figures and not placed:
        body.append("<section><h2>Figures</h2>" + "".join(figures) + "</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(heading)}</title>\n<style>{_PAGE_STYLE}{style()}</style>\n</head>\n"
        f"<body>\n<main>\n<h1>{e(heading)}</h1>\n"
        + "\n".join(body)
        + "\n</main>\n</body>\n</html>\n"
    )


#: At most this many classes get a curve in a chart (one colour each); the table has all.
MOST_CURVES = 7
#: Points of the bands' grids.
GRID = 101


def _figure(svg: str, caption: str) -> str:
    return f"<figure>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def score_figures(summary, seed) -> list[str]:
    """ROC, precision-recall and reliability figures of a report's scores, or [] without."""
    if summary is None:
        return []
    truth, scores, level, size = summary.truth, summary.scores, summary.level, summary.size
    rng = np.random.default_rng(seed if isinstance(seed, int) else None)
    labels = summary.labels
    if summary.binary:
        scored = [(summary.labels.index(summary.positive), scores)]
    else:
        support = np.bincount(truth, minlength=len(labels))
        order = np.argsort(-support, kind="stable")[:MOST_CURVES]
        scored = [(int(k), scores[:, k]) for k in sorted(order)]
    scored = [(k, s) for k, s in scored if 0 < (truth == k).sum() < len(truth)]
    shown = (
        ""
        if summary.binary or len(scored) == len(labels)
        else (
            f" The {len(scored)} most common classes of {len(labels)} are drawn; "
            "the table lists all."
        )
    )
    lv = f"{level:.0%}"
    rocs, prs = [], []
    for k, s in scored:
        y = (truth == k).astype(np.int64)
        kw = {"level": level, "size": size, "grid": GRID, "pos_label": 1, "rng": rng}
        rocs.append(Series(str(labels[k]), *_band(roc_band(y, s, **kw))))
        prs.append(Series(str(labels[k]), *_band(pr_band(y, s, **kw))))
    out = []
    if rocs:
        what = "class " + rocs[0].label if summary.binary else "each class against the rest"
        desc = (
            f"ROC curve of {what}: true positive rate against false positive rate, with a {lv} "
            f"simultaneous bootstrap band ({size} resamples); the dashed diagonal is chance."
        )
        svg = chart(rocs, title="ROC curve", xlabel="false positive rate",
                    ylabel="true positive rate", desc=desc, ident="roc",
                    reference=((0, 0), (1, 1)))  # fmt: skip
        out.append(_figure(svg, desc + shown))
        desc = (
            f"Precision-recall curve of {what}, with a {lv} simultaneous bootstrap band; "
            "a classifier without skill has precision equal to the class's prevalence."
        )
        base = float((truth == scored[0][0]).mean())
        svg = chart(prs, title="Precision-recall curve", xlabel="recall", ylabel="precision",
                    desc=desc, ident="pr", legend="lower left",
                    reference=((0, base), (1, base)) if summary.binary else None)  # fmt: skip
        out.append(
            _figure(
                svg,
                desc + (f" Dashed: prevalence {base:.3f}." if summary.binary else "") + shown,
            )
        )
    if summary.probabilities:
        if summary.binary:
            y, stated = (truth == scored[0][0]).astype(np.int64), scores
        else:  # top-label: was the most probable class the true one, at that probability
            y, stated = (np.argmax(scores, axis=1) == truth).astype(np.int64), scores.max(axis=1)
        band = reliability_band(y, stated, bins=10, level=level, pos_label=1)
        which = f"class {labels[scored[0][0]]}" if summary.binary else "the top-label confidence"
        desc = (
            f"Reliability diagram of {which}: observed frequency against mean stated probability "
            f"in 10 equal-width bins, each with its {lv} Clopper-Pearson interval; the dashed "
            "diagonal is calibration."
        )
        points = Series(
            "observed", band.predicted, band.observed, band.low, band.high, kind="points"
        )
        svg = chart([points], title="Reliability diagram", xlabel="mean stated probability",
                    ylabel="observed frequency", desc=desc, ident="reliability",
                    reference=((0, 0), (1, 1)))  # fmt: skip
        out.append(_figure(svg, desc))
    return out


def _band(b):
    return b.x, b.y, b.low, b.high


class Rendered:
    """Mixin: ``str``, ``_repr_html_`` and ``to_json`` from ``_sections()`` and ``to_dict()``."""

    _heading = ""

    def _sections(self) -> list[Section]:  # pragma: no cover - defined by subclasses
        raise NotImplementedError

    def to_dict(self) -> dict:  # pragma: no cover - defined by subclasses
        raise NotImplementedError

    def _figures(self) -> list[str]:
        """Inline SVG figures of the HTML file (none unless a subclass has some)."""
        return []

    def __str__(self) -> str:
        return text(for_text(self._sections()), self._heading)

    def _repr_html_(self) -> str:
        return as_html(self._sections(), self._heading)

    def to_json(self, **kwargs) -> str:
        """The content of :meth:`to_dict` as JSON (undefined values become ``null``)."""
        return json.dumps(plain_values(self.to_dict()), **{"indent": 2, **kwargs})

    def to_markdown(self) -> str:
        """Every section as Markdown: pipe tables and lists, labels escaped (see ``_formats``)."""
        return markdown(self._sections(), self._heading)

    def to_csv(self) -> str:
        """Every table cell and note as CSV rows ``section,row,column,value``, formula-safe."""
        return to_csv(self._sections())

    def to_frame(self):
        """The rows of :meth:`to_csv` as a pandas DataFrame (numbers as floats); needs pandas.

        Raises ImportError, naming the remedy, where pandas is not installed.
        """
        return to_frame(self._sections())

    def to_html(self) -> str:
        """One self-contained HTML page: the tables and, with scores, the curves as inline SVG.

        No script, no external file, no network; labels escaped; light and dark schemes.
        """
        return document(self._sections(), self._heading, self._figures())
