r"""Generalised (power) means of class-wise recall: macR, GmacR, HmacR as one family.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j`` (rows = predictions, columns = reference), so the recall of class
``i`` is ``m[i, i]`` divided by the ``i``-th column sum.

Opitz (2024), eq. 4 and section 5.1: a class-decomposable metric is a power
mean :math:`M_p(x) = (\frac{1}{n}\sum_i x_i^p)^{1/p}` of class-wise scores;
``p = 1`` gives macro recall, ``p -> 0`` the geometric mean (GmacR),
``p = -1`` the harmonic mean (HmacR).
"""

from __future__ import annotations

import numbers

import numpy as np

from ._checks import as_confusion, fill_value, reject_masked, scalar_or_array
from .classwise import _recall

__all__ = ["power_mean", "power_mean_recall"]


def _as_exponent(p) -> np.ndarray:
    reject_masked(p, "p", "values")
    if isinstance(p, bool) or isinstance(p, np.bool_):
        raise ValueError(f"p must be a real number (or a 1-d array of them); got {p!r}")
    if isinstance(p, numbers.Real):
        arr = np.asarray(float(p))
    else:
        try:
            arr = np.asarray(p)
        except ValueError as err:
            raise ValueError(f"p must be a real number or a 1-d array of them: {err}") from None
        if arr.dtype == bool or not (
            np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
        ):
            raise ValueError(f"p must be a real number or a 1-d array of them; got {p!r}")
        arr = arr.astype(np.float64)
    if arr.ndim > 1:
        raise ValueError(f"p must be a scalar or a 1-d array; got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ValueError(f"p must not be NaN; got {p!r}")
    return arr


def _as_values(x) -> np.ndarray:
    reject_masked(x, "x", "values")
    try:
        arr = np.asarray(x)
    except ValueError as err:
        raise ValueError(f"x is not a rectangular array of numbers: {err}") from None
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise ValueError(f"x must hold numbers; got dtype {arr.dtype}")
    if arr.ndim < 1 or arr.shape[-1] < 1:
        raise ValueError(f"x needs at least one value along its last axis; got shape {arr.shape}")
    arr = arr.astype(np.float64)
    if (arr < 0).any() or np.isinf(arr).any():
        raise ValueError("x must be finite and non-negative (NaN marks an undefined value)")
    return arr


def _power_mean(x: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Power mean over the last axis of ``x`` for every exponent in ``p`` (trailing axis)."""
    scalar_p = p.ndim == 0
    xs = x[..., None, :]  # (..., 1, n) against p of shape (k, 1)
    pk = np.atleast_1d(p)[:, None]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        logx = np.log(xs)  # -inf where x = 0
        t = pk * logx
        # log mean exp(t) = tmax + log1p(mean(expm1(t - tmax))): exact for tiny p, no overflow
        # for large |p|; tmax is infinite only in the cases overridden below.
        tmax = np.max(np.where(np.isnan(t), -np.inf, t), axis=-1, keepdims=True)
        log_mean = tmax[..., 0] + np.log1p(np.mean(np.expm1(t - tmax), axis=-1))
        general = np.exp(log_mean / pk[:, 0])
        geometric = np.exp(np.mean(logx, axis=-1))
    has_zero = (xs == 0).any(axis=-1)
    has_nan = np.isnan(xs).any(axis=-1)
    p_row = pk[:, 0]
    out = np.where(p_row == 0, geometric, general)
    out = np.where(p_row == 1, np.mean(xs, axis=-1), out)
    out = np.where(p_row == np.inf, np.max(xs, axis=-1), out)
    out = np.where(p_row == -np.inf, np.min(xs, axis=-1), out)
    # A zero drives every mean with p <= 0 to 0; all zeros give 0 for every p.
    out = np.where(has_zero & (p_row <= 0), 0.0, out)
    out = np.where((xs == 0).all(axis=-1), 0.0, out)
    out = np.where(has_nan, np.nan, out)
    return out[..., 0] if scalar_p else out


def power_mean(x, p):
    r"""Power (generalised) mean :math:`M_p(x) = \left(\frac{1}{n}\sum_i x_i^p\right)^{1/p}`.

    Taken over the last axis of ``x``. Limits: :math:`M_0` is the geometric
    mean, :math:`M_{-\infty} = \min`, :math:`M_{+\infty} = \max`. For
    :math:`p \le 0` a single zero makes the mean 0 (the limit of the formula).
    NaN in ``x`` (an undefined value) makes the mean NaN.

    Parameters
    ----------
    x : array_like, shape (..., n)
        Non-negative finite values, or NaN.
    p : float or array_like of shape (k,)
        Exponent(s); ``np.inf`` and ``-np.inf`` are allowed.

    Returns
    -------
    float or ndarray
        Shape ``(...)`` for a scalar ``p``; ``(..., k)`` for ``k`` exponents.

    Raises
    ------
    ValueError
        If ``x`` is not numeric, is negative or infinite, or ``p`` is NaN,
        boolean, or more than 1-d.

    Examples
    --------
    >>> power_mean([0.25, 1.0], [1, 0, -1])
    array([0.625, 0.5  , 0.4  ])
    """
    return scalar_or_array(_power_mean(_as_values(x), _as_exponent(p)))


def power_mean_recall(m, p, *, zero_division=0):
    r"""Generalised-mean macro recall :math:`M_p(R_1, \dots, R_n)`.

    :math:`R_i = m_{i,i} / prevalence(i)` with ``m[i, j]`` = predicted ``i``,
    true ``j``. ``p = 1`` is macro recall (:func:`clfmetrics.averages.macro_recall`),
    ``p = 0`` the geometric mean GmacR, ``p = -1`` the harmonic mean HmacR;
    the smaller ``p``, the more a single weak class pulls the score down.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    p : float or array_like of shape (k,)
        Exponent(s) of the mean; ``-np.inf`` gives the worst class's recall.
    zero_division : {0, 1, 'nan'}, default 0
        Value of the recall of a class that never occurs.

    Returns
    -------
    float or ndarray
        Shape ``(...)`` for a scalar ``p``; ``(..., k)`` for ``k`` exponents.

    Examples
    --------
    >>> round(power_mean_recall([[15, 5], [10, 10]], 1), 4)
    0.6333
    >>> round(power_mean_recall([[15, 5], [10, 10]], -1), 4)
    0.6316
    """
    r = _recall(as_confusion(m), fill_value(zero_division))
    return scalar_or_array(_power_mean(r, _as_exponent(p)))
