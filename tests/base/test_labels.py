"""clfmetrics._base.labels: which labels the library accepts, refuses or warns about."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import clfmetrics as cm
from clfmetrics._base.labels import (
    LabelWarning,
    kinds,
    near_duplicates,
    refuse_exact_numbers,
    refuse_mixed,
)


def test_near_duplicate_labels_warn_in_the_python_api():
    with pytest.warns(LabelWarning, match="'Spam' and 'spam'"):
        cm.confusion_matrix(["Spam", "spam", "ham"], ["spam", "spam", "ham"])
    with pytest.warns(LabelWarning, match="' ham' and 'ham'"):
        r = cm.report([" ham", "ham", "spam"] * 10, ["ham", "ham", "spam"] * 10, size=50)
    assert any("' ham' and 'ham'" in w for w in r.warnings)


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        (np.array([1, 2]), {"number": 1}),
        (np.array([0.5]), {"number": 0.5}),
        (np.array(["a"]), {"string": "a"}),
        (np.array([True, 1, 2.0], dtype=object), {"number": True}),  # 1 == 1.0 == True
        (np.array([(1, 2), None], dtype=object), {"tuple": (1, 2), "None": None}),
        (np.array([], dtype=object), {}),
    ],
)
def test_kinds_groups_the_labels_that_compare_equal(values, kind):
    assert kinds(values) == kind


def test_mixed_kinds_are_refused_naming_each_vector():
    refuse_mixed([("y_true", np.array([1, 2])), ("y_pred", np.array([2.0, 1.0]))])  # numbers
    with pytest.raises(ValueError, match=r"y_true holds numbers \(e.g. 1\); y_pred holds strings"):
        refuse_mixed([("y_true", np.array([1, 2])), ("y_pred", np.array(["1", "2"]))])


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ([1, Fraction(1, 2)], r"Fraction label \(Fraction\(1, 2\) at index 1\)"),
        ([Decimal("1.5")], "Decimal label"),
        ([1, 2j], r"complex numbers \(2j at index 1\)"),
    ],
)
def test_exact_and_complex_numbers_are_no_labels(items, message):
    with pytest.raises(ValueError, match=message):
        refuse_exact_numbers(items, "y")
    refuse_exact_numbers([1, 2.5, "a"], "y")  # nothing exact: accepted


def test_near_duplicates_groups_case_space_and_leading_zeros():
    text = near_duplicates(["Spam", "spam", "no spam", " no  spam", "007", "7", "ham"])
    assert "'Spam' and 'spam'" in text and "'no spam' and ' no  spam'" in text
    assert "'007' and '7'" in text and "ham" not in text
    assert near_duplicates(["a", "b", 1, 1.0]) == ""  # numbers are never grouped
    many = near_duplicates([s for k in range(7) for s in (f"c{k}", f"C{k}")], most=5)
    assert many.count(" and ") == 5 and "(and 2 more groups)" in many
