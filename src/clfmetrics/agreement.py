"""Chance-corrected agreement: Cohen's kappa and the multi-class MCC.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j``. With ``s`` the total mass, ``r`` the correct mass, ``b`` the bias
(row sums) and ``p`` the prevalence (column sums) as count vectors:

* kappa = (r s - p.b) / (s^2 - p.b)
* MCC   = (r s - p.b) / sqrt((s^2 - p.p)(s^2 - b.b))   (Gorodkin 2004)

Dividing numerator and denominator by ``s^2`` gives the normalised forms of
Opitz (2024), eq. 14-15: (accuracy - chance) / (1 - chance) and
(accuracy - chance) / sqrt((1 - b.b)(1 - p.p)) with chance = p.b.
Working in counts keeps the zero-denominator test exact for integer matrices.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_confusion, fill_value, scalar_or_array
from .classwise import _bias, _correct, _prevalence

__all__ = ["kappa", "mcc"]


def _parts(m: np.ndarray):
    s = m.sum(axis=(-2, -1))
    b = _bias(m)
    p = _prevalence(m)
    numerator = _correct(m).sum(axis=-1) * s - (p * b).sum(axis=-1)
    return s, b, p, numerator


def _safe_divide(num: np.ndarray, den: np.ndarray, fill: float) -> np.ndarray:
    out = np.full(np.shape(num), fill)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _kappa(m: np.ndarray, fill: float) -> np.ndarray:
    s, b, p, numerator = _parts(m)
    return _safe_divide(numerator, s * s - (p * b).sum(axis=-1), fill)


def _mcc(m: np.ndarray, fill: float) -> np.ndarray:
    s, b, p, numerator = _parts(m)
    den2 = (s * s - (p * p).sum(axis=-1)) * (s * s - (b * b).sum(axis=-1))
    return _safe_divide(numerator, np.sqrt(np.maximum(den2, 0.0)), fill)


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
