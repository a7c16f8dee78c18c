"""A small SVG chart writer (numpy only) for the self-contained HTML report.

One chart: a square plot area with labelled axes and round ticks, a dashed
reference line, and series drawn as lines, shaded bands or points with
error bars. Colours come from CSS classes (``c0`` ... ``c6``, the Okabe-Ito
palette, safe for the common colour-vision deficiencies) that the report's
style sheet defines for light and dark pages; text and axes use
``currentColor``, so they follow the page's colour scheme. Every chart has a
``<title>`` and a ``<desc>`` (its alt text) and ``role="img"``.

Coordinates are written with two decimals, so the same data give the same bytes.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np

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
