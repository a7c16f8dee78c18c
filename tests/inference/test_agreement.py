"""Intervals of the agreement coefficients: analytic against statsmodels, irrCAC and the
bootstrap; the bootstrap of many raters against resampling the items one by one; coverage.

irrCAC's standard errors are literals (irrCAC 0.4.3 pins scipy 1.12 and pandas < 3): ``se`` of
``CAC(ratings, weights=w, categories=range(q), digits=15).gwet()`` on the two raters of each
matrix, and of ``.fleiss()`` on RATINGS (as in tests/metrics/test_raters.py).
"""

import functools

import krippendorff
import numpy as np
import pytest
from statsmodels.stats.inter_rater import aggregate_raters, cohens_kappa

import clfmetrics
from clfmetrics import (
    AGREEMENT_FEW_ITEMS,
    AGREEMENT_FEW_ITEMS_COVERAGE,
    AGREEMENT_FEW_ITEMS_STUDY,
    agreement_coverage,
    agreement_interval,
    interval,
    weighted_kappa,
)

MATRICES = [
    [[20, 5, 0], [3, 15, 4], [1, 2, 10]],
    [[90, 5], [3, 2]],
    [[12, 3, 1, 0], [2, 9, 3, 1], [0, 4, 8, 2], [1, 0, 2, 6]],
]
IRRCAC_GWET_SE = [
    {None: 0.083769068744198, "linear": 0.068884916042068, "quadratic": 0.060903137919057},
    {None: 0.033160748983955, "linear": 0.033160748983955, "quadratic": 0.033160748983955},
    {None: 0.087133620293324, "linear": 0.071502916839539, "quadratic": 0.076862394842778},
]
RATINGS = np.array(
    [
        [0, 1, 2, 2, 1, 0, 1, 2, 0, 0, 1, 2, 2, 1, 0],
        [0, 1, 2, 1, 1, 0, 2, 2, 0, 1, 1, 2, 2, 0, 0],
        [1, 1, 2, 2, 1, 0, 1, 2, 0, 0, 2, 2, 1, 1, 0],
    ],
    dtype=float,
)
IRRCAC_FLEISS_SE = 0.135143436877863
BIG = np.array([[120, 20, 5], [15, 150, 25], [4, 21, 40]])


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_analytic_kappa_se_is_fleiss_cohen_everitt_as_statsmodels(weights):
    for m in [*MATRICES, BIG]:
        name = "kappa" if weights is None else "weighted_kappa"
        iv = agreement_interval(name, m, weights=weights, method="analytic")
        want = cohens_kappa(np.asarray(m), wt=weights)
        assert iv.estimate == pytest.approx(want.kappa, abs=1e-12)
        assert iv.se == pytest.approx(want.std_kappa, rel=1e-10)
        assert iv.method == "analytic (Fleiss, Cohen & Everitt 1969)"
        assert iv.high - iv.estimate == pytest.approx(1.959963984540054 * iv.se, rel=1e-9) or (
            iv.high == 1.0
        )


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_analytic_ac1_se_is_gwet_2008_as_irrcac(weights):
    for m, want in zip(MATRICES, IRRCAC_GWET_SE, strict=True):
        iv = agreement_interval("gwet_ac1", m, weights=weights, method="analytic")
        assert iv.se == pytest.approx(want[weights], abs=1e-14)
        assert iv.method == "analytic (Gwet 2008)"


def test_analytic_fleiss_se_is_gwet_2008_as_irrcac():
    table, _ = aggregate_raters(RATINGS.T.astype(int))
    iv = agreement_interval("fleiss_kappa", table, method="analytic")
    assert iv.se == pytest.approx(IRRCAC_FLEISS_SE, abs=1e-14)


@pytest.mark.parametrize(
    ("coefficient", "weights"),
    [
        ("kappa", None),
        ("weighted_kappa", "quadratic"),
        ("gwet_ac1", None),
        ("gwet_ac1", "linear"),
        ("scott_pi", None),
        ("pabak", None),
    ],
)
def test_analytic_and_bootstrap_intervals_agree_on_many_items(coefficient, weights):
    boot = agreement_interval(coefficient, BIG, weights=weights, size=4000, rng=1)
    exact = agreement_interval(coefficient, BIG, weights=weights, method="analytic")
    assert boot.estimate == exact.estimate
    assert boot.high - boot.low == pytest.approx(exact.high - exact.low, rel=0.1)
    assert boot.low == pytest.approx(exact.low, abs=0.02)


def _items_table(m):
    """The items x categories count table of a cross-table: an item of cell (a, b) got one
    rating a and one rating b."""
    m = np.asarray(m)
    q = len(m)
    rows = [np.eye(q, dtype=int)[a] + np.eye(q, dtype=int)[b] for a in range(q) for b in range(q)]
    return np.repeat(np.array(rows), m.ravel(), axis=0)


def test_analytic_scott_pi_is_the_delta_method_and_gwets_fleiss_linearisation():
    for m in [*MATRICES, BIG]:
        iv = agreement_interval("scott_pi", m, method="analytic")
        items = int(np.sum(m))
        fleiss = agreement_interval("fleiss_kappa", _items_table(m), method="analytic")
        assert iv.estimate == pytest.approx(fleiss.estimate, abs=1e-12)  # two raters: pi
        assert iv.se == pytest.approx(fleiss.se * np.sqrt((items - 1) / items), rel=1e-10)
        assert iv.method == "analytic (delta method, Gwet 2008)"
        # The gradient by central differences of pi in the cell proportions.
        p = np.asarray(m, float) / items
        grad = np.zeros_like(p)
        for i, j in zip(*np.nonzero(p), strict=True):  # an empty cell weighs nothing
            step = np.zeros_like(p)
            step[i, j] = 1e-6
            grad[i, j] = (clfmetrics.scott_pi(p + step) - clfmetrics.scott_pi(p - step)) / 2e-6
        var = (np.sum(p * grad**2) - np.sum(p * grad) ** 2) / items
        assert iv.se == pytest.approx(np.sqrt(var), rel=1e-6)


def test_analytic_pabak_is_the_exact_interval_of_the_observed_agreement():
    from scipy.stats import binomtest

    for m in [*MATRICES, BIG]:
        m = np.asarray(m)
        q, items, agree = len(m), int(m.sum()), int(np.trace(m))
        iv = agreement_interval("pabak", m, method="analytic", level=0.9)
        ci = binomtest(agree, items).proportion_ci(0.9, method="exact")
        assert iv.low == pytest.approx((q * ci.low - 1) / (q - 1), abs=1e-10)
        assert iv.high == pytest.approx((q * ci.high - 1) / (q - 1), abs=1e-10)
        p_o = agree / items
        assert iv.se == pytest.approx(q / (q - 1) * np.sqrt(p_o * (1 - p_o) / items))
        assert iv.method == "analytic (Clopper-Pearson of the observed agreement)"


def test_the_analytic_pi_and_pabak_cover_as_they_assume():
    # Independent items: pi's normal interval near 0.95 on 200 items, poor at 20 items of a
    # rare class (where the few-items warning is); PABAK's exact one at least 0.95 on both.
    common = {"accuracy": 0.85, "method": "analytic", "sets": 400, "rng": 3}
    pi_many = agreement_coverage("scott_pi", items=200, prevalence=0.15, **common)
    pi_few = agreement_coverage("scott_pi", items=20, prevalence=0.05, **common)
    pabak_few = agreement_coverage("pabak", items=20, prevalence=0.05, **common)
    assert 0.92 <= pi_many <= 0.975  # 400 studies: sd 0.011
    assert pi_few < 0.85
    assert pabak_few >= 0.93
    small = [[17, 1], [1, 1]]
    assert "too narrow" in agreement_interval("scott_pi", small, method="analytic").warning
    assert agreement_interval("pabak", small, method="analytic").warning is None


def test_analytic_and_bootstrap_agree_for_fleiss_kappa():
    rng = np.random.default_rng(5)
    truth = rng.integers(0, 3, size=300)
    ratings = np.where(rng.random((4, 300)) < 0.75, truth, rng.integers(0, 3, size=(4, 300)))
    table, _ = aggregate_raters(ratings.T)
    boot = agreement_interval("fleiss_kappa", table, size=4000, rng=2)
    exact = agreement_interval("fleiss_kappa", table, method="analytic")
    assert boot.high - boot.low == pytest.approx(exact.high - exact.low, rel=0.1)


def test_the_two_raters_bootstrap_is_the_interval_of_the_coefficient():
    iv = agreement_interval("weighted_kappa", BIG, weights="quadratic", size=500, rng=3)
    want = interval(functools.partial(weighted_kappa, weights="quadratic"), BIG, size=500, rng=3)
    assert (iv.estimate, iv.low, iv.high) == (want.estimate, want.low, want.high)
    assert np.isnan(iv.se) and iv.items == BIG.sum() and iv.coefficient == "weighted_kappa"


def test_the_raters_bootstrap_resamples_items_as_one_by_one_resampling_does():
    rng = np.random.default_rng(7)
    ratings = np.tile(RATINGS, 3)
    ratings[rng.random(ratings.shape) < 0.15] = np.nan
    iv = agreement_interval("krippendorff_alpha", ratings, measurement="ordinal", size=3000, rng=0)
    assert iv.estimate == pytest.approx(
        krippendorff.alpha(ratings, level_of_measurement="ordinal"), abs=1e-12
    )
    items = ratings.shape[1]
    # Resampling the items themselves, each resample scored by the krippendorff package.
    values = []
    for _ in range(600):
        sample = ratings[:, rng.integers(0, items, size=items)]
        try:
            values.append(krippendorff.alpha(sample, level_of_measurement="ordinal"))
        except ValueError:
            continue
    low, high = np.quantile(values, [0.025, 0.975])
    assert iv.low == pytest.approx(low, abs=0.05)
    assert iv.high == pytest.approx(high, abs=0.05)
    bca = agreement_interval("krippendorff_alpha", ratings, method="bca", size=1000, rng=0)
    assert bca.low < bca.estimate < bca.high and bca.method == "bca"


def test_the_bootstrap_is_reproducible_from_its_seed():
    first = agreement_interval("krippendorff_alpha", RATINGS, size=300, rng=11)
    second = agreement_interval("krippendorff_alpha", RATINGS, size=300, rng=11)
    assert first == second


def test_few_items_carry_the_warning_of_the_simulation():
    small = [[8, 2], [1, 4]]
    iv = agreement_interval("kappa", small, size=200, rng=0)
    assert iv.items < AGREEMENT_FEW_ITEMS
    assert f"{AGREEMENT_FEW_ITEMS_COVERAGE['kappa']['percentile']:.2f}" in iv.warning
    assert "too narrow" in iv.warning
    iv = agreement_interval("kappa", small, method="analytic", level=0.9)
    assert f"{AGREEMENT_FEW_ITEMS_COVERAGE['kappa']['analytic']:.2f}" in iv.warning
    assert "level is 90%" in iv.warning
    alpha = agreement_interval("krippendorff_alpha", RATINGS, size=200, rng=0)
    assert f"{AGREEMENT_FEW_ITEMS_COVERAGE['krippendorff_alpha']['percentile']:.2f}" in (
        alpha.warning
    )
    assert agreement_interval("kappa", BIG, size=200, rng=0).warning is None


def test_coverage_is_near_nominal_with_many_items_and_poor_where_flagged():
    good_kappa = agreement_coverage(
        "kappa", items=200, prevalence=0.3, accuracy=0.85, sets=300, size=400, rng=1
    )
    good_alpha = agreement_coverage(
        "krippendorff_alpha",
        items=150,
        prevalence=0.3,
        accuracy=0.85,
        raters=3,
        missing=0.2,
        sets=300,
        size=400,
        rng=1,
    )
    assert 0.91 <= good_kappa <= 0.99
    assert 0.91 <= good_alpha <= 0.99
    # The flagged case, a smaller run of the recorded study: as poor as recorded.
    for name in ("kappa", "krippendorff_alpha"):
        study = {**AGREEMENT_FEW_ITEMS_STUDY[name], "sets": 400, "rng": 2}
        got = agreement_coverage(name, method="percentile", **study)
        recorded = AGREEMENT_FEW_ITEMS_COVERAGE[name]["percentile"]
        assert got < 0.93
        assert got == pytest.approx(recorded, abs=0.05)  # 400 studies: sd 0.016
        assert study["items"] < AGREEMENT_FEW_ITEMS


def test_the_interval_names_are_public():
    for name in ("agreement_interval", "agreement_coverage", "AgreementInterval"):
        assert name in clfmetrics.__all__ and name in clfmetrics.inference.__all__


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: agreement_interval("cohen", BIG), "coefficient must be one of"),
        (lambda: agreement_interval("kappa", BIG, method="wald"), "method must be one of"),
        (
            lambda: agreement_interval("krippendorff_alpha", RATINGS, method="analytic"),
            "no standard analytic variance",
        ),
        (lambda: agreement_interval("scott_pi", BIG, weights="linear"), "takes no weights"),
        (lambda: agreement_interval("kappa", BIG, categories=[0, 1, 2]), "krippendorff_alpha's"),
        (lambda: agreement_interval("kappa", BIG / 2), "whole-number counts"),
        (lambda: agreement_interval("kappa", BIG, level=95), "level must be"),
        (
            lambda: agreement_interval("krippendorff_alpha", RATINGS, categories=[0, 1]),
            "not among the categories",
        ),
        (lambda: agreement_interval("fleiss_kappa", [[2, 0], [1, 0]]), "at least two ratings"),
        (
            lambda: agreement_coverage("kappa", items=50, prevalence=1.2, accuracy=0.9),
            "prevalence must be",
        ),
        (
            lambda: agreement_coverage("kappa", items=50, prevalence=0.2, accuracy=0.9, raters=3),
            "exactly 2 raters",
        ),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize(
    "coefficient", ["kappa", "weighted_kappa", "scott_pi", "pabak", "gwet_ac1"]
)
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_every_coefficient_of_a_cross_table_has_a_bootstrap_interval(coefficient, method):
    iv = agreement_interval(coefficient, BIG, method=method, size=500, rng=0)
    assert iv.low < iv.estimate < iv.high <= 1
    assert iv.method == method and iv.warning is None


@pytest.mark.parametrize("coefficient", ["kappa", "weighted_kappa", "scott_pi"])
def test_an_analytic_interval_where_the_coefficient_is_undefined_is_undefined(coefficient):
    """Both raters use one class (chance agreement 1): the coefficient is its zero_division
    fill and its analytic interval undefined, with no numpy warning on the way."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        iv = agreement_interval(coefficient, [[5, 0], [0, 0]], method="analytic")
    assert np.isnan(iv.se) and np.isnan(iv.low) and np.isnan(iv.high)


def test_an_analytic_se_of_one_item_is_undefined_without_a_warning():
    """Gwet's linearised variance divides by N (N - 1): with one item the se is NaN, quietly."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ac1 = agreement_interval("gwet_ac1", [[0, 1], [0, 0]], method="analytic")
        fleiss = agreement_interval("fleiss_kappa", [[2, 1]], method="analytic")
    assert np.isnan(ac1.se) and np.isnan(ac1.low) and np.isnan(ac1.high)
    assert np.isnan(fleiss.se)
