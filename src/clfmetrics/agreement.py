"""Chance-corrected agreement: Cohen's kappa and the multi-class MCC.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j``. With ``s`` the total mass, ``r`` the correct mass, ``b`` the bias
(row sums) and ``p`` the prevalence (column sums) as count vectors:

* kappa = (r s - p.b) / (s^2 - p.b)
* MCC   = (r s - p.b) / sqrt((s^2 - p.p)(s^2 - b.b))   (Gorodkin 2004)

Dividing numerator and denominator by ``s^2`` gives the normalised forms of
Opitz (2024), eq. 14-15: (accuracy - chance) / (1 - chance) and
(accuracy - chance) / sqrt((1 - b.b)(1 - p.p)) with chance = p.b, which is
what the code computes: normalising the class vectors first keeps the
products finite for any mass that fits in a float64 (``s^2`` would overflow
beyond about 1e154). A denominator at or below ``UNDEFINED_BELOW`` (1e-12)
counts as zero: for count matrices the smallest non-zero value of 1 - b.b is
about 2/s, so this decides exactly for totals up to about 10^12 items, while
float rounding of a degenerate float matrix (1 - b.b of order 1e-16) is not
mistaken for a tiny, meaningful denominator.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_confusion, fill_value, scalar_or_array
from .classwise import _bias, _correct, _prevalence

__all__ = ["kappa", "mcc"]


UNDEFINED_BELOW = 1e-12


def _parts(m: np.ndarray):
    s = m.sum(axis=(-2, -1))[..., None]
    b = _bias(m) / s
    p = _prevalence(m) / s
    accuracy = _correct(m).sum(axis=-1) / s[..., 0]
    return b, p, accuracy - (p * b).sum(axis=-1)


def _safe_divide(num: np.ndarray, den: np.ndarray, fill: float) -> np.ndarray:
    out = np.full(np.shape(num), fill)
    np.divide(num, den, out=out, where=den > UNDEFINED_BELOW)
    return out


def _kappa(m: np.ndarray, fill: float) -> np.ndarray:
    b, p, numerator = _parts(m)
    return _safe_divide(numerator, 1.0 - (p * b).sum(axis=-1), fill)


def _mcc(m: np.ndarray, fill: float) -> np.ndarray:
    b, p, numerator = _parts(m)
    spread_p = 1.0 - (p * p).sum(axis=-1)
    spread_b = 1.0 - (b * b).sum(axis=-1)
    # Each factor is tested on its own: float rounding can leave one at 1e-16
    # while the other is of order 1, and their product must not pass.
    out = np.full(np.shape(numerator), fill)
    np.divide(
        numerator,
        np.sqrt(np.maximum(spread_p * spread_b, 0.0)),
        out=out,
        where=(spread_p > UNDEFINED_BELOW) & (spread_b > UNDEFINED_BELOW),
    )
    return out


def kappa(m, *, zero_division=0):
    r"""Cohen's kappa: accuracy corrected for the agreement expected by chance.

    :math:`\kappa = (accuracy - chance) / (1 - chance)` with
    :math:`chance = \mathbf{p}^T\mathbf{b}`, where :math:`\mathbf{b}` and
    :math:`\mathbf{p}` are the bias (row sums) and prevalence (column sums) of
    the normalised matrix.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Returned where the denominator is 0. That happens only when classifier
        and reference both put all mass on one and the same class
        (``chance = 1``): agreement is then perfect but carries no information
        beyond chance. scikit-learn's ``cohen_kappa_score`` returns NaN there
        unless ``replace_undefined_by`` says otherwise.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(kappa([[10, 43, 0], [1, 1, 0], [0, 10, 1]]), 2)
    0.02
    """
    return scalar_or_array(_kappa(as_confusion(m), fill_value(zero_division)))


def mcc(m, *, zero_division=0):
    r"""Matthews correlation coefficient, multi-class form (Gorodkin 2004).

    .. math::

        MCC = \frac{accuracy - \mathbf{p}^T\mathbf{b}}
                   {\sqrt{1 - \mathbf{b}^T\mathbf{b}}\,\sqrt{1 - \mathbf{p}^T\mathbf{p}}}

    with :math:`\mathbf{b}`, :math:`\mathbf{p}` the bias and prevalence of the
    normalised matrix.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Returned where the denominator is 0, i.e. when the classifier always
        predicts one class or the reference holds one class only. The
        numerator is then 0 as well; 0 ("no better than chance") is also what
        scikit-learn's ``matthews_corrcoef`` returns.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(mcc([[10, 43, 0], [1, 1, 0], [0, 10, 1]]), 2)
    0.07
    """
    return scalar_or_array(_mcc(as_confusion(m), fill_value(zero_division)))
