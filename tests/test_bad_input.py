"""Every bad input raises ValueError with a message that names the problem."""

from __future__ import annotations

import inspect
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import clfmetrics as cm

# Every public function that takes a confusion matrix (or a stack of them).
MATRIX_FUNCTIONS = {
    **cm.METRICS,
    **cm.CLASSWISE,
    "from_sklearn": cm.from_sklearn,
    "to_sklearn": cm.to_sklearn,
    "prevalence_calibrate": cm.prevalence_calibrate,
    "prevalence_scale": lambda m: cm.prevalence_scale(m, [1.0, 1.0]),
    "to_labels": cm.to_labels,
}

ZERO_DIVISION_FUNCTIONS = {
    name: f
    for name, f in MATRIX_FUNCTIONS.items()
    if "zero_division" in inspect.signature(f).parameters
}

# (id, bad matrix, regex the message must match)
BAD_MATRICES = [
    ("not_square_2x3", [[1, 2, 3], [4, 5, 6]], r"must be square.*shape \(2, 3\)"),
    ("one_dimensional", [1, 2, 3, 4], r"shape \(n, n\).*1 dimension"),
    ("zero_dimensional", 5, r"shape \(n, n\).*0 dimension"),
    ("one_class_1x1", [[5]], r"at least 2 classes"),
    ("negative_entry", [[1, -1], [2, 3]], r"negative entry -1\.0 at index \(0, 1\)"),
    ("nan_entry", [[1.0, 2.0], [np.nan, 3.0]], r"NaN or infinite entry nan at index \(1, 0\)"),
    ("inf_entry", [[1.0, np.inf], [2.0, 3.0]], r"NaN or infinite entry inf at index \(0, 1\)"),
    ("minus_inf_entry", [[1.0, 2.0], [3.0, -np.inf]], r"NaN or infinite entry -inf"),
    ("total_overflows", [[1e308, 1e308], [0.0, 0.0]], r"too large: its total mass overflows"),
    ("total_zero", [[0, 0], [0, 0]], r"total mass 0: there is nothing to evaluate"),
    (
        "total_zero_in_stack",
        [[[1, 0], [0, 1]], [[0, 0], [0, 0]], [[2, 0], [0, 0]]],
        r"total mass 0 at stack index \(1,\)",
    ),
    ("string_entries", [["a", "b"], ["c", "d"]], r"must hold numbers.*dtype <U1"),
    ("numeric_strings", [["1", "2"], ["3", "4"]], r"must hold numbers"),
    ("object_dtype", np.array([[1, 2], [3, None]], dtype=object), r"must hold numbers.*object"),
    ("boolean_entries", [[True, False], [False, True]], r"must hold numbers.*bool"),
    ("complex_entries", [[1 + 1j, 0], [0, 1]], r"must hold numbers.*complex"),
    ("ragged_lists", [[1, 2], [3]], r"not a rectangular array of numbers"),
    (
        "masked_entry",
        np.ma.array([[5, 100], [2, 7]], mask=[[False, True], [False, False]]),
        r"masked array with masked entries, and the mask would be ignored",
    ),
    ("empty_stack", np.zeros((0, 3, 3)), r"empty stack of shape \(0, 3, 3\): there is no matrix"),
]


@pytest.mark.parametrize("name", list(MATRIX_FUNCTIONS))
@pytest.mark.parametrize(
    ("bad", "message"),
    [pytest.param(bad, msg, id=case_id) for case_id, bad, msg in BAD_MATRICES],
)
def test_bad_matrix_is_rejected_by_every_function(name, bad, message):
    """Each public function checks its matrix and says what is wrong with it."""
    with pytest.raises(ValueError, match=message):
        MATRIX_FUNCTIONS[name](bad)


@pytest.mark.parametrize("func", [cm.from_sklearn])
def test_from_sklearn_names_its_argument_cm(func):
    """from_sklearn calls its argument cm, and says so in the message."""
    with pytest.raises(ValueError, match=r"^cm has a negative entry"):
        func([[1, -1], [0, 1]])


def test_other_functions_name_their_argument_m():
    """The matrix argument of the metrics is called m in the message."""
    with pytest.raises(ValueError, match=r"^m has a negative entry"):
        cm.accuracy([[1, -1], [0, 1]])


# ---------------------------------------------------------------------------
# zero_division
# ---------------------------------------------------------------------------

BAD_ZERO_DIVISION = ["foo", "", 2, -1, 0.5, None, True, False, [0]]


@pytest.mark.parametrize("name", list(ZERO_DIVISION_FUNCTIONS))
@pytest.mark.parametrize("value", BAD_ZERO_DIVISION, ids=repr)
def test_bad_zero_division_is_rejected(name, value):
    """zero_division other than 0, 1, 'nan' (or np.nan) is refused, naming the allowed values."""
    with pytest.raises(ValueError, match=r"zero_division must be 0, 1 or 'nan'.*got"):
        ZERO_DIVISION_FUNCTIONS[name]([[1, 2], [3, 4]], zero_division=value)


@pytest.mark.parametrize("value", [0, 1, 0.0, 1.0, "nan", np.nan, float("nan")], ids=repr)
def test_good_zero_division_values_are_accepted(value):
    """The documented spellings of 0, 1 and NaN are all accepted."""
    assert np.isfinite(cm.macro_f1([[1, 2], [3, 4]], zero_division=value))


def test_zero_division_bool_is_not_taken_for_an_int():
    """True is refused although True == 1 (bool is a subclass of int in Python)."""
    with pytest.raises(ValueError, match=r"got True"):
        cm.precision([[1, 0], [0, 1]], zero_division=True)


# ---------------------------------------------------------------------------
# confusion_matrix from labels
# ---------------------------------------------------------------------------


def test_y_true_label_outside_labels():
    """A true label missing from labels= is named, with the labels."""
    # the label may be shown as 2 or as numpy's repr np.int64(2)
    message = r"y_true contains label \S*2\)?, which is not in labels \[0, 1\]"
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix([0, 1, 2], [0, 1, 1], labels=[0, 1])


def test_y_pred_label_outside_labels():
    """A predicted label missing from labels= is named."""
    message = r"y_pred contains label \S*'c'\)?, which is not in labels \['a', 'b'\]"
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix(["a", "b", "a"], ["a", "c", "b"], labels=["a", "b"])


def test_label_outside_labels_in_object_vectors():
    """The generic (object-dtype) lookup reports a missing label the same way."""
    message = r"y_true contains label None, which is not in labels \[1, 2\]"
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix([1, None], [1, 2], labels=[1, 2])


def test_labels_of_another_type_than_the_vectors():
    """String labels for integer vectors: the integer label is reported as missing."""
    message = r"y_true contains label 0, which is not in labels \['0', '1'\]"
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix([0, 1], [1, 0], labels=["0", "1"])


def test_vectors_of_different_length():
    """y_true and y_pred must pair up one to one."""
    with pytest.raises(ValueError, match=r"differ in length: 3 vs 2"):
        cm.confusion_matrix([0, 1, 1], [0, 1])


def test_empty_label_vectors():
    """Nothing to count is an error, not an all-zero matrix."""
    with pytest.raises(ValueError, match=r"empty: there is nothing to count"):
        cm.confusion_matrix([], [], labels=[0, 1])


def test_repeated_labels():
    """labels= must list each class once."""
    with pytest.raises(ValueError, match=r"labels must not repeat a class"):
        cm.confusion_matrix([0, 1], [1, 0], labels=[0, 1, 0])


def test_only_one_class_found():
    """A single class in both vectors (and no labels=) leaves fewer than 2 classes."""
    with pytest.raises(ValueError, match=r"only 1 class \(\[7\]\) found; pass labels="):
        cm.confusion_matrix([7, 7, 7], [7, 7, 7])


def test_only_one_class_in_labels():
    """labels= with one class is refused too."""
    with pytest.raises(ValueError, match=r"only 1 class"):
        cm.confusion_matrix([0, 0], [0, 0], labels=[0])


def test_label_vectors_must_be_one_dimensional():
    """A 2-d y_true is refused, naming the argument and its shape."""
    message = r"y_true must be a 1-d sequence of labels; got shape \(2, 2\)"
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix([[0, 1], [1, 0]], [0, 1, 1, 0])


def test_masked_array_without_masked_entries_is_an_ordinary_array():
    """Only a mask that hides something is refused; an all-visible masked array is plain data."""
    m = np.ma.array([[5, 100], [2, 7]], mask=False)
    assert cm.accuracy(m) == cm.accuracy([[5, 100], [2, 7]])


# (id, y_true, y_pred, labels, regex the message must match)
BAD_LABEL_VECTORS = [
    (
        "masked_label",
        np.ma.array([0, 1, 1, 0], mask=[False, False, True, False]),
        [0, 1, 0, 0],
        None,
        r"^y_true is a masked array with masked entries",
    ),
    (
        "probabilities",
        [0, 1, 1],
        [0.2, 0.7, 0.9],
        None,
        r"^y_pred holds continuous values \(0\.2 at index 0\).*not scores or probabilities",
    ),
    (
        "continuous_in_object_vector",
        ["a", 0.5, "b"],
        ["a", "b", "b"],
        None,
        r"^y_true holds continuous values \(0\.5 at index 1\)",
    ),
    ("infinite_label", [0, 1, 1], [0.0, np.inf, 1.0], None, r"^y_pred contains an infinite label"),
    (
        "nan_label",
        [0.0, 1.0, np.nan],
        [0.0, 1.0, 1.0],
        [0.0, 1.0, np.nan],
        r"^y_true contains NaN at index 2: a missing label is not a class",
    ),
    (
        "nan_in_labels",
        [0, 1],
        [1, 0],
        [0, 1, np.nan],
        r"^labels contains NaN at index 2",
    ),
    ("nan_in_object_vector", ["a", np.nan], ["a", "b"], None, r"^y_true contains NaN at index 1"),
    ("set", {0, 1}, [0, 1], None, r"^y_true must be an ordered sequence of labels; got a set"),
    ("labels_set", [0, 1], [1, 0], {0, 1}, r"^labels must be an ordered sequence.*got a set"),
    ("string", "abba", "abab", None, r"^y_true must be a sequence of labels, not a string"),
    ("scalar", 1, [1], None, r"^y_true must be a 1-d sequence of labels; got a single int"),
    ("scalar_labels", [0, 1], [1, 0], 1, r"^labels must be a 1-d sequence.*got a single int"),
    ("complex", [0, 1], [0j, 1j], None, r"^y_pred holds complex numbers"),
    (
        "ragged_lists",
        [[1, 2], [3]],
        [[1, 2], [3]],
        None,
        r"^y_true must be a 1-d sequence of labels; it holds nested sequences of different",
    ),
    ("unhashable_labels", [0, 1], [1, 0], [(0,), [1]], r"^labels must be hashable"),
]


@pytest.mark.parametrize(
    ("y_true", "y_pred", "labels", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in BAD_LABEL_VECTORS],
)
def test_bad_label_vector_is_rejected(y_true, y_pred, labels, message):
    """Each bad label vector gets a ValueError that names the argument and the problem."""
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix(y_true, y_pred, labels=labels)


def test_float_labels_with_integer_values_are_classes():
    """0.0 and 1.0 are labels, as scikit-learn's type_of_target allows; they count like 0 and 1."""
    from_floats = cm.confusion_matrix([0.0, 1.0, 1.0], [0.0, 1.0, 0.0])
    np.testing.assert_array_equal(from_floats, cm.confusion_matrix([0, 1, 1], [0, 1, 0]))


def test_tuple_labels_of_unequal_length_are_labels():
    """Tuples of different lengths stay whole labels instead of crashing inside numpy."""
    got = cm.confusion_matrix([(1, 2), (1, 2, 3), (1, 2)], [(1, 2), (1, 2), (1, 2, 3)])
    # classes sort as (1, 2) < (1, 2, 3): rows = predicted, columns = true
    np.testing.assert_array_equal(got, [[1, 1], [1, 0]])


def test_to_labels_refuses_a_stack():
    """to_labels expands one matrix; a stack has no single pair of label vectors."""
    with pytest.raises(ValueError, match=r"expands one matrix \(n, n\); got shape \(2, 2, 2\)"):
        cm.to_labels(np.ones((2, 2, 2)))


def test_to_labels_refuses_fractional_counts():
    """Half an item cannot become a label."""
    with pytest.raises(ValueError, match=r"whole-number counts"):
        cm.to_labels([[1.5, 0], [0, 1]])


def test_to_labels_with_wrong_number_of_names():
    """labels= must name each of the n classes."""
    with pytest.raises(ValueError, match=r"labels must name 2 classes; got 3"):
        cm.to_labels([[1, 0], [0, 1]], labels=["a", "b", "c"])


# ---------------------------------------------------------------------------
# prevalence_scale and prevalence_calibrate
# ---------------------------------------------------------------------------

M = [[15, 5], [10, 10]]


@pytest.mark.parametrize(
    ("lam", "message"),
    [
        pytest.param(
            [1.0, 2.0, 3.0], r"lam must have shape \(\.\.\., 2\).*got \(3,\)", id="too_long"
        ),
        pytest.param([1.0], r"lam must have shape \(\.\.\., 2\).*got \(1,\)", id="too_short"),
        pytest.param(2.0, r"lam must have shape \(\.\.\., 2\).*got \(\)", id="scalar"),
        pytest.param([1.0, 0.0], r"lam must be positive and finite", id="zero"),
        pytest.param([1.0, -2.0], r"lam must be positive and finite", id="negative"),
        pytest.param([np.nan, 1.0], r"lam must be positive and finite", id="nan"),
        pytest.param([1.0, np.inf], r"lam must be positive and finite", id="inf"),
        pytest.param(["a", "b"], r"lam must be numbers, one per class", id="strings"),
    ],
)
def test_prevalence_scale_rejects_bad_lam(lam, message):
    """lam needs one positive finite factor per class."""
    with pytest.raises(ValueError, match=message):
        cm.prevalence_scale(M, lam)


def test_prevalence_scale_lam_that_does_not_broadcast_over_the_stack():
    """Per-matrix factors must broadcast against the stack's leading axes."""
    stack = np.ones((3, 2, 2))
    with pytest.raises(ValueError, match=r"does not broadcast against the stack"):
        cm.prevalence_scale(stack, np.ones((2, 2)))


def test_prevalence_calibrate_with_a_class_that_never_occurs():
    """Calibration divides by each prevalence, so a class of prevalence 0 is refused."""
    with pytest.raises(ValueError, match=r"class 1 never occurs \(prevalence 0\)"):
        cm.prevalence_calibrate([[3, 0], [2, 0]])


def test_prevalence_calibrate_names_the_stack_entry():
    """In a stack the message names the entry with the empty class."""
    stack = [[[1, 1], [1, 1]], [[1, 1], [1, 1]], [[0, 3], [0, 2]]]
    message = r"class 0 never occurs \(prevalence 0\) in stack entry \(2,\)"
    with pytest.raises(ValueError, match=message):
        cm.prevalence_calibrate(stack)


# ---------------------------------------------------------------------------
# Mixed label types, Fraction and Decimal (issue 19, item 1)
# ---------------------------------------------------------------------------

MIXED = r"^mixed label types: y_true holds numbers \(e\.g\. 0\); y_pred holds strings \(e\.g\. '0'"


def test_mixed_label_types_are_refused_as_scikit_learn_refuses_them():
    """[0, 1, 2] against ['0', '1', '2'] was a 6x6 matrix with accuracy 0; now an error."""
    from sklearn.metrics import confusion_matrix as sk_confusion

    with pytest.raises(ValueError, match="Mix of label input types"):
        sk_confusion([0, 1, 2], ["0", "1", "2"])
    with pytest.raises(ValueError, match=MIXED + r".*pass labels="):
        cm.confusion_matrix([0, 1, 2], ["0", "1", "2"])


@pytest.mark.parametrize(
    "call",
    [
        pytest.param(lambda y, p: cm.report(y, p, size=10), id="report"),
        pytest.param(lambda y, p: cm.interval_from_labels("accuracy", y, p, size=10), id="iv"),
        pytest.param(lambda y, p: cm.inference.mcnemar(y, p, p), id="mcnemar"),
    ],
)
def test_mixed_label_types_are_refused_wherever_labels_enter(call):
    """report printed 0.000 everywhere for [0, 1, 1, 0] against ['0', '1', '1', '0']."""
    with pytest.raises(ValueError, match="mixed label types: y_true holds numbers"):
        call([0, 1, 1, 0], ["0", "1", "1", "0"])


def test_compare_names_the_vector_of_another_type():
    message = r"y_true holds numbers.*pred_a holds numbers.*pred_b holds strings \(e\.g\. '0'\)"
    with pytest.raises(ValueError, match=message):
        cm.compare([0, 1, 1, 0], [0, 1, 1, 0], ["0", "1", "1", "0"], size=10)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "message"),
    [
        ([1, "a", 1], [1, "a", "a"], r"y_true holds numbers \(e\.g\. 1\) and strings"),
        (["a", None], ["a", "b"], r"y_true holds strings \(e\.g\. 'a'\) and None"),
        (["a", "b"], [b"a", b"b"], r"y_pred holds bytes \(e\.g\. b'a'\)"),
        ([(0, 1), (1, 0)], [0, 1], r"y_true holds tuples .* y_pred holds numbers"),
    ],
)
def test_every_mix_of_kinds_is_named(y_true, y_pred, message):
    with pytest.raises(ValueError, match=message):
        cm.confusion_matrix(y_true, y_pred)


def test_numbers_of_every_type_are_one_kind():
    """1, 1.0, True and numpy's integers are equal, hence the same class: no error."""
    got = cm.confusion_matrix([np.int64(0), 1.0, True], [False, 1, np.uint8(1)])
    np.testing.assert_array_equal(got, [[1, 0], [0, 2]])


def test_given_labels_decide_for_mixed_types():
    """With labels=, nothing is converted: every label must be one of the classes."""
    with pytest.raises(ValueError, match=r"y_pred contains label '0', which is not in labels"):
        cm.confusion_matrix([0, 1, 2], ["0", "1", "2"], labels=[0, 1, 2])
    both = cm.confusion_matrix([0, 1], ["0", "1"], labels=[0, 1, "0", "1"])
    assert both.shape == (4, 4) and both[2, 0] == both[3, 1] == 1


@pytest.mark.parametrize(
    ("value", "kind"),
    [(Fraction(1, 2), "Fraction"), (Fraction(1), "Fraction"), (Decimal("2"), "Decimal")],
)
@pytest.mark.parametrize("where", ["y_true", "labels"])
def test_fraction_and_decimal_labels_are_refused(value, kind, where):
    """scikit-learn refuses them ('unknown' target type); so does the library, with a reason."""
    from sklearn.metrics import confusion_matrix as sk_confusion

    with pytest.raises(ValueError, match="unknown is not supported"):
        sk_confusion([value, 7], [value, 7])
    y, labels = ([value, 7], None) if where == "y_true" else ([7, 7], [value, 7])
    message = "^" + re.escape(f"{where} holds a {kind} label ({value!r} at index 0)")
    with pytest.raises(ValueError, match=message + ".*convert them to int or str"):
        cm.confusion_matrix(y, [7, 7], labels=labels)
