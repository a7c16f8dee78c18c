"""Chance-corrected agreement: Cohen's kappa and the multi-class MCC.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j``. With ``s`` the total mass, ``r`` the correct mass, ``b`` the bias
(row sums) and ``p`` the prevalence (column sums) as count vectors:

* kappa = (r s - p.b) / (s^2 - p.b)
* MCC   = (r s - p.b) / sqrt((s^2 - p.p)(s^2 - b.b))   (Gorodkin 2004)

Dividing numerator and denominator by ``s^2`` gives the normalised forms of
Opitz (2024), eq. 14-15: (accuracy - chance) / (1 - chance) and
(accuracy - chance) / sqrt((1 - b.b)(1 - p.p)) with chance = p.b. The code
uses the count form on vectors scaled by a power of two (exact), so ``s^2``
cannot overflow (it would beyond about 1e154) and integer matrices stay
exact. A denominator at or below ``UNDEFINED_BELOW`` (1e-12) times ``s^2``
counts as zero: for count matrices the smallest non-zero relative value of
s^2 - b.b is about 2/s, so this decides exactly for totals up to about 10^12
items, while float rounding of a degenerate float matrix (relative size
1e-16) is not mistaken for a tiny, meaningful denominator.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_confusion, fill_value, scalar_or_array
from .classwise import _dot, _margins, _vsum

__all__ = ["kappa", "mcc"]


UNDEFINED_BELOW = 1e-12


def _parts(m: np.ndarray):
    """Class vectors scaled by a power of two so that the total lies in [0.5, 1).

    Scaling by 2**-k is exact in floating point, so integer matrices keep the
    exactness of the count form (Table 7's kappa is exactly 0), while the
    products can no longer overflow.
    """
    b, p, c = _margins(m)
    s = _vsum(b)
    scale = np.ldexp(1.0, np.minimum(-np.frexp(s)[1], 1022))  # 2**1023 would be the last
    s = s * scale
    b *= scale[..., None]  # b, p and c are fresh arrays: scale them in place
    p *= scale[..., None]
    r = _vsum(c) * scale
    chance = _dot(p, b)
    return s * s, b, p, chance, r * s - chance


def _kappa(m: np.ndarray, fill: float) -> np.ndarray:
    s2, _, _, chance, numerator = _parts(m)
    den = s2 - chance
    out = np.full(np.shape(numerator), fill)
    np.divide(numerator, den, out=out, where=den > UNDEFINED_BELOW * s2)
    return out


def _mcc(m: np.ndarray, fill: float) -> np.ndarray:
    s2, b, p, _, numerator = _parts(m)
    spread_p = s2 - _dot(p, p)
    spread_b = s2 - _dot(b, b)
    # Each factor is tested on its own: float rounding can leave one at 1e-16
    # while the other is of order 1, and their product must not pass.
    limit = UNDEFINED_BELOW * s2
    out = np.full(np.shape(numerator), fill)
    np.divide(
        numerator,
        np.sqrt(np.maximum(spread_p * spread_b, 0.0)),
        out=out,
        where=(spread_p > limit) & (spread_b > limit),
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
