"""The F-measure paradox: the harmonic mean's laws versus F1 once P or R can be undefined.

Convention: for one class, ``TP`` = correct predictions of it, ``FP`` = items
predicted as it whose true class is another, ``FN`` = items of it predicted as
another. In a confusion matrix (``m[i, j]`` = predicted ``i``, true ``j``)
with the class at index 1: ``TP = m[1, 1]``, ``FP = m[1, 0]``,
``FN = m[0, 1]``. Precision ``TP / (TP + FP)`` is undefined when
``TP + FP = 0``, recall ``TP / (TP + FN)`` when ``TP + FN = 0``.

Two conventions for the undefined ratio: ``"zero"`` (count it as 0, as
Opitz & Burst (2019) state, "P_i, R_i, F1_i = 0 when the denominator is zero",
and as scikit-learn's default does) and ``"nan"`` (NaN, absorbing in
arithmetic as in Bochvar's logic: any expression with NaN is NaN). The four
propositions of vor der Brück (2020) are checked by exhaustive enumeration of
small counts, vectorised with numpy broadcasting.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np

from clfmetrics._base.checks import as_confusion
from clfmetrics.metrics._classwise import _f1, _harmonic, _precision, _recall

__all__ = [
    "PROPOSITIONS",
    "PROPOSITIONS_TEXT",
    "PropositionTable",
    "count_grid",
    "macro_f1_skip_undefined",
    "proposition_table",
    "scores_from_counts",
]

#: The talk's four propositions about a two-argument mean ``H(a, b)``, as printed.
PROPOSITIONS = (
    r"a = 0 \Rightarrow H(a, b) = 0",
    r"H(a, b) = 0 \Rightarrow a = 0",
    r"a \neq 0 \wedge H(a, b) = a \Rightarrow b = a",
    r"a \neq 0 \wedge H(a, b) = b \Rightarrow b = a",
)

#: The same propositions in plain Unicode, for tables.
PROPOSITIONS_TEXT = (
    "(1) a = 0 \u21d2 H(a, b) = 0",
    "(2) H(a, b) = 0 \u21d2 a = 0",
    "(3) a \u2260 0 \u2227 H(a, b) = a \u21d2 b = a",
    "(4) a \u2260 0 \u2227 H(a, b) = b \u21d2 b = a",
)

_CONVENTIONS = {"zero": 0.0, "nan": np.nan}
_EQUALITIES = ("ieee", "symbolic")


def _check_max_count(max_count) -> int:
    if isinstance(max_count, bool) or not isinstance(max_count, (int, np.integer)):
        raise ValueError(f"max_count must be a positive integer; got {max_count!r}")
    if max_count < 1:
        raise ValueError(f"max_count must be at least 1; got {max_count}")
    return int(max_count)


def _check_convention(convention) -> float:
    if convention not in _CONVENTIONS:
        raise ValueError(f"convention must be 'zero' or 'nan'; got {convention!r}")
    return _CONVENTIONS[convention]


def count_grid(max_count: int = 5):
    """All triples ``(TP, FP, FN)`` with entries in ``0 .. max_count``, as three flat arrays.

    Examples
    --------
    >>> tp, fp, fn = count_grid(1)
    >>> len(tp), int(tp.sum() + fp.sum() + fn.sum())
    (8, 12)
    """
    k = _check_max_count(max_count) + 1
    tp, fp, fn = np.indices((k, k, k)).reshape(3, -1)
    return tp, fp, fn


def scores_from_counts(tp, fp, fn, *, convention: str = "zero"):
    """Precision, recall and F1 of one class from broadcastable count arrays.

    The counts are placed in a stack of 2x2 matrices ``[[1, FN], [FP, TP]]``
    (one true negative keeps every matrix non-empty; it changes nothing for the
    class at index 1) and scored with the library's class-wise functions, so
    ``F1 = H(P, R) = 2PR / (P + R)`` with ``H(0, 0) = 0`` and NaN absorbing.

    Parameters
    ----------
    tp, fp, fn : array_like of non-negative numbers, broadcastable
    convention : {'zero', 'nan'}
        Value of an undefined precision or recall.

    Returns
    -------
    precision, recall, f1 : ndarray, the broadcast shape

    Examples
    --------
    >>> scores_from_counts(0, 3, 0, convention="nan")
    (array(0.), array(nan), array(nan))
    """
    fill = _check_convention(convention)
    tp, fp, fn = np.broadcast_arrays(*(np.asarray(x, dtype=np.float64) for x in (tp, fp, fn)))
    m = np.stack([np.ones_like(tp), fn, fp, tp], axis=-1).reshape((*tp.shape, 2, 2))
    m = as_confusion(m, name="counts")
    return _precision(m, fill)[..., 1], _recall(m, fill)[..., 1], _f1(m, fill)[..., 1]


def _equal(x, y, equality: str) -> np.ndarray:
    return np.isclose(x, y, rtol=1e-12, atol=0.0, equal_nan=equality == "symbolic")


def _holds(a, b, h, equality: str) -> np.ndarray:
    """Truth of each proposition at each point, shape (4, points)."""
    nonzero = a != 0  # NaN != 0 is true in both readings
    return np.stack(
        [
            ~(a == 0) | _equal(h, 0.0, equality),
            ~_equal(h, 0.0, equality) | (a == 0),
            ~(nonzero & _equal(h, a, equality)) | _equal(b, a, equality),
            ~(nonzero & _equal(h, b, equality)) | _equal(b, a, equality),
        ]
    )


@dataclass
class PropositionTable:
    """Which proposition holds in which column, with the first counterexample found."""

    columns: tuple[str, ...]
    holds: np.ndarray  # (4, columns) bool
    counterexamples: list[list[dict | None]]  # [proposition][column]

    def _cell(self, k: int, c: int) -> str:
        if self.holds[k, c]:
            return "\u2713"
        ex = self.counterexamples[k][c]
        where = ", ".join(
            f"{key}={value:g}" if isinstance(value, float) else f"{key}={value}"
            for key, value in ex.items()
        )
        return f"\u2717 ({where})"

    def _rows(self):
        header = ["proposition", *self.columns]
        body = [
            [p, *(self._cell(k, c) for c in range(len(self.columns)))]
            for k, p in enumerate(PROPOSITIONS_TEXT)
        ]
        return header, body

    def _repr_html_(self) -> str:
        header, body = self._rows()
        esc = html.escape
        head = "".join(f'<th scope="col">{esc(h)}</th>' for h in header)
        rows = "".join(
            f'<tr><th scope="row">{esc(r[0])}</th>'
            + "".join(f"<td>{esc(v)}</td>" for v in r[1:])
            + "</tr>"
            for r in body
        )
        return f'<table class="proposition-table"><thead><tr>{head}</tr></thead>{rows}</table>'

    def __repr__(self) -> str:
        header, body = self._rows()
        return "\n".join(" | ".join(row) for row in [header, *body])


def _first_counterexample(ok: np.ndarray, fields: dict) -> dict | None:
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return None
    k = bad[0]
    return {
        key: (int(v[k]) if np.issubdtype(v.dtype, np.integer) else float(v[k]))
        for key, v in fields.items()
    }


def proposition_table(
    max_count: int = 5, *, equality: str = "symbolic", a_is: str = "precision"
) -> PropositionTable:
    """Check the four propositions for the harmonic mean and for F1, exhaustively.

    Column "HM": ``a`` and ``b`` range independently over every ratio
    ``k / d`` with ``0 <= k <= d <= max_count`` (plus 0), ``H(0, 0) = 0``.
    Columns "F1": every ``(TP, FP, FN)`` in ``0 .. max_count``; ``a`` is the
    precision and ``b`` the recall (or the reverse with ``a_is="recall"``),
    ``H`` is F1, under each convention for undefined ratios.

    Parameters
    ----------
    max_count : int, default 5
        Largest count (and denominator) enumerated.
    equality : {'symbolic', 'ieee'}, default 'symbolic'
        How ``=`` treats NaN: ``'symbolic'`` reads NaN as a value equal to
        itself (the talk's reading); ``'ieee'`` as floating point does
        (``NaN == NaN`` is false). In both, ``NaN != 0`` is true.
    a_is : {'precision', 'recall'}
        Which of the two is the first argument ``a``.

    Returns
    -------
    PropositionTable

    Examples
    --------
    >>> t = proposition_table(3)
    >>> t.holds[:, 0].tolist(), t.holds[:, 2].tolist()
    ([True, False, True, False], [False, True, False, True])
    """
    k = _check_max_count(max_count)
    if equality not in _EQUALITIES:
        raise ValueError(f"equality must be 'symbolic' or 'ieee'; got {equality!r}")
    if a_is not in ("precision", "recall"):
        raise ValueError(f"a_is must be 'precision' or 'recall'; got {a_is!r}")
    num, den = np.indices((k + 1, k + 1))
    values = np.unique(num[(num <= den) & (den > 0)] / den[(num <= den) & (den > 0)])
    a, b = (x.ravel() for x in np.meshgrid(values, values, indexing="ij"))
    h = _harmonic(a, b)
    columns = ["HM"]
    holds = [_holds(a, b, h, equality)]
    fields = [{"a": a, "b": b, "H": h}]
    tp, fp, fn = count_grid(k)
    for convention in _CONVENTIONS:
        p, r, f = scores_from_counts(tp, fp, fn, convention=convention)
        fa, fb = (p, r) if a_is == "precision" else (r, p)
        columns.append(f"F1, undefined \u2192 {'0' if convention == 'zero' else 'NaN'}")
        holds.append(_holds(fa, fb, f, equality))
        fields.append({"TP": tp, "FP": fp, "FN": fn, "a": fa, "b": fb, "F1": f})
    table = np.stack([h.all(axis=-1) for h in holds], axis=-1)
    examples = [
        [_first_counterexample(holds[c][q], fields[c]) for c in range(len(columns))]
        for q in range(len(PROPOSITIONS))
    ]
    return PropositionTable(tuple(columns), table, examples)


def macro_f1_skip_undefined(m):
    r"""Mean of the class-wise F1 over the classes whose F1 is defined (NaN F1 skipped).

    With ``m[i, j]`` = predicted ``i``, true ``j``, class ``i`` has an undefined
    F1 when its precision or recall is undefined, i.e. it is never predicted
    or never occurs (NaN convention). Those classes are left out of the mean,
    as ``numpy.nanmean`` would; NaN if no class is defined.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(macro_f1_skip_undefined([[3, 1, 0], [1, 3, 0], [0, 0, 0]]), 4)
    0.75
    """
    f = _f1(as_confusion(m), np.nan)
    defined = ~np.isnan(f)
    count = defined.sum(axis=-1)
    total = np.where(defined, f, 0.0).sum(axis=-1)
    out = np.full(np.shape(total), np.nan)
    np.divide(total, count, out=out, where=count > 0)
    return float(out) if out.ndim == 0 else out
