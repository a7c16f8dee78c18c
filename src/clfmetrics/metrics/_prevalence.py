r"""Prevalence scaling and calibration, and the calibrated metrics in closed form.

:func:`prevalence_scale` multiplies column ``j`` by :math:`\lambda_j`;
:func:`prevalence_calibrate` chooses :math:`\lambda^\sim_{jj} = |S| / (n \cdot
prevalence(j))`, so that every class holds :math:`|S|/n` of the mass (Opitz 2024,
eq. 5-6). The metrics of the calibrated matrix follow from the original one in
closed form: the calibrated bias and precision, macro precision, and kappa and MCC
(eq. 16).

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class is
``j``; column ``j`` holds all items of true class ``j``, so scaling it changes how
common class ``j`` is and keeps the proportions of the errors made on it.
"""

from __future__ import annotations

import numpy as np

from .._base.checks import as_confusion, fill_value, reject_masked, scalar_or_array
from ._averages import _macro_recall
from ._classwise import _bias, _precision, _prevalence


def prevalence_scale(m, lam) -> np.ndarray:
    r"""Return :math:`m\lambda`: column ``j`` multiplied by ``lam[j]``.

    ``lam`` holds the diagonal of the prevalence scaling matrix :math:`\lambda`.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    lam : array_like, shape (n,) or (..., n)
        Positive, finite scale factors, one per true class; broadcast over the stack.

    Returns
    -------
    ndarray, shape of ``m`` broadcast with ``lam``

    Examples
    --------
    >>> prevalence_scale([[15, 5], [10, 10]], [1, 2])
    array([[15., 10.],
           [10., 20.]])
    """
    m = as_confusion(m)
    reject_masked(lam, "lam", "values")
    raw = np.asarray(lam)
    if raw.dtype == bool or raw.dtype.kind not in "iuf":
        raise ValueError(f"lam must be numbers, one per class; got {lam!r}")
    lam = raw.astype(np.float64, copy=False)
    n = m.shape[-1]
    if lam.ndim < 1 or lam.shape[-1] != n:
        raise ValueError(f"lam must have shape (..., {n}), one factor per class; got {lam.shape}")
    if not np.isfinite(lam).all() or (lam <= 0).any():
        raise ValueError(f"lam must be positive and finite; got {lam}")
    try:
        return m * lam[..., None, :]
    except ValueError:
        raise ValueError(
            f"lam of shape {lam.shape} does not broadcast against the stack of shape {m.shape}"
        ) from None


def prevalence_calibrate(m) -> np.ndarray:
    r"""Give every class the same prevalence (prevalence calibration).

    :math:`\lambda^\sim_{jj} = |S| / (n \cdot prevalence(j))`.

    The total mass :math:`|S|` is unchanged; every column then sums to :math:`|S|/n`.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
        Every class must occur (prevalence > 0), or there is nothing to scale.

    Returns
    -------
    ndarray, same shape as ``m``

    Examples
    --------
    >>> prevalence_calibrate([[30, 5], [10, 15]])
    array([[22.5,  7.5],
           [ 7.5, 22.5]])
    """
    m = as_confusion(m)
    prev = _prevalence(m)
    if (prev <= 0).any():
        bad = np.argwhere(prev <= 0)[0]
        raise ValueError(
            f"cannot calibrate: class {int(bad[-1])} never occurs (prevalence 0)"
            + (f" in stack entry {tuple(bad[:-1].tolist())}" if bad.size > 1 else "")
        )
    n = m.shape[-1]
    total = prev.sum(axis=-1, keepdims=True)
    return m * (total / (n * prev))[..., None, :]


def _calibrated(m) -> np.ndarray:
    """Validate once and calibrate (raises ValueError when a class never occurs)."""
    return prevalence_calibrate(as_confusion(m))


def calibrated_bias(m) -> np.ndarray:
    r"""Normalised bias of the calibrated matrix, :math:`\tilde b_i = bias^\sim(i) / |S|`.

    Since column ``j`` of :math:`m\lambda^\sim` holds :math:`|S|/n`,
    :math:`\tilde b_i = \frac{1}{n}\sum_j m_{i,j} / prevalence(j)
    \approx \frac{1}{n}\sum_j \mathcal{P}(f \to i \mid c = j)`: how often the
    classifier would predict ``i`` if all classes were equally common. The
    entries sum to 1.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
        Every class must occur.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> calibrated_bias([[30, 5], [10, 15]])
    array([0.5, 0.5])
    """
    c = _calibrated(m)
    return _bias(c) / c.sum(axis=(-2, -1))[..., None]


def calibrated_precision(m, *, zero_division=0) -> np.ndarray:
    r"""Class-wise precision after calibration, :math:`P^\sim_i = correct^\sim(i) / bias^\sim(i)`.

    Equivalently :math:`P^\sim_i = R_i / (n\,\tilde b_i)`: Bayes' rule with a
    uniform prior over the true classes.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of :math:`P^\sim_i` for a class that is never predicted.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> calibrated_precision([[30, 5], [10, 15]])
    array([0.75, 0.75])
    """
    return _precision(_calibrated(m), fill_value(zero_division))


def calibrated_macro_precision(m, *, zero_division=0):
    r"""Calibrated macro precision :math:`macP^\sim = \frac{1}{n}\sum_i P^\sim_i`, i.e. macP of mλ∼.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of :math:`P^\sim_i` for a class that is never predicted.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> calibrated_macro_precision([[30, 5], [10, 15]])
    0.75
    """
    p = calibrated_precision(m, zero_division=zero_division)
    return scalar_or_array(p.mean(axis=-1))


def calibrated_kappa_closed_form(m):
    r"""Eq. 16 (Opitz 2024) for kappa: :math:`KAPPA(m\lambda^\sim) = (macR - 1/n) / (1 - 1/n)`.

    Computed from the macro recall of ``m`` alone (no calibrated matrix is built).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
        Every class must occur.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> calibrated_kappa_closed_form([[30, 5], [10, 15]])
    0.5
    """
    arr = as_confusion(m)
    if (_prevalence(arr) <= 0).any():
        _calibrated(arr)  # raises the calibration error naming the class
    n = arr.shape[-1]
    return scalar_or_array((_macro_recall(arr, 0.0) - 1.0 / n) / (1.0 - 1.0 / n))


def calibrated_mcc_closed_form(m, *, zero_division=0):
    r"""Eq. 16 (Opitz 2024) for MCC.

    .. math::

        MCC(m\lambda^\sim) = \frac{macR - 1/n}
            {\sqrt{1 - \tilde{\mathbf b}^T\tilde{\mathbf b}}\,\sqrt{1 - 1/n}}

    with :math:`\tilde{\mathbf b}` from :func:`calibrated_bias`. It depends on
    the calibrated bias, so it is not a function of macR alone.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Returned where :math:`\tilde{\mathbf b}^T\tilde{\mathbf b} = 1` (the
        classifier predicts a single class); the numerator is then 0 too.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(calibrated_mcc_closed_form([[30, 5], [10, 15]]), 6)
    0.5
    """
    fill = fill_value(zero_division)
    arr = as_confusion(m)
    b = calibrated_bias(arr)
    n = arr.shape[-1]
    num = _macro_recall(arr, 0.0) - 1.0 / n
    spread = np.maximum(1.0 - (b * b).sum(axis=-1), 0.0)
    den = np.sqrt(spread) * np.sqrt(1.0 - 1.0 / n)
    out = np.full(np.shape(num), fill)
    # den is 0 only for a single-class predictor; test with a tolerance for rounding.
    np.divide(num, den, out=out, where=den > 1e-12)
    return scalar_or_array(out)
