"""Fleiss' kappa and Krippendorff's alpha of many raters, against statsmodels and krippendorff.

irrCAC's values (literals: irrCAC 0.4.3 pins scipy 1.12 and pandas < 3) were computed by
``CAC(pandas.DataFrame(RATINGS.T), categories=[0, 1, 2], digits=15)`` with ``.fleiss()`` and
``.krippendorff()``.
"""

import krippendorff
import numpy as np
import pytest
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

import clfmetrics
from clfmetrics import fleiss_kappa, krippendorff_alpha, scott_pi

RATINGS = np.array(
    [
        [0, 1, 2, 2, 1, 0, 1, 2, 0, 0, 1, 2, 2, 1, 0],
        [0, 1, 2, 1, 1, 0, 2, 2, 0, 1, 1, 2, 2, 0, 0],
        [1, 1, 2, 2, 1, 0, 1, 2, 0, 0, 2, 2, 1, 1, 0],
    ],
    dtype=float,
)
IRRCAC_FLEISS = 0.532640949554896
IRRCAC_KRIPPENDORFF = 0.543026706231454


def random_ratings(rng, raters, items, q, missing):
    truth = rng.integers(0, q, size=items)
    noise = rng.integers(0, q, size=(raters, items))
    ratings = np.where(rng.random((raters, items)) < 0.7, truth, noise).astype(float)
    return np.where(rng.random((raters, items)) < missing, np.nan, ratings)


def test_fleiss_kappa_equals_statsmodels():
    rng = np.random.default_rng(0)
    for _ in range(40):
        ratings = random_ratings(rng, int(rng.integers(2, 8)), int(rng.integers(3, 60)), 4, 0)
        table, _ = aggregate_raters(ratings.T.astype(int), n_cat=4)
        assert fleiss_kappa(table) == pytest.approx(statsmodels_fleiss(table), abs=1e-12)
    table, _ = aggregate_raters(RATINGS.T.astype(int))
    assert fleiss_kappa(table) == pytest.approx(IRRCAC_FLEISS, abs=1e-14)


def test_fleiss_kappa_of_two_raters_is_scott_pi():
    a, b = RATINGS[0].astype(int), RATINGS[1].astype(int)
    table = np.eye(3)[a] + np.eye(3)[b]
    m = np.zeros((3, 3))
    np.add.at(m, (a, b), 1)
    assert fleiss_kappa(table) == pytest.approx(scott_pi(m), abs=1e-14)


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
def test_krippendorff_alpha_equals_the_krippendorff_package_with_missing_ratings(level):
    rng = np.random.default_rng(1)
    for _ in range(40):
        raters, items, q = int(rng.integers(2, 7)), int(rng.integers(5, 80)), 5
        ratings = random_ratings(rng, raters, items, q, missing=0.3) + 1  # values 1..5
        try:
            want = krippendorff.alpha(ratings, level_of_measurement=level)
        except ValueError:  # the package refuses it too (one value, or no pair)
            with pytest.raises(ValueError):
                krippendorff_alpha(ratings, level=level)
            continue
        assert krippendorff_alpha(ratings, level=level) == pytest.approx(want, abs=1e-12)
        # The categories the raters could use: the package's value_domain.
        domain = np.arange(1, q + 2)  # one category nobody used
        want = krippendorff.alpha(ratings, level_of_measurement=level, value_domain=domain)
        got = krippendorff_alpha(ratings, level=level, categories=domain)
        assert got == pytest.approx(want, abs=1e-12)


def test_krippendorff_alpha_equals_irrcac_and_items_rated_once_drop_out():
    assert krippendorff_alpha(RATINGS) == pytest.approx(IRRCAC_KRIPPENDORFF, abs=1e-14)
    once = np.full((3, 1), np.nan)
    once[0, 0] = 2
    assert krippendorff_alpha(np.hstack([RATINGS, once])) == krippendorff_alpha(RATINGS)
    assert krippendorff_alpha(np.hstack([RATINGS, np.full((3, 1), np.nan)])) == (
        krippendorff_alpha(RATINGS)
    )


def test_one_value_among_the_pairable_ratings_is_nan():
    ratings = np.array([[1, 1, 1, 2], [1, 1, 1, np.nan]])
    assert np.isnan(krippendorff_alpha(ratings))
    assert np.isnan(fleiss_kappa([[2, 0], [2, 0], [2, 0]]))


def test_both_are_public():
    for name in ("fleiss_kappa", "krippendorff_alpha"):
        assert name in clfmetrics.__all__
        assert name in clfmetrics.metrics.__all__


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: krippendorff_alpha(RATINGS, categories=[0, 1]), "hold 2, which is not among"),
        (lambda: krippendorff_alpha([[1, 1, np.nan], [1, 1, 1]]), "single category"),
        (lambda: krippendorff_alpha([[1, 2, 1]]), "at least two raters"),
        (lambda: krippendorff_alpha([[1, np.nan], [np.nan, 2]]), "no item has two ratings"),
        (lambda: krippendorff_alpha([[1, np.inf], [2, 2]]), "finite"),
        (lambda: krippendorff_alpha([["a", "b"], ["a", "b"]]), "array of numbers"),
        (lambda: krippendorff_alpha(RATINGS, level="cardinal"), "level must be one of"),
        (lambda: krippendorff_alpha(RATINGS, categories=[0, 1, 1, 2]), "distinct"),
        (lambda: krippendorff_alpha(RATINGS, categories=["low", "high"]), "must be numbers"),
        (lambda: fleiss_kappa([[3], [3]]), "1 category"),
        (lambda: fleiss_kappa([[2, 1], [1, 0]]), "at least two ratings; item 1 has 1"),
        (lambda: fleiss_kappa([[2, 1], [2, 0]]), "same number of ratings"),
        (lambda: fleiss_kappa([[2, -1], [1, 0]]), "non-negative whole"),
        (lambda: fleiss_kappa([[1.5, 1.5], [1, 2]]), "non-negative whole"),
        (lambda: fleiss_kappa([1, 2, 3]), "two-dimensional"),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.parametrize("level", ["nominal", "ordinal", "interval", "ratio"])
@pytest.mark.parametrize(
    "values",
    [
        [-7.0, -3.0, 0.0, 2.0, 40.0],  # whole numbers with gaps: counted, then looked up
        [0.5, 1.0, 1.5, 2.25, 3.0],  # not whole: sorted
        [1.0, 2.0, 3.0, 2.0**60, 2.0**61],  # whole but beyond the counted range: sorted
    ],
)
def test_krippendorff_alpha_equals_the_package_for_values_counted_or_sorted(level, values):
    rng = np.random.default_rng(7)
    codes = random_ratings(rng, 4, 200, 5, missing=0.2)
    ratings = np.where(np.isnan(codes), np.nan, np.take(values, np.nan_to_num(codes).astype(int)))
    want = krippendorff.alpha(ratings, level_of_measurement=level)
    assert krippendorff_alpha(ratings, level=level) == pytest.approx(want, abs=1e-12)


def test_fleiss_kappa_of_integer_and_float_tables_agree():
    rng = np.random.default_rng(3)
    table, _ = aggregate_raters(random_ratings(rng, 6, 500, 4, 0).T.astype(int), n_cat=4)
    want = statsmodels_fleiss(table)
    for form in (table, table.astype(np.uint8), table.astype(float), table.tolist()):
        assert fleiss_kappa(form) == pytest.approx(want, abs=1e-12)
