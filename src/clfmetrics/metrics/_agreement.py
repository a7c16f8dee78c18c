"""Chance-corrected agreement: Cohen's kappa and the multi-class MCC.

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
