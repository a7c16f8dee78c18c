r"""McNemar's exact test of two systems' accuracy on the same items, and its sample size.

Private module: the public names are re-exported by :mod:`clfmetrics.uncertainty`
and :mod:`clfmetrics`. Numpy and the standard library only; the exact binomial
p-value comes from :mod:`clfmetrics._binomial`.

References: McNemar (1947); Connor (1987) for the sample size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from . import _resample as rs
from ._binomial import two_sided_half

__all__ = ["McNemarResult", "mcnemar", "mcnemar_of_patterns", "mcnemar_sample_size"]


@dataclass(frozen=True)
class McNemarResult:
    """The exact McNemar test of two systems' accuracy on the same items.

    Attributes
    ----------
    statistic : int
        ``min(a_only, b_only)``, the count the exact test refers to a binomial.
    pvalue : float
        Two-sided exact p-value, ``P(Binomial(a_only + b_only, 1/2)`` as extreme).
    a_only : int
        Items that system A labels correctly and system B does not.
    b_only : int
        Items that system B labels correctly and system A does not.
    """

    statistic: int
    pvalue: float
    a_only: int
    b_only: int


def mcnemar(y_true, pred_a, pred_b, *, labels=None) -> McNemarResult:
    r"""Exact McNemar test: do two systems have the same accuracy on these items?

    Only the items on which exactly one system is right carry information:
    ``a_only`` (A right, B wrong) and ``b_only``. Under the null hypothesis each
    of these ``a_only + b_only`` items is equally likely to favour either
    system, so ``a_only ~ Binomial(a_only + b_only, 1/2)``; the p-value is the
    exact two-sided binomial test, :math:`\min(1, 2 P(X \le \min(a, b)))`, equal
    to ``scipy.stats.binomtest(a_only, a_only + b_only).pvalue`` and computed
    with numpy alone.

    Parameters
    ----------
    y_true, pred_a, pred_b : sequence of hashable labels, equal length
    labels : sequence, optional

    Returns
    -------
    McNemarResult

    Examples
    --------
    >>> r = mcnemar([0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 0, 0], [1, 0, 1, 1, 0, 0])
    >>> r.a_only, r.b_only, round(r.pvalue, 3)
    (3, 0, 0.25)
    """
    rows, counts, _, _ = rs.pair_patterns(y_true, pred_a, pred_b, labels)
    return mcnemar_of_patterns(rows, counts)


def mcnemar_of_patterns(rows: np.ndarray, counts: np.ndarray) -> McNemarResult:
    """:func:`mcnemar` from joint patterns (true, A, B) and their counts."""
    t, a, b = rows
    a_only = int(counts[(a == t) & (b != t)].sum())
    b_only = int(counts[(b == t) & (a != t)].sum())
    discordant = a_only + b_only
    pvalue = 1.0 if discordant == 0 else float(two_sided_half(a_only, discordant))
    return McNemarResult(min(a_only, b_only), pvalue, a_only, b_only)


def mcnemar_sample_size(delta, discordance, *, level=0.95, power=0.8) -> int:
    r"""Test items needed for McNemar's test to detect an accuracy difference ``delta``.

    With :math:`\psi` the share of items on which exactly one of the two systems
    is right (the discordance) and :math:`\delta` the difference of their
    accuracies, Connor (1987) gives

    .. math::

        N = \left\lceil \frac{\left(z_{1-\alpha/2} \sqrt{\psi}
            + z_{\text{power}} \sqrt{\psi - \delta^2}\right)^2}{\delta^2} \right\rceil ,

    a normal approximation for the two-sided test at level :math:`\alpha`
    (:math:`1 -` ``level``).

    Parameters
    ----------
    delta : float
        Accuracy difference to detect, ``0 < |delta| <= discordance``.
    discordance : float
        Share of items where exactly one system is right, in (0, 1].
    level : float, default 0.95
        One minus the test's significance level.
    power : float, default 0.8
        Probability of detecting the difference.

    Returns
    -------
    int

    Examples
    --------
    >>> mcnemar_sample_size(0.02, 0.10)
    1960
    """
    level = rs.check_level(level)
    if isinstance(power, bool) or not isinstance(power, (int, float, np.integer, np.floating)):
        raise ValueError(f"power must be a number strictly between 0 and 1; got {power!r}")
    if not 0 < power < 1:
        raise ValueError(f"power must be strictly between 0 and 1 (e.g. 0.8); got {power!r}")
    delta = abs(float(delta))
    if not 0 < discordance <= 1:
        raise ValueError(f"discordance must be in (0, 1]; got {discordance!r}")
    if not 0 < delta <= discordance:
        raise ValueError(
            f"delta must be non-zero and at most the discordance {discordance}: the accuracy "
            f"difference comes from discordant items only; got {delta!r}"
        )
    normal = NormalDist()
    z_test, z_power = normal.inv_cdf(1 - (1 - level) / 2), normal.inv_cdf(power)
    root = z_test * math.sqrt(discordance) + z_power * math.sqrt(discordance - delta**2)
    return math.ceil(root**2 / delta**2)
