"""The library's metrics from the class sums of a stack, without the ``n x n`` matrices.

Every metric of ``clfmetrics.METRICS`` is a function of three vectors per
matrix: the bias ``b`` (row sums, predicted), the prevalence ``p`` (column
sums, true) and the correct mass ``c`` (the diagonal). A resample of ``n``
classes then costs ``3 n`` numbers instead of ``n ** 2``, which is what lets
the report resample 1,000 classes in bounded memory and time.

Each function here repeats the matching private arithmetic of ``averages``,
``classwise`` and ``agreement`` on the same vectors in the same order, so that
for whole-number counts (exact in float64) the values are the same bits as the
matrix functions' for more than ``classwise._SUMS_BY_PRODUCT_MAX_N`` classes
(``tests/test_cli_scale.py`` checks it). Convention: ``m[i, j]`` = items
predicted ``i`` whose true class is ``j``; ``b = m.sum(-1)``, ``p = m.sum(-2)``.
"""

from __future__ import annotations

import numpy as np

from . import _agreement as agreement
from . import _averages as averages
from ._agreement import _combine_blocks, _kappa_of_parts, _mcc_of_parts
from ._classwise import _dot, _f1_of_margins, _harmonic, _ratio, _vsum


def _accuracy(b, p, c, fill):
    return _vsum(c) / _vsum(b)


def _micro_f1(b, p, c, fill):
    micro = _accuracy(b, p, c, fill)
    return _harmonic(micro, micro)


def _macro_recall(b, p, c, fill):
    return _vsum(_ratio(c, p, fill)) / c.shape[-1]


def _macro_precision(b, p, c, fill):
    return _vsum(_ratio(c, b, fill)) / c.shape[-1]


def _macro_f1(b, p, c, fill):
    return _vsum(_f1_of_margins(b, p, c, fill)) / c.shape[-1]


def _f1_of_averages(b, p, c, fill):
    n = c.shape[-1]
    return _harmonic(_vsum(_ratio(c, b, fill)) / n, _vsum(_ratio(c, p, fill)) / n)


def _weighted_f1(b, p, c, fill):
    f1 = _f1_of_margins(b, p, c, fill)
    if np.isnan(fill):
        f1[p == 0] = 0.0
    return _dot(p, f1) / _vsum(p)


def _geometric_macro_recall(b, p, c, fill):
    r = _ratio(c, p, fill)
    return np.prod(r, axis=-1) ** (1.0 / r.shape[-1])


def _harmonic_macro_recall(b, p, c, fill):
    r = _ratio(c, p, fill)
    inv = np.where(np.isnan(r), np.nan, np.inf)
    np.divide(1.0, r, out=inv, where=r > 0)
    return r.shape[-1] / inv.sum(axis=-1)


def _delta_f1(b, p, c, fill):
    # averages._delta_f1 on (b, p, c): the same steps.
    prec, rec = _ratio(c, b, fill), _ratio(c, p, fill)
    n = c.shape[-1]
    s = prec + rec
    w = np.where(np.isnan(s), np.nan, 0.0)
    np.divide(1.0, s, out=w, where=s > 0)
    pw, rw = prec * w, rec * w
    a, bb, cc = _dot(prec, pw), _dot(rec, rw), _dot(prec, rw)
    pair_sum = 2.0 * np.maximum(a * bb - cc * cc, 0.0)
    sigma = _vsum(s)
    out = np.where(np.isnan(sigma), np.nan, 0.0)
    np.divide(pair_sum, n * sigma, out=out, where=sigma > 0)
    return out


def _parts(b, p, c):
    """agreement._parts for more than 8 classes, from the class sums (counts: no rescaling)."""
    x, y = p - c, b - c  # off-diagonal mass of each column, of each row
    q = _vsum(b)[..., None] - b
    left = np.stack([c, x, p, p, b], axis=-2)
    right = np.stack([q - x, y, q, _vsum(p)[..., None] - p, q], axis=-2)
    return np.einsum("...ti,tu->...u", left * right, _combine_blocks())


def _kappa(b, p, c, fill):
    return _kappa_of_parts(_parts(b, p, c), fill)


def _mcc(b, p, c, fill):
    return _mcc_of_parts(_parts(b, p, c), fill)


#: The metric functions of METRICS and their class-sum forms ``f(b, p, c, fill)``.
BY_MARGINS = {
    averages.accuracy: _accuracy,
    averages.micro_precision: _accuracy,
    averages.micro_recall: _accuracy,
    averages.micro_f1: _micro_f1,
    averages.macro_recall: _macro_recall,
    averages.macro_precision: _macro_precision,
    averages.macro_f1: _macro_f1,
    averages.f1_of_averages: _f1_of_averages,
    averages.weighted_f1: _weighted_f1,
    averages.geometric_macro_recall: _geometric_macro_recall,
    averages.harmonic_macro_recall: _harmonic_macro_recall,
    averages.delta_f1: _delta_f1,
    agreement.kappa: _kappa,
    agreement.mcc: _mcc,
}
#: Those whose 0/0 is filled by ``zero_division`` (the others are never undefined on counts).
FILLED = frozenset(BY_MARGINS) - {
    averages.accuracy,
    averages.micro_precision,
    averages.micro_recall,
    averages.micro_f1,
}


def values_and_undefined(func, b, p, c) -> tuple[np.ndarray, np.ndarray]:
    """``func``'s values (``zero_division=0``) and where it is undefined (NaN or a 0/0)."""
    form = BY_MARGINS[func]
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.asarray(form(b, p, c, 0.0), dtype=np.float64)
        undefined = np.isnan(values)
        if func in FILLED:
            undefined |= np.isnan(form(b, p, c, np.nan))
    return values, undefined
