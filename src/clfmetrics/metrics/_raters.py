r"""Agreement among more than two raters: Fleiss' kappa and Krippendorff's alpha.

Two forms of data, both with the items along one axis:

* a **count table**, ``table[i, k]`` = how many raters put item ``i`` in category ``k``
  (items x categories), the form of Fleiss' kappa (Fleiss 1971);
* **ratings**, ``ratings[r, i]`` = the value rater ``r`` gave item ``i``, NaN where the rater
  gave none (raters x items), the form of Krippendorff's alpha (Krippendorff 2011).

Both coefficients are sums over items, so each is written once on per-item quantities
weighted by how often the item occurs (``weights``, one row per weighting): the
coefficient of the data is the row of ones, and the bootstrap of items (in
:mod:`clfmetrics.inference`) draws the weights of the distinct items as one multinomial per
resample and scores them all in one product.
"""

from __future__ import annotations

import numpy as np

from .._base.checks import reject_masked

#: Krippendorff's levels of measurement, each a distance between two values.
LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _numeric(x, name: str) -> np.ndarray:
    reject_masked(x, name, "ratings" if name == "ratings" else "counts")
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers (NaN for a missing rating)") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be two-dimensional; got shape {arr.shape}")
    return arr


def check_table(table) -> np.ndarray:
    """``table`` (items x categories) as a float array of whole counts, or a ValueError."""
    whole = np.issubdtype(np.asarray(table).dtype, np.integer)  # no rounding to check
    arr = _numeric(table, "table")
    items, q = arr.shape
    if items < 1:
        raise ValueError("table has no items (rows)")
    if q < 2:
        raise ValueError(
            f"table has {q} categor{'y' if q == 1 else 'ies'} (columns): agreement beyond chance "
            "needs at least two"
        )
    if arr.min() < 0 or not (whole or (np.isfinite(arr).all() and (arr == np.round(arr)).all())):
        raise ValueError("table must hold non-negative whole counts of ratings")
    per_item = arr.sum(axis=1)
    few = np.flatnonzero(per_item < 2)
    if few.size:
        raise ValueError(
            f"every item needs at least two ratings; item {few[0]} has {per_item[few[0]]:.0f}"
        )
    if (per_item != per_item[0]).any():
        raise ValueError(
            "fleiss_kappa needs the same number of ratings for every item (from "
            f"{per_item.min():.0f} to {per_item.max():.0f} here); krippendorff_alpha takes "
            "missing ratings"
        )
    return arr


def fleiss_parts(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per item: the share of agreeing pairs :math:`P_i`, and the category shares of its ratings."""
    n = table.sum(axis=1)
    agree = (np.einsum("ik,ik->i", table, table) - n) / (n * (n - 1))
    return agree, table / n[:, None]


def fleiss_of(agree: np.ndarray, shares: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Fleiss' kappa of items weighted by ``weights`` (rows, items): NaN where undefined."""
    total = weights.sum(axis=-1)
    observed = weights @ agree / total
    p = weights @ shares / total[:, None]
    chance = np.einsum("sk,sk->s", p, p)
    den = 1.0 - chance
    out = np.full(total.shape, np.nan)
    np.divide(observed - chance, den, out=out, where=den > 1e-15)
    return out


def fleiss_kappa(table):
    r"""Fleiss' kappa (Fleiss 1971): agreement of many raters on each item, beyond chance.

    With :math:`N` items each rated by :math:`n` raters, :math:`n_{ik}` of them putting item
    :math:`i` in category :math:`k`:

    .. math::

        \kappa = \frac{\bar P - \bar P_e}{1 - \bar P_e}, \quad
        \bar P = \frac1N \sum_i \frac{\sum_k n_{ik}^2 - n}{n (n - 1)}, \quad
        \bar P_e = \sum_k p_k^2, \quad p_k = \frac{\sum_i n_{ik}}{N n}.

    :math:`\bar P` is the share of agreeing pairs of ratings of an item, :math:`\bar P_e`
    its value for raters drawing from the pooled category shares; the raters need not be the
    same people for each item. For two raters it is Scott's pi of their cross-table
    (:func:`scott_pi`).

    Parameters
    ----------
    table : array_like of whole numbers, shape (items, categories)
        ``table[i, k]`` = raters who put item ``i`` in category ``k``; every item with the same
        number of ratings, at least two.

    Returns
    -------
    float
        NaN when every rating falls in one category (:math:`\bar P_e = 1`).

    Raises
    ------
    ValueError
        For fewer than two categories, negative or fractional counts, an item with fewer
        than two ratings, or items with different numbers of ratings (use
        :func:`krippendorff_alpha` for missing ratings).

    Notes
    -----
    Equals ``statsmodels.stats.inter_rater.fleiss_kappa(table)``.

    Examples
    --------
    >>> round(fleiss_kappa([[3, 0, 0], [0, 3, 0], [1, 1, 1], [0, 0, 3], [2, 1, 0]]), 4)
    0.4932
    """
    arr = check_table(table)
    agree, shares = fleiss_parts(arr)
    return float(fleiss_of(agree, shares, np.ones((1, arr.shape[0])))[0])


def check_ratings(ratings, categories=None) -> tuple[np.ndarray, np.ndarray]:
    """``(value counts (items, V), domain (V,))`` of raters x items ``ratings``, or a ValueError."""
    arr = _numeric(ratings, "ratings")
    raters, items = arr.shape
    if raters < 2:
        raise ValueError(f"ratings must have at least two raters (rows); got {raters}")
    if items < 1:
        raise ValueError("ratings has no items (columns)")
    given = arr[~np.isnan(arr)]
    if not np.isfinite(given).all():
        raise ValueError("ratings must be finite numbers, NaN for a missing rating")
    if categories is None:
        domain = np.unique(given)
    else:
        try:
            domain = np.unique(np.asarray(categories, dtype=np.float64))
        except (TypeError, ValueError):
            raise ValueError(f"categories must be numbers; got {categories!r}") from None
        if domain.size != np.size(categories) or not np.isfinite(domain).all():
            raise ValueError("categories must be distinct finite numbers")
        outside = given[~np.isin(given, domain)]
        if outside.size:
            raise ValueError(
                f"ratings hold {outside[0]:g}, which is not among the categories "
                f"{', '.join(f'{c:g}' for c in domain)}"
            )
    if domain.size < 2:
        raise ValueError(
            "ratings use a single category: agreement beyond chance needs at least two "
            "(give categories= for the ones the raters could have used)"
        )
    index = np.searchsorted(domain, np.where(np.isnan(arr), domain[0], arr))
    counts = np.zeros((items, domain.size))
    rated = ~np.isnan(arr)
    np.add.at(counts, (np.broadcast_to(np.arange(items), arr.shape)[rated], index[rated]), 1.0)
    if not (counts.sum(axis=1) >= 2).any():
        raise ValueError("no item has two ratings: there is no pair of ratings to compare")
    return counts, domain


def coincidences_per_item(counts: np.ndarray) -> np.ndarray:
    """``(items, V * V)``: each item's coincidences :math:`(n_c n_k - [c = k] n_c) / (m_u - 1)`.

    Items with fewer than two ratings are not pairable and give zeros.
    """
    m = counts.sum(axis=1)
    pairs = np.einsum("uc,uk->uck", counts, counts)
    v = counts.shape[1]
    pairs[:, np.arange(v), np.arange(v)] -= counts
    scale = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)
    return (pairs * scale[:, None, None]).reshape(len(counts), v * v)


def _distances(domain: np.ndarray, level: str, n_v: np.ndarray) -> np.ndarray:
    """Squared distances ``(rows, V, V)`` (ordinal: from each row's value totals ``n_v``)."""
    c, k = domain[:, None], domain[None, :]
    if level == "nominal":
        d = (c != k).astype(np.float64)
    elif level == "interval":
        d = (c - k) ** 2
    elif level == "ratio":
        total = c + k
        d = np.divide(c - k, total, out=np.zeros(total.shape), where=total != 0) ** 2
    else:  # ordinal: the values from c to k, less half of each end, squared
        cum = np.cumsum(n_v, axis=-1)
        i = np.arange(domain.size)
        lo, hi = np.minimum.outer(i, i), np.maximum.outer(i, i)
        between = cum[:, hi] - cum[:, lo] + n_v[:, lo]
        return (between - (n_v[:, lo] + n_v[:, hi]) / 2) ** 2
    return np.broadcast_to(d, (len(n_v), *d.shape))


def alpha_of(per_item: np.ndarray, domain: np.ndarray, level: str, weights) -> np.ndarray:
    """Krippendorff's alpha of items weighted by ``weights`` (rows, items): NaN where undefined."""
    v = domain.size
    o = (weights @ per_item).reshape(-1, v, v)
    n_v = o.sum(axis=1)
    n = n_v.sum(axis=1)
    d = _distances(domain, level, n_v)
    observed = np.einsum("sck,sck->s", o, d)
    expected = np.einsum("sc,sk,sck->s", n_v, n_v, d)
    out = np.full(n.shape, np.nan)
    np.divide((n - 1) * observed, expected, out=out, where=expected > 0)
    return 1.0 - out


def check_measurement(level) -> str:
    """``level`` if it is one of :data:`LEVELS`, else a ValueError."""
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}; got {level!r}")
    return level


def krippendorff_alpha(ratings, *, level="nominal", categories=None):
    r"""Krippendorff's alpha: agreement of any number of raters, with missing ratings.

    From the coincidences of the values within each item :math:`u` rated :math:`m_u \ge 2`
    times, :math:`o_{ck} = \sum_u (n_{uc} n_{uk} - [c = k]\, n_{uc}) / (m_u - 1)`, their
    totals :math:`n_c = \sum_k o_{ck}` and :math:`n = \sum_c n_c`:

    .. math::

        \alpha = 1 - \frac{D_o}{D_e}
               = 1 - (n - 1) \frac{\sum_{c,k} o_{ck}\, \delta^2_{ck}}
                                  {\sum_{c,k} n_c n_k\, \delta^2_{ck}},

    with the squared distance :math:`\delta^2` of the level of measurement: nominal
    :math:`[c \ne k]`; ordinal :math:`(\sum_{g=c}^{k} n_g - (n_c + n_k)/2)^2`; interval
    :math:`(c - k)^2`; ratio :math:`((c - k)/(c + k))^2`. Items with fewer than two ratings
    have no pair to compare and drop out, as Krippendorff defines it.

    Parameters
    ----------
    ratings : array_like of numbers, shape (raters, items)
        ``ratings[r, i]`` = the value rater ``r`` gave item ``i``; NaN where none.
    level : {"nominal", "ordinal", "interval", "ratio"}, default "nominal"
        Level of measurement of the values.
    categories : sequence of numbers, optional
        The values a rater could give (default: those given). A rating outside them is a
        ValueError; an unused category changes nothing but the check.

    Returns
    -------
    float
        NaN when the pairable ratings hold a single value (no expected disagreement).

    Raises
    ------
    ValueError
        For fewer than two raters, a value outside ``categories``, fewer than two categories,
        no item with two ratings, or an unknown level.

    Notes
    -----
    Equals ``krippendorff.alpha(ratings, level_of_measurement=level)`` (the
    ``krippendorff`` package), whose ``value_domain`` is ``categories``.

    Examples
    --------
    >>> nan = float("nan")
    >>> ratings = [[1, 2, 3, 3, 2, 1, 4, 1, 2, nan], [1, 2, 3, 3, 2, 2, 4, 1, 2, 5],
    ...            [nan, 3, 3, 3, 2, 3, 4, 2, 2, 5], [1, 2, 3, 3, 2, 4, 4, 1, 2, 5]]
    >>> round(krippendorff_alpha(ratings), 4)
    0.7289
    >>> round(krippendorff_alpha(ratings, level="interval"), 4)
    0.8354
    """
    level = check_measurement(level)
    counts, domain = check_ratings(ratings, categories)
    per_item = coincidences_per_item(counts)
    return float(alpha_of(per_item, domain, level, np.ones((1, len(counts))))[0])
