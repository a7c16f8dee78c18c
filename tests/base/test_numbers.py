"""clfmetrics._base.numbers: how the library writes numbers, counts, p-values and seeds."""

from __future__ import annotations

import math

import pytest

from clfbook.widgets._base import fmt
from clfmetrics._base.numbers import fixed, num, pvalue

TINY = [-1e-17, 1e-17, -0.0, 0.0, -4e-4, 4e-4]


@pytest.mark.parametrize("x", TINY)
def test_fixed_never_prints_a_negative_zero(x):
    assert fixed(x) == "0.000"
    assert num(x) == "0.000"
    assert fixed(x, 4) == ("0.0000" if abs(x) < 5e-5 else f"{x:.4f}")
    assert fixed(x, sign=True) == "+0.000"
    assert fmt(x) == ("0.0000" if abs(x) < 5e-5 else f"{x:.4f}")


@pytest.mark.parametrize("x", [-0.0006, -1.5, -0.25, 0.0006, 2.0, 1e-3])
def test_fixed_keeps_every_other_value_as_python_prints_it(x):
    assert fixed(x) == f"{x:.3f}"
    assert fixed(x, 4) == f"{x:.4f}"
    assert fixed(x, sign=True) == f"{x:+.3f}"
    assert fmt(x) == f"{x:.4f}"


def test_undefined_and_pvalues():
    assert num(math.nan) == "undefined"
    assert fmt(math.nan) == "nan"
    assert pvalue(-1e-17 + 0.5) == "0.500"
