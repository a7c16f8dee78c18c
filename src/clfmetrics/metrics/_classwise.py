"""The class sums of a matrix, and the per-class quantities built on them.

The class sums, :class:`ClassSums`, are what every metric of this concern is written
on: the bias (row sums), the prevalence (column sums), the correct mass (the
diagonal) and the total. Here too are precision, recall and F1 of each class on
them, and the public functions of a matrix.

Convention (as in Opitz & Burst 2019 and Opitz 2024): ``m[i, j]`` is the mass
predicted as class ``i`` whose true class is ``j``. Rows are predictions,
columns are the reference. Every function accepts one matrix ``(n, n)`` or a
stack ``(..., n, n)`` and returns an array of shape ``(..., n)``.
"""

from __future__ import annotations

import functools

import numpy as np

from .._base.checks import as_confusion, as_confusion_with_totals, fill_value

# Up to this many classes, a product with a 0/1 matrix sums the rows or the
# columns of every matrix in one BLAS pass; numpy's reductions over a short
# axis (n = 3) are several times slower than reading the stack once. For more
# classes the product's n^3 work outgrows the n^2 reads and einsum wins
# (benchmarks/run.py measures both).
_SUMS_BY_PRODUCT_MAX_N = 8


@functools.cache
def _summing_matrix(n: int, axis: int) -> np.ndarray:
    """(n*n, n) 0/1 matrix: flattened m times it gives the row (axis=-1) or column sums."""
    eye, ones = np.eye(n), np.ones((n, 1))
    out = np.kron(eye, ones) if axis == -1 else np.kron(ones, eye)
    out.flags.writeable = False
    return out


def _sums(m: np.ndarray, axis: int, spec: str) -> np.ndarray:
    n = m.shape[-1]
    if n > _SUMS_BY_PRODUCT_MAX_N or m.dtype != np.float64:
        return np.einsum(spec, m)
    return m.reshape(*m.shape[:-2], n * n) @ _summing_matrix(n, axis)


def _bias(m: np.ndarray) -> np.ndarray:
    return _sums(m, -1, "...ij->...i")


def _prevalence(m: np.ndarray) -> np.ndarray:
    return _sums(m, -2, "...ij->...j")


def _correct(m: np.ndarray) -> np.ndarray:
    # A contiguous copy: the strided diagonal view made every later step slower.
    return np.diagonal(m, axis1=-2, axis2=-1).copy()


def _vsum(v: np.ndarray) -> np.ndarray:
    """Sum over the class axis of a stack of vectors."""
    return np.einsum("...i->...", v)


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product over the class axis of two stacks of vectors."""
    return np.einsum("...i,...i->...", a, b)


def _total(m: np.ndarray) -> np.ndarray:
    return np.einsum("...ij->...", m)


class ClassSums:
    """The class sums of a stack of confusion matrices: all that METRICS needs of it.

    ``bias`` (row sums, predicted), ``prevalence`` (column sums, true) and
    ``correct`` (the diagonal), each ``(..., n)``, and ``total``, ``(...)``. Made
    from a stack (``ClassSums(m)``), each is summed from the cells the first
    time a metric asks for it, so a metric reads the stack only for what it
    uses. Made from the class sums themselves (:meth:`of_margins`, the
    resampling of many classes: ``3 n`` numbers per matrix), ``matrix`` is
    None and the total is the sum of the bias. Every metric of this concern is
    written once, on this object; a function of a matrix builds it and calls
    that form. The arrays are shared by every metric asked of the same object:
    no form writes into them.
    """

    __slots__ = ("_bias", "_correct", "_prevalence", "_total", "matrix")

    def __init__(self, matrix: np.ndarray, total: np.ndarray | None = None):
        self.matrix = matrix
        self._bias = self._prevalence = self._correct = None
        self._total = total

    @classmethod
    def of_margins(cls, b: np.ndarray, p: np.ndarray, c: np.ndarray) -> ClassSums:
        """The sums of matrices known only by their bias ``b``, prevalence ``p``, correct ``c``."""
        sums = cls(None, _vsum(b))
        sums._bias, sums._prevalence, sums._correct = b, p, c
        return sums

    @property
    def n(self) -> int:
        """The number of classes."""
        return (self.matrix if self._correct is None else self._correct).shape[-1]

    @property
    def bias(self) -> np.ndarray:
        if self._bias is None:
            self._bias = _bias(self.matrix)
        return self._bias

    @property
    def prevalence(self) -> np.ndarray:
        if self._prevalence is None:
            self._prevalence = _prevalence(self.matrix)
        return self._prevalence

    @property
    def correct(self) -> np.ndarray:
        if self._correct is None:
            self._correct = _correct(self.matrix)
        return self._correct

    @property
    def total(self) -> np.ndarray:
        if self._total is None:
            self._total = _total(self.matrix)
        return self._total


def _checked_sums(m) -> ClassSums:
    """The class sums of ``m`` after :func:`as_confusion_with_totals` (whose totals they keep)."""
    return ClassSums(*as_confusion_with_totals(m))


def _ratio(num: np.ndarray, den: np.ndarray, fill: float) -> np.ndarray:
    """``num / den`` where ``den > 0``; ``fill`` where the ratio is undefined."""
    if den.size and den.min() > 0:  # the common case: one division, one new array
        return num / den
    out = np.full(np.broadcast_shapes(num.shape, den.shape), fill)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _harmonic(p: np.ndarray, r: np.ndarray) -> np.ndarray:
    """H(p, r) = 2pr / (p + r) with H(0, 0) = 0; NaN in either argument gives NaN."""
    s = p + r
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(p * r, dtype=np.float64)  # 0-d when p, r are scalars
        out *= 2.0
        out /= s  # 0/0 = NaN where p = r = 0, set to 0 below; a NaN argument stays NaN
    both_zero = s == 0
    if both_zero.any():
        out[both_zero] = 0.0
    return out


# The class-wise ratios on the class sums (each a new array, shape (..., n)).


def _precision_of(s: ClassSums, fill: float) -> np.ndarray:
    return _ratio(s.correct, s.bias, fill)


def _recall_of(s: ClassSums, fill: float) -> np.ndarray:
    return _ratio(s.correct, s.prevalence, fill)


def _f1_of(s: ClassSums, fill: float) -> np.ndarray:
    b, p, c = s.bias, s.prevalence, s.correct
    if b.size and b.min() > 0 and p.min() > 0:
        # Every class predicted and present: H(c/b, c/p) = 2c / (b + p) = c / ((b + p) / 2),
        # with two new arrays instead of seven.
        half = b + p
        half *= 0.5
        return np.divide(c, half, out=half)
    return _harmonic(_precision_of(s, fill), _recall_of(s, fill))


# The same of a checked stack (the calibrated metrics use them, and the apparatus's figures).


def _precision(m: np.ndarray, fill: float) -> np.ndarray:
    return _precision_of(ClassSums(m), fill)


def _recall(m: np.ndarray, fill: float) -> np.ndarray:
    return _recall_of(ClassSums(m), fill)


def _f1(m: np.ndarray, fill: float) -> np.ndarray:
    return _f1_of(ClassSums(m), fill)


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
    return _correct(as_confusion(m))


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
    return _precision_of(_checked_sums(m), fill_value(zero_division))


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
    return _recall_of(_checked_sums(m), fill_value(zero_division))


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
    return _f1_of(_checked_sums(m), fill_value(zero_division))
