r"""Published shared-task scores: loading, winners and consistency checks.

Ranking and rank correlation are in :mod:`clfbook.sources.ranking`.

The data are scores, not confusion matrices: Opitz (2024), Table 6, lists
for the eight best systems (A-H) of SemEval-2017 Task 4 (subtask A, three
sentiment classes) every metric of the book in percent, rounded to one
decimal. :func:`load_semeval2017_task4` reads them from the CSV shipped with
the package (source stated in its header). Higher scores are better
throughout; rank 1 is the best system.

Because the numbers are rounded, the identities between the metrics hold
only up to rounding. :func:`consistency_checks` tests each identity with
interval arithmetic: every input is somewhere in ``[x - 0.05, x + 0.05]``, the
identity is monotone in its inputs, so its exact value lies between the values
at the ends of those intervals, and the published output, itself rounded, may
sit 0.05 beyond that range.
"""

from __future__ import annotations

import csv
import html
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

__all__ = [
    "LABELS",
    "METRIC_COLUMNS",
    "ConsistencyCheck",
    "LabelledTable",
    "ScoreTable",
    "consistency_checks",
    "inequality_checks",
    "load_semeval2017_task4",
    "recall_spread",
    "winners",
]

#: Half a unit of the last published digit (scores are printed with one decimal).
HALF_UNIT = 0.05

#: Display names of the score columns, in the order of the source table.
LABELS = {
    "acc": "Acc",
    "macR": "macR",
    "macP": "macP",
    "macF1": "macF1",
    "macF1_prime": "macF1′",
    "weightF1": "weightF1",
    "kappa": "Kappa",
    "mcc": "MCC",
    "GmacR": "GmacR",
    "HmacR": "HmacR",
    "r1": "r1",
    "r2": "r2",
    "r3": "r3",
    "cal_macF1": "macF1∼",
    "cal_macF1_prime": "macF1′∼",
    "cal_kappa": "Kappa∼",
    "cal_mcc": "MCC∼",
}

#: The columns that are scores (higher = better); ``official_rank`` and ``citations`` are not.
METRIC_COLUMNS = tuple(LABELS)


@dataclass(frozen=True)
class ScoreTable:
    """Scores of several systems: ``values[s, k]`` is system ``s`` under column ``k``."""

    systems: tuple[str, ...]
    columns: tuple[str, ...]
    values: np.ndarray
    source: str = field(default="", repr=False)

    def column(self, name: str) -> np.ndarray:
        """The scores of every system under one column, as a float array."""
        if name not in self.columns:
            raise ValueError(f"unknown column {name!r}; the table has {list(self.columns)}")
        return self.values[:, self.columns.index(name)]

    def columns_of(self, names) -> np.ndarray:
        """The scores under several columns, shape ``(systems, len(names))``."""
        return np.stack([self.column(k) for k in names], axis=1)

    def row(self, system: str) -> dict[str, float]:
        """One system's scores by column name."""
        if system not in self.systems:
            raise ValueError(f"unknown system {system!r}; the table has {list(self.systems)}")
        values = self.values[self.systems.index(system)]
        return dict(zip(self.columns, values.tolist(), strict=True))


def load_semeval2017_task4() -> ScoreTable:
    """Opitz (2024), Table 6: the eight best SemEval-2017 Task 4 systems, every published score.

    Columns: ``official_rank``, ``citations``, then :data:`METRIC_COLUMNS`
    (percent, one decimal). The ``#`` header lines of the CSV are kept in
    ``source``.

    Examples
    --------
    >>> table = load_semeval2017_task4()
    >>> table.systems
    ('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H')
    >>> table.row("E")["acc"]
    66.4
    """
    text = (
        resources.files("clfbook.sources").joinpath("data/semeval2017_task4.csv").read_text("utf-8")
    )
    lines = text.splitlines()
    source = "\n".join(line[1:].strip() for line in lines if line.startswith("#"))
    rows = list(csv.reader(line for line in lines if line and not line.startswith("#")))
    header, body = rows[0], rows[1:]
    return ScoreTable(
        systems=tuple(r[0] for r in body),
        columns=tuple(header[1:]),
        values=np.array([[float(x) for x in r[1:]] for r in body]),
        source=source,
    )


def winners(table: ScoreTable, columns=METRIC_COLUMNS) -> dict[str, tuple[str, ...]]:
    """The best system(s) under each column; tied systems all win.

    Examples
    --------
    >>> winners(load_semeval2017_task4(), ["macR", "acc"])
    {'macR': ('A', 'B'), 'acc': ('E',)}
    """
    out = {}
    for name in columns:
        col = table.column(name)
        out[name] = tuple(s for s, v in zip(table.systems, col, strict=True) if v == col.max())
    return out


def recall_spread(table: ScoreTable) -> np.ndarray:
    """Largest minus smallest class-wise recall per system: max(r1, r2, r3) - min(r1, r2, r3)."""
    r = table.columns_of(["r1", "r2", "r3"])
    return r.max(axis=1) - r.min(axis=1)


# ------------------------------------------------------------ consistency


@dataclass(frozen=True)
class ConsistencyCheck:
    """One identity between published columns, tested on every system.

    ``recomputed`` is the identity evaluated on the published inputs;
    ``low``/``high`` bound its exact value given that every input was rounded
    to one decimal; ``consistent`` says whether the published value lies in
    ``[low - 0.05, high + 0.05]``.
    """

    name: str
    formula: str
    published: np.ndarray
    recomputed: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @property
    def consistent(self) -> np.ndarray:
        eps = 1e-9  # float noise in the decimal inputs
        return (self.published >= self.low - HALF_UNIT - eps) & (
            self.published <= self.high + HALF_UNIT + eps
        )

    @property
    def deviation(self) -> np.ndarray:
        """Published minus recomputed value, in percentage points."""
        return self.published - self.recomputed


def _interval(name, formula, func, inputs, published) -> ConsistencyCheck:
    """``func`` must be non-decreasing in every input (all identities checked here are)."""
    return ConsistencyCheck(
        name=name,
        formula=formula,
        published=published,
        recomputed=func(*inputs),
        low=func(*(x - HALF_UNIT for x in inputs)),
        high=func(*(x + HALF_UNIT for x in inputs)),
    )


def _mean(*r):
    return sum(r) / len(r)


def _geometric(*r):
    return np.prod(np.stack(r), axis=0) ** (1.0 / len(r))


def _harmonic(*r):
    return len(r) / sum(1.0 / x for x in r)


def _kappa_from_recalls(*r):
    n = len(r)
    return (_mean(*r) - 100.0 / n) / (1.0 - 1.0 / n)


def _f1_of(p, r):
    return 2.0 * p * r / (p + r)


def consistency_checks(table: ScoreTable) -> list[ConsistencyCheck]:
    """Identities that the published columns must satisfy up to rounding (n = 3 classes).

    * macR is the mean of r1, r2, r3;
    * GmacR and HmacR are their geometric and harmonic means;
    * calibrated Kappa is (macR - 1/3) / (1 - 1/3) (Opitz 2024, eq. 16), with
      macR taken as the mean of r1..r3 (tighter than the rounded macR);
    * macF1′ is the harmonic mean of macP and macR (eq. 11).
    """
    r = [table.column(k) for k in ("r1", "r2", "r3")]
    pr = [table.column("macP"), table.column("macR")]
    return [
        _interval("macR", "macR = (r1 + r2 + r3) / 3", _mean, r, table.column("macR")),
        _interval("GmacR", "GmacR = (r1 r2 r3)^(1/3)", _geometric, r, table.column("GmacR")),
        _interval("HmacR", "HmacR = 3 / (1/r1 + 1/r2 + 1/r3)", _harmonic, r, table.column("HmacR")),
        _interval(
            "cal_kappa",
            "Kappa∼ = (macR − 1/3) / (1 − 1/3)",
            _kappa_from_recalls,
            r,
            table.column("cal_kappa"),
        ),
        _interval("macF1_prime", "macF1′ = H(macP, macR)", _f1_of, pr, table.column("macF1_prime")),
    ]


def inequality_checks(table: ScoreTable) -> dict[str, np.ndarray]:
    """Inequalities the theory implies, per system: ``name -> bool array`` (True = holds).

    Two rounded values may violate a true ``a <= b`` by up to 0.1, so each
    comparison allows that much.

    * ``HmacR <= GmacR <= macR`` (harmonic <= geometric <= arithmetic mean);
    * ``macF1 <= macF1′`` before and after calibration (Opitz & Burst 2019: the gap is >= 0);
    * ``|MCC| >= |Kappa|`` with equal signs (Opitz 2024, §4.7), before and after calibration.
    """
    c = table.column
    slack = 2 * HALF_UNIT + 1e-9
    return {
        "HmacR <= GmacR <= macR": (c("HmacR") <= c("GmacR") + slack)
        & (c("GmacR") <= c("macR") + slack),
        "macF1 <= macF1′": c("macF1") <= c("macF1_prime") + slack,
        "macF1∼ <= macF1′∼": c("cal_macF1") <= c("cal_macF1_prime") + slack,
        "|MCC| >= |Kappa|": (np.abs(c("mcc")) + slack >= np.abs(c("kappa")))
        & (np.sign(c("mcc")) == np.sign(c("kappa"))),
        "|MCC∼| >= |Kappa∼|": (np.abs(c("cal_mcc")) + slack >= np.abs(c("cal_kappa")))
        & (np.sign(c("cal_mcc")) == np.sign(c("cal_kappa"))),
    }


# ------------------------------------------------------------------ display


class LabelledTable:
    """A labelled table (rows x columns): HTML in notebooks, aligned text elsewhere."""

    def __init__(self, rows, columns, values, *, fmt: str = "{:g}", caption: str | None = None):
        self.rows = [str(x) for x in rows]
        self.columns = [str(x) for x in columns]
        self.cells = [
            [fmt.format(v) if not isinstance(v, str) else v for v in row] for row in values
        ]
        if len(self.cells) != len(self.rows) or any(
            len(c) != len(self.columns) for c in self.cells
        ):
            raise ValueError("values must have one row per row label and one entry per column")
        self.caption = caption

    def _repr_html_(self) -> str:
        esc = html.escape
        head = "".join(f'<th scope="col">{esc(c)}</th>' for c in ["", *self.columns])
        body = "".join(
            f'<tr><th scope="row">{esc(r)}</th>'
            + "".join(f"<td>{esc(v)}</td>" for v in row)
            + "</tr>"
            for r, row in zip(self.rows, self.cells, strict=True)
        )
        cap = f"<caption>{esc(self.caption)}</caption>" if self.caption else ""
        return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self) -> str:
        grid = [["", *self.columns]] + [
            [r, *row] for r, row in zip(self.rows, self.cells, strict=True)
        ]
        widths = [max(len(g[k]) for g in grid) for k in range(len(grid[0]))]
        lines = ["  ".join(c.rjust(w) for c, w in zip(g, widths, strict=True)) for g in grid]
        return "\n".join(([self.caption] if self.caption else []) + lines)
