r"""Single-number summaries of the class-wise quantities, and power means of recall.

Accuracy and the micro averages; macro recall and precision; both macro F1s (the
mean of class-wise F1 and the F1 of the averages) and their gap :math:`\Delta`;
weighted F1; the geometric and harmonic means of recall, and the power mean
:math:`M_p` of which macro recall (``p = 1``), GmacR (``p -> 0``) and HmacR
(``p = -1``) are members (Opitz 2024, eq. 4). Each metric is written once, as
``_NAME_of(sums, fill)`` on the class sums (:class:`~clfmetrics.metrics.ClassSums`);
the public function checks the matrix and calls it.

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class is
``j`` (rows = predictions, columns = reference). Every function accepts one matrix
``(n, n)``, returning a float, or a stack ``(..., n, n)``, returning an array of
shape ``(...)``; nothing loops over the stack in Python.

References: Opitz & Burst (2019), *Macro F1 and Macro F1*; Opitz (2024), *A Closer
Look at Classification Evaluation Metrics*.
"""

from __future__ import annotations

import numbers

import numpy as np

from .._base.checks import fill_value, reject_masked, scalar_or_array
from ._classwise import (
    ClassSums,
    _checked_sums,
    _dot,
    _f1_of,
    _harmonic,
    _precision_of,
    _recall_of,
    _vsum,
)

# Each metric on the class sums, f(s, fill); fill is the value of an undefined ratio.


def _accuracy_of(s: ClassSums, fill: float = 0.0) -> np.ndarray:
    return _vsum(s.correct) / s.total


def _micro_f1_of(s: ClassSums, fill: float = 0.0) -> np.ndarray:
    micro = np.asarray(_accuracy_of(s))  # micro P = micro R = accuracy
    return _harmonic(micro, micro)


def _macro_recall_of(s: ClassSums, fill: float) -> np.ndarray:
    return _vsum(_recall_of(s, fill)) / s.n


def _macro_precision_of(s: ClassSums, fill: float) -> np.ndarray:
    return _vsum(_precision_of(s, fill)) / s.n


def _macro_f1_of(s: ClassSums, fill: float) -> np.ndarray:
    return _vsum(_f1_of(s, fill)) / s.n


def _f1_of_averages_of(s: ClassSums, fill: float) -> np.ndarray:
    n = s.n
    return _harmonic(_vsum(_precision_of(s, fill)) / n, _vsum(_recall_of(s, fill)) / n)


def _delta_f1_of(s: ClassSums, fill: float) -> np.ndarray:
    p = _precision_of(s, fill)
    r = _recall_of(s, fill)
    n = s.n
    sp = p + r
    w = np.where(np.isnan(sp), np.nan, 0.0)  # weight 1/(P+R); classes with P + R = 0 drop out
    np.divide(1.0, sp, out=w, where=sp > 0)
    # Lagrange's identity turns the lemma's sum over ordered pairs,
    #   sum_xy (P_x R_y - P_y R_x)^2 w_x w_y = 2 (A B - C^2),
    # with A = sum P^2 w, B = sum R^2 w, C = sum P R w, into O(n) work per matrix.
    pw, rw = p * w, r * w
    a, b, c = _dot(p, pw), _dot(r, rw), _dot(p, rw)
    # A B >= C^2 by Cauchy-Schwarz; rounding may leave -1e-17, which is 0.
    pair_sum = 2.0 * np.maximum(a * b - c * c, 0.0)
    sigma = _vsum(sp)
    out = np.where(np.isnan(sigma), np.nan, 0.0)
    np.divide(pair_sum, n * sigma, out=out, where=sigma > 0)
    return out


def _weighted_f1_of(s: ClassSums, fill: float) -> np.ndarray:
    f1 = _f1_of(s, fill)  # a fresh array
    p = s.prevalence
    if np.isnan(fill):
        f1[p == 0] = 0.0  # weight 0: the class drops out (0 * NaN would be NaN)
    return _dot(p, f1) / _vsum(p)


def _geometric_macro_recall_of(s: ClassSums, fill: float) -> np.ndarray:
    r = _recall_of(s, fill)
    return np.prod(r, axis=-1) ** (1.0 / r.shape[-1])


def _harmonic_macro_recall_of(s: ClassSums, fill: float) -> np.ndarray:
    r = _recall_of(s, fill)
    inv = np.where(np.isnan(r), np.nan, np.inf)
    np.divide(1.0, r, out=inv, where=r > 0)
    return r.shape[-1] / inv.sum(axis=-1)


# The same of a checked stack (the calibrated metrics use them, and the apparatus's figures).


def _accuracy(m: np.ndarray) -> np.ndarray:
    return _accuracy_of(ClassSums(m))


def _macro_recall(m: np.ndarray, fill: float) -> np.ndarray:
    return _macro_recall_of(ClassSums(m), fill)


def _macro_precision(m: np.ndarray, fill: float) -> np.ndarray:
    return _macro_precision_of(ClassSums(m), fill)


def _macro_f1(m: np.ndarray, fill: float) -> np.ndarray:
    return _macro_f1_of(ClassSums(m), fill)


def _f1_of_averages(m: np.ndarray, fill: float) -> np.ndarray:
    return _f1_of_averages_of(ClassSums(m), fill)


def _delta_f1(m: np.ndarray, fill: float) -> np.ndarray:
    return _delta_f1_of(ClassSums(m), fill)


def _weighted_f1(m: np.ndarray, fill: float) -> np.ndarray:
    return _weighted_f1_of(ClassSums(m), fill)


def accuracy(m):
    r"""Share of correct predictions: :math:`\sum_i m_{i,i} / \sum_{i,j} m_{i,j}`.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> accuracy([[15, 5], [10, 10]])
    0.625
    """
    return scalar_or_array(_accuracy_of(_checked_sums(m)))


def micro_precision(m):
    r"""Micro-averaged precision :math:`\sum_i correct(i) / \sum_i bias(i)`.

    It equals :func:`accuracy` because :math:`\sum_i bias(i) = \sum_i prevalence(i) = |S|`.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> micro_precision([[15, 5], [10, 10]])
    0.625
    """
    # The bias (row sums) and the prevalence (column sums) both add up to |S|.
    return scalar_or_array(_accuracy_of(_checked_sums(m)))


def micro_recall(m):
    r"""Micro-averaged recall :math:`\sum_i correct(i) / \sum_i prevalence(i)`.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> micro_recall([[15, 5], [10, 10]])
    0.625
    """
    # The bias (row sums) and the prevalence (column sums) both add up to |S|.
    return scalar_or_array(_accuracy_of(_checked_sums(m)))


def micro_f1(m):
    r"""Micro F1, the harmonic mean of micro precision and micro recall.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> micro_f1([[15, 5], [10, 10]])
    0.625
    """
    return scalar_or_array(_micro_f1_of(_checked_sums(m)))


def macro_recall(m, *, zero_division=0):
    r"""Macro recall :math:`macR = \frac{1}{n}\sum_i R_i`.

    scikit-learn calls it ``balanced_accuracy_score`` (when every class occurs).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of the recall of a class that never occurs.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(macro_recall([[15, 5], [10, 10]]), 4)
    0.6333
    """
    return scalar_or_array(_macro_recall_of(_checked_sums(m), fill_value(zero_division)))


def macro_precision(m, *, zero_division=0):
    r"""Macro precision :math:`macP = \frac{1}{n}\sum_i P_i`.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of the precision of a class that is never predicted.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> macro_precision([[15, 5], [10, 10]])
    0.625
    """
    return scalar_or_array(_macro_precision_of(_checked_sums(m), fill_value(zero_division)))


def macro_f1(m, *, zero_division=0):
    r"""Averaged F1: the arithmetic mean of class-wise F1.

    :math:`\mathcal{F}_1 = \frac{1}{n}\sum_i H(P_i, R_i)`.

    Opitz (2024) calls it macF1. With ``zero_division`` 0 or 1 it equals
    scikit-learn's ``f1_score(average='macro', labels=...)`` with the same
    ``zero_division``. With ``'nan'`` the two differ on purpose: here an
    undefined precision or recall makes that class's F1, and so the mean,
    NaN; scikit-learn computes F1 as 2TP / (2TP + FP + FN), NaN only for a
    class that is neither predicted nor present, and then averages over the
    remaining classes only (dividing by fewer than n).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of an undefined class-wise precision or recall.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(macro_f1([[100, 10000], [0, 100]]), 4)
    0.0196
    """
    return scalar_or_array(_macro_f1_of(_checked_sums(m), fill_value(zero_division)))


def f1_of_averages(m, *, zero_division=0):
    r"""F1 of averages: the harmonic mean of macro precision and macro recall.

    :math:`\mathbb{F}_1 = H(\bar P, \bar R)`.

    The other formula that papers call "macro F1" (Opitz 2024: macF1').

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of an undefined class-wise precision or recall.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(f1_of_averages([[100, 10000], [0, 100]]), 4)
    0.505
    """
    return scalar_or_array(_f1_of_averages_of(_checked_sums(m), fill_value(zero_division)))


def delta_f1(m, *, zero_division=0):
    r"""The gap :math:`\Delta = \mathbb{F}_1 - \mathcal{F}_1` by Opitz & Burst's closed form.

    .. math::

        \Delta = \frac{1}{n \sum_x (P_x + R_x)}
                 \sum_{x, y:\, P_x + R_x \neq 0,\, P_y + R_y \neq 0}
                 \frac{(P_x R_y - P_y R_x)^2}{(P_x + R_x)(P_y + R_y)}

    It is computed from this sum of squares, not by subtracting the two
    F1s, so it is never negative by rounding; Lagrange's identity gives the
    sum in :math:`O(n)` per matrix as :math:`2(AB - C^2)` with
    :math:`A = \sum_x P_x^2 w_x`, :math:`B = \sum_x R_x^2 w_x`,
    :math:`C = \sum_x P_x R_x w_x`, :math:`w_x = 1/(P_x + R_x)`. (The source prints the
    condition under the sum as ":math:`P_x + P_y, P_y + R_y \neq 0`"; the
    first term is a typo for :math:`P_x + R_x`.)

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of an undefined class-wise precision or recall.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(delta_f1([[100, 10000], [0, 100]]), 6)
    0.485343
    """
    return scalar_or_array(_delta_f1_of(_checked_sums(m), fill_value(zero_division)))


def weighted_f1(m, *, zero_division=0):
    r"""Prevalence-weighted mean of class-wise F1: :math:`\frac{1}{|S|}\sum_i prevalence(i)\,F1_i`.

    A class that never occurs has weight 0 and drops out, whatever its F1
    (also under ``zero_division='nan'``, where its F1 is NaN). With
    ``zero_division`` 0 or 1, and with ``'nan'`` whenever every class that
    occurs is also predicted, this equals scikit-learn's
    ``f1_score(average='weighted')``. The deliberate difference: under
    ``'nan'``, a class that occurs but is never predicted has an undefined
    precision, hence F1 NaN here and weighted F1 NaN, while scikit-learn
    scores its F1 as 2TP / (2TP + FP + FN) = 0.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of an undefined class-wise precision or recall.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(weighted_f1([[15, 5], [10, 10]]), 4)
    0.631
    """
    return scalar_or_array(_weighted_f1_of(_checked_sums(m), fill_value(zero_division)))


def geometric_macro_recall(m, *, zero_division=0):
    r"""Geometric mean of class-wise recall: :math:`GmacR = (R_1 \cdots R_n)^{1/n}`.

    Zero as soon as one class has recall 0.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of the recall of a class that never occurs.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(geometric_macro_recall([[15, 5], [10, 10]]), 4)
    0.6325
    """
    return scalar_or_array(_geometric_macro_recall_of(_checked_sums(m), fill_value(zero_division)))


def harmonic_macro_recall(m, *, zero_division=0):
    r"""Harmonic mean of class-wise recall, :math:`HmacR = n / \sum_i R_i^{-1}`.

    Zero as soon as one class has recall 0.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of the recall of a class that never occurs.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(harmonic_macro_recall([[15, 5], [10, 10]]), 4)
    0.6316
    """
    return scalar_or_array(_harmonic_macro_recall_of(_checked_sums(m), fill_value(zero_division)))


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
    true ``j``. ``p = 1`` is macro recall (:func:`clfmetrics.metrics.macro_recall`),
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
    r = _recall_of(_checked_sums(m), fill_value(zero_division))
    return scalar_or_array(_power_mean(r, _as_exponent(p)))
