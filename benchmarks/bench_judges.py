"""Agreement and prevalence (issue 37) against statsmodels, krippendorff and QuaPy, one run.

Ratios, not seconds, are what a shared machine can compare, so each row times the library and
its reference on the same data in the same run:

- ``agreement``: Fleiss' kappa of an items x categories table against statsmodels'
  ``fleiss_kappa``; Krippendorff's alpha of 5 raters x 10**6 items with 10 % of the ratings
  missing against the ``krippendorff`` package (nominal and ordinal); the item bootstrap of
  alpha (1,000 resamples) against ``krippendorff.alpha`` once per resampled item set, timed
  on a few resamples and scaled to 1,000. The largest difference of the estimates is kept.
- ``prevalence``: ``estimate_prevalence`` with its interval (2,000 resamples of both samples)
  at 10**7 deployment labels and 10**4 hand labels, against QuaPy's adjusted count (its
  rates, ``solve_adjustment`` and the clipping) once per resample, timed on a few and scaled;
  QuaPy has no interval. EM with its interval at 10**5 deployment probabilities against
  ``EMQ.EM`` per resample, likewise. The point estimates are compared too.

Wall and CPU seconds are both given (the point estimates: medians of 5 calls): on a shared
machine the CPU time is the steadier figure.
"""

from __future__ import annotations

import time
import warnings

import numpy as np

import clfmetrics as cm


def _seconds(fn, repeat: int = 1):
    """Median wall and CPU seconds of ``repeat`` calls of ``fn``, and its result."""
    walls, cpus = [], []
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return float(np.median(walls)), float(np.median(cpus)), out


def _ratings(items: int, raters: int, categories: int, missing: float, rng) -> np.ndarray:
    truth = rng.integers(0, categories, size=items)
    right = rng.random((raters, items)) < 0.7
    noise = rng.integers(0, categories, size=(raters, items))
    ratings = np.where(right, truth, noise).astype(np.float64)
    ratings[rng.random(ratings.shape) < missing] = np.nan
    return ratings


def fleiss_row(items: int, raters: int, rng, repeat: int = 1) -> dict:
    ratings = _ratings(items, raters, 4, 0.0, rng)
    table = np.stack([(ratings == k).sum(axis=0) for k in range(4)], axis=1)
    row = {"coefficient": "fleiss_kappa", "items": items, "raters": raters}
    row["ours_s"], row["ours_cpu_s"], ours = _seconds(lambda: cm.fleiss_kappa(table), repeat)
    try:
        from statsmodels.stats.inter_rater import fleiss_kappa
    except ImportError:  # statsmodels is a test dependency
        row["reference"] = "statsmodels not installed"
        return row
    row["reference_s"], row["reference_cpu_s"], ref = _seconds(lambda: fleiss_kappa(table), repeat)
    row["reference"] = "statsmodels fleiss_kappa"
    row["speedup"] = row["reference_s"] / row["ours_s"]
    row["cpu_speedup"] = row["reference_cpu_s"] / row["ours_cpu_s"]
    row["max_difference"] = abs(float(ours) - float(ref))
    return row


def alpha_row(items: int, raters: int, level: str, rng, repeat: int = 1) -> dict:
    ratings = _ratings(items, raters, 5, 0.1, rng)
    row = {"coefficient": f"krippendorff_alpha ({level})", "items": items, "raters": raters}
    row["ours_s"], row["ours_cpu_s"], ours = _seconds(
        lambda: cm.krippendorff_alpha(ratings, level=level), repeat
    )
    try:
        import krippendorff
    except ImportError:
        row["reference"] = "krippendorff not installed"
        return row
    row["reference_s"], row["reference_cpu_s"], ref = _seconds(
        lambda: krippendorff.alpha(reliability_data=ratings, level_of_measurement=level), repeat
    )
    row["reference"] = "krippendorff.alpha"
    row["speedup"] = row["reference_s"] / row["ours_s"]
    row["cpu_speedup"] = row["reference_cpu_s"] / row["ours_cpu_s"]
    row["max_difference"] = abs(float(ours) - float(ref))
    return row


def alpha_interval_row(items: int, raters: int, size: int, few: int, rng) -> dict:
    ratings = _ratings(items, raters, 5, 0.1, rng)
    row = {"coefficient": "krippendorff_alpha interval", "items": items, "raters": raters}
    row["resamples"] = size
    row["ours_s"], row["ours_cpu_s"], iv = _seconds(
        lambda: cm.agreement_interval("krippendorff_alpha", ratings, size=size, rng=0)
    )
    row["width"] = iv.high - iv.low
    try:
        import krippendorff
    except ImportError:
        row["reference"] = "krippendorff not installed"
        return row
    draws = np.random.default_rng(1)

    def resampled():
        for _ in range(few):
            picked = ratings[:, draws.integers(0, items, items)]
            krippendorff.alpha(reliability_data=picked, level_of_measurement="nominal")

    wall, cpu, _ = _seconds(resampled)
    row["reference"] = "krippendorff.alpha per resample"
    row["reference_resamples_timed"] = few
    row["reference_s_scaled"] = wall * size / few
    row["speedup"] = row["reference_s_scaled"] / row["ours_s"]
    row["cpu_speedup"] = cpu * size / few / row["ours_cpu_s"]
    return row


def _judged(items: int, prevalence: float, rng):
    """Truth and a judge of sensitivity 0.85 and specificity 0.9."""
    y = (rng.random(items) < prevalence).astype(np.int64)
    pred = np.where(y == 1, rng.random(items) < 0.85, rng.random(items) < 0.1)
    return y, pred.astype(np.int64)


def _quapy_acc(y_cal, pred_cal, pred_dep):
    import quapy.functional as qf
    from quapy.method.aggregative import ACC

    classes = np.arange(2)
    rates = ACC.getPteCondEstim(classes, y_cal, pred_cal)
    cc = qf.prevalence_from_labels(pred_dep, classes)
    acc = ACC.solve_adjustment(rates, cc, method="inversion", solver="exact-raise")
    return qf.normalize_prevalence(acc, method="clip")


def adjusted_row(n_cal: int, n_dep: int, size: int, few: int, rng) -> dict:
    y_cal, pred_cal = _judged(n_cal, 0.2, rng)
    pred_dep = _judged(n_dep, 0.35, rng)[1]
    row = {"method": "adjusted", "calibration": n_cal, "deployment": n_dep, "resamples": size}
    row["ours_s"], row["ours_cpu_s"], est = _seconds(
        lambda: cm.estimate_prevalence(y_cal, pred_cal, pred_dep, size=size, rng=0)
    )
    row["width"] = float(est.high[1] - est.low[1])
    try:
        ref = _quapy_acc(y_cal, pred_cal, pred_dep)
    except ImportError:
        row["reference"] = "quapy not installed"
        return row
    row["max_difference"] = float(np.max(np.abs(est.estimate - ref)))
    draws = np.random.default_rng(1)

    def resampled():
        for _ in range(few):
            cal = draws.integers(0, n_cal, n_cal)
            _quapy_acc(y_cal[cal], pred_cal[cal], pred_dep[draws.integers(0, n_dep, n_dep)])

    wall, cpu, _ = _seconds(resampled)
    row["reference"] = "QuaPy ACC per resample of both samples"
    row["reference_resamples_timed"] = few
    row["reference_s_scaled"] = wall * size / few
    row["speedup"] = row["reference_s_scaled"] / row["ours_s"]
    row["cpu_speedup"] = cpu * size / few / row["ours_cpu_s"]
    return row


def _scored(items: int, prior, rng):
    """Truth and probabilities calibrated for equal priors, three classes."""
    y = rng.choice(3, size=items, p=prior)
    logits = rng.normal(size=(items, 3))
    logits[np.arange(items), y] += 1.5
    p = np.exp(1.5 * logits)
    return y, p / p.sum(axis=1, keepdims=True)


def em_row(n_cal: int, n_dep: int, size: int, few: int, rng) -> dict:
    y_cal, p_cal = _scored(n_cal, [1 / 3] * 3, rng)
    p_dep = _scored(n_dep, [0.2, 0.3, 0.5], rng)[1]
    row = {"method": "em", "calibration": n_cal, "deployment": n_dep, "resamples": size}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        row["ours_s"], row["ours_cpu_s"], est = _seconds(
            lambda: cm.estimate_prevalence(y_cal, p_cal, p_dep, method="em", size=size, rng=0)
        )
    row["width"] = float(np.max(est.high - est.low))
    try:
        from quapy.method.aggregative import EMQ
    except ImportError:
        row["reference"] = "quapy not installed"
        return row
    prior = np.bincount(y_cal, minlength=3) / n_cal
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # QuaPy warns where it stops at its step limit
        ref, _ = EMQ.EM(prior, p_dep)
        draws = np.random.default_rng(1)

        def resampled():
            for _ in range(few):
                cal = y_cal[draws.integers(0, n_cal, n_cal)]
                EMQ.EM(
                    np.bincount(cal, minlength=3) / n_cal, p_dep[draws.integers(0, n_dep, n_dep)]
                )

        wall, cpu, _ = _seconds(resampled)
    # QuaPy stops at a change of 1e-4, this library at 1e-12: their estimates differ by that
    row["max_difference_at_quapys_tolerance"] = float(np.max(np.abs(est.estimate - ref)))
    row["reference"] = "QuaPy EMQ.EM per resample of both samples (its tolerance 1e-4)"
    row["reference_resamples_timed"] = few
    row["reference_s_scaled"] = wall * size / few
    row["speedup"] = row["reference_s_scaled"] / row["ours_s"]
    row["cpu_speedup"] = cpu * size / few / row["ours_cpu_s"]
    return row


def bench_judges(quick: bool) -> dict:
    rng = np.random.default_rng(37)
    if quick:
        items, interval_items, size, few, repeat = 10**3, 10**3, 100, 2, 1
        n_cal, n_dep, em_dep, em_size = 10**3, 10**4, 10**3, 50
    else:
        items, interval_items, size, few, repeat = 10**6, 10**5, 1000, 3, 5
        n_cal, n_dep, em_dep, em_size = 10**4, 10**7, 10**5, 2000
    return {
        "agreement": [
            fleiss_row(items, 5, rng, repeat),
            alpha_row(items, 5, "nominal", rng, repeat),
            alpha_row(items, 5, "ordinal", rng, repeat),
            alpha_interval_row(interval_items, 5, size, few, rng),
        ],
        "prevalence": [
            adjusted_row(n_cal, n_dep, 2000 if not quick else 200, few, rng),
            em_row(n_cal, em_dep, em_size, few, rng),
        ],
    }
