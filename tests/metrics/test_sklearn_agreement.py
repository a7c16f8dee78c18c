"""scikit-learn as an independent oracle for clfmetrics.

About 2000 seeded random cases (n = 2..8 classes): dense, sparse, skewed and
degenerate count matrices, matrices with a never-predicted, a never-occurring
or an entirely absent class, and random label vectors of length 300 and
longer. scikit-learn sees label vectors; clfmetrics sees, vectorised over one
stack per class count, both the matrix counted independently in this file and
the matrix built by ``clfmetrics.confusion_matrix(y_true, y_pred, labels=range(n))``.

scikit-learn's confusion matrix has rows = true labels, the transpose of ours.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

import clfmetrics as cm

N_CASES = 2000
KINDS = (
    "dense",
    "sparse",
    "never_predicted",
    "never_occurring",
    "absent_class",
    "skewed",
    "degenerate",
    "labels_300",
    "labels_long",
)
RTOL = 1e-10
ATOL = 1e-12

# scikit-learn is slow per call, so each comparison uses its own slice of the cases.
# The contiguous slices partition all N_CASES, kappa and MCC sample across all of them,
# and every slice holds every kind of case (round robin over KINDS).
SLICES = {
    "confusion": slice(0, 200),
    "classwise": slice(200, 380),
    "named_scorers": slice(380, 425),
    "zero_division_1": slice(425, 535),
    "zero_division_nan": slice(535, 645),
    "macro": slice(645, 755),
    "f1_score_macro": slice(755, 855),
    "macro_zero_division_1": slice(855, 925),
    "balanced_accuracy": slice(925, 1045),
    "weighted": slice(1045, 1145),
    "micro": slice(1145, 1245),
    "accuracy": slice(1245, 2000),
    "kappa": slice(0, 2000, 16),
    "mcc": slice(8, 2000, 16),
}


@dataclass(frozen=True)
class Case:
    """One random test case: labels for scikit-learn, matrices for clfmetrics."""

    kind: str
    n: int
    y_true: np.ndarray
    y_pred: np.ndarray
    m: np.ndarray  # counted in this file: m[i, j] = #(pred i, true j)
    m_lib: np.ndarray  # clfmetrics.confusion_matrix(y_true, y_pred, labels=range(n))


def _random_matrix(rng: np.random.Generator, kind: str, n: int) -> np.ndarray:
    """A count matrix of the given kind with positive total mass."""
    while True:
        if kind == "dense":
            m = rng.integers(0, 40, size=(n, n))
        elif kind == "sparse":
            m = rng.integers(1, 25, size=(n, n)) * (rng.random((n, n)) < 0.25)
        elif kind == "never_predicted":
            m = rng.integers(0, 30, size=(n, n))
            m[rng.choice(n, size=rng.integers(1, n), replace=False), :] = 0
        elif kind == "never_occurring":
            m = rng.integers(0, 30, size=(n, n))
            m[:, rng.choice(n, size=rng.integers(1, n), replace=False)] = 0
        elif kind == "absent_class":
            m = rng.integers(0, 30, size=(n, n))
            k = rng.integers(n)
            m[k, :] = 0
            m[:, k] = 0
        elif kind == "skewed":
            cells = rng.dirichlet(np.full(n * n, 0.2))
            m = rng.multinomial(int(rng.integers(20, 400)), cells).reshape(n, n)
        elif kind == "degenerate":
            m = np.zeros((n, n), dtype=np.int64)
            i, j = rng.integers(n, size=2)
            shape = rng.integers(4)
            if shape == 0:  # all mass in one cell (on or off the diagonal)
                m[i, j] = rng.integers(1, 50)
            elif shape == 1:  # a constant classifier: one non-zero row
                m[i, :] = rng.integers(0, 20, size=n)
            elif shape == 2:  # a reference with one class only: one non-zero column
                m[:, j] = rng.integers(0, 20, size=n)
            else:  # perfect classifier, diagonal only
                m[np.diag_indices(n)] = rng.integers(0, 20, size=n)
        else:
            raise AssertionError(kind)
        if m.sum() > 0:
            return m.astype(np.int64)


def _labels_from_matrix(rng: np.random.Generator, m: np.ndarray):
    """Label vectors realising m: m[i, j] pairs (pred i, true j), shuffled."""
    n = m.shape[0]
    pred_idx, true_idx = np.divmod(np.arange(n * n), n)
    counts = m.ravel()
    order = rng.permutation(int(counts.sum()))
    return np.repeat(true_idx, counts)[order], np.repeat(pred_idx, counts)[order]


def _random_labels(rng: np.random.Generator, n: int, size: int):
    """Skewed random true labels and a noisy classifier that copies them with some probability."""
    class_probs = rng.dirichlet(np.full(n, rng.choice([0.3, 1.0, 5.0])))
    y_true = rng.choice(n, size=size, p=class_probs)
    guess = rng.choice(n, size=size, p=rng.dirichlet(np.ones(n)))
    y_pred = np.where(rng.random(size) < rng.random(), y_true, guess)
    return y_true, y_pred


def _count(y_true: np.ndarray, y_pred: np.ndarray, n: int) -> np.ndarray:
    """Count pairs with np.add.at, independently of clfmetrics."""
    m = np.zeros((n, n), dtype=np.int64)
    np.add.at(m, (y_pred, y_true), 1)
    return m


def _make_cases() -> list[Case]:
    rng = np.random.default_rng(987_654_321)
    cases = []
    for k in range(N_CASES):
        kind = KINDS[k % len(KINDS)]  # round robin: every slice mixes every kind
        n = int(rng.integers(2, 9))
        if kind == "labels_300":
            y_true, y_pred = _random_labels(rng, n, 300)
            m = _count(y_true, y_pred, n)
        elif kind == "labels_long":
            y_true, y_pred = _random_labels(rng, n, int(rng.integers(1000, 3000)))
            m = _count(y_true, y_pred, n)
        else:
            m = _random_matrix(rng, kind, n)
            y_true, y_pred = _labels_from_matrix(rng, m)
        m_lib = cm.confusion_matrix(y_true, y_pred, labels=range(n))
        cases.append(Case(kind, n, y_true, y_pred, m, m_lib))
    return cases


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    """The module's 2000 random cases, in round-robin order of KINDS."""
    return _make_cases()


@pytest.fixture(scope="module")
def confusion_cases(cases) -> list[Case]:
    """The slice on which the matrices themselves are compared."""
    return cases[SLICES["confusion"]]


@pytest.fixture(scope="module")
def sk_confusion(confusion_cases) -> list[np.ndarray]:
    """scikit-learn's confusion matrices (rows = true) for that slice."""
    return [skm.confusion_matrix(c.y_true, c.y_pred, labels=range(c.n)) for c in confusion_cases]


def _library(func, subset: list[Case], attr: str, **kwargs) -> list:
    """Run func once per class count n on the stack of that n's matrices; results in case order."""
    out: list = [None] * len(subset)
    for n in sorted({c.n for c in subset}):
        idx = [k for k, c in enumerate(subset) if c.n == n]
        result = func(np.stack([getattr(subset[k], attr) for k in idx]), **kwargs)
        assert isinstance(result, np.ndarray) and result.shape[0] == len(idx)
        for pos, k in enumerate(idx):
            out[k] = result[pos]
    return out


def _assert_agree(func, subset, expected, what, *, equal_nan=False, **kwargs):
    """clfmetrics on both matrices of every case must match scikit-learn's values."""
    assert {c.kind for c in subset} == set(KINDS), "a slice must contain every kind of case"
    for attr in ("m", "m_lib"):
        got = _library(func, subset, attr, **kwargs)
        bad = [
            k
            for k, (g, e) in enumerate(zip(got, expected, strict=True))
            if np.shape(g) != np.shape(e) or not np.allclose(g, e, RTOL, ATOL, equal_nan=equal_nan)
        ]
        if bad:
            c = subset[bad[0]]
            pytest.fail(
                f"{what} ({attr}): {len(bad)} of {len(subset)} cases disagree; first: "
                f"kind={c.kind}, m={c.m.tolist()}, clfmetrics={got[bad[0]]}, "
                f"sklearn={expected[bad[0]]}"
            )


@pytest.fixture(scope="module")
def nan_cases(cases) -> list[Case]:
    """The slice compared under zero_division='nan'."""
    return cases[SLICES["zero_division_nan"]]


@pytest.fixture(scope="module")
def sk_prfs_nan(nan_cases) -> list:
    """sklearn's per-class (P, R, F, support) with zero_division=np.nan on that slice."""
    return _prfs(nan_cases, None, np.nan)


def _prfs(subset, average, zero_division):
    """scikit-learn's precision_recall_fscore_support over every class in range(n)."""
    return [
        skm.precision_recall_fscore_support(
            c.y_true, c.y_pred, labels=range(c.n), average=average, zero_division=zero_division
        )
        for c in subset
    ]


# ---------------------------------------------------------------------------
# building and converting matrices
# ---------------------------------------------------------------------------


def test_confusion_matrix_counts_pairs_like_np_add_at(cases):
    """confusion_matrix(y_true, y_pred, labels=range(n)) puts #(pred i, true j) in m[i, j]."""
    for c in cases:
        assert c.m_lib.dtype == np.int64
        np.testing.assert_array_equal(c.m_lib, c.m, err_msg=f"kind={c.kind}")


def test_confusion_matrix_is_sklearn_transposed(confusion_cases, sk_confusion):
    """Our matrix (rows = predicted) is the transpose of sklearn's (rows = true)."""
    for c, sk in zip(confusion_cases, sk_confusion, strict=True):
        np.testing.assert_array_equal(c.m_lib, sk.T, err_msg=f"kind={c.kind}")


def test_confusion_matrix_with_labels_in_any_order(confusion_cases):
    """labels= in a shuffled order orders rows and columns the same way in both libraries."""
    rng = np.random.default_rng(4321)
    for c in confusion_cases[60:120]:
        order = rng.permutation(c.n)
        ours = cm.confusion_matrix(c.y_true, c.y_pred, labels=order)
        np.testing.assert_array_equal(ours, c.m[np.ix_(order, order)])
        sk = skm.confusion_matrix(c.y_true, c.y_pred, labels=order)
        np.testing.assert_array_equal(ours, sk.T)


def test_confusion_matrix_default_labels_match_sklearn(confusion_cases):
    """Without labels=, both libraries use the sorted union of the labels that occur."""
    for c in confusion_cases[:60]:
        present = np.union1d(c.y_true, c.y_pred)
        if len(present) < 2:
            continue
        ours = cm.confusion_matrix(c.y_true, c.y_pred)
        np.testing.assert_array_equal(ours, skm.confusion_matrix(c.y_true, c.y_pred).T)
        np.testing.assert_array_equal(ours, c.m[np.ix_(present, present)])


def test_from_sklearn_and_to_sklearn_round_trip(confusion_cases, sk_confusion):
    """from_sklearn(sklearn's matrix) is ours, to_sklearn(ours) is sklearn's, both ways round."""
    for c, sk in zip(confusion_cases, sk_confusion, strict=True):
        np.testing.assert_array_equal(cm.from_sklearn(sk), c.m)
        np.testing.assert_array_equal(cm.to_sklearn(c.m), sk)
        np.testing.assert_array_equal(cm.to_sklearn(cm.from_sklearn(sk)), sk)
        np.testing.assert_array_equal(cm.from_sklearn(cm.to_sklearn(c.m)), c.m)


def test_to_labels_gives_vectors_that_sklearn_counts_back(confusion_cases):
    """sklearn's confusion_matrix of to_labels(m) is m transposed, also with string class names."""
    for c in confusion_cases[120:180]:
        y_true, y_pred = cm.to_labels(c.m)
        assert len(y_true) == len(y_pred) == c.m.sum()
        sk = skm.confusion_matrix(y_true, y_pred, labels=range(c.n))
        np.testing.assert_array_equal(sk, c.m.T)
        names = [f"class {k}" for k in range(c.n)]
        y_true, y_pred = cm.to_labels(c.m, labels=names)
        np.testing.assert_array_equal(cm.confusion_matrix(y_true, y_pred, labels=names), c.m)


def test_from_sklearn_and_to_sklearn_on_stacks(cases):
    """On a stack both converters transpose every matrix and invert each other."""
    for n in range(2, 9):
        stack = np.stack([c.m for c in cases if c.n == n])
        np.testing.assert_array_equal(cm.to_sklearn(stack), np.transpose(stack, (0, 2, 1)))
        np.testing.assert_array_equal(cm.from_sklearn(stack), np.transpose(stack, (0, 2, 1)))
        np.testing.assert_array_equal(cm.from_sklearn(cm.to_sklearn(stack)), stack)


# ---------------------------------------------------------------------------
# accuracy and class-wise precision, recall, F1
# ---------------------------------------------------------------------------


def test_accuracy_matches_accuracy_score(cases):
    """accuracy equals sklearn's accuracy_score."""
    subset = cases[SLICES["accuracy"]]
    expected = [skm.accuracy_score(c.y_true, c.y_pred) for c in subset]
    _assert_agree(cm.accuracy, subset, expected, "accuracy")


def test_classwise_precision_recall_f1_match_sklearn(cases):
    """With zero_division=0, per-class P, R and F1 (= 2TP/(2TP+FP+FN)) match sklearn's."""
    subset = cases[SLICES["classwise"]]
    prfs = _prfs(subset, None, 0)
    _assert_agree(cm.precision, subset, [p for p, _, _, _ in prfs], "precision")
    _assert_agree(cm.recall, subset, [r for _, r, _, _ in prfs], "recall")
    _assert_agree(cm.f1, subset, [f for _, _, f, _ in prfs], "f1")


def test_classwise_scores_match_precision_score_recall_score_f1_score(cases):
    """The named per-class scorers precision_score, recall_score, f1_score agree too."""
    subset = cases[SLICES["named_scorers"]]
    for ours, theirs in (
        (cm.precision, skm.precision_score),
        (cm.recall, skm.recall_score),
        (cm.f1, skm.f1_score),
    ):
        expected = [
            theirs(c.y_true, c.y_pred, labels=range(c.n), average=None, zero_division=0)
            for c in subset
        ]
        _assert_agree(ours, subset, expected, ours.__name__)


def test_classwise_zero_division_1_matches_sklearn(cases):
    """zero_division=1: P, R agree; F1 too, as H(0, 1) = 0 = 2TP/(2TP+FP+FN) at TP = 0."""
    subset = cases[SLICES["zero_division_1"]]
    prfs = _prfs(subset, None, 1.0)
    _assert_agree(cm.precision, subset, [p for p, _, _, _ in prfs], "precision", zero_division=1)
    _assert_agree(cm.recall, subset, [r for _, r, _, _ in prfs], "recall", zero_division=1)
    _assert_agree(cm.f1, subset, [f for _, _, f, _ in prfs], "f1", zero_division=1)


def test_classwise_zero_division_nan_matches_sklearn(nan_cases, sk_prfs_nan):
    """zero_division='nan' gives NaN precision/recall exactly where sklearn's np.nan does."""
    subset, prfs = nan_cases, sk_prfs_nan
    expected_p = [p for p, _, _, _ in prfs]
    expected_r = [r for _, r, _, _ in prfs]
    assert any(np.isnan(p).any() for p in expected_p), "the slice must contain undefined ratios"
    _assert_agree(
        cm.precision, subset, expected_p, "precision", equal_nan=True, zero_division="nan"
    )
    _assert_agree(cm.recall, subset, expected_r, "recall", equal_nan=True, zero_division=np.nan)


def test_classwise_f1_zero_division_nan_versus_sklearn(nan_cases, sk_prfs_nan):
    """F1 under 'nan': equal to sklearn where P and R are defined or the class is absent;
    NaN (ours) versus 0 (sklearn's 2TP/(2TP+FP+FN)) where exactly one of them is undefined."""
    subset, prfs = nan_cases, sk_prfs_nan
    ours = _library(cm.f1, subset, "m", zero_division="nan")
    seen_one_sided = False
    for c, f_ours, (_, _, f_sk, _) in zip(subset, ours, prfs, strict=True):
        predicted = c.m.sum(axis=1) > 0
        occurs = c.m.sum(axis=0) > 0
        agree = predicted == occurs  # both defined, or class entirely absent (both NaN)
        np.testing.assert_allclose(f_ours[agree], f_sk[agree], RTOL, ATOL, equal_nan=True)
        one_sided = ~agree
        seen_one_sided |= bool(one_sided.any())
        assert np.isnan(f_ours[one_sided]).all()
        np.testing.assert_array_equal(f_sk[one_sided], 0.0)
    assert seen_one_sided, "the slice must contain a class that is predicted xor occurs"


# ---------------------------------------------------------------------------
# averages
# ---------------------------------------------------------------------------


def test_macro_precision_recall_f1_match_sklearn_macro(cases):
    """macro_precision / macro_recall / macro_f1 equal sklearn's average='macro' (zero_div. 0)."""
    subset = cases[SLICES["macro"]]
    prfs = _prfs(subset, "macro", 0)
    _assert_agree(cm.macro_precision, subset, [p for p, _, _, _ in prfs], "macro_precision")
    _assert_agree(cm.macro_recall, subset, [r for _, r, _, _ in prfs], "macro_recall")
    _assert_agree(cm.macro_f1, subset, [f for _, _, f, _ in prfs], "macro_f1")


def test_macro_f1_matches_f1_score_macro(cases):
    """macro_f1 is the mean of class-wise F1: sklearn's f1_score(average='macro')."""
    subset = cases[SLICES["f1_score_macro"]]
    expected = [
        skm.f1_score(c.y_true, c.y_pred, labels=range(c.n), average="macro", zero_division=0)
        for c in subset
    ]
    _assert_agree(cm.macro_f1, subset, expected, "macro_f1")


def test_macro_averages_zero_division_1_match_sklearn(cases):
    """With zero_division=1 (no NaN to skip), the macro means still agree with sklearn's."""
    subset = cases[SLICES["macro_zero_division_1"]]
    prfs = _prfs(subset, "macro", 1.0)
    kw = {"zero_division": 1}
    _assert_agree(cm.macro_precision, subset, [p for p, *_ in prfs], "macro_precision", **kw)
    _assert_agree(cm.macro_recall, subset, [r for _, r, *_ in prfs], "macro_recall", **kw)
    _assert_agree(cm.macro_f1, subset, [f for _, _, f, _ in prfs], "macro_f1", **kw)


def test_macro_recall_is_balanced_accuracy_when_every_class_occurs(cases):
    """macro_recall equals balanced_accuracy_score whenever every class occurs in y_true."""
    subset = [c for c in cases[SLICES["balanced_accuracy"]] if (c.m.sum(axis=0) > 0).all()]
    assert len(subset) > 50
    expected = [skm.balanced_accuracy_score(c.y_true, c.y_pred) for c in subset]
    for attr in ("m", "m_lib"):
        got = _library(cm.macro_recall, subset, attr)
        np.testing.assert_allclose(got, expected, RTOL, ATOL)


def test_balanced_accuracy_drops_a_class_that_never_occurs():
    """Chapter 3's caveat: with a class absent from y_true the two differ.

    scikit-learn averages the recalls of the classes that occur (and warns);
    macro_recall averages over all n classes, the absent one at zero_division.
    """
    y_true, y_pred = [0, 0, 1, 1], [0, 2, 1, 1]  # class 2 is predicted but never occurs
    m = cm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2])
    with pytest.warns(UserWarning, match="not in y_true"):
        sk = skm.balanced_accuracy_score(y_true, y_pred)
    assert sk == pytest.approx((1 / 2 + 1) / 2)
    assert cm.macro_recall(m) == pytest.approx((1 / 2 + 1 + 0) / 3)
    assert cm.macro_recall(m, zero_division=1) == pytest.approx((1 / 2 + 1 + 1) / 3)


def test_weighted_f1_matches_f1_score_weighted(cases):
    """weighted_f1 weights class-wise F1 by prevalence, as f1_score(average='weighted')."""
    subset = cases[SLICES["weighted"]]
    expected = [
        skm.f1_score(c.y_true, c.y_pred, labels=range(c.n), average="weighted", zero_division=0)
        for c in subset
    ]
    _assert_agree(cm.weighted_f1, subset, expected, "weighted_f1")


def test_weighted_f1_zero_division_1_and_nan_versus_sklearn(cases):
    """zero_division=1 agrees everywhere. Under 'nan' a class that never occurs (weight 0)
    drops out, so the two agree whenever every occurring class is predicted; otherwise the
    occurring, never-predicted class has F1 NaN here (undefined precision), 0 in sklearn."""
    subset = cases[SLICES["weighted"]]
    expected_1 = [
        skm.f1_score(c.y_true, c.y_pred, labels=range(c.n), average="weighted", zero_division=1)
        for c in subset
    ]
    _assert_agree(cm.weighted_f1, subset, expected_1, "weighted_f1", zero_division=1)
    expected_nan = [
        skm.f1_score(
            c.y_true, c.y_pred, labels=range(c.n), average="weighted", zero_division=np.nan
        )
        for c in subset
    ]
    ours = _library(cm.weighted_f1, subset, "m", zero_division="nan")
    weight_zero_predicted = 0
    for c, got, theirs in zip(subset, ours, expected_nan, strict=True):
        occurs, predicted = c.m.sum(axis=0) > 0, c.m.sum(axis=1) > 0
        if (predicted[occurs]).all():
            assert got == pytest.approx(theirs, rel=RTOL, abs=ATOL), c.m.tolist()
            weight_zero_predicted += bool((predicted & ~occurs).any())
        else:
            assert np.isnan(got) and np.isfinite(theirs), c.m.tolist()
    assert weight_zero_predicted, "the slice must predict a class that never occurs"


def test_micro_averages_match_sklearn_micro(cases):
    """micro_precision / micro_recall / micro_f1 equal sklearn's average='micro' over all labels."""
    subset = cases[SLICES["micro"]]
    prfs = _prfs(subset, "micro", 0)
    _assert_agree(cm.micro_precision, subset, [p for p, *_ in prfs], "micro_precision")
    _assert_agree(cm.micro_recall, subset, [r for _, r, *_ in prfs], "micro_recall")
    _assert_agree(cm.micro_f1, subset, [f for _, _, f, _ in prfs], "micro_f1")


# ---------------------------------------------------------------------------
# chance-corrected agreement
# ---------------------------------------------------------------------------


def test_kappa_matches_cohen_kappa_score(cases):
    """kappa equals cohen_kappa_score, with an undefined kappa replaced by 0.0 on both sides."""
    subset = cases[SLICES["kappa"]]
    undefined = [c for c in subset if np.count_nonzero(c.m) == 1 and np.trace(c.m) > 0]
    assert undefined, "the slice must contain matrices whose kappa is undefined"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        expected = [
            skm.cohen_kappa_score(c.y_true, c.y_pred, labels=range(c.n), replace_undefined_by=0.0)
            for c in subset
        ]
    _assert_agree(cm.kappa, subset, expected, "kappa")


def test_undefined_kappa_is_nan_in_both_libraries(cases):
    """Where sklearn's default kappa is NaN (one shared class only), ours is NaN under 'nan'."""
    single_cell = [c for c in cases if np.count_nonzero(c.m) == 1 and np.trace(c.m) > 0]
    assert len(single_cell) >= 20
    for c in single_cell[:20]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UndefinedMetricWarning)
            theirs = skm.cohen_kappa_score(c.y_true, c.y_pred, labels=range(c.n))
        assert np.isnan(theirs)
        assert np.isnan(cm.kappa(c.m, zero_division="nan"))
        assert cm.kappa(c.m) == 0.0


def test_mcc_matches_matthews_corrcoef(cases):
    """mcc equals sklearn's multi-class matthews_corrcoef, including 0 for a zero denominator."""
    subset = cases[SLICES["mcc"]]
    with warnings.catch_warnings():
        # a case with one label only makes sklearn's internal confusion_matrix warn
        warnings.simplefilter("ignore", UserWarning)
        expected = [skm.matthews_corrcoef(c.y_true, c.y_pred) for c in subset]
    constant = [
        c for c in subset if min((c.m.sum(axis=0) > 0).sum(), (c.m.sum(axis=1) > 0).sum()) == 1
    ]
    assert constant, "the slice must contain matrices whose MCC denominator is 0"
    _assert_agree(cm.mcc, subset, expected, "mcc")


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint16, np.uint64])
def test_integer_labels_counted_through_the_table_match_sklearn(dtype):
    """Integer labels take the lookup-table path; every layout must count as scikit-learn does."""
    rng = np.random.default_rng(7)
    info = np.iinfo(dtype)
    for lo in (max(info.min, -40), 0, info.max - 60):
        base = np.asarray(lo, dtype=dtype)
        y_true = base + rng.integers(0, 25, 500).astype(dtype)
        y_pred = base + rng.integers(0, 25, 500).astype(dtype)
        labels = np.unique(np.r_[y_true, y_pred])
        expected = skm.confusion_matrix(y_true, y_pred).T
        assert np.array_equal(cm.confusion_matrix(y_true, y_pred), expected)
        # given labels in another order, with one class that never occurs
        extra = [*labels[::-1].tolist(), int(lo) + 30]
        sk = skm.confusion_matrix(y_true, y_pred, labels=extra).T
        assert np.array_equal(cm.confusion_matrix(y_true, y_pred, labels=extra), sk)
