"""Net benefit and decision curves equal ``dcurves`` (PyPI) to 1e-12; bad input is refused.

``dcurves.dca`` gives, per model and threshold, the net benefit of the model, of treating
all (``all``) and none (``none``), and the net interventions avoided (``nper=100``: per
100 items). The standardized net benefit, which ``dcurves`` does not tabulate, is its net
benefit divided by the prevalence it used. The scores are rounded to two decimals and the
thresholds include those values, so ``>=`` at a tie is exercised.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from dcurves import dca

from clfmetrics import decision_curve, decision_curve_from_counts, net_benefit

THRESHOLDS = np.r_[np.arange(1, 100) / 100, 0.333]


def _data(seed: int, n: int = 400):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1).round(2)
    return y.astype(int), s


def _dcurves(y, s, harm, prevalence):
    frame = pd.DataFrame({"y": y, "m": s})
    out = dca(
        data=frame,
        outcome="y",
        modelnames=["m"],
        thresholds=THRESHOLDS,
        harm=None if harm == 0 else {"m": harm},
        prevalence=prevalence,
        nper=100,
    )
    return {name: rows.sort_values("threshold") for name, rows in out.groupby("model")}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("harm", [0.0, 0.02])
@pytest.mark.parametrize("prevalence", [None, 0.1])
def test_decision_curve_equals_dcurves(seed, harm, prevalence):
    y, s = _data(seed)
    ref = _dcurves(y, s, harm, prevalence)
    order = np.argsort(THRESHOLDS, kind="stable")
    dc = decision_curve(y, s, THRESHOLDS, harm=harm, prevalence=prevalence, size=50, rng=0)
    model, every, none = ref["m"], ref["all"], ref["none"]
    np.testing.assert_allclose(dc.net_benefit[order], model.net_benefit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(dc.treat_all[order], every.net_benefit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(dc.treat_none[order], none.net_benefit, rtol=0, atol=1e-12)
    np.testing.assert_allclose(
        dc.standardized[order], model.net_benefit / model.prevalence, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        dc.interventions_avoided[order], model.net_intervention_avoided, rtol=0, atol=1e-12
    )
    np.testing.assert_allclose(
        net_benefit(y, s, THRESHOLDS, harm=harm, prevalence=prevalence)[order],
        model.net_benefit,
        rtol=0,
        atol=1e-12,
    )
    assert dc.prevalence == pytest.approx(model.prevalence.iloc[0], abs=1e-15)


def test_thresholds_keep_their_order_and_repeats():
    y, s = _data(3)
    t = [0.4, 0.1, 0.4, 0.25]
    nb = net_benefit(y, s, t)
    assert nb[0] == nb[2]
    np.testing.assert_array_equal(nb, [net_benefit(y, s, [v])[0] for v in t])


def test_from_counts_is_the_same_curve_and_band():
    y, s = _data(4, n=600)
    values = np.unique(s)
    pos = np.array([np.sum((s == v) & (y == 1)) for v in values])
    neg = np.array([np.sum((s == v) & (y == 0)) for v in values])
    for prevalence in (None, 0.2):
        a = decision_curve(y, s, THRESHOLDS, prevalence=prevalence, size=300, rng=7)
        b = decision_curve_from_counts(
            values, pos, neg, THRESHOLDS, prevalence=prevalence, size=300, rng=7
        )
        for field in ("net_benefit", "treat_all", "standardized", "low", "high", "pointwise_low"):
            np.testing.assert_array_equal(getattr(a, field), getattr(b, field))


def test_counts_from_duckdb_give_the_items_curve_and_band():
    import duckdb  # the duckdb extra, in requirements-dev.txt

    from clfmetrics import duckdb_counts

    y, s = _data(5, n=500)
    frame = pd.DataFrame({"outcome": y, "risk": s})
    con = duckdb.connect()
    con.register("visits", frame)
    labels, risk, n = duckdb_counts(con.sql("SELECT * FROM visits"), ["outcome", "risk"])
    a = decision_curve(y, s, THRESHOLDS, size=200, rng=3)
    b = decision_curve_from_counts(
        risk, n * (labels == 1), n * (labels == 0), THRESHOLDS, size=200, rng=3
    )
    np.testing.assert_array_equal(a.net_benefit, b.net_benefit)
    np.testing.assert_array_equal(a.low, b.low)
    np.testing.assert_array_equal(a.high, b.high)


def test_masked_input_is_refused():
    hidden = np.ma.array([0.1, 0.8, 0.3, 0.4], mask=[0, 1, 0, 0])
    with pytest.raises(ValueError, match="scores"):
        net_benefit([0, 1, 0, 1], hidden, [0.2])
    with pytest.raises(ValueError, match="thresholds"):
        net_benefit([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.4], np.ma.array([0.2, 0.3], mask=[0, 1]))
    with pytest.raises(ValueError, match="positives"):
        decision_curve_from_counts([0.2, 0.6], np.ma.array([1, 2], mask=[1, 0]), [2, 2], [0.5])


def test_a_hundred_million_items_from_counts():
    values = np.linspace(0, 1, 101)
    rng = np.random.default_rng(0)
    pos = rng.integers(0, 10**6, values.size)
    neg = rng.integers(0, 10**6, values.size)
    dc = decision_curve_from_counts(values, pos, neg, [0.1, 0.2, 0.3], size=100, rng=0)
    assert (dc.low <= dc.net_benefit).all() and (dc.net_benefit <= dc.high).all()
    assert (dc.high - dc.low < 1e-3).all()  # 10**8 items: a narrow band


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"thresholds": [0.2, 1.0]}, "strictly between 0 and 1"),
        ({"thresholds": [0.0, 0.5]}, "strictly between 0 and 1"),
        ({"thresholds": [-0.1]}, "strictly between 0 and 1"),
        ({"thresholds": [np.nan]}, "strictly between 0 and 1"),
        ({"thresholds": []}, "one or more numbers"),
        ({"thresholds": ["a"]}, "one or more numbers"),
        ({"thresholds": [0.2], "harm": -0.1}, "harm must be finite and at least 0"),
        ({"thresholds": [0.2], "harm": np.inf}, "harm must be finite"),
        ({"thresholds": [0.2], "harm": "x"}, "harm must be a number"),
        ({"thresholds": [0.2], "prevalence": 1.0}, "prevalence must lie strictly"),
        ({"thresholds": [0.2], "prevalence": 0}, "prevalence must lie strictly"),
        ({"thresholds": [0.2], "scores": [0.1, 1.2, 0.3, 0.4]}, r"probabilities in \[0, 1\]"),
        ({"thresholds": [0.2], "y_true": [1, 1, 1, 1]}, "no negative item"),
        ({"thresholds": [0.2], "y_true": [0, 1, 1]}, "differ in length"),
    ],
)
def test_bad_input_is_refused(kwargs, match):
    args = {"y_true": [0, 1, 0, 1], "scores": [0.1, 0.8, 0.3, 0.4], **kwargs}
    with pytest.raises(ValueError, match=match):
        net_benefit(args.pop("y_true"), args.pop("scores"), args.pop("thresholds"), **args)


@pytest.mark.parametrize(
    ("pos", "neg", "match"),
    [
        ([1, -1], [2, 2], "must not be negative"),
        ([1, 0.5], [2, 2], "whole numbers"),
        ([1, 2, 3], [2, 2], "must be 2 numbers"),
        ([0, 0], [2, 2], "no positive item"),
    ],
)
def test_bad_counts_are_refused(pos, neg, match):
    with pytest.raises(ValueError, match=match):
        decision_curve_from_counts([0.2, 0.6], pos, neg, [0.5], size=10)
