"""kappa and MCC decide undefinedness exactly and stay accurate on lopsided matrices.

The reference values are exact rationals computed with Python integers from
the count forms (r s - p.b) / (s^2 - p.b) and (r s - p.b) / sqrt((s^2 - p.p)(s^2 - b.b)),
never from the library. Convention: ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import clfmetrics as cm


def _exact(m):
    """(kappa, mcc) of an integer matrix in exact arithmetic; None where undefined."""
    m = [[int(v) for v in row] for row in m]
    n = len(m)
    s = sum(map(sum, m))
    r = sum(m[k][k] for k in range(n))
    b = [sum(row) for row in m]
    p = [sum(m[i][j] for i in range(n)) for j in range(n)]
    pb = sum(u * v for u, v in zip(p, b, strict=True))
    num = r * s - pb
    den_kappa = s * s - pb
    den_mcc2 = (s * s - sum(v * v for v in p)) * (s * s - sum(v * v for v in b))
    kappa = Fraction(num, den_kappa) if den_kappa else None
    mcc = math.copysign(math.sqrt(Fraction(num * num, den_mcc2)), num) if den_mcc2 else None
    return kappa, mcc


@pytest.mark.parametrize("metric", [cm.kappa, cm.mcc])
@pytest.mark.parametrize("big", [1e13, 2.0**52, 1e300])
def test_lopsided_perfect_agreement_is_1(metric, big):
    """[[big, 0], [0, 1]] is defined and perfect: 1, not the zero_division value."""
    assert metric([[big, 0], [0, 1]], zero_division="nan") == 1.0


@pytest.mark.parametrize("big", [1, 10**6, 10**15])
def test_undefined_exactly_when_the_mass_sits_in_one_cell(big):
    """One diagonal cell: both undefined. One more item elsewhere: kappa is defined."""
    one_cell = [[big, 0], [0, 0]]
    assert math.isnan(cm.kappa(one_cell, zero_division="nan"))
    assert math.isnan(cm.mcc(one_cell, zero_division="nan"))
    # predicted always class 0, one item of class 1: a constant classifier, kappa = 0,
    # and MCC stays undefined (the bias sits on one class)
    constant = [[big, 1], [0, 0]]
    assert cm.kappa(constant, zero_division="nan") == 0.0
    assert math.isnan(cm.mcc(constant, zero_division="nan"))
    # one error and one correct item of class 1: both defined, and equal to the exact value
    mixed = [[big, 0], [1, 1]]
    kappa, mcc = _exact(mixed)
    assert cm.kappa(mixed, zero_division="nan") == pytest.approx(float(kappa), abs=1e-15)
    assert cm.mcc(mixed, zero_division="nan") == pytest.approx(mcc, abs=1e-15)


def _lopsided_counts(rng, size: int) -> np.ndarray:
    """Integer matrices whose cells span 0 to 15 orders of magnitude; totals below 2**53."""
    n = 4
    magnitude = 10.0 ** rng.uniform(0, 14.5, size=(size, n, n))
    kept = rng.random((size, n, n)) < 0.6
    m = np.floor(magnitude * rng.random((size, n, n)) * kept)
    m[:, 0, 0] += 1  # no empty matrix
    return m


def test_stack_matches_exact_values_on_lopsided_counts():
    """On 300 lopsided count matrices the stacked results are within 1e-14 of exact values."""
    stack = _lopsided_counts(np.random.default_rng(12), 300)
    kappas = cm.kappa(stack, zero_division="nan")
    mccs = cm.mcc(stack, zero_division="nan")
    for m, k, r in zip(stack, kappas, mccs, strict=True):
        kappa, mcc = _exact(m)
        assert math.isnan(k) if kappa is None else abs(k - float(kappa)) < 1e-14
        assert math.isnan(r) if mcc is None else abs(r - mcc) < 1e-14
