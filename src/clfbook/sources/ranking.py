"""Ranking systems by score and correlating rankings: ties handled exactly, vectorised over metrics.

Used for the shared-task leaderboard of Opitz (2024), Table 6, but general:
``scores`` are any systems-by-metrics array, higher is better, rank 1 is best.
"""

from __future__ import annotations

import numpy as np

__all__ = ["kendall_tau", "rank", "rank_correlation", "spearman"]

_TIES = ("min", "average", "max", "dense")


def rank(scores, *, ties: str = "min") -> np.ndarray:
    """Rank systems by score, best (highest) first, along axis 0.

    Parameters
    ----------
    scores : array_like, shape (s,) or (s, k)
        Scores of ``s`` systems (under ``k`` metrics); higher is better. NaN is not allowed.
    ties : {'min', 'average', 'max', 'dense'}, default 'min'
        How tied systems are ranked. ``'min'``: the shared best rank, as in
        sports and official results (1, 1, 3). ``'average'``: the mean of the
        ranks they occupy (1.5, 1.5, 3), the convention of Spearman's rho.
        ``'max'``: the shared worst rank (2, 2, 3). ``'dense'``: no gaps (1, 1, 2).

    Returns
    -------
    ndarray of float, same shape as ``scores``

    Examples
    --------
    >>> rank([68.1, 68.1, 67.6]).tolist()
    [1.0, 1.0, 3.0]
    >>> rank([68.1, 68.1, 67.6], ties="average").tolist()
    [1.5, 1.5, 3.0]
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim not in (1, 2) or x.shape[0] < 1:
        raise ValueError(f"scores must have shape (systems,) or (systems, metrics); got {x.shape}")
    if np.isnan(x).any():
        raise ValueError("scores contain NaN: an undefined score has no rank")
    if ties not in _TIES:
        raise ValueError(f"ties must be one of {_TIES}; got {ties!r}")
    # Pairwise comparisons over the systems: exact for ties, vectorised over the metrics.
    x2 = x.reshape(x.shape[0], -1)
    higher = x2[None, :, :] > x2[:, None, :]  # [s, t, k]: system t beats system s
    equal = x2[None, :, :] == x2[:, None, :]
    if ties == "min":
        out = higher.sum(axis=1) + 1.0
    elif ties == "max":
        out = (higher | equal).sum(axis=1).astype(np.float64)
    elif ties == "average":
        out = higher.sum(axis=1) + (equal.sum(axis=1) + 1) / 2.0
    else:  # dense: count distinct better scores, i.e. better systems that are first of their value
        earlier = np.triu(np.ones((x2.shape[0],) * 2, dtype=bool), k=1)[:, :, None]
        first = ~(equal & earlier).any(axis=0)
        out = (higher & first[None, :, :]).sum(axis=1) + 1.0
    return out.reshape(x.shape)


def spearman(a, b) -> float:
    """Spearman's rho: Pearson's correlation of the average ranks (ties share their mean rank).

    NaN when either ranking is constant (all systems tied).

    Examples
    --------
    >>> round(spearman([1, 2, 3, 4], [10, 20, 40, 30]), 6)
    0.8
    """
    return float(rank_correlation(np.stack([np.asarray(a), np.asarray(b)], axis=1))[0, 1])


def rank_correlation(scores, *, method: str = "spearman") -> np.ndarray:
    """Pairwise rank correlation between the columns of ``scores`` (systems x metrics).

    Parameters
    ----------
    scores : array_like, shape (s, k)
        Scores of ``s`` systems under ``k`` metrics.
    method : {'spearman', 'kendall'}
        Spearman's rho on average ranks, or Kendall's tau-b (tie-corrected).

    Returns
    -------
    ndarray, shape (k, k)
        Symmetric; NaN where a column is constant.
    """
    x = np.asarray(scores, dtype=np.float64)
    if x.ndim != 2 or x.shape[0] < 2:
        raise ValueError(f"scores must have shape (systems >= 2, metrics); got {x.shape}")
    if method == "kendall":
        return _kendall_matrix(x)
    if method != "spearman":
        raise ValueError(f"method must be 'spearman' or 'kendall'; got {method!r}")
    r = rank(x, ties="average")
    centred = r - r.mean(axis=0)
    norm = np.sqrt((centred**2).sum(axis=0))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = (centred.T @ centred) / np.outer(norm, norm)
    return np.clip(out, -1.0, 1.0)


def _kendall_matrix(x: np.ndarray) -> np.ndarray:
    # sign of every pairwise difference, per metric: shape (k, s, s)
    sgn = np.sign(x.T[:, None, :] - x.T[:, :, None])
    concord = np.einsum("aij,bij->ab", sgn, sgn) / 2.0
    untied = (sgn != 0).sum(axis=(1, 2)) / 2.0
    with np.errstate(invalid="ignore", divide="ignore"):
        return concord / np.sqrt(np.outer(untied, untied))


def kendall_tau(a, b) -> float:
    """Kendall's tau-b between two score vectors (ties corrected); NaN if one is constant.

    Examples
    --------
    >>> kendall_tau([1, 2, 3], [3, 2, 1])
    -1.0
    """
    return float(
        rank_correlation(np.stack([np.asarray(a), np.asarray(b)], axis=1), method="kendall")[0, 1]
    )
