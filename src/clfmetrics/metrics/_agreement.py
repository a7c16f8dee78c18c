"""Chance-corrected agreement: Cohen's kappa and the multi-class MCC; weighted kappa, Scott's pi,
PABAK and Gwet's AC1/AC2 of two raters (below).

Convention: ``m[i, j]`` is the mass predicted as class ``i`` whose true class
is ``j``. With ``s`` the total mass, ``r`` the correct mass, ``b`` the bias
(row sums) and ``p`` the prevalence (column sums) as count vectors:

* kappa = (r s - p.b) / (s^2 - p.b)
* MCC   = (r s - p.b) / sqrt((s^2 - p.p)(s^2 - b.b))   (Gorodkin 2004)

Dividing numerator and denominator by ``s^2`` gives the normalised forms of
Opitz (2024), eq. 14-15: (accuracy - chance) / (1 - chance) and
(accuracy - chance) / sqrt((1 - b.b)(1 - p.p)) with chance = p.b.

Computed as written, each difference cancels: for ``[[1e13, 0], [0, 1]]``,
``s^2`` and ``p.b`` agree in their first 13 digits, and a relative cut-off
would have to guess which tiny denominators are zero. The code instead
rewrites every term as a sum of non-negative products of class sums, each
summed directly from the cells. With ``c`` the
diagonal, ``x_k`` / ``y_k`` the off-diagonal mass of column / row ``k``,
``q_k = sum_{j != k} b_j`` and ``o_k`` the mass outside row and column ``k``:

* s^2 - p.b = sum_k p_k q_k
* s^2 - b.b = sum_k b_k q_k,  s^2 - p.p = sum_k p_k sum_{j != k} p_j
* r s - p.b = sum_k c_k o_k - sum_k x_k y_k

Both sums of the numerator lie between 0 and every denominator, so the
result carries an absolute error of a few times ``n`` units in the 16th
digit, and a denominator is 0 exactly when the matrix makes the score
undefined: no cut-off decides it.

Kappa and MCC are written once, on the class sums (``ClassSums``), through
these four sums: of a matrix they are summed from its cells as above; of class
sums alone (the resampled whole counts ``b``, ``p``, ``c``) the off-diagonal
sums are ``x = p - c`` and ``y = b - c``, and ``q`` the total less ``b``, all
exact for counts.
"""

from __future__ import annotations

import functools

import numpy as np

from .._base.checks import fill_value, scalar_or_array
from ._classwise import _SUMS_BY_PRODUCT_MAX_N, ClassSums, _checked_sums, _vsum

# The five dot products, as (left, right) class sums per cell (i, j) and class k:
# r s - p.b = c.o - x.y, s^2 - p.b = p.q, s^2 - p.p = p.q_p, s^2 - b.b = b.q.
_LEFT = ("diagonal", "column_off", "column", "column", "row")
_RIGHT = ("outside", "row_off", "rows_but", "columns_but", "rows_but")


def _cell_in(block: str, i: np.ndarray, j: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Whether cell (i, j) counts towards class k in the named class sum."""
    return {
        "diagonal": (i == k) & (j == k),
        "row": i == k,
        "column": j == k,
        "row_off": (i == k) & (j != k),
        "column_off": (j == k) & (i != k),
        "rows_but": i != k,
        "columns_but": j != k,
        "outside": (i != k) & (j != k),
    }[block]


@functools.cache
def _summing(n: int, blocks: tuple[str, ...]) -> np.ndarray:
    """(n*n, len(blocks) * n) 0/1 matrix: a flattened matrix times it gives the class sums."""
    i, j = np.divmod(np.arange(n * n)[:, None], n)
    k = np.arange(n)[None, :]
    out = np.hstack([_cell_in(b, i, j, k) for b in blocks]).astype(np.float64)
    out.flags.writeable = False
    return out


@functools.cache
def _combine_blocks() -> np.ndarray:
    """(5, 4): the five dot products to numerator c.o - x.y and the three denominators."""
    out = np.array([[1, 0, 0, 0], [-1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]], float)
    out.flags.writeable = False
    return out


@functools.cache
def _block_sums(n: int) -> np.ndarray:
    """(5n, 4): adds each run of n products and combines them as :func:`_combine_blocks`."""
    out = np.kron(_combine_blocks(), np.ones((n, 1)))
    out.flags.writeable = False
    return out


def _sides_by_loops(m: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Left and right class sums ``(..., 5, n)`` for many classes, in O(n^2) per matrix."""
    n = m.shape[-1]
    off = np.array(m)  # a C-contiguous copy, so the reshape below is a view
    flat = off.reshape(*m.shape[:-2], n * n)
    c = flat[..., :: n + 1].copy()
    flat[..., :: n + 1] = 0.0
    y, x = np.einsum("...ij->...i", off), np.einsum("...ij->...j", off)
    b, p = y + c, x + c
    others = np.ones((n, n)) - np.eye(n)
    q = b @ others
    # o = q - x cancels only where x_k is most of q_k, and c_k <= p_k keeps that
    # error below the denominator's own rounding (c_k q_k <= p_k q_k).
    return np.stack([c, x, p, p, b], axis=-2), np.stack([q - x, y, q, p @ others, q], axis=-2)


def _parts(m: np.ndarray, total: np.ndarray) -> np.ndarray:
    """``(..., 4)``: r s - p.b (as c.o - x.y) and the denominators p.q, p.q_p, b.q.

    ``total`` is the mass of each matrix. A total outside [2**-32, 2**480] is
    first scaled by a power of two (exact in floating point) so that no
    product overflows or underflows early; counts and probabilities never
    need it.
    """
    n = m.shape[-1]
    lead = m.shape[:-2]
    flat = m.reshape(*lead, n * n)
    if total.max() > 2.0**480 or total.min() < 2.0**-32:
        flat = flat * np.ldexp(1.0, np.minimum(-np.frexp(total)[1], 1022))[..., None]
    if n <= _SUMS_BY_PRODUCT_MAX_N:  # BLAS products, as in classwise._sums
        sides = flat @ _summing(n, _LEFT + _RIGHT)
        products = sides[..., : 5 * n]
        products *= sides[..., 5 * n :]
        return products @ _block_sums(n)
    left, right = _sides_by_loops(flat.reshape(m.shape))
    return np.einsum("...ti,tu->...u", left * right, _combine_blocks())


def _parts_of_margins(s: ClassSums) -> np.ndarray:
    """:func:`_parts` from the bias, prevalence and correct mass alone (whole counts).

    The off-diagonal sums become ``x = p - c`` and ``y = b - c``, and ``q``
    the total less ``b``: exact for counts, so the same bits as :func:`_parts`
    of the matrix from 9 classes on, in ``O(n)`` per matrix.
    """
    b, p, c = s.bias, s.prevalence, s.correct
    x, y = p - c, b - c  # off-diagonal mass of each column, of each row
    q = s.total[..., None] - b
    left = np.stack([c, x, p, p, b], axis=-2)
    right = np.stack([q - x, y, q, _vsum(p)[..., None] - p, q], axis=-2)
    return np.einsum("...ti,tu->...u", left * right, _combine_blocks())


def _agreement_parts(s: ClassSums) -> np.ndarray:
    """The sums of :func:`_parts`: from the cells when the matrix is at hand, else the margins."""
    return _parts_of_margins(s) if s.matrix is None else _parts(s.matrix, s.total)


def _kappa_of(s: ClassSums, fill: float) -> np.ndarray:
    dots = _agreement_parts(s)
    numerator, den = dots[..., 0], dots[..., 1]
    out = np.full(np.shape(numerator), fill)
    np.divide(numerator, den, out=out, where=den > 0)
    return out


def _mcc_of(s: ClassSums, fill: float) -> np.ndarray:
    dots = _agreement_parts(s)
    numerator, spread_p, spread_b = dots[..., 0], dots[..., 2], dots[..., 3]
    # num / sqrt(Dp Db) as (num / Dp) sqrt(Dp / Db): the product Dp Db could underflow,
    # and Dp = Db = num gives exactly 1.
    defined = (spread_p > 0) & (spread_b > 0)
    out = np.full(np.shape(numerator), fill)
    np.divide(numerator, spread_p, out=out, where=defined)
    out *= np.sqrt(np.divide(spread_p, spread_b, out=np.ones_like(spread_p), where=defined))
    return out


def _kappa(m: np.ndarray, fill: float) -> np.ndarray:
    """kappa of a checked stack (the apparatus's figures use it)."""
    return _kappa_of(ClassSums(m), fill)


def _mcc(m: np.ndarray, fill: float) -> np.ndarray:
    """MCC of a checked stack (the apparatus's figures use it)."""
    return _mcc_of(ClassSums(m), fill)


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

    Notes
    -----
    Undefinedness is decided exactly, not by a tolerance: the denominator is
    computed as a sum of non-negative terms (see the module docstring), which
    is 0 exactly when all mass lies in one diagonal cell, so
    ``kappa([[1e13, 0], [0, 1]])`` is 1. For integer counts up to :math:`2^{53}`
    items every class sum is exact and the value is correct to a few times
    :math:`n` units in the 16th digit; larger or fractional masses are summed
    in floating point. The one limit is underflow: a float matrix whose
    non-zero entries are below about :math:`10^{-150}` of its total (no
    count matrix of fewer than :math:`10^{150}` items) may lose them.

    Examples
    --------
    >>> round(kappa([[10, 43, 0], [1, 1, 0], [0, 10, 1]]), 2)
    0.02
    >>> kappa([[1e13, 0], [0, 1]])
    1.0
    """
    return scalar_or_array(_kappa_of(_checked_sums(m), fill_value(zero_division)))


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

    Notes
    -----
    As for :func:`kappa`, undefinedness is decided exactly: each factor of the
    denominator is a sum of non-negative terms, 0 exactly when the bias or
    the prevalence sits on a single class, so ``mcc([[1e13, 0], [0, 1]])`` is
    1. Accuracy and the underflow limit are those of :func:`kappa`.

    Examples
    --------
    >>> round(mcc([[10, 43, 0], [1, 1, 0], [0, 10, 1]]), 2)
    0.07
    >>> mcc([[1e13, 0], [0, 1]])
    1.0
    """
    return scalar_or_array(_mcc_of(_checked_sums(m), fill_value(zero_division)))


# --- Weighted kappa, Scott's pi, PABAK, Gwet's AC1/AC2 ----------------------------------------
#
# Each is (p_o - p_e) / (1 - p_e) with the observed agreement p_o and a chance agreement p_e of
# its own; for two raters the matrix is the pair's cross-table, m[i, j] = items rater A (the
# rows: the predictions) put in class i and rater B (the columns: the truth) in class j.

WEIGHTS = ("linear", "quadratic")


def agreement_weights(weights, n: int) -> np.ndarray:
    """The ``(n, n)`` agreement weights: 1 on the diagonal, in [0, 1] elsewhere.

    ``"linear"``: :math:`1 - |i - j| / (n - 1)`; ``"quadratic"``:
    :math:`1 - (i - j)^2 / (n - 1)^2`, the classes taken as ordered in label order;
    or an ``(n, n)`` array of such weights, ``w[i, j]`` weighting cell ``m[i, j]``.
    """
    if isinstance(weights, str):
        if weights not in WEIGHTS:
            raise ValueError(
                f"weights must be 'linear', 'quadratic' or an (n, n) array; got {weights!r}"
            )
        gap = np.abs(np.subtract.outer(np.arange(n), np.arange(n))) / (n - 1)
        return 1.0 - (gap if weights == "linear" else gap**2)
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(
            f"weights must be 'linear', 'quadratic' or an (n, n) array of numbers; got {weights!r}"
        ) from None
    if w.shape != (n, n):
        raise ValueError(f"weights must have shape ({n}, {n}) for {n} classes; got {w.shape}")
    if not np.isfinite(w).all() or w.min() < 0 or w.max() > 1 or not (np.diag(w) == 1).all():
        raise ValueError(
            "weights must be agreement weights: 1 on the diagonal, between 0 and 1 elsewhere"
        )
    return w


def _at_least_two(s: ClassSums, name: str) -> None:
    if s.n < 2:  # as_confusion refuses it already; the class-sum forms may be called directly
        raise ValueError(f"{name} needs at least two categories")


def _weighted_kappa_of(s: ClassSums, w: np.ndarray, fill: float) -> np.ndarray:
    # kappa_w = 1 - s * sum(v * m) / (b' v p) with the disagreement weights v = 1 - w: both sums
    # have non-negative terms, so the denominator is 0 exactly when chance agreement is perfect.
    v = 1.0 - w
    observed = np.einsum("...ij,ij->...", s.matrix, v) * s.total
    chance = np.einsum("...i,ij,...j->...", s.bias, v, s.prevalence)
    out = np.full(np.shape(chance), fill)
    np.divide(chance - observed, chance, out=out, where=chance > 0)
    return out


def _scott_pi_of(s: ClassSums, fill: float) -> np.ndarray:
    # pi = (4 s r - a.a) / (4 s^2 - a.a) with a = b + p (both raters' use of each class); the
    # denominator as sum_k a_k (2 s - a_k), a sum of non-negative terms.
    a = s.bias + s.prevalence
    s2 = 2.0 * s.total[..., None]
    numerator = 2.0 * s2[..., 0] * _vsum(s.correct) - _vsum(a * a)
    den = _vsum(a * (s2 - a))
    out = np.full(np.shape(den), fill)
    np.divide(numerator, den, out=out, where=den > 0)
    return out


def _pabak_of(s: ClassSums) -> np.ndarray:
    q = s.n
    return (q * _vsum(s.correct) / s.total - 1.0) / (q - 1)


def _gwet_of(s: ClassSums, w: np.ndarray | None) -> np.ndarray:
    # p_e = T_w / (q (q - 1)) * sum_k pi_k (1 - pi_k), pi_k = (b_k + p_k) / (2 s), T_w the sum of
    # the weights (q without weights); 1 - p_e > 0 always: sum pi (1 - pi) <= 1 - 1/q.
    q = s.n
    pi = (s.bias + s.prevalence) / (2.0 * s.total[..., None])
    if w is None:
        observed, scale = _vsum(s.correct) / s.total, q
    else:
        observed, scale = np.einsum("...ij,ij->...", s.matrix, w) / s.total, w.sum()
    chance = scale * _vsum(pi * (1.0 - pi)) / (q * (q - 1))
    return (observed - chance) / (1.0 - chance)


def weighted_kappa(m, *, weights="linear", zero_division=0):
    r"""Cohen's weighted kappa (Cohen 1968) for ordered classes.

    With agreement weights :math:`w_{ij}` (1 on the diagonal), observed and chance agreement
    :math:`p_o = \sum_{ij} w_{ij} m_{ij} / s` and
    :math:`p_e = \sum_{ij} w_{ij} b_i p_j / s^2`,

    .. math::

        \kappa_w = \frac{p_o - p_e}{1 - p_e}
                 = 1 - \frac{s \sum_{ij} v_{ij} m_{ij}}{\sum_{ij} v_{ij} b_i p_j},
        \qquad v_{ij} = 1 - w_{ij},

    where :math:`b` are the row sums (rater A, the predictions), :math:`p` the column sums
    (rater B, the truth) and :math:`s` the total. Near misses count as part agreement.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        Cross-table of two raters or confusion matrix: ``m[i, j]`` = items rater A (predicted)
        put in class ``i`` and rater B (true) in class ``j``, classes in their order.
    weights : {"linear", "quadratic"} or array_like (n, n), default "linear"
        ``"linear"``: :math:`w_{ij} = 1 - |i - j| / (n - 1)`; ``"quadratic"``:
        :math:`1 - (i - j)^2 / (n - 1)^2`; or a matrix of agreement weights (1 on the
        diagonal, between 0 and 1 elsewhere), ``w[i, j]`` weighting cell ``m[i, j]``.
        The identity matrix gives :func:`kappa`.
    zero_division : {0, 1, 'nan'}, default 0
        Returned where chance agreement is perfect (:math:`p_e = 1`).

    Returns
    -------
    float or ndarray of shape (...)

    Notes
    -----
    Equals scikit-learn's ``cohen_kappa_score(a, b, weights=...)``, whose disagreement weights
    are :math:`|i - j|` and :math:`(i - j)^2`: the scale cancels. scikit-learn's matrix is the
    transpose of this one; the string weights are symmetric, so only a matrix of weights
    cares.

    Examples
    --------
    >>> round(weighted_kappa([[20, 5, 0], [3, 15, 4], [1, 2, 10]]), 4)
    0.6796
    >>> round(weighted_kappa([[20, 5, 0], [3, 15, 4], [1, 2, 10]], weights="quadratic"), 4)
    0.75
    """
    s = _checked_sums(m)
    w = agreement_weights(weights, s.n)
    return scalar_or_array(_weighted_kappa_of(s, w, fill_value(zero_division)))


def scott_pi(m, *, zero_division=0):
    r"""Scott's pi (Scott 1955): chance agreement from the two raters' pooled class shares.

    .. math::

        \pi = \frac{p_o - p_e}{1 - p_e}, \quad p_o = \frac{\sum_k m_{kk}}{s},\quad
        p_e = \sum_k \pi_k^2,\quad \pi_k = \frac{b_k + p_k}{2 s},

    with :math:`b` the row sums (rater A, the predictions), :math:`p` the column sums
    (rater B, the truth) and :math:`s` the total. Where kappa multiplies each rater's own
    shares, pi assumes both raters share one distribution; for two raters it is
    Krippendorff's nominal alpha without the small-sample factor :math:`(2s - 1) / 2s`,
    and Fleiss' kappa of the items rated twice.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        ``m[i, j]`` = items rater A (predicted) put in class ``i`` and rater B (true) in ``j``.
    zero_division : {0, 1, 'nan'}, default 0
        Returned where both raters use a single, shared class (:math:`p_e = 1`).

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(scott_pi([[40, 9], [6, 45]]), 4)
    0.6992
    """
    return scalar_or_array(_scott_pi_of(_checked_sums(m), fill_value(zero_division)))


def pabak(m):
    r"""Prevalence- and bias-adjusted kappa (Byrt, Bishop & Carlin 1993).

    Kappa with the chance agreement of raters who use the :math:`q` classes equally often,
    :math:`p_e = 1 / q`:

    .. math:: PABAK = \frac{q\, p_o - 1}{q - 1}, \qquad p_o = \frac{\sum_k m_{kk}}{s},

    i.e. :math:`2 p_o - 1` for two classes; for more it is the coefficient of Brennan &
    Prediger (1981). It depends on the accuracy alone, so it does not fall at extreme
    prevalence as kappa does (Feinstein & Cicchetti 1990), and says nothing about it either.

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        ``m[i, j]`` = items rater A (predicted) put in class ``i`` and rater B (true) in ``j``.

    Returns
    -------
    float or ndarray of shape (...)

    Examples
    --------
    >>> round(pabak([[90, 5], [3, 2]]), 4)
    0.84
    """
    s = _checked_sums(m)
    return scalar_or_array(_pabak_of(s))


def gwet_ac1(m, *, weights=None):
    r"""Gwet's AC1 (Gwet 2008), or AC2 with weights: chance agreement that shrinks at extremes.

    .. math::

        AC = \frac{p_o - p_e}{1 - p_e}, \qquad
        p_e = \frac{T_w}{q (q - 1)} \sum_k \pi_k (1 - \pi_k), \qquad
        \pi_k = \frac{b_k + p_k}{2 s},

    with :math:`q` classes, :math:`b` the row sums (rater A, the predictions), :math:`p` the
    column sums (rater B, the truth), :math:`s` the total; without weights
    :math:`p_o = \sum_k m_{kk} / s` and :math:`T_w = q` (AC1); with agreement weights
    :math:`w`, :math:`p_o = \sum_{ij} w_{ij} m_{ij} / s` and :math:`T_w = \sum_{ij} w_{ij}`
    (AC2). Chance agreement is largest when the classes are used equally and falls towards 0
    as one class dominates, the opposite of kappa's: at extreme prevalence AC1 stays near
    the accuracy (the paradox of Feinstein & Cicchetti 1990 does not arise).

    Parameters
    ----------
    m : array_like, shape (n, n) or (..., n, n)
        ``m[i, j]`` = items rater A (predicted) put in class ``i`` and rater B (true) in ``j``.
        Every class of the matrix counts in :math:`q`, used or not.
    weights : None, {"linear", "quadratic"} or array_like (n, n), default None
        None gives AC1; weights as in :func:`weighted_kappa` give AC2.

    Returns
    -------
    float or ndarray of shape (...)

    Notes
    -----
    Equals irrCAC's ``CAC(ratings, weights=..., categories=...).gwet()`` on the two raters'
    ratings, with the matrix's classes as the categories; ``"linear"`` and ``"quadratic"``
    are irrCAC's weights of categories ``0, 1, ..., q - 1``. irrCAC weights each pair of ratings by
    the mean of ``w[i, j]`` and ``w[j, i]``; for a matrix of weights that is not symmetric
    this function weights cell ``m[i, j]`` by ``w[i, j]`` alone.

    Examples
    --------
    >>> round(gwet_ac1([[90, 5], [3, 2]]), 4)
    0.9098
    """
    s = _checked_sums(m)
    w = None if weights is None else agreement_weights(weights, s.n)
    return scalar_or_array(_gwet_of(s, w))
