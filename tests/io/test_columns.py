"""clfmetrics.io._columns: the label columns of a CSV file as integers or as text, checked."""

from __future__ import annotations

import numpy as np
import pytest

from clfmetrics.io._columns import _integer_labels, _label_columns, _nearly_numeric, _order
from clfmetrics.io._file import InputError

LINES = np.array([2, 3, 4, 5])


def _cols(**columns):
    return {name: np.array(values) for name, values in columns.items()}


def test_integers_sort_as_numbers_and_match_across_columns():
    columns, classes, notes = _label_columns(
        "f.csv", _cols(y=["1", "10", "2", "1"], p=["1.0", "2", "10", "2"]), LINES, None
    )
    assert classes == [1, 2, 10] and notes == []
    assert columns["y"].dtype == np.int64 and columns["p"].tolist() == [1, 2, 10, 2]


def test_leading_zeros_keep_the_labels_text():
    assert _integer_labels("f.csv", _cols(y=["007", "7", "1", "1"]), LINES, None) is None
    columns, classes, _ = _label_columns("f.csv", _cols(y=["007", "7", "1", "1"]), LINES, None)
    assert classes == ["1", "007", "7"] and columns["y"].dtype.kind == "U"  # 7 == 7, two texts


def test_a_fractional_label_is_a_score_given_in_the_wrong_place():
    with pytest.raises(InputError, match=r"f.csv, line 4: column 'y' holds '0.5', which is not"):
        _integer_labels("f.csv", _cols(y=["1", "0", "0.5", "1"]), LINES, None)


def test_integers_beyond_a_floats_exact_range_stay_text():
    big = str(2**53 + 1)
    assert _integer_labels("f.csv", _cols(y=[big, "1", "1", "1"]), LINES, None) is None


def test_given_labels_set_the_classes_and_refuse_any_other():
    _, classes, _ = _label_columns("f.csv", _cols(y=["b", "a", "a", "b"]), LINES, ["b", "a", "c"])
    assert classes == ["b", "a", "c"]
    with pytest.raises(InputError, match=r"line 5: column 'y' holds 'd', which is not in --labels"):
        _label_columns("f.csv", _cols(y=["b", "a", "a", "d"]), LINES, ["a", "b"])
    with pytest.raises(InputError, match="repeats a class"):
        _label_columns("f.csv", _cols(y=["b", "a", "a", "b"]), LINES, ["a", "a"])
    with pytest.raises(InputError, match="at least 2 classes"):
        _label_columns("f.csv", _cols(y=["a", "a", "a", "a"]), LINES, ["a"])


def test_one_class_in_the_file_asks_for_labels():
    with pytest.raises(InputError, match=r"only one class \('x'\) in column\(s\) 'y' and 'p'"):
        _label_columns("f.csv", _cols(y=["x"] * 4, p=["x"] * 4), LINES, None)


def test_a_column_of_numbers_but_a_few_is_read_as_text_with_a_warning():
    values = [str(k % 3) for k in range(40)]
    values[7] = "two"
    lines = np.arange(2, 42)
    (note,) = _nearly_numeric("f.csv", _cols(y=values), lines)
    assert "column 'y' holds numbers except 1 value ('two') (line 9)" in note
    values[:10] = ["x"] * 10  # a quarter of the rows: text, no warning
    assert _nearly_numeric("f.csv", _cols(y=values), lines) == []


def test_numbers_sort_before_text_and_by_value():
    assert sorted(["b", "10", "2", "a", "-1"], key=_order) == ["-1", "2", "10", "a", "b"]
