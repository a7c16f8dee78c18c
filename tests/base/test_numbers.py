"""clfmetrics._base.numbers: how the library writes numbers, counts, p-values and seeds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from clfbook.widgets._base import fmt
from clfmetrics._base.numbers import count, fixed, num, pvalue, seed_of, seed_text

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


@pytest.mark.parametrize(
    ("n", "noun", "plural", "text"),
    [
        (0, "item", None, "0 items"),
        (1, "item", None, "1 item"),
        (2, "class", "classes", "2 classes"),
    ],
)
def test_a_count_takes_its_noun_in_the_right_number(n, noun, plural, text):
    assert count(n, noun, plural) == text


def test_the_seed_of_a_generator_is_named_by_what_the_output_can_say():
    assert seed_of(7) == 7 and type(seed_of(np.int64(7))) is int
    assert seed_of(np.random.default_rng(0)) == "generator"
    assert seed_of(None) is None and seed_of(True) is None  # a bool is no seed
    assert seed_text(0) == "seed 0"
    assert seed_text("generator") == "the caller's random generator"
    assert "change from run to run" in seed_text(None)


def test_nan_is_undefined_and_small_p_values_are_bounded():
    assert num(float("nan")) == "undefined" and num(0.12345, 2) == "0.12"
    assert pvalue(0.0004) == "< 0.001" and pvalue(0.0004, prose=True) == "< 0.001"
    assert pvalue(0.042) == "0.042" and pvalue(0.042, prose=True) == "= 0.042"
    assert fixed(0.5, sign=True) == "+0.500" and fixed(-0.5, sign=True) == "-0.500"
