"""Per-class quantities: bias, prevalence, correct, precision, recall and F1.

Convention (as in Opitz & Burst 2019 and Opitz 2024): ``m[i, j]`` is the mass
predicted as class ``i`` whose true class is ``j``. Rows are predictions,
columns are the reference. Every function accepts one matrix ``(n, n)`` or a
stack ``(..., n, n)`` and returns an array of shape ``(..., n)``.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_confusion, fill_value

__all__ = ["bias", "correct", "f1", "precision", "prevalence", "recall"]


# einsum instead of ``m.sum(axis=...)``: numpy's reductions over a short last
# axis (n = 3) run several times slower than one pass over the stack, einsum
# does not (see benchmarks/run.py).
def _bias(m: np.ndarray) -> np.ndarray:
    return np.einsum("...ij->...i", m)


def _prevalence(m: np.ndarray) -> np.ndarray:
    return np.einsum("...ij->...j", m)


def _vsum(v: np.ndarray) -> np.ndarray:
    """Sum over the class axis of a stack of vectors."""
    return np.einsum("...i->...", v)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product over the class axis of two stacks of vectors."""
    return np.einsum("...i,...i->...", a, b)


def _correct(m: np.ndarray) -> np.ndarray:
    return np.diagonal(m, axis1=-2, axis2=-1)


def _ratio(num: np.ndarray, den: np.ndarray, fill: float) -> np.ndarray:
    """``num / den`` where ``den > 0``; ``fill`` where the ratio is undefined."""
    out = np.full(np.broadcast_shapes(num.shape, den.shape), fill)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _precision(m: np.ndarray, fill: float) -> np.ndarray:
    return _ratio(_correct(m), _bias(m), fill)


def _recall(m: np.ndarray, fill: float) -> np.ndarray:
    return _ratio(_correct(m), _prevalence(m), fill)


def _harmonic(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    """H(p, r) = 2pr / (p + r) with H(0, 0) = 0; NaN in either argument gives NaN."""
    s = p + r
    out = np.where(np.isnan(s), np.nan, 0.0)
    np.divide(2.0 * p * r, s, out=out, where=s > 0)
    return out


def _f1(m: np.ndarray, fill: float) -> np.ndarray:
    return _harmonic(_precision(m, fill), _recall(m, fill))


def bias(m) -> np.ndarray:
    r"""Mass the classifier assigns to each class: :math:`bias(i) = \sum_x m_{i,x}` (row sums).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> bias([[15, 5], [10, 10]])
    array([20., 20.])
    """
    return _bias(as_confusion(m))


def prevalence(m) -> np.ndarray:
    r"""Mass that truly belongs to each class: :math:`prevalence(j) = \sum_x m_{x,j}` (column sums).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> prevalence([[15, 5], [10, 10]])
    array([25., 15.])
    """
    return _prevalence(as_confusion(m))


def correct(m) -> np.ndarray:
    r"""Correctly classified mass per class: :math:`correct(i) = m_{i,i}` (the diagonal).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> correct([[15, 5], [10, 10]])
    array([15., 10.])
    """
    return _correct(as_confusion(m)).copy()


def precision(m, *, zero_division=0) -> np.ndarray:
    r"""Class-wise precision :math:`P_i = correct(i) / bias(i)`.

    It estimates :math:`\mathcal{P}(c = i \mid f \to i)`: how often a prediction of ``i`` is right.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of :math:`P_i` when class ``i`` is never predicted (``bias(i) = 0``).
        The source papers use 0; ``'nan'`` marks the ratio as undefined.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> precision([[15, 5], [10, 10]])
    array([0.75, 0.5 ])
    """
    return _precision(as_confusion(m), fill_value(zero_division))


def recall(m, *, zero_division=0) -> np.ndarray:
    r"""Class-wise recall :math:`R_i = correct(i) / prevalence(i)`.

    It estimates :math:`\mathcal{P}(f \to i \mid c = i)`: how often an item of class ``i`` is found.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of :math:`R_i` when class ``i`` never occurs (``prevalence(i) = 0``).

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> recall([[15, 5], [10, 10]])
    array([0.6       , 0.66666667])
    """
    return _recall(as_confusion(m), fill_value(zero_division))


def f1(m, *, zero_division=0) -> np.ndarray:
    r"""Class-wise F1, the harmonic mean :math:`F1_i = H(P_i, R_i) = 2 P_i R_i / (P_i + R_i)`.

    With the default ``zero_division=0`` this equals
    :math:`2\,correct(i) / (bias(i) + prevalence(i))` and :math:`H(0, 0) = 0`.
    With ``zero_division='nan'`` an undefined precision or recall makes
    :math:`F1_i` NaN (NaN is absorbing, as in Bochvar's logic).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Confusion matrix or stack; ``m[i, j]`` = predicted ``i``, true ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Value of an undefined class-wise precision or recall.

    Returns
    -------
    ndarray, shape (..., n)

    Examples
    --------
    >>> f1([[15, 5], [10, 10]])
    array([0.66666667, 0.57142857])
    """
    return _f1(as_confusion(m), fill_value(zero_division))
