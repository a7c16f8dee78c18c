"""Property tests (hypothesis) for identities that hold for every confusion matrix.

Matrices are non-negative integer counts of shape (n, n), n = 2..6, with
positive total; ``m[i, j]`` = predicted ``i``, true ``j``.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import clfmetrics as cm

# hypothesis's default 100 examples per property (50 where the body calls every public
# function); each run draws new ones (no database, no fixed seed), so the search deepens
# run after run. Raise both for a deeper search in one run.
SETTINGS = settings(max_examples=100, deadline=None, database=None)
HEAVY = settings(SETTINGS, max_examples=50)

CLASSWISE = cm.CLASSWISE
RATIO_CLASSWISE = ("precision", "recall", "f1")  # dimensionless, unlike bias/prevalence/correct
ALL_FUNCTIONS = {**cm.METRICS, **CLASSWISE}


TAKES_ZERO_DIVISION = {
    f for f in ALL_FUNCTIONS.values() if "zero_division" in inspect.signature(f).parameters
}


def _kwargs(func, zd) -> dict:
    """{'zero_division': zd} for functions that take it, else {}."""
    return {"zero_division": zd} if func in TAKES_ZERO_DIVISION else {}


def _close(a, b, *, rel=1e-9, abs_=1e-12) -> bool:
    """Same shape and equal within tolerance, NaN matching NaN."""
    return np.allclose(a, b, rtol=rel, atol=abs_, equal_nan=True) and np.shape(a) == np.shape(b)


def count_matrix(n: int, max_count: int = 1000):
    """Non-negative integer (n, n) matrices with positive total mass; zero fill makes them
    often sparse, with empty rows (never predicted) and columns (never occurring)."""
    return arrays(np.int64, (n, n), elements=st.integers(0, max_count), fill=st.just(0)).filter(
        lambda m: m.sum() > 0
    )


@st.composite
def matrices(draw, min_n: int = 2, max_n: int = 6, max_count: int = 1000):
    """A count matrix with a drawn number of classes."""
    n = draw(st.integers(min_n, max_n))
    return draw(count_matrix(n, max_count))


@st.composite
def matrices_every_class_occurs(draw):
    """A count matrix whose every column (true class) has positive mass."""
    n = draw(st.integers(2, 6))
    m = draw(count_matrix(n))
    rows = draw(arrays(np.int64, n, elements=st.integers(0, n - 1)))
    m[rows, np.arange(n)] += 1  # one more item of each true class, predicted as rows[j]
    return m


@st.composite
def stacks(draw):
    """A stack of shape (k, n, n) or (k1, k2, n, n), every matrix with positive total."""
    n = draw(st.integers(2, 4))
    lead = draw(st.sampled_from([(1,), (3,), (2, 2)]))
    return draw(
        arrays(np.int64, (*lead, n, n), elements=st.integers(0, 50), fill=st.just(0)).filter(
            lambda s: (s.sum(axis=(-2, -1)) > 0).all()
        )
    )


ZERO_DIVISIONS = st.sampled_from([0, 1, "nan"])


@SETTINGS
@given(matrices())
def test_micro_averages_all_equal_accuracy(m):
    """micro P = micro R = micro F1 = accuracy, since total bias = total prevalence = |S|."""
    expected = np.trace(m) / m.sum()
    for func in (cm.accuracy, cm.micro_precision, cm.micro_recall, cm.micro_f1):
        assert func(m) == pytest.approx(expected, rel=1e-12, abs=1e-15)


@SETTINGS
@given(matrices(), ZERO_DIVISIONS)
def test_delta_f1_is_the_nonnegative_gap_between_the_two_f1s(m, zd):
    """delta_f1 (closed form of the lemma) >= 0 and equals f1_of_averages - macro_f1."""
    delta = cm.delta_f1(m, zero_division=zd)
    gap = cm.f1_of_averages(m, zero_division=zd) - cm.macro_f1(m, zero_division=zd)
    if zd == "nan" and np.isnan(gap):
        assert np.isnan(delta)
        return
    assert delta >= 0.0
    assert delta == pytest.approx(gap, abs=1e-9)


@SETTINGS
@given(matrices(max_count=100_000))
def test_delta_f1_is_below_one_half(m):
    """delta_f1 <= 1/2, and <= 1/2 - 1/(2 n^2) when the number of classes n is odd."""
    n = m.shape[0]
    bound = 0.5 if n % 2 == 0 else 0.5 - 1.0 / (2 * n * n)
    assert cm.delta_f1(m) <= bound + 1e-12


def test_delta_f1_approaches_one_half_for_two_classes():
    """The bound 1/2 is tight: P = (1, e), R = (e, 1) drives the gap towards 1/2."""
    big = 10**9
    assert cm.delta_f1([[1, big], [0, 1]]) > 0.4999


@HEAVY
@given(stacks(), ZERO_DIVISIONS)
def test_stack_result_equals_per_matrix_results(stack, zd):
    """Every metric and class-wise function on a stack equals the loop over its matrices."""
    lead = stack.shape[:-2]
    for name, func in ALL_FUNCTIONS.items():
        kwargs = _kwargs(func, zd)
        result = func(stack, **kwargs)
        expected_shape = lead if name in cm.METRICS else stack.shape[:-1]
        assert isinstance(result, np.ndarray) and result.shape == expected_shape, name
        looped = np.array([func(stack[idx], **kwargs) for idx in np.ndindex(*lead)])
        assert _close(result, looped.reshape(result.shape), rel=1e-12), name


@HEAVY
@given(stacks())
def test_stack_conversions_and_calibration_equal_per_matrix(stack):
    """to_sklearn, from_sklearn and prevalence_calibrate act matrix by matrix on a stack."""
    for func in (cm.to_sklearn, cm.from_sklearn):
        out = func(stack)
        for idx in np.ndindex(*stack.shape[:-2]):
            np.testing.assert_array_equal(out[idx], func(stack[idx]))
    if (stack.sum(axis=-2) > 0).all():
        out = cm.prevalence_calibrate(stack)
        for idx in np.ndindex(*stack.shape[:-2]):
            np.testing.assert_allclose(out[idx], cm.prevalence_calibrate(stack[idx]), rtol=1e-12)


@HEAVY
@given(matrices(), st.sampled_from([0.001, 0.5, 3.0, 7.25, 1e6]), ZERO_DIVISIONS)
def test_results_are_invariant_to_scaling_the_matrix(m, c, zd):
    """Multiplying every count by c > 0 changes no metric and no class-wise ratio."""
    scaled = m * c
    for name, func in {**cm.METRICS, **{k: CLASSWISE[k] for k in RATIO_CLASSWISE}}.items():
        kwargs = _kwargs(func, zd)
        assert _close(func(scaled, **kwargs), func(m, **kwargs), rel=1e-9, abs_=1e-12), name
    for name in ("bias", "prevalence", "correct"):
        np.testing.assert_allclose(CLASSWISE[name](scaled), c * CLASSWISE[name](m), rtol=1e-12)


@HEAVY
@given(st.data(), ZERO_DIVISIONS)
def test_permuting_classes_permutes_classwise_results_and_keeps_metrics(data, zd):
    """Relabelling classes (same permutation on rows and columns) only reorders per-class values."""
    m = data.draw(matrices())
    perm = np.array(data.draw(st.permutations(range(m.shape[0]))))
    permuted = m[np.ix_(perm, perm)]
    for name, func in CLASSWISE.items():
        kwargs = _kwargs(func, zd)
        assert _close(func(permuted, **kwargs), func(m, **kwargs)[perm], rel=1e-15), name
    for name, func in cm.METRICS.items():
        kwargs = _kwargs(func, zd)
        assert _close(func(permuted, **kwargs), func(m, **kwargs), rel=1e-9, abs_=1e-12), name


@SETTINGS
@given(matrices())
def test_mcc_and_kappa_have_the_same_sign_and_mcc_is_larger(m):
    """Same numerator; kappa's denominator s^2 - p.b >= sqrt((s^2 - p.p)(s^2 - b.b)) by AM-GM."""
    k, r = cm.kappa(m), cm.mcc(m)
    assert np.sign(k) == np.sign(r)
    assert abs(r) >= abs(k) - 1e-12
    assert -1.0 - 1e-12 <= r <= 1.0 + 1e-12
    assert k <= 1.0 + 1e-12


@SETTINGS
@given(st.data())
def test_macro_recall_is_invariant_to_prevalence_scaling(data):
    """Scaling the true classes (columns) by lam > 0 leaves every recall, hence macro_recall."""
    m = data.draw(matrices())
    lam = data.draw(
        arrays(np.float64, m.shape[0], elements=st.floats(0.01, 100.0, allow_nan=False))
    )
    scaled = cm.prevalence_scale(m, lam)
    np.testing.assert_allclose(scaled, m * lam[None, :], rtol=1e-15)
    assert cm.macro_recall(scaled) == pytest.approx(cm.macro_recall(m), rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(cm.recall(scaled), cm.recall(m), rtol=1e-9, atol=1e-12)


@SETTINGS
@given(matrices_every_class_occurs())
def test_prevalence_calibration_identities(m):
    """After calibration: accuracy = macR(m), weighted F1 = macro F1, kappa = (macR-1/n)/(1-1/n)."""
    n = m.shape[0]
    cal = cm.prevalence_calibrate(m)
    mac_r = cm.macro_recall(m)
    np.testing.assert_allclose(cm.prevalence(cal), np.full(n, m.sum() / n), rtol=1e-12)
    assert cal.sum() == pytest.approx(m.sum(), rel=1e-12)
    assert cm.accuracy(cal) == pytest.approx(mac_r, rel=1e-9, abs=1e-12)
    assert cm.weighted_f1(cal) == pytest.approx(cm.macro_f1(cal), rel=1e-9, abs=1e-12)
    assert cm.kappa(cal) == pytest.approx((mac_r - 1 / n) / (1 - 1 / n), rel=1e-9, abs=1e-12)
    assert cm.macro_recall(cal) == pytest.approx(mac_r, rel=1e-9, abs=1e-12)


def _every_call(m):
    """(name, thunk) for every public function applied to m."""
    n = m.shape[-1]
    calls = [(name, lambda f=f: f(m)) for name, f in ALL_FUNCTIONS.items()]
    calls += [
        (name, lambda f=f: f(m, zero_division="nan"))
        for name, f in ALL_FUNCTIONS.items()
        if f in TAKES_ZERO_DIVISION
    ]
    calls += [
        ("to_sklearn", lambda: cm.to_sklearn(m)),
        ("from_sklearn", lambda: cm.from_sklearn(m)),
        ("prevalence_scale", lambda: cm.prevalence_scale(m, np.arange(1.0, n + 1))),
        ("to_labels", lambda: cm.to_labels(m)),
    ]
    if (m.sum(axis=-2) > 0).all():
        calls.append(("prevalence_calibrate", lambda: cm.prevalence_calibrate(m)))
    return calls


@HEAVY
@given(matrices(), st.sampled_from([np.int64, np.float64]))
def test_inputs_are_never_modified(m, dtype):
    """No function writes into its input, and no returned array is a view of it."""
    m = m.astype(dtype)
    original = m.copy()
    for name, call in _every_call(m):
        out = call()
        np.testing.assert_array_equal(m, original, err_msg=name)
        for array in out if isinstance(out, tuple) else (out,):
            if isinstance(array, np.ndarray):
                assert not np.shares_memory(array, m), name


@SETTINGS
@given(matrices(max_count=30))
def test_to_labels_and_confusion_matrix_are_inverse(m):
    """confusion_matrix(*to_labels(m), labels=range(n)) gives back m, count for count."""
    n = m.shape[0]
    y_true, y_pred = cm.to_labels(m)
    np.testing.assert_array_equal(cm.confusion_matrix(y_true, y_pred, labels=range(n)), m)


@SETTINGS
@given(matrices(), ZERO_DIVISIONS)
def test_harmonic_and_geometric_macro_recall_are_below_macro_recall(m, zd):
    """HM <= GM <= AM of the class-wise recalls."""
    am = cm.macro_recall(m, zero_division=zd)
    gm = cm.geometric_macro_recall(m, zero_division=zd)
    hm = cm.harmonic_macro_recall(m, zero_division=zd)
    if np.isnan(am):
        assert np.isnan(gm) and np.isnan(hm)
        return
    assert gm <= am + 1e-12
    assert hm <= gm + 1e-12
    assert hm >= 0.0


@SETTINGS
@given(matrices(max_count=5))
def test_nan_f1_exactly_where_precision_or_recall_is_nan(m):
    """Under zero_division='nan', F1_i is NaN iff P_i or R_i is; elsewhere it is the usual F1."""
    p = cm.precision(m, zero_division="nan")
    r = cm.recall(m, zero_division="nan")
    f = cm.f1(m, zero_division="nan")
    undefined = np.isnan(p) | np.isnan(r)
    np.testing.assert_array_equal(np.isnan(f), undefined)
    np.testing.assert_array_equal(np.isnan(p), m.sum(axis=1) == 0)
    np.testing.assert_array_equal(np.isnan(r), m.sum(axis=0) == 0)
    np.testing.assert_allclose(f[~undefined], cm.f1(m)[~undefined], rtol=1e-15)
