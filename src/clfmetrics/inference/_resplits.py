r"""Comparing two learning methods over repeated train/test splits of one data set.

Resplits of the same items are not independent replications: every split
shares most of its training items and its test items with the others, so the
differences of the two methods' scores are positively correlated, and the
ordinary paired t-test over them rejects far too often (Dietterich 1998;
Nadeau & Bengio 2003). :func:`corrected_resampled_ttest` inflates the variance
by the correction of Nadeau & Bengio (2003).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._base.checks import reject_masked
from ._binomial import regularized_beta


@dataclass(frozen=True)
class ResampledTTest:
    """The corrected resampled t-test of :func:`corrected_resampled_ttest`.

    Attributes
    ----------
    statistic : float
        The t statistic.
    pvalue : float
        Two-sided p-value from Student's t distribution with ``J - 1`` degrees of freedom.
    mean : float
        The mean difference over the ``J`` splits.
    df : int
        Degrees of freedom, ``J - 1``.
    """

    statistic: float
    pvalue: float
    mean: float
    df: int


def _positive_count(value, name: str) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise ValueError(f"{name} must be a positive whole number of items; got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1; got {value}")
    return int(value)


def student_t_two_sided(t: float, df: int) -> float:
    r"""Two-sided p-value :math:`P(|T| \ge |t|)` of Student's t with ``df`` degrees of freedom.

    :math:`I_{df / (df + t^2)}(df/2, 1/2)`, the regularized incomplete beta function
    by its continued fraction (Press et al., *Numerical Recipes*, sec. 6.4);
    ``scipy.stats.t.sf`` agrees to about 1e-13 (tested).
    """
    return float(regularized_beta(df / 2.0, 0.5, df / (df + t * t)))


def corrected_resampled_ttest(differences, n_train, n_test) -> ResampledTTest:
    r"""Nadeau & Bengio's (2003) corrected resampled t-test over ``J`` train/test splits.

    With :math:`d_j` the difference of the two methods' scores on split
    :math:`j`, :math:`\bar d` their mean and :math:`\hat\sigma^2` their sample
    variance (``ddof=1``),

    .. math::

        t = \frac{\bar d}{\sqrt{\left(\frac1J + \frac{n_\text{test}}{n_\text{train}}\right)
            \hat\sigma^2}},

    referred to Student's t with :math:`J - 1` degrees of freedom (two-sided).
    The ordinary paired t-test has :math:`1/J` alone: it treats the splits as
    independent, which they are not, and its type I error grows with
    :math:`J`. Nadeau & Bengio set the correlation between two splits' differences
    by a heuristic, :math:`\rho = n_\text{test} / (n_\text{test} + n_\text{train})`,
    rather than estimating it; the term :math:`n_\text{test}/n_\text{train}` is
    :math:`\rho / (1 - \rho)`, so more splits no longer shrink the variance towards 0.
    The heuristic is not exact in either direction; with test parts as large as the
    training parts, drawn from a larger data set, it over-corrects and the test is
    strongly conservative (chapter "A real classifier" measures its size).

    Parameters
    ----------
    differences : array_like of float, shape (J,)
        Score of method A minus score of method B on each split, ``J >= 2``.
    n_train, n_test : int
        Items in each split's training and test part.

    Returns
    -------
    ResampledTTest
        ``statistic`` and ``pvalue`` (and ``mean``, ``df``). If every difference is
        equal, the variance is 0: the statistic is 0 with p = 1 when they are all 0,
        and infinite with p = 0 otherwise.

    Raises
    ------
    ValueError
        For fewer than 2 differences, NaN or infinite ones, masked input, or
        ``n_train`` or ``n_test`` not a positive whole number.

    Notes
    -----
    The t distribution's tail is computed here, with numpy and the standard library
    only (:func:`student_t_two_sided`); it agrees with ``scipy.stats.t``.

    Examples
    --------
    >>> r = corrected_resampled_ttest([0.02, 0.01, 0.03, 0.00, 0.02], 800, 200)
    >>> round(r.statistic, 3), round(r.pvalue, 3)
    (2.092, 0.105)
    """
    reject_masked(differences, "differences")
    try:
        d = np.asarray(differences, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"differences must be numbers; got {differences!r}") from None
    if d.ndim != 1 or d.size < 2:
        raise ValueError(f"differences must be 1-d with at least 2 splits; got shape {d.shape}")
    if not np.isfinite(d).all():
        raise ValueError("differences has a NaN or infinite value")
    n_train, n_test = _positive_count(n_train, "n_train"), _positive_count(n_test, "n_test")

    j = d.size
    mean, var = float(d.mean()), float(d.var(ddof=1))
    scale = math.sqrt((1 / j + n_test / n_train) * var)
    if scale == 0:
        statistic = 0.0 if mean == 0 else math.copysign(math.inf, mean)
        return ResampledTTest(statistic, 1.0 if mean == 0 else 0.0, mean, j - 1)
    statistic = mean / scale
    pvalue = student_t_two_sided(statistic, j - 1)
    return ResampledTTest(statistic, pvalue, mean, j - 1)
