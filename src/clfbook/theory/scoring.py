r"""Proper scoring rules, exactly: why the Brier score and log loss reward honest probabilities.

A forecaster reports the probability :math:`q` that an item is positive; the
truth is that it is positive with probability :math:`p`. A *scoring rule*
charges a loss :math:`S(q, y)` once the label :math:`y \in \{0, 1\}` is seen, so
the forecaster's expected loss is

.. math::

    \bar S(q; p) = p\,S(q, 1) + (1 - p)\,S(q, 0).

The rule is *strictly proper* when :math:`\bar S(q; p)` is smallest at
:math:`q = p` and nowhere else (Gneiting & Raftery 2007): reporting the honest
probability is the only way to do best on average. This module proves, with
exact sympy algebra on symbols :math:`p, q \in (0, 1)`:

* the Brier score (Brier 1950), :math:`S(q, y) = (q - y)^2`, has
  :math:`\bar S(q; p) = p(1 - p) + (q - p)^2` (:func:`brier_derivation`), and for
  :math:`n` classes, :math:`\sum_k (q_k - [y = k])^2` has expected excess
  :math:`\sum_k (q_k - p_k)^2` (:func:`multiclass_brier_excess`);
* log loss, :math:`S(q, y) = -y \log q - (1 - y) \log(1 - q)`, has
  :math:`\partial \bar S / \partial q = (q - p) / (q(1 - q))`, negative below
  :math:`p` and positive above it (:func:`log_loss_derivation`);
* the accuracy of the decision :math:`[q \ge 1/2]` is the same for every
  :math:`q` on one side of :math:`1/2` (:func:`expected_accuracy`), so it cannot
  tell an honest forecaster from one that exaggerates.

"Calibration" here is the property of probabilities, :math:`P(Y = 1 \mid q) = q`;
it is unrelated to the *prevalence calibration* of a confusion matrix
(Opitz 2024, :mod:`clfbook.theory.calibration`).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import sympy as sp

__all__ = [
    "P",
    "Q",
    "Step",
    "brier_derivation",
    "brier_is_strictly_proper",
    "expected_accuracy",
    "expected_brier",
    "expected_log_loss",
    "log_loss_derivation",
    "log_loss_is_strictly_proper",
    "multiclass_brier_excess",
    "multiclass_brier_is_strictly_proper",
]

#: The true probability of the positive class and the reported one.
P = sp.Symbol("p", positive=True)
Q = sp.Symbol("q", positive=True)
HALF = sp.Rational(1, 2)


class Step(NamedTuple):
    """One step of a derivation: a sentence, the left-hand side and the expression it produces.

    Displays as the equation ``lhs = shown`` (``text/latex``). ``shown`` keeps the
    form the sentence describes; ``value`` is the same expression, used for the
    exact checks.
    """

    sentence: str
    lhs: str
    shown: sp.Expr
    value: sp.Expr

    def latex(self) -> str:
        return rf"{self.lhs} = {sp.latex(self.shown, order='none')}"

    def _repr_latex_(self) -> str:
        return f"$\\displaystyle {self.latex()}$"


def _is_zero(expr) -> bool:
    return sp.simplify(sp.sympify(expr)) == 0


def expected_brier(q=Q, p=P) -> sp.Expr:
    r"""Expected Brier score :math:`p(1 - q)^2 + (1 - p)q^2` of reporting ``q`` (truth ``p``).

    Examples
    --------
    >>> expected_brier(sp.Rational(1, 2), sp.Rational(1, 2))
    1/4
    """
    return p * (1 - q) ** 2 + (1 - p) * q**2


def expected_log_loss(q=Q, p=P) -> sp.Expr:
    r"""Expected log loss :math:`-p \log q - (1 - p) \log(1 - q)` of reporting ``q`` (truth p)."""
    return -p * sp.log(q) - (1 - p) * sp.log(1 - q)


def expected_accuracy(q=Q, p=P, threshold=HALF) -> sp.Expr:
    r"""Expected accuracy of deciding "positive" where ``q >= threshold``, when the truth is ``p``.

    :math:`p` if :math:`q \ge t`, else :math:`1 - p`: a step in :math:`q`, flat on
    each side of the threshold, so not a strictly proper score.

    Examples
    --------
    >>> expected_accuracy(sp.Rational(7, 10), sp.Rational(7, 10))
    7/10
    >>> expected_accuracy(1, sp.Rational(7, 10))
    7/10
    """
    return sp.Piecewise((p, sp.Ge(q, threshold)), (1 - p, True))


def brier_derivation() -> list[Step]:
    r"""The expected Brier score, completed to a square in four checked steps.

    Every step's ``value`` is exactly equal to the previous one; the last is
    :math:`p(1 - p) + (q - p)^2`, whose only minimum over :math:`q` is
    :math:`q = p`. Raises ``AssertionError`` if a step does not follow.
    """
    lhs = r"\bar S_{\mathrm{Brier}}(q; p)"
    start = expected_brier()
    steps = [
        Step(
            "The item is positive with probability p (loss (1 - q)^2) and negative with "
            "probability 1 - p (loss q^2).",
            lhs,
            start,
            start,
        ),
        Step(
            "Expand the squares: the terms p q^2 cancel.",
            lhs,
            sp.Add(Q**2, -2 * P * Q, P, evaluate=False),
            Q**2 - 2 * P * Q + P,
        ),
        Step(
            "Complete the square in q: add and subtract p^2.",
            lhs,
            sp.Add((Q - P) ** 2, P, -(P**2), evaluate=False),
            (Q - P) ** 2 + P - P**2,
        ),
        Step(
            "Factor the part that does not depend on q: it is the loss of the honest report, "
            "and the square is the penalty for reporting q instead of p.",
            lhs,
            sp.Add(P * (1 - P), (Q - P) ** 2, evaluate=False),
            P * (1 - P) + (Q - P) ** 2,
        ),
    ]
    for before, after in itertools.pairwise(steps):
        assert _is_zero(before.value - after.value), after.sentence
    return steps


def brier_is_strictly_proper() -> bool:
    r"""Prove :math:`\bar S(q; p) - \bar S(p; p) = (q - p)^2`: zero at q = p, positive elsewhere."""
    excess = expected_brier(Q, P) - expected_brier(P, P)
    stationary = sp.solve(sp.diff(expected_brier(), Q), Q)
    return _is_zero(excess - (Q - P) ** 2) and stationary == [P]


def log_loss_derivation() -> list[Step]:
    r"""The derivative of the expected log loss in q, brought to :math:`(q - p) / (q(1 - q))`.

    Since :math:`q(1 - q) > 0` on :math:`(0, 1)`, the derivative has the sign of
    :math:`q - p`: the expected loss falls until :math:`q = p` and rises after, so
    its only minimum is the honest report.
    """
    lhs = r"\frac{\partial \bar S_{\log}}{\partial q}"
    derivative = sp.diff(expected_log_loss(), Q)
    steps = [
        Step(
            "Differentiate -p log q - (1 - p) log(1 - q) term by term.",
            lhs,
            sp.Add(-P / Q, (1 - P) / (1 - Q), evaluate=False),
            derivative,
        ),
        Step(
            "Bring both terms over the common denominator q(1 - q).",
            lhs,
            sp.Mul(
                sp.Add(-P * (1 - Q), (1 - P) * Q, evaluate=False),
                sp.Pow(Q * (1 - Q), -1, evaluate=False),
                evaluate=False,
            ),
            (-P * (1 - Q) + (1 - P) * Q) / (Q * (1 - Q)),
        ),
        Step(
            "Expand the numerator: the terms p q cancel and leave q - p.",
            lhs,
            sp.Mul(Q - P, sp.Pow(Q * (1 - Q), -1, evaluate=False), evaluate=False),
            (Q - P) / (Q * (1 - Q)),
        ),
    ]
    for before, after in itertools.pairwise(steps):
        assert _is_zero(before.value - after.value), after.sentence
    return steps


def log_loss_is_strictly_proper() -> bool:
    r"""Prove the derivative is :math:`(q - p)/(q(1 - q))`, its only zero :math:`q = p`, and the
    excess over the honest report is the Kullback-Leibler divergence
    :math:`p \log(p/q) + (1 - p)\log((1 - p)/(1 - q))`."""
    derivative = sp.diff(expected_log_loss(), Q)
    kl = P * sp.log(P / Q) + (1 - P) * sp.log((1 - P) / (1 - Q))
    excess = expected_log_loss(Q, P) - expected_log_loss(P, P)
    return (
        _is_zero(derivative - (Q - P) / (Q * (1 - Q)))
        and sp.solve(derivative, Q) == [P]
        and _is_zero(sp.expand_log(excess - kl, force=True))
    )


def multiclass_brier_excess(n: int) -> tuple[sp.Expr, sp.Expr]:
    r"""Expected multi-class Brier score of reporting q when the truth is p, for ``n`` classes.

    Returns ``(excess, closed_form)``: the expected score
    :math:`\sum_k p_k \sum_j (q_j - [j = k])^2` minus that of the honest report,
    with :math:`p_n = 1 - \sum_{k<n} p_k` and :math:`q_n = 1 - \sum_{k<n} q_k`
    substituted, and the closed form :math:`\sum_j (q_j - p_j)^2`.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError(f"n must be an integer number of classes >= 2; got {n!r}")
    p = list(sp.symbols(f"p_1:{n}", positive=True))
    q = list(sp.symbols(f"q_1:{n}", positive=True))
    p.append(1 - sp.Add(*p))
    q.append(1 - sp.Add(*q))

    def expected(report):
        return sp.Add(
            *[
                p[k] * sp.Add(*[(report[j] - (1 if j == k else 0)) ** 2 for j in range(n)])
                for k in range(n)
            ]
        )

    excess = expected(q) - expected(p)
    return excess, sp.Add(*[(q[j] - p[j]) ** 2 for j in range(n)])


def multiclass_brier_is_strictly_proper(n: int) -> bool:
    r"""Prove the excess of :func:`multiclass_brier_excess` equals :math:`\sum_j (q_j - p_j)^2`.

    A sum of squares, zero exactly when every :math:`q_j = p_j`.
    """
    excess, closed = multiclass_brier_excess(n)
    return sp.expand(excess - closed) == 0
