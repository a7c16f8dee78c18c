r"""Agreement among more than two raters: Fleiss' kappa and Krippendorff's alpha.

Two forms of data, both with the items along one axis:

* a **count table**, ``table[i, k]`` = how many raters put item ``i`` in category ``k``
  (items x categories), the form of Fleiss' kappa (Fleiss 1971);
* **ratings**, ``ratings[r, i]`` = the value rater ``r`` gave item ``i``, NaN where the rater
  gave none (raters x items), the form of Krippendorff's alpha (Krippendorff 2011).

Both coefficients are functions of sums over items: Fleiss' of the mean share of agreeing
pairs and the pooled category shares, Krippendorff's of the coincidence matrix. The
bootstrap of items (in :mod:`clfmetrics.inference`) weights per-item quantities by how often
each distinct item occurs (``weights``, one row per resample, drawn as one multinomial) and
scores them all in one product; the coefficient of the data takes the same sums straight
from the table or the value counts, with no per-item arrays (millions of items).
"""

from __future__ import annotations

import numpy as np

from .._base.checks import reject_masked

#: Krippendorff's levels of measurement, each a distance between two values.
LEVELS = ("nominal", "ordinal", "interval", "ratio")


def _numeric(x, name: str, whole: bool = False) -> np.ndarray:
    """``x`` as a 2-d float array; ``whole``: integers kept (as int64), which need no
    conversion nor a check of rounding."""
    reject_masked(x, name, "ratings" if name == "ratings" else "counts")
    try:
        arr = np.asarray(x)
        if whole and np.issubdtype(arr.dtype, np.integer):
            arr = arr.astype(np.int64, copy=False)  # its sums cannot overflow
        else:
            arr = np.asarray(arr, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers (NaN for a missing rating)") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be two-dimensional; got shape {arr.shape}")
    return arr


def check_table(table) -> np.ndarray:
    """``table`` (items x categories) as an array of whole counts (int64 where given as
    integers, else float), or a ValueError."""
    arr = _numeric(table, "table", whole=True)
    whole = arr.dtype == np.int64  # no rounding to check
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
    per_item = arr @ np.ones(q, dtype=arr.dtype)  # a product: faster than sum(axis=1)
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
    return _fleiss(weights @ agree / total, weights @ shares / total[:, None])


def _fleiss(observed: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Fleiss' kappa ``(rows,)`` from the mean share of agreeing pairs ``observed`` (rows,)
    and the pooled category shares ``p`` (rows, categories)."""
    chance = np.einsum("sk,sk->s", p, p)
    den = 1.0 - chance
    out = np.full(chance.shape, np.nan)
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
    # every item has the same n ratings, so the means over items are sums over the table:
    # no per-item arrays
    items = arr.shape[0]
    n = float(arr[0].sum())
    ratings = items * n
    observed = (float(np.vdot(arr, arr)) - ratings) / (ratings * (n - 1))
    p = (np.ones(items, dtype=arr.dtype) @ arr) / ratings
    return float(_fleiss(np.array([observed]), p[None])[0])


def check_ratings(ratings, categories=None) -> tuple[np.ndarray, np.ndarray]:
    """``(value counts (items, V), domain (V,))`` of raters x items ``ratings``, or a ValueError."""
    arr = _numeric(ratings, "ratings")
    raters, items = arr.shape
    if raters < 2:
        raise ValueError(f"ratings must have at least two raters (rows); got {raters}")
    if items < 1:
        raise ValueError("ratings has no items (columns)")
    rated = ~np.isnan(arr)
    if np.isinf(arr).any():
        raise ValueError("ratings must be finite numbers, NaN for a missing rating")
    if categories is None:
        domain, codes = _domain(arr, rated)
    else:
        try:
            domain = np.unique(np.asarray(categories, dtype=np.float64))
        except (TypeError, ValueError):
            raise ValueError(f"categories must be numbers; got {categories!r}") from None
        if domain.size != np.size(categories) or not np.isfinite(domain).all():
            raise ValueError("categories must be distinct finite numbers")
        given = arr[rated]
        outside = given[~np.isin(given, domain)]
        if outside.size:
            raise ValueError(
                f"ratings hold {outside[0]:g}, which is not among the categories "
                f"{', '.join(f'{c:g}' for c in domain)}"
            )
        codes = np.full(arr.shape, domain.size, dtype=np.intp)
        codes[rated] = np.searchsorted(domain, given)
    if domain.size < 2:
        raise ValueError(
            "ratings use a single category: agreement beyond chance needs at least two "
            "(give categories= for the ones the raters could have used)"
        )
    # one bincount of the (value, item) cells, the missing ratings in a row of their own
    # (np.add.at is many times slower); held value-major, so the sums over items run along
    # contiguous memory
    v = domain.size
    cells = (codes * items + np.arange(items)).ravel()
    by_value = np.bincount(cells, minlength=(v + 1) * items)[: v * items]
    counts = by_value.astype(np.float64).reshape(v, items).T
    if not (np.ones(v) @ counts.T >= 2).any():
        raise ValueError("no item has two ratings: there is no pair of ratings to compare")
    return counts, domain


def _domain(arr: np.ndarray, rated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of ``arr`` (finite or NaN) and the index of each rating among
    them, ``(raters, items)`` with the number of values where a rating is missing.

    Ratings are mostly small whole numbers: those are counted (a few passes) rather than
    sorted as ``np.unique`` does (the most of alpha's time on millions of ratings).
    """
    low, high = np.fmin.reduce(arr, axis=None), np.fmax.reduce(arr, axis=None)  # NaN-blind
    if -(2.0**52) < low and high < 2.0**52 and high - low < 2**16:
        shifted = arr - low
        offset = np.floor(shifted)
        if np.count_nonzero(shifted == offset) == np.count_nonzero(rated):  # NaN is unequal
            span = int(high - low) + 1
            np.copyto(offset, span, where=~rated)
            offset = offset.astype(np.intp)
            present = np.bincount(offset.ravel(), minlength=span + 1)[:span] > 0
            if not present.all():
                offset = np.append(np.cumsum(present) - 1, np.count_nonzero(present))[offset]
            return low + np.flatnonzero(present), offset
    given = arr[rated]
    domain = np.unique(given)
    codes = np.full(arr.shape, domain.size, dtype=np.intp)
    codes[rated] = np.searchsorted(domain, given)
    return domain, codes


def coincidences(counts: np.ndarray) -> np.ndarray:
    """``(V, V)``: the coincidences of all the items, the sum of
    :func:`coincidences_per_item`, as one product of the value counts ``(items, V)``."""
    m = counts.sum(axis=1)
    scale = np.divide(1.0, m - 1, out=np.zeros_like(m), where=m >= 2)
    scaled = counts * scale[:, None]
    out = scaled.T @ counts
    out[np.diag_indices_from(out)] -= scaled.sum(axis=0)
    return out


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
    return _alpha((weights @ per_item).reshape(-1, v, v), domain, level)


def _alpha(o: np.ndarray, domain: np.ndarray, level: str) -> np.ndarray:
    """Krippendorff's alpha ``(rows,)`` of coincidences ``o`` (rows, V, V)."""
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
    return float(_alpha(coincidences(counts)[None], domain, level)[0])
