"""Chapter 8: generalised-mean macro recall, its gradients and chance bounds.

Expected values come from Opitz (2024) (section 5.1, appendices B.5-B.6,
table 6) or from exact hand derivations. Convention: ``m[i, j]`` = predicted
``i``, true ``j``; recall of class ``i`` = ``m[i, i]`` / column sum ``i``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp
from chapter_text import chapter, seed

import clfmetrics as cm
from clfmetrics import (
    power_mean,
    power_mean_recall,
)

M2 = [[15, 5], [10, 10]]  # recalls 15/25 = 3/5 and 10/15 = 2/3


def _random_stack(seed=0):
    rng = np.random.default_rng(seed)
    ms = rng.integers(0, 12, size=(2000, 4, 4))
    ms[:50, 1, 1] = 0  # some classes with recall 0
    ms[50:60, :, 2] = 0  # some classes that never occur
    ms[50:60, 0, 0] += 1
    return ms


def test_special_cases_equal_the_library_means():
    """p = 1, 0, -1 give macro_recall, geometric_macro_recall, harmonic_macro_recall."""
    ms = _random_stack()
    for zd in (0, 1, "nan"):
        got = power_mean_recall(ms, [1, 0, -1], zero_division=zd)
        for k, f in enumerate(
            (cm.macro_recall, cm.geometric_macro_recall, cm.harmonic_macro_recall)
        ):
            np.testing.assert_allclose(got[..., k], f(ms, zero_division=zd), rtol=1e-12)
        assert power_mean_recall(ms[0], 1, zero_division=zd) == pytest.approx(
            cm.macro_recall(ms[0], zero_division=zd), rel=1e-12
        )


def test_hand_values_for_table2():
    """Recalls 3/5 and 2/3: macR = 19/30, GmacR = sqrt(2/5), HmacR = 12/19, p=2 by hand."""
    got = power_mean_recall(M2, [1, 0, -1, 2])
    expected = [19 / 30, math.sqrt(2 / 5), 12 / 19, math.sqrt((9 / 25 + 4 / 9) / 2)]
    np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_limits_in_p():
    """p -> 0 tends to the geometric mean; -inf / +inf give the smallest / largest recall."""
    ms = _random_stack(1)[60:]
    gm = cm.geometric_macro_recall(ms)
    for p in (1e-9, -1e-9):
        np.testing.assert_allclose(power_mean_recall(ms, p), gm, rtol=1e-6)
    r = cm.recall(ms)
    np.testing.assert_array_equal(power_mean_recall(ms, -np.inf), r.min(axis=-1))
    np.testing.assert_array_equal(power_mean_recall(ms, np.inf), r.max(axis=-1))


def test_monotone_in_p_and_zero_kills_nonpositive_p():
    """M_p never decreases in p; a zero recall makes M_p = 0 for p <= 0 but not for p > 0."""
    ms = _random_stack(2)
    p = np.array([-np.inf, -5, -1, -0.5, 0, 0.5, 1, 3, np.inf])
    vals = power_mean_recall(ms, p)
    assert vals.shape == (len(ms), len(p))
    assert (np.diff(vals, axis=-1) >= -1e-12).all()
    zero = cm.recall(ms).min(axis=-1) == 0
    assert (vals[zero][:, p <= 0] == 0).all()
    assert (vals[zero & (cm.recall(ms).max(axis=-1) > 0)][:, p > 0] > 0).all()


def test_table6_systems_b_and_e():
    """Recall vectors of B and E (table 6) give the printed macR/GmacR/HmacR within rounding.

    The table prints macR 68.1 / 66.9, GmacR 66.5 / 66.8, HmacR 65.0 / 66.8 (B / E),
    computed from full matrices; the recalls are rounded to 0.1, so we allow 0.1.
    """
    b = np.array([87.8, 51.4, 65.2])
    e = np.array([69.8, 64.0, 66.8])
    got = power_mean(np.stack([b, e]), [1, 0, -1])
    printed = np.array([[68.1, 66.5, 65.0], [66.9, 66.8, 66.8]])
    np.testing.assert_allclose(got, printed, atol=0.1)
    assert got[0, 0] > got[1, 0]  # macro recall prefers B
    assert got[0, 1] < got[1, 1] and got[0, 2] < got[1, 2]  # GmacR and HmacR prefer E


def test_printed_gradients_equal_sympy():
    """Appendix B.6: all six printed partial derivatives equal sympy's, n = 3, every cell."""
    n = 3
    m = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"m{i}{j}", positive=True))
    prev = [sum(m[k, j] for k in range(n)) for j in range(n)]
    r = [m[j, j] / prev[j] for j in range(n)]
    mu = [1 / (n * prev[j]) for j in range(n)]
    am = sum(r) / n
    gm = sp.prod(r) ** sp.Rational(1, n)
    hm = n / sum(1 / x for x in r)
    printed = {
        "AM": (am, lambda i: mu[i] * (1 - r[i]), lambda i, j: -mu[j] * r[j]),
        "GM": (gm, lambda i: gm * mu[i] * (1 / r[i] - 1), lambda i, j: -gm * mu[j]),
        "HM": (
            hm,
            lambda i: hm**2 * mu[i] * (r[i] ** -2 - 1 / r[i]),
            lambda i, j: -(hm**2) * mu[j] / r[j],
        ),
    }
    for name, (f, diag, off) in printed.items():
        for i in range(n):
            for j in range(n):
                claim = diag(i) if i == j else off(i, j)
                assert sp.cancel(sp.diff(f, m[i, j]) / claim - 1) == 0, (name, i, j)


def test_chance_bounds_two_classes_are_squares():
    """n = 2: 1/4 - z(1-z) = (z - 1/2)^2 and 1/2 - HM(z, 1-z) = 2 (z - 1/2)^2."""
    z = sp.Symbol("z", positive=True)
    assert sp.simplify(sp.Rational(1, 4) - z * (1 - z) - (z - sp.Rational(1, 2)) ** 2) == 0
    hm = 2 / (1 / z + 1 / (1 - z))
    assert sp.simplify(sp.Rational(1, 2) - hm - 2 * (z - sp.Rational(1, 2)) ** 2) == 0


def test_chance_bounds_on_the_simplex():
    """A guesser's recalls are z: GmacR, HmacR <= 1/n, equal to 1/n only at z uniform."""
    rng = np.random.default_rng(3)
    for n in (3, 4, 6):
        z = rng.dirichlet(np.ones(n), size=20_000)
        for p in (0, -1):
            vals = power_mean(z, p)
            assert (vals <= 1 / n + 1e-15).all()
            assert (vals < 1 / n - 1e-9)[np.ptp(z, axis=-1) > 1e-3].all()
        assert power_mean(np.full(n, 1 / n), [0, -1]) == pytest.approx([1 / n, 1 / n])
        np.testing.assert_allclose(power_mean(z, 1), 1 / n)


def test_appendix_b5_termwise_reading_fails_but_sum_bound_holds():
    """z = (0.6, 0.2, 0.2): 1/z_1 < 3 (termwise bound false), yet sum 1/z_i >= 9 = n^2."""
    z = [0.6, 0.2, 0.2]
    assert 1 / z[0] < 3
    assert sum(1 / x for x in z) >= 9
    assert power_mean(z, -1) <= 1 / 3


def test_simulated_guessers():
    """Guessers on skewed data: mean macR ~ 1/3 for all; mean GmacR, HmacR below 1/3 if skewed."""
    from clfmetrics import random_classifier

    prev = [0.7, 0.2, 0.1]
    uniform = random_classifier(prev, [1 / 3] * 3, 3000, size=400, rng=4)
    skewed = random_classifier(prev, [0.5, 0.4, 0.1], 3000, size=400, rng=5)
    assert power_mean_recall(uniform, 1).mean() == pytest.approx(1 / 3, abs=0.005)
    assert power_mean_recall(skewed, 1).mean() == pytest.approx(1 / 3, abs=0.005)
    # theory for the skewed guesser: GM = (0.5*0.4*0.1)^(1/3), HM = 3 / (2 + 2.5 + 10)
    assert power_mean_recall(skewed, 0).mean() == pytest.approx(0.02 ** (1 / 3), abs=0.005)
    assert power_mean_recall(skewed, -1).mean() == pytest.approx(3 / 14.5, abs=0.005)


@pytest.mark.parametrize(
    "call",
    [
        lambda: power_mean_recall(M2, float("nan")),
        lambda: power_mean_recall(M2, True),
        lambda: power_mean_recall(M2, "1"),
        lambda: power_mean_recall(M2, [[1, 2]]),
        lambda: power_mean_recall(M2, 1, zero_division=2),
        lambda: power_mean_recall([[1, 2, 3]], 1),
        lambda: power_mean_recall([[1, -2], [3, 4]], 1),
        lambda: power_mean([0.5, -0.1], 1),
        lambda: power_mean([0.5, np.inf], 1),
        lambda: power_mean(["a", "b"], 1),
        lambda: power_mean(np.zeros((2, 0)), 1),
    ],
)
def test_bad_input_raises_value_error(call):
    """NaN, boolean, textual or 2-d exponents, bad matrices and bad values raise ValueError."""
    with pytest.raises(ValueError):
        call()


def test_power_mean_curves_figure():
    """The figure has one curve per classifier, labelled axes, and rejects an empty dict."""
    import matplotlib

    matplotlib.use("Agg")
    from clfbook.plots.agreement import power_mean_curves

    fig = power_mean_curves({"B": [0.878, 0.514, 0.652], "E": [0.698, 0.64, 0.668]})
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel()
    assert len(ax.get_legend().get_texts()) == 2
    with pytest.raises(ValueError):
        power_mean_curves({})


def test_item8_equality_of_the_means_needs_positive_recalls():
    """A zero recall makes GmacR = HmacR = min although the recalls differ."""
    m = np.array([[0, 0, 0], [3, 5, 0], [2, 0, 5]])  # class 0 never predicted
    r = cm.recall(m)
    assert r.min() == 0 and not np.allclose(r, r[0])
    assert cm.geometric_macro_recall(m) == cm.harmonic_macro_recall(m) == 0
    text = chapter("08-recall-variants")
    assert "with equality only when all recalls are equal" not in text
    assert "When every recall is positive, any two of them are equal only when" in text


def test_item11_the_source_latex_of_the_gradients_is_legible():
    text = seed("002")
    if text is not None:
        for latex in (r"GM\mu_{i}(R_{i}^{-1}-1)", r"HM^{2}\mu_{i}(R_{i}^{-2}-R_{"):
            assert latex in text
    chapter_text = chapter("08-recall-variants")
    assert "The text extraction of the paper garbles these" not in chapter_text
    assert "only their text extraction is garbled" not in chapter_text


def test_table_6_recall_means_agree_with_the_paper_to_the_printed_decimal():
    """08 ~138: no 'small differences from the paper' for systems B and E."""
    rows = {"B": None, "E": None}
    closer = seed("002")
    if closer is not None:
        for line in closer.splitlines():
            fields = line.split()
            if len(fields) == 20 and fields[0] in rows:
                rows[fields[0]] = [float(v) for v in fields[1:]]
    else:  # the chapter's own copy of the printed values
        rows = {
            "B": [0] * 3 + [68.1] + [0] * 6 + [66.5, 65.0, 87.8, 51.4, 65.2],
            "E": [0] * 3 + [66.9] + [0] * 6 + [66.8, 66.8, 69.8, 64.0, 66.8],
        }
    for name, row in rows.items():
        printed = [row[3], row[10], row[11]]  # macR, GmacR, HmacR
        ours = power_mean(np.array(row[12:15]) / 100, [1, 0, -1]) * 100
        assert [round(float(v), 1) for v in ours] == printed, name
    text = chapter("08-recall-variants")
    assert "The small differences from the paper" not in text
    assert "every one of these values is the one its table 6 prints" in text
