"""Prevalence through an imperfect classifier: against QuaPy where the definitions coincide,
Rogan-Gladen's closed form, clipping and conditioning said, the interval of both samples and
its coverage, and labels_needed against simulation."""

import warnings

import numpy as np
import pytest
import quapy.functional as qf
from quapy.method.aggregative import ACC, EMQ, PACC

import clfmetrics
from clfmetrics import estimate_prevalence, labels_needed


def simulated(rng, n_cal, n_dep, cal_prev, dep_prev, separation=1.5):
    """Truth and probabilities of a classifier for both samples, len(prev) classes.

    The scores are N(separation * e_y, I), so softmax(separation * scores) is the posterior
    under equal priors: calibrated when the calibration prevalence is uniform.
    """

    def draw(prev, items):
        y = rng.choice(len(prev), size=items, p=prev)
        logits = rng.normal(size=(items, len(prev)))
        logits[np.arange(items), y] += separation
        p = np.exp(separation * logits)
        return y, p / p.sum(axis=1, keepdims=True)

    y_cal, p_cal = draw(cal_prev, n_cal)
    y_dep, p_dep = draw(dep_prev, n_dep)
    return y_cal, p_cal, y_dep, p_dep


CASES = [
    ([0.5, 0.5], [0.2, 0.8]),
    ([0.7, 0.3], [0.95, 0.05]),
    ([0.3, 0.3, 0.4], [0.6, 0.3, 0.1]),
    ([0.25, 0.25, 0.25, 0.25], [0.1, 0.2, 0.3, 0.4]),
]


def quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return estimate_prevalence(*args, size=50, rng=0, **kwargs)


@pytest.mark.parametrize(("cal_prev", "dep_prev"), CASES)
def test_the_estimators_equal_quapys(cal_prev, dep_prev):
    rng = np.random.default_rng(len(dep_prev))
    y_cal, p_cal, _, p_dep = simulated(rng, 400, 1500, cal_prev, dep_prev)
    classes = np.arange(len(cal_prev))
    hard_cal, hard_dep = p_cal.argmax(axis=1), p_dep.argmax(axis=1)

    cc = qf.prevalence_from_labels(hard_dep, classes)
    assert quiet(y_cal, hard_cal, hard_dep, method="cc").estimate == pytest.approx(cc, abs=1e-12)
    pcc = qf.prevalence_from_probabilities(p_dep)
    got = quiet(y_cal, p_cal, p_dep, method="probabilistic").estimate
    assert got == pytest.approx(pcc, abs=1e-12)

    rates = ACC.getPteCondEstim(classes, y_cal, hard_cal)
    acc = ACC.solve_adjustment(rates, cc, method="inversion", solver="exact-raise")
    acc = qf.normalize_prevalence(acc, method="clip")
    got = quiet(y_cal, hard_cal, hard_dep, method="adjusted")
    assert got.estimate == pytest.approx(acc, abs=1e-10)
    assert got.condition == pytest.approx(np.linalg.cond(rates))

    rates = PACC.getPteCondEstim(classes, y_cal, p_cal)
    pacc = ACC.solve_adjustment(rates, pcc, method="inversion", solver="exact-raise")
    pacc = qf.normalize_prevalence(pacc, method="clip")
    got = quiet(y_cal, p_cal, p_dep, method="probabilistic_adjusted").estimate
    assert got == pytest.approx(pacc, abs=1e-10)

    steps = EMQ.MAX_ITER
    EMQ.MAX_ITER = 10**6
    try:
        em, _ = EMQ.EM(np.bincount(y_cal) / len(y_cal), p_dep, epsilon=1e-15)
    finally:
        EMQ.MAX_ITER = steps
    assert quiet(y_cal, p_cal, p_dep, method="em").estimate == pytest.approx(em, abs=1e-10)
    assert quiet(y_cal, p_cal, p_dep, method="sld").estimate == pytest.approx(em, abs=1e-10)


def test_em_from_the_fitting_prior_equals_quapys_and_resamples_the_deployment_set_alone():
    # Probabilities calibrated for a uniform prior (the fitting prior), a calibration
    # sample drawn at another one: EM from the calibration shares is biased, from the
    # fitting prior it is not.
    rng = np.random.default_rng(11)
    fit, truth = [1 / 3] * 3, [0.2, 0.3, 0.5]
    y_cal, p_cal, y_dep, p_dep = simulated(rng, 300, 8_000, [0.6, 0.3, 0.1], truth)
    steps = EMQ.MAX_ITER
    EMQ.MAX_ITER = 10**6
    try:
        reference, _ = EMQ.EM(np.array(fit), p_dep, epsilon=1e-15)
        loose, _ = EMQ.EM(np.array(fit), p_dep)  # QuaPy's default tolerance
    finally:
        EMQ.MAX_ITER = steps
    given = estimate_prevalence(y_cal, p_cal, p_dep, method="em", prior=fit, size=100, rng=0)
    assert given.estimate == pytest.approx(reference, abs=1e-10)
    assert given.estimate == pytest.approx(loose, abs=5e-4)
    assert np.abs(given.estimate - np.bincount(y_dep) / len(y_dep)).max() < 0.02
    shares = estimate_prevalence(y_cal, p_cal, p_dep, method="em", size=100, rng=0)
    assert np.abs(shares.estimate - np.bincount(y_dep) / len(y_dep)).max() > 0.05
    # Taken as known, the prior adds no calibration uncertainty: 8,000 deployment items.
    assert (given.high - given.low).max() < (shares.high - shares.low).max() / 3
    assert (given.high - given.low).max() < 0.04


def test_each_resample_of_the_stacked_em_is_its_own_em_and_quapys(monkeypatch):
    # The resamples iterate as one stack, each frozen as it settles: each row must be the
    # EM of its own resample, whatever the other rows do (one settling early, one late);
    # and a step's blocks of items (here three, the last one short) must add up to it.
    from clfmetrics.probabilities import _quantification
    from clfmetrics.probabilities._quantification import _em

    rng = np.random.default_rng(5)
    y_cal, _, _, p_dep = simulated(rng, 300, 600, [1 / 3] * 3, [0.7, 0.25, 0.05])
    picks = rng.integers(0, len(p_dep), size=(5, len(p_dep)))
    weights = np.stack([np.bincount(row, minlength=len(p_dep)) for row in picks]).astype(float)
    prior = np.tile(np.bincount(y_cal) / len(y_cal), (5, 1))
    prior[0] = [0.2, 0.3, 0.5]  # a row farther from its fixed point, settling later
    stacked = _em(prior, p_dep, weights, 1e-12, 10_000)
    monkeypatch.setattr(_quantification, "_EM_BLOCK_NUMBERS", 1)  # blocks of 256 items
    assert _em(prior, p_dep, weights, 1e-12, 10_000) == pytest.approx(stacked, abs=1e-13)
    monkeypatch.undo()
    steps = EMQ.MAX_ITER
    EMQ.MAX_ITER = 10**6
    try:
        for b in range(5):
            alone = _em(prior[b : b + 1], p_dep, weights[b : b + 1], 1e-12, 10_000)[0]
            assert stacked[b] == pytest.approx(alone, abs=1e-12)
            quapy, _ = EMQ.EM(prior[b], p_dep[picks[b]], epsilon=1e-15)
            assert stacked[b] == pytest.approx(quapy, abs=1e-10)
    finally:
        EMQ.MAX_ITER = steps


def test_adjusted_is_rogan_gladen_for_two_classes_and_takes_any_labels():
    y_cal = ["no"] * 80 + ["yes"] * 20
    pred_cal = ["no"] * 72 + ["yes"] * 8 + ["no"] * 4 + ["yes"] * 16  # TPR 0.8, FPR 0.1
    pred_dep = ["yes"] * 250 + ["no"] * 750
    est = estimate_prevalence(y_cal, pred_cal, pred_dep, size=200, rng=0)
    assert est.labels == ["no", "yes"]
    assert est.estimate[1] == pytest.approx((0.25 - 0.1) / (0.8 - 0.1), abs=1e-14)
    assert est.estimate.sum() == pytest.approx(1.0)
    assert not est.clipped and est.warning is None
    assert est.calibration == 100 and est.deployment == 1000
    assert "yes: 0.214" in str(est)


def test_probabilities_of_the_positive_class_and_their_argmax_are_accepted():
    rng = np.random.default_rng(3)
    y_cal, p_cal, _, p_dep = simulated(rng, 300, 800, [0.5, 0.5], [0.3, 0.7])
    one = estimate_prevalence(y_cal, p_cal[:, 1], p_dep[:, 1], method="pacc", size=50, rng=0)
    two = estimate_prevalence(y_cal, p_cal, p_dep, method="pacc", size=50, rng=0)
    assert one.estimate == pytest.approx(two.estimate, abs=1e-14)
    hard = estimate_prevalence(y_cal, p_cal.argmax(1), p_dep.argmax(1), size=50, rng=0)
    soft = estimate_prevalence(y_cal, p_cal, p_dep, size=50, rng=0)  # their argmax
    assert hard.estimate == pytest.approx(soft.estimate, abs=1e-14)


def test_an_estimate_out_of_range_is_clipped_and_says_so():
    y_cal = [0] * 50 + [1] * 50
    pred_cal = [0] * 45 + [1] * 5 + [0] * 10 + [1] * 40  # FPR 0.1, TPR 0.8
    pred_dep = [1] * 20 + [0] * 980  # 2 % predicted positive: below the FPR
    with pytest.warns(UserWarning, match="clipped"):
        est = estimate_prevalence(y_cal, pred_cal, pred_dep, size=200, rng=0)
    assert est.clipped
    assert est.raw[1] == pytest.approx((0.02 - 0.1) / 0.7)
    assert list(est.estimate) == [1.0, 0.0]
    assert est.low[1] == 0.0 and 0 <= est.high[1] < 0.1
    assert "clipped" in est.warning


def test_an_ill_conditioned_inversion_is_warned_about_and_a_singular_one_refused():
    y_cal = [0] * 100 + [1] * 100
    weak = [0] * 55 + [1] * 45 + [0] * 50 + [1] * 50  # TPR 0.5, FPR 0.45: J = 0.05
    pred_dep = [1] * 480 + [0] * 520
    with pytest.warns(UserWarning, match="ill-conditioned"):
        est = estimate_prevalence(y_cal, weak, pred_dep, size=100, rng=0)
    assert est.condition > 10
    # The resamples of so weak a classifier scatter over the whole range.
    assert est.high[1] - est.low[1] > 0.5
    useless = [0] * 50 + [1] * 50 + [0] * 50 + [1] * 50  # TPR = FPR
    with pytest.raises(ValueError, match="cannot be inverted"):
        estimate_prevalence(y_cal, useless, pred_dep, size=100, rng=0)
    # Classify-and-count inverts nothing, and says nothing of conditioning.
    cc = estimate_prevalence(y_cal, useless, pred_dep, method="cc", size=100, rng=0)
    assert np.isnan(cc.condition) and cc.warning is None


def test_the_interval_carries_the_calibration_samples_uncertainty():
    rng = np.random.default_rng(4)
    widths = {}
    for n_cal in (100, 1600):
        y_cal, p_cal, _, p_dep = simulated(rng, n_cal, 200_000, [0.5, 0.5], [0.3, 0.7])
        hard_cal, hard_dep = p_cal.argmax(1), p_dep.argmax(1)
        est = estimate_prevalence(y_cal, hard_cal, hard_dep, size=1000, rng=0)
        widths[n_cal] = est.high[1] - est.low[1]
        cc = estimate_prevalence(y_cal, hard_cal, hard_dep, method="cc", size=1000, rng=0)
        assert cc.high[1] - cc.low[1] < 0.01  # 200,000 deployment items alone
    # Sixteen times the labels: about a quarter of the width, all of it from calibration.
    assert widths[100] > 0.1
    assert widths[100] / widths[1600] == pytest.approx(4, rel=0.25)


@pytest.mark.parametrize("method", ["adjusted", "em"])
def test_the_prevalence_interval_covers_the_truth(method):
    rng = np.random.default_rng(5)
    truth = np.array([0.8, 0.2])
    hits = 0
    studies = 120
    for _ in range(studies):
        y_cal, p_cal, _, p_dep = simulated(rng, 300, 600, [0.5, 0.5], truth, separation=1.5)
        # The deployment items' true prevalence is the population's: label shift only.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            est = estimate_prevalence(y_cal, p_cal, p_dep, method=method, size=200, rng=rng)
        hits += est.low[1] <= truth[1] <= est.high[1]
    assert 0.88 <= hits / studies <= 1.0


def test_labels_needed_gives_the_width_asked_for_in_simulation():
    q, sens, spec, deploy = 0.2, 0.85, 0.9, 5000
    n = labels_needed(0.1, prevalence=q, sensitivity=sens, specificity=spec, deployment=deploy)
    rng = np.random.default_rng(6)
    widths = []
    for _ in range(150):
        y_cal = (rng.random(n) < q).astype(int)
        pred_cal = np.where(y_cal == 1, rng.random(n) < sens, rng.random(n) > spec).astype(int)
        y_dep = rng.random(deploy) < q
        pred_dep = np.where(y_dep, rng.random(deploy) < sens, rng.random(deploy) > spec)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            est = estimate_prevalence(y_cal, pred_cal, pred_dep.astype(int), size=400, rng=rng)
        widths.append(est.high[1] - est.low[1])
    assert np.mean(widths) == pytest.approx(0.1, rel=0.1)
    more = labels_needed(0.05, prevalence=q, sensitivity=sens, specificity=spec)
    fewer = labels_needed(0.1, prevalence=q, sensitivity=sens, specificity=spec)
    assert more == pytest.approx(4 * fewer, rel=0.01)  # half the width, four times the labels


def test_labels_needed_for_three_classes_gives_the_width_asked_for_in_simulation():
    q = np.array([0.5, 0.3, 0.2])
    rates = np.array([[0.85, 0.1, 0.1], [0.1, 0.8, 0.15], [0.05, 0.1, 0.75]])
    deploy = 5000
    n = labels_needed(0.1, prevalence=q, rates=rates, deployment=deploy)
    rng = np.random.default_rng(6)

    def judged(y):  # each item's prediction drawn from its class's column of rates
        return (rng.random(len(y))[:, None] > np.cumsum(rates[:, y].T, axis=1)).sum(axis=1)

    widths = []
    for _ in range(150):
        y_cal, y_dep = rng.choice(3, size=n, p=q), rng.choice(3, size=deploy, p=q)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            est = estimate_prevalence(y_cal, judged(y_cal), judged(y_dep), size=400, rng=rng)
        widths.append(est.high - est.low)
    widths = np.mean(widths, axis=0)
    # the widest class's interval is the width asked for; the others are narrower
    assert widths.max() == pytest.approx(0.1, rel=0.1)
    assert np.sort(widths)[:2].max() < 0.095
    # two classes through rates= are the sensitivity/specificity form
    two = {"prevalence": 0.3, "deployment": 10_000, "calibration_prevalence": 0.2}
    by_rates = labels_needed(0.04, rates=[[0.9, 0.2], [0.1, 0.8]], **two)
    assert by_rates == labels_needed(0.04, sensitivity=0.8, specificity=0.9, **two) > 1000


def test_the_names_are_public():
    for name in ("estimate_prevalence", "labels_needed", "PrevalenceEstimate"):
        assert name in clfmetrics.__all__ and name in clfmetrics.probabilities.__all__


Y, P, D = [0, 0, 1, 1], [0, 1, 1, 1], [0, 1, 1]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: estimate_prevalence(Y, P, D, method="hdy"), "method must be one of"),
        (lambda: estimate_prevalence(Y, P, [0, 2]), "calibration set"),
        (lambda: estimate_prevalence([0, 0, 0, 0], P, D, labels=[0, 1]), "no item of class 1"),
        (lambda: estimate_prevalence(Y, [[0.5, 0.5]] * 4, D), "both labels, or both"),
        (
            lambda: estimate_prevalence(Y, [[0.5, 0.5]] * 4, [[0.2, 0.3, 0.5]], method="em"),
            "3 columns for 2 classes",
        ),
        (
            lambda: estimate_prevalence(Y, [[0.5, 0.6]] * 4, [[0.5, 0.5]], method="pacc"),
            "does not sum to 1",
        ),
        (
            lambda: estimate_prevalence(Y, [[0.3, 0.3, 0.4]] * 4, [[0.3, 0.3, 0.4]], method="em"),
            "3 columns but there are 2 classes",
        ),
        (lambda: estimate_prevalence(Y, [1.2, 0, 0, 1], [0.5], method="pcc"), r"\[0, 1\]"),
        (lambda: estimate_prevalence(Y, P, D, level=2), "level must be"),
        (lambda: estimate_prevalence(Y, P, D, prior=[0.5, 0.5]), "fitting prior of method='em'"),
        (
            lambda: estimate_prevalence(Y, [0.5] * 4, [0.5], method="em", prior=[0.6, 0.6]),
            "sum to 1",
        ),
        (
            lambda: estimate_prevalence(Y, [0.5] * 4, [0.5], method="em", prior=[1, 0]),
            "positive shares",
        ),
        (
            lambda: estimate_prevalence(Y, [0.5] * 4, [0.5], method="em", prior=[0.2] * 5),
            "2 numbers, one per class",
        ),
        (lambda: estimate_prevalence(Y, P[:3], D), "differ in length"),
        (
            lambda: labels_needed(0.1, prevalence=0.2, sensitivity=0.5, specificity=0.5),
            "must exceed 1",
        ),
        (
            lambda: labels_needed(
                0.01, prevalence=0.2, sensitivity=0.9, specificity=0.9, deployment=100
            ),
            "deployment set alone",
        ),
        (lambda: labels_needed(2, prevalence=0.2, sensitivity=0.9, specificity=0.9), "width"),
        (
            lambda: labels_needed(0.1, prevalence=0.2, sensitivity=0.9, specificity=1.9),
            "specificity must",
        ),
        (lambda: labels_needed(0.1, prevalence=0.2), "or rates="),
        (
            lambda: labels_needed(0.1, prevalence=[0.5, 0.5], rates=[[0.9, 0.2], [0.2, 0.8]]),
            "each column summing to 1",
        ),
        (
            lambda: labels_needed(0.1, prevalence=[0.5, 0.5], rates=[[0.5, 0.5], [0.5, 0.5]]),
            "cannot be inverted",
        ),
        (
            lambda: labels_needed(0.1, prevalence=[0.5, 0.4], rates=[[0.9, 0.2], [0.1, 0.8]]),
            "prevalence must sum to 1",
        ),
        (
            lambda: labels_needed(0.1, prevalence=[0.5, 0.3, 0.2], rates=np.eye(2)),
            "3 shares|2 shares",
        ),
        (
            lambda: labels_needed(
                0.1, prevalence=[0.5, 0.5], rates=np.eye(2), calibration_prevalence=[1, 0]
            ),
            "needs every class",
        ),
        (
            lambda: labels_needed(
                0.1, prevalence=0.5, rates=np.eye(2), sensitivity=0.9, specificity=0.9
            ),
            "not both",
        ),
    ],
)
def test_bad_input_is_a_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_the_estimate_feeds_prevalence_scaling_and_prior_shift():
    rng = np.random.default_rng(8)
    y_cal, p_cal, _, p_dep = simulated(rng, 500, 2000, [0.5, 0.3, 0.2], [0.2, 0.3, 0.5])
    hard_cal, hard_dep = p_cal.argmax(1), p_dep.argmax(1)
    est = estimate_prevalence(y_cal, hard_cal, hard_dep, size=50, rng=0)
    assert not est.clipped
    # The calibration matrix scaled to the estimated prevalence predicts as the deployment
    # set does: the adjusted estimate is the prevalence that reproduces its bias.
    m = clfmetrics.confusion_matrix(y_cal, hard_cal)
    scaled = clfmetrics.prevalence_scale(m, est.estimate / clfmetrics.prevalence(m))
    assert clfmetrics.prevalence(scaled) == pytest.approx(est.estimate, abs=1e-12)
    shares = np.bincount(hard_dep, minlength=3) / len(hard_dep)
    assert clfmetrics.bias(scaled) == pytest.approx(shares, abs=1e-12)
    # EM's estimate is the prior whose prior_shift of the probabilities averages to itself.
    em = estimate_prevalence(y_cal, p_cal, p_dep, method="em", size=20, rng=0)
    shifted = clfmetrics.prior_shift(p_dep, np.bincount(y_cal) / len(y_cal), em.estimate)
    assert shifted.mean(axis=0) == pytest.approx(em.estimate, abs=1e-10)
