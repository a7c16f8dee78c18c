"""Weighted kappa, Scott's pi, PABAK and Gwet's AC1/AC2 of a two-raters cross-table.

References: scikit-learn's cohen_kappa_score (weighted kappa), statsmodels' fleiss_kappa of the
two raters (Scott's pi), and irrCAC's values (AC1, AC2, Brennan-Prediger), written here as
literals: irrCAC 0.4.3 pins scipy 1.12 and pandas < 3, so it cannot share the test
environment. They were computed by ``CAC(ratings, weights=w, categories=range(q),
digits=15).gwet()`` (and ``.bp()``) on the two raters' ratings of each matrix below.
"""

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

import clfmetrics
from clfmetrics import gwet_ac1, kappa, pabak, scott_pi, weighted_kappa

MATRICES = [
    [[20, 5, 0], [3, 15, 4], [1, 2, 10]],
    [[90, 5], [3, 2]],
    [[12, 3, 1, 0], [2, 9, 3, 1], [0, 4, 8, 2], [1, 0, 2, 6]],
]
# irrCAC 0.4.3: gwet() coefficient_value by weights (identity = AC1), and bp() unweighted.
IRRCAC_GWET = [
    {"identity": 0.630124319326004, "linear": 0.710042788824566, "quadratic": 0.786814054480853},
    {"identity": 0.909828674481515, "linear": 0.909828674481515, "quadratic": 0.909828674481515},
    {"identity": 0.532893239244252, "linear": 0.665364407921326, "quadratic": 0.763566405731723},
]
IRRCAC_BP = [0.625, 0.84, 0.530864197530864]


def raters_of(m):
    """The two raters' labels of a cross-table: rater A the rows, rater B the columns."""
    m = np.asarray(m)
    i, j = np.indices(m.shape)
    return np.repeat(i.ravel(), m.ravel()), np.repeat(j.ravel(), m.ravel())


def random_matrices(seed, count=30):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(2, 7))
        m = rng.integers(0, 12, size=(n, n)) + np.diag(rng.integers(1, 30, size=n))
        yield m


@pytest.mark.parametrize("weights", ["linear", "quadratic"])
def test_weighted_kappa_equals_scikit_learn(weights):
    for m in random_matrices(1):
        a, b = raters_of(m)
        want = cohen_kappa_score(a, b, weights=weights, labels=np.arange(len(m)))
        assert weighted_kappa(m, weights=weights) == pytest.approx(want, abs=1e-12)


def test_weighted_kappa_with_identity_weights_is_kappa_and_a_matrix_weights_its_cells():
    for m in random_matrices(2):
        n = len(m)
        assert weighted_kappa(m, weights=np.eye(n)) == pytest.approx(kappa(m), abs=1e-12)
        # An asymmetric weight matrix: w[i, j] weights m[i, j], so transposing both changes
        # nothing, and transposing one does.
        w = np.eye(n) + np.triu(np.full((n, n), 0.5), 1)
        assert weighted_kappa(m, weights=w) == pytest.approx(weighted_kappa(m.T, weights=w.T))
        a, b = raters_of(m)
        # The same from the items: observed and chance disagreement with v = 1 - w.
        v = 1 - w
        observed = v[a, b].mean()
        chance = v[a[:, None], b[None, :]].mean()
        assert weighted_kappa(m, weights=w) == pytest.approx(1 - observed / chance, abs=1e-12)
    m = np.array([[10, 6], [0, 10]])
    w = np.array([[1, 0.9], [0, 1]])
    assert weighted_kappa(m, weights=w) != pytest.approx(weighted_kappa(m, weights=w.T))


def test_the_coefficients_are_vectorised_over_a_stack():
    stack = np.array([[[20, 5], [3, 15]], [[9, 1], [2, 30]], [[5, 5], [5, 5]]])
    for func in (weighted_kappa, scott_pi, pabak, gwet_ac1):
        got = func(stack)
        assert got.shape == (3,)
        assert got == pytest.approx([func(m) for m in stack])


def test_scott_pi_is_fleiss_kappa_of_the_two_raters():
    for m in random_matrices(3):
        a, b = raters_of(m)
        n = len(m)
        table = (np.eye(n)[a] + np.eye(n)[b]).astype(int)  # items x categories
        assert scott_pi(m) == pytest.approx(statsmodels_fleiss(table), abs=1e-12)
        assert table.shape == (m.sum(), n)


def test_pabak_is_twice_the_accuracy_less_one_and_brennan_prediger_for_more_classes():
    for m in random_matrices(4):
        acc = np.trace(m) / m.sum()
        q = len(m)
        assert pabak(m) == pytest.approx((q * acc - 1) / (q - 1), abs=1e-15)
    assert pabak([[45, 5], [5, 45]]) == pytest.approx(0.8)
    for m, want in zip(MATRICES, IRRCAC_BP, strict=True):
        assert pabak(m) == pytest.approx(want, abs=1e-14)


@pytest.mark.parametrize("weights", ["identity", "linear", "quadratic"])
def test_gwet_ac1_and_ac2_equal_irrcac(weights):
    for m, want in zip(MATRICES, IRRCAC_GWET, strict=True):
        got = gwet_ac1(m, weights=None if weights == "identity" else weights)
        assert got == pytest.approx(want[weights], abs=1e-14)


def test_the_kappa_paradox_ac1_and_pabak_stay_with_the_accuracy():
    # Two raters agreeing on 90 of 100 items, at 50 % and at 95 % prevalence: kappa falls
    # from 0.8 to near 0 (Feinstein & Cicchetti 1990); AC1 and PABAK do not.
    balanced = np.array([[45, 5], [5, 45]])
    extreme = np.array([[88, 5], [5, 2]])
    assert kappa(balanced) == pytest.approx(0.8)
    assert kappa(extreme) < 0.3
    assert pabak(extreme) == pytest.approx(pabak(balanced))
    assert gwet_ac1(extreme) > 0.85 > gwet_ac1(balanced) - 0.1
    assert scott_pi(extreme) == pytest.approx(kappa(extreme))  # same margins


def test_perfect_chance_agreement_is_the_zero_division():
    one_class = [[10, 0], [0, 0]]
    assert weighted_kappa(one_class) == 0
    assert np.isnan(weighted_kappa(one_class, zero_division="nan"))
    assert scott_pi(one_class, zero_division=1) == 1
    assert gwet_ac1(one_class) == 1.0  # AC1's chance agreement is 0 there
    assert pabak(one_class) == 1.0


def test_every_coefficient_is_public():
    for name in ("weighted_kappa", "scott_pi", "pabak", "gwet_ac1"):
        assert name in clfmetrics.__all__
        assert name in clfmetrics.metrics.__all__


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights="cubic"), "weights must be"),
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights=np.eye(3)), r"shape \(2, 2\)"),
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights=[[1, 2], [0, 1]]), "agreement weights"),
        (lambda: weighted_kappa([[1, 2], [3, 4]], weights=[[0.5, 0], [0, 1]]), "diagonal"),
        (lambda: gwet_ac1([[1, 2], [3, 4]], weights=[["a", "b"], ["c", "d"]]), "weights must"),
        (lambda: gwet_ac1([[5]]), "at least 2 classes"),
        (lambda: pabak([[5]]), "at least 2 classes"),
        (lambda: scott_pi([[1, -2], [3, 4]]), "negative"),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()
