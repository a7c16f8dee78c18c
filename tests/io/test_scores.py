"""clfmetrics.io._scores: the --scores column or the --proba matrix, checked for the report."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from clfmetrics.io._file import InputError
from clfmetrics.io._scores import option_terms, score_columns


def _args(scores=None, proba=None, pos_label=None, pred=("m",)):
    """The parsed options: ``--scores`` and ``--proba`` given once per ``--pred``."""
    return SimpleNamespace(
        scores=scores, proba=proba, pos_label=pos_label, file="f.csv", pred=list(pred)
    )


def _cols(classes, numbers=None, matrix=None):
    lines = np.arange(2, 2 + (len(matrix) if matrix is not None else 3))
    return SimpleNamespace(classes=classes, numbers=dict(numbers or {}), matrix=matrix, lines=lines)


def test_the_apis_words_become_the_options():
    message = "y_true and scores differ in length; pass pos_label= with 1-d scores"
    assert option_terms(message, _args(scores=["s"])) == (
        "--truth and the --scores column differ in length; pass --pos-label  with --scores"
    )
    assert option_terms("scores need an (N, 3) probability matrix", _args(proba=[["a"]])) == (
        "the --proba columns need one --proba column per class"
    )
    assert option_terms("scores differ", _args(scores=["s", "t"], pred="mn")) == (
        "the --scores columns differ"
    )


def test_the_scores_column_and_its_positive_class():
    s = np.array([0.1, 0.9, 0.4])
    yes = _args(scores=["s"], pos_label=" yes")
    got, pos = score_columns(yes, _cols(["no", "yes"], {"s": s}))
    assert got[0] is s and len(got) == 1 and pos == "yes"
    assert score_columns(_args(scores=["s"]), _cols(["no", "yes"], {"s": s}))[1] is None
    with pytest.raises(InputError, match="--pos-label maybe is not one of the classes no yes"):
        score_columns(_args(scores=["s"], pos_label="maybe"), _cols(["no", "yes"], {"s": s}))
    with pytest.raises(InputError, match=r"there are 3 \(a b c\): give one probability column"):
        score_columns(_args(scores=["s"]), _cols(["a", "b", "c"], {"s": s}))
    t = np.array([0.3, 0.6, 0.2])
    got, _ = score_columns(
        _args(scores=["t", "s"], pred="mn"), _cols(["no", "yes"], {"s": s, "t": t})
    )
    assert got[0] is t and got[1] is s  # in the order of the --pred they go with


def test_no_score_option_gives_no_scores():
    assert score_columns(_args(), _cols(["a", "b"])) == (None, None)


def test_proba_columns_one_per_class_in_the_class_order():
    matrix = np.array([[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]])
    proba, pos = score_columns(_args(proba=[["p_a", "p_b"]]), _cols(["a", "b"], matrix=matrix))
    assert proba[0] is matrix and pos is None
    with pytest.raises(InputError, match="--proba names 1 columns, but there are 2 classes"):
        score_columns(_args(proba=[["p_a"]]), _cols(["a", "b"], matrix=matrix))


def test_two_systems_proba_groups_are_matched_and_checked_each(capsys):
    names = ["x_a", "x_b", "p_b", "p_a"]
    matrix = np.array([[0.2, 0.8, 0.6, 0.4], [0.5, 0.5, 0.1, 0.9], [1.0, 0.0, 0.3, 0.7]])
    cols = _cols(["a", "b"], {n: matrix[:, j] for j, n in enumerate(names)}, matrix)
    two = _args(proba=[["x_a", "x_b"], ["p_b", "p_a"]], pred=["m", "n"])
    (first, second), _ = score_columns(two, cols)
    np.testing.assert_array_equal(first, matrix[:, :2])
    np.testing.assert_array_equal(second, matrix[:, [3, 2]])
    assert "--proba columns of --pred n matched to the classes by name" in capsys.readouterr().err
    off = matrix.copy()
    off[1, 2] = 0.3  # the second system's row 2 sums to 1.2
    cols = _cols(["a", "b"], {n: off[:, j] for j, n in enumerate(names)}, off)
    with pytest.raises(InputError, match=r"line 3: the --proba columns of --pred n sum to 1.2"):
        score_columns(two, cols)


def test_proba_columns_named_for_the_classes_are_matched_by_name(capsys):
    numbers = {"b": np.array([0.8, 0.5, 0.0]), "a": np.array([0.2, 0.5, 1.0])}
    cols = _cols(["a", "b"], numbers=numbers, matrix=np.stack(list(numbers.values()), axis=1))
    proba, _ = score_columns(_args(proba=[["b", "a"]]), cols)
    np.testing.assert_array_equal(proba[0], [[0.2, 0.8], [0.5, 0.5], [1.0, 0.0]])
    assert "class a is column 'a', class b is column 'b'" in capsys.readouterr().err


def test_rounded_rows_are_rescaled_and_rows_far_from_1_refused(capsys):
    rounded = np.array([[0.33, 0.67], [0.5, 0.501], [0.1, 0.9]])
    (proba,), _ = score_columns(_args(proba=[["x", "y"]]), _cols(["a", "b"], matrix=rounded.copy()))
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-15)
    np.testing.assert_allclose(proba[1], [0.5 / 1.001, 0.501 / 1.001])
    assert "rows rescaled to sum to 1" in capsys.readouterr().err
    wrong = np.array([[0.2, 0.7], [0.5, 0.5], [0.1, 0.9]])
    with pytest.raises(InputError, match=r"f.csv, line 2: the --proba columns sum to 0.9, not 1"):
        score_columns(_args(proba=[["x", "y"]]), _cols(["a", "b"], matrix=wrong))
