"""The five metric properties of Opitz (2024) as executable probes.

A *probe* takes any metric with the library's calling convention (a matrix
``(n, n)`` or a stack ``(..., n, n)`` in, a float or an array ``(...)`` out;
``m[i, j]`` = mass predicted as class ``i`` whose true class is ``j``) and
returns a :class:`ProbeResult`: truthy when the property holds, falsy when it
does not, carrying the evidence (a counterexample, a witness, or how many
cases were tried) and printing itself as text or HTML.

What a probe can and cannot prove
---------------------------------
* PI (monotonicity), PIV (prevalence invariance) and the "data-set free"
  part of PV are universal claims: a probe *refutes* them with a
  counterexample; "holds" means "no counterexample among the cases tried".
* PII (class sensitivity) is an existence claim: a probe *proves* it with a
  witness; "fails" means "no witness among the cases tried".
* PIII (class decomposability) asks whether a function ``g`` and an exponent
  ``p`` exist; the probe tests a necessary condition (zero mixed differences
  between cells that no class shares, after the transform ``x -> x**p``) for a
  grid of ``p``. It can refute PIII for every ``p`` on the grid; it cannot
  construct ``g``, so a pass is confirmed only by the metric's algebraic form.

Every probe is seeded and vectorised: one metric call evaluates thousands of
matrices.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass, field

import numpy as np

from . import METRICS, prevalence_calibrate, prevalence_scale
from ._checks import as_confusion

__all__ = [
    "CALIBRATED_SUFFIX",
    "PAPER_TABLE_5",
    "PROPERTIES",
    "TABLE_METRICS",
    "ChanceResult",
    "Disagreement",
    "ProbeResult",
    "PropertyTable",
    "calibrated",
    "compare_with_paper",
    "is_calibrated_row",
    "is_chance_corrected",
    "is_class_sensitive",
    "is_decomposable",
    "is_monotonic",
    "is_prevalence_invariant",
    "metrics_with",
    "probe_all",
    "property_table",
]

#: Property codes and their names, in the order of Opitz (2024), section 3.
PROPERTIES = {
    "PI": "monotonicity",
    "PII": "class sensitivity",
    "PIII": "class decomposability",
    "PIV": "prevalence invariance",
    "PV": "chance correction",
}

#: Suffix of a row that describes the metric of the prevalence-calibrated matrix.
CALIBRATED_SUFFIX = "~"

#: The rows of Table 5, as library functions, in the paper's order.
TABLE_METRICS = {
    name: METRICS[name]
    for name in (
        "accuracy",
        "macro_recall",
        "geometric_macro_recall",
        "harmonic_macro_recall",
        "macro_precision",
        "macro_f1",
        "f1_of_averages",
        "weighted_f1",
        "kappa",
        "mcc",
    )
}

#: The paper's row labels for the library names.
PAPER_NAMES = {
    "accuracy": "Accuracy (= micro F1)",
    "macro_recall": "macro Recall (macR)",
    "geometric_macro_recall": "GmacR",
    "harmonic_macro_recall": "HmacR",
    "macro_precision": "macro Precision",
    "macro_f1": "macro F1 (macF1)",
    "f1_of_averages": "macro F1' (macF1')",
    "weighted_f1": "weighted F1",
    "kappa": "Kappa",
    "mcc": "MCC",
}

_Y, _C, _N = "✓", "(✓)", "✗"

#: Table 5 of Opitz (2024) as printed: "✓" the metric has the property, "(✓)" it
#: has it after prevalence calibration, "✗" neither; "PV_note" is the printed
#: chance-correction annotation. The PDF-to-text extraction kept only the "(✓)"
#: marks and the annotations; the plain marks are restored from the paper's
#: own text (section 4, appendices A-G and the summary in 6.1), and the three
#: "(✓)" of weighted F1 are placed on PIII-PV because PII is a plain ✓ (4.6)
#: and PI is a plain ✗ (F.1). GmacR and HmacR share one printed row.
PAPER_TABLE_5 = {
    "accuracy": {"PI": _Y, "PII": _C, "PIII": _C, "PIV": _C, "PV": _C, "PV_note": ""},
    "macro_recall": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _Y, "PV": _Y, "PV_note": "1/n, strict",
    },
    "geometric_macro_recall": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _Y, "PV": _Y, "PV_note": "1/n",
    },
    "harmonic_macro_recall": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _Y, "PV": _Y, "PV_note": "1/n",
    },
    "macro_precision": {
        "PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _C, "PV": _Y, "PV_note": "1/n, strict",
    },
    "macro_f1": {"PI": _Y, "PII": _Y, "PIII": _Y, "PIV": _C, "PV": _Y, "PV_note": "1/n"},
    "f1_of_averages": {
        "PI": _Y, "PII": _Y, "PIII": _N, "PIV": _C, "PV": _Y, "PV_note": "1/n, strict",
    },
    "weighted_f1": {"PI": _N, "PII": _Y, "PIII": _C, "PIV": _C, "PV": _C, "PV_note": ""},
    "kappa": {"PI": _N, "PII": _Y, "PIII": _N, "PIV": _C, "PV": _Y, "PV_note": "0, complete"},
    "mcc": {"PI": _N, "PII": _Y, "PIII": _N, "PIV": _C, "PV": _Y, "PV_note": "0, complete"},
}  # fmt: skip

#: Opitz (2024), tables 7 and 8: adding 10 errors to m[2, 1] raises MCC and kappa.
PAPER_M7 = np.array([[10.0, 43.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


# ----------------------------------------------------------------------------- results


def _name(metric) -> str:
    return getattr(metric, "__name__", None) or repr(metric)


def _fmt(x) -> str:
    x = float(x)
    return f"{x:.0f}" if x.is_integer() else f"{x:.4g}"


def _clean(x: float) -> float:
    """Round away floating-point dust so that -1e-17 prints as 0."""
    return round(float(x), 9) + 0.0


def _matrix_text(m) -> str:
    m = np.asarray(m)
    return "[" + ", ".join("[" + ", ".join(_fmt(v) for v in row) + "]" for row in m) + "]"


def _matrix_html(m, highlight=None) -> str:
    m = np.asarray(m)
    rows = []
    for i, row in enumerate(m):
        cells = []
        for j, v in enumerate(row):
            style = ' style="background:#F0E442"' if highlight == (i, j) else ""
            cells.append(f"<td{style}>{_fmt(v)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return '<table class="probe-matrix">' + "".join(rows) + "</table>"


@dataclass(frozen=True, repr=False)
class ProbeResult:
    """Outcome of one probe: truthy iff the property was found to hold.

    Attributes
    ----------
    prop : str
        Property code, "PI" ... "PV".
    metric : str
        Name of the probed metric.
    holds : bool
        The verdict.
    kind : str
        What the verdict rests on: "counterexample" (a refutation),
        "witness" (a proof of existence), "no counterexample" or "no witness"
        (a search that came back empty), "necessary condition" (PIII passes).
    n_cases : int
        How many matrices (or matrix pairs) were evaluated.
    detail : str
        One sentence explaining the verdict.
    evidence : dict
        The counterexample or witness: matrices ``m`` and ``m_after``, scores
        ``before`` and ``after``, the cell, step or scaling used.
    """

    prop: str
    metric: str
    holds: bool
    kind: str
    n_cases: int
    detail: str
    evidence: dict = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.holds)

    @property
    def counterexample(self):
        """The evidence when it refutes the property, else ``None``."""
        return self.evidence if self.kind == "counterexample" else None

    def _lines(self) -> list[str]:
        verdict = "holds" if self.holds else "fails"
        lines = [
            f"{self.prop} ({PROPERTIES.get(self.prop, '?')}) {verdict} for {self.metric}: "
            f"{self.kind}, {self.n_cases} cases",
            f"  {self.detail}",
        ]
        for key, value in self.evidence.items():
            text = _matrix_text(value) if np.ndim(value) == 2 else repr(value)
            lines.append(f"  {key} = {text}")
        return lines

    def __repr__(self) -> str:
        return "\n".join(self._lines())

    def _repr_html_(self) -> str:
        esc = html.escape
        verdict = "holds" if self.holds else "fails"
        # Darker shades of Okabe-Ito bluish green and vermilion: the palette's own
        # values are below the 4.5:1 contrast that text on white needs.
        colour = "#007A5A" if self.holds else "#B03A00"
        parts = [
            f'<div class="probe-result"><p><strong>{esc(self.prop)} '
            f"({esc(PROPERTIES.get(self.prop, '?'))})</strong> "
            f'<span style="color:{colour}"><strong>{verdict}</strong></span> for '
            f"<code>{esc(self.metric)}</code> — {esc(self.kind)}, {self.n_cases} cases.</p>",
            f"<p>{esc(self.detail)}</p>",
        ]
        cell = self.evidence.get("cell")
        items = []
        for key, value in self.evidence.items():
            if np.ndim(value) == 2:
                items.append(f"<li>{esc(key)}: {_matrix_html(value, cell)}</li>")
            else:
                items.append(f"<li>{esc(key)} = {esc(repr(value))}</li>")
        if items:
            parts.append("<ul>" + "".join(items) + "</ul>")
        parts.append("</div>")
        return "".join(parts)


@dataclass(frozen=True, repr=False)
class ChanceResult(ProbeResult):
    """Outcome of :func:`is_chance_corrected`, with the baseline per number of classes.

    ``baselines[n] = (lowest, highest)`` score of a random classifier with
    ``n`` classes; ``omega[n]`` is the highest, the paper's :math:`\\omega(n)`.
    """

    baselines: dict = field(default_factory=dict)
    strict: bool = False
    complete: bool = False

    @property
    def omega(self) -> dict:
        """:math:`\\omega(n)`, the best score of any random classifier, per ``n``."""
        return {n: hi for n, (lo, hi) in self.baselines.items()}

    @property
    def note(self) -> str:
        """Annotation in the style of Table 5: "1/n, strict", "0, complete", ...; "" if no PV."""
        if not self.holds:
            return ""
        om = self.omega
        if all(abs(v * n - 1) < 1e-6 for n, v in om.items()):
            base = "1/n"
        elif all(abs(v * n * n - 1) < 1e-6 for n, v in om.items()):
            base = "1/n²"
        elif self.complete:
            base = _fmt(round(next(iter(om.values())), 6))
        else:
            base = "ω(n)"
        if self.complete:
            return f"{base}, complete"
        return f"{base}, strict" if self.strict else base

    def _lines(self) -> list[str]:
        lines = super()._lines()
        for n, (lo, hi) in self.baselines.items():
            lines.append(
                f"  n={n}: random classifiers score between {_clean(lo):.6f} and {_clean(hi):.6f}"
            )
        lines.append(f"  strict: {self.strict}, complete: {self.complete}, note: {self.note!r}")
        return lines

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{n}</td><td>{_clean(lo):.6f}</td><td>{_clean(hi):.6f}</td></tr>"
            for n, (lo, hi) in self.baselines.items()
        )
        table = (
            '<table class="probe-baselines"><thead><tr><th scope="col">n</th>'
            '<th scope="col">lowest random score</th><th scope="col">ω(n) = highest</th>'
            f"</tr></thead><tbody>{rows}</tbody></table>"
        )
        extra = f"<p>strict: {self.strict}, complete: {self.complete}</p>"
        return super()._repr_html_().replace("</div>", table + extra + "</div>")


# ----------------------------------------------------------------------------- helpers


def calibrated(metric):
    """Return ``metric ∘ prevalence_calibrate``: the metric of the prevalence-calibrated matrix.

    The name gains a ``~`` (the paper writes :math:`metric^\\sim`).
    """

    def composed(m):
        return metric(prevalence_calibrate(m))

    composed.__name__ = _name(metric) + "~"
    composed.__doc__ = f"{_name(metric)} of the prevalence-calibrated matrix (Opitz 2024, eq. 6)."
    return composed


def _scores(metric, stack: np.ndarray) -> np.ndarray:
    """Evaluate ``metric`` on a stack of any leading shape, returning that shape."""
    lead = stack.shape[:-2]
    n = stack.shape[-1]
    with np.errstate(all="ignore"):
        out = np.asarray(metric(stack.reshape(-1, n, n)), dtype=np.float64)
    return out.reshape(lead)


def _dirichlet(rng: np.random.Generator, alpha: float, shape: tuple) -> np.ndarray:
    """Dirichlet samples over the last axis of ``shape`` (gamma draws, much faster than
    ``Generator.dirichlet`` for small ``alpha``)."""
    g = rng.gamma(alpha, size=shape)
    g[g.sum(axis=-1) == 0, 0] = 1.0
    return g / g.sum(axis=-1, keepdims=True)


@functools.lru_cache(maxsize=64)
def _cached_cases(n: int, size: int, seed: int) -> np.ndarray:
    out = _cases(n, size, np.random.default_rng([seed, n, size]))
    out.flags.writeable = False
    return out


def _cases(n: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """A varied stack of confusion matrices in which every class occurs.

    Families (in equal parts): uniform integer counts; sparse Dirichlet mass
    (many cells near 0); skewed prevalences with a random column-stochastic
    classifier; one dominant off-diagonal cell; a classifier that predicts one
    class almost always; strong diagonals (good classifiers). Half of each
    family is rounded to integer counts.
    """
    k = max(size // 6, 1)
    total = rng.choice([20.0, 100.0, 1000.0], size=(6 * k, 1, 1))
    fams = []
    fams.append(rng.integers(0, 50, size=(k, n, n)).astype(float))
    fams.append(_dirichlet(rng, 0.15, (k, n * n)).reshape(k, n, n))
    prev = _dirichlet(rng, 0.4, (k, n))
    cond = _dirichlet(rng, 0.7, (k, n, n)).swapaxes(-1, -2)
    fams.append(cond * prev[:, None, :])
    dom = _dirichlet(rng, 1.0, (k, n * n)).reshape(k, n, n)
    i = rng.integers(0, n, k)
    j = (i + rng.integers(1, n, k)) % n
    dom[np.arange(k), i, j] += rng.uniform(2, 30, k)
    fams.append(dom)
    row = _dirichlet(rng, 0.5, (k, n * n)).reshape(k, n, n)
    row[np.arange(k), rng.integers(0, n, k), :] += rng.uniform(1, 20, (k, n))
    fams.append(row)
    diag = _dirichlet(rng, 1.0, (k, n * n)).reshape(k, n, n)
    diag += np.eye(n) * rng.uniform(1, 20, (k, 1, 1))
    fams.append(diag)
    m = np.concatenate(fams)
    m = m / m.sum(axis=(-2, -1), keepdims=True) * total
    half = rng.random(6 * k) < 0.5
    m[half] = np.round(m[half])
    # every class must occur (calibration needs it): give an empty column one correct item
    empty = m.sum(axis=-2) == 0
    idx = np.argwhere(empty)
    m[idx[:, 0], idx[:, 1], idx[:, 1]] = 1.0
    return m


def _check_metric(metric, n: int) -> None:
    """Fail early with a clear message if ``metric`` does not follow the calling convention."""
    probe = np.stack([np.eye(n) + 1.0, np.eye(n) * 3 + 1.0])
    try:
        out = np.asarray(metric(probe), dtype=np.float64)
    except Exception as err:
        raise ValueError(
            f"metric {_name(metric)} failed on a stack of shape {probe.shape}: {err}"
        ) from err
    if out.shape != (2,):
        raise ValueError(
            f"metric {_name(metric)} must map a stack (k, n, n) to shape (k,); "
            f"got shape {out.shape}"
        )


def _is_integer(m: np.ndarray) -> np.ndarray:
    return np.all(m == np.round(m), axis=(-2, -1))


def _rng(seed) -> np.random.Generator:
    return np.random.default_rng(seed)


# ----------------------------------------------------------------------------- PI


def is_monotonic(
    metric, *, ns=(2, 3, 4), size=500, steps=(1.0, 10.0), tol=1e-7, seed=0, extra_cases=()
) -> ProbeResult:
    r"""Probe PI: one more correct item never lowers the score, one more error never raises it.

    For every case :math:`m` (a varied random stack per ``n`` in ``ns``, the
    paper's matrix of table 7 for ``n = 3``, and ``extra_cases``), every cell
    :math:`(i, j)` and every step :math:`\delta`, compare
    :math:`metric(m + \delta e_{ij})` with :math:`metric(m)`: a rise by more
    than ``tol`` on an error cell (:math:`i \ne j`) or a fall on a diagonal
    cell refutes PI (the discrete version of Opitz 2024, footnote 3). The
    largest violation found is returned as the counterexample.

    Parameters
    ----------
    metric : callable
        ``(k, n, n) -> (k,)``; rows = predicted, columns = true.
    ns : sequence of int
        Numbers of classes to try.
    size : int
        Random matrices per ``n``.
    steps : sequence of float
        Masses added to one cell.
    tol : float
        Changes within ``tol * max(1, |score|)`` count as floating-point noise.
    seed : int
        Seed of the case generator (the result is deterministic).
    extra_cases : sequence of array_like
        More matrices to include (any ``n``).

    Returns
    -------
    ProbeResult
    """
    by_n = {n: [_cached_cases(n, size, seed)] for n in ns}
    by_n.setdefault(3, []).append(PAPER_M7[None])
    for extra in extra_cases:
        e = as_confusion(extra)
        by_n.setdefault(e.shape[-1], []).append(e.reshape(-1, *e.shape[-2:]))
    worst, n_cases = None, 0
    for n, parts in by_n.items():
        _check_metric(metric, n)
        m = np.concatenate(parts)
        base = _scores(metric, m)
        eye = np.eye(n * n).reshape(n * n, n, n)
        st = np.asarray(steps, dtype=float)
        bumped = m[:, None, None] + st[None, :, None, None, None] * eye[None, None]
        after = _scores(metric, bumped)  # (k, steps, cells)
        n_cases += after.size
        diagonal = np.eye(n, dtype=bool).reshape(-1)
        change = after - base[:, None, None]
        # a positive "violation" is a fall on the diagonal or a rise off it
        violation = np.where(diagonal, -change, change)
        violation = np.where(np.isnan(violation), -np.inf, violation)
        limit = tol * np.maximum(1.0, np.abs(base))[:, None, None]
        excess = violation - limit
        # prefer a counterexample in whole counts: it reads better than soft mass
        pref = np.where((excess > 0) & _is_integer(m)[:, None, None], excess + 1e6, excess)
        flat = int(np.argmax(pref))
        if excess.reshape(-1)[flat] > 0 and (worst is None or pref.reshape(-1)[flat] > worst[0]):
            c, s, cell = np.unravel_index(flat, excess.shape)
            i, j = divmod(int(cell), n)
            worst = (
                pref.reshape(-1)[flat],
                m[c],
                float(st[s]),
                (i, j),
                float(base[c]),
                float(after[c, s, cell]),
            )
    name = _name(metric)
    if worst is None:
        return ProbeResult(
            "PI",
            name,
            True,
            "no counterexample",
            n_cases,
            "No added correct item lowered the score and no added error raised it.",
        )
    _, m0, step, (i, j), before, after = worst
    m1 = m0.copy()
    m1[i, j] += step
    what = "a correct item" if i == j else "an error"
    how = "lowered" if i == j else "raised"
    return ProbeResult(
        "PI",
        name,
        False,
        "counterexample",
        n_cases,
        f"Adding {_fmt(step)} to m[{i}, {j}] ({what}) {how} the score from "
        f"{before:.6g} to {after:.6g}.",
        {"m": m0, "m_after": m1, "cell": (i, j), "step": step, "before": before, "after": after},
    )


# ----------------------------------------------------------------------------- PII


def is_class_sensitive(metric, *, ns=(2, 3, 4), size=300, step=1.0, tol=1e-7, seed=1):
    r"""Probe PII: does the gain of a correct item, or the loss of an error, depend on the class?

    Discrete version of Opitz (2024), footnote 4: look for a matrix :math:`m`
    and two diagonal cells with :math:`metric(m + \delta e_{ii}) \ne
    metric(m + \delta e_{jj})`, or two error cells with
    :math:`metric(m + \delta e_{ij}) \ne metric(m + \delta e_{kl})`. Finding
    one proves PII; a metric that only counts right and wrong (accuracy) never
    yields one.

    Returns
    -------
    ProbeResult
        With the witness matrix and the two cells when PII holds.
    """
    best, n_cases = None, 0
    for n in ns:
        _check_metric(metric, n)
        m = _cached_cases(n, size, seed)
        eye = np.eye(n * n).reshape(n * n, n, n)
        after = _scores(metric, m[:, None] + step * eye[None])  # (k, cells)
        n_cases += after.size
        diagonal = np.eye(n, dtype=bool).reshape(-1)
        for mask, label in ((diagonal, "correct"), (~diagonal, "error")):
            part = np.where(mask[None], after, np.nan)
            with np.errstate(all="ignore"):
                spread = np.nanmax(part, axis=1) - np.nanmin(part, axis=1)
            spread = np.where(np.isnan(spread), -np.inf, spread)
            c = int(np.argmax(spread))
            scale = tol * max(1.0, float(np.nanmax(np.abs(part[c]))))
            if spread[c] > scale and (best is None or spread[c] > best[0]):
                hi = int(np.nanargmax(part[c]))
                lo = int(np.nanargmin(part[c]))
                best = (
                    spread[c],
                    label,
                    m[c],
                    divmod(hi, n),
                    divmod(lo, n),
                    part[c, hi],
                    part[c, lo],
                )
    name = _name(metric)
    if best is None:
        return ProbeResult(
            "PII",
            name,
            False,
            "no witness",
            n_cases,
            "Every correct item counted the same in every class, and every error the same in "
            "every cell: the metric only sees right and wrong.",
        )
    _, label, m0, hi, lo, s_hi, s_lo = best
    return ProbeResult(
        "PII",
        name,
        True,
        "witness",
        n_cases,
        f"Adding {_fmt(step)} {label} item to m[{hi[0]}, {hi[1]}] gives {s_hi:.6g}, "
        f"to m[{lo[0]}, {lo[1]}] gives {s_lo:.6g}.",
        {"m": m0, "cells": (hi, lo), "scores": (float(s_hi), float(s_lo))},
    )


# ----------------------------------------------------------------------------- PIII

#: Exponents p of the generalised mean tried by :func:`is_decomposable` (0 = geometric mean).
EXPONENTS = tuple(np.round(np.arange(-4.0, 4.0001, 0.25), 2).tolist())


def _transform(f: np.ndarray, p: float) -> np.ndarray:
    with np.errstate(all="ignore"):
        if p == 0:
            return np.where(f > 0, np.log(np.where(f > 0, f, 1.0)), np.nan)
        if p == 1:
            return f
        return np.where(f > 0, np.power(np.where(f > 0, f, 1.0), p), np.nan)


def _disjoint_pairs(n: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of cells whose classes do not overlap: no class's row or column holds both."""
    cells = [(i, j) for i in range(n) for j in range(n)]
    return [(a, b) for a in cells for b in cells if a < b and not ({a[0], a[1]} & {b[0], b[1]})]


def is_decomposable(metric, *, ns=(2, 3, 4), size=120, step=3.0, tol=1e-8, seed=2):
    r"""Probe PIII through a necessary condition for a generalised mean over classes.

    If :math:`metric(m) = \big(\frac1n\sum_i g(m_{i,\cdot}, m_{\cdot,i}, i)^p\big)^{1/p}`
    (Opitz 2024, eq. 4), then :math:`metric^p` is a sum of terms that each see
    only row and column :math:`i` (the logarithm for :math:`p = 0`). Two cells
    :math:`a, b` that share no class — e.g. :math:`m_{00}` and :math:`m_{11}`,
    or :math:`m_{01}` and :math:`m_{23}` — then never meet in one term, so the
    mixed difference

    .. math:: D = \phi(m + a + b) - \phi(m + a) - \phi(m + b) + \phi(m), \qquad \phi = metric^p

    is 0. The probe evaluates :math:`D` on strictly positive random matrices
    for every exponent in :data:`EXPONENTS`. PIII is *refuted* (for those
    exponents) when every exponent leaves some :math:`D \ne 0`; otherwise it
    returns the exponents that passed. A pass is a necessary condition only —
    sufficiency needs the algebraic form (e.g. :math:`g = R_i`, :math:`p = 1`
    for macro recall), which the result says.

    Returns
    -------
    ProbeResult
        ``evidence["exponents"]``: the exponents consistent with the data; on
        failure the matrix and cells with the largest :math:`|D|` at :math:`p = 1`.
    """
    rng = _rng(seed)
    ok = np.ones(len(EXPONENTS), dtype=bool)
    worst, n_cases = None, 0
    for n in ns:
        _check_metric(metric, n)
        pairs = _disjoint_pairs(n)
        m = _cached_cases(n, size, seed) + rng.uniform(0.5, 2.0, size=(1, n, n))
        ea = np.zeros((len(pairs), n, n))
        eb = np.zeros((len(pairs), n, n))
        for k, (a, b) in enumerate(pairs):
            ea[k][a] = step
            eb[k][b] = step
        base = _scores(metric, m)[:, None]
        fa = _scores(metric, m[:, None] + ea[None])
        fb = _scores(metric, m[:, None] + eb[None])
        fab = _scores(metric, m[:, None] + ea[None] + eb[None])
        n_cases += fa.size
        for q, p in enumerate(EXPONENTS):
            if not ok[q]:
                continue
            t = [_transform(np.broadcast_to(x, fa.shape), p) for x in (base, fa, fb, fab)]
            d = t[3] - t[1] - t[2] + t[0]
            scale = np.maximum(1.0, np.max(np.abs(t), axis=0))
            bad = ~(np.abs(d) <= tol * scale)  # NaN counts as bad
            if bad.any():
                ok[q] = False
            if p == 1 and bad.any():
                dd = np.where(np.isnan(d), np.inf, np.abs(d))
                c, k = np.unravel_index(int(np.argmax(dd)), dd.shape)
                if worst is None or dd[c, k] > worst[0]:
                    worst = (dd[c, k], m[c], pairs[k], float(d[c, k]))
    name = _name(metric)
    passing = [p for p, good in zip(EXPONENTS, ok, strict=True) if good]
    if passing:
        return ProbeResult(
            "PIII",
            name,
            True,
            "necessary condition",
            n_cases,
            "Cells that share no class never interact (mixed differences are 0) after "
            f"x -> x**p for p in {passing}. This is necessary, not sufficient: that a "
            "class-wise g exists is established by the metric's formula, not by this probe.",
            {"exponents": passing},
        )
    ev = {"exponents": []}
    detail = (
        f"For every exponent p in [{EXPONENTS[0]}, {EXPONENTS[-1]}] some pair of cells that "
        "share no class interact, so the score is no generalised mean over class-wise scores "
        "with such a p."
    )
    if worst is not None:
        _, m0, (a, b), d = worst
        ev.update({"m": m0, "cells": (a, b), "step": step, "mixed_difference_p1": d})
        detail += (
            f" At p = 1: adding {_fmt(step)} to m[{a[0]}, {a[1]}] changes the effect of adding "
            f"{_fmt(step)} to m[{b[0]}, {b[1]}] by {d:.3g}."
        )
    return ProbeResult("PIII", name, False, "counterexample", n_cases, detail, ev)


# ----------------------------------------------------------------------------- PIV


def is_prevalence_invariant(metric, *, ns=(2, 3, 4), size=300, tol=1e-7, seed=3):
    r"""Probe PIV: :math:`metric(m\lambda) = metric(m)` for diagonal :math:`\lambda > 0`.

    Each case gets its own random :math:`\lambda` (log-uniform in [1/10, 10],
    applied with :func:`clfmetrics.prevalence_scale`); since the identity is a
    valid :math:`\lambda'`, comparing with :math:`m` itself tests the paper's
    :math:`metric(m\lambda) = metric(m\lambda')`. The largest change is the
    counterexample.
    """
    rng = _rng(seed)
    worst, n_cases = None, 0
    for n in ns:
        _check_metric(metric, n)
        m = _cached_cases(n, size, seed)
        lam = np.exp(rng.uniform(np.log(0.1), np.log(10.0), size=(len(m), n)))
        before = _scores(metric, m)
        after = _scores(metric, prevalence_scale(m, lam))
        n_cases += len(m)
        change = np.abs(after - before)
        change = np.where(np.isnan(change) & ~(np.isnan(after) & np.isnan(before)), np.inf, change)
        change = np.nan_to_num(change, nan=0.0)
        excess = change - tol * np.maximum(1.0, np.abs(np.nan_to_num(before)))
        pref = np.where((excess > 0) & _is_integer(m), excess + 1e6, excess)
        c = int(np.argmax(pref))
        if excess[c] > 0 and (worst is None or pref[c] > worst[0]):
            worst = (pref[c], m[c].copy(), lam[c], float(before[c]), float(after[c]))
    name = _name(metric)
    if worst is None:
        return ProbeResult(
            "PIV",
            name,
            True,
            "no counterexample",
            n_cases,
            "Rescaling the true classes (columns) never changed the score.",
        )
    _, m0, lam, before, after = worst
    return ProbeResult(
        "PIV",
        name,
        False,
        "counterexample",
        n_cases,
        f"Scaling the columns by λ = {np.round(lam, 3).tolist()} changes the score from "
        f"{before:.6g} to {after:.6g}.",
        {"m": m0, "m_after": prevalence_scale(m0, lam), "lam": lam, "before": before,
         "after": after},
    )  # fmt: skip


# ----------------------------------------------------------------------------- PV


def expected_random_matrix(prevalence, prediction) -> np.ndarray:
    r"""The expected (normalised) confusion matrix of a random classifier: :math:`m_{ij} = z_i p_j`.

    ``prediction`` :math:`z` is how often the classifier predicts each class,
    whatever the item; ``prevalence`` :math:`p` how often each class occurs.
    Both broadcast: shapes ``(..., n)`` give a stack ``(..., n, n)``. This is
    the matrix the proofs of Opitz (2024, B.5-G.5) use.
    """
    p = np.asarray(prevalence, dtype=float)
    z = np.asarray(prediction, dtype=float)
    return z[..., :, None] * p[..., None, :]


def _simplex(rng, n, k, alpha) -> np.ndarray:
    return _dirichlet(rng, alpha, (k, n))


def is_chance_corrected(
    metric, *, ns=(2, 3, 4, 5), n_prevalences=16, n_predictions=40, rounds=20, tol=1e-6, seed=4
) -> ChanceResult:
    r"""Probe PV on exact expected matrices of random classifiers.

    For each number of classes :math:`n`, data sets are prevalence vectors
    :math:`p` (uniform, one very skewed, and random ones) and random
    classifiers are prediction distributions :math:`z` (uniform, :math:`z = p`,
    near-constant, random), all strictly positive. The score of
    :math:`m = z p^T` is computed for every pair, and for each :math:`p` the
    best :math:`z` is refined by a seeded random search on the simplex.

    * PV holds when the best random score :math:`\omega` is the same for every
      data set of :math:`n` classes (within ``tol``) and below 1.
    * *strict*: every random classifier scores :math:`\omega(n)`.
    * *complete*: strict, and :math:`\omega(n)` is the same for every ``n``.

    Returns
    -------
    ChanceResult
        ``baselines[n] = (lowest, highest)``; ``omega``; ``strict``; ``complete``;
        ``note`` in the style of Table 5 ("1/n, strict", "0, complete").
    """
    rng = _rng(seed)
    baselines, spread_worst, n_cases = {}, (0.0, None), 0
    for n in ns:
        _check_metric(metric, n)
        prevs = np.concatenate(
            [
                np.full((1, n), 1.0 / n),
                (lambda v: v / v.sum())(np.geomspace(1.0, 0.02, n))[None],
                _simplex(rng, n, n_prevalences - 2, 0.7),
            ]
        )
        preds = np.concatenate(
            [
                np.full((1, n), 1.0 / n),
                0.98 * np.eye(n) + 0.02 / n,
                _simplex(rng, n, n_predictions // 2, 1.0),
                _simplex(rng, n, n_predictions - n_predictions // 2 - n - 1, 0.3) * 0.999
                + 0.001 / n,
            ]
        )
        zs = np.concatenate(
            [np.broadcast_to(preds[None], (len(prevs), *preds.shape)), prevs[:, None, :]], axis=1
        )  # (P, Z, n): the shared classifiers plus z = p for each data set
        scores = _scores(metric, expected_random_matrix(prevs[:, None, :], zs))
        n_cases += scores.size
        best_z = zs[np.arange(len(prevs)), np.nanargmax(scores, axis=1)]
        best = np.nanmax(scores, axis=1)
        lowest = float(np.nanmin(scores))
        for r in range(rounds):
            sigma = 0.5 * (0.002 / 0.5) ** (r / max(rounds - 1, 1))
            prop = best_z[:, None, :] * np.exp(sigma * rng.standard_normal((len(prevs), 8, n)))
            prop /= prop.sum(axis=-1, keepdims=True)
            s = _scores(metric, expected_random_matrix(prevs[:, None, :], prop))
            n_cases += s.size
            lowest = min(lowest, float(np.nanmin(s)))
            k = np.nanargmax(s, axis=1)
            gain = s[np.arange(len(prevs)), k] > best
            best = np.where(gain, s[np.arange(len(prevs)), k], best)
            best_z = np.where(gain[:, None], prop[np.arange(len(prevs)), k], best_z)
        hi = float(np.nanmax(best))
        baselines[n] = (lowest, hi)
        spread = hi - float(np.nanmin(best))
        if spread > spread_worst[0]:
            lo_idx, hi_idx = int(np.nanargmin(best)), int(np.nanargmax(best))
            spread_worst = (spread, (n, prevs[lo_idx], best[lo_idx], prevs[hi_idx], best[hi_idx]))
    name = _name(metric)
    his = np.array([hi for lo, hi in baselines.values()])
    data_free = spread_worst[0] <= tol
    holds = bool(data_free and np.all(his < 1 - tol))
    strict = holds and all(hi - lo <= tol for lo, hi in baselines.values())
    complete = strict and float(np.ptp(his)) <= tol
    if holds:
        detail = (
            "The best random classifier scores the same on every data set with n classes: "
            + ", ".join(f"ω({n}) = {_clean(hi):.6f}" for n, (lo, hi) in baselines.items())
            + "."
        )
        return ChanceResult(
            "PV", name, True, "no counterexample", n_cases, detail, {},
            baselines, strict, complete,
        )  # fmt: skip
    if data_free:
        detail = "Random classifiers can reach a score of 1."
        ev = {}
    else:
        n, p_lo, s_lo, p_hi, s_hi = spread_worst[1]
        detail = (
            f"With n = {n}, the best random classifier scores {s_lo:.4f} on prevalences "
            f"{np.round(p_lo, 3).tolist()} but {s_hi:.4f} on {np.round(p_hi, 3).tolist()}: "
            "the chance baseline depends on the data set."
        )
        ev = {"n": n, "prevalence_low": p_lo, "best_low": float(s_lo),
              "prevalence_high": p_hi, "best_high": float(s_hi)}  # fmt: skip
    return ChanceResult(
        "PV", name, False, "counterexample", n_cases, detail, ev, baselines, False, False
    )


# ----------------------------------------------------------------------------- the table

_PROBES = {
    "PI": is_monotonic,
    "PII": is_class_sensitive,
    "PIII": is_decomposable,
    "PIV": is_prevalence_invariant,
    "PV": is_chance_corrected,
}


def probe_all(metric) -> dict:
    """Run all five probes on ``metric``; returns ``{"PI": ProbeResult, ...}``."""
    return {code: probe(metric) for code, probe in _PROBES.items()}


class _TableView:
    """Text and HTML display of ``self.rows()`` under the property codes, with ``caption``."""

    caption = ""

    def __repr__(self) -> str:
        return _text_table(["metric", *PROPERTIES], self.rows())

    def _repr_html_(self) -> str:
        return _html_table(
            ["metric", *(f"{k} ({v})" for k, v in PROPERTIES.items())],
            self.rows(),
            self.caption,
        )


@dataclass(repr=False)
class PropertyTable(_TableView):
    """Probe results for several metrics, raw and prevalence-calibrated.

    ``raw[name][prop]`` and ``cal[name][prop]`` are :class:`ProbeResult` objects.
    It renders like Table 5: "✓" the metric has the property, "(✓)" only after
    prevalence calibration, "✗" neither; PV carries the baseline annotation.
    """

    raw: dict
    cal: dict

    @property
    def names(self) -> list[str]:
        return list(self.raw)

    def mark(self, name: str, prop: str) -> str:
        """The Table-5 style mark for one cell."""
        if self.raw[name][prop]:
            return _Y
        if name in self.cal and self.cal[name][prop]:
            return _C
        return _N

    def note(self, name: str) -> str:
        return self.raw[name]["PV"].note

    def as_dict(self) -> dict:
        """``{metric: {code: bool}}`` plus ``{metric~: {code: bool}}``, the chooser's input.

        A row ``name~`` holds the probe results of the metric computed on the
        prevalence-calibrated matrix: a metric of its own, which may gain one
        property and lose another.
        """
        out = {n: {p: bool(self.raw[n][p]) for p in PROPERTIES} for n in self.names}
        out |= {
            n + CALIBRATED_SUFFIX: {p: bool(self.cal[n][p]) for p in PROPERTIES} for n in self.cal
        }
        return out

    def rows(self) -> list[list[str]]:
        out = []
        for name in self.names:
            cells = [self.mark(name, p) for p in PROPERTIES]
            note = self.note(name)
            if note:
                cells[-1] += f" : {note}"
            out.append([name, *cells])
        return out

    caption = (
        "Computed by the probes. ✓ has the property, (✓) only after prevalence "
        "calibration, ✗ neither."
    )


def _text_table(header, rows) -> str:
    widths = [max(len(str(r[c])) for r in [header, *rows]) for c in range(len(header))]
    return "\n".join(
        "  ".join(str(x).ljust(w) for x, w in zip(r, widths, strict=True)) for r in [header, *rows]
    )


def _html_table(header, rows, caption="") -> str:
    esc = html.escape
    parts = ['<table class="property-table">']
    if caption:
        parts.append(f"<caption>{esc(caption)}</caption>")
    parts.append(
        "<thead><tr>" + "".join(f'<th scope="col">{esc(h)}</th>' for h in header) + "</tr></thead>"
    )
    parts.append("<tbody>")
    for r in rows:
        parts.append(
            f'<tr><th scope="row">{esc(str(r[0]))}</th>'
            + "".join(f"<td>{esc(str(x))}</td>" for x in r[1:])
            + "</tr>"
        )
    parts.append("</tbody></table>")
    return "".join(parts)


class PaperTable(_TableView):
    """Displayable view of :data:`PAPER_TABLE_5` (same layout as :class:`PropertyTable`)."""

    def rows(self) -> list[list[str]]:
        out = []
        for name, row in PAPER_TABLE_5.items():
            cells = [row[p] for p in PROPERTIES]
            if row["PV_note"]:
                cells[-1] += f" : {row['PV_note']}"
            out.append([name, *cells])
        return out

    caption = "Table 5 of Opitz (2024) as printed. (✓): fulfilled after prevalence calibration."


def property_table(metrics=None) -> PropertyTable:
    """Compute Table 5: every probe on every metric, raw and after prevalence calibration.

    Parameters
    ----------
    metrics : dict of name -> callable, optional
        Default :data:`TABLE_METRICS` (the paper's rows).
    """
    metrics = TABLE_METRICS if metrics is None else metrics
    raw = {name: probe_all(f) for name, f in metrics.items()}
    cal = {name: probe_all(calibrated(f)) for name, f in metrics.items()}
    return PropertyTable(raw, cal)


@dataclass(frozen=True)
class Disagreement:
    """One cell where the probes and the printed Table 5 differ (or the paper is silent).

    ``kind`` is "disagreement" (the paper's mark is contradicted) or "silent"
    (the paper marks ✓ and says nothing about calibration, but calibration
    loses the property). ``result`` is the probe result that decides it.
    """

    metric: str
    prop: str
    paper: str
    computed: str
    kind: str
    why: str
    result: ProbeResult | None = None


def compare_with_paper(table: PropertyTable) -> list[Disagreement]:
    """List every cell where ``table`` contradicts :data:`PAPER_TABLE_5`, and every silent loss.

    Rules: the paper's "✓" claims the raw metric has the property; "(✓)" claims
    the raw metric lacks it and the calibrated one has it; "✗" claims both lack
    it. For PV the annotation ("1/n, strict", ...) is compared too.
    """
    rules = {  # (paper mark, raw passes, calibrated passes) -> what contradicts it
        (_Y, False): "the raw metric fails the probe",
        (_C, True): "the raw metric already passes the probe",
        (_N, True): "the raw metric passes the probe",
    }
    out = []
    for name in table.names:
        if name not in PAPER_TABLE_5:
            continue
        paper = PAPER_TABLE_5[name]
        for prop in PROPERTIES:
            mark, raw, cal = paper[prop], table.raw[name][prop], table.cal[name][prop]
            computed = table.mark(name, prop)
            if (mark, bool(raw)) in rules:
                why, kind, res = rules[mark, bool(raw)], "disagreement", raw
            elif mark == _C and not cal:
                why, kind, res = "the calibrated metric fails the probe", "disagreement", cal
            elif mark == _N and cal:
                why, kind, res = (
                    "the calibrated metric passes the probe, so (✓) could have been printed",
                    "disagreement",
                    cal,
                )
            elif mark == _Y and not cal:
                why, kind, res = "prevalence calibration loses the property", "silent", cal
                computed = _Y + ", lost after calibration"
            else:
                continue
            out.append(Disagreement(name, prop, mark, computed, kind, why, res))
        note = table.note(name)
        if paper["PV_note"] and note != paper["PV_note"]:
            why = "the chance baseline differs"
            res = table.raw[name]["PV"]
            out.append(Disagreement(name, "PV", paper["PV_note"], note, "disagreement", why, res))
    return out


def disagreement_table(disagreements) -> str:
    """Plain HTML table of :func:`compare_with_paper`'s output (for the chapters)."""

    class _Html:
        def __init__(self, text):
            self.text = text

        def _repr_html_(self):
            return self.text

        def __repr__(self):
            return _text_table(["metric", "property", "paper", "probes", "kind", "why"], rows)

    rows = [[d.metric, d.prop, d.paper, d.computed, d.kind, d.why] for d in disagreements]
    return _Html(
        _html_table(
            ["metric", "property", "paper", "probes", "kind", "why"],
            rows,
            "Cells where the probes and the printed Table 5 differ.",
        )
    )


def metrics_with(table: PropertyTable, required, *, allow_calibration=False) -> list[str]:
    """The metrics of ``table`` that have every property in ``required``.

    Parameters
    ----------
    table : PropertyTable
    required : iterable of str
        Property codes, e.g. ``{"PI", "PIV"}``.
    allow_calibration : bool
        Also offer ``name~`` (the metric of the prevalence-calibrated matrix)
        when the calibrated metric has every required property.

    Returns
    -------
    list of str
        Names in table order; calibrated variants carry a trailing ``~``.
    """
    codes = _check_codes(list(required))
    return _rows_with(table.as_dict(), codes, calibrated=allow_calibration)


def _check_codes(props) -> list[str]:
    """``props`` as a list of property codes (one string is one code); unknown codes raise."""
    codes = [props] if isinstance(props, str) else list(props)
    unknown = [c for c in codes if c not in PROPERTIES]
    if unknown:
        raise ValueError(f"unknown property codes {unknown}; use {list(PROPERTIES)}")
    return codes


def is_calibrated_row(name: str) -> bool:
    """True for a row of a prevalence-calibrated metric (``'macro_f1~'``)."""
    return str(name).endswith(CALIBRATED_SUFFIX)


def _rows_with(rows: dict, codes, *, calibrated: bool) -> list[str]:
    """Names of ``rows`` (in order) with every code; ``name~`` rows only if ``calibrated``."""
    return [
        name
        for name, props in rows.items()
        if (calibrated or not is_calibrated_row(name)) and all(props.get(c, False) for c in codes)
    ]
