"""Prevalence scaling and calibration (Opitz 2024, eq. 5-6).

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j``; column ``j`` holds all items of true class ``j``, so scaling column
``j`` changes how common class ``j`` is while keeping the proportions of the
errors made on it.
"""

from __future__ import annotations

import numpy as np

from ._checks import as_confusion, reject_masked
from .classwise import _prevalence

__all__ = ["prevalence_calibrate", "prevalence_scale"]


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
